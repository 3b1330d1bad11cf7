"""Per-patient surrogate state: date shift, original -> surrogate maps, known persons."""

from __future__ import annotations

from dataclasses import dataclass, field

from .rng import normalize


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
    # doc_id -> ([(text, before, after) of its date groups], {its lower-cased date strings, 3+ chars})
    date_notes: dict = field(default_factory=dict)

    def assign(self, kind: str, original: str, draw, limit: int = 50) -> str:
        """The surrogate of ``original`` for ``kind``: remembered, or drawn by ``draw(attempt)``.

        A draw is refused when it equals the original, another original PHI
        string of the patient, or the surrogate of another original (so
        different originals get different surrogates).
        """
        key = (kind, normalize(original))
        if key in self.maps:
            return self.maps[key]
        new = None
        for attempt in range(limit):
            cand = draw(attempt)
            norm = normalize(cand)
            if norm == key[1] or norm in self.originals:
                continue
            owner = self.taken.get((kind, norm))
            if owner is not None and owner != key[1]:
                continue
            new = cand
            break
        if new is None:
            raise RuntimeError(f"no {kind} surrogate found after {limit} draws")
        self.maps[key] = new
        self.taken[(kind, normalize(new))] = key[1]
        return new
