"""Label words and look-alikes beside the identifier lines (ids15): label words, score fractions, codes, headings
and roles plain; phone and pager numbers after their labels PHONE; spans aligned; the same lines for a seed."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from crfdeid.synth import generate
from crfdeid.synth import persona as ps
from crfdeid.synth.idlabels import KINDS, contact, extra_line, label, national
from crfdeid.synth.idlabels_templates import ALONE, BLEEP_LABELS, CODES, HEADINGS, PHONE_LABELS, ROLES, SCORES, TRIALS
from crfdeid.synth.idlines import schemes
from crfdeid.synth.specialty import _SLOT, _slot, specialty_patient

_DAY = dt.date(2080, 3, 4)


def _lines(seed: int, kind: str, n: int = 80) -> list[list]:
    rng = random.Random(seed)
    w = specialty_patient(rng, ps.patient(rng, 7))
    return [line for _ in range(n) for line in extra_line(rng, w, _DAY, _slot, _SLOT, schemes(), kind)]


def _phi(line: list) -> list[tuple[str, str]]:
    return [x for x in line if isinstance(x, tuple)]


@pytest.mark.parametrize("kind", ["alone", "scores", "codes", "headings"])
def test_look_alike_lines_are_plain(kind):
    """Label words alone, score fractions, codes and headings: no PHI piece at all."""
    lines = _lines(3, kind)
    assert lines and all(not _phi(line) for line in lines)
    assert all(not re.search(r"[{}<>]", "".join(line)) for line in lines)  # every slot and alternative filled


def test_score_lines_write_fractions():
    text = "\n".join("".join(line) for line in _lines(4, "scores"))
    fractions = re.findall(r"\b(\d{1,2})/(\d{1,2})\b", text)
    assert len(fractions) >= 40
    assert all(int(n) <= int(m) or m in ("5", "6") for n, m in fractions)  # 6/5 acuity: the only N>M


def test_role_lines_type_only_doctors():
    """Roles, credentials and eponyms plain; a doctor's name the only PHI (DOCTOR)."""
    lines = _lines(5, "roles")
    kinds = {sub for line in lines for sub, _ in _phi(line)}
    assert kinds == {"DOCTOR"}
    assert any(not _phi(line) for line in lines)


def test_contact_labels_plain_numbers_phone():
    rng = random.Random(6)
    words = {w.lower() for w in PHONE_LABELS + BLEEP_LABELS}
    seen = 0
    for _ in range(200):
        pieces = contact(rng)
        phi = _phi(pieces)
        assert phi and {sub for sub, _ in phi} == {"PHONE"}
        for _, number in phi:
            assert re.fullmatch(r"\+?[\d().x -]+(?: (?:ext\.?|x) ?\d+)?", number), number
        plain = " ".join(x for x in pieces if isinstance(x, str)).lower()
        seen += any(w in plain for w in words)
    assert seen == 200  # every line labels its numbers with plain words


def test_national_label_forms():
    """The scheme's label words plain beside the number: before (most), after, two names, repeated."""
    rng = random.Random(7)
    forms = {"before": 0, "after": 0, "repeated": 0}
    for _ in range(400):
        _, subtype, words, numbers = rng.choice(schemes())
        pieces = national(rng, subtype, words, numbers[0])
        phi = _phi(pieces)
        assert phi == [(subtype, numbers[0])]
        i = pieces.index(phi[0])
        plain = [x.lower() for x in pieces if isinstance(x, str)]
        assert any(w.lower() in p for p in plain for w in words)
        forms["before" if i else "after"] += 1
        forms["repeated"] += sum(p.count(w.lower()) for p in plain for w in set(words)) >= 2
    assert all(v >= 20 for v in forms.values()), forms


def test_label_case_and_separator():
    rng = random.Random(8)
    got = {label(rng, ["Mob"]) for _ in range(300)}
    assert {"Mob: ", "mob ", "MOB # "} <= got
    assert not any(re.search(r"no\. no", label(rng, ["Hosp no"]).lower()) for _ in range(200))


