"""Every occurrence of what a site knows, in the variants notes write it.

A known identifier becomes a set of *forms*: sequences of lower-cased tokens (runs of
letters or of digits) with the gaps allowed between them. Notes are read as tokens too,
so a form matches in any case (``DORSEY``, ``dorsey``), glued to a neighbour by
punctuation (``DAUGHTER-MINDY``: only ``MINDY``), before a possessive (``Dorsey's``: only
``Dorsey``), with its hyphen and apostrophe parts written or left out (``O'Brien``,
``OBrien``, ``O Brien``; ``Al-Qahtani``, ``Qahtani``).

A person's name (:func:`name_forms`) gives its full forms (``Kevin J Dorsey``, ``Dorsey,
Kevin``, ``K. Dorsey``, ``k dorsey``, a nickname for the first name: ``Bob Dorsey``) and
its single words (``Kevin``, ``Dorsey``, ``Bob``, ``Qahtani``; never a particle such as
``bin`` or ``van`` alone). Numbers (record numbers, phones) match their digits with or
without separators; a birth date its usual numeric and written forms.

**Names that are also words.** A single word that is a plain word (in ``common_words``,
``clinical_words``, the stop words or the site's allow-list: a patient called ``Hope``,
``Ward`` or ``Brown``) matches alone only (a) right after a cue (a title or a relation word
for a person, ``at``/``to``/``from``/``in``/``@`` for a place, or a sign-off's dash for a person:
``-- ann, front desk``), or (b) written in title case
inside a sentence of a line that is not all upper or all lower case. Everywhere else it
matches only as part of a longer form (``Hope Ward``, ``Mr. Ward``), so ``brown
secretions`` in Mr. Brown's notes and ``transfer to ward`` in Ms. Ward's stay as they are.
A match is the known words only: it never takes a neighbour with it.

>>> from crfdeid.site.match import Matcher, name_forms
>>> m = Matcher(name_forms("Kevin", (), "Dorsey", "PATIENT"))
>>> text = "DAUGHTER-MINDY called; k. dorsey aware, Dorsey's wife too"
>>> [(text[s.start:s.end], s.subtype) for s in m.find(text)]
[('k. dorsey', 'PATIENT'), ('Dorsey', 'PATIENT')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

import regex

from .. import gazetteers
from ..document import Span, line_bounds, make_span

#: A token of a note or of a known identifier: a run of letters (with marks) or of digits.
TOKEN = regex.compile(r"[\p{L}\p{M}]+|\p{Nd}+")
#: :data:`TOKEN` in lower-cased ASCII text (there its letters are a-z, its digits 0-9, no marks):
#: the stdlib ``re`` scan of the lower-cased note, about twice as fast, the same tokens.
_ASCII_TOKEN = re.compile(r"([a-z]+|[0-9]+)")  # a group: split() keeps the tokens
# Gaps between the tokens of a form: inside one name part ("O'Brien", "Al-Qahtani", or
# written apart), between two parts ("Kevin Dorsey", "KEVIN-DORSEY"), after an initial
# ("K. Dorsey", "K.Dorsey", "k dorsey"), after a surname written first ("Dorsey, Kevin"), and
# in a phrase (an institution, a street: one punctuation mark and spaces).
JOIN = regex.compile(r"[ \t]?[-'’]?[ \t]?")
SPACE = regex.compile(r"[ \t]{1,2}|[ \t]?-[ \t]?")
INITIAL = regex.compile(r"\.?[ \t]{1,2}|\.")
COMMA = regex.compile(r"[ \t]?,[ \t]{0,2}")
PHRASE = regex.compile(r"[ \t]{0,2}[^\p{L}\p{M}\p{Nd}\s]?[ \t]{0,2}")

#: Words that join name parts and never name anyone alone (``bin``, ``van``, ``de``...).
PARTICLES = frozenset("al el bin ibn bint ben abu van von der den de da di del della dos du la le".split())
#: Cue words: a single plain word right after one of these is taken as the name or place.
PLACE_CUES = frozenset("at to from in @ near via".split())
_CUE_BEFORE = regex.compile(r"([\p{L}@]+)\.?,?:?[ \t]{0,2}$")
# A sign-off: a dash at the start of a line before the name, a comma or the line's end after it.
_SIGN_OFF_BEFORE = regex.compile(r"(?:^|\n)[ \t]*(?:-{1,2}|—|–|~)[ \t]*$")
_SIGN_OFF_AFTER = regex.compile(r"[ \t]*(?:,|$)", regex.M)
_SENTENCE_START = regex.compile(r"(?:^|[.!?:;][ \t]*|\n[ \t]*)$")
_LINE = regex.compile(r"[^\n]*")

# Street and unit words and their usual abbreviations (USPS Publication 28), both ways.
_PAIRS = ("street st|avenue ave av|road rd|drive dr|lane ln|boulevard blvd|court ct|place pl|terrace ter"
          "|circle cir|highway hwy|parkway pkwy|square sq|suite ste|apartment apt|building bldg|floor fl"
          "|north n|south s|east e|west w|mount mt|saint st|fort ft")
_ABBREVIATIONS = {w: {x for x in group.split() if x != w} for group in _PAIRS.split("|") for w in group.split()}
_ABBREVIATIONS["st"] = {"street", "saint"}  # both

_MONTHS = ("january february march april may june july august september october november "
           "december").split()


class Form(NamedTuple):
    """One written form of a known identifier: tokens, the gap rule after each but the last,
    the subtype it is tagged with, and its cue kind (``name``, ``place``) when it is a single
    word that must pass the plain-word rule (None: matched anywhere)."""

    words: tuple[str, ...]
    gaps: tuple
    subtype: str
    cue: str | None = None


def tokens(s: str) -> list[str]:
    """Lower-cased tokens of a known identifier.

    >>> tokens("Al-Qahtani"), tokens("O'Brien"), tokens("45 Maple St.")
    (['al', 'qahtani'], ['o', 'brien'], ['45', 'maple', 'st'])
    """
    return [t.lower() for t in TOKEN.findall(s)]


def _part_variants(part: str) -> list[tuple[tuple[str, ...], tuple]]:
    """A name part's token sequences: as written (``o brien``) and joined (``obrien``)."""
    toks = tuple(tokens(part))
    if not toks:
        return []
    out = [(toks, (JOIN,) * (len(toks) - 1))]
    if len(toks) > 1:
        out.append((("".join(toks),), ()))
    return out


