"""The ``clinical_date`` style: dates after tests and cultures, years of orientation, named wards and pagers (PHI)
beside fractions, ranges, clock times, balances and unnamed wards (not PHI) (date17;
wards from street words only, date18)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid import gazetteers
from crfdeid.synth import generate
from crfdeid.synth.clinlines import CLINICAL, LINES
from crfdeid.synth.datelines import (
    CULTURES,
    DATE_LINES,
    NOT_WARD_LISTS,
    PHI,
    PLAIN,
    SURNAMES_NOT_WARDS,
    TESTS,
    _lines,
    not_ward_words,
    ward_names,
)
from crfdeid.synth.looklines import LOOK, LOOK_LINES, eponym_words
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.values import VALUES
from crfdeid.synth.world import SLOTS


@pytest.fixture(scope="module")
def notes():
    return generate(200, seed=13, style="clinical_date")


_TESTS = "|".join(map(re.escape, sorted(TESTS + CULTURES, key=len, reverse=True)))


def _spans_over(doc, a: int, b: int) -> list[str]:
    return [s.subtype for s in doc.spans if s.start < b and a < s.end]


def _found(notes, pattern: str, group: int = 0, flags: int = re.I):
    return [(d, m.start(group), m.end(group)) for d in notes for m in re.finditer(pattern, d.text, flags)]


def test_deterministic_and_aligned(notes):
    check_deterministic_and_aligned("clinical_date", notes)


def test_templates_name_known_slots_only():
    known = set(PLAIN) | set(PHI) | set(CLINICAL) | set(LOOK) | set(VALUES) | set(VOCAB) | set(EXTRA_SLOTS)
    check_templates(DATE_LINES, known | set(SLOTS))


def test_the_other_styles_notes_are_unchanged():
    """``clinical`` and ``clinical_look`` notes keep their own lines (look16's config trains on the same notes)."""
    date = generate(30, seed=13, style="clinical_date")
    for style in ("clinical", "clinical_look"):
        other = generate(30, seed=13, style=style)
        assert other != date
        assert not any(re.search(r"(?i)\b(?:grew|NGTD) ", d.text) for d in other)


@pytest.mark.parametrize("pattern, subtype, least", [
    (r"\b(?:" + _TESTS + r")(?: from| on| \(|,)? (\d{1,2}[/-]\d{1,2})\b(?!/| ?Fr)", "DATE", 150),  # after a test
    (r"\bfrom (\d{1,2}-\d{1,2}) (?:grew|neg|pending|NGTD|no growth|\+ for|positive)", "DATE", 30),  # month-day
    (r"(?:it is|it's|the year is|year \() ?(\d{4})\b", "DATE", 20),  # a year of orientation
    (r"(?i)\bin '(\d\d)\b", "DATE", 10),  # a past year after an apostrophe
    # a named ward in lower case
    (r"\b(?:on|to|from) ((?!the |medical |surgical )[a-z]+ (?:ward|unit|wing|suite))\b", "HOSPITAL", 30),
    (r"\b(?:Pager|Bleep|Beeper) (#?x?\d{4,5})\b", "PHONE", 10),  # a pager after its label
])
def test_phi_forms_are_labelled(notes, pattern, subtype, least):
    """Each PHI form is written often, and every occurrence is inside a span of its type."""
    found = _found(notes, pattern, 1)
    assert len(found) >= least, pattern
    wrong = [(d.text[a:b], _spans_over(d, a, b)) for d, a, b in found if _spans_over(d, a, b) != [subtype]]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("pattern, least", [
    (r"(?:Follow-up|Review in) (\d{1,2}/(?:12|52|7))\b", 40),  # months, weeks or days to follow-up
    (r"\b(\d{1,2}(?:\.\d)?/\d{1,2}(?:\.\d)? (?:Fr|French))\b", 15),  # French sizes
    (r"(?:Pain|O2|NC) (\d-\d(?:/10| L))", 5),  # ranges: no month-day
    (r"(?m)^(\d{4})(?::| (?:pt|bp|hr|sbp|sats) )", 20),  # a clock time first on its line
    # clock times: no phone
    (r"(?:sent|drawn|due|repeat|d/c'd|stopped|started|held|next|today) (?:at|@) (\d{4})\b", 60),
    (r"(?:Net|FB|Fluid balance|I/O|is) ([+-]?\d{3,4}) (?:cc|ml|positive|negative|even)", 30),  # balances
    (r"\b(?:CK|BNP|LDH|Plt|Ferritin|Fibrinogen|Trop|Lipase|Amylase|AFP|D-dimer|CPK|proBNP) (\d{4})\b", 60),  # values
    (r"\b(?:to|on) ((?:the )?(?:ward \d+|medical ward|surgical ward|icu|hdu|amu|mau|ccu|unit|floor|rehab))\b", 30),
])
def test_look_alikes_are_plain(notes, pattern, least):
    """Fractions, ranges, four-digit times, balances and values and unnamed wards: written often, never PHI."""
    found = _found(notes, pattern, 1)
    assert len(found) >= least, pattern
    inside = [d.text[a:b] for d, a, b in found if _spans_over(d, a, b)]
    assert not inside, inside[:5]


def test_ward_names_come_from_street_words():
    """Named wards: the first words of ``street_names.txt`` (no ordinal) only (date18; date17 drew surnames too)."""
    names = set(ward_names())
    streets = {e.split()[0] for e in gazetteers.entries("street_names")}
    assert names <= streets and len(names) > 80
    assert {"Birch", "Willow"} <= names and "Eighth" not in names


def test_ward_names_are_no_eponym_score_clinical_word_drug_or_frequent_surname():
    """No ward's name is a word of the eponym, score, clinical-word and drug lists or a surname date17 drew."""
    listed = {t.lower() for n in NOT_WARD_LISTS for e in gazetteers.entries(n) for t in re.findall(r"[A-Za-z]+", e)}
    surnames = {s.lower() for s in gazetteers.entries("surnames")[:SURNAMES_NOT_WARDS]}
    eponyms = {w.lower() for w in eponym_words()}
    names = {n.lower() for n in ward_names()}
    assert not names & (listed | surnames | eponyms), sorted(names & (listed | surnames | eponyms))
    assert {"jackson", "washington", "adams", "hill"} <= not_ward_words()  # street words that are eponyms or names


def test_written_wards_are_street_words(notes):
    """Every HOSPITAL span this style writes as ``<name> <head>`` names a ward of :func:`ward_names`."""
    names = {n.lower() for n in ward_names()}
    heads = {"ward", "unit", "wing", "suite"}
    wards = [d.text[s.start:s.end].lower().split() for d in notes for s in d.spans if s.subtype == "HOSPITAL"]
    wards = [w for w in wards if len(w) == 2 and w[1] in heads]
    assert len(wards) >= 50
    assert all(w[0] in names for w in wards), [w[0] for w in wards if w[0] not in names][:5]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_no_plain_slot_writes_a_month_day(name):
    """No plain slot draws a month/day or month-day alone: those are PHI in this style (the contrast stays clean)."""
    rng = random.Random(5)
    drawn = [PLAIN[name](rng) for _ in range(500)]
    assert not [t for t in drawn if re.fullmatch(r"\d{1,2}[/-]\d{1,2}", t)]


@pytest.mark.parametrize("name", sorted(set(PLAIN) - {"hhmm", "lab", "bal", "num4"}))
def test_no_plain_slot_but_the_four_digit_numbers_writes_a_year(name):
    """A year alone is PHI here; only clock times, values and balances write four digits (``at 2015`` a time)."""
    rng = random.Random(5)
    drawn = [PLAIN[name](rng) for _ in range(500)]
    assert not [t for t in drawn if re.search(r"(?<![\w.+-])(?:19[5-9]\d|20[0-9]\d)(?![\w.])", t)]


def test_half_the_lines_are_this_modules():
    """Half the lines drawn are :data:`DATE_LINES` (the dose trained), beside the clinical and look-alike lines."""
    pool = _lines()
    assert sum(line in DATE_LINES for line in pool) / len(pool) >= 0.5
    assert set(LINES) | set(LOOK_LINES) <= set(pool)


def test_a_year_and_month_days_stay_dates_across_casings(notes):
    """Notes in lower and upper case hold the same PHI forms (the recasing keeps offsets)."""
    cased = Counter("lower" if d.text == d.text.lower() else "upper" if d.text == d.text.upper() else "mixed"
                    for d in notes)
    assert cased["lower"] >= 10 and cased["upper"] >= 5
