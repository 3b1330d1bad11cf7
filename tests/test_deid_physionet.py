"""The surrogate checks on the shared PhysioNet dev corpus (skipped where it is absent)."""

from crfdeid.deid.check import check
from crfdeid.deid.spans import propagate
from crfdeid.deid.surrogate import Surrogator


def test_physionet_surrogate_corpus_is_releasable(physionet_docs):
    docs = [propagate(d) for d in physionet_docs]
    s = Surrogator(seed=13, avoid_date_collisions=True)
    for d in docs:
        s.learn(d)
    rep = check([(d, s.surrogate(d)) for d in docs])
    assert rep.notes == 1622 and rep.spans >= 1220
    assert rep.leaks == 0, "an original PHI string is still in its note"
    assert rep.misaligned == 0 and rep.span_text_mismatch == 0
    assert rep.full_dates > 30 and rep.interval_violations == 0
    assert rep.unchanged_spans == 0
