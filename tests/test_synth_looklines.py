"""The ``clinical_look`` style: combo16's falsified forms (eponyms in clinical terms, fractions and years that are no
date, imaging with its body part, post-nominals) written as not PHI beside the note's PHI (look16)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid import gazetteers
from crfdeid.synth import generate
from crfdeid.synth.clinlines import CLINICAL, LINES, _lines
from crfdeid.synth.looklines import EPONYM_HEADS, IMAGING, LOOK, LOOK_LINES, POSTNOMINALS, eponym_words
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.values import VALUES
from crfdeid.synth.world import SLOTS


@pytest.fixture(scope="module")
def notes():
    return generate(200, seed=13, style="clinical_look")


_HEADS = "|".join(map(re.escape, EPONYM_HEADS))
_IMAGING = "|".join(map(re.escape, IMAGING))
_EDITIONS = "WHO|ISUP|TNM|AJCC|FIGO|Gleason|UICC|ESC|GOLD|KDIGO"
_POSTNOMINALS = "|".join(map(re.escape, sorted(POSTNOMINALS, key=len, reverse=True)))


def _plain(doc, a: int, b: int) -> bool:
    return not any(s.start < b and a < s.end for s in doc.spans)


def _found(notes, pattern: str, group: int = 0):
    return [(d, m.start(group), m.end(group)) for d in notes for m in re.finditer(pattern, d.text)]


def test_deterministic_and_aligned(notes):
    check_deterministic_and_aligned("clinical_look", notes, ascii_only=False)


def test_templates_name_known_slots_only():
    check_templates(LOOK_LINES, set(CLINICAL) | set(LOOK) | set(VALUES) | set(VOCAB) | set(EXTRA_SLOTS) | set(SLOTS))


def test_the_clinical_notes_are_not_the_look_notes():
    """``clinical`` notes keep their own lines (the configs that train on them are unchanged)."""
    plain = generate(30, seed=13, style="clinical")
    look = generate(30, seed=13, style="clinical_look")
    assert plain != look
    assert not any(re.search(r"\b(?:Fr|French) (?:passed|placed|sited)", d.text) for d in plain)


def test_eponym_words_are_names_of_the_lists():
    """Words of the eponym, anatomy, instrument and procedure lists: capitalised, no abbreviation, no phrase."""
    words = eponym_words()
    assert len(words) >= 300
    assert {"Kocher", "Hunter", "Metzenbaum"} <= set(words)
    assert all(w[:1].isupper() and not w.isupper() and " " not in w for w in words)
    listed = {e.split()[0].removesuffix("'s") for n in ("eponyms", "eponyms_more", "anatomy_eponyms",
                                                         "surgical_instruments", "named_procedures")
              for e in gazetteers.entries(n)}
    assert set(words) <= listed


@pytest.mark.parametrize("pattern, group, least", [
    # an eponym before a clinical head: "Kocher clamp", "Hunter's plaque"
    (r"\b([A-Z][A-Za-z-]+(?:'s|-type)? (?:" + _HEADS + r"))\b", 1, 150),
    (r"(?:per|as in) ((?:the |modified )?[A-Z][A-Za-z-]+(?: et al\.| classification| criteria)?)", 1, 20),  # by author
    (r"\b(\d{1,2}(?:\.\d)?/\d{1,2}(?:\.\d)? (?:Fr|FR|fr|French))\b", 1, 40),  # French sizes
    (r"(?:Follow-up|Review in) (\d{1,2}/(?:12|52|7))\b", 1, 40),  # months, weeks or days to follow-up
    (r"\((\d/\d{1,2}|\d of \d{1,2} nodes|\d/\d{1,2} nodes)\)[;,]", 1, 40),  # positive of examined nodes
    (r"\b(?:" + _EDITIONS + r") (\d(?:th ed\.|th edition)|grade group \d)", 1, 10),  # a classification's edition
    (r"(?im)(?:^|requested |booked )(?:" + _IMAGING + r") ([a-z][a-z -]*?)(?= \(|: | for )", 1, 60),
])
def test_each_form_is_written_and_plain(notes, pattern, group, least):
    """Every form of :mod:`crfdeid.synth.looklines` is written, and never inside a PHI span."""
    found = _found(notes, pattern, group)
    assert len(found) >= least, pattern
    inside = [d.text[a:b] for d, a, b in found if not _plain(d, a, b)]
    assert not inside, inside[:5]


@pytest.mark.parametrize("name", sorted(LOOK))
def test_no_form_writes_a_year(name):
    """No look-alike holds a year or a month/year: years alone stay dates (PHI) in the made-up sets, and look16's
    first candidate, whose citations and lots wrote them plain, left 20 more dates there."""
    rng = random.Random(5)
    drawn = [LOOK[name](rng) for _ in range(500)]
    assert not [t for t in drawn if re.search(r"(?<![\w.])(?:19[5-9]\d|20[0-4]\d)(?![\w.])", t)]


def test_postnominals_follow_a_doctor_and_stay_plain(notes):
    """Post-nominals after a clinician's name: the name DOCTOR, every credential plain."""
    after = 0
    for doc in notes:
        for sp in doc.spans:
            if sp.subtype != "DOCTOR":
                continue
            m = re.match(r",? ((?:(?:" + _POSTNOMINALS + r") ?)+)", doc.text[sp.end:])
            if m:
                after += 1
                assert _plain(doc, sp.end + m.start(1), sp.end + m.end(1)), doc.doc_id
    assert after >= 40


def test_phi_beside_the_forms(notes):
    """The same notes hold doctors, dates, month/day dates and hospitals as PHI: the contrast the model learns."""
    subtypes = Counter(s.subtype for d in notes for s in d.spans)
    assert subtypes["DOCTOR"] >= 400 and subtypes["DATE"] >= 400 and subtypes["HOSPITAL"] >= 100
    month_day = [d.text[s.start:s.end] for d in notes for s in d.spans
                 if s.subtype == "DATE" and re.fullmatch(r"\d{1,2}/\d{1,2}", d.text[s.start:s.end])]
    assert len(month_day) >= 30


def test_the_look_lines_are_most_of_a_look_note():
    """Two in three lines drawn are a falsified form's (the dose the candidate was trained with)."""
    pool = _lines(False, True)
    assert sum(line in LOOK_LINES for line in pool) / len(pool) > 0.6
    assert _lines(False) == tuple(LINES)
