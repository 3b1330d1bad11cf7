"""A prior of the model's own feature set reads the model's featurizer: the attributes of a batch
are computed once for both CRFs, and every score, marginal and span is the separate path's."""

from __future__ import annotations

import numpy as np
import pytest

from crfdeid.crf import Model, train_model
from crfdeid.crf.numpy.emission import SharedKeys
from crfdeid.features import Featurizer
from crfdeid.io import read

SMALL = {"crf": {"max_iterations": 8}, "features": "full_caseless", "decoding": {"o_threshold": 0.99}}


@pytest.fixture(scope="module")
def prior_path(tmp_path_factory):
    """A second small CRF of the same recipe on other notes and seed (as the shipped specialty member's prior)."""
    path = tmp_path_factory.mktemp("prior") / "prior.model"
    return train_model(None, {**SMALL, "train": ["synth:12,5,clinical"], "seed": 5}).save(path)


@pytest.fixture(scope="module")
def model(prior_path):
    return train_model(None, {**SMALL, "train": ["synth:12,1,clinical"], "seed": 1,
                              "prior": {"model": str(prior_path), "weight": 0.5, "vote": "labels"}})


@pytest.fixture(scope="module")
def items(model):
    """Tokens and segments of made-up notes, some lower-cased (caseless word keys), as the model tags them."""
    docs = list(read("synth:6,11,clinical"))
    return [model._item(d.text) for d in docs] + [model._item(d.text.lower()) for d in docs[:3]]


def _separate(model: Model) -> Model:
    """The model's prior with a featurizer of its own, as every prior read before."""
    prior = Model(model.prior._crf, model.prior.config, model.prior.manifest)
    assert prior.featurizer is not model.featurizer
    return prior


def test_a_prior_of_the_same_features_reads_the_models_featurizer(model):
    assert model.prior.featurizer is model.featurizer
    assert model.prior.config["features"] == model.config["features"]


def test_shared_features_give_the_separate_paths_scores_and_marginals(model, items, monkeypatch):
    main, separate = model._backend.main, _separate(model)._backend
    apart = main.probabilities(items), separate.probabilities(items)
    calls = []
    token_keys = Featurizer.token_keys
    monkeypatch.setattr(Featurizer, "token_keys", lambda self, text, toks: calls.append(text) or token_keys(
        self, text, toks))
    main.scorer.clear_cache()
    model._backend.other.scorer.clear_cache()
    both = main.probabilities_beside(model._backend.other, items)
    assert both is not None and len(calls) == len(items)  # each note's token templates ran once, not twice
    for shared, alone, decoded in zip(both, apart, (True, False)):
        for (labels, p), (labels_alone, p_alone) in zip(shared, alone):
            assert np.array_equal(p, p_alone)
            assert labels == labels_alone if decoded else labels is None  # the vote reads the prior's marginals only
    docs = [(text, toks) for text, toks, _ in items]
    assert np.array_equal(model._backend.other.scorer.scores_many(docs), separate.scorer.scores_many(docs))
    # what a scorer of another featurizer object left is not read: the scorer computes its own
    theirs = SharedKeys(separate.scorer.featurizer)
    theirs.keys = main.scorer._keys(docs[:1])
    assert np.array_equal(main.scorer.scores_many(docs, theirs), main.scorer.scores_many(docs))


def test_the_model_tags_as_with_a_separate_prior(model, items):
    docs = list(read("synth:6,11,clinical"))
    spans = [[(s.start, s.end, s.subtype, s.confidence) for s in d.spans] for d in model.tag_many(docs)]
    apart = Model(model._crf, model.config, model.manifest, prior=model._prior_crf)
    apart.prior.featurizer = Featurizer(apart.prior.config["features"], apart.prior.resources)
    assert apart._backend.main.probabilities_beside(apart._backend.other, items) is None
    assert spans == [[(s.start, s.end, s.subtype, s.confidence) for s in d.spans] for d in apart.tag_many(docs)]


def test_a_prior_of_other_features_keeps_its_own_featurizer(prior_path):
    m = train_model(None, {**SMALL, "features": "full", "train": ["synth:12,1,clinical"], "seed": 1,
                           "prior": {"model": str(prior_path), "weight": 0.5, "vote": "labels"}})
    assert m.prior.featurizer is not m.featurizer
    assert m.prior.featurizer.caseless and not m.featurizer.caseless
    items = [m._item(d.text.lower()) for d in read("synth:2,3,clinical")]
    assert m._backend.main.probabilities_beside(m._backend.other, items) is None
    both = m._backend.probabilities(items)  # the separate path: each CRF with its own attributes
    separate = _separate(m)._backend.probabilities(items)
    alone = m._backend.main.probabilities(items)
    for (_, p), (_, pa), (_, pb) in zip(both, alone, separate):
        assert np.array_equal(p, m._backend._average(pa, pb))


@pytest.mark.parametrize("backend", ["numpy", "crfsuite"])
def test_the_benchmarks_stage_timers_wrap_a_shared_featurizer_once_and_undo(model, tmp_path, backend):
    from crfdeid.experiments.bench.stages import tag_end_to_end
    m = Model.load(model.save(tmp_path / "m.model"), backend=backend)
    assert m.prior.featurizer is m.featurizer
    res = tag_end_to_end(m, "synth:3,4,clinical")
    assert res["documents"] == 3 and res["stage_seconds"]["featurize"] > 0
    assert "featurize" not in vars(m.featurizer)
    assert all("scores_many" not in vars(part.scorer) for part in (m._backend.main, m._backend.other)
               if backend == "numpy")
