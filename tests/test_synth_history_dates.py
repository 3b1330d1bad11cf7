"""The ``history_dates`` style: a month/day glued to a history heading's colon and past items' years (DATE), beside
values glued to a heading the same way that are no date (issue 58, learn54)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from synth_kit import check_deterministic_and_aligned

from crfdeid.synth import generate
from crfdeid.synth.historydates import DATED_HEADINGS


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="history_dates")


def test_deterministic_and_aligned(notes):
    check_deterministic_and_aligned("history_dates", notes, unfilled=r"[{}]")  # the ward lines write "<50cc"


def test_every_span_is_a_date_a_patient_or_a_record_number(notes):
    shapes = {"DATE": r"(?i)'?\d{1,4}(/\d{1,4}){0,2}|\d{1,2} [a-z]+ \d{4}|[a-z]+ \d{4}",
              "PATIENT": r"(?i)[a-z' -]+", "MEDICALRECORD": r"\d+"}
    for doc in notes:
        for s in doc.spans:
            assert re.fullmatch(shapes[s.subtype], doc.text[s.start:s.end]), (doc.doc_id, doc.text[s.start:s.end])


def test_a_month_day_glued_to_a_heading_is_a_date_and_a_fraction_glued_to_a_value_is_not(notes):
    headings = "|".join(re.escape(h) for h in DATED_HEADINGS)
    glued = re.compile(rf"(?im)^(?:{headings})(\d{{1,2}}/\d{{1,2}})\b")
    values = re.compile(r"(?im)^(?:BP|POWER|STRENGTH|PAIN|VA|PS|TABS|CAGE|I/O|MURMUR|REFLEXES):(\d+/\d+)")
    seen = Counter()
    for doc in notes:
        dates = {(s.start, s.end) for s in doc.spans if s.subtype == "DATE"}
        for m in glued.finditer(doc.text):
            assert m.span(1) in dates, (doc.doc_id, m.group())
            seen["glued date"] += 1
        for m in values.finditer(doc.text):
            assert not any(a < m.end(1) and m.start(1) < b for a, b in dates), (doc.doc_id, m.group())
            seen["glued value"] += 1
    assert seen["glued date"] >= 150 and seen["glued value"] >= 150, seen


def test_past_items_carry_their_years_with_the_apostrophe_in_or_out(notes):
    years = Counter()
    for doc in notes:
        for s in doc.spans:
            text = doc.text[s.start:s.end]
            if re.fullmatch(r"'\d\d", text):
                years["apostrophe in"] += 1
            elif re.fullmatch(r"\d\d", text) and doc.text[s.start - 1] == "'":
                years["apostrophe out"] += 1
    assert years["apostrophe in"] >= 30 and years["apostrophe out"] >= 10, years


def test_casings(notes):
    cased = Counter("lower" if d.text == d.text.lower() else "upper" if d.text == d.text.upper() else "as written"
                    for d in notes)
    assert all(cased[c] >= 30 for c in ("lower", "upper", "as written")), cased


@pytest.fixture(scope="module")
def events():
    return generate(300, seed=13, style="history_events")


def test_history_events_are_deterministic_and_aligned(events):
    check_deterministic_and_aligned("history_events", events, unfilled=r"[{}]")


def test_a_past_event_s_month_and_year_is_a_date_and_a_fraction_in_a_sentence_is_not(events):
    # learn55: a month and year after a past event (in 11/91, since 6/88, alone) is DATE; the fractions of the same
    # kind of sentence (2/4 bottles, 4/5 in L leg, 3/4 vessels) are none
    from crfdeid.synth.historydates import EVENT_LOOKALIKES, EVENTS_DATED
    heads = "|".join(re.escape(e.split("{p}")[0]) for e in EVENTS_DATED)
    dated = re.compile(rf"(?im)^(?:{heads})(?: in early | in | on | since | around | - | \(| )(\d{{1,2}}/\d{{2,4}})\b")
    fractions = re.compile("(?im)^(?:" + "|".join(re.escape(x.split("{")[0]) for x in EVENT_LOOKALIKES)
                           + r")(\d/\d+)")
    seen = Counter()
    for doc in events:
        dates = {(s.start, s.end) for s in doc.spans if s.subtype == "DATE"}
        for m in dated.finditer(doc.text):
            assert m.span(1) in dates, (doc.doc_id, m.group())
            seen["event"] += 1
        for m in fractions.finditer(doc.text):
            assert not any(a < m.end(1) and m.start(1) < b for a, b in dates), (doc.doc_id, m.group())
            seen["fraction"] += 1
    assert seen["event"] >= 600 and seen["fraction"] >= 300, seen
