"""Date surrogates: shift by a per-patient number of days, keeping the original format.

A date is parsed into *fields* (year, month, month name, day, ordinal,
weekday) located in the string; the shifted date is written back field by
field, so separators, zero padding, two-digit years, ordinals, spelled-out
months and their capitalisation all stay as they were.

>>> shift_text("07-22-2097", -30)[0]
'06-22-2097'
>>> shift_text("7/22", 10)[0], shift_text("July 22nd", 10)[0], shift_text("22 JULY 2097", 10)[0]
('8/1', 'August 1st', '1 AUGUST 2097')
>>> shift_text("2/28/96", 1)[0], shift_text("2/28/97", 1)[0]
('2/29/96', '3/1/97')
>>> shift_text("2097", -400)[0]
'2096'
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import NamedTuple

from .. import gazetteers
from ..text.dateorder import MONTH_WORD, WEEKDAY_WORD
from ..text.patterns import LazyPattern
from .rng import apply_case

_MONTHS = [m.lower() for m in calendar.month_name[1:]]
_WEEKDAYS = [d.lower() for d in calendar.day_name]
_MON = MONTH_WORD
_WD = WEEKDAY_WORD
_ORD = r"(?:st|nd|rd|th)"
_Y = r"(?:1[89]\d\d|2[01]\d\d)"
#: A year after a month and day with white space alone between, or standing alone: 1900 to 2199.
#: Another four-digit number there is a clock time (``nov 23 0700``, ``nov 22 1840``, ``nov 22
#: 2359``), never moved as a year: the span it is in gets a placeholder. After a comma (``Dec 31,
#: 1899``) any year not led by 0. No identifier is left by it (a placeholder replaces the span).
#: Evidence (2026-11-26): a note of made-up check5 failed on ``nov 23 0700``; surrogate output of
#: the 1,622 PhysioNet dev notes and of made-up dev..dev7, check and check2 (day-first dates of
#: the UK, Australia, India..., lower-case notes) byte-identical before and after
#: (``tag --output-format surrogate --seed 1``); day-first forms (``22 nov 1840``) the same way
#: (tests/test_deid_surrogate.py).
_YW = r"(?:19\d\d|2[01]\d\d)(?!\d)"
_YC = r"(?!0)\d{4}"
#: Days written as ordinal words (``second``, ``twenty-third``), by day.
DAY_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
             "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
             "eighteenth", "nineteenth", "twentieth"]
DAY_WORDS += [f"twenty-{w}" for w in DAY_WORDS[:9]] + ["thirtieth", "thirty-first"]
_DAY_WORD = "(?:" + "|".join(w.replace("-", "[- ]") for w in sorted(DAY_WORDS, key=len, reverse=True)) + ")"
# Alternatives from the most to the least specific; group names are <alt>_<field>.
_ALTS = [
    rf"(?:(?P<a_w>{_WD})\.?,?\s+)?(?P<a_y>\d{{4}})(?P<a_s>[-/.])(?P<a_m>\d{{1,2}})(?P=a_s)(?P<a_d>\d{{1,2}})",
    rf"(?:(?P<b_w>{_WD})\.?,?\s+)?(?P<b_m>\d{{1,2}})(?P<b_s>[-/.])(?P<b_d>\d{{1,2}})(?P=b_s)(?P<b_y>\d{{4}}|\d{{2}})",
    # yyyymmdd (the caller's span says it is a date: only a DATE span is parsed)
    rf"(?P<p_y>{_Y})(?P<p_m>0[1-9]|1[0-2])(?P<p_d>0[1-9]|[12]\d|3[01])",
    rf"(?P<e_m>\d{{1,2}})(?P<e_s>[/.-])(?P<e_y>{_Y})",
    rf"(?:(?P<c_w>{_WD})\.?,?\s+)?(?P<c_m>\d{{1,2}})(?P<c_s>[-/])(?P<c_d>\d{{1,2}})",
    rf"(?:(?P<f_w>{_WD})\.?,?\s+)?(?P<f_mon>{_MON})\.?\s*(?P<f_d>\d{{1,2}})(?P<f_o>{_ORD})?"
    rf"(?:(?:,\s*|\s+(?=(?:of\s+)?'?{_YW}))(?P<f_of>of\s+)?'?(?P<f_y>{_YC})|,\s*'?(?P<f_yy>\d{{2}}))?",
    rf"(?:(?P<g_w>{_WD})\.?,?\s+)?(?P<g_the>the\s+)?(?P<g_d>\d{{1,2}})(?P<g_o>{_ORD})?\s*(?P<g_of>of\s+)?(?P<g_mon>{_MON})\.?"
    rf"(?:(?:,\s*|\s+(?='?{_YW}))'?(?P<g_y>{_YC})|,\s*'?(?P<g_yy>\d{{2}}))?",
    rf"(?P<h_mon>{_MON})\.?,?\s*(?P<h_of>of\s+)?'?(?P<h_y>{_YC})",
    rf"(?:(?P<m_w>{_WD})\.?,?\s+)?(?P<m_mon>{_MON})\.?\s+(?P<m_the>the\s+)?(?P<m_dw>{_DAY_WORD})"
    rf"(?:(?:,\s+|\s+(?={_YW}))(?P<m_y>{_YC}))?",
    rf"(?:(?P<n_w>{_WD})\.?,?\s+)?(?P<n_the>the\s+)?(?P<n_dw>{_DAY_WORD})\s+(?P<n_of>of\s+)?(?P<n_mon>{_MON})\.?"
    rf"(?:(?:,\s+|\s+(?={_YW}))(?P<n_y>{_YC}))?",
    rf"(?P<i_mon>{_MON})",
    rf"(?P<j_w>{_WD})",
    rf"(?P<k_y>{_YW})",
    r"'(?P<l_yy>\d{2})",
]
# compiled on first use (a surrogate's dates): 4 ms of every start-up of `tag` (issue 53)
_DATE = LazyPattern(re.compile, r"(?<![0-9A-Za-z])(?:" + "|".join(_ALTS) + r")(?![0-9A-Za-z])", re.I)
_DIGITS = re.compile(r"\d+")
#: Year used to place dates written without a year (a leap year, so 2/29 exists).
REFERENCE_YEAR = 2000


class Parsed(NamedTuple):
    """One date found in a string: where, its fields and their values."""

    start: int
    end: int
    fields: dict  # field -> (start, end) in the string
    year: int | None
    month: int | None
    day: int | None
    weekday: int | None


def _month_of(word: str) -> int:
    w = word.lower().rstrip(".")
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(w[:3]))


def _weekday_of(word: str) -> int:
    w = word.lower().rstrip(".")
    return next(i for i, d in enumerate(_WEEKDAYS) if d.startswith(w[:3]))


def _full_year(text: str) -> int:
    y = int(text)
    if len(text) == 2:
        y += 2000 if y <= 30 else 1900
    return y


def parse(text: str, before: str = "", after: str = "",
          order: str | None = None) -> tuple[list[Parsed], list[tuple[int, int]]]:
    """Dates in ``text`` and the digit runs left unexplained (start, end).

    ``before``/``after`` are the characters around ``text`` in the note: a
    bare two-digit number next to an apostrophe (``'95``) is a year. ``order``
    (:mod:`crfdeid.text.dateorder`): ``dmy`` reads an ambiguous numeric date
    (``12/03/2024``) day first; ``mdy`` and ``ymd`` month first; None (undecided) month
    first but a dotted one (``04.07.1961``) day first, as the countries that write dots do.
    A date that can be read one way only (``17/10/2023``) is read that way whatever the order.

    Two dates glued by their own separator into one run of numbers are no date (:func:`_chained`).

    >>> [(p.month, p.day) for p in parse("12/03/2024 and 17/10", order="dmy")[0]]
    [(3, 12), (10, 17)]
    >>> parse("rule of 1-3-6-12")
    ([], [(8, 9), (10, 11), (12, 13), (14, 16)])
    """
    matched = []
    for m in _DATE.finditer(text):
        groups = {k.split("_", 1)[1]: (m.start(k), m.end(k)) for k, v in m.groupdict().items()
                  if v is not None}
        dotted = "s" in groups and text[groups["s"][0]] == "."
        p = _values(text, groups, m.start(), m.end(), order == "dmy" or (order is None and dotted))
        if p is not None:
            matched.append((p, (m.start(), m.end())))
    glued = _chained(text, [p for p, _ in matched])
    found = [p for i, (p, _) in enumerate(matched) if i not in glued]
    used = [where for i, (_, where) in enumerate(matched) if i not in glued]
    loose = [(m.start(), m.end()) for m in _DIGITS.finditer(text)
             if not any(s <= m.start() < e for s, e in used)]
    if not found and len(loose) == 1 and loose[0] == (0, len(text)) and len(text) == 2:
        y = int(text)
        if before.endswith("'") or after.startswith("'") or y > 31:
            found.append(Parsed(0, 2, {"yy": (0, 2)}, _full_year(text), None, None, None))
            loose = []
    return found, loose


def _chained(text: str, found: list[Parsed]) -> set[int]:
    """The indexes of dates of ``found`` glued to a neighbour by their own separator into one run of numbers
    (``rule of 1-3-6-12``, ``1/2/3/4``): a chain no offset explains (a model took the stroke rule for a date;
    shifted as two dates it read ``9-29-3-9``, a falsified rule). A range (``3/14-3/18``) joins its dates with
    another separator or words."""
    glued: set[int] = set()
    for i, (p, q) in enumerate(zip(found, found[1:])):
        sep = p.fields.get("s")
        if sep and q.start - p.end <= 1 and text[p.end:q.start] in ("", text[sep[0]:sep[1]]):
            glued |= {i, i + 1}
    return glued


def _values(text, g, start, end, day_first: bool = False) -> Parsed | None:
    val = {k: text[s:e] for k, (s, e) in g.items()}
    year = _full_year(val.get("y") or val["yy"]) if ("y" in val or "yy" in val) else None
    month = day = None
    if "mon" in val:
        month = _month_of(val["mon"])
    elif "m" in val:
        month = int(val["m"])
    if "d" in val:
        day = int(val["d"])
    elif "dw" in val:
        day = DAY_WORDS.index(val["dw"].lower().replace(" ", "-")) + 1
    year_first = "y" in g and "m" in g and g["y"][0] < g["m"][0]  # 2024-03-12, 20240312
    if ("m" in val and "d" in val and month is not None and day is not None and day <= 12
            and (month > 12 or (day_first and not year_first))):
        # day first: 22/07/2097, or 12/03/2024 read in a day-first batch
        month, day = day, month
        g = dict(g, m=g["d"], d=g["m"])
    if ("m" in val and "d" in val and year is None and "w" not in val and month is not None and day is not None
            and 1 <= month <= 12 and len(val["d"]) == 2 and day > 31):  # month/two-digit year (4/98)
        year, day = _full_year(val["d"]), None
        g = {("yy" if k == "d" else k): v for k, v in g.items()}
    weekday = _weekday_of(val["w"]) if "w" in val else None
    if weekday is not None and _time_not_year(text, g, year, month, day, weekday):
        year, g = None, {k: v for k, v in g.items() if k not in ("y", "of")}
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None and month is None:  # a bare day cannot be shifted: caller redraws it
        return None
    if day is not None:
        last = calendar.monthrange(year or REFERENCE_YEAR, month)[1] if month else 31
        if not 1 <= day <= last:
            return None
    return Parsed(start, end, g, year, month, day, weekday)


def _time_not_year(text: str, g: dict, year, month, day, weekday: int) -> bool:
    """Whether the four digits after a weekday's day and month (``Sat 22 Nov 1900``, white space
    only between) are a clock time, not a year: that year puts the day on another weekday. A
    nursing note's 19:00 had been moved as the year 1900 and failed the note (made-up check5).

    >>> p = parse("Sat 22 Nov 1900")[0][0]
    >>> (p.year, p.month, p.day, p.end)
    (None, 11, 22, 15)
    >>> parse("Thu 22 Nov 1900")[0][0].year
    1900
    """
    if year is None or month is None or day is None or "y" not in g or not 1 <= month <= 12:
        return False
    before = max(e for k, (_, e) in g.items() if k not in ("y", "of") and e <= g["y"][0])
    if text[before:g["y"][0]].strip():  # `Sat, Nov 22, 1900`: a comma says year
        return False
    try:
        return dt.date(year, month, day).weekday() != weekday
    except ValueError:
        return False


def year_delta(days: int) -> int:
    """Whole years of a day shift, never 0 for a non-zero shift (a bare year must change)."""
    years = round(days / 365.2425)
    return years or (1 if days > 0 else -1 if days < 0 else 0)


def _placed(year: int | None, month: int, day: int | None) -> dt.date:
    """The date of ``month``/``day`` in ``year``, or in :data:`REFERENCE_YEAR` when it has no such day."""
    try:
        return dt.date(year or REFERENCE_YEAR, month, day or 15)
    except ValueError:  # 2/29 in a year that is not a leap year
        return dt.date(REFERENCE_YEAR, month, day or 15)


def shift(p: Parsed, days: int, year: int | None = None) -> dict:
    """New field values of a parsed date shifted by ``days``.

    A date written without a year is placed in ``year`` (the year of the full
    dates around it), else in :data:`REFERENCE_YEAR`, so that it moves to the
    same day as the same date written with its year.
    """
    y, m, d = p.year, p.month, p.day
    if m is None and d is None:
        if y is not None:
            return {"year": y + year_delta(days)}
        assert p.weekday is not None  # a date without year, month and day is a weekday
        return {"weekday": (p.weekday + days) % 7}
    if m is None:
        return {}
    base = _placed(y or year, m, d) + dt.timedelta(days=days)
    if d is None and base.month == m and (y is None or base.year == y) and days:
        # a month without a day must still change: move on to the next month in the shift's direction
        base = (base.replace(day=1) - dt.timedelta(days=1) if days < 0
                else base.replace(day=28) + dt.timedelta(days=7))
    out = {"month": base.month}
    if d is not None:
        out["day"] = base.day
    if y is not None:
        out["year"] = base.year
    if p.weekday is not None:
        out["weekday"] = base.weekday() if y is not None else (p.weekday + days) % 7
    return out


def ordinal(n: int) -> str:
    """English ordinal suffix of ``n`` (``st``, ``nd``, ``rd``, ``th``)."""
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _padded(text: str, fields: dict) -> bool:
    """Whether a date's numeric month and day are zero-padded, so the shifted date keeps two digits:
    one starts with 0 (``07/4``), or both are two digits in a form written padded: year first
    (``1946-12-17``, ``20240503``), dotted (``17.10.2023``) or day first (``17/10/2023``; a
    month-first ``12/31/99`` gives ``1/1/00``, as US notes write it)."""
    values = [text[s:e] for k, (s, e) in fields.items() if k in ("m", "d")]
    if any(v.startswith("0") and len(v) == 2 for v in values):
        return True
    if len(values) != 2 or not all(len(v) == 2 for v in values):
        return False
    m, d = fields["m"][0], fields["d"][0]
    year_first = "y" in fields and fields["y"][0] < m
    return year_first or d < m or text[min(m, d) + 2:min(m, d) + 3] == "."


def _number(old: str, new: int, padded: bool) -> str:
    return f"{new:02d}" if len(old) == 2 and (old.startswith("0") or padded) else str(new)


def _name(old: str, full: list, new: int) -> str:
    word, bare = full[new], old.lower().rstrip(".")
    if bare not in full:  # abbreviated: Jul, Sept, Tues
        word = word[:4] if len(bare) == 4 and word.startswith(("sep", "tue", "thu")) else word[:3]
    return apply_case(old, word.capitalize())


def render(text: str, p: Parsed, new: dict, drop_of: bool = False) -> list[tuple[int, int, str]]:
    """Replacements ``(start, end, new text)`` writing ``new`` values in ``p``'s format."""
    f = p.fields
    old = {k: text[s:e] for k, (s, e) in f.items()}
    padded = _padded(text, f)
    out = []
    for key, (s, e) in f.items():
        o = old[key]
        if key == "m" and "month" in new:
            out.append((s, e, _number(o, new["month"], padded)))
        elif key == "d" and "day" in new:
            out.append((s, e, _number(o, new["day"], padded)))
        elif key in ("y", "yy") and "year" in new:
            out.append((s, e, f"{new['year'] % 100:02d}" if len(o) == 2 else str(new["year"])))
        elif key == "mon" and "month" in new:
            out.append((s, e, _name(o, _MONTHS, new["month"] - 1)))
        elif key == "w" and "weekday" in new:
            out.append((s, e, _name(o, _WEEKDAYS, new["weekday"])))
        elif key == "dw" and "day" in new:
            word = DAY_WORDS[new["day"] - 1]
            out.append((s, e, apply_case(o, word.replace("-", " ") if " " in o else word)))
        elif key == "o" and "day" in new:
            suffix = ordinal(new["day"])
            out.append((s, e, suffix.upper() if o.isupper() else suffix))
        elif key == "of" and drop_of:
            out.append((s, e, ""))
    return out


