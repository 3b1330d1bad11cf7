"""crfdeid's features as plain sequences: sklearn-crfsuite learns what crfdeid learns."""

from __future__ import annotations

import pytest

from crfdeid.crf import train_model
from crfdeid.crf.sequences import to_documents, to_sequences
from crfdeid.io import read

sklearn_crfsuite = pytest.importorskip("sklearn_crfsuite", reason="needs the sklearn extra")

CONFIG = {"features": "no_dict", "crf": {"c1": 0.05, "c2": 0.01, "max_iterations": 30}}


@pytest.mark.slow
def test_sklearn_crfsuite_on_crfdeid_sequences_tags_as_crfdeid_does():
    train, test = list(read("synth:20,3")), list(read("synth:6,4"))
    X, y, _ = to_sequences(train, CONFIG)
    crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.05, c2=0.01, max_iterations=30)
    crf.fit(X, y)
    Xt, _, index = to_sequences(test, CONFIG)
    ours = train_model(train, CONFIG)
    plain = to_documents(test, crf.predict(Xt), index, CONFIG)
    # Same data, same options, same L-BFGS: the same spans (crfdeid's model without rules or threshold).
    assert [d.spans for d in plain] == [ours.tag(d).spans for d in test]
    assert sum(len(d.spans) for d in plain) > 10


def test_sequences_cover_every_token_once_and_keep_gold_labels():
    docs = list(read("synth:4,5"))
    X, y, index = to_sequences(docs, {"features": "lexical"})
    assert all(len(a) == len(b) == s.end - s.start for a, b, s in zip(X, y, index))
    # the default chain drops ages under 90 (young_ages.v1, and the clinical filter an age with its
    # unit, `68 yr old`), which these notes label as the i2b2 corpus does: every other gold span back
    back = to_documents(docs, y, index, {"features": "lexical", "postprocess": ["clinical_filter.v1"]})
    kept = [[s for s in d.spans if not (s.subtype == "AGE" and int(d.text[s.start:s.end]) < 90)] for d in docs]
    assert [[s for s in d.spans if s.subtype != "AGE"] for d in back] == \
        [[s for s in k if s.subtype != "AGE"] for k in kept]  # synthetic spans lie on token edges
    assert all(s in d.spans for d, k in zip(docs, back) for s in k.spans)
    young = to_documents(docs, y, index, {"features": "lexical"})
    assert [[s for s in d.spans if s not in b.spans] for d, b in zip(docs, young)] == \
        [[s for s in d.spans if s.subtype == "AGE" and int(d.text[s.start:s.end]) < 90] for d in docs]
