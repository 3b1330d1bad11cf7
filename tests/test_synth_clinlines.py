"""The ``clinical`` style: headings, values, scores, eponyms, roles, credentials and words that are also names,
never PHI, beside the note's PHI."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid import gazetteers
from crfdeid.synth import generate
from crfdeid.synth.clinlines import (
    CLINICAL,
    CREDENTIALS,
    ID_LABELS,
    LINES,
    PHI_LINES,
    PHI_SLOTS,
    SIGN_OFFS,
    _sections,
    departments,
    name_words,
)
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.values import VALUES
from crfdeid.synth.world import SLOTS


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="clinical")


def _plain(doc, a: int, b: int) -> bool:
    return not any(s.start < b and a < s.end for s in doc.spans)


def test_deterministic_and_aligned(notes):
    check_deterministic_and_aligned("clinical", notes, ascii_only=False)


def test_templates_name_known_slots_only():
    check_templates(LINES + SIGN_OFFS, set(CLINICAL) | set(VALUES) | set(VOCAB) | set(EXTRA_SLOTS) | set(SLOTS))


def test_credentials_and_sections_come_from_the_lists():
    """Credentials are ``titles.txt``'s; no section label is one that labels an identifier (``MRN:``)."""
    titles = set(gazetteers.entries("titles"))
    assert set(CREDENTIALS) <= titles
    assert not {w.lower() for w in _sections()} & ID_LABELS
    assert {"mrn", "dob", "uhid"} <= ID_LABELS


def test_name_words_are_names_and_common_words_but_no_first_names():
    words = name_words()
    assert len(words) >= 300
    firsts = {w.lower() for n in ("first_male", "first_female") for w in gazetteers.entries(n)}
    common = {w.lower() for w in gazetteers.entries("common_words")}
    assert all(w.lower() in common and w.lower() not in firsts for w in words)


@pytest.mark.parametrize("pattern, least", [
    (r"(?m)^(?:DEPARTMENT OF|Department of) [A-Za-z][A-Za-z &/-]+$", 20),  # a heading alone on its line
    (r"\b(?:Consultant|Registrar|Fellow|Attending)\b", 50),
    (r"\b\d{1,3}/\d{1,3}\b", 300),
    (r", (?:MD|PA-C|PharmD|LCSW|RN|DO), ", 30),
])
def test_clinical_forms_are_written_and_plain(notes, pattern, least):
    """Headings, roles, fractions and credentials are written often; headings, roles and credentials are
    never inside a span (a fraction may be a month/day date: the test below)."""
    found = [(d, m.start(), m.end()) for d in notes for m in re.finditer(pattern, d.text)]
    assert len(found) >= least
    if "/" not in pattern:
        assert all(_plain(d, a, b) for d, a, b in found)


def test_fractions_are_mostly_values(notes):
    """Scores' and measures' fractions are plain; the month/day dates beside them are PHI, fewer but common."""
    shapes = Counter(_plain(d, m.start(), m.end())
                     for d in notes for m in re.finditer(r"(?<![\d/.+])\d{1,2}/\d{1,2}(?![\d/])", d.text))
    assert shapes[True] > shapes[False] > 100


def test_list_words_are_plain_and_people_are_phi(notes):
    """A heading of a department alone on its line is never inside a span (a named service of the hospital,
    ``<town> Department of Urology``, is); the patient, the clinicians, the dates and the hospital are PHI."""
    subtypes = Counter(s.subtype for d in notes for s in d.spans)
    assert subtypes["DOCTOR"] >= 300 and subtypes["DATE"] >= 300 and subtypes["HOSPITAL"] >= 200
    assert subtypes["PATIENT"] >= 150
    heads = {d.lower() for d in departments()}
    inside = plain = 0
    for doc in notes:
        for m in re.finditer(r"(?i)^department of ([a-z][a-z &/-]+)$", doc.text, re.MULTILINE):
            if m.group(1).lower() in heads:
                inside += not _plain(doc, m.start(1), m.end(1))
                plain += _plain(doc, m.start(1), m.end(1))
    assert plain >= 20 and inside == 0


def test_name_words_head_clinical_lines_unlabelled(notes):
    words = set(name_words())
    seen = 0
    for doc in notes:
        for m in re.finditer(r"(?m)^([A-Z][a-z]+) (?:score|test|view|sign|count|-|:)", doc.text):
            if m.group(1) in words:
                assert _plain(doc, m.start(1), m.end(1)), doc.doc_id
                seen += 1
    assert seen >= 20


@pytest.fixture(scope="module")
def phi_notes():
    return generate(200, seed=13, style="clinical_phi")


def test_phi_variant_deterministic_and_aligned(phi_notes):
    check_deterministic_and_aligned("clinical_phi", phi_notes, ascii_only=False)
    known = set(CLINICAL) | set(PHI_SLOTS) | set(VALUES) | set(VOCAB) | set(EXTRA_SLOTS) | set(SLOTS)
    check_templates(PHI_LINES, known)


def test_phi_variant_names_services_and_drops_name_word_lines(phi_notes, notes):
    """``clinical_phi``: a department after a town is a service of the hospital (HOSPITAL), the department alone
    a heading (plain); no line opens with a word that is also a name before ``score``/``test``... ."""
    heads = {d.lower() for d in departments()}
    services = [d.text[s.start:s.end] for d in phi_notes for s in d.spans if s.subtype == "HOSPITAL"
                and re.search(r"(?i)(?:unit|department|service|centre|clinic)$", d.text[s.start:s.end])]
    assert len(services) >= 100
    assert sum(any(h in t.lower() for h in heads) for t in services) >= 80
    pattern = re.compile(r"(?m)^([A-Z][a-z]+) (?:score|test|view|sign|count) (?:normal|abnormal)")
    words = set(name_words())
    assert not [m for d in phi_notes for m in pattern.finditer(d.text) if m.group(1) in words]
    assert [m for d in notes for m in pattern.finditer(d.text) if m.group(1) in words]
