"""The ``dictated`` style: dictated notes of non-operative specialties, their words from sourced lists."""

from __future__ import annotations

import random
import re

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid.synth import generate
from crfdeid.synth.dictated import DICT_SLOTS, DICT_VOCAB
from crfdeid.synth.dictated_templates import (
    DISCHARGE_SECTIONS,
    EXAM,
    EXAM_SPEC,
    FOOTER,
    HEADER,
    HEADINGS,
    HP_SECTIONS,
    HPI,
    HPI_OPEN,
    LETTER_CLOSE,
    LETTER_OPEN,
    PLAN,
    ROS,
    SOAP,
    SPECIALTIES,
)
from crfdeid.synth.operative import OP_SLOTS, OP_VOCAB
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.world import SLOTS

_TABLES = HP_SECTIONS + DISCHARGE_SECTIONS + SOAP
TEMPLATES = (HEADER + EXAM + list(EXAM_SPEC.values()) + PLAN + ROS + HPI_OPEN + FOOTER + LETTER_OPEN + LETTER_CLOSE
             + [line for lines in HPI.values() for line in lines]
             + [h for h, *_ in _TABLES] + [s for _, src, *_ in _TABLES if isinstance(src, list) for s in src])


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="dictated")


def _inside(doc, start: int, end: int) -> bool:
    return any(s.start < end and start < s.end for s in doc.spans)


def test_deterministic_prefix_stable_and_aligned(notes):
    check_deterministic_and_aligned("dictated", notes)


@pytest.mark.parametrize("kind", sorted(HEADINGS))
def test_every_note_kind_is_written(notes, kind):
    heads = {h.replace("{spec}", w).lower() for h in HEADINGS[kind] for w in SPECIALTIES.values()}
    lines = [line.strip().lower() for d in notes for line in d.text.splitlines()[:4]]
    assert sum(line in heads for line in lines) >= 20


def test_transcription_layout_all_caps_headings_and_a_long_history(notes):
    layout = [d for d in notes if re.search(r"(?m)^(HISTORY OF PRESENT ILLNESS|HPI):", d.text)
              and re.search(r"(?m)^(PHYSICAL EXAMINATION|PHYSICAL EXAM|EXAMINATION):", d.text)
              and re.search(r"(?m)^(PLAN|RECOMMENDATIONS|IMPRESSION|ASSESSMENT)\b", d.text)]
    assert len(layout) >= 60
    long_history = [line for d in notes for line in d.text.splitlines()
                    if re.match(r"(HISTORY OF PRESENT ILLNESS|HPI|HOSPITAL COURSE): ", line) and len(line) > 400]
    assert len(long_history) >= 40


def test_phi_is_sparse_and_where_such_notes_hold_it(notes):
    subtypes = {s.subtype for d in notes for s in d.spans}
    assert {"PATIENT", "DOCTOR", "DATE", "HOSPITAL", "CITY", "MEDICALRECORD"} <= subtypes
    phi = sum(s.end - s.start for d in notes for s in d.spans)
    assert phi / sum(len(d.text) for d in notes) < 0.12  # long clinical text, few identifiers
    labelled = 0
    for d in notes:
        for m in re.finditer(r"(?m)^(PATIENT NAME|PATIENT|REFERRING PHYSICIAN|ATTENDING|RE|Dear Dr\.|D): ?", d.text):
            labelled += any(s.start == m.end() for s in d.spans)
    assert labelled >= 200


def test_headings_drug_lists_signs_and_labs_are_never_phi(notes):
    checked = {"heading": 0, "drugs": 0, "sign": 0, "lab": 0}
    for d in notes:
        for m in re.finditer(r"(?m)^([A-Z][A-Z /-]{3,}):", d.text):  # ALL-CAPS headings
            checked["heading"] += 1
            assert not _inside(d, *m.span(1)), (d.doc_id, m.group(1))
        for m in re.finditer(r"(?m)^(?:[A-Z ]*MEDICATIONS[A-Z ]*): (.*)$", d.text):
            checked["drugs"] += 1
            assert not _inside(d, *m.span(1)), d.doc_id
        for m in re.finditer(r"\b[A-Z][\w'-]+(?:'s)? (?:sign|test|maneuver)\b", d.text):
            checked["sign"] += 1
            assert not _inside(d, *m.span()), d.doc_id
        for m in re.finditer(r"(?i)\b(hemoglobin|creatinine|potassium|troponin|INR|PSA) (of )?\d", d.text):
            checked["lab"] += 1
            assert not _inside(d, *m.span()), d.doc_id
    assert min(checked.values()) >= 50, checked


def test_medication_lists_hold_brands_with_doses(notes):
    lines = [m.group(1) for d in notes for m in re.finditer(r"(?m)^[A-Z ]*MEDICATIONS[A-Z ]*: (.*)$", d.text)]
    assert len(lines) >= 100
    assert sum(bool(re.search(r"\b\d+ (mg|mcg|units)\b", line)) for line in lines) >= 0.8 * len(lines)


def test_every_template_slot_is_known_and_vocabulary_is_plain():
    known = set(DICT_VOCAB) | set(DICT_SLOTS) | set(OP_VOCAB) | set(OP_SLOTS) | set(VOCAB) | set(SLOTS)
    known |= set(EXTRA_SLOTS)
    known |= {"exam_spec", "spec_word"}  # put in by the writer before a template is drawn
    pronouns = r"\{(He\|She|he\|she|His\|Her|his\|her|her\|his|him\|her)\}"  # drawn first, by sex
    check_templates([re.sub(pronouns, "he", line) for line in TEMPLATES], known)
    rng = random.Random(3)
    for name, draw in DICT_VOCAB.items():
        for _ in range(20):
            text = draw(rng)
            assert isinstance(text, str) and text.strip() and text.isascii(), name


def test_the_new_slots_leave_the_other_styles_slots_alone():
    # the router is trained on specialty notes, the specialty CRF on operative ones: no slot of theirs moves
    assert not set(DICT_VOCAB) & (set(VOCAB) | set(OP_VOCAB))
    assert not set(DICT_SLOTS) & (set(SLOTS) | set(EXTRA_SLOTS) | set(OP_SLOTS))


def test_pronouns_follow_the_patient(notes):
    # one patient, one sex: a history that says "He" does not say "She" of the same patient
    mixed = 0
    for d in notes:
        for line in d.text.splitlines():
            if re.match(r"(HISTORY OF PRESENT ILLNESS|HPI|S|SUBJECTIVE|Subjective): ", line):
                mixed += bool(re.search(r"\bHe\b", line) and re.search(r"\bShe\b", line))
    assert mixed == 0
