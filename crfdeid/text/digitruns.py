"""Runs of digits: what a pattern's every match holds, what a note holds, to skip scans that cannot match.

Most forms of the Safe Harbor layer need several digits in a row (a year, a postcode, a card
number), and most PhysioNet notes hold no run of four digits (1,166 of the 1,622 development
notes). :func:`least_run` reads from a pattern's parse the fewest ASCII digits in a row that
every match holds; :func:`longest_run` is the longest run in a note. A pattern whose least run
is longer than the note's longest has no match in it, and its scan is skipped. The bound is
a lower bound: whatever the reading cannot tell (a class with other characters, a
back-reference, a syntax of the ``regex`` module that ``re`` does not parse) counts as a
character that ends a run, so it can only make the bound smaller. A note that is not ASCII
is never skipped (``\\d`` then holds other digits, and the two engines' Unicode tables differ).

>>> least_run(r"(?<![0-9])(?:19|20)[0-9]{2}-[0-9]{1,2}")
4
>>> least_run(r"[0-9]+|[a-z]{3}")
0
>>> longest_run("BP 120/80, seen 2089-03-04"), longest_run("pH 7.4")
(4, 1)
"""

from __future__ import annotations

import re
from functools import cache

from .patterns import LazyPattern

try:  # ``re``'s own parser, private (Python 3.11 to 3.13 have it): without it no bound, every scan runs
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - a Python that moved them
    _c = _p = None

_DIGITS = range(48, 58)
_PARSE_FLAGS = re.I | re.M | re.S | re.X  # the bits ``re`` and ``regex`` give the same meaning
_KNOWN_FLAGS = _PARSE_FLAGS | re.U | 0x2000  # and ``regex``'s ``V0``; any other (``regex.V1``, ``REVERSE``...) gives 0
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) if _c else ()
_ZERO_WIDTH = (_c.AT, _c.ASSERT, _c.ASSERT_NOT) if _c else ()
_OTHER = (0, 0, 0, None)  # a step that may match something else than digits
_RUN = re.compile("[0-9]+")
#: More digits in a row than any pattern asks for: a note that is not ASCII.
NOT_ASCII = 1 << 30


def least_run(source: str, flags: int = 0) -> int:
    """The fewest ASCII digits in a row that every match of the pattern ``source`` holds (0 if unknown).

    ``flags``: the pattern's (``re`` or ``regex``): ``I``, ``M``, ``S`` and ``X`` are read (their values
    are the same in both), ``U`` and ``regex.V0`` change nothing here, any other gives 0. A source that
    ``re`` cannot parse gives 0, and so does every source where ``re``'s parser is not found.
    """
    if flags & ~_KNOWN_FLAGS or _p is None:
        return 0
    try:
        tree = _p.parse(source, flags & _PARSE_FLAGS)
    except (re.error, OverflowError, RecursionError, ValueError, TypeError, AttributeError):
        return 0  # (``re._parser`` is private: if it changes, no bound rather than an error)
    return _sequence(tree)[1]


def longest_run(text: str) -> int:
    """The most ASCII digits in a row in ``text``; :data:`NOT_ASCII` when ``text`` is not ASCII.

    The last text's answer is kept: the Safe Harbor layer's modules ask it of the same note in turn.
    """
    global _last
    last = _last  # one tuple, read and replaced whole: threads see a pair that belongs together
    if last[0] is text:
        return last[1]
    longest = max(map(len, _RUN.findall(text)), default=0) if text.isascii() else NOT_ASCII
    _last = (text, longest)
    return longest


_last: tuple = (None, 0)


@cache
def needed(rx, gate=None) -> int:
    """The most of the least runs (:func:`least_run`) of the pattern ``rx`` (a compiled ``re`` or ``regex``
    pattern or a :class:`~crfdeid.text.patterns.LazyPattern`) and of ``gate`` (a compiled ``re`` pattern, or
    anything else: none), read once a pattern: a text whose :func:`longest_run` is shorter holds no match."""
    lazy = isinstance(rx, LazyPattern)
    least = least_run(rx.source if lazy else rx.pattern, rx.source_flags if lazy else rx.flags)
    return max(least, least_run(gate.pattern, gate.flags)) if isinstance(gate, re.Pattern) else least


def _step(op, av) -> tuple:
    """(leading digits, longest run, trailing digits, length if it matches digits only else None), least."""
    if op is _c.LITERAL:
        return (1, 1, 1, 1) if av in _DIGITS else _OTHER
    if op is _c.IN:
        digits = all((o is _c.LITERAL and a in _DIGITS) or (o is _c.RANGE and a[0] in _DIGITS and a[1] in _DIGITS)
                     or (o is _c.CATEGORY and a is _c.CATEGORY_DIGIT) for o, a in av)
        return (1, 1, 1, 1) if digits else _OTHER
    if op in _REPEATS:
        least, _, sub = av
        pre, best, post, full = _sequence(sub)
        if full is not None:
            return (least * full,) * 4
        return (pre, best, post, None) if least else _OTHER
    if op is _c.SUBPATTERN:
        return _sequence(av[-1])
    if op is _c.ATOMIC_GROUP:
        return _sequence(av)
    if op is _c.BRANCH:
        alts = [_sequence(a) for a in av[1]]
        fulls = [a[3] for a in alts]
        return (*(min(a[i] for a in alts) for i in range(3)), None if None in fulls else min(fulls))
    if op in _ZERO_WIDTH:
        return (0, 0, 0, 0)  # it consumes nothing: the text's run goes on across it
    return _OTHER


def _sequence(steps) -> tuple:
    """:func:`_step`'s four figures for steps matched one after another."""
    pre, best, run = 0, 0, 0
    full: int | None = 0
    for op, av in steps:
        p, b, s, f = _step(op, av)
        if f is not None:
            run += f
            full = None if full is None else full + f
        else:
            best = max(best, run + p, b)
            if full is not None:
                pre, full = full + p, None
            run = s
        best = max(best, run)
    return (full, best, full, full) if full is not None else (pre, best, run, None)
