"""BIO encoder/decoder: round trip, misalignment and overlap reported, decoding policy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import schema
from crfdeid.document import Span, make_span
from crfdeid.labels import OUTSIDE, decode, encode, labels_for
from crfdeid.text.tokenize import tokenize

TEXT = "Seen by Dr. Ivy Brandt on 2097-07-22 at Norwood."


def test_encode_decode_example():
    toks = tokenize(TEXT)
    spans = [make_span(12, 22, "DOCTOR"), make_span(26, 36, "DATE")]
    enc = encode(toks, spans)
    assert enc.problems == []
    assert [(t.text, lab) for t, lab in zip(toks, enc.labels) if lab != OUTSIDE] == [
        ("Ivy", "B-DOCTOR"), ("Brandt", "I-DOCTOR"), ("2097", "B-DATE"), ("-", "I-DATE"),
        ("07", "I-DATE"), ("-", "I-DATE"), ("22", "I-DATE")]
    assert decode(enc.labels, toks) == spans


def test_adjacent_spans_of_same_subtype_stay_apart():
    text = "Ann Bob"
    toks = tokenize(text)
    spans = [make_span(0, 3, "PATIENT"), make_span(4, 7, "PATIENT")]
    assert decode(encode(toks, spans).labels, toks) == spans


def test_misaligned_span_reported_and_expanded_not_shifted():
    toks = tokenize(TEXT)
    sp = make_span(13, 22, "DOCTOR")  # starts inside "Ivy"
    enc = encode(toks, [sp])
    assert [p.reason for p in enc.problems] == ["misaligned"]
    assert decode(enc.labels, toks) == [make_span(12, 22, "DOCTOR")]
    skipped = encode(toks, [sp], misaligned="skip")
    assert set(skipped.labels) == {OUTSIDE} and skipped.problems[0].span == sp


def test_overlap_reported_first_span_kept():
    toks = tokenize(TEXT)
    a, b = make_span(12, 22, "DOCTOR"), make_span(16, 22, "PATIENT")
    enc = encode(toks, [a, b])
    assert [(p.span, p.reason) for p in enc.problems] == [(b, "overlap")]
    assert decode(enc.labels, toks) == [a]


def test_span_in_white_space_only_is_reported():
    text = "a   b"
    enc = encode(tokenize(text), [make_span(1, 3, "DATE")])
    assert [p.reason for p in enc.problems] == ["no-token"]


def test_i_after_o_starts_a_new_span():
    toks = tokenize("x Ann Lee y")
    labels = ["O", "I-PATIENT", "I-PATIENT", "O"]
    assert decode(labels, toks) == [Span(2, 9, "NAME", "PATIENT")]
    assert decode(["O", "B-PATIENT", "I-DOCTOR", "O"], toks) == [
        Span(2, 5, "NAME", "PATIENT"), Span(6, 9, "NAME", "DOCTOR")]


def test_decode_length_mismatch_is_an_error():
    with pytest.raises(ValueError):
        decode(["O"], tokenize("a b"))


def test_labels_for_covers_every_subtype():
    labels = labels_for(schema.I2B2_SUBTYPES)
    assert labels[0] == OUTSIDE and len(labels) == 1 + 2 * len(schema.I2B2_SUBTYPES)


@st.composite
def aligned_doc(draw):
    words = draw(st.lists(st.text(alphabet="abAB12-/.", min_size=1, max_size=6), min_size=1, max_size=30))
    seps = draw(st.lists(st.sampled_from([" ", "\n", "  "]), min_size=len(words), max_size=len(words)))
    text = "".join(w + s for w, s in zip(words, seps))
    toks = tokenize(text)
    spans, i = [], 0
    subtypes = st.sampled_from(schema.I2B2_SUBTYPES)
    while i < len(toks):
        if draw(st.booleans()):
            j = draw(st.integers(i, min(i + 3, len(toks) - 1)))
            spans.append(make_span(toks[i].start, toks[j].end, draw(subtypes)))
            i = j + 2  # leave a gap so adjacent same-subtype spans are not ambiguous
        else:
            i += 1
    return toks, spans


@settings(max_examples=300, deadline=None)
@given(aligned_doc())
def test_spans_bio_spans_identity_for_aligned_spans(doc):
    toks, spans = doc
    enc = encode(toks, spans)
    assert enc.problems == []
    assert decode(enc.labels, toks) == sorted(spans)
