"""The ``specialty`` style: notes of every specialty, clinical words from sourced lists, look-alikes never PHI."""

from __future__ import annotations

import random
import re

import pytest

from crfdeid import gazetteers
from crfdeid.io import read
from crfdeid.labels import encode
from crfdeid.synth import generate, parse_source
from crfdeid.synth.specialty import COUNTRIES, EXTRA_SLOTS
from crfdeid.synth.specialty_templates import HEADINGS, LINES, NURSING_LINES
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.world import SLOTS
from crfdeid.text.tokenize import tokenize

LISTS = ("icd10_dx", "anatomy_sites", "anatomy_eponyms", "devices", "sutures", "measure_abbrevs", "units",
         "procedure_actions", "gene_symbols")


@pytest.fixture(scope="module")
def notes():
    return generate(400, seed=13, style="specialty")


def _outside(doc, pattern: str) -> tuple[int, int]:
    """(occurrences of ``pattern``, those inside a PHI span)."""
    hits = [m.span() for m in re.finditer(pattern, doc.text)]
    return len(hits), sum(any(s.start < e and b < s.end for s in doc.spans) for b, e in hits)


def test_deterministic_prefix_stable_and_aligned(notes):
    assert generate(40, seed=13, style="specialty") == notes[:40]
    assert list(read("synth:40,13,specialty")) == notes[:40]
    assert generate(40, seed=14, style="specialty") != notes[:40]
    assert parse_source("5,2,specialty") == (5, 2, "specialty")
    for doc in notes:
        doc.validate(allow_overlap=False)
        assert encode(tokenize(doc.text), doc.spans).problems == []
        assert all(doc.text[s.start:s.end] == doc.text[s.start:s.end].strip() for s in doc.spans)
        assert doc.text.isascii()


@pytest.mark.parametrize("kind", sorted(HEADINGS))
def test_every_note_kind_is_written(notes, kind):
    heads = tuple(h.lower() for h in HEADINGS[kind])
    firsts = [d.text.strip().splitlines()[0].lower() for d in notes]
    assert sum(f.startswith(heads) for f in firsts) >= 5


def test_phi_where_such_notes_hold_it(notes):
    subtypes = {s.subtype for d in notes for s in d.spans}
    assert {"PATIENT", "DOCTOR", "DATE", "HOSPITAL", "MEDICALRECORD", "PHONE", "STREET", "CITY", "ZIP", "SSN",
            "IDNUM", "HEALTHPLAN"} <= subtypes
    surfaces = [d.surface(s) for d in notes for s in d.spans]
    assert any(re.fullmatch(r"\d{8}-\d{4}", x) for x in surfaces)  # a Swedish personnummer
    assert any(re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}", x) for x in surfaces)  # a Brazilian CPF
    assert any(re.fullmatch(r"[STFG]\d{7}[A-Z]", x) for x in surfaces)  # a Singapore NRIC


@pytest.mark.parametrize("pattern", [
    r"\b[A-Z]\d\d\.\d{1,4}\b",                   # ICD-10-CM codes (E11.649)
    r"\bCPT:? (code )?\d{5}\b",                  # CPT-shaped codes
    r"\b[a-zA-Z]+/(dL|L|kg/min|1\.73m2)\b",      # units (mg/dL)
    r"\b(Ward|Bed|Bay) \d+[A-C]?\b",             # ward and bed numbers: no Safe Harbor identifier
    r"\b(p|c|yp)?T(\d[a-c]?|is|x)\s?p?N\d",      # TNM stages
    r"\bGleason \d",
    r"\bClass [ABCDFR]\d?\b",                    # White's classes (Class B2)
    r"\bc\.\d+",                                 # HGVS variants
    r"\b\d-0 [A-Z]",                             # suture sizes (3-0 Vicryl)
])
def test_look_alikes_are_written_and_never_phi(notes, pattern):
    found = [_outside(d, pattern) for d in notes]
    assert sum(n for n, _ in found) >= 3
    assert sum(inside for _, inside in found) == 0


@pytest.fixture(scope="module")
def many():
    return generate(3000, seed=5, style="specialty")


