"""A month/day shape is PHI below a higher P(O) threshold than other tokens (decoding.month_day_threshold)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from routed_kit import shipped_crf

from crfdeid.config import load_config
from crfdeid.crf import Model
from crfdeid.errors import ConfigError
from crfdeid.tagging.decoding import Threshold, below, month_day_tokens, with_month_day
from crfdeid.text.tokenize import tokenize


@pytest.mark.parametrize("text, shapes", [
    ("hd 8/9 or 8/10.", ["8/9", "8/10"]),
    ("PICC LINE 12/31", ["12/31"]),
    ("seen (6/14) cxr", ["6/14"]),
    ("abg 7.35/66/55", []),      # a blood gas: numbers and slashes run on
    ("gcs 9 (2/3/4)", []),
    ("hx mi 10/05/81", []),      # a full date, not a month/day alone
    ("13/2 and 4/32", []),       # no month 13, no day 32
    ("120/70 and 2/6", ["2/6"]),  # a murmur grade has the shape: the CRF's P(O) decides
    ("8 / 9", []),               # spaced: a ratio, not written as a date
    ("", []),
])
def test_month_day_shapes_are_month_and_day_written_together_and_alone(text, shapes):
    toks = tokenize(text)
    mask = month_day_tokens(toks)
    found = "".join(t.text if m else " " for t, m in zip(toks, mask)).split()
    assert found == shapes


def test_a_month_day_shape_is_a_candidate_below_the_higher_threshold_only():
    toks = tokenize("psv 10/5 peep 5")
    p_o = [0.99, 0.95, 0.95, 0.95, 0.95, 0.95]
    outside = [True] * 6
    assert below(p_o, outside, 0.92, toks) == []
    assert below(p_o, outside, Threshold(0.92, 0.999), toks) == [1, 2, 3]
    assert below(p_o, outside, Threshold(0.92, 0.94), toks) == []
    assert below(p_o, [True, False, True, True, True, True], Threshold(0.92, 0.999), toks) == [2, 3]  # PHI already
    assert below(np.array([0.5, 0.93]), [True, True], Threshold(0.92, 0.999), tokenize("a b")) == [0]


def test_the_threshold_compares_as_a_float_and_survives_pickling():
    thr = Threshold(0.92, 0.999)
    assert thr == 0.92 and 0.91 < thr < 0.93
    again = pickle.loads(pickle.dumps(thr))
    assert again == 0.92 and again.month_day == 0.999


@pytest.mark.parametrize("o_threshold, decoding, month_day", [
    (0.92, {"month_day_threshold": 0.999}, 0.999),
    (0.92, {}, None),
    (None, {"month_day_threshold": 0.999}, None),   # Viterbi: no threshold at all
    (0.995, {"month_day_threshold": 0.99}, None),   # a higher general threshold wins
])
def test_a_model_applies_the_month_day_threshold_from_its_config(o_threshold, decoding, month_day):
    thr = with_month_day(o_threshold, {"decoding": decoding})
    assert thr == o_threshold and getattr(thr, "month_day", None) == month_day


@pytest.mark.parametrize("value", [0, 1.5, -0.1])
def test_a_month_day_threshold_out_of_range_is_refused(value):
    with pytest.raises(ConfigError, match="decoding.month_day_threshold"):
        load_config({"decoding": {"o_threshold": 0.9, "month_day_threshold": value}})


def test_an_unset_month_day_threshold_leaves_the_resolved_config_as_before():
    assert "month_day_threshold" not in load_config({"decoding": {"o_threshold": 0.9}})["decoding"]


@pytest.fixture(scope="module")
def shipped(shipped_model):
    return shipped_crf(shipped_model)  # its CRF, if the shipped file is routed


@pytest.mark.parametrize("backend", ["numpy", "crfsuite"])
def test_both_backends_make_a_doubted_month_day_phi_only_with_the_threshold(shipped, backend):
    """The shipped model doubts ``5/6`` after ``lasix held`` (P(O) between 0.92 and 0.995): a date with
    the month/day threshold, nothing without it."""
    assert shipped.config["decoding"]["month_day_threshold"] == 0.995
    text = "lasix held 5/6 per team."
    model = Model(shipped._crf, shipped.config, shipped.manifest, backend=backend)
    assert [text[s.start:s.end] for s in model.tag_text(text).spans] == ["5/6"]
    config = copy.deepcopy(shipped.config)
    del config["decoding"]["month_day_threshold"]
    plain = Model(shipped._crf, config, shipped.manifest, backend=backend)
    assert plain.tag_text(text).spans == []
