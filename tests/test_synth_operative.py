"""The ``operative`` style: dictated operative, endoscopy and consult notes, their words from sourced lists."""

from __future__ import annotations

import random
import re

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid import gazetteers
from crfdeid.synth import generate
from crfdeid.synth.operative import OP_SLOTS, OP_VOCAB
from crfdeid.synth.operative_templates import (
    CLOSING,
    CONSULT_LINES,
    ENDO_LINES,
    HEADINGS,
    INDICATIONS,
    NARRATIVE,
    OPENING,
    UK_LINES,
    US_FIELDS,
    US_FOOTER,
    US_HEADER,
)
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.world import SLOTS

LISTS = ("pcs_body_parts", "pcs_devices", "pcs_approaches", "surgical_instruments", "operative_positions",
         "named_procedures")
TEMPLATES = (US_HEADER + US_FIELDS + INDICATIONS + OPENING + CLOSING + US_FOOTER + UK_LINES + ENDO_LINES
             + CONSULT_LINES + [line for lines in NARRATIVE.values() for line in lines])


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="operative")


def _outside(doc, pattern: str) -> tuple[int, int]:
    """(occurrences of ``pattern``, those overlapping a PHI span)."""
    hits = [m.span() for m in re.finditer(pattern, doc.text)]
    return len(hits), sum(any(s.start < e and b < s.end for s in doc.spans) for b, e in hits)


def test_deterministic_prefix_stable_and_aligned(notes):
    check_deterministic_and_aligned("operative", notes)


@pytest.mark.parametrize("kind", sorted(HEADINGS))
def test_every_note_kind_is_written(notes, kind):
    heads = {h.lower() for h in HEADINGS[kind]}
    lines = [line.strip().lower() for d in notes for line in d.text.splitlines()[:3]]
    assert sum(line in heads for line in lines) >= 10


def test_us_transcriptions_have_a_long_narrative_on_one_line(notes):
    long_lines = [line for d in notes for line in d.text.splitlines()
                  if re.match(r"(?i)(description of|procedure in detail|operative technique|details of|the patient "
                              r"was (brought|taken))", line) and len(line) > 600]
    assert len(long_lines) >= 40


def test_phi_where_such_notes_hold_it(notes):
    subtypes = {s.subtype for d in notes for s in d.spans}
    assert {"PATIENT", "DOCTOR", "DATE", "HOSPITAL", "MEDICALRECORD", "CITY"} <= subtypes
    labelled = 0
    for d in notes:
        for m in re.finditer(r"(?im)^(SURGEON|ASSISTANT|ANESTHESIOLOGIST|Anaesthetist|Surgeon): (Dr |Mr |Miss |Ms )?",
                             d.text):
            labelled += any(s.start == m.end() and s.subtype == "DOCTOR" for s in d.spans)
    assert labelled >= 100


@pytest.mark.parametrize("pattern", [
    r"\b(Vicryl|Monocryl|PDS|Prolene|Ethibond)\b",          # suture brands
    r"\b(Kocher|Metzenbaum|Babcock|Allis|Deaver|Balfour)\b",  # instruments named after surgeons
    r"\bTrendelenburg\b", r"\blithotomy\b", r"\bBovie\b", r"\bJackson-Pratt\b",
    r"\bRoux-en-Y\b", r"\b(jejunum|duodenum|peritoneum)\b", r"(?i)\bligament of Treitz\b",
    r"\b[A-Z][a-z]+'s (fascia|pouch|triangle|capsule)\b",     # anatomical eponyms
])
def test_look_alikes_are_written_and_never_phi(notes, pattern):
    found = [_outside(d, pattern) for d in notes]
    assert sum(n for n, _ in found) >= 3
    assert sum(inside for _, inside in found) == 0


@pytest.mark.parametrize("name", LISTS)
def test_vocabulary_lists_have_a_source_and_a_licence(name):
    header = "\n".join(gazetteers.header(name))
    assert "source:" in header and "licence:" in header and "regenerate:" in header
    assert 10 <= len(gazetteers.entries(name)) <= 2000


def test_pcs_lists_hold_surgical_anatomy_and_approaches():
    parts = set(gazetteers.entries("pcs_body_parts"))
    assert {"jejunum", "duodenum", "peritoneum", "gallbladder"} <= parts
    assert "percutaneous endoscopic approach" in gazetteers.entries("pcs_approaches")
    assert not any(re.search(r"\b(other|unspecified)\b", p) for p in parts)


def test_every_template_slot_is_known_and_vocabulary_is_plain():
    known = set(OP_VOCAB) | set(OP_SLOTS) | set(VOCAB) | set(SLOTS) | set(EXTRA_SLOTS)
    check_templates([line for line in TEMPLATES if line != "<steps>"], known)
    rng = random.Random(3)
    for name, draw in OP_VOCAB.items():
        for _ in range(20):
            text = draw(rng)
            assert isinstance(text, str) and text.strip() and text.isascii(), name


def test_the_new_slots_leave_the_specialty_slots_alone():
    # the router is trained on specialty notes: the operative slots must not shadow or move theirs
    assert not set(OP_VOCAB) & set(VOCAB)
    assert not set(OP_SLOTS) & (set(SLOTS) | set(EXTRA_SLOTS))


def test_phi_in_nursing_and_disposition_contexts_too(notes):
    # long notes of few identifiers must not teach that `transferred from` or `lives in` is rare
    found = 0
    for d in notes:
        for m in re.finditer(r"(?i)\b(transferred from|lives in|discussed with the patient's \w+,) ", d.text):
            found += any(s.start == m.end() for s in d.spans)
    assert found >= 40