def _concat(*pieces) -> tuple[tuple[str, ...], tuple]:
    """Token sequences and the gaps between them, joined with the gap rules in between:
    ``_concat(seq, gap, seq, gap, seq)``."""
    words: list[str] = []
    gaps: list = []
    for i, piece in enumerate(pieces):
        if i % 2:
            gaps.append(piece)
            continue
        w, g = piece
        words.extend(w)
        gaps.extend(g)
    return tuple(words), tuple(gaps)


def name_forms(first: str | None, middles: Iterable[str], last: str | None, subtype: str,
               nicknames: dict | None = None) -> list[Form]:
    """The forms of one person's name (any part may be missing).

    ``nicknames`` maps a lower-cased first name to the names it may be written as (both
    ways: ``robert`` -> ``bob``, ``bob`` -> ``robert``).
    """
    middles = [m for m in middles if tokens(m)]
    firsts = _part_variants(first) if first else []
    if first and nicknames:
        key = "".join(tokens(first))
        firsts += [((n,), ()) for n in sorted(nicknames.get(key, ())) if n != key]
    lasts = _part_variants(last) if last else []
    mids = [v for m in middles for v in _part_variants(m)[:1]]
    out: list[Form] = []

    def add(words, gaps):
        out.append(Form(words, gaps, subtype))

    first_initial = ((tokens(first)[0][0],), ()) if first else None
    mid_initials = [((tokens(m)[0][0],), ()) for m in middles if tokens(m)[0] not in PARTICLES]
    for L in lasts:
        for F in firsts:
            add(*_concat(F, SPACE, L))
            add(*_concat(L, COMMA, F))
            add(*_concat(L, SPACE, F))
            if mids:  # every middle part as written ("bin Khalid"), then each middle initial
                seq = F
                for M in mids:
                    seq = _concat(seq, SPACE, M)
                add(*_concat(seq, SPACE, L))
                add(*_concat(L, COMMA, seq))
            for mi in mid_initials:
                add(*_concat(F, SPACE, mi, INITIAL, L))
        if first_initial is not None:
            add(*_concat(first_initial, INITIAL, L))
            for mi in mid_initials:
                add(*_concat(first_initial, INITIAL, mi, INITIAL, L))
    singles = firsts + lasts
    for part in [last or "", *middles]:  # the parts of "Al-Qahtani", "Stone-Lyle", "bin Khalid"
        singles += [((t,), ()) for t in tokens(part) if t not in PARTICLES]
    seen = set()
    for words, gaps in singles:
        if len(words) == 1 and (words[0] in PARTICLES or len(words[0]) < 2 or words in seen):
            continue
        seen.add(words)
        out.append(Form(words, gaps, subtype, "name" if len(words) == 1 else None))
    return out


