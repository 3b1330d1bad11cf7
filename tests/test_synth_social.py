"""The ``social`` style: organisations, European addresses, hospital initials and ages over 89, beside look-alikes."""

from __future__ import annotations

import re

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid.synth import generate
from crfdeid.synth.builder import NoteBuilder
from crfdeid.synth.social import CLINICAL_PLACES, EUROPE, SOCIAL_SLOTS, acronym, europe
from crfdeid.synth.social_templates import (
    EPONYM_TESTS,
    FORM_FIELDS,
    HEADINGS,
    LABS,
    LANGUAGES,
    LETTER_LINES,
    SOCIAL_LINES,
    TERM_ABBREVIATIONS,
)
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.world import SLOTS

TEMPLATES = SOCIAL_LINES + LETTER_LINES + [value for _, value in FORM_FIELDS]


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="social")


def _labelled(doc, start: int, end: int) -> list[str]:
    """Subtypes of the spans that overlap ``[start, end)``."""
    return [s.subtype for s in doc.spans if s.start < end and start < s.end]


def _span_at(doc, start: int):
    return next((s for s in doc.spans if s.start == start), None)


def test_deterministic_prefix_stable_and_aligned(notes):
    check_deterministic_and_aligned("social", notes, ascii_only=False)


@pytest.mark.parametrize("kind", sorted(HEADINGS))
def test_every_note_kind_is_written(notes, kind):
    heads = {h.lower() for h in HEADINGS[kind]}
    firsts = [re.split(r" - |  | \d", d.text.strip().splitlines()[0].lower())[0].strip() for d in notes]
    assert sum(first in heads for first in firsts) >= 30


@pytest.mark.parametrize("context", [r"(?i)\bworks as a [\w -]+? at ", r"(?i)\b(attends|goes to) (?!a day)",
                                     r"(?i)\blives at ", r"(?i)\bsupport from ", r"(?i)\binsurance: ",
                                     r"(?i)\bbrought in by "])
def test_organisations_where_social_histories_name_them(notes, context):
    hits = [(d, m.end()) for d in notes for m in re.finditer(context, d.text)]
    labelled = [d for d, at in hits if (s := _span_at(d, at)) and s.subtype == "ORGANIZATION"]
    assert len(hits) >= 15 and len(labelled) >= 0.6 * len(hits)


@pytest.mark.parametrize("country, street", [
    ("NL", r"[A-Z][\w-]+ \d+(-2| A|b| hs)?"), ("PL", r"(ul\.|al\.) [\w. -]+ \d+(/\d+| m\. \d+)?"),
    ("ES", r"C/ [\w ]+ \d+(, \dº( [A-D])?)?"), ("DE", r"[\w-]+ \d+(a| b)?"), ("FR", r"\d+( bis)? [\w' -]+")])
def test_streets_then_postcode_and_town_in_each_countrys_order(notes, country, street):
    postcode = {"NL": r"\d{4} [A-Z]{2}", "PL": r"\d\d-\d{3}"}.get(country, r"\d{5}")
    towns = "|".join(re.escape(t) for t in europe(country, "town"))
    pattern = rf"({street}), ({postcode}) +({towns})\b"
    found = [(d, m) for d in notes for m in re.finditer(pattern, d.text)]
    assert len(found) >= 5
    for d, m in found:
        assert [s.subtype for s in d.spans if (s.start, s.end) == m.span(1)] == ["STREET"], m.group(0)
        assert _labelled(d, *m.span(m.lastindex - 1)) == ["ZIP"]
        assert _labelled(d, *m.span(m.lastindex)) == ["CITY"]


def test_hospital_initials_follow_the_name_and_are_labelled(notes):
    pairs = [(d, m) for d in notes for m in re.finditer(r"\(([A-Z]{2,6})\)", d.text)]
    hospital = [(d, m) for d, m in pairs if _labelled(d, *m.span(1)) == ["HOSPITAL"]]
    assert len(hospital) >= 100
    assert acronym("Universitair Medisch Centrum Groningen") == "UMCG"
    assert acronym("Szpital Wojewódzki w Opolu") == "SWO"


