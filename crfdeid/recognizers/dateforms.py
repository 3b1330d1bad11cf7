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

A weekday right before any of these (``Tuesday 12/03/2024``, ``Tue, 3 May``) is part of the
span, so it is shifted with the date (recomputed) or removed with it, never left beside a
moved date. Times (``05:02``), grades (``4/5``), BP (``120/80``) and scores (``Mini-Cog
3/5``) hold no year, month name or weekday and are not matched.

>>> [(n, sp.start, sp.end) for n, sp in matches("DOB 04.07.1961, seen Tue 17/10/2023; pH 7.4")]
[('dotted', 4, 14), ('numeric_year', 21, 35)]
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from ..document import Span, make_span
from ..text.dateorder import MONTH_WORD, WEEKDAY_WORD
from .datecheck import day_and_month
from .ruledata import table

_R = table("dateforms").namespace()  # the patterns and words (crfdeid/_data/rules/dateforms.tsv)

_MONTHS = ("january february march april may june july august september october november december"
           .split())
_ORD = r"(?:st|nd|rd|th)"
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_YEAR4 = r"(?:19|20)\d\d"
_END = r"(?![\w/]|[.,:-]\d)"
# Every form is matched from its first digit: the look-ahead for a digit changes no match but
# lets the regex module skip to digits (several times faster); what stands before the digits
# (a month name, a date word, a weekday, "the") is read behind them.
_START = r"(?=\d)(?<![\w/.-])"

#: Form name -> pattern (case-insensitive); ``a``/``b`` are the two numbers of day and month.
_PATTERNS = {
    "numeric_year": rf"{_START}(?P<a>\d{{1,2}})(?P<s>[/-])(?P<b>\d{{1,2}})(?P=s){_YEAR4}{_END}",
    "dotted": rf"{_START}(?P<a>\d{{1,2}})\.(?P<b>\d{{1,2}})\.(?:{_YEAR4}|\d\d){_END}",
    "iso": rf"{_START}{_YEAR4}(?P<s>[-/.])(?:0?[1-9]|1[0-2])(?P=s){_DAY}{_END}",
    "compact": rf"{_START}(?<=(?<![\w/.-])(?:dob|d\.o\.b\.?|date(?:[ \t]+of[ \t]+birth)?|dated|born|on)"
               rf"[ \t]*[:#=]?[ \t]*){_YEAR4}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]){_END}",
    "written_day_month": rf"{_START}(?P<d>{_DAY})(?P<o>{_ORD})?[ \t]+(?P<of>of[ \t]+)?"
                         rf"(?P<mon>{MONTH_WORD})\b\.?(?:,?[ \t]+(?P<y>{_YEAR4}|'\d\d))?(?![\w'])",
    "written_month_day": rf"(?=\d)(?<=(?<![\w/.-])(?P<mon>{MONTH_WORD})\.?[ \t]+(?:the[ \t]+)?)"
                         rf"(?P<d>{_DAY})(?P<o>{_ORD})?(?:,?[ \t]+(?P<y>{_YEAR4}))?(?![\w/:]|[.,-]\d)",
    # two day/month pairs run together, in one order (``10/03/10/04``: a course from one day to the next)
    "two_dates": rf"{_START}(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})/(?P<c>\d{{1,2}})/(?P<d>\d{{1,2}}){_END}"
                 r"(?![ \t]*(?:%|schedule|sched|prn|regimen)\b)",
    # a day by its ordinal after a preposition and "the", nothing but a join or a stop after it
    # (``on the 11th.``; not ``on the 2nd attempt``, ``on the 3rd floor``)
    "ordinal_day": rf"{_START}(?<=(?<![\w/.-])(?:on|since|from|until|till|by|before|after)[ \t]+the[ \t]+)"
                   rf"(?P<d>{_DAY}){_ORD}(?![\w'])(?![ \t]+(?!(?:and|or|at|in|when|but|was|were|is)\b)[A-Za-z])",
    # a year of two digits with an apostrophe after it, after a word (``CVA 74'``, ``repair in 14'``); not
    # minutes, degrees or feet (``x 30'``, ``HOB 30'``, ``5' 6"``)
    "apostrophe_year": r"(?=\d)(?<=(?<![\w/.-])(?!(?:x|for|q|every|hob|up|at|about|approx|over|to)\b)"
                       r"[A-Za-z]{2,}[ \t]+)(?P<y>\d\d)(?='(?![\w'\"]|[ \t]*\d))",
    # a year of 1960-1999 alone (``CA 1977,``): no clock time (its minutes would be 60 or more), not before a
    # unit or a part of a number (``1980 units``, ``1975/2``, ``1966.5``), not the year of a law or a document's
    # (``Mental Health Act 1983``, ``criteria 1987``)
    "bare_year": r"(?<![\w/.:,-])(?<!(?i:act|acts|regulations|order|code|criteria|guidelines|classification|edition|"
                 r"version|standard|convention|declaration|statute)[ \t])(?<!(?i:act|acts)[ \t]of[ \t])"
                 r"19[6-9]\d(?![\w/:]|[.,]\d|[ \t]*(?:cc|ml|mls|mg|mcg|units?|u|kcal|cal|g|gm|"
                 r"grams?|x|%|hrs?|hours?|mins?|minutes?|cm|mm|ft|steps|pts?|points?)\b)",
    # a decade (``the 1980s``, ``1990's``)
    "decade": rf"{_START}(?:19|20)\d0'?s\b",
    # after a weekday (read behind), not "sat" (oxygen saturation, "SAT 9/10"); not before a
    # dose or a grade word ("wed 1/2 NS")
    "weekday": rf"{_START}(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})(?:/(?:{_YEAR4}|\d\d))?{_END}"
               r"(?![ \t]*(?:ns|str|strength|of|tabs?|dose|%)\b)",
}
#: A version's word right before dotted numbers (``v3.10.12``, ``firmware 9.6.96``, ``software version 2.1.19``):
#: a release's number, no date (issue 50).
VERSION_BEFORE = re.compile(r"(?i)(?:\bv|\bver\.?|\bversion|\brelease|\brel\.?|\bfirmware|\bsoftware|\bfw|\bsw|"
                            r"\bbuild|\bpatch|\brevision|\brev\.?|\bbios|\bdriver|\bapp)[ \t]*[:#]?[ \t]*$")
