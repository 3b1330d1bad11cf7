"""A name's pieces joined by an apostrophe or a hyphen are one span with one type.

The CRF reads ``O'Connell`` as three tokens (``O``, ``'``, ``Connell``) and ``mary-kate`` as
three, and may tag them apart: ``Margaret O`` as DOCTOR and ``'Connell`` as PATIENT, or
``Brien`` of ``O'Brien`` alone, leaving ``O'`` in the output and giving the name two surrogates.
:func:`join_names` grows every name span over the word it stands in (letters joined by ``'``,
``’`` or ``-``, in any script and any case) and joins the spans inside that word into one, typed
as the name span with the most letters. A romanised given name's second syllable in small
letters is taken too (``Ji-ho``, ``Seo-yeon``: :func:`_syllable`). It does not take a possessive or a contraction
(``O'Brien's``: ``'s`` stays out), a hyphenated suffix (``-like``, ``-type``), a relation word,
title or clinical word glued by a hyphen (``DAUGHTER-MINDY``: only ``MINDY``), or an apostrophe
prefix other than ``O'``/``o'``/``D'`` (the French ``d'`` of ``le dossier d'Anne`` stays out).
A DATE span of letters inside an ``O'``/``D'`` surname (``Connell`` of ``O'Connell``) is such a
name too (PATIENT).

>>> from crfdeid.document import make_span
>>> text = "Margaret O'Connell, mary-kate o'neil's"
>>> [(text[s.start:s.end], s.subtype) for s in join_names(text, [
...     make_span(0, 10, "DOCTOR"), make_span(10, 18, "PATIENT"), make_span(20, 24, "PATIENT"),
...     make_span(32, 36, "PATIENT")])]
[("Margaret O'Connell", 'DOCTOR'), ('mary-kate', 'PATIENT'), ("o'neil", 'PATIENT')]
"""

from __future__ import annotations

from functools import lru_cache, partial

from ..document import Span
from .ruledata import lists, table

_R = table("joints").namespace()  # the patterns and words (crfdeid/_data/rules/joints.tsv)

_not_names = partial(lists, "relations", "titles", "clinical_words")


def _same_case(a: str, b: str) -> bool:
    """Pieces written alike: both lower case, or both starting with a capital."""
    return a[:1].isupper() == b[:1].isupper() or b.isupper()


def _syllable(inner: str, word: str) -> bool:
    """A romanised given name's second syllable (``Ji-ho``, ``Seo-yeon``, ``Min-jun``): a short
    capitalised piece, then two to four small letters that are no stop word nor the tail of a
    clinical compound (not ``-op`` of ``Post-op``, ``-up`` of ``Follow-up``)."""
    return (2 <= len(inner) <= 4 and inner[:1].isupper() and inner[1:].islower() and 2 <= len(word) <= 4
            and word.islower() and word not in _short_words())


@lru_cache(maxsize=1)
def _short_words() -> frozenset:
    return lists("stop_words") | _R.SHORT_WORDS


def _pieces(text: str, word) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _R.PIECE.finditer(text, word.start(), word.end())]


def _takes(text: str, inner: str, piece: tuple[int, int], join: str, after: bool) -> bool:
    """Whether a name takes ``piece``, glued to it by ``join`` before (``after``: after) it."""
    word = text[piece[0]:piece[1]]
    low = word.lower()
    if join == "-":
        return ((_same_case(inner, word) or (after and _syllable(inner, word)))
                and low not in _not_names() and not (after and low in _R.SUFFIXES))
    return low not in _R.TAILS if after else word in _R.PREFIXES


def _extent(text: str, sp: Span) -> tuple[int, int] | None:
    """The extent a name span takes in the word(s) it stands in, or None when it stands in none."""
    limit = min(len(text), sp.end + 64)
    first = _R.WORD.search(text, max(0, sp.start - 64), limit)
    while first is not None and first.end() <= sp.start:
        first = _R.WORD.search(text, first.end(), limit)
    if first is None or first.start() >= sp.end:
        return None
    last = first
    while last.end() < sp.end:
        nxt = _R.WORD.search(text, last.end(), limit)
        if nxt is None or nxt.start() >= sp.end:
            break
        last = nxt
    start, end = sp.start, sp.end
    if first.start() <= start:  # the span starts inside a word: it may take the pieces before
        pieces = _pieces(text, first)
        i = next(k for k, p in enumerate(pieces) if p[1] > start)
        inner = text[pieces[i][0]:pieces[i][1]]
        while i > 0 and _takes(text, inner, pieces[i - 1], text[pieces[i - 1][1]], after=False):
            i -= 1
        start = min(start, pieces[i][0])
    if last.end() >= end:  # the span ends inside a word: it may take the pieces after
        pieces = _pieces(text, last)
        j = max(k for k, p in enumerate(pieces) if p[0] < end)
        inner = text[pieces[j][0]:pieces[j][1]]
        while j + 1 < len(pieces) and _takes(text, inner, pieces[j + 1], text[pieces[j][1]], after=True):
            j += 1
        end = max(end, pieces[j][1])
    return start, end


def join_names(text: str, spans, dates: bool = True) -> list[Span]:
    """``spans`` with every name span grown over the pieces of its word and joined with the
    spans inside it (module docstring); other spans unchanged. Sorted and disjoint when the
    input was. ``dates``: a DATE span inside an ``O'``/``D'`` surname is a PATIENT (i2b2 labels)."""
    spans = sorted(spans)
    dates = dates and any(sp.subtype == "DATE" for sp in spans)
    if not dates and not any(sp.category == "NAME" for sp in spans):
        return spans
    grown: list[tuple[int, int, Span, int]] = []  # start, end, the span, letters of its own
    for sp in spans:
        letters = sum(c.isalpha() for c in text[sp.start:sp.end])
        if sp.category == "NAME":
            ext = _extent(text, sp)
            grown.append((*(ext or (sp.start, sp.end)), sp, letters))
            continue
        word = _R.WORD.search(text, max(0, sp.start - 3), sp.end + 64) if dates and sp.subtype == "DATE" else None
        if word is not None and word.start() <= sp.start and sp.end <= word.end() and _R.O_NAME.fullmatch(word.group()):
            grown.append((word.start(), word.end(), Span(sp.start, sp.end, "NAME", "PATIENT"), letters))
            continue
        grown.append((sp.start, sp.end, sp, -1))
    grown.sort(key=lambda g: (g[0], g[1]))
    out: list[Span] = []
    best: list = []  # the output span's best name: [letters, span]
    for start, end, sp, letters in grown:
        prev = out[-1] if out else None
        if prev is not None and start < prev.end and (letters >= 0 or prev.category == "NAME"):
            if letters > best[0]:
                best[:] = [letters, sp]
            keep = best[1]
            out[-1] = Span(prev.start, max(prev.end, end), keep.category, keep.subtype)
            continue
        out.append(Span(start, end, sp.category, sp.subtype))
        best = [letters, sp]
    return out