def test_ages_over_89_are_age_and_younger_ages_are_not(notes):
    over, under = 0, 0
    for d in notes:
        for m in re.finditer(r"(?i)\b(\d{2,3})(?=-year-old| years old| yrs|; lives at)|"
                             r"(?:Age|Leeftijd|Wiek|Edad|Alter|Âge): (\d{2,3})\b", d.text):
            at = m.span(1) if m.group(1) else m.span(2)
            age = int(d.text[at[0]:at[1]])
            assert _labelled(d, *at) == (["AGE"] if age >= 90 else []), d.text[at[0]:at[1]]
            over += age >= 90
            under += age < 90
    words = sum(s.subtype == "AGE" and d.text[s.start:s.end].lower().startswith("ninety") for d in notes
                for s in d.spans)
    assert over >= 40 and under >= 15 and words >= 5


@pytest.mark.parametrize("pattern", [
    "|".join(re.escape(p) for p in CLINICAL_PLACES),  # anatomy that reads like a place or a name
    r"\b(Ward|Bay) \d+\b", r"\bBarthel \d+\b", r"\bKatz \d/6\b",
    r"(?<!\w)(?:Medication|Medicatie|Leki|Medicación|Medikation|Traitement): [^\n]+",  # drug brands
    "|".join(re.escape(t) for t in TERM_ABBREVIATIONS),  # a clinical term (ABBREVIATION), beside hospital initials
    r"\b(Hb|Na|eGFR|CRP|kreatinine|Kreatinin|kreatynina) \d+\b",  # a word and a number, beside streets
    "|".join(re.escape(t.split("{")[0].strip()) for t in EPONYM_TESTS),  # eponyms and brands, beside organisations
])
def test_look_alikes_are_written_and_never_phi(notes, pattern):
    hits = [(d, m.span()) for d in notes for m in re.finditer(f"(?i){pattern}", d.text)]
    assert len(hits) >= 10
    assert not [d.text[b:e] for d, (b, e) in hits if _labelled(d, b, e)]


def test_lab_values_follow_their_tables_and_stay_plain(notes):
    names = "|".join(re.escape(n) for names, *_ in LABS for n in names)
    hits = [(d, m) for d in notes for m in re.finditer(rf"(?<![\w-])({names}) (\d+(?:[.,]\d+)?)(?=[,;.\n]|$)", d.text)]
    assert len(hits) >= 100
    assert not [m.group(0) for d, m in hits if _labelled(d, *m.span())]


def test_european_lists_have_a_source_a_licence_and_every_kind():
    from importlib import resources
    text = resources.files("crfdeid._data").joinpath("europe_places.txt").read_text(encoding="utf-8")
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    assert "source:" in header and "licence:" in header and "regenerate: python gazetteers/europe_places.py" in header
    for country in EUROPE:
        for kind in ("first", "last", "street", "town", "firm"):
            assert len(europe(country, kind)) >= 100, (country, kind)
    assert "Amsterdam" in europe("NL", "town") and "Kraków" in europe("PL", "town")


def test_every_template_slot_is_known_and_braces_are_flat():
    known = set(SOCIAL_SLOTS) | set(VOCAB) | set(SLOTS) | set(EXTRA_SLOTS)
    check_templates(TEMPLATES, known)
    assert all(len(labels) == len(LANGUAGES) for labels, _ in FORM_FIELDS)


def test_forms_of_european_patients_mostly_in_their_language(notes):
    own = {"Leeftijd": "NL", "Wiek": "PL", "Edad": "ES", "Alter": "DE", "Âge": "FR"}
    assert sum(bool(re.search(rf"(?m)^{label}: ", d.text)) for d in notes for label in own) >= 10


def test_recase_keeps_offsets_where_a_letter_would_grow():
    b = NoteBuilder()
    b.add("Anschrift: ", ("STREET", "Große Straße 7"), ", ", ("CITY", "Köln"))
    b.recase(0, "upper")
    doc = b.build("1")
    assert [doc.text[s.start:s.end] for s in doc.spans] == ["GROßE STRAßE 7", "KÖLN"]
