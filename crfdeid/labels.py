"""The one BIO encoder and decoder: spans <-> per-token labels.

Labels are ``B-<SUBTYPE>``, ``I-<SUBTYPE>`` and ``O``; the parent category is
derived from the subtype (:mod:`crfdeid.schema`).

Decoding policy (documented choice, as in conlleval): an ``I-X`` that follows
``O`` or a label of another subtype starts a new span of subtype ``X``; the
CRF rarely produces it, and dropping it would hide PHI.

>>> from crfdeid.text.tokenize import tokenize
>>> from crfdeid.document import Span
>>> text = "Dr. Ann Lee saw him"
>>> toks = tokenize(text)
>>> enc = encode(toks, [Span(4, 11, "NAME", "DOCTOR")])
>>> enc.labels
['O', 'O', 'B-DOCTOR', 'I-DOCTOR', 'O', 'O']
>>> decode(enc.labels, toks)
[Span(start=4, end=11, category='NAME', subtype='DOCTOR')]
"""

from __future__ import annotations

import bisect
from typing import NamedTuple

from . import schema
from .document import Span

OUTSIDE = "O"
#: The tagging scheme as data: allowed prefixes and which start a chunk.
SCHEME = {"prefixes": ("B", "I"), "begin": "B", "inside": "I", "outside": OUTSIDE}


class Problem(NamedTuple):
    """A span the encoder could not place exactly, and why."""

    span: Span
    reason: str  # "misaligned" (edge inside a token), "no-token", or "overlap"


class Encoded(NamedTuple):
    labels: list
    problems: list


def label_subtype(label: str) -> str | None:
    """``'B-DOCTOR'`` -> ``'DOCTOR'``; ``'O'`` -> ``None``."""
    return None if label == OUTSIDE else label[2:]


def encode(tokens, spans, misaligned: str = "expand") -> Encoded:
    """Per-token BIO labels for ``spans``.

    Parameters
    ----------
    tokens : sequence of Token
    spans : iterable of Span
    misaligned : {"expand", "skip"}
        What to do with a span whose start or end falls inside a token:
        ``"expand"`` labels every token it touches (errs towards redaction),
        ``"skip"`` leaves those tokens ``O``. Either way the span is reported in
        ``problems``; nothing is shifted silently.

    Returns
    -------
    Encoded
        ``labels`` (one per token) and ``problems`` (misaligned, token-less or
        overlapping spans; an overlapping span keeps the tokens of the first).
    """
    if misaligned not in ("expand", "skip"):
        raise ValueError(f"misaligned must be 'expand' or 'skip', not {misaligned!r}")
    labels = [OUTSIDE] * len(tokens)
    starts = [t.start for t in tokens]
    problems = []
    for sp in sorted(spans):
        first = bisect.bisect_right(starts, sp.start) - 1
        if first < 0 or tokens[first].end <= sp.start:
            first += 1  # span starts in white space before token `first`
        idx = []
        j = first
        while j < len(tokens) and tokens[j].start < sp.end:
            idx.append(j)
            j += 1
        if not idx:
            problems.append(Problem(sp, "no-token"))
            continue
        aligned = tokens[idx[0]].start == sp.start and tokens[idx[-1]].end == sp.end
        if not aligned:
            problems.append(Problem(sp, "misaligned"))
            if misaligned == "skip":
                continue
        if any(labels[k] != OUTSIDE for k in idx):
            problems.append(Problem(sp, "overlap"))
            continue
        sub = sp.subtype.upper()
        labels[idx[0]] = "B-" + sub
        for k in idx[1:]:
            labels[k] = "I-" + sub
    return Encoded(labels, problems)


def decode(labels, tokens) -> list[Span]:
    """Spans (half-open character offsets) from per-token BIO labels.

    ``I-X`` after ``O`` or after another subtype starts a new span (see module doc).
    """
    if len(labels) != len(tokens):
        raise ValueError(f"{len(labels)} labels for {len(tokens)} tokens")
    spans = []
    cur_sub = None
    cur_start = cur_end = 0
    for lab, tok in zip(labels, tokens):
        if lab == OUTSIDE:
            if cur_sub is not None:
                spans.append(_span(cur_start, cur_end, cur_sub))
                cur_sub = None
            continue
        prefix, sub = lab[0], lab[2:]
        if prefix == "I" and sub == cur_sub:
            cur_end = tok.end
            continue
        if cur_sub is not None:
            spans.append(_span(cur_start, cur_end, cur_sub))
        cur_sub, cur_start, cur_end = sub, tok.start, tok.end
    if cur_sub is not None:
        spans.append(_span(cur_start, cur_end, cur_sub))
    return spans


def _span(start: int, end: int, subtype: str) -> Span:
    return Span(start, end, schema.parent_of(subtype), subtype)


def labels_for(subtypes) -> list[str]:
    """All BIO labels for the given subtypes, ``O`` first."""
    return [OUTSIDE] + [f"{p}-{s}" for s in subtypes for p in SCHEME["prefixes"]]