def phrase_forms(phrase: str, subtype: str, cue: str = "place") -> list[Form]:
    """The forms of an institution, town, street or e-mail address: its tokens, any one
    punctuation mark and spaces between them (``St. Agatha's``, ``St Agathas``); a street
    or unit word also as its usual abbreviation (``Road``, ``Rd``)."""
    toks = tuple(tokens(phrase))
    if not toks:
        return []
    variants = {toks}
    for i, t in enumerate(toks):
        for alt in _ABBREVIATIONS.get(t, ()):
            variants |= {v[:i] + (alt,) + v[i + 1:] for v in variants}
    return [Form(v, (PHRASE,) * (len(v) - 1), subtype, cue if len(v) == 1 else None) for v in sorted(variants)]


def number_pattern(digits: str, kind: str) -> str | None:
    """A regex for a number's digits with or without separators (``004-829-13``); a phone
    also as its last seven digits and with a leading ``1``; leading zeros may be left out.
    None for fewer than four digits (too common to be an identifier)."""
    digits = "".join(ch for ch in digits if ch.isdecimal())
    if len(digits) < 4:
        return None
    alts = {digits}
    if kind == "PHONE" and len(digits) == 10:
        alts |= {digits[3:], "1" + digits}
    if digits.startswith("0") and len(digits.lstrip("0")) >= 4:
        alts.add(digits.lstrip("0"))
    sep = r"[ \t.()/-]{0,2}"
    return "|".join(sep.join(alt) for alt in sorted(alts, key=len, reverse=True))


def date_pattern(day: date) -> str:
    """A regex for a birth date's usual forms: ``3/2/1948``, ``03-02-48``, ``1948-03-02``,
    ``March 2, 1948``, ``2 Mar 1948``."""
    m, d, y = day.month, day.day, day.year
    month = _MONTHS[m - 1]
    mon = rf"{month[:3]}(?:{month[3:]}|\.)?" if len(month) > 3 else month
    yy = rf"(?:{y}|{y % 100:02d})"
    return "|".join([rf"0?{m}[/.-]0?{d}[/.-]{yy}", rf"{y}-{m:02d}-{d:02d}",
                     rf"{mon}[ \t]+0?{d}(?:st|nd|rd|th)?,?[ \t]+{y}",
                     rf"0?{d}[ \t]+{mon},?[ \t]+{y}"])


@lru_cache(maxsize=1)
def _plain() -> frozenset:
    """Plain words: common, clinical and stop words (lower case)."""
    return gazetteers.load("common_words") | gazetteers.load("clinical_words") | gazetteers.load("stop_words")


@lru_cache(maxsize=1)
def name_cues() -> frozenset:
    """Titles and relation words (lower case, without a full stop)."""
    return frozenset(w.rstrip(".") for w in gazetteers.load("titles") | gazetteers.load("relations")) | {
        "dr", "nurse", "rn", "pt", "patient", "dtr"}


