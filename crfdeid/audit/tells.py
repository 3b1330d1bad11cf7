"""What an attacker looks at to tell a real identifier from a surrogate (hiding in plain sight).

Per token, attribute strings beside crfdeid's own feature templates (:mod:`crfdeid.features`),
each named ``hips.*`` so that the attacker's weights can be read by tell:

- ``hips.case`` and ``hips.casefit``: the token's casing, and whether it follows the casing of
  its line (a surrogate written in title case in an upper-case note stands out);
- ``hips.list``: whether the word is in the lists surrogates are drawn from (``pool``), in the
  full name or place lists only (``full``: a rarer name, as real ones often are), or in none
  (``none``), and ``hips.rank``: its frequency rank among names (log scale);
- ``hips.rep_note`` and ``hips.rep_patient``: how often the word comes back in the note and in
  how many of the patient's notes (a real name the model missed once is written elsewhere too);
- ``hips.date_gap``: how far a month/day date lies from the note's other dates (a residual date
  is not shifted with the patient's others).

Values are fixed vocabularies (never a word of the note), so the weights can be reported.

>>> feats = note_tells("SEEN BY Smith ON 3/4", [("SEEN", 0, 4), ("BY", 5, 7), ("Smith", 8, 13)], {})
>>> "hips.casefit:other" in feats[2], "hips.case:T" in feats[2]
(True, True)
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections import Counter
from statistics import median

from .. import gazetteers
from ..deid.names import pool
from ..deid.places import word_pool

_DATE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?(?![\d/])")
_DAYS = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
_NAME_LISTS = ("first_male", "first_female", "surnames")
_PLACE_LISTS = ("cities", "hospitals", "organizations", "street_names")


def case_class(word: str) -> str:
    """``U`` (upper), ``L`` (lower), ``T`` (title), ``M`` (mixed) or ``-`` (no letters).

    >>> [case_class(w) for w in ("SMITH", "smith", "Smith", "McDonald", "12")]
    ['U', 'L', 'T', 'M', '-']
    """
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return "-"
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return "U"
    if all(c.islower() for c in letters):
        return "L"
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return "T"
    return "U" if len(letters) == 1 else "M"


@functools.cache
def _pools() -> frozenset:
    names = (w.lower() for n in _NAME_LISTS for w in pool(n))
    places = (w.lower() for n in _PLACE_LISTS for w in word_pool(n))
    return frozenset(names) | frozenset(places)


@functools.cache
def _full() -> frozenset:
    out: set[str] = set()
    for n in _NAME_LISTS + _PLACE_LISTS:
        out |= gazetteers.words([n])
    return frozenset(out)


@functools.cache
def _ranks() -> dict:
    out: dict[str, int] = {}
    for n in _NAME_LISTS:
        for i, e in enumerate(gazetteers.entries(n)):
            out.setdefault(e.lower(), i)
    return out


def _bucket(n: int, edges=(1, 2, 3, 6)) -> str:
    """``n`` as the highest edge it reaches (``6+`` above the last)."""
    for lo, hi in zip(edges, edges[1:]):
        if n < hi:
            return str(lo) if hi - lo == 1 else f"{lo}-{hi - 1}"
    return f"{edges[-1]}+"


def _word_tells(word: str) -> list[str]:
    low = word.lower()
    if not (word.isalpha() and len(word) > 1):
        return []
    listed = "pool" if low in _pools() else "full" if low in _full() else "none"
    out = [f"hips.list:{listed}"]
    rank = _ranks().get(low)
    if rank is not None:
        out.append(f"hips.rank:{min(int(math.log2(rank + 1)), 14)}")
    return out


def _day(month: int, day: int) -> int | None:
    return _DAYS[month - 1] + day if 1 <= month <= 12 and 1 <= day <= 31 else None


def _date_gaps(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, bucket)`` of each month/day date: its distance in days from the median of
    the note's other dates (``alone`` when it is the only one)."""
    found = [(m.start(), m.end(), day) for m in _DATE.finditer(text)
             if (day := _day(int(m.group(1)), int(m.group(2)))) is not None]
    out = []
    for i, (s, e, d) in enumerate(found):
        others = [f[2] for j, f in enumerate(found) if j != i]
        if not others:
            out.append((s, e, "alone"))
            continue
        gap = abs(d - median(others))
        gap = min(gap, 365 - gap)
        out.append((s, e, "0-7" if gap <= 7 else "8-30" if gap <= 30 else "31-90" if gap <= 90 else "91+"))
    return out


def patient_counts(texts) -> Counter:
    """In how many of a patient's notes (``texts``) each lower-cased word appears."""
    c: Counter = Counter()
    for text in texts:
        c.update({m.group().lower() for m in re.finditer(r"\w+", text)})
    return c


def note_tells(text: str, tokens, per_patient: Counter) -> list[list[str]]:
    """The tell attributes of each token of a note; ``tokens`` are ``(text, start, end)``
    triples (a crfdeid :class:`~crfdeid.text.tokenize.Token` is one)."""
    words = [t[0] for t in tokens]
    in_note = Counter(w.lower() for w in words)
    breaks = [m.start() for m in re.finditer("\n", text)]
    line_of = [bisect.bisect(breaks, t[1]) for t in tokens]
    by_line: dict[int, Counter] = {}
    for w, ln in zip(words, line_of):
        cc = case_class(w)
        if cc in "ULT" and len(w) > 1:
            by_line.setdefault(ln, Counter())[cc] += 1
    upper_note = sum(c["U"] for c in by_line.values()) > sum(c["L"] + c["T"] for c in by_line.values())
    gaps = _date_gaps(text)
    out = []
    for k, (w, ln) in enumerate(zip(words, line_of)):
        cc = case_class(w)
        feats = [f"hips.case:{cc}", f"hips.note:{'U' if upper_note else 'x'}"]
        if cc != "-":
            line = by_line.get(ln, Counter()).copy()
            if len(w) > 1 and cc in "ULT":
                line[cc] -= 1
            common = max(line, key=lambda c: (line[c], c)) if +line else None
            feats.append("hips.casefit:" + ("alone" if common is None else "same" if common == cc else "other"))
            feats.append(f"hips.case:{cc}/{common or '-'}")
        feats += _word_tells(w)
        if w.isalnum():
            feats.append(f"hips.rep_note:{_bucket(in_note[w.lower()])}")
            feats.append(f"hips.rep_patient:{_bucket(per_patient.get(w.lower(), 1), (1, 2, 3, 6, 11))}")
        s, e = tokens[k][1], tokens[k][2]
        feats += [f"hips.date_gap:{g}" for a, b, g in gaps if a < e and s < b]
        out.append(feats)
    return out
