"""The one BIO encoder and decoder: spans <-> per-token labels.

Labels are ``B-<SUBTYPE>``, ``I-<SUBTYPE>`` and ``O``; the parent category is
derived from the subtype through a label scheme (:mod:`crfdeid.schema`; i2b2 2014
unless one is given), and a subtype is written in the scheme's spelling. The scheme is data
(:data:`BIO`, as seqeval's schemes are): :func:`encode`, :func:`decode` and the
tagger's decoding all read labels through :func:`split_label` and write them with
:func:`join_label`, and a malformed label raises :class:`~crfdeid.errors.LabelError`
naming it.

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
from .errors import LabelError


class BIOScheme(NamedTuple):
    """A BIO tagging scheme as data: the prefix that begins a chunk, the one that continues it,
    the label outside every chunk, and what joins a prefix to a subtype (the PHI labels
    themselves are a :class:`crfdeid.schema.Scheme`)."""

    begin: str = "B"
    inside: str = "I"
    outside: str = "O"
    sep: str = "-"


#: The scheme crfdeid tags with.
BIO = BIOScheme()
OUTSIDE = BIO.outside


def split_label(label: str, scheme: BIOScheme = BIO) -> tuple[str, str | None]:
    """``(prefix, subtype)`` of a label; ``(outside, None)`` for the outside label.

    >>> split_label("B-DOCTOR"), split_label("O")
    (('B', 'DOCTOR'), ('O', None))
    >>> split_label("DOCTOR")
    Traceback (most recent call last):
    ...
    crfdeid.errors.LabelError: malformed label 'DOCTOR': expected O, B-<SUBTYPE> or I-<SUBTYPE>
    """
    if label == scheme.outside:
        return label, None
    prefix, sep, sub = label.partition(scheme.sep)
    if not sep or not sub or prefix not in (scheme.begin, scheme.inside):
        raise LabelError(f"malformed label {label!r}: expected {scheme.outside}, "
                         f"{scheme.begin}{scheme.sep}<SUBTYPE> or {scheme.inside}{scheme.sep}<SUBTYPE>")
    return prefix, sub


def join_label(prefix: str, subtype: str, scheme: BIOScheme = BIO) -> str:
    """The label for ``prefix`` and ``subtype``: ``join_label("I", "DATE") == "I-DATE"``."""
    return f"{prefix}{scheme.sep}{subtype}"


class Problem(NamedTuple):
    """A span the encoder could not place exactly, and why."""

    span: Span
    reason: str  # "misaligned" (edge inside a token), "no-token", or "overlap"


class Encoded(NamedTuple):
    labels: list
    problems: list


def encode(tokens, spans, misaligned: str = "expand", scheme=None) -> Encoded:
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
    scheme : crfdeid.schema.Scheme, optional
        Labels are written in its spelling; without one, upper-cased (i2b2 2014).

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
        sub = sp.subtype.upper() if scheme is None else scheme.canonical(sp.subtype)
        labels[idx[0]] = join_label(BIO.begin, sub)
        inside = join_label(BIO.inside, sub)
        for k in idx[1:]:
            labels[k] = inside
    return Encoded(labels, problems)


def decode(labels, tokens, scheme=None) -> list[Span]:
    """Spans (half-open character offsets) from per-token BIO labels.

    ``I-X`` after ``O`` or after another subtype starts a new span (see module doc).
    Parents come from ``scheme`` (default i2b2 2014).

    Raises
    ------
    LabelError
        A label that is not ``O``, ``B-X`` or ``I-X``.
    """
    if len(labels) != len(tokens):
        raise ValueError(f"{len(labels)} labels for {len(tokens)} tokens")
    scheme = schema.DEFAULT if scheme is None else scheme
    spans = []
    cur_sub = None
    cur_start = cur_end = 0
    for lab, tok in zip(labels, tokens):
        if lab == OUTSIDE:
            if cur_sub is not None:
                spans.append(_span(cur_start, cur_end, cur_sub, scheme))
                cur_sub = None
            continue
        prefix, sub = split_label(lab)
        if prefix == BIO.inside and sub == cur_sub:
            cur_end = tok.end
            continue
        if cur_sub is not None:
            spans.append(_span(cur_start, cur_end, cur_sub, scheme))
        cur_sub, cur_start, cur_end = sub, tok.start, tok.end
    if cur_sub is not None:
        spans.append(_span(cur_start, cur_end, cur_sub, scheme))
    return spans


def _span(start: int, end: int, subtype: str, scheme) -> Span:
    return Span(start, end, scheme.parent_of(subtype), scheme.canonical(subtype))


def labels_for(subtypes) -> list[str]:
    """All BIO labels for the given subtypes, ``O`` first."""
    return [OUTSIDE] + [join_label(p, s) for s in subtypes for p in (BIO.begin, BIO.inside)]