def test_templates_are_sourced_slots_only():
    known = {"frac", "scheme", "plabel", "blabel", "head", "HEAD", "role", "cred", "icd", "icd_dx", "epo",
             "dr_full", "dr_last", "drug", "dx", "id"}
    for template in ALONE + SCORES + CODES + HEADINGS + ROLES + TRIALS:
        names = set(re.findall(r"<([A-Za-z_]+)>", template))
        assert names <= known, (template, names - known)


def test_notes_hold_the_new_lines_aligned_and_deterministic():
    """In ``specialty_ids`` notes: the new lines are there, spans are where their text is and token-aligned
    (no span starts or ends inside a word), and the same seed gives the same notes."""
    notes = generate(150, seed=13, style="specialty_ids")
    again = generate(150, seed=13, style="specialty_ids")
    assert [(d.text, [(s.start, s.end, s.subtype) for s in d.spans]) for d in notes] == \
        [(d.text, [(s.start, s.end, s.subtype) for s in d.spans]) for d in again]
    text = "\n".join(d.text for d in notes).lower()
    assert len(re.findall(r"\b(?:allred|recall|pinhole|power|gcs) \d+/\d+", text)) >= 5
    assert len(re.findall(r"\b(?:bleep|pager|blp|beeper)\b", text)) >= 5
    for doc in notes:
        for s in doc.spans:
            assert doc.text[s.start:s.end].strip() == doc.text[s.start:s.end]
            assert s.start == 0 or not doc.text[s.start - 1].isalnum(), doc.doc_id
            assert s.end == len(doc.text) or not doc.text[s.end].isalnum(), doc.doc_id
        for m in re.finditer(r"\b(?:Allred|pinhole|recall) \d+/\d+", doc.text, re.I):  # fractions stay O
            assert not any(s.start < m.end() and m.start() < s.end for s in doc.spans), doc.doc_id


def test_kinds_weighted():
    assert set(KINDS) == {"contact", "alone", "scores", "codes", "headings", "roles", "trials"}
    for kind in KINDS:
        assert _lines(9, kind, 5)


#: Trial, registry and terminology numbers and lots (trial16): the formats the trial lines write.
_TRIAL_NUMBERS = {
    "eudract": r"\b20[0-2]\d-\d{6}-\d{2}\b(?!-)", "ctis": r"\b20[2-3]\d-5\d{5}-\d{2}-00\b", "nct": r"\bnct\d{8}\b",
    "isrctn": r"\bisrctn\d{8}\b", "meddra": r"\b(?:pt|llt|soc|code|#) 10\d{6}\b",
    "loinc": r"\bloinc\D{0,8}\d{4,5}-\d\b",
    "atc": r"\batc\D{0,8}[a-z]\d\d[a-z]{2}", "lot": r"\b(?:lot|batch|charge|lote|ch\.-b\.)\b",
    "protocol": r"\b(?:protocol|study code|study id)\b",
}


def test_trial_lines_plain_numbers_in_their_formats():
    """Trial, registry and terminology numbers and lots O; a doctor's name or a hospital number the only PHI;
    every format written; lines as written, lower and upper case."""
    lines = _lines(21, "trials", 400)
    assert {sub for line in lines for sub, _ in _phi(line)} <= {"DOCTOR", "MEDICALRECORD"}
    plain = ["".join(x for x in line if isinstance(x, str)) for line in lines]
    assert all(not re.search(r"[{}<>]", p) for p in plain)
    text = "\n".join(plain).lower()
    for name, pattern in _TRIAL_NUMBERS.items():
        assert len(re.findall(pattern, text)) >= 5, name
    assert any(p.isupper() for p in plain) and any(p.islower() for p in plain)
    assert sum(bool(_phi(line)) for line in lines) >= 10


def test_trial_numbers_stay_o_in_notes():
    """In ``specialty_ids`` notes the trial and terminology numbers are written and no span covers them."""
    notes = generate(200, seed=17, style="specialty_ids")
    found = 0
    for doc in notes:
        for name in ("eudract", "ctis", "nct", "isrctn", "meddra"):
            for m in re.finditer(_TRIAL_NUMBERS[name], doc.text, re.I):
                found += 1
                assert not any(s.start < m.end() and m.start() < s.end for s in doc.spans), (doc.doc_id, name)
    assert found >= 10
