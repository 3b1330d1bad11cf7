"""The privacy officer's view: how much gold PHI the predicted spans fully cover.

A gold PHI is *fully removed* when every ``[A-Za-z0-9]`` character of it lies
inside some predicted span of any type (punctuation and white space do not
identify anybody). *Leaked characters* are the gold letters and digits that
no predicted span covers, counted once per character position.

>>> from crfdeid.document import Span
>>> text = "Dr. John Smith"
>>> leak = Leak.of_document([Span(4, 14, "NAME", "DOCTOR")], [Span(4, 8, "NAME", "PATIENT")], text)
>>> leak.removed, leak.total, leak.leaked_chars
(0, 1, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

from .keys import TOKEN_RUN


@dataclass(frozen=True, slots=True)
class Leak:
    """Counts of fully removed gold PHI (distinct gold extents) and leaked characters."""

    removed: int = 0
    total: int = 0
    leaked_chars: int = 0
    phi_chars: int = 0

    def __add__(self, other: Leak) -> Leak:
        return Leak(self.removed + other.removed, self.total + other.total,
                    self.leaked_chars + other.leaked_chars, self.phi_chars + other.phi_chars)

    @property
    def fully_removed(self) -> float:
        """Share of gold PHI fully removed (1.0 when there is no gold PHI)."""
        return self.removed / self.total if self.total else 1.0

    @classmethod
    def of_document(cls, gold_spans, sys_spans, text: str) -> Leak:
        """The leak counts of one document."""
        covered: set[int] = set()
        for sp in sys_spans:
            covered.update(range(sp.start, sp.end))
        extents = sorted({(sp.start, sp.end) for sp in gold_spans})
        removed = 0
        phi = set()
        for start, end in extents:
            chars = [i for m in TOKEN_RUN.finditer(text, start, end) for i in range(m.start(), m.end())]
            phi.update(chars)
            removed += all(i in covered for i in chars)
        return cls(removed, len(extents), len(phi - covered), len(phi))

    def as_dict(self) -> dict:
        return {"fully_removed": self.fully_removed, "removed": self.removed, "total": self.total,
                "leaked_chars": self.leaked_chars, "phi_chars": self.phi_chars}
