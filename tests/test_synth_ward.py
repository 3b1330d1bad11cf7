"""The ``ward`` style of the synthetic corpus: closer to real ward notes, same guarantees."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from crfdeid import gazetteers
from crfdeid.document import Document, make_span
from crfdeid.errors import ReaderError
from crfdeid.io import read
from crfdeid.labels import encode
from crfdeid.synth import generate, parse_source
from crfdeid.synth.ward import AMBIGUOUS, WARD_LINES, roughen
from crfdeid.text.tokenize import tokenize


@pytest.fixture(scope="module")
def ward():
    return generate(400, seed=13, style="ward")


def test_deterministic_and_aligned(ward):
    assert generate(40, seed=13, style="ward") == ward[:40]
    assert generate(40, seed=14, style="ward") != ward[:40]
    for doc in ward:
        doc.validate(allow_overlap=False)
        assert encode(tokenize(doc.text), doc.spans).problems == []
        assert all(doc.text[s.start:s.end] == doc.text[s.start:s.end].strip() for s in doc.spans)


def test_the_i2b2_style_is_unchanged_by_default():
    assert generate(20, seed=13) == generate(20, seed=13, style="i2b2")
    assert list(read("synth:20,13")) == generate(20, seed=13)
    assert list(read("synth:20,13,ward")) == generate(20, seed=13, style="ward")


def test_reader_refuses_an_unknown_style():
    assert parse_source("5,2,ward") == (5, 2, "ward")
    with pytest.raises(ReaderError, match="style one of i2b2, ward"):
        parse_source("5,2,poetry")


def test_phi_is_sparse_and_many_notes_have_none(ward):
    tokens = sum(len(tokenize(d.text)) for d in ward)
    spans = sum(len(d.spans) for d in ward)
    dense = generate(400, seed=13)
    dense_rate = sum(len(d.spans) for d in dense) / sum(len(tokenize(d.text)) for d in dense)
    assert spans / tokens < dense_rate / 3  # the i2b2 style: ~68 spans per 1,000 tokens
    assert sum(not d.spans for d in ward) / len(ward) > 0.2
    kinds = Counter(d.meta["note_type"] for d in ward)
    assert kinds["ward"] > 0.85 * len(ward) and kinds["discharge"] and kinds["letter"]


def test_mostly_lower_case_like_real_ward_notes(ward):
    words = [w for d in ward for w in re.findall(r"[A-Za-z]{2,}", d.text)]
    lower = sum(w.islower() for w in words) / len(words)
    assert 0.4 < lower < 0.8
    names = [d.text[s.start:s.end] for d in ward for s in d.spans if s.subtype in ("PATIENT", "DOCTOR")]
    assert sum(n.islower() for n in names) / len(names) > 0.2  # names typed in lower case too


def test_ages_under_90_and_weekdays_are_not_phi(ward):
    for d in ward:
        for s in d.spans:
            text = d.text[s.start:s.end]
            if s.subtype == "AGE" and text.isdigit():
                assert int(text) >= 90
            assert text.lower() not in {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                        "sunday"}


def test_unknown_and_ambiguous_names_occur(ward):
    listed = set()
    for name in ("first_male", "first_female", "surnames", "surnames_rare", "cities", "common_words"):
        listed |= gazetteers.load(name)
    words = [w.lower() for d in ward for s in d.spans if s.subtype in ("PATIENT", "DOCTOR", "CITY")
             for w in re.findall(r"[A-Za-z]{4,}", d.text[s.start:s.end])]
    unknown = [w for w in words if w not in listed]
    assert len(unknown) / len(words) > 0.08  # out of every dictionary (and typos)
    ambiguous = {a.lower() for a in AMBIGUOUS}
    as_names = {w for w in words if w in ambiguous}
    assert len(as_names) >= 5
    plain = " ".join(WARD_LINES).lower()
    assert sum(re.search(rf"\b{w}", plain) is not None for w in as_names) >= 3  # also plain words


def test_roughen_keeps_spans_on_their_text():
    text = "Seen by Dr Okafor (age 67) on Monday; wife Marisol called from Topeka at 95 yo"
    spans = [make_span(11, 17, "DOCTOR"), make_span(23, 25, "AGE"), make_span(30, 36, "DATE"),
             make_span(43, 50, "PATIENT"), make_span(63, 69, "CITY"), make_span(73, 75, "AGE")]
    doc = Document("1", text, spans)
    for seed in range(30):
        got = roughen(random.Random(seed), doc, typo=0.5, unknown=0.4, ambiguous=0.3)
        assert [s.subtype for s in got.spans] == ["DOCTOR", "PATIENT", "CITY", "AGE"]
        assert got.text[got.spans[-1].start:got.spans[-1].end] == "95"
        for s in got.spans:
            assert got.text[s.start:s.end].strip() == got.text[s.start:s.end] != ""