def _mixed_case(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return any(c.isupper() for c in letters) and any(c.islower() for c in letters) and \
        sum(c.isupper() for c in letters) < 0.6 * len(letters)


_LAST: tuple = ("", [])


def note_tokens(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, lower-cased word)`` of each :data:`TOKEN` of ``text``; the last note's are
    kept, as the matchers of a site (its tables, its lists, what mining learnt) read one note
    after another (one look-up, safe between threads: the pair is replaced whole)."""
    global _LAST
    last = _LAST
    if last[0] is text:
        return last[1]
    if text.isascii():  # lower-casing keeps the offsets
        # Tokens and the gaps between them from one split(), no match objects: part 2k + 1 is
        # token k, and the running sum of the parts' lengths gives its start and end.
        parts = _ASCII_TOKEN.split(text.lower())
        bounds = list(accumulate(map(len, parts)))
        toks = list(zip(bounds[0:-1:2], bounds[1::2], parts[1::2]))
    else:
        toks = [(m.start(), m.end(), m.group().lower()) for m in TOKEN.finditer(text)]
    _LAST = (text, toks)
    return toks


class Matcher:
    """Finds the forms of known identifiers (and number and date patterns) in notes.

    Parameters
    ----------
    forms : iterable of Form
    patterns : iterable of (regex source, subtype)
        Numbers and dates (:func:`number_pattern`, :func:`date_pattern`), matched
        case-insensitively, never inside a longer number or word.
    allow : frozenset
        Lower-cased words the site knows are safe: plain words for the plain-word rule.
    """

    def __init__(self, forms: Iterable[Form] = (), patterns: Iterable[tuple[str, str]] = (),
                 allow: frozenset = frozenset()):
        index: dict[str, list[Form]] = {}
        for f in forms:
            index.setdefault(f.words[0], []).append(f)
        for fs in index.values():
            fs.sort(key=lambda f: -len(f.words))
        self.index = index
        self.allow = allow
        by_sub: dict[str, list[str]] = {}
        for src, sub in patterns:
            if src:
                by_sub.setdefault(sub, []).append(src)
        self.patterns = [(regex.compile(r"(?<![\p{L}\p{Nd}])(?:" + "|".join(srcs) + r")(?![\p{L}\p{Nd}])",
                                        regex.I), sub) for sub, srcs in by_sub.items()]

    def __bool__(self) -> bool:
        return bool(self.index or self.patterns)

    def find(self, text: str) -> list[Span]:
        """Spans of every known identifier in ``text``, sorted, without overlaps (the longest
        form wins where two start together; an earlier match wins over a later one)."""
        found: list[tuple[int, int, str]] = []
        if self.index:
            toks = note_tokens(text)
            index, after = self.index, 0
            # only where a form's first word stands (a set look-up per token at C speed)
            for i in [i for i, tok in enumerate(toks) if tok[2] in index]:
                if i < after:  # inside the form found last
                    continue
                hit = self._match_at(text, toks, i)
                if hit is not None:
                    k, form = hit
                    found.append((toks[i][0], toks[i + k - 1][1], form.subtype))
                    after = i + k
        for rx, sub in self.patterns:
            found.extend((m.start(), m.end(), sub) for m in rx.finditer(text))
        found.sort(key=lambda x: (x[0], -x[1]))
        out: list[Span] = []
        for start, end, sub in found:
            if out and start < out[-1].end:
                continue
            out.append(make_span(start, end, sub))
        return out

    def _match_at(self, text, toks, i):
        for form in self.index.get(toks[i][2], ()):
            k = len(form.words)
            if i + k > len(toks):
                continue
            if any(toks[i + j][2] != form.words[j] for j in range(1, k)):
                continue
            if any(not form.gaps[j].fullmatch(text, toks[i + j][1], toks[i + j + 1][0]) for j in range(k - 1)):
                continue
            if form.cue is not None and not self._single_ok(text, toks[i][0], toks[i][1], form):
                continue
            return k, form
        return None

    def _single_ok(self, text: str, start: int, end: int, form: Form) -> bool:
        """The plain-word rule for a form of one word (module docstring)."""
        word = form.words[0]
        if word.isdecimal() or (word not in _plain() and word not in self.allow):
            return True
        before = text[max(0, start - 24):start]
        cue = _CUE_BEFORE.search(before)
        cues = name_cues() if form.cue == "name" else PLACE_CUES
        if cue and cue.group(1).lower() in cues:
            return True
        if form.cue == "name" and _SIGN_OFF_BEFORE.search(before) and _SIGN_OFF_AFTER.match(text, end):
            return True  # "-- ann, front desk"
        surface = text[start:end]
        if not (surface[:1].isupper() and surface[1:].islower()):
            return False
        if _SENTENCE_START.search(before) or (start == 0):
            return False
        line = _LINE.match(text, line_bounds(text, start)[0]).group()
        return _mixed_case(line)


def join(spans, found) -> list[Span]:
    """Predicted ``spans`` with the ``found`` spans of known identifiers added: a found span
    joins the predicted spans it overlaps into their union, with the found span's subtype
    (what the record says beats what the tagger guessed); other spans are kept as they are.

    >>> join([make_span(0, 5, "HOSPITAL")], [make_span(0, 12, "PATIENT")])
    [Span(start=0, end=12, category='NAME', subtype='PATIENT')]
    """
    if not found:
        return sorted(spans)
    items = sorted([(sp.start, sp.end, 1, sp) for sp in spans] + [(sp.start, sp.end, 0, sp) for sp in found])
    out: list[Span] = []
    group: list = []
    end = -1
    for item in items + [(1 << 62, 1 << 62, 2, None)]:
        if group and item[0] < end:
            group.append(item)
            end = max(end, item[1])
            continue
        if group:
            known = [sp for _, _, kind, sp in group if kind == 0]
            if known:
                keep = known[0]
                out.append(Span(min(g[0] for g in group), end, keep.category, keep.subtype))
            else:
                out.extend(sp for *_, sp in group)
        group, end = [item], item[1]
    return out

