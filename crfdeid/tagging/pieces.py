"""How a long note is cut for tagging: :class:`Pieces`, the one mechanism every caller uses.

A note longer than a piece (``python -m crfdeid tag``, the Spark job, the HTTP service and
the review app's suggestions all tag through :meth:`crfdeid.tagging.model.TaggingModel.tag_each`)
is cut into pieces so that memory stays bounded. A cut loses context: a name cut in two is a
first name without its surname and a surname without its title, and a piece tagged alone
can miss either half (issue 46: 40 of 400,000 names leaked their second half). So:

- each piece ends at a safe point: after a line break in its second half when there is one,
  else after a sentence end (``.``, ``?`` or ``!`` then white space), else at white space;
- each piece is tagged inside a window that reaches :attr:`Pieces.overlap` characters into
  its neighbours on both sides (also ending at safe points), so a name at a cut is seen
  whole, with its context, by the windows on both sides;
- the spans of all windows are merged (:func:`merge`): a span that overlaps another from a
  neighbouring window becomes their union (recall first), typed and scored as the span that
  lies farthest from its own window's cut (the one tagged with the most context).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..document import Span
from ..text.tokenize import ABBREVIATIONS

#: Characters of a piece (``python -m crfdeid tag``'s notes longer than this are cut).
PIECE_CHARS = 250_000
#: Characters each window reaches into its neighbours (about 500 tokens: more than a
#: segment of 200 tokens, the longest sequence the CRF labels at once).
OVERLAP_CHARS = 2_000

_SENTENCE_END = re.compile(r"[.?!][ \t]")
_SPACE = re.compile(r"[ \t\n\r\f\v]")
_WORD = re.compile(r"[^\W\d_]+$")


def _ends_sentence(text: str, at: int) -> bool:
    """Whether the ``.?!`` at ``at`` ends a sentence as :func:`crfdeid.text.tokenize.segments`
    decides: after a word of two letters or more that is no title or abbreviation (``Dr.``)."""
    word = _WORD.search(text, max(0, at - 40), at)
    return word is not None and len(word.group()) > 1 and word.group().lower() not in ABBREVIATIONS


def _safe(text: str, lo: int, hi: int, last: bool = True) -> int:
    """The last (else first) safe place to cut ``text`` in ``(lo, hi]``: after a line break,
    else after a sentence end, else after white space; -1 when there is none."""
    if lo >= hi:
        return -1
    cut = text.rfind("\n", lo, hi) if last else text.find("\n", lo, hi)
    if cut >= 0:
        return cut + 1
    for pattern in (_SENTENCE_END, _SPACE):
        ends = [m.end() for m in pattern.finditer(text, lo, hi)
                if pattern is _SPACE or _ends_sentence(text, m.start())]
        if ends:
            return ends[-1] if last else ends[0]
    return -1


def safe_point(text: str, lo: int, hi: int) -> int:
    """The latest safe place to cut ``text`` in ``(lo, hi]``: after a line break, else after a
    sentence end, else after white space, else ``hi``.

    >>> safe_point("Seen. Dr. Ann Lee", 0, 16), safe_point("a\\nb. c d", 0, 9), safe_point("abcdef", 0, 4)
    (6, 2, 4)
    """
    cut = _safe(text, lo, hi)
    return hi if cut <= lo else cut


def _reach(text: str, at: int, r: int) -> int:
    """Where a window around the cut ``at`` ends on the side ``r`` points to (``-r``: before
    it): the safe point nearest to ``|r|`` characters away within ``|r|`` to ``2|r|``, else the
    one farthest from ``at`` within ``|r|``, else the nearest within ``2|r|`` to ``4|r|``, else
    ``|r|`` away (within the text)."""
    n = len(text)
    if r < 0:
        near = max(0, at + r)
        if near == 0:
            return 0
        cut = _safe(text, max(0, at + 2 * r), near)
        if cut < 0:
            cut = _safe(text, near, at - 1, last=False)
        if cut < 0:
            cut = _safe(text, max(0, at + 4 * r), max(0, at + 2 * r)) if at + 4 * r > 0 else 0
        return near if cut < 0 else cut
    near = at + r
    if near >= n:
        return n
    cut = _safe(text, near, min(n, at + 2 * r), last=False)
    if cut < 0:
        cut = _safe(text, at + 1, near)
    if cut < 0:
        cut = _safe(text, min(n, at + 2 * r), at + 4 * r, last=False) if at + 4 * r < n else n
    return near if cut < 0 else cut


@dataclass(frozen=True)
class Pieces:
    """Pieces of ``size`` characters tagged in windows that reach ``overlap`` characters further.

    ``overlap`` ``None``: :data:`OVERLAP_CHARS`, at most a fifth of ``size``.

    >>> p = Pieces(12, 4)
    >>> p.windows("Seen today. Dr. Ann Lee called. Stable.")
    [(0, 20), (5, 32), (20, 39), (24, 39)]
    """

    size: int = PIECE_CHARS
    overlap: int | None = None

    @property
    def reach(self) -> int:
        """Characters a window reaches past its piece on each side."""
        return min(OVERLAP_CHARS, self.size // 5) if self.overlap is None else self.overlap

    def cuts(self, text: str) -> list[int]:
        """Where the pieces of ``text`` begin and the last ends (``[0, ..., len(text)]``)."""
        out, a, n = [0], 0, len(text)
        while a < n:
            end = a + self.size
            a = n if end >= n else safe_point(text, a + self.size // 2, end)
            out.append(a)
        return out

    def windows(self, text: str, cuts: list[int] | None = None) -> list[tuple[int, int]]:
        """``(start, end)`` of the window each piece of ``text`` is tagged in: the piece and
        about :attr:`reach` characters of each neighbour, cut at safe points (``cuts``: the
        pieces' :meth:`cuts`, when the caller has them: finding them is most of the work)."""
        cuts, n, r = self.cuts(text) if cuts is None else cuts, len(text), self.reach
        out = []
        for a, b in zip(cuts, cuts[1:]):
            start = 0 if a == 0 else _reach(text, a, -r)
            end = n if b == n else _reach(text, b, r)
            out.append((start, end))
        return out


def merge(found: list[tuple[tuple[int, int], dict]], n: int) -> dict:
    """``{span: confidence}`` of a note of ``n`` characters from its windows' spans.

    ``found``: each window's ``(start, end)`` and its ``{span: confidence}`` (offsets into the
    note). Spans that overlap across windows become one span, their union; its type and
    confidence are those of the span farthest from its own window's cut (a note's own start
    and end are not cuts), the longest on a tie.

    >>> a, b = Span(10, 14, "NAME", "PATIENT"), Span(10, 20, "NAME", "DOCTOR")
    >>> merge([((0, 14), {a: 0.5}), ((5, 30), {b: 0.9})], 30)
    {Span(start=10, end=20, category='NAME', subtype='DOCTOR'): 0.9}
    """
    inf = float("inf")
    spans = []
    for (w0, w1), conf in found:
        for sp, c in conf.items():
            far = min(sp.start - w0 if w0 > 0 else inf, w1 - sp.end if w1 < n else inf)
            spans.append((sp, c, far))
    spans.sort(key=lambda t: (t[0].start, t[0].end))
    out: dict[Span, float] = {}
    group: list = []
    for item in [*spans, None]:
        if item is not None and group and item[0].start < max(sp.end for sp, _, _ in group):
            group.append(item)
            continue
        if group:
            best, c, _ = max(group, key=lambda t: (t[2], len(t[0])))
            start, end = min(sp.start for sp, _, _ in group), max(sp.end for sp, _, _ in group)
            out[replace(best, start=start, end=end) if (start, end) != (best.start, best.end) else best] = c
        group = [] if item is None else [item]
    return out
