"""Damaged kinds as look-alikes: the ``clinical_wide`` style's lines (synth21, issue 58 items 1-2).

On the twenty-seven development sets the shipped model's specialty member changes about a thousand clinical
phrases as written (docs/synth.md, "synth21"), three in four of them by spans it is unsure of (P(PHI) under
one half, taken by the recall-first threshold). Most are of a few kinds that no line of the shipped recipe
writes (invented examples):

* **words of other languages**: a label, a heading or a clinical word of a note written in Spanish,
  French, German... (``Resultado:``, ``Exploración``, ``INFORME CLINICO``), read as a name, a hospital or a town;
* **values with units and numbers in rows**: a distance, a frequency or a concentration with a comma
  decimal or a thousands separator (``2,150 m``, ``41,2 cm``, ``250 Hz``), a laboratory abbreviation
  and its number (``Hb 121``), numbers in a row (``60, 72, 81``), read as a street, a phone or a date;
* **fractions of a score or a test** after its word (``naming 11/15``, ``power 3/5``), read as a date;
* **codes and day counts** (an ICD-10 code, ``D12``, ``POD 2``, ``day +14``) and **brands and devices**.

This module writes them as **not PHI** beside the note's PHI in the same lines (a doctor after a foreign label,
the note's date, a month/day date, the hospital, a European clinician's name), so that the neighbours decide.
The words of other languages come from ``crfdeid/_data/world_words.txt`` (wordfreq's frequent words of eight
languages less every name, place, English and date word: ``python gazetteers/world_words.py``); every other
clinical word from a sourced list of ``gazetteers/``; the layouts below are written for crfdeid (MIT).
"""

from __future__ import annotations

import random
from functools import cache
from importlib import resources

from .. import _data
from . import persona as ps
from .phrases import fill_nested
from .social import EUROPE, HOSPITALS, ORGS, _street, europe
from .specialty_vocab import VOCAB

#: Units the lists leave out (non-ASCII or of hearing, optics and distance): layout.
EXTRA_UNITS = ("Hz", "kHz", "dB", "dB HL", "dBnHL", "nm", "m", "km", "cm", "mm", "µg/L", "µmol/L", "µm", "ms",
               "mV", "µV", "mmHg", "cmH2O", "L/min", "mL/h", "bpm", "kg", "g", "°C", "%")
#: Words a fraction of a score or a test follows (layout; ``clinical_scales`` and ``score_names`` add theirs).
FRACTION_WORDS = ("power", "strength", "fluency", "recall", "naming", "orientation", "attention", "reflexes",
                  "tone", "grip", "pain", "score", "items", "criteria", "domains", "positive", "palpable", "cores")


@cache
def world_words() -> dict[str, tuple[str, ...]]:
    """Language code -> its words in ``crfdeid/_data/world_words.txt``.

    >>> words = world_words()
    >>> sorted(words) == ["de", "es", "fr", "it", "nl", "pl", "pt", "sv"], "sistema" in words["es"]
    (True, True)
    """
    text = resources.files(_data).joinpath("world_words.txt").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            lang, word = line.split("\t")
            out.setdefault(lang, []).append(word)
    return {lang: tuple(words) for lang, words in out.items()}


def _case(rng: random.Random, text: str) -> str:
    roll = rng.random()
    return text.capitalize() if roll < 0.5 else text.upper() if roll < 0.65 else text.title() if roll < 0.75 else text


def _foreign(rng: random.Random, low: int = 1, high: int = 3) -> str:
    """One to three words of one language, cased as a label, a heading or running text."""
    words = world_words()[rng.choice(sorted(world_words()))]
    return _case(rng, " ".join(rng.choice(words) for _ in range(rng.randint(low, high))))


def _number(rng: random.Random) -> str:
    """A measurement's number: integers to four digits, decimals with a point or a comma, thousands, ranges; never
    a year's four digits alone (years stay dates: look16's plain years left 16 more on the development sets)."""
    n = rng.randint(1, 9999)
    n += 200 if 1900 <= n < 2100 else 0
    return rng.choice([str(rng.randint(1, 300)), str(n), f"{n // 1000 or 1},{n % 1000:03d}",
                       f"{n // 1000 or 1} {n % 1000:03d}",
                       f"{rng.randint(0, 99)}.{rng.randint(0, 9)}", f"{rng.randint(0, 99)},{rng.randint(0, 9)}",
                       f"{rng.randint(1, 20)}-{rng.randint(21, 80)}", f"{rng.randint(1, 9)}-{rng.randint(10, 6000)}"])


def _unit_value(rng: random.Random) -> str:
    unit = rng.choice(EXTRA_UNITS) if rng.random() < 0.5 else rng.choice(ps.term_pool("units"))
    return f"{_number(rng)}{rng.choice([' ', ' ', ''])}{unit}"


def _lab(rng: random.Random) -> str:
    return f"{rng.choice(ps.term_pool('measure_abbrevs'))}{rng.choice([' ', ' ', ': ', ' = '])}{_number(rng)}"


def _row(rng: random.Random) -> str:
    """Numbers in a row: a table's cells, readings over a day, blood pressures."""
    if rng.random() < 0.3:
        return ", ".join(f"{rng.randint(85, 190)}/{rng.randint(40, 110)}" for _ in range(rng.randint(2, 4)))
    sep = rng.choice([", ", " ", " | ", "; ", " - "])
    return sep.join(_number(rng) if rng.random() < 0.3 else str(rng.randint(1, 400)) for _ in range(rng.randint(2, 6)))


