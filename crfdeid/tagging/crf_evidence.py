"""What the CRF thinks of any stretch of a note: the lowest P(PHI) (1 - P(O)) of the tokens it
overlaps, from the marginals the tagger has already computed.

A span the post-CRF chain made or changed (a rule's, a repeat, a widened or retyped span) carries
its step's confidence (1.0 for a rule's own span: ``Span.confidence``), which says nothing of the
model. The tagger records this as ``Span.crf_confidence``, and the surrogate gate reads it of a place a
rule made (:func:`crfdeid.deid.confident_places.model_doubt`; docs/deid.md, "The lead, implemented"): a
heading the Safe Harbor layer's place shapes took as a hospital that the CRF gave P(PHI) 0.145 is not
confidently a hospital, whatever the rule's 1.0 says.

>>> from crfdeid.text.tokenize import Token
>>> toks = [Token("Seen", 0, 4, False, False), Token("Moore", 5, 10, False, False),
...         Token("approach", 11, 19, False, False)]
>>> ev = Evidence.of(toks, [0.99, 0.855, 0.97])
>>> ev.lowest(5, 10), ev.lowest(0, 19), ev.lowest(20, 25)
(0.145, 0.01, None)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence


class Evidence:
    """Each token's ``(start, end, P(PHI))`` of one note, sorted by start (offsets into the note)."""

    __slots__ = ("starts", "ends", "p")

    def __init__(self, rows: list[tuple[int, int, float]]):
        rows.sort()
        self.starts = [a for a, _, _ in rows]
        self.ends = [b for _, b, _ in rows]
        self.p = [p for _, _, p in rows]

    @classmethod
    def of(cls, toks: Sequence, p_out: Sequence, offset: int = 0, keep: tuple[int, int] | None = None) -> Evidence:
        """From a tagged item's tokens and their P(O) (``None`` where not computed: no evidence there);
        ``offset`` shifts a piece's tokens into the note; ``keep``: only tokens starting in ``[a, b)``."""
        return cls(cls.rows(toks, p_out, offset, keep))

    @staticmethod
    def rows(toks: Sequence, p_out: Sequence, offset: int = 0,
             keep: tuple[int, int] | None = None) -> list[tuple[int, int, float]]:
        """The ``(start, end, P(PHI))`` rows of :meth:`of`."""
        lo, hi = keep if keep is not None else (0, float("inf"))
        return [(t.start + offset, t.end + offset, round(1.0 - p, 4)) for t, p in zip(toks, p_out)
                if p is not None and lo <= t.start + offset < hi]

    def lowest(self, start: int, end: int) -> float | None:
        """The lowest P(PHI) of the tokens ``[start, end)`` overlaps; None when none has a marginal."""
        i = bisect.bisect_right(self.ends, start)  # tokens do not overlap: ends sorted as starts
        j = bisect.bisect_left(self.starts, end)
        return min(self.p[i:j]) if i < j else None
