"""Tiny hand-computed cases for every metric, plus invariants checked with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.document import Document, Span, make_span
from crfdeid.scoring import METRICS, ScoringError, evaluate
from crfdeid.scoring.keys import token_keys

TEXT = "Seen by Dr Jonathan Smithers at 5 pm in Springfield."  # 52 characters, synthetic


def score(gold, pred, text=TEXT, **kw):
    return evaluate([Document("d", text, gold)], [Document("d", text, pred)], **kw)


def prf(s):
    return round(s.precision, 4), round(s.recall, 4), round(s.f1, 4)


# Gold DOCTOR [11, 28) "Jonathan Smithers"; the system moves its end or start.
@pytest.mark.parametrize("start,end,strict,relaxed", [
    (11, 28, 1, 1),
    (11, 27, 0, 1), (11, 29, 0, 1),   # end -1 / +1
    (11, 26, 0, 1), (11, 30, 0, 1),   # end -2 / +2: still relaxed
    (11, 25, 0, 0), (11, 31, 0, 0),   # end -3 / +3: too far
    (10, 28, 0, 0), (12, 28, 0, 0),   # start off by one: never relaxed
])
def test_relaxed_end_slack(start, end, strict, relaxed):
    r = score([make_span(11, 28, "DOCTOR")], [make_span(start, end, "DOCTOR")])
    assert r.micro["strict"].tp == strict
    assert r.micro["relaxed"].tp == relaxed
    assert r.micro["relaxed"].f1 == float(relaxed)


def test_relaxed_needs_same_subtype_and_parent():
    r = score([make_span(11, 28, "DOCTOR")], [make_span(11, 28, "PATIENT")])
    assert r.micro["relaxed"].tp == 0 and r.micro["binary_strict"].tp == 1


def test_relaxed_counts_each_side_separately():
    # One gold [11, 28); system ends 28, 29, 31: gold found (R 1); system 28 and 29 match,
    # 31 is 3 away (P 2/3). The official fuzzy set operations count the same way.
    r = score([make_span(11, 28, "DOCTOR")],
              [make_span(11, 28, "DOCTOR"), make_span(11, 29, "DOCTOR"), make_span(11, 31, "DOCTOR")])
    s = r.micro["relaxed"]
    assert (s.tp, s.tp_sys, s.fp, s.fn) == (1, 2, 1, 0)
    assert prf(s) == (0.6667, 1.0, 0.8)


def test_duplicates_count_once():
    gold = [make_span(11, 28, "DOCTOR")] * 2
    r = score(gold, [make_span(11, 28, "DOCTOR")] * 3)
    for m in ("strict", "relaxed", "binary_strict"):
        assert (r.micro[m].tp, r.micro[m].fp, r.micro[m].fn) == (1, 0, 0)
    assert r.micro["token"].tp == 2  # Jonathan, Smithers


def test_names_compare_case_insensitively():
    r = score([Span(11, 28, "NAME", "DOCTOR")], [Span(11, 28, "name", "doctor")])
    assert r.micro["strict"].f1 == 1.0


def test_token_runs_of_letters_and_digits():
    # "Dr Jonathan Smithers" as DOCTOR gives runs Dr, Jonathan, Smithers; "5 pm" gives 5, pm.
    assert [k[2:] for k in token_keys(make_span(8, 28, "DOCTOR"), TEXT)] == [(8, 10), (11, 19), (20, 28)]
    assert token_keys(make_span(32, 36, "DATE"), TEXT, binary=True) == [(32, 33), (34, 36)]
    # gold "Jonathan Smithers" (2 runs); system "Dr Jonathan Smi" (runs Dr, Jonathan, Smi):
    # only Jonathan agrees -> P 1/3, R 1/2, F1 .4
    r = score([make_span(11, 28, "DOCTOR")], [make_span(8, 23, "DOCTOR")])
    assert prf(r.micro["token"]) == (0.3333, 0.5, 0.4)


def test_binary_ignores_types():
    # Same offsets, different parent and subtype: typed metrics miss, binary ones hit.
    r = score([make_span(40, 51, "CITY")], [make_span(40, 51, "HOSPITAL")])
    assert r.micro["strict"].f1 == 0.0 and r.micro["token"].f1 == 0.0
    assert r.micro["binary_strict"].f1 == 1.0 and r.micro["binary_token"].f1 == 1.0
    # two system types on one extent are one binary item
    r = score([make_span(40, 51, "CITY")], [make_span(40, 51, "CITY"), make_span(40, 51, "STATE")])
    assert (r.micro["binary_strict"].tp, r.micro["binary_strict"].fp) == (1, 0)
    assert (r.micro["strict"].tp, r.micro["strict"].fp) == (1, 1)


def test_hipaa_restricts_both_sides():
    # DOCTOR is not HIPAA: a DOCTOR miss does not hurt HIPAA recall, a DOCTOR
    # false alarm does not hurt HIPAA precision.
    r = score([make_span(11, 28, "DOCTOR"), make_span(40, 51, "CITY")],
              [make_span(40, 51, "CITY"), make_span(0, 4, "DOCTOR")])
    assert prf(r.micro["hipaa_strict"]) == (1.0, 1.0, 1.0)
    assert prf(r.micro["strict"]) == (0.5, 0.5, 0.5)


@pytest.mark.parametrize("include,expected", [(False, (0, 0, 0)), (True, (1, 0, 1))])
def test_idnum_is_hipaa_only_when_asked(include, expected):
    text = "ref 123 and 456"
    r = score([make_span(4, 7, "IDNUM"), make_span(12, 15, "IDNUM")], [make_span(4, 7, "IDNUM")],
              text=text, include_idnum=include)
    s = r.micro["hipaa_strict"]
    assert (s.tp, s.fp, s.fn) == expected


def test_empty_documents_score_zero():
    r = score([], [])
    for m in METRICS:
        assert prf(r.micro[m]) == (0.0, 0.0, 0.0)
        assert prf(r.macro[m]) == (0.0, 0.0, 0.0)


def test_macro_counts_empty_documents_as_zero():
    # doc a perfect (P 1, R 1); doc b has nothing on either side (0, 0):
    # macro P = R = .5 with SD .5; micro is perfect.
    gold = [Document("a", TEXT, [make_span(11, 28, "DOCTOR")]), Document("b", "no phi", [])]
    r = evaluate(gold, [d.with_spans(d.spans) for d in gold])
    assert prf(r.micro["strict"]) == (1.0, 1.0, 1.0)
    m = r.macro["strict"]
    assert prf(m) == (0.5, 0.5, 0.5)
    assert (m.precision_sd, m.recall_sd, m.docs) == (0.5, 0.5, 2)


def test_system_without_gold_and_gold_without_system():
    # doc a: gold only -> P 0 R 0; doc b: system only -> P 0 R 0; micro: tp 0
    gold = [Document("a", TEXT, [make_span(11, 28, "DOCTOR")]), Document("b", TEXT, [])]
    pred = [Document("a", TEXT, []), Document("b", TEXT, [make_span(11, 28, "DOCTOR")])]
    r = evaluate(gold, pred)
    assert (r.micro["strict"].fp, r.micro["strict"].fn) == (1, 1)
    assert prf(r.macro["strict"]) == (0.0, 0.0, 0.0)


def test_unpaired_documents_are_listed_not_scored():
    gold = [Document("a", TEXT, [make_span(11, 28, "DOCTOR")]), Document("b", TEXT, [])]
    pred = [Document("a", TEXT, [make_span(11, 28, "DOCTOR")]), Document("c", TEXT, [])]
    r = evaluate(gold, pred)
    assert (r.doc_ids, r.missing_in_pred, r.missing_in_gold) == (["a"], ["b"], ["c"])
    assert r.macro["strict"].docs == 1
    assert r.to_dict()["documents"] == {"scored": 1, "missing_in_pred": ["b"], "missing_in_gold": ["c"]}


def test_incomparable_inputs_raise_with_ids_not_text():
    with pytest.raises(ScoringError, match="'a'.*offset 7") as exc:
        evaluate([Document("a", "Seen Smith", [])], [Document("a", "Seen Smyth", [])])
    assert "Smith" not in str(exc.value)
    with pytest.raises(ScoringError, match="twice"):
        evaluate([Document("a", "x"), Document("a", "x")], [])
    with pytest.raises(ScoringError, match="NAMES"):
        evaluate([], [], filter=["NAMES"])


def test_filter_keeps_categories_or_subtypes():
    gold = [make_span(11, 28, "DOCTOR"), make_span(40, 51, "CITY")]
    r = score(gold, [make_span(11, 28, "DOCTOR")], filter=["name"])
    assert prf(r.micro["strict"]) == (1.0, 1.0, 1.0)
    assert list(r.by_category) == ["NAME"]
    r = score(gold, [make_span(11, 28, "DOCTOR")], filter=["CITY"])
    assert r.micro["strict"].fn == 1 and r.micro["strict"].tp == 0


def test_leak_counts_letters_and_digits_only():
    # gold "Jonathan Smithers" [11, 28); system covers [11, 19) and [19, 28) with other types:
    # every letter is covered -> fully removed; a system stopping at 26 leaks "rs".
    gold = [make_span(11, 28, "DOCTOR")]
    r = score(gold, [make_span(11, 19, "PATIENT"), make_span(19, 28, "CITY")])
    assert (r.leak.removed, r.leak.total, r.leak.leaked_chars) == (1, 1, 0)
    r = score(gold, [make_span(11, 26, "DOCTOR")])
    assert (r.leak.removed, r.leak.leaked_chars, r.leak.phi_chars) == (0, 2, 16)
    assert r.leak.fully_removed == 0.0


# --- invariants ---------------------------------------------------------------

SUBTYPES = ["DOCTOR", "PATIENT", "CITY", "DATE", "IDNUM"]


@st.composite
def spans(draw):
    out = []
    for _ in range(draw(st.integers(0, 6))):
        start = draw(st.integers(0, len(TEXT) - 1))
        end = draw(st.integers(start + 1, min(len(TEXT), start + 15)))
        out.append(make_span(start, end, draw(st.sampled_from(SUBTYPES))))
    return out


@settings(max_examples=60, deadline=None)
@given(spans(), spans())
def test_invariants(gold, pred):
    r = score(gold, pred)
    for m in METRICS:
        for s in (r.micro[m], r.macro[m]):
            assert 0.0 <= s.precision <= 1.0 and 0.0 <= s.recall <= 1.0 and 0.0 <= s.f1 <= 1.0
    # relaxed never finds fewer than strict; binary never misses or invents more than
    # typed (binary keys are sets of offsets, so typed twins at one extent count once)
    assert r.micro["relaxed"].tp >= r.micro["strict"].tp
    assert r.micro["binary_strict"].fn <= r.micro["strict"].fn
    assert r.micro["binary_strict"].fp <= r.micro["strict"].fp
    # parent-only keys sit between: an unmatched parent key has only unmatched typed keys
    for side in ("fn", "fp"):
        b, p, t = (getattr(r.micro[m], side) for m in ("binary_strict", "parent_strict", "strict"))
        assert b <= p <= t
    assert r.micro["hipaa_strict"].tp <= r.micro["strict"].tp
    # a system equal to gold is perfect and leaks nothing
    same = score(gold, gold)
    assert same.leak.leaked_chars == 0 and same.leak.fully_removed == 1.0
    if gold:
        assert same.micro["strict"].f1 == 1.0 and same.micro["relaxed"].f1 == 1.0