@pytest.mark.parametrize("word", ["Roux-en-Y", "ligament of Treitz", "Vicryl", "jejunum", "LVEDD", "TAPSE"])
def test_listed_clinical_words_are_never_phi(many, word):
    # drawn from the sourced lists: somewhere in 3,000 notes, never inside a span
    found = [_outside(d, re.escape(word)) for d in many]
    assert sum(n for n, _ in found) >= 1
    assert sum(inside for _, inside in found) == 0


def test_all_caps_diagnoses_and_ages_under_90_are_plain(notes):
    caps = sum(1 for d in notes for line in d.text.splitlines()
               if re.search(r"\b[A-Z]{4,} [A-Z]{4,} [A-Z]{4,}\b", line) and line != line.upper())
    assert caps >= 20  # an upper-case diagnosis in a mixed-case note
    for d in notes:
        for s in d.spans:
            if s.subtype == "AGE":
                assert int(re.sub(r"\D", "", d.surface(s))[:3]) >= 90


@pytest.mark.parametrize("name", LISTS)
def test_vocabulary_lists_have_a_source_and_a_licence(name):
    header = "\n".join(gazetteers.header(name))
    assert "source:" in header and "licence:" in header and "regenerate:" in header
    assert len(gazetteers.entries(name)) >= 30


def test_icd10_entries_are_codes_with_their_descriptions():
    rows = gazetteers.entries("icd10_dx")
    assert len(rows) > 2000
    assert all(re.fullmatch(r"[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})? \S.*", r) for r in rows)


def test_every_template_slot_is_known_and_vocabulary_is_plain():
    known = set(VOCAB) | set(SLOTS) | set(EXTRA_SLOTS)
    for kind, lines in LINES.items():
        for line in lines:
            assert not re.search(r"\{[a-z_]+\}", line), (kind, line)  # a slot written with braces
            for slot in re.findall(r"<([A-Za-z_0-9]+)>", line):
                assert slot in known, (kind, slot)
    rng = random.Random(3)
    for name, draw in VOCAB.items():
        for _ in range(20):
            text = draw(rng)
            assert isinstance(text, str) and text.strip() and text.isascii(), name


def test_countries_of_the_issue_are_drawn(notes):
    assert {"US", "UK", "AU", "IN", "SG", "KE", "SE", "KR", "BR"} <= set(COUNTRIES)
    towns = " ".join(d.text for d in notes)
    assert all(t in towns for t in ("Nairobi", "Uppsala", "Incheon")) or towns.count("Personnummer") > 3


@pytest.mark.parametrize("context, subtypes", [
    (r"[Tt]ransferred from ", {"HOSPITAL"}),                       # a place after transferred from
    (r"[Ll]ives in ", {"CITY"}),                                    # a town after lives in
    (r"\bto ", {"HOSPITAL", "ORGANIZATION"}),                       # to <place> in am
    (r"\b(echo|ct|mri|cxr|us|bc|ucx|started|restarted|stopped) ", {"DATE"}),  # a telegraphic month/day
    (r"\b(dtr|son|wife|husband), ", {"PATIENT"}),                   # a relative's first name
])
def test_nursing_contexts_carry_phi(notes, context, subtypes):
    # issue 58: the specialty notes also hold PHI where nursing notes hold it, in any case
    found = [(d.surface(s), s.subtype, d.text[:s.start]) for d in notes for s in d.spans
             if s.subtype in subtypes and re.search(context + r"$", d.text[:s.start], re.IGNORECASE)]
    assert len(found) >= 10
    assert any(text == text.lower() for text, _, _ in found)  # lower-case lines too
    if subtypes & {"HOSPITAL", "CITY"}:
        assert any(text == text.upper() for text, _, _ in found)  # places in all-caps lines, as ICU notes write them
    if subtypes == {"DATE"}:
        assert sum(bool(re.fullmatch(r"\d{1,2}/\d{1,2}", text)) for text, _, _ in found) >= 10  # 8/9


def test_nursing_lines_use_known_slots():
    known = set(VOCAB) | set(SLOTS) | set(EXTRA_SLOTS)
    assert {"md", "place"} <= set(EXTRA_SLOTS)
    for line in NURSING_LINES:
        assert set(re.findall(r"<([A-Za-z_0-9]+)>", line)) <= known, line
