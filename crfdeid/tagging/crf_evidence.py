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
from array import array
from collections.abc import Sequence


class Evidence:
    """Each token's start, end and P(PHI) of one note, in the note's order (offsets into the note).

    Kept in arrays (16 bytes a token, not a tuple's 150): a note of 2 MB on one line has some 400,000
    tokens, tagged a piece at a time in bounded memory (``tests/test_robust_pipeline.py``)."""

    __slots__ = ("starts", "ends", "p")

    def __init__(self) -> None:
        self.starts, self.ends, self.p = array("q"), array("q"), array("d")

    @classmethod
    def of(cls, toks: Sequence, p_out: Sequence, offset: int = 0, keep: tuple[int, int] | None = None) -> Evidence:
        """From a tagged item's tokens and their P(O) (``None`` where not computed: no evidence there);
        ``offset`` shifts a piece's tokens into the note; ``keep``: only tokens starting in ``[a, b)``."""
        return cls().add(toks, p_out, offset, keep)

    def add(self, toks: Sequence, p_out: Sequence, offset: int = 0,
            keep: tuple[int, int] | None = None) -> Evidence:
        """This evidence with a piece's tokens after those it holds (:meth:`of`'s arguments; the pieces
        in the note's order, each keeping only its own part: the tokens stay in order)."""
        lo, hi = keep if keep is not None else (0, float("inf"))
        for t, p in zip(toks, p_out):
            a = t.start + offset
            if p is not None and lo <= a < hi:
                if self.starts and a < self.starts[-1]:
                    raise ValueError(f"evidence out of order at offset {a}")  # a caller's bug, never guessed
                self.starts.append(a)
                self.ends.append(t.end + offset)
                self.p.append(round(1.0 - p, 4))
        return self

    def lowest(self, start: int, end: int) -> float | None:
        """The lowest P(PHI) of the tokens ``[start, end)`` overlaps; None when none has a marginal."""
        i = bisect.bisect_right(self.ends, start)  # tokens do not overlap: ends sorted as starts
        j = bisect.bisect_left(self.starts, end)
        return min(self.p[i:j]) if i < j else None
