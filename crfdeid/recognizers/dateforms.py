"""Dates whose form gives them away, in either order: part of the Safe Harbor layer.

:mod:`.safeharbor` runs :func:`matches` in every model, so a date the CRF misses in a form
it rarely saw in training (another country's) is still found. Each form rests on evidence
a lab value, a dose, a score or a time does not have:

* ``numeric_year``: day and month in either order with a four-digit year of 1900-2099,
  joined by ``/`` or ``-`` (``17/10/2023``, ``25-11-2021``, ``10/17/2023``): a ratio or a
  blood pressure has no third part that is a year;
* ``dotted``: day, month and a two- or four-digit year joined by dots (``04.07.1961``,
  ``4.7.61``): a lab value or a dose has one dot (``7.4``, ``2.5``), an IP address four
  parts, a version's word before it (``v3.10.12``, ``firmware 9.6.96``, left alone);
* ``iso``: year, month and day (``2024-05-03``, ``2024/05/03``, ``2024.05.03``); ``compact``:
  ``20240503`` only after a date word (``DOB``, ``date``, ``dated``, ``born``, ``on``): alone,
  eight digits are as likely a number;
* ``written``: a day and a month name (``3 May 2024``, ``May 3rd, 2024``, ``the 3rd of May``,
  ``3rd May``, ``March 3``): with a year, an ordinal or ``of``, any month word; otherwise a
  full month name (``3 March``) but ``may`` in lower case (``3 may need``);
* ``weekday``: a weekday (not ``sat``, oxygen saturation) then a day and month in either order
  (``Tues 17/10``, ``Mon 3/14``), not before a dose or grade word (``wed 1/2 NS``).

Issue 50, from the dates the shipped model missed on the PhysioNet development notes (counts
in docs/clinical-values.md), each checked on those notes, the made-up notes and synthetic notes:

* ``two_dates``: two day/month pairs run together, both read in one order (``10/03/10/04``),
  not before ``%`` or a schedule's word (``24/06/12/18 schedule``: no one order);
* ``ordinal_day``: ``on``/``since``/``from``/``until``/``by``/``before``/``after`` + ``the`` + an
  ordinal day, nothing but a join or a stop after it (``on the 11th.``; not ``on the 3rd floor``);
* ``apostrophe_year``: two digits and an apostrophe after a word (``CVA 74'``, ``repair in 14'``);
  not after ``x``, ``for``, ``HOB``, ``up``, ``at``... (minutes, degrees), not before a digit (feet);
* ``bare_year``: 1960-1999 alone: no clock time has such minutes; not before a unit, not the
  year of a law or a document (``Mental Health Act 1983``);
* ``decade``: ``1980s``, ``1990's``;
* a range of days before a written day and month takes its first day (``1->2 nov``, ``10 to 12 March``), and
  with it any month word (``nov``) but ``may``.

Issue 58 (dates28; kept for their gain on the made-up sets written after them, docs/rules.md "The ledger of dates28
and users28"): ``dotted_spaced`` (``8. 5. 2019``), ``dotted_day_month`` (two-digit day and month each with its dot,
``echo 25.11. showed``: a value has one dot) and ``world_day_month``, another language's month after a day
(gazetteers/months_world.txt: ``15. ledna 2027``, ``21 de novembro de 2026``, ``24 novembre``).
``row_day_month`` (daterows32): a table's column heads (``Datum | 22.11 | 23.11 | 24.11``, :func:`_date_row`); a row of
lab values (``K | 4.2 | 3.9``, ``Creat | 1.12 | 1.15``) or acuities (``6/9 | 6/12``) is not two digits each side.
``era`` (era22, 2026-11-29): a year of Japan's imperial eras by its letter, name or kanji with ``-nen``/``年``
(``H30-nen``, ``Reiwa 7-nen 9-gatsu``, ``令和8年10月30日``) or, after R or H only, a dotted month and day
(``R8.10.30``): the year within its era (:func:`_era_ok`), the span from the era's mark.

A weekday right before any of these (``Tuesday 12/03/2024``, ``Tue, 3 May``) is part of the
span, so it is shifted with the date (recomputed) or removed with it, never left beside a
moved date. Times (``05:02``), grades (``4/5``), BP (``120/80``) and scores (``Mini-Cog
3/5``) hold no year, month name or weekday and are not matched.

>>> [(n, sp.start, sp.end) for n, sp in matches("DOB 04.07.1961, seen Tue 17/10/2023; pH 7.4")]
[('dotted', 4, 14), ('numeric_year', 21, 35)]
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

import regex

from .. import gazetteers
from ..document import Span, make_span
from ..text.dateorder import MONTH_WORD, WEEKDAY_WORD
from .datecheck import day_and_month
from .ruledata import table

_T = table("dateforms")  # the patterns and words (crfdeid/_data/rules/dateforms.tsv)
_R = _T.namespace(WEEKDAY_WORD=WEEKDAY_WORD)


@lru_cache(maxsize=1)
def _compiled() -> dict[str, regex.Pattern]:
    """Form name -> pattern (case-insensitive); ``a``/``b`` are the two numbers of day and month."""
    return {name: regex.compile(p, regex.I | regex.V0)
            for name, p in _T.mapping("PATTERNS", MONTH_WORD=MONTH_WORD).items()}


def _weekday_before(text: str, start: int) -> re.Match | None:
    return _R.WEEKDAY_BEFORE.search(text, max(0, start - 16), start)


def _month_ok(m, weekday: bool) -> bool:
    """A written date's month word is a month: with a year, an ordinal, ``of`` or a weekday any month word;
    without, a full month name, and ``May`` only capitalised (``3 may need`` is the verb)."""
    mon = m.group("mon")
    if m.group("y") or m.group("o") or weekday or ("of" in m.re.groupindex and m.group("of")):
        return True
    low = mon.lower()
    if low not in _R.MONTHS:
        return False
    return low != "may" or mon[0] == "M"


def _world_month(m) -> bool:
    """Another language's month (``novembre``, ``ledna``; gazetteers/months_world.txt); beside a day without
    its dot, ``de`` or a year, only a word of five letters or more (``3 mars`` is not taken, ``24 novembre`` is).
    An English month here only after the day's dot or ``de`` (``5. december``: the ``written`` forms take the rest)."""
    mon = m.group("mon").lower()
    marked = bool(m.group("dot") or m.group("de"))
    if mon not in gazetteers.load("months_world"):
        return marked and mon in gazetteers.load("months")
    return marked or bool(m.group("y")) or len(mon) >= 5


