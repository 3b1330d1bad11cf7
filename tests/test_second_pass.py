"""The second-pass (stacked) CRF: cross-fitting, its attributes, the model file, both backends."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from crfdeid.config import load_config
from crfdeid.errors import ConfigError, ModelError
from crfdeid.io import read
from crfdeid.model import Model, tokens_for, train_model
from crfdeid.second_pass import _word_key, cross_fitted_p_phi, first_pass_config, p_bin, pass_attributes
from crfdeid.tokenize import tokenize

ROOT = Path(__file__).resolve().parent.parent
OVERRIDE = {"crf": {"max_iterations": 8}, "rules": {"enabled": True}, "decoding": {"o_threshold": 0.9},
            "second_pass": {"enabled": True, "folds": 2}}


@pytest.fixture(scope="module")
def cfg():
    return load_config(ROOT / "configs" / "synth-small.yaml", OVERRIDE)


@pytest.fixture(scope="module")
def train_docs():
    return list(read("synth:24,7"))


@pytest.fixture(scope="module")
def test_docs():
    return list(read("synth:8,99"))


@pytest.fixture(scope="module")
def stacked(cfg, train_docs):
    return train_model(train_docs, cfg)


def test_attributes_bin_own_neighbours_and_the_same_word_elsewhere():
    toks = tokenize("Lee saw lee , Kim")
    attrs = pass_attributes(toks, [0.9, 0.0, 0.3, 0.05, 0.6])
    assert attrs[0] == ("p1:own=hi", "p1:next=none", "p1:same_word=mid")
    assert attrs[2] == ("p1:own=mid", "p1:prev=none", "p1:next=lo", "p1:same_word=hi")
    assert attrs[3] == ("p1:own=lo", "p1:prev=mid", "p1:next=hi")  # punctuation: no word
    assert attrs[4] == ("p1:own=hi", "p1:prev=lo")  # said once: no same-word attribute
    assert [p_bin(p) for p in (1.0, 0.5, 0.1, 0.01, 0.0)] == ["hi", "mid", "lo", "none", "none"]
    assert pass_attributes([], []) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Lee", "lee", "LEE", "saw", "Kim", ",", "x", "it's", "7"]),
                          st.sampled_from([0.0, 0.005, 0.05, 0.3, 0.7, 1.0])), max_size=14))
def test_same_word_attribute_is_the_highest_p_of_the_other_occurrences(pairs):
    toks = tokenize(" ".join(w for w, _ in pairs))
    p = [pairs[j % len(pairs)][1] for j in range(len(toks))]  # "it's" is three tokens
    got = pass_attributes(toks, p)
    for i, t in enumerate(toks):
        k = _word_key(t.text)
        others = [p[j] for j, u in enumerate(toks) if j != i and k is not None and _word_key(u.text) == k]
        expected = ["p1:same_word=" + p_bin(max(others))] if others else []
        assert [a for a in got[i] if a.startswith("p1:same_word=")] == expected


def test_too_many_folds_for_the_patients_names_the_setting(cfg):
    docs = list(read("synth:1,7"))
    with pytest.raises(ConfigError, match="second_pass.folds"):
        cross_fitted_p_phi(docs, cfg, train_model)


def test_cross_fitting_never_scores_a_note_with_a_model_that_saw_it(cfg, train_docs, monkeypatch):
    seen = []

    def spy(docs, config):
        assert config["second_pass"]["enabled"] is False  # the first pass is a plain CRF
        seen.append({d.doc_id for d in docs})
        return train_model(docs, config)

    import crfdeid.model as model_mod
    calls = []
    real = model_mod.Model.p_phi
    monkeypatch.setattr(model_mod.Model, "p_phi", lambda self, texts: calls.append(list(texts)) or real(self, texts))
    p = cross_fitted_p_phi(train_docs, cfg, spy)
    assert len(seen) == 2 and len(calls) == 2
    by_text = {d.text: d for d in train_docs}
    for trained_on, scored in zip(seen, calls):
        scored_ids = {by_text[t].doc_id for t in scored}
        assert not trained_on & scored_ids
        # patient-grouped: no patient on both sides
        assert not {by_text[t].group for t in scored} & {d.group for d in train_docs if d.doc_id in trained_on}
    split = cfg["tokenizer"]["split_glued"]
    assert [len(x) for x in p] == [len(tokens_for(d.text, split)) for d in train_docs]
    assert all(0.0 <= v <= 1.0 for x in p for v in x)


def test_stacked_model_holds_its_first_pass_and_tags(stacked, test_docs):
    assert stacked.first is not None and stacked.first.first is None
    assert stacked.first.config["second_pass"]["enabled"] is False
    assert stacked.stats["first_pass_seconds"] > 0
    tagged = list(stacked.tag_many(test_docs))
    assert sum(len(t.spans) for t in tagged) > 0
    # the second CRF learned weights for the first pass's attributes
    weights = stacked._numpy.scorer.weights.attributes
    assert any(a.startswith("p1:own=") for a in weights)


def test_backends_agree_and_file_round_trips(stacked, test_docs, tmp_path):
    path = stacked.save(tmp_path / "s.model")
    a, b = Model.load(path), Model.load(path, backend="crfsuite")
    assert a.first is not None and b.first is not None and b.first.backend == "crfsuite"
    for d in test_docs:
        assert a.tag(d).spans == b.tag(d).spans == stacked.tag(d).spans
        for u, v in zip(a.marginals(d), b.marginals(d)):
            assert all(abs(u[k] - v[k]) < 1e-6 for k in u)
    assert [t.spans for t in a.tag_many(test_docs)] == [a.tag(d).spans for d in test_docs]
    again = pickle.loads(pickle.dumps(a))
    assert again.first is not None and again.tag(test_docs[0]).spans == a.tag(test_docs[0]).spans
    assert Model.from_bytes(path.read_bytes()).to_bytes() == path.read_bytes()


def test_training_is_reproducible(stacked, cfg, train_docs):
    assert train_model(train_docs, cfg).to_bytes() == stacked.to_bytes()


@pytest.mark.parametrize("where", ["second", "first", "cut"])
def test_damaged_first_pass_is_refused(stacked, tmp_path, where):
    data = bytearray(stacked.to_bytes())
    first = len(stacked.first.to_bytes())
    if where == "second":
        data[len(data) - first - 20] ^= 0xFF
    elif where == "first":
        data[-20] ^= 0xFF
    else:
        data = data[:-10]
    path = tmp_path / "bad.model"
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="bad.model"):
        Model.load(path)


def test_first_pass_config_only_turns_the_second_pass_and_the_o_words_off(cfg):
    cfg = dict(cfg, decoding=dict(cfg["decoding"], o_words_min_count=2))
    first = first_pass_config(cfg)
    assert first["second_pass"]["enabled"] is False and cfg["second_pass"]["enabled"] is True
    assert first["decoding"]["o_words_min_count"] is None and cfg["decoding"]["o_words_min_count"] == 2
    assert dict(first["decoding"], o_words_min_count=2) == cfg["decoding"]
    assert {k: v for k, v in first.items() if k not in ("second_pass", "decoding")} == \
        {k: v for k, v in cfg.items() if k not in ("second_pass", "decoding")}


def test_first_pass_of_a_second_pass_model_keeps_no_o_words(cfg, train_docs):
    cfg = dict(cfg, decoding=dict(cfg["decoding"], o_words_min_count=1),
               crf=dict(cfg["crf"], max_iterations=1))
    model = train_model(train_docs, cfg)
    assert model.o_words and not model.first.o_words


@pytest.mark.parametrize("bad", [{"folds": 1}, {"enabled": "yes"}, {"seed": 1.5}, {"rounds": 2}])
def test_bad_second_pass_config_is_refused(bad):
    with pytest.raises(ConfigError, match="second_pass"):
        load_config({"second_pass": bad})