def shift_text(text: str, days: int, before: str = "", after: str = "", year: int | None = None,
               drop_of: bool = False, order: str | None = None) -> tuple[str, list, list]:
    """``text`` with every date shifted by ``days``.

    ``year`` places dates written without a year (:func:`shift`); with
    ``drop_of`` the ``of`` of ``15th of March`` is left out (``26th November``),
    so no word of the original date is kept; ``order`` as :func:`parse` takes it.

    Returns
    -------
    (new text, replacements, loose digit runs)
        ``replacements`` are ``(start, end, new)`` in ``text``; ``loose`` are
        digit runs no date pattern explains (the caller draws random digits).
    """
    found, loose = parse(text, before, after, order)
    reps = sorted(r for p in found for r in render(text, p, shift(p, days, year), drop_of))
    return apply(text, reps), reps, loose


def year_of(text: str) -> int | None:
    """The year of the first full date (year, month, day) in ``text``, if any."""
    for p in parse(text)[0]:
        if None not in (p.year, p.month, p.day):
            return p.year
    return None


def apply(text: str, reps) -> str:
    """``text`` with non-overlapping ``(start, end, new)`` replacements applied."""
    parts, pos = [], 0
    for s, e, new in sorted(reps):
        parts += [text[pos:s], new]
        pos = e
    return "".join(parts) + text[pos:]


_COARSE = re.compile(rf"'?\d{{4}}|'\d\d|{_MON}\.?|{_WD}\.?", re.I)


def coarse(text: str) -> bool:
    """Whether ``text`` alone names only a year, a month, a weekday or a holiday (no day in a year).

    >>> coarse("2097"), coarse("MARCH"), coarse("7/22")
    (True, True, False)
    """
    t = text.strip()
    return bool(_COARSE.fullmatch(t)) or t.lower() in gazetteers.load("holidays")


def full_dates(text: str, before: str = "", after: str = "", order: str | None = None) -> list[dt.date]:
    """Complete dates (year, month, day) written in ``text``, in order (``order``: :func:`parse`)."""
    return [dt.date(p.year, p.month, p.day) for p in parse(text, before, after, order)[0]
            if p.year is not None and p.month is not None and p.day is not None]