def _date_row(m, text: str) -> bool:
    """Whether the cell of ``m`` is one of three or more cells side by side, each a two-digit day and month in one
    separator, that read in one order (day or month first) as days going forward, each 0-31 days after the one
    before (over the year's turn too), not all the same day."""
    start = text.rfind("\n", 0, m.start()) + 1
    run: list = []
    for cell in re.split(r"[|\t]", text[start:].split("\n", 1)[0]):
        found = _R.DAY_MONTH_CELL.fullmatch(cell)
        if found:
            run.append(found)
        elif start > m.start():
            break
        elif start + len(cell) > m.start():
            return False  # the match's own cell holds more than the date
        else:
            run = []
        start += len(cell) + 1
    if len(run) < 3 or len({c.group(2) for c in run}) > 1:
        return False
    for day, month in ((1, 3), (3, 1)):
        try:
            days = [date(2000, int(c.group(month)), int(c.group(day))).toordinal() for c in run]
        except ValueError:
            continue
        gaps = [(b - a) % 366 for a, b in zip(days, days[1:])]
        if max(gaps) <= 31 and any(gaps):
            return True
    return False


def _ok(name: str, m, text: str, weekday: re.Match | None) -> bool:
    if name == "world_day_month":  # its month checked by matches()
        return True
    if name == "row_day_month":
        return _date_row(m, text)
    if name == "weekday" and (weekday is None or weekday.group(1).lower() == "sat"):
        return False
    if name == "two_dates":
        a, b, c, d = (int(m.group(k)) for k in "abcd")
        return (a <= 12 and c <= 12 and b <= 31 and d <= 31) or (b <= 12 and d <= 12 and a <= 31 and c <= 31) \
            if min(a, b, c, d) > 0 else False
    if name in ("numeric_year", "dotted", "dotted_spaced", "dotted_day_month", "weekday"):
        a, b = int(m.group("a")), int(m.group("b"))
        if not day_and_month(a, b):
            return False
        if name == "dotted_day_month" and not (1 <= a <= 31 and 1 <= b <= 12):  # day first, as dots write it
            return False
        if name.startswith("dotted") and _R.VERSION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            return False
        return True
    if name.startswith("written"):
        return _month_ok(m, weekday is not None)
    if name == "era":
        return _era_ok(m)
    return True


#: The last year of each era by its first letter (Reiwa from 2019: open, bounded at 30).
_ERA_YEARS = {"r": 30, "令": 30, "h": 31, "平": 31, "s": 64, "昭": 64, "t": 15, "大": 15}


def _era_ok(m) -> bool:
    """An era's year within the era; a dotted month and day only after R or H (Reiwa, Heisei: ``S1.2.3`` is a
    section's number as often) and a real month and day."""
    era = (m.group("era") or m.group("kanji")).lower()
    if not 1 <= int(m.group("y")) <= _ERA_YEARS[era[0]]:
        return False
    if m.group("gm") is not None:
        return 1 <= int(m.group("gm")) <= 12
    if m.group("m") is None:
        return True
    return era in ("r", "h", "reiwa", "heisei") and 1 <= int(m.group("m")) <= 12 and 1 <= int(m.group("d")) <= 31


def matches(text: str) -> list[tuple[str, Span]]:
    """``(form name, DATE span)`` of every date of a form above in ``text``.

    >>> [n for n, _ in matches("seen the 3rd of May; 3 May 2024; GAD-7 12, Mini-Cog 3/5, BP 120/80 at 05:02")]
    ['written_day_month', 'written_day_month']
    """
    if not any(c.isdigit() for c in text):
        return []
    found: dict[Span, str] = {}
    for name, rx in _compiled().items():
        world = name == "world_day_month"
        for m in rx.finditer(text):
            if world and not _world_month(m):  # most matches are a number and a word (``3 days``): out at once
                continue
            start = m.start("mon") if name == "written_month_day" else m.start()
            if name == "era":
                start = m.start("era") if m.group("era") else m.start("kanji")
            ranged = False
            if name == "written_day_month":
                the = _R.THE_BEFORE.search(text, max(0, start - 8), start)
                start = the.start() if the else start
                first = _R.RANGE_BEFORE.search(text, max(0, start - 12), start)
                if first and int(first.group(1)) < int(m.group("d")):  # "1->2 nov": the range's first day
                    start, ranged = first.start(), True
            weekday = None if name == "compact" else _weekday_before(text, start)
            if _ok(name, m, text, weekday) or (ranged and m.group("mon").lower() != "may"):
                found.setdefault(make_span(weekday.start() if weekday else start, m.end(), "DATE"), name)
    return [(name, sp) for sp, name in sorted(found.items())]
