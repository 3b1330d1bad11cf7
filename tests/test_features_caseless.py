"""``caseless: true``: shapes of their own in lines without a capital (crfdeid.features.caseless)."""

from __future__ import annotations

import numpy as np
import pytest

from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.crf.numpy.emission import EmissionScorer
from crfdeid.crf.numpy.weights import read_weights
from crfdeid.features import Featurizer
from crfdeid.features.caseless import MARK
from crfdeid.io import read
from crfdeid.tagging.model import tokens_for

FULL = {"groups": {"lexical": True, "orthographic": True, "dictionary": True, "pattern": True,
                   "context": True}}
TEXT = "Seen by Dr Lee on 3/4\nlives in dorset with wife\nBP 120/80\n12:30\nSPOKE WITH JANE"


def _by_token(featurizer, text):
    toks = tokens_for(text)
    return {t.start: attrs for t, attrs in zip(toks, featurizer.featurize(text, toks))}


@pytest.mark.parametrize(("line", "caseless"), [
    ("lives in dorset with wife", True), ("seen 3/4 at 12:30.", True), ("Lives in dorset", False),
    ("SPOKE WITH JANE", False), ("12:30 120/80", False), ("lives in dOrset", False),
])
def test_only_lines_with_a_lower_case_letter_and_no_capital_are_caseless(line, caseless):
    text = "Seen by Dr Lee\n" + line + "\nBP 120/80"
    fz = Featurizer({**FULL, "caseless": True})
    toks = tokens_for(text)
    keys = fz.word_keys(text, toks, [t.text for t in toks])
    marked = [k.startswith(MARK) for k in keys]
    first, mid = len(tokens_for("Seen by Dr Lee")), len(tokens_for(line))
    assert marked[first:first + mid] == [caseless] * mid
    assert not any(marked[:first]) and not any(marked[first + mid:])


def test_shapes_in_a_caseless_line_take_their_own_head_and_nothing_else_changes():
    plain, caseless = Featurizer(FULL), Featurizer({**FULL, "caseless": True})
    assert not plain.caseless and caseless.caseless
    before, after = _by_token(plain, TEXT), _by_token(caseless, TEXT)
    dorset = TEXT.index("dorset")
    assert "lc|shape:xxxxxx" in after[dorset] and "shape:xxxxxx" in before[dorset]
    assert "+1:lc|shape:xxxx" in after[dorset] and "lc|sshape:x" in after[dorset]
    assert [a.replace("lc|", "") for a in after[dorset]] == before[dorset]
    assert "bi-1:in|dorset" in after[dorset]  # bigrams read the word, not its key
    lee, bp = TEXT.index("Lee"), TEXT.index("/80")
    assert after[bp] == before[bp]
    assert after[lee] == before[lee]
    four = TEXT.index("4\n")  # the window reaches into the caseless line: those shapes are marked
    assert [a.replace("lc|", "") for a in after[four]] == before[four] != after[four]
    assert all("lc|" not in a for s, attrs in after.items() if s > TEXT.index("BP") + 3 for a in attrs)


def test_the_shipped_feature_sets_stay_as_they_were():
    assert "caseless" not in load_config({"features": "full"})["features"]  # saved configs as they were
    assert load_config({"features": "full_caseless"})["features"]["caseless"] is True
    cached, uncached = Featurizer({**FULL, "caseless": True}), Featurizer({**FULL, "caseless": True})
    toks = tokens_for(TEXT)
    assert cached.featurize(TEXT, toks) == uncached.featurize(TEXT, toks, cache=False)


@pytest.fixture(scope="module")
def caseless_model():
    # mix_icu notes: a quarter of them lower case (the lines whose shapes the CRF learns apart)
    cfg = {"train": ["synth:30,7,mix_icu"], "features": {**FULL, "caseless": True},
           "crf": {"algorithm": "lbfgs", "max_iterations": 12}, "decoding": {"o_threshold": None},
           "rules": {"enabled": False}, "seed": 7}
    return train_model(None, load_config(cfg))


def test_numpy_scores_and_labels_equal_crfsuite_with_caseless_lines(caseless_model):
    w = read_weights(caseless_model._crf)
    assert any(a.startswith("lc|") or ":lc|" in a for a in w.attributes)
    ref = Model(caseless_model._crf, caseless_model.config, caseless_model.manifest, backend="crfsuite")
    docs = list(read("synth:6,99,mix_icu"))
    scorer = EmissionScorer(caseless_model.featurizer, w)
    for doc in docs + [docs[0].__class__("tiny", TEXT, [], {})]:
        toks = tokens_for(doc.text)
        feats = caseless_model.featurizer.featurize(doc.text, toks)
        assert np.allclose(scorer.scores(doc.text, toks), np.array([w.vector(f) for f in feats]), atol=1e-12)
        assert caseless_model.tag(doc).spans == ref.tag(doc).spans
