"""The ``values`` style: clinical fractions, scores and unit numbers, never PHI, beside dates that are."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid.synth import generate
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_templates import NURSING_LINES
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.values import HEADINGS, ID_LINES, LINES, PHI_SLOTS, SIGN_OFFS, VALUES
from crfdeid.synth.world import SLOTS

#: A fraction shape as a month/day date has it (``8/9``, ``12/31``), not inside a longer run.
FRACTION = re.compile(r"(?<![\d/.+])\d{1,2}/\d{1,2}(?![\d/])")


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="values")


def _inside(doc, a: int, b: int) -> bool:
    return any(s.start <= a and b <= s.end for s in doc.spans)


def test_deterministic_prefix_stable_and_aligned(notes):
    check_deterministic_and_aligned("values", notes)


def test_templates_name_known_slots_only():
    known = set(VALUES) | set(PHI_SLOTS) | set(VOCAB) | set(EXTRA_SLOTS) | set(SLOTS)
    check_templates([line for lines in LINES.values() for line in lines] + ID_LINES + SIGN_OFFS + NURSING_LINES,
                    known)


@pytest.mark.parametrize("kind", sorted(HEADINGS))
def test_every_note_kind_is_written(notes, kind):
    heads = {h.lower() for h in HEADINGS[kind]}
    firsts = [d.text.strip().splitlines()[0].lower() for d in notes]
    assert sum(any(line.startswith(h) for h in heads) for line in firsts) >= 10


@pytest.mark.parametrize("label, value", [
    (r"(?:VA R|VA RE|OD|RE|L|LE)", r"(?:6|20)/\d+"), ("power", r"\d\+?-?/5"), ("Apgars?", r"\d+/\d+"),
    ("ER", r"\d/8"), ("GCS", r"\d+/15"),
    ("nodes", r"\d+/\d+"), ("Pain", r"\d+/10"), ("BP", r"\d+/\d+"), (r"(?:at|now)", r"\d+(?:\+\d)?/40"),
])
def test_clinical_fractions_are_written_and_never_phi(notes, label, value):
    found = [(d, m.start(2), m.end(2)) for d in notes
             for m in re.finditer(rf"\b({label}) ({value})(?![\d/])", d.text, re.IGNORECASE)]
    assert len(found) >= 10, label
    assert not [d.text[a:b] for d, a, b in found if any(s.start < b and a < s.end for s in d.spans)]


def test_fractions_are_values_and_dates_about_as_often(notes):
    """A fraction shape is a value or a month/day date by its context: both common, neither rare."""
    shapes = Counter(_inside(d, m.start(), m.end()) for d in notes for m in FRACTION.finditer(d.text))
    assert shapes[False] >= 800 and shapes[True] >= 500
    assert 0.3 < shapes[True] / (shapes[True] + shapes[False]) < 0.6


def test_month_day_dates_sit_in_the_values_lines(notes):
    """``8/9: VA 6/9``, ``Seen 8/9 at 32/40``: a date in the same line as a fraction that is not one."""
    mixed = 0
    for d in notes:
        offset = 0
        for line in d.text.splitlines(keepends=True):
            kinds = {_inside(d, offset + m.start(), offset + m.end()) for m in FRACTION.finditer(line)}
            mixed += kinds == {True, False}
            offset += len(line)
    assert mixed >= 50


def test_identifiers_and_people_are_phi(notes):
    subtypes = Counter(s.subtype for d in notes for s in d.spans)
    for subtype in ("DATE", "PATIENT", "DOCTOR", "HOSPITAL", "MEDICALRECORD"):
        assert subtypes[subtype] >= 50, subtype


def test_ward_and_bed_numbers_and_durations_are_never_phi(notes):
    found = [(d, m.start(), m.end()) for d in notes
             for m in re.finditer(r"\b(?:Ward \d+[ABC]?|[Bb]ed \d+|Bay \d|\d+ weeks|\d+-\d+ days|[4-7] North)\b",
                                  d.text, re.IGNORECASE)]
    assert len(found) >= 50
    assert not [d.text[a:b] for d, a, b in found if any(s.start < b and a < s.end for s in d.spans)]


def test_years_and_ages_over_89_beside_the_values_are_phi(notes):
    """What candidate C-val left on the made-up sets: a year after an event, an age over 89 after a name."""
    years = [(d, m.start(1), m.end(1)) for d in notes
             for m in re.finditer(r"\b(?:Previous GA|LSCS|CABG|TIA|Fall) ((?:19|20)\d\d)\b", d.text, re.IGNORECASE)]
    assert len(years) >= 10
    assert all(any(s.subtype == "DATE" and (s.start, s.end) == (a, b) for s in d.spans) for d, a, b in years)
    ages = Counter(s.subtype for d in notes for s in d.spans if s.subtype == "AGE")
    assert ages["AGE"] >= 20
    assert all(int(d.text[s.start:s.end]) >= 90 for d in notes for s in d.spans if s.subtype == "AGE")


def test_no_compass_unit_numbers(notes):
    """``5 West`` as a plain unit number taught C-val that ``Bloor West`` is plain: not written."""
    assert not [d.doc_id for d in notes if re.search(r"\b[4-7] (?:North|West|East|South)\b", d.text, re.IGNORECASE)]


def _phi(doc, a: int, b: int, subtype: str) -> bool:
    return any(s.subtype == subtype and (s.start, s.end) == (a, b) for s in doc.spans)


@pytest.mark.parametrize("label, value, subtype", [
    # what C-val2 left in a note's body: numbers joined by hyphens, slashes or points after their labels
    (r"(?:Specimen|Lab|Incident|Accession|Register|Family|Case|Sample|Ref\.)(?: no\.| ref| number| ID)?",
     r"[A-Z\d]+(?:[-/.][A-Z\d]+)+", "IDNUM"),
    (r"(?:Seen|Last seen|Next appt|reviewed)", r"\d\d?\.\d\d?\.?|\d\d? [A-Z][a-z]+|\d\d?(?:st|nd|rd|th) [A-Z][a-z]+",
     "DATE"),
    (r"(?:Appendicectomy|Cholecystectomy|Hysterectomy|LSCS|TKR|PCI|CABG|THR) \(", r"(?:19|20)\d\d", "DATE"),
    (r"(?:Home|Address):", r"[^,;]+? \d{1,3}", "STREET"),
])
def test_identifiers_of_value_shapes_after_their_labels_are_phi(notes, label, value, subtype):
    """Shapes the values also take, PHI by their labels: the whole number, date, year or street, no more."""
    found = [(d, m.start(1), m.end(1)) for d in notes
             for m in re.finditer(rf"{label} ?({value})(?=[,;:). ]|$)", d.text, re.MULTILINE)]
    assert len(found) >= 15, label
    assert [d.text[a:b] for d, a, b in found if not _phi(d, a, b, subtype)] == []


def test_identifiers_share_their_lines_with_values(notes):
    """A reference number or a street in the same line as a fraction that is a value, both common."""
    mixed = 0
    for d in notes:
        offset = 0
        for line in d.text.splitlines(keepends=True):
            ids = [s for s in d.spans if s.subtype in ("IDNUM", "STREET") and offset <= s.start < offset + len(line)]
            values = [m for m in FRACTION.finditer(line) if not _inside(d, offset + m.start(), offset + m.end())]
            mixed += bool(ids and values)
            offset += len(line)
    assert mixed >= 40
