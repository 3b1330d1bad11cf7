"""The scikit-learn estimator: parameters, clone, fit/predict, model selection."""

from __future__ import annotations

import pytest

pytest.importorskip("sklearn", reason="needs the sklearn extra")

from sklearn.base import clone  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.model_selection import GroupKFold, cross_val_score  # noqa: E402

from crfdeid.crf.estimator import CRFDeidentifier, make_scorer  # noqa: E402
from crfdeid.io import read  # noqa: E402

SMALL = "configs/synth-small.yaml"


@pytest.fixture(scope="module")
def docs():
    return list(read("synth:30,3"))


def test_init_only_stores_and_clone_keeps_params():
    est = CRFDeidentifier(config=SMALL, c1=0.2, o_threshold=0.9)
    assert est.get_params()["c1"] == 0.2 and est.get_params()["c2"] is None
    twin = clone(est)
    assert twin.get_params() == est.get_params() and not hasattr(twin, "model_")


def test_none_params_keep_config_values():
    cfg = CRFDeidentifier(config=SMALL).resolved_config()
    assert cfg["crf"]["c1"] == 0.05 and cfg["crf"]["max_iterations"] == 30
    cfg = CRFDeidentifier(config=SMALL, max_iterations=3, min_freq=2).resolved_config()
    assert cfg["crf"]["max_iterations"] == 3 and cfg["crf"]["feature.minfreq"] == 2


def test_decoding_params_reach_the_config_and_the_model(docs):
    cfg = CRFDeidentifier(config=SMALL, o_words_min_count=2).resolved_config()
    assert cfg["decoding"] == {"o_threshold": None, "o_words_min_count": 2}
    cfg = CRFDeidentifier(config=SMALL, o_threshold=0.9).resolved_config()
    assert cfg["decoding"] == {"o_threshold": 0.9, "o_words_min_count": None}
    est = CRFDeidentifier(config=SMALL, max_iterations=3, o_words_min_count=2).fit(docs)
    assert est.model_.o_words and not CRFDeidentifier(config=SMALL, max_iterations=3).fit(docs).model_.o_words


def test_predict_before_fit_raises(docs):
    with pytest.raises(NotFittedError):
        CRFDeidentifier().predict(docs)


def test_fit_predict_and_marginals(docs):
    est = CRFDeidentifier(config=SMALL).fit(docs[:20])
    assert est.labels_ and est.training_stats_["documents"] == 20
    spans = est.predict(docs[20:])
    assert len(spans) == 10 and any(spans)
    margs = est.predict_marginals(docs[20:21])
    assert len(margs) == 1 and all(abs(sum(m.values()) - 1) < 1e-6 for m in margs[0])


@pytest.mark.slow
def test_cross_val_score_with_patient_groups(docs):
    est = CRFDeidentifier(config=SMALL, max_iterations=10)
    scores = cross_val_score(est, docs, cv=GroupKFold(2), groups=[d.group for d in docs],
                             scoring=make_scorer("binary_token", "recall"))
    assert len(scores) == 2 and all(0.0 < s <= 1.0 for s in scores)