_WEEKDAY_BEFORE = re.compile(rf"(?i)(?<![\w/.-])({WEEKDAY_WORD})\.?,?[ \t]+$")


@lru_cache(maxsize=1)
def _compiled() -> dict[str, regex.Pattern]:
    return {name: regex.compile(p, regex.I | regex.V0) for name, p in _PATTERNS.items()}


def _weekday_before(text: str, start: int) -> re.Match | None:
    return _WEEKDAY_BEFORE.search(text, max(0, start - 16), start)


def _month_ok(m, weekday: bool) -> bool:
    """A written date's month word is a month: with a year, an ordinal, ``of`` or a weekday any month word;
    without, a full month name, and ``May`` only capitalised (``3 may need`` is the verb)."""
    mon = m.group("mon")
    if m.group("y") or m.group("o") or weekday or ("of" in m.re.groupindex and m.group("of")):
        return True
    low = mon.lower()
    if low not in _MONTHS:
        return False
    return low != "may" or mon[0] == "M"


def _ok(name: str, m, text: str, weekday: re.Match | None) -> bool:
    if name == "weekday" and (weekday is None or weekday.group(1).lower() == "sat"):
        return False
    if name == "two_dates":
        a, b, c, d = (int(m.group(k)) for k in "abcd")
        return (a <= 12 and c <= 12 and b <= 31 and d <= 31) or (b <= 12 and d <= 12 and a <= 31 and c <= 31) \
            if min(a, b, c, d) > 0 else False
    if name in ("numeric_year", "dotted", "weekday"):
        a, b = int(m.group("a")), int(m.group("b"))
        if not day_and_month(a, b):
            return False
        if name == "dotted" and VERSION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            return False
        return True
    if name.startswith("written"):
        return _month_ok(m, weekday is not None)
    return True


def matches(text: str) -> list[tuple[str, Span]]:
    """``(form name, DATE span)`` of every date of a form above in ``text``.

    >>> [n for n, _ in matches("seen the 3rd of May; 3 May 2024; GAD-7 12, Mini-Cog 3/5, BP 120/80 at 05:02")]
    ['written_day_month', 'written_day_month']
    """
    if not any(c.isdigit() for c in text):
        return []
    found: dict[Span, str] = {}
    for name, rx in _compiled().items():
        for m in rx.finditer(text):
            start = m.start("mon") if name == "written_month_day" else m.start()
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
