"""Canaries: made-up identifiers planted in sampled notes, which the model is not shown and the
reviewers are not told of, so that each reviewer's miss rate is measured, not assumed.

``audit sample --canaries N`` plants one canary in each of ``N`` drawn notes (seeded): a line
such as ``Call back 555-0147.`` inserted at the start of a line of the note, away from the
model's spans, in the review store's copy only (the release is not touched). Values are made
up: phones in the fictional range 555-0100..0199, record numbers of seven random digits, names
drawn from :data:`FIRST` and :data:`LAST` (invented by crfdeid's authors for this purpose). The
manifest records each canary's place, type and digest; reviewers find it or not like any
identifier. The audit's findings see the note without it (:func:`strip`, :func:`from_store`),
``verify`` checks it is where the manifest says, and the report gives each reviewer's canary
recall: below :data:`MIN_RECALL` the audit fails (a reviewer who missed a planted identifier
missed real ones too).
"""

from __future__ import annotations

import hashlib
import random

#: Made-up given names and family names (written for crfdeid; no source).
FIRST = ("Orla", "Teodor", "Maeve", "Ilias", "Wren", "Casimir", "Nell", "Piet", "Solveig", "Anouk")
LAST = ("Vantreese", "Quellbrook", "Harrowgate", "Ostrander", "Pellworth", "Dunmoore", "Kestervane", "Thorncliffe")
#: ``(subtype, line before the value, line after it)``.
TEMPLATES = (("PHONE", "Call back ", "."), ("MEDICALRECORD", "MRN: ", ""), ("PATIENT", "Spoke with ", " today."))
#: A reviewer whose canary recall is below this fails the audit.
MIN_RECALL = 0.9


def _value(subtype: str, rng: random.Random) -> str:
    if subtype == "PHONE":
        return f"555-01{rng.randrange(100):02d}"
    if subtype == "MEDICALRECORD":
        return str(rng.randrange(1_000_000, 10_000_000))
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def plant(text: str, spans, rng: random.Random) -> tuple[str, dict]:
    """``(text with a canary line, the canary)``: inserted at a line start that no span of
    ``spans`` (``(start, end, ...)``) crosses, else at the end on a line of its own."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n" and i + 1 < len(text)]
    free = [p for p in starts if not any(s < p < e for s, e, *_ in spans)]
    subtype, before, after = rng.choice(TEMPLATES)
    value = _value(subtype, rng)
    if free:
        at = rng.choice(free)
        line = f"{before}{value}{after}\n"
    else:
        at = len(text)
        line = f"\n{before}{value}{after}"
    start = at + line.index(value)
    canary = {"at": at, "length": len(line), "start": start, "end": start + len(value), "subtype": subtype,
              "sha256": hashlib.sha256(line.encode("utf-8")).hexdigest()}
    return text[:at] + line + text[at:], canary


def strip(text: str, canary: dict | None) -> str:
    """The note's text without its canary line."""
    if not canary:
        return text
    return text[:canary["at"]] + text[canary["at"] + canary["length"]:]


def in_place(text: str, canary: dict) -> bool:
    """Whether the store's text holds the canary line where the manifest says."""
    line = text[canary["at"]:canary["at"] + canary["length"]]
    return hashlib.sha256(line.encode("utf-8")).hexdigest() == canary["sha256"]


def _out(pos: int, canary: dict) -> int:
    at, n = canary["at"], canary["length"]
    return pos if pos <= at else at if pos < at + n else pos - n


def to_store(spans, canary: dict | None) -> list[tuple]:
    """Spans ``(start, end, *rest)`` of the release's text moved to the store's (canary in)."""
    if not canary:
        return [tuple(s) for s in spans]
    at, n = canary["at"], canary["length"]
    return [(s + n if s >= at else s, e + n if e > at else e, *rest) for s, e, *rest in spans]


def from_store(spans, canary: dict | None) -> list[tuple]:
    """Spans of the store's text moved to the release's: the canary's part of each dropped."""
    if not canary:
        return [tuple(s) for s in spans]
    out = []
    for s, e, *rest in spans:
        a, b = _out(s, canary), _out(e, canary)
        if a < b:
            out.append((a, b, *rest))
    return out


def caught(text: str, spans, canary: dict) -> bool:
    """Whether ``spans`` (store offsets) cover every letter and digit of the canary's value."""
    need = [k for k in range(canary["start"], canary["end"]) if text[k].isalnum()]
    return all(any(s <= k < e for s, e, *_ in spans) for k in need)


def choose(sample: list[str], n: int, seed: int) -> list[str]:
    """The ``n`` drawn notes that get a canary (seeded, sorted)."""
    if not 0 <= n <= len(sample):
        raise ValueError(f"--canaries must lie between 0 and the sample size ({len(sample)}), got {n}")
    return sorted(random.Random(f"{seed}/canaries").sample(sorted(sample), n))