def _fraction(rng: random.Random) -> str:
    word = rng.choice(FRACTION_WORDS) if rng.random() < 0.6 else \
        rng.choice(ps.term_pool("clinical_scales") + ps.term_pool("score_names"))
    top = rng.choice([3, 4, 5, 5, 6, 8, 10, 10, 12, 14, 15, 20, 24, 28, 30])
    return rng.choice([f"{word} {rng.randint(0, top)}/{top}", f"{word}: {rng.randint(0, top)}/{top}",
                       f"{rng.randint(0, top)}/{top} {word}"])


def _day(rng: random.Random) -> str:
    return fill_nested(rng, "{D{0-30}|D+{1-30}|POD {0-14}|POD#{1-9}|day +{1-400}|day -{1-14}|J{0-30}|Tag {1-20}|"
                            "C{1-12}D{1-28}|week {1-40}|W{1-40}}")


#: ``<slot>`` -> plain text (never PHI) of the kinds above.
WIDE = {"fw": _foreign, "fwh": lambda rng: _foreign(rng, 1, 4).upper(), "uv": _unit_value, "lab": _lab,
        "row": _row, "frac": _fraction, "day": _day,
        "BRAND": lambda rng: VOCAB["brand"](rng).upper(), "ABBR": lambda rng: VOCAB["abbr"](rng).upper()}


def _european_doctor(rng: random.Random, w, d) -> list:
    country = rng.choice(EUROPE)
    return [("DOCTOR", f"{rng.choice(europe(country, 'first'))} {rng.choice(europe(country, 'last'))}")]


def _european_hospital(rng: random.Random, w, d) -> list:
    country = rng.choice(EUROPE)
    name = rng.choice(HOSPITALS[country]).format(t=rng.choice(europe(country, "town")),
                                                 s=rng.choice(europe(country, "last")))
    return [("HOSPITAL", name.upper() if rng.random() < 0.2 else name)]


def _european_address(rng: random.Random, w, d) -> list:
    """A street, its postcode and town in a European country's order (the postcode's digits beside the street's)."""
    country = rng.choice(EUROPE)
    code = "".join(str(rng.randint(0, 9)) for _ in range(5))
    return [("STREET", _street(rng, country)), ", ", ("ZIP", code), " ", ("CITY", rng.choice(europe(country, "town")))]


def _european_org(rng: random.Random, w, d) -> list:
    country = rng.choice(EUROPE)
    forms = [f.split(":", 1)[1] for kind in ORGS.values() for f in kind if f.startswith(f"{country}:")]
    head = rng.choice([rng.choice(europe(country, "last")), rng.choice(europe(country, "town"))])
    name = rng.choice(forms).format(h=head, s=rng.choice(europe(country, "last")),
                                    t=rng.choice(europe(country, "town")), n=rng.randint(1, 40))
    return [("ORGANIZATION", name)]


#: PHI slots of this style: a clinician, a hospital, an address and an organisation of a European country (the notes
#: of other languages name them: their words are PHI there, beside the same languages' words written plain).
WIDE_PHI = {"edr": _european_doctor, "ehosp": _european_hospital, "eaddr": _european_address,
            "eorg": _european_org, "etown": lambda r, w, d: [("CITY", r.choice(europe(r.choice(EUROPE), "town")))]}

#: Lines of the ``clinical_wide`` notes (beside :data:`crfdeid.synth.clinlines.LINES`): the kinds above, plain,
#: in the same lines as a doctor, a date, a month/day date or the hospital (PHI).
WIDE_LINES = [
    "<fw>: <date>.", "<fw>: <date>{| <fw>}.", "<fw> <fw>: <dr_full>", "<fw>: <edr>", "<fw>: Dr <dr_last>, <hosp>",
    "<fwh>", "<fwh>", "<fwh> - <hosp>", "<fwh>: <date>", "<fw>: <uv>, <uv>.", "<fw> <lab>, <lab>; <fw> <uv>.",
    "<fw> <fw> <fw>, <fw>. <edr>, <md>.", "<sect>: <fw> <fw>; <fw>.", "<fw>: <dx>. <fw> <edr>.",
    "<lab> <row>; <date>.", "<lab>, <lab>, <lab>.", "<uv> on <md>; <uv> today.", "<sect>: <uv>, <uv>, <uv>.",
    "<cw> <uv>{|, <uv>} ({<fw>|<sect>}).", "{Readings|Values|Trend|Obs}: <row>.", "<sect>: <row> (<md>).",
    "<frac>, <frac>; seen <md>.", "<sect>: <frac>, <frac>. Dr <dr_last>.", "<cw>: <frac>; <uv>.",
    "<icd> <dx>; reviewed <date> by Dr <dr_last>.", "{Code|Dx|ICD-10|Diagnosis code}: <icd>{| (<dx>)}.",
    "<day>: <cw>, <uv>.", "<day> {post-op|of cycle|after transplant}: <lab>; <md>.",
    "<brand> {placed|inserted|used|in situ|started} <md> by <dr_last>.", "<BRAND> <row>; <fw> <uv>.",
    "<abbr> <uv>; <abbr> <lab>.", "<ABBR>: <frac>, <uv>. <edr>",
    "<fw>: <ehosp>", "<fwh> - <ehosp>", "<ehosp>, <fw>: <edr>", "<fw> <fw>: <eaddr>", "<fw>: <eaddr>. <fw>: <md>",
    "<fw>: <eorg>", "<fw> <fw> <eorg>; <fw> <uv>.", "<fw> <etown>, <date>: <lab>.",
]

