"""``caseless: [lower, upper]``: shapes and case flags of their own in upper-case lines too."""

from __future__ import annotations

import numpy as np
import pytest

from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.crf.numpy.emission import EmissionScorer
from crfdeid.crf.numpy.weights import read_weights
from crfdeid.errors import ConfigError
from crfdeid.features import Featurizer
from crfdeid.features.caseless import MARK, UPPER_MARK
from crfdeid.io import read
from crfdeid.tagging.model import tokens_for

FULL = {"groups": {"lexical": True, "orthographic": True, "dictionary": True, "pattern": True,
                   "context": True}}
BOTH = {**FULL, "caseless": ["lower", "upper"]}
TEXT = "Seen by Dr Lee on 3/4\nlives in dorset with wife\nBP 120/80\n12:30\nSPOKE WITH JANE"


def _by_token(featurizer, text):
    toks = tokens_for(text)
    return {t.start: attrs for t, attrs in zip(toks, featurizer.featurize(text, toks))}


@pytest.mark.parametrize(("line", "mark"), [
    ("SPOKE WITH JANE", UPPER_MARK), ("BP 120/80", UPPER_MARK), ("lives in dorset", MARK),
    ("Lives in Dorset", None), ("12:30 120/80", None), ("SPOKE WITH jane", None),
])
def test_a_line_is_marked_by_its_kind(line, mark):
    text = "Seen by Dr Lee\n" + line + "\nBp 120/80"
    fz = Featurizer(BOTH)
    toks = tokens_for(text)
    keys = fz.word_keys(text, toks, [t.text for t in toks])
    first, mid = len(tokens_for("Seen by Dr Lee")), len(tokens_for(line))
    assert [k[:1] if k[:1] in (MARK, UPPER_MARK) else None for k in keys[first:first + mid]] == [mark] * mid
    assert keys[:first] + keys[first + mid:] == [t.text for t in toks[:first] + toks[first + mid:]]


def test_upper_case_lines_take_the_uc_head_on_shapes_and_case_flags_only():
    lower_only, both = Featurizer({**FULL, "caseless": True}), Featurizer(BOTH)
    assert both.caseless == ("lower", "upper") and lower_only.caseless == ("lower",)
    before, after = _by_token(lower_only, TEXT), _by_token(both, TEXT)
    jane = TEXT.index("JANE")
    assert {"uc|shape:XXXX", "uc|sshape:X", "uc|has_cap", "uc|init_cap", "uc|all_caps",
            "-1:uc|shape:XXXX"} <= set(after[jane])
    assert [a.replace("uc|", "") for a in after[jane]] == before[jane] != after[jane]
    assert "lower:jane" in after[jane] and "bi-1:with|jane" in after[jane]
    dorset, lee = TEXT.index("dorset"), TEXT.index("Lee")
    assert after[dorset] == before[dorset] and after[lee] == before[lee]  # lower lines as with `true`
    cached, uncached = Featurizer(BOTH), Featurizer(BOTH)
    toks = tokens_for(TEXT)
    assert cached.featurize(TEXT, toks) == uncached.featurize(TEXT, toks, cache=False)


def test_the_key_resolves_to_what_a_saved_model_holds():
    assert load_config({"features": "full_caseless"})["features"]["caseless"] is True
    assert load_config({"features": {**FULL, "caseless": ["lower"]}})["features"]["caseless"] is True
    assert load_config({"features": "full_caseless_upper"})["features"]["caseless"] == ["lower", "upper"]
    assert "caseless" not in load_config({"features": {**FULL, "caseless": []}})["features"]
    for bad in (["title"], "upper"):
        with pytest.raises(ConfigError, match="caseless must be"):
            load_config({"features": {**FULL, "caseless": bad}})


@pytest.fixture(scope="module")
def both_model():
    # mix_icu notes: about a quarter lower case and a quarter upper case
    cfg = {"train": ["synth:30,7,mix_icu"], "features": BOTH,
           "crf": {"algorithm": "lbfgs", "max_iterations": 12}, "decoding": {"o_threshold": None},
           "rules": {"enabled": False}, "seed": 7}
    return train_model(None, load_config(cfg))


def test_numpy_scores_and_labels_equal_crfsuite_with_upper_case_lines(both_model):
    w = read_weights(both_model._crf)
    assert any(a.startswith("uc|") or ":uc|" in a for a in w.attributes)
    assert any(a.startswith("lc|") or ":lc|" in a for a in w.attributes)
    ref = Model(both_model._crf, both_model.config, both_model.manifest, backend="crfsuite")
    docs = list(read("synth:6,99,mix_icu"))
    for doc in docs + [docs[0].__class__("tiny", TEXT, [], {})]:
        toks = tokens_for(doc.text)
        feats = both_model.featurizer.featurize(doc.text, toks)
        assert np.allclose(_scores(both_model, w, doc.text, toks),
                           np.array([w.vector(f) for f in feats]), atol=1e-12)
        assert both_model.tag(doc).spans == ref.tag(doc).spans


def _scores(model, weights, text, toks):
    return EmissionScorer(model.featurizer, weights).scores(text, toks)
