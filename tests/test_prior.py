"""A prior in the model file: the shipped model's CRF voting in a site model's decoding (issue 34, item 1)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest
from byo_corpus import LABELS, make_corpus
from routed_kit import shipped_crf

from crfdeid.cli import main
from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.errors import ConfigError, ModelError
from crfdeid.io import read
from crfdeid.labels import OUTSIDE
from crfdeid.tagging import modelfile

TINY = {"train": ["synth:15,1"], "crf": {"max_iterations": 8}, "seed": 1,
        "decoding": {"o_threshold": 0.99}, "prior": {"model": "default", "weight": 0.3}}


@pytest.fixture(scope="module")
def model():
    return train_model(None, TINY)


@pytest.fixture(scope="module")
def notes():
    return list(read("synth:8,9"))


def _spans(m, docs):
    return [[(s.start, s.end, s.category, s.subtype, s.confidence) for s in d.spans] for d in m.tag_many(docs)]


def _p_outside(m, doc):
    return np.array(m.token_p_outside(doc)[1])


def test_the_file_holds_the_shipped_crf_and_tags_the_same_after_a_round_trip(model, notes, tmp_path):
    shipped = shipped_crf()  # a routed shipped file's prior is its default member's CRF
    assert model.prior is not None and model.prior._crf == shipped._crf and model.prior.labels == shipped.labels
    assert model.manifest["prior"]["source"] == "default"
    assert model.prior.config["features"] == shipped.config["features"]  # its own features, not the site's
    path = model.save(tmp_path / "m.model")
    again = Model.load(path)
    assert again.prior is not None and again.prior._crf == shipped._crf
    assert again.config["prior"] == {"model": "default", "weight": 0.3, "vote": "outside"}
    assert again.to_bytes() == path.read_bytes()
    assert _spans(again, notes) == _spans(model, notes)
    assert _spans(pickle.loads(pickle.dumps(again)), notes) == _spans(model, notes)


def test_a_damaged_or_missing_prior_part_is_refused_naming_the_file(model, tmp_path):
    data = bytearray(model.to_bytes())
    data[-10] ^= 0xFF
    (tmp_path / "bad.model").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="bad.model.*checksum"):
        Model.load(tmp_path / "bad.model")
    with pytest.raises(ModelError, match="prior CRF part"):
        modelfile.parse_all(model.to_bytes()[:-5])
    with pytest.raises(ModelError, match="prior section and the prior's CRF"):
        Model(model._crf, model.config, model.manifest)


def test_the_prior_votes_on_p_outside_with_its_weight(model, notes):
    site = Model(model._crf, load_config({**model.config, "prior": None}), model.manifest)
    for doc in notes[:3]:
        mixed, own, prior = _p_outside(model, doc), _p_outside(site, doc), _p_outside(model.prior, doc)
        assert np.allclose(mixed, 0.7 * own + 0.3 * prior)
    # every PHI label keeps the site CRF's share of what is not O
    m, s = model.marginals(notes[0]), site.marginals(notes[0])
    for a, b in zip(m, s):
        if b[OUTSIDE] < 0.999:
            assert a["B-DATE"] / (1 - a[OUTSIDE]) == pytest.approx(b["B-DATE"] / (1 - b[OUTSIDE]))


def test_the_prior_raises_a_token_the_site_model_doubts():
    # A site model that has seen almost nothing: alone it leaves the name; the shipped model finds it.
    cfg = {**TINY, "train": ["synth:3,4"], "crf": {"max_iterations": 2}}
    text = "Seen by Dr. Lee on 7/22/2098 with his wife Mary Okafor."
    alone = train_model(None, {**cfg, "prior": None})
    voted = train_model(None, {**cfg, "prior": {"weight": 0.5}})
    found = {text[s.start:s.end] for s in voted.tag_text(text).spans}
    assert found - {text[s.start:s.end] for s in alone.tag_text(text).spans}
    assert any("Okafor" in f for f in found - {text[s.start:s.end] for s in alone.tag_text(text).spans})


def test_turned_off_by_config_or_weight_zero(model, notes, tmp_path):
    off = train_model(None, {**TINY, "prior": None})
    assert off.prior is None and "prior" not in modelfile.parse_all(off.to_bytes())[2]
    assert off._crf == model._crf  # the same site CRF: the prior changes the decoding only
    zero = Model(model._crf, load_config({**model.config, "prior": {**model.config["prior"], "weight": 0.0}}),
                 model.manifest, prior=model._prior_crf)
    assert _spans(zero, notes) == _spans(off, notes)
    out = tmp_path / "off.model"  # the command line: --set prior=null
    assert main(["train", "--config", _yaml(tmp_path), "--set", "prior=null", "--output", str(out), "--quiet"]) == 0
    assert Model.load(out).prior is None


def test_train_names_the_prior_it_copied(tmp_path, capsys):
    out = tmp_path / "on.model"
    assert main(["train", "--config", _yaml(tmp_path), "--output", str(out)]) == 0
    assert "prior:      default (sha256 " in capsys.readouterr().out and Model.load(out).prior is not None


def _yaml(tmp_path):
    import yaml
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(TINY), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("bad, message", [
    ({"weight": 2}, "prior.weight must be a number in \\[0, 1\\]"),
    ({"vote": "all"}, "unknown prior.vote 'all'"),
    ({"modle": "default"}, "unknown prior key"),
    ("default", "prior must be a mapping"),
])
def test_the_section_is_checked(bad, message):
    with pytest.raises(ConfigError, match=message):
        load_config({"prior": bad})


@pytest.mark.parametrize("section", [{"prior": {}}, {"companion": {"weight": 0.5}}])
@pytest.mark.parametrize("model, plain", [({}, True), ({"model": "elman"}, False), ({"model": "routed"}, False),
                                          ({"committee": {"combine": "mega.v1", "members": ["rules.v1"]}}, False),
                                          ({"committee": {"combine": None}}, True)])
def test_a_prior_and_a_companion_are_for_a_plain_crf_alone(section, model, plain):
    """One rule for both sections (``config.plain_crf``): no network, no routed model, no combining committee."""
    if plain:
        assert load_config({**model, **section})[next(iter(section))] is not None
    else:
        with pytest.raises(ConfigError, match="plain CRF"):
            load_config({**model, **section})


def test_a_network_or_a_missing_file_is_no_prior(tmp_path):
    with pytest.raises(ConfigError, match="plain CRF"):
        load_config({"model": "elman", "prior": {}})
    with pytest.raises(ConfigError, match="prior.model: cannot read"):
        train_model(None, {**TINY, "prior": {"model": str(tmp_path / "none.model")}})


@pytest.fixture(scope="module")
def own_labels(tmp_path_factory):
    return make_corpus(tmp_path_factory.mktemp("own") / "train", 12, seed=3)


def test_a_corpus_with_its_own_labels_votes_on_p_outside_only(own_labels):
    cfg = {"train": [f"brat:{own_labels}"], "crf": {"max_iterations": 5}, "seed": 1,
           "resources": {"language": "es"}, "features": "byo", "decoding": {"o_threshold": 0.99}}
    with pytest.raises(ConfigError, match="vote 'labels'.*another scheme.*prior.vote: outside"):
        train_model(None, {**cfg, "prior": {"vote": "labels"}})
    m = train_model(None, {**cfg, "prior": {"vote": "outside", "weight": 0.2}})
    assert m.prior is not None and "B-Fecha" not in m.prior.labels
    doc = next(iter(read(f"brat:{own_labels}")))
    assert {sp.category for sp in m.tag(doc).spans} <= set(LABELS)  # the corpus' own labels only
    site = Model(m._crf, load_config({**m.config, "prior": None}), m.manifest)
    assert np.allclose(_p_outside(m, doc), 0.8 * _p_outside(site, doc) + 0.2 * _p_outside(m.prior, doc))


def test_a_model_with_a_companion_and_a_prior_holds_three_crfs(notes, tmp_path):
    cfg = {**TINY, "train": ["synth:8,2"], "crf": {"max_iterations": 3},
           "companion": {"features": "full_oov", "weight": 0.5}}
    m = train_model(None, cfg)
    assert m.companion is not None and m.companion.prior is None and "prior" not in m.companion.manifest
    _, _, extras = modelfile.parse_all(m.to_bytes())
    assert list(extras) == ["companion", "prior"] and extras["prior"] == shipped_crf()._crf
    again = Model.load(m.save(tmp_path / "three.model"))
    assert _spans(again, notes[:3]) == _spans(m, notes[:3])


def test_a_network_override_drops_the_configs_prior_with_a_warning():
    import warnings

    from crfdeid.config import ConfigWarning
    path = Path(__file__).resolve().parents[1] / "configs" / "physionet.yaml"
    assert load_config(path)["prior"] is not None
    with pytest.warns(ConfigWarning, match="prior section is dropped"):
        cfg = load_config(path, {"model": "elman"})
    assert cfg["prior"] is None and cfg["companion"] is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ConfigError, match="plain CRF"):  # one the override gives itself
            load_config(path, {"model": "elman", "companion": None, "prior": {"weight": 0.1}})


def test_a_routed_override_drops_the_configs_prior_and_companion_as_a_network_does():
    """A routed model is no plain CRF either (``config.plain_crf``): its members carry their own."""
    from crfdeid.config import ConfigWarning
    path = Path(__file__).resolve().parents[1] / "configs" / "physionet.yaml"
    routing = {"members": {"icu": "icu", "specialty": "specialty"},
               "notes": {"icu": ["synth:10,1,mix_icu"], "specialty": ["synth:10,1,specialty"]}}
    with pytest.warns(ConfigWarning) as seen:
        cfg = load_config(path, {"model": "routed", "routing": routing, "train": []})
    assert cfg["model"] == "routed" and cfg["prior"] is None and cfg["companion"] is None
    messages = [str(w.message) for w in seen]
    assert [m.split(" section is dropped")[0].split("the config's ")[1] for m in messages] == ["companion", "prior"]
    assert all("makes it model 'routed'" in m for m in messages)
    with pytest.warns(ConfigWarning), pytest.raises(ConfigError, match="routed config has no train"):
        load_config(path, {"model": "routed", "routing": routing})  # routing's own check, not the sections'


def test_more_priors_vote_with_equal_shares_and_round_trip(notes, tmp_path):
    """``prior.also`` (docs/history/ens3.md): three trainings of one recipe, each a third of the marginals."""
    plain = {**TINY, "train": ["synth:10,3"], "crf": {"max_iterations": 4}, "prior": None}
    b = train_model(None, {**plain, "seed": 2}).save(tmp_path / "b.crf")
    c = train_model(None, {**plain, "seed": 4}).save(tmp_path / "c.crf")
    cfg = {**plain, "prior": {"model": str(b), "also": [str(c)], "weight": 2 / 3, "vote": "labels"}}
    m = train_model(None, cfg)
    assert len(m.more_priors) == 1 and m.manifest["prior"]["first_size"] == len(Model.load(b)._crf)
    own = Model(m._crf, load_config({**m.config, "prior": None}), m.manifest)
    for doc in notes[:3]:
        mixed = _p_outside(m, doc)
        parts = [_p_outside(x, doc) for x in (own, Model.load(b), Model.load(c))]
        assert np.allclose(mixed, sum(parts) / 3)
    again = Model.load(m.save(tmp_path / "three.model"))
    assert _spans(again, notes[:3]) == _spans(m, notes[:3])
    votes, items = m._backend.votes, [m._item(d.text) for d in notes[:2]]
    assert len(votes) == 2 and m._backend.main.probabilities_beside(votes[0], items, votes[1:]) is not None  # one pass
    assert "also" not in load_config(TINY)["prior"]  # left out when empty: older configs resolve as before
    with pytest.raises(ConfigError, match="prior.also must be a list"):
        load_config({**TINY, "prior": {"model": "default", "also": "b.crf"}})
