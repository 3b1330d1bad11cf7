"""Per-patient surrogate state: date shift, original -> surrogate maps, known persons."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

from .guard import Units
from .rng import normalize


class NoDraw(Exception):
    """No acceptable surrogate among the draws of a generator (the caller falls back)."""


@dataclass
class PatientState:
    """Everything that keeps one patient's surrogates consistent across notes."""

    patient: str
    letters: dict                                  # initial -> surrogate initial (a derangement)
    shift_days: int | None = None                  # drawn on the first note surrogated
    maps: dict = field(default_factory=dict)       # (kind, normalised original) -> surrogate
    taken: dict = field(default_factory=dict)      # (kind, normalised surrogate) -> original
    originals: set = field(default_factory=set)    # normalised original PHI strings and name words
    persons: set = field(default_factory=set)      # tuples of lower-cased full-name words
    later_words: set = field(default_factory=set)  # words after the first of those (surnames)
    over_89: bool = False                          # a note or the record says the patient is over 89
    births: set = field(default_factory=set)       # full dates written as the patient's birth date
    latest: dt.date | None = None                  # the latest other full date of the patient's notes
    # units (3+ characters) of every original PHI string of the patient: no surrogate may hold
    # one. Those of dates apart: a shifted date may read like another original date's year.
    cross: Units = field(default_factory=Units)
    cross_dates: Units = field(default_factory=Units)
    years: Counter = field(default_factory=Counter)  # year -> count, of the patient's full dates
    learned: set = field(default_factory=set)      # (doc id, hash of text) of the notes learnt
    order_evidence: Counter = field(default_factory=Counter)  # the patient's dates readable one way only, by order
    ok: Callable[[str], bool] | None = None       # the acceptance test of the span being replaced

    @contextmanager
    def checking(self, ok):
        """Within the block, :meth:`assign` also refuses draws for which ``ok(draw)`` is false."""
        self.ok = ok
        try:
            yield
        finally:
            self.ok = None

    def assign(self, kind: str, original: str, draw, limit: int = 50, reuse: bool = False) -> str:
        """The surrogate of ``original`` for ``kind``: remembered, or drawn by ``draw(attempt)``.

        A draw is refused when it equals the original or fails the acceptance test set by
        :meth:`checking` (a remembered surrogate that fails it is replaced by a new draw). It is
        passed over when it is another original PHI string of the patient or the surrogate of
        another original (so different originals get different surrogates). With ``reuse`` (the
        shape-keeping fallback: the last resort before a note is refused), when no draw is
        acceptable, the first one passed over only for being another original's surrogate, or
        another original of one or two digits (the rule on the patient's other PHI and the leak
        check begin at three characters; letters never, an initial is part of a name), is taken:
        one patient's PHI may hold every value of a shape (rooms ``0`` to ``9``).

        Raises
        ------
        NoDraw
            When none of ``limit`` draws is acceptable.
        """
        key = (kind, normalize(original))
        ok = self.ok
        old = self.maps.get(key)
        if old is not None and (ok is None or ok(old)):
            return old
        new = spare = None
        for attempt in range(limit):
            cand = draw(attempt if old is None else limit + attempt)
            norm = normalize(cand)
            if norm == key[1]:
                continue
            owner = self.taken.get((kind, norm))
            other = norm in self.originals
            if other or (owner is not None and owner != key[1]):
                short_number = len(norm) <= 2 and norm.isdigit()
                if reuse and spare is None and (not other or short_number) and (ok is None or ok(cand)):
                    spare = cand
                continue
            if ok is not None and not ok(cand):
                continue
            new = cand
            break
        if new is None:
            new = spare
        if new is None:
            raise NoDraw(f"no {kind} surrogate found after {limit} draws")
        self.maps[key] = new
        self.taken.setdefault((kind, normalize(new)), key[1])
        return new
