"""The ``clinical_wide`` style: the kinds of phrase the shipped model damages on the development sets (words of
other languages, values with units, numbers in rows, fractions of a score, codes, day counts, brands) written as
not PHI beside the note's PHI (synth21)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid import gazetteers
from crfdeid.synth import generate
from crfdeid.synth.clinlines import CLINICAL, LINES, PHI_SLOTS, _lines
from crfdeid.synth.looklines import LOOK
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.values import VALUES
from crfdeid.synth.widelines import WIDE, WIDE_LINES, WIDE_PHI, world_words
from crfdeid.synth.world import SLOTS


@pytest.fixture(scope="module")
def notes():
    return generate(200, seed=13, style="clinical_wide")


def _plain(doc, a: int, b: int) -> bool:
    return not any(s.start < b and a < s.end for s in doc.spans)


def test_deterministic_and_aligned(notes):
    check_deterministic_and_aligned("clinical_wide", notes, ascii_only=False)


def test_templates_name_known_slots_only():
    check_templates(WIDE_LINES, set(CLINICAL) | set(LOOK) | set(VALUES) | set(VOCAB) | set(EXTRA_SLOTS)
                    | set(SLOTS) | set(WIDE) | set(WIDE_PHI) | set(PHI_SLOTS))


def test_the_other_clinical_styles_keep_their_lines():
    """``clinical`` and ``clinical_look`` notes are unchanged by the new lines (the shipped configs train on them)."""
    assert _lines(False) == tuple(LINES)
    assert not set(WIDE_LINES) & set(_lines(False, True))
    plain = generate(20, seed=13, style="clinical")
    assert not any(re.search(r"\b(?:POD|day) [+-]?\d+:", d.text) for d in plain)


def test_world_words_are_no_name_place_or_date():
    """The words of other languages hold no word of a name or place list (they are written plain), no month."""
    words = world_words()
    assert all(len(w) >= 2000 for w in words.values())
    names = {e.lower() for n in ("first_male", "first_female", "surnames", "cities") for e in gazetteers.load(n)}
    flat = {w for ws in words.values() for w in ws}
    assert not flat & names
    assert not flat & {"enero", "juillet", "dezember", "maggio", "lundi", "styczeń"}
    assert all(len(w.upper()) == len(w) for w in flat)  # the notes' casings keep every offset


@pytest.mark.parametrize("name", sorted(WIDE))
def test_every_kind_is_drawn_without_a_date(name):
    """No look-alike holds a year or a day-month-year: years and dates stay PHI in the made-up sets."""
    rng = random.Random(5)
    drawn = [WIDE[name](rng) for _ in range(300)]
    assert len(set(drawn)) > 30
    assert not [t for t in drawn if re.search(r"(?<![\w.,])(?:19[5-9]\d|20[0-4]\d)(?![\w.,/])", t)
                and not re.search(r"\d[ ,]\d{3}|\d-\d|\d ?[A-Za-zµ°%]", t)]


@pytest.mark.parametrize("pattern, least", [
    (r"\b\d+(?:[.,]\d+)? ?(?:Hz|kHz|dB|nm|µg/L|cmH2O)\b", 40),  # values with units the lists leave out
    (r"\b\d{1,3}/\d{1,3}(?:, \d{1,3}/\d{1,3})+", 20),  # blood pressures in a row
    (r"\b(?:power|strength|fluency|recall|naming|grip):? \d{1,2}/\d{1,2}\b", 20),  # a score's fraction after its word
    (r"\b(?:POD|day) [+-]?\d{1,3}\b", 10),  # day counts
    (r"\b[A-TV-Z]\d\d\.\d{1,4}\b", 40),  # ICD-10 codes
])
def test_each_kind_is_written_and_plain(notes, pattern, least):
    """Every kind is written, and never inside a PHI span."""
    found = [(d, m.start(), m.end()) for d in notes for m in re.finditer(pattern, d.text, re.I)]
    assert len(found) >= least, pattern
    inside = [d.text[a:b] for d, a, b in found if not _plain(d, a, b)]
    assert not inside, inside[:5]


def test_words_of_other_languages_are_plain_beside_phi(notes):
    """Words of other languages are written (plain), and a doctor or a date follows a foreign label as PHI."""
    flat = {w for ws in world_words().values() for w in ws}
    plain = sum(1 for d in notes for m in re.finditer(r"[^\W\d_]+", d.text)
                if m.group().lower() in flat and _plain(d, m.start(), m.end()))
    inside = [d.text[s.start:s.end] for d in notes for s in d.spans
              if s.subtype == "DATE" and d.text[s.start:s.end].lower() in flat]
    assert plain >= 1000 and not inside
    after_label = sum(1 for d in notes for s in d.spans if s.subtype in ("DOCTOR", "DATE")
                      and re.search(r"[^\W\d_]{3,}: $", d.text[max(0, s.start - 30):s.start]))
    assert after_label >= 100


def test_phi_beside_the_kinds(notes):
    """The same notes hold doctors, dates, month/day dates and hospitals as PHI: the contrast the model learns."""
    subtypes = Counter(s.subtype for d in notes for s in d.spans)
    assert subtypes["DOCTOR"] >= 400 and subtypes["DATE"] >= 400 and subtypes["HOSPITAL"] >= 100
    month_day = [d.text[s.start:s.end] for d in notes for s in d.spans
                 if s.subtype == "DATE" and re.fullmatch(r"\d{1,2}/\d{1,2}", d.text[s.start:s.end])]
    assert len(month_day) >= 30


def test_the_wide_lines_are_most_of_a_wide_note():
    """Two in three lines drawn are a damaged kind's (the dose the candidate was trained with)."""
    pool = _lines(False, wide=True)
    assert sum(line in WIDE_LINES for line in pool) / len(pool) > 0.6
