"""Canaries: made-up identifiers planted in sampled notes, which the model is not shown and the
reviewers are not told of, so that each reviewer's miss rate is measured, not assumed.

``audit sample --canaries N`` plants one canary in each of ``N`` drawn notes (seeded), in the
review store's copy only (the release is not touched). A canary is drawn the way surrogates
are: a line of a drawn note that holds identifiers the model found (another note's first, else
its own) is copied with every such identifier replaced by a surrogate from the surrogate
generators (:class:`crfdeid.deid.surrogate.Surrogator`, seeded), and inserted at the start of a
line of the note away from the model's spans. One of the replaced values is the canary. No
template and no list of names lives here: a canary reads like the notes it is drawn from, and
a regular expression that finds it finds the notes' own lines too. The manifest records each
canary's place, type and digest; reviewers find it or not like any identifier. The audit's
findings see the note without it (:func:`strip`, :func:`from_store`), ``verify`` checks it is
where the manifest says, and the report gives each reviewer's canary recall: below
:data:`MIN_RECALL` the audit fails (a reviewer who missed a planted identifier missed real ones
too). What is left to tell a canary: a line whose wording another drawn note also holds.
"""

from __future__ import annotations

import hashlib
import random

from ..deid.surrogate import Surrogator
from ..document import Document, make_span
from ..errors import CrfdeidError
from ..schema import parent_of

#: A reviewer whose canary recall is below this fails the audit.
MIN_RECALL = 0.9
#: Longest line a canary is drawn from (characters).
MAX_LINE = 240


def _known(subtype: str) -> bool:
    try:
        parent_of(subtype)
    except KeyError:
        return False
    return True


def lines(text: str, spans) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """The lines of ``text`` holding at least one span of ``spans`` (``(start, end, subtype)``)
    wholly, each with those spans in line offsets."""
    out, at = [], 0
    for line in text.split("\n"):
        end = at + len(line)
        inside = [(s - at, e - at, t) for s, e, t in spans if at <= s < e <= end and _known(t)]
        if inside and len(line) <= MAX_LINE and not any(s < at < e or s < end < e for s, e, _ in spans):
            out.append((line, inside))
        at = end + 1
    return out


def _draw(pool, rng: random.Random) -> tuple[str, int, int, str]:
    """``(line, start, end, subtype)``: a pool line with its identifiers replaced by surrogates,
    and the place of the one that is the canary."""
    line, spans = rng.choice(pool)
    doc = Document("canary", line, [make_span(s, e, t) for s, e, t in spans])
    new = Surrogator(seed=rng.randrange(1, 2**31)).surrogate(doc)
    sp = rng.choice(new.spans)
    return new.text, sp.start, sp.end, sp.subtype


def plant(text: str, spans, rng: random.Random, pool=()) -> tuple[str, dict]:
    """``(text with a canary line, the canary)``: drawn from ``pool`` (:func:`lines` of other
    notes), else from the note's own lines; inserted at a line start that no span of ``spans``
    (``(start, end, subtype)``) crosses, else at the end on a line of its own.

    Raises
    ------
    CrfdeidError
        Neither the pool nor the note has a line with an identifier to draw a canary from.
    """
    source = list(pool) or lines(text, spans)
    if not source:
        raise CrfdeidError("no line with an identifier the model found to draw a canary from: plant fewer "
                           "canaries (--canaries)")
    value_line, a, b, subtype = _draw(source, rng)
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n" and i + 1 < len(text)]
    free = [p for p in starts if not any(s < p < e for s, e, *_ in spans)]
    if free:
        at = rng.choice(free)
        line, offset = value_line + "\n", 0
    else:
        at = len(text)
        line, offset = "\n" + value_line, 1
    start = at + offset + a
    canary = {"at": at, "length": len(line), "start": start, "end": start + (b - a), "subtype": subtype,
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
