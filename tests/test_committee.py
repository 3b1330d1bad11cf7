"""The committee: config validation, members' decisions as CRF attributes (mega.v1) and the
cross-fitted stacking of decisions (multi.v1), trained, saved, loaded and tagging."""

from __future__ import annotations

import pytest

from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.errors import ConfigError, ModelError
from crfdeid.recognizers import committee as cm
from crfdeid.recognizers import stacking
from crfdeid.recognizers.base import EXTRAS
from crfdeid.synth import generate
from crfdeid.text.tokenize import tokenize

TINY = {"features": "no_dict", "crf": {"max_iterations": 10}, "seed": 7}


def _config(combine, members=("rules.v1", "lexicon.v1"), **more):
    return {**TINY, "committee": {"combine": combine, "members": list(members), **more}}


@pytest.fixture(scope="module")
def docs():
    return generate(16, seed=7)


@pytest.mark.parametrize("section, message", [
    ({"combine": "mega"}, r"unknown committee.combine 'mega'; known: mega.v1, multi.v1 \(or null\)"),
    ({"combine": "mega.v1", "members": []}, "needs at least one member"),
    ({"combine": "mega.v1", "members": ["nope.v1"]}, "unknown recognizer 'nope.v1'; known: crf.v1"),
    ({"combine": "multi.v1", "members": ["rules.v1"], "folds": 1}, "committee.folds must be an integer >= 2"),
    ({"colour": "red"}, r"unknown committee key\(s\) colour; allowed: combine, members, folds"),
])
def test_committee_config_is_validated(section, message):
    with pytest.raises(ConfigError, match=message):
        load_config({**TINY, "committee": section})


def test_a_missing_extra_stops_training_before_it_starts(monkeypatch, docs):
    monkeypatch.setitem(EXTRAS, "lexicon.v1", ("imaginary", ("crfdeid_no_such_module",)))
    read = []
    with pytest.raises(ConfigError, match=r"pip install .*\[imaginary\]'"):
        train_model((read.append(d) or d for d in docs), _config("mega.v1"))
    assert read == []  # not one note was read


def test_no_committee_is_the_default():
    cfg = load_config(TINY)
    assert cfg["committee"] == {"combine": None, "members": [], "folds": 3}
    assert cm.from_config(cfg) is None


def test_member_decisions_cover_the_tokens_of_their_spans():
    c = cm.Committee({"combine": "mega.v1", "members": ["rules.v1"]})
    text = "call 617-555-0199 now"
    toks = tokenize(text)
    attrs = c.attributes(text, toks)
    marked = [t.text for t, a in zip(toks, attrs) if a]
    assert "".join(marked) == "617-555-0199"
    assert attrs[[t.text for t in toks].index("617")] == ("cm:rules.v1:B-PHONE", "cm:votes:1")
    assert all(a == ("cm:rules.v1:I-PHONE", "cm:votes:1") for a in attrs[2:len(marked) + 1])


@pytest.mark.slow
def test_mega_model_learns_the_members_attributes_and_round_trips(docs, tmp_path):
    model = train_model(docs, _config("mega.v1"))
    from crfdeid.crf.numpy.weights import read_weights
    learned = read_weights(model._crf).attributes
    assert any(a.startswith("cm:rules.v1:") for a in learned)
    assert any(a.startswith("cm:lexicon.v1:") for a in learned)
    path = model.save(tmp_path / "mega.model")
    back = Model.load(path)
    text = "Seen by Dr. Okafor on 03/14/2098."
    assert back.tag_text(text).spans == model.tag_text(text).spans
    assert back.committee.keys == ["rules.v1", "lexicon.v1"]
    # both backends read the committee's attributes the same way
    slow = Model.load(path, backend="crfsuite")
    for doc in docs[:5]:
        assert slow.tag(doc).spans == back.tag(doc).spans


@pytest.fixture(scope="module")
def multi(docs):
    """A ``multi.v1`` model trained once through :func:`train_model` (2 folds), with what its
    training did recorded: the notes each CRF was trained on, and the texts whose probabilities
    were featurized for the regression. ``(model, trained, featurized)``."""
    trained, featurized = [], []
    import crfdeid.crf.train as train_module
    real_train, real_features = train_module.train_model, stacking.features

    def spy_train(train_docs, config, progress=False):
        trained.append({d.doc_id for d in train_docs})
        return real_train(train_docs, config, progress)

    def spy_features(committee, text, tokens, marginals):
        featurized.append(text)
        return real_features(committee, text, tokens, marginals)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(train_module, "train_model", spy_train)  # the folds' CRFs, trained by train_multi
        mp.setattr(stacking, "features", spy_features)
        model = real_train(docs, _config("multi.v1", folds=2))
    return model, trained, featurized


@pytest.mark.slow
def test_multi_crossfits_its_regression(multi, docs):
    """Each fold's CRF never saw the notes whose probabilities train the regression."""
    model, trained, featurized = multi
    assert len(trained) == 3  # two folds, then all the notes
    assert trained[-1] == {d.doc_id for d in docs}
    by_text = {d.text: d.doc_id for d in docs}
    seen = [by_text[t] for t in featurized]
    assert sorted(seen) == sorted(by_text.values())  # every note scored once, out of fold
    fold_of = {}
    for k, ids in enumerate(trained[:-1]):
        for i in set(by_text.values()) - ids:
            fold_of[i] = k
    assert len(fold_of) == len(docs)  # the held-out sides partition the notes
    assert model.manifest["stacker"]["classes"][0] == "O"


@pytest.mark.slow
def test_multi_model_tags_saves_and_loads(multi, docs, tmp_path):
    model = multi[0]
    path = model.save(tmp_path / "multi.model")
    back = Model.load(path)
    doc = docs[0]
    got = back.tag(doc)
    assert got.spans == model.tag(doc).spans
    assert got.spans, "the stacked model finds PHI in a synthetic note"
    assert len(got.meta["confidence"]) == len(got.spans)
    # a lower threshold on the regression's P(O) finds at least as many PHI tokens
    assert len(back.tag(doc, o_threshold=0.999).spans) >= len(back.tag(doc, o_threshold=None).spans) - 1
    from crfdeid.tagging import modelfile
    manifest, crf = modelfile.parse(path.read_bytes())
    del manifest["stacker"]
    with pytest.raises(ModelError, match="without its stacker weights"):
        Model(crf, load_config(manifest["config"]), manifest)
