"""The ``world`` style: other note kinds and countries, names and places the ICU styles lack, look-alikes."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from crfdeid import gazetteers
from crfdeid.io import read
from crfdeid.labels import encode
from crfdeid.synth import generate, parse_source
from crfdeid.synth import world_lists as wl
from crfdeid.synth.ward import AMBIGUOUS
from crfdeid.synth.world import World, phone, postcode, render
from crfdeid.synth.world_templates import HEADINGS, LINES, LOOKALIKES
from crfdeid.text.tokenize import tokenize


@pytest.fixture(scope="module")
def world():
    return generate(500, seed=13, style="world")


def _surfaces(docs, sub):
    return [d.surface(s) for d in docs for s in d.spans if s.subtype == sub]


def _inside_span(doc, start, end):
    return any(s.start < end and start < s.end for s in doc.spans)


def test_deterministic_aligned_and_readable(world):
    assert generate(30, seed=13, style="world") == world[:30]
    assert list(read("synth:30,13,world")) == world[:30]
    assert generate(30, seed=14, style="world") != world[:30]
    assert parse_source("5,2,world") == (5, 2, "world")
    for doc in world:
        doc.validate(allow_overlap=False)
        assert encode(tokenize(doc.text), doc.spans).problems == []
        assert all(doc.text[s.start:s.end] == doc.text[s.start:s.end].strip() for s in doc.spans)
        assert doc.text.isascii()


@pytest.mark.parametrize("kind", sorted(HEADINGS))
def test_every_note_kind_is_written(world, kind):
    heads = {h.lower() for h in HEADINGS[kind]}
    firsts = [d.text.strip().splitlines()[0].lower() for d in world]
    assert sum(any(f.startswith(h) for h in heads) for f in firsts) >= 10


def test_lower_case_telegraphic_notes(world):
    heads = tuple(h.lower() for h in HEADINGS["ward"])
    ward = [d for d in world if d.text.strip().splitlines()[0].startswith(heads)]
    assert len(ward) >= 50
    assert all(d.text == d.text.lower() for d in ward)
    assert sum(len(d.spans) for d in ward) >= len(ward)  # PHI in lower case too


def test_hyphenated_given_names_are_one_span(world):
    hyphenated = {n.lower() for n in wl.split(wl.HYPHENATED_GIVEN)}
    names = [w.lower() for s in _surfaces(world, "PATIENT") + _surfaces(world, "DOCTOR") for w in s.split()]
    assert sum(w.strip(",") in hyphenated for w in names) >= 30
    for doc in world:  # no name or town span stops or starts at a hyphen inside a word
        for s in (s for s in doc.spans if s.subtype in ("PATIENT", "DOCTOR", "CITY")):
            assert not re.match(r"-[A-Za-z]", doc.text[s.end:s.end + 2])
            assert not re.fullmatch(r"[A-Za-z]-", doc.text[max(0, s.start - 2):s.start])


def test_nicknames_in_quotes_are_phi_and_the_quotes_are_not(world):
    quoted = [(d, s) for d in world for s in d.spans if d.text[s.start - 1:s.start] == '"']
    assert len(quoted) >= 30
    assert all(s.subtype == "PATIENT" and d.text[s.end:s.end + 1] == '"' for d, s in quoted)


@pytest.mark.parametrize("pattern", [r"works (?:for|at) ", r"attends ", r"[Ss]tudies at ", r"[Ee]mployed by "])
def test_employers_and_schools_are_organizations(world, pattern):
    found = 0
    for doc in world:
        for m in re.finditer(pattern, doc.text):
            nxt = [s for s in doc.spans if s.start == m.end()]
            if nxt:
                found += 1
                assert nxt[0].subtype == "ORGANIZATION"
    assert found >= 5


def test_lower_case_hospitals_and_whole_streets(world):
    hospitals = _surfaces(world, "HOSPITAL")
    assert sum(h == h.lower() and h.startswith("st ") for h in hospitals) >= 20
    assert {"mercy general", "st luke's"} & set(hospitals)
    streets = _surfaces(world, "STREET")
    assert len(streets) >= 100
    # the street's name comes with its number: the span never ends on the number
    assert all(re.search(r"(?i)\d+[ab]? [^\d\s]", s) and not s.split()[-1].isdigit() for s in streets)


def test_hyphenated_towns_are_one_span(world):
    towns = _surfaces(world, "CITY")
    assert sum(bool(re.search(r"(?i)-(on|upon|super|de|by|in)-", t)) for t in towns) >= 5
    assert any(t.lower() in ("wilkes-barre", "winston-salem", "stoke-on-trent") for t in towns) or len(towns) < 50


def test_day_first_dates_outside_the_us(world):
    dates = _surfaces(world, "DATE")
    day_first = [x for x in dates if re.fullmatch(r"(\d\d)[/.](\d\d)[/.]\d{4}", x) and int(x[:2]) > 12]
    assert len(day_first) >= 20
    assert any(re.fullmatch(r"\d{1,2}(st|nd|rd|th) [A-Za-z]+ \d{4}", x) for x in dates)


def test_nhs_numbers_have_valid_check_digits(world):
    nhs = pytest.importorskip("stdnum.gb.nhs")  # the reference check (python-stdnum), not a dependency
    numbers = []
    for doc in world:
        for m in re.finditer(r"(?i)nhs (?:no: |number )(?=\d)", doc.text):
            nxt = [s for s in doc.spans if s.start == m.end()]
            assert nxt and nxt[0].subtype == "MEDICALRECORD"
            numbers.append(doc.surface(nxt[0]))
    assert len(numbers) >= 20
    assert all(nhs.is_valid(n) for n in numbers)


@pytest.mark.parametrize("country,shape", [
    ("UK", r"[A-Z]{1,2}\d{1,2} \d[A-Z]{2}"), ("IE", r"[A-Z]\d\d [A-Z]\d{3}"),
    ("CA", r"[A-Z]\d[A-Z] \d[A-Z]\d"), ("AU", r"\d{4}"), ("IN", r"\d{6}|\d{3} \d{3}"), ("US", r"\d{5}")])
def test_postcodes_take_each_countrys_shape(country, shape):
    rng = random.Random(7)
    assert all(re.fullmatch(shape, postcode(rng, country)) for _ in range(50))


@pytest.mark.parametrize("country,reserved", [
    ("UK", r"(\+44 |0)(7700 900|1632 960|161\) 496|113 496)"), ("AU", r"(0491 570|\+61 491 570|0\d\) (5550|7010))"),
    ("IE", r".*555"), ("IN", r".*(98|255)")])
def test_phones_use_numbers_set_aside(country, reserved):
    rng = random.Random(3)
    for mobile in (False, True):
        assert all(re.match(reserved, phone(rng, country, mobile).lstrip("(")) for _ in range(30))


# Look-alikes of the issue (what the shipped model took for PHI): each is written and never labelled
# (a street may hold one: ``Pearl Lane``, ``High Street`` are PHI as a whole).
@pytest.mark.parametrize("word", ["mini-cog", "gad-7", "audit-c", "glasgow coma scale", "omnipaque", "dtap #",
                                  "will recheck", "rose-colored", "st elevation", "high flow", "pearl", "bss",
                                  "reflexes", "/5 rue", "phq-9", "babinski", "news2", "yo"])
def test_look_alikes_are_written_and_never_phi(world, word):
    # names that are also words (Pearl), PHI where they stand as a name, on purpose
    ambiguous = {w.lower() for w in AMBIGUOUS} | gazetteers.load("first_female") | gazetteers.load("first_male")
    seen = 0
    for doc in world:
        low = doc.text.lower()
        for m in re.finditer(r"(?<![a-z])" + re.escape(word) + r"(?![a-z])", low):
            seen += 1
            spans = [s for s in doc.spans if s.start < m.end() and m.start() < s.end]
            assert all(s.subtype == "STREET" and len(doc.surface(s).split()) >= 3
                       or doc.surface(s).lower() in ambiguous for s in spans), word
    assert seen >= 3, word


def test_times_fractions_and_ages_under_90_are_never_phi(world):
    for doc in world:
        for m in re.finditer(r"\b\d{1,2}:\d\d\b|\b\d/\d\b|\b\d{2}-year-old\b", doc.text):
            if not _inside_span(doc, m.start(), m.end()) or m.group() >= "90-year-old":
                continue
            # a date may hold a d/m shape (1/2 as the first of February): only a DATE span may
            span = next(s for s in doc.spans if s.start < m.end() and m.start() < s.end)
            assert span.subtype == "DATE" and "/" in m.group(), doc.surface(span)


def test_templates_name_only_known_slots():
    from crfdeid.synth.world import SLOTS
    used = {m for t in LOOKALIKES + [x for v in LINES.values() for x in v] for m in re.findall(r"<([a-z_]+)>", t)}
    assert used <= set(SLOTS)


def test_a_look_alike_with_a_phi_slot_is_refused():
    from crfdeid.synth.world import render_plain
    assert re.fullmatch(r"\d\d yo", render_plain(random.Random(2), "<age> yo"))
    with pytest.raises(ValueError, match="<town>"):
        render_plain(random.Random(2), "lives in <town>")


def test_render_puts_phi_where_its_slot_stands():
    day = dt.date(2080, 3, 14)
    w = World("UK", "Ji-ho", "Quennell", "Bud", "M", 95, day, "Stoke-on-Trent", "Staffordshire", "ST4 6QG",
              "14 Wexford Road", "01632 960111", "943 476 5919", [("son", "Mary-Kate")], [("Aoife", "Brannagh")])
    lines = render(random.Random(1), w, day, "lives at <street>, <town> <postcode>\nson <rel>; a <pt_age>-year-old")
    assert lines == [["lives at ", ("STREET", "14 Wexford Road"), ", ", ("CITY", "Stoke-on-Trent"), " ",
                      ("ZIP", "ST4 6QG")], ["son ", ("PATIENT", "Mary-Kate"), "; a ", ("AGE", "95"), "-year-old"]]


def test_transfers_name_a_hospital_by_initials_that_are_no_clinical_abbreviation(world):
    taken = gazetteers.load("clinical_abbrevs") | gazetteers.load("common_words")
    found = []
    for doc in world:
        for m in re.finditer(r"(?i)\b(?:tx|transferr?ed|medflight|flown) (?:to|from) ", doc.text):
            nxt = [s for s in doc.spans if s.start == m.end()]
            if nxt and re.fullmatch(r"[A-Za-z]{2,5}", doc.surface(nxt[0])):
                found.append(doc.surface(nxt[0]).lower())
                assert nxt[0].subtype == "HOSPITAL"
    assert len(found) >= 20
    assert not [w for w in found if w in taken and len(w) > 1]
