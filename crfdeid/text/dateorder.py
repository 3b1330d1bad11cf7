"""The order numeric dates are read in (``17/10/2023`` day first, ``10/17/2023`` month first).

The order is an explicit setting, as ``dateutil.parser.parse(dayfirst=...)`` takes it:
``mdy`` (US), ``dmy`` (UK, AU, IE, IN, most of the world), ``ymd`` (ISO; a day and month
without a year are then read month first) or ``auto``, decided from the dates of a batch
that can be read one way only (:func:`decide`). It only says how an *ambiguous* date
(``12/03/2024``: both numbers 12 or less) is read; a date that can be read one way only is
always read that way, and no rule removes a date for its order
(:mod:`crfdeid.recognizers.datecheck`).

>>> evidence(["seen 17/10/2023 and 03/11/2023", "on 4.7.61"])
Counter({'dmy': 1})
>>> decide("auto", evidence(["17/10/2023", "25-11-2021", "10/17/2023"]))
Decision(setting='auto', order='dmy', dmy=2, mdy=1)
>>> decide("auto", evidence(["12/03/2024"])).order is None
True
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from importlib import resources
from typing import NamedTuple

from ..errors import ConfigError

#: A month's name or abbreviation and a weekday's (case-insensitive regex pieces, no group): the
#: words of dates the surrogates parse (:mod:`crfdeid.deid.dates`) and the Safe Harbor layer finds.
MONTH_WORD = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
              r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
WEEKDAY_WORD = (r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?"
                r"|fri(?:day)?|sat(?:urday)?|sun(?:day)?)")
#: The settings, the first the default.
ORDERS = ("auto", "mdy", "dmy", "ymd")
#: What an undecided ``auto`` reads an ambiguous date as (crfdeid's reading before the setting existed).
FALLBACK = "mdy"
# Day and month (either order) with a year, or alone with "/": the numbers that tell the order.
_WORD = re.compile(r"[A-Za-z]+")
_NUMERIC = re.compile(r"(?<![\w/.-])(\d{1,2})([/.-])(\d{1,2})(?:\2(?:\d{4}|\d{2}))?(?![\w/-]|\.\d)")


def check_order(value, where: str = "date_order") -> str:
    """``value`` if it is a known order, else a :class:`~crfdeid.errors.ConfigError` listing them.

    >>> check_order("dmy")
    'dmy'
    """
    if value not in ORDERS:
        raise ConfigError(f"unknown {where} {value!r}; known: {', '.join(ORDERS)}")
    return value


def reading(first: int, second: int) -> str | None:
    """``dmy`` or ``mdy`` when only one reading of ``first``/``second`` is a day and a month,
    else None (both are, or neither).

    >>> reading(17, 10), reading(10, 17), reading(12, 3), reading(40, 50)
    ('dmy', 'mdy', None, None)
    """
    dm = 1 <= second <= 12 and 1 <= first <= 31
    md = 1 <= first <= 12 and 1 <= second <= 31
    return "dmy" if dm and not md else "mdy" if md and not dm else None


def evidence(texts: Iterable[str], yearless: bool = True) -> Counter:
    """Numeric dates of ``texts`` that can be read one way only, by the order they show
    (``dmy``, ``mdy``); a date with a year, or day and month joined by ``/``, counts (``7.4``
    and ``3-4`` do not; with ``yearless`` false, only a date with a year). Counts only: no date is kept."""
    out: Counter = Counter()
    for text in texts:
        for m in _NUMERIC.finditer(text):
            dated = m.group(0).count(m.group(2)) >= 2
            if (m.group(2) != "/" and not dated) or (not yearless and not dated):
                continue
            which = reading(int(m.group(1)), int(m.group(3)))
            if which:
                out[which] += 1
    return out


class Decision(NamedTuple):
    """What a setting gives: ``order`` (None: ``auto`` without a majority, ambiguous dates are
    read :data:`FALLBACK`) and the counts it rests on."""

    setting: str
    order: str | None
    dmy: int
    mdy: int

    @property
    def reads(self) -> str | None:
        """The order ambiguous dates are read in (None: undecided, :data:`FALLBACK` but dotted
        dates day first, :func:`crfdeid.deid.dates.parse`)."""
        return self.order

    def message(self) -> str:
        """One line for a run summary (counts only, never a date)."""
        counts = f"{self.dmy} day-first and {self.mdy} month-first date(s) readable one way only"
        if self.setting != "auto":
            other = "dmy" if self.dmy > self.mdy else "mdy" if self.mdy > self.dmy else None
            warn = (f"; most of them read {other}: check the setting"
                    if other is not None and other != self.setting and self.setting != "ymd" else "")
            return f"date order: {self.setting} (as set; {counts}{warn})"
        if self.order is None:
            why = "no evidence" if self.dmy == self.mdy == 0 else "a tie"
            return (f"date order: auto, undecided ({why}: {counts}); ambiguous dates read {FALLBACK} "
                    "(dotted ones day first), none removed; set --date-order to be sure")
        return f"date order: auto, decided {self.order} ({counts})"


def decide(setting: str, counts: Counter) -> Decision:
    """The order of ``setting`` (``auto``: the strict majority of ``counts``; a tie or none
    leaves it undecided)."""
    check_order(setting)
    dmy, mdy = counts.get("dmy", 0), counts.get("mdy", 0)
    if setting != "auto":
        return Decision(setting, setting, dmy, mdy)
    return Decision(setting, "dmy" if dmy > mdy else "mdy" if mdy > dmy else None, dmy, mdy)


#: Where a note's order comes from, the first that decides: its own dates read one way only, its
#: patient's (the other notes of the patient in the batch), the country its forms tell
#: (:func:`crfdeid.recognizers.phones.country_votes`), its spelling (:func:`spelling_order`), the
#: setting (``--date-order``, the site file, the model's config), the batch's; else
#: :data:`FALLBACK` (``undecided``).
SOURCES = ("note", "patient", "country", "spelling", "setting", "batch", "undecided")
#: How many more words of one spelling than of the other decide (:func:`spelling_order`).
SPELLING_LEAD = 2
#: Countries whose numeric dates are written month first, or year first (ISO 8601 or national
#: habit); every other country writes day first. Canada writes both: its notes tell nothing.
#: Source: the countries' national conventions (Unicode CLDR short date patterns).
MONTH_FIRST = frozenset({"US", "PH", "FM", "MH", "PW", "AS", "GU", "PR", "VI", "MP", "UM"})
YEAR_FIRST = frozenset({"CN", "JP", "KR", "KP", "TW", "MN", "HU", "LT", "SE", "IR", "BT"})
_MIXED = frozenset({"CA"})


def country_order(country: str | None) -> str | None:
    """The order the notes of ``country`` (ISO 3166) write their dates in, or None.

    >>> country_order("GB"), country_order("US"), country_order("SE"), country_order("CA"), country_order(None)
    ('dmy', 'mdy', 'ymd', None, None)
    """
    if country is None or country in _MIXED:
        return None
    return "mdy" if country in MONTH_FIRST else "ymd" if country in YEAR_FIRST else "dmy"


@functools.cache
def _spellings() -> dict[str, str]:
    """Word -> ``US`` or ``GB`` (``crfdeid/_data/spellings.txt``: breame's spelling pairs, Apache-2.0;
    ``gazetteers/spellings.py`` rebuilds it)."""
    text = resources.files("crfdeid._data").joinpath("spellings.txt").read_text(encoding="utf-8")
    pairs = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {word: variety for variety, word in pairs}


@functools.lru_cache(maxsize=8)  # the surrogate writer asks twice a note (learn, then read_order)
def spelling_order(text: str) -> str | None:
    """``mdy`` when the words of ``text`` spelt the US way outnumber those spelt the British way by
    :data:`SPELLING_LEAD` or more (distinct words: ``color``, ``hemorrhage``, ``esophagus``), ``dmy``
    the other way round (``colour``, ``haemorrhage``: Britain and the Commonwealth write day first),
    else None. ``-ize`` is no evidence (Oxford spelling). Counts only.

    >>> spelling_order("Color Doppler: no hemorrhage."), spelling_order("Colour flow, no haemorrhage.")
    ('mdy', 'dmy')
    >>> spelling_order("Colour flow, no hemorrhage.") is None
    True
    """
    table = _spellings()
    if text.isascii():  # lower-casing ASCII text keeps its words (İ or K of other scripts would not)
        words = set(_WORD.findall(text.lower()))
    else:
        words = {w.lower() for w in set(_WORD.findall(text))}
    seen = Counter(table[w] for w in words & table.keys())
    us, gb = seen["US"], seen["GB"]
    return "mdy" if us - gb >= SPELLING_LEAD else "dmy" if gb - us >= SPELLING_LEAD else None


def note_order(setting: str, note: Counter, patient: Counter, batch: Counter,
               country: str | None = None, spelling: str | None = None) -> tuple[str | None, str]:
    """``(order, source)`` of one note (:data:`SOURCES`): the strict majority of the note's own dates
    that read one way only (``note``: a day over 12 fixes the order), else of its patient's, else the
    order of the country its forms tell (``country``: None when they tell none; Canada, which writes
    both, tells nothing and stops its spelling from telling), else the order its spelling tells
    (``spelling``: :func:`spelling_order`), else the setting when it is not ``auto``, else the
    batch's majority; ``(None, "undecided")`` when none decides (ambiguous dates then read
    :data:`FALLBACK`, dotted ones day first). Counts only.

    >>> note_order("dmy", Counter({"mdy": 1}), Counter(), Counter({"dmy": 9}))
    ('mdy', 'note')
    >>> note_order("auto", Counter(), Counter({"dmy": 1, "mdy": 1}), Counter({"dmy": 3}))
    ('dmy', 'batch')
    >>> note_order("mdy", Counter(), Counter({"dmy": 2}), Counter())
    ('dmy', 'patient')
    """
    check_order(setting)
    for counts, source in ((note, "note"), (patient, "patient")):
        order = decide("auto", counts).order
        if order is not None:
            return order, source
    order = country_order(country)
    if order is not None:
        return order, "country"
    if spelling is not None and country not in _MIXED:
        return spelling, "spelling"
    if setting != "auto":
        return setting, "setting"
    order = decide("auto", batch).order
    return (order, "batch") if order is not None else (None, "undecided")
