"""Spans widened to token boundaries, without tokenizing the whole note again.

The CRF's spans start and end on token boundaries; a regex's need not (``Smith``
matched inside the one token ``Smithé``). Redaction, scoring and training all count
tokens, so every span the tagger returns is widened to the tokens it touches: never
narrowed, so no character a span covered is lost. Tokens never cross white space,
so the run of non-space characters around an offset, tokenized alone, gives the
note's own tokens there.

>>> from crfdeid.document import make_span
>>> text = "Dr. Smithé came"
>>> [(s.start, s.end) for s in to_token_bounds(text, [make_span(4, 9, "DOCTOR")])]
[(4, 10)]
"""

from __future__ import annotations

from ..document import Span, trim
from .tokenize import token_offsets

#: How far from an offset its run of non-space characters is read: a token longer than
#: this is cut there (a span then ends inside it, still covering what it covered).
REACH = 512


def _run(text: str, at: int) -> tuple[int, int]:
    """The run of non-space characters around offset ``at`` (at most :data:`REACH` each side)."""
    a, lo = at, max(0, at - REACH)
    while a > lo and not text[a - 1].isspace():
        a -= 1
    b, hi = at, min(len(text), at + REACH)
    while b < hi and not text[b].isspace():
        b += 1
    return a, b


def _snap(text: str, at: int, split_glued: bool, is_end: bool) -> int:
    """``at`` moved out to the edge of the token it falls inside (unchanged on a boundary)."""
    if at <= 0 or at >= len(text) or text[at - 1].isspace() or text[at].isspace():
        return at
    a, b = _run(text, at)
    for s, e in token_offsets(text[a:b], split_glued):
        if a + s < at < a + e:
            return a + e if is_end else a + s
    return at


def to_token_bounds(text: str, spans, split_glued: bool = True) -> list[Span]:
    """``spans`` with each start and end moved out to the token boundary around it, and
    white space at their edges left out (white space is never PHI, nor part of a token).

    Spans that come to overlap are joined into one with the first one's subtype; a span
    of white space only is dropped.
    """
    out: list[Span] = []
    for sp in sorted(spans):
        start, end = trim(text, sp.start, sp.end)
        if start >= end:
            continue
        start = _snap(text, start, split_glued, False)
        end = _snap(text, end, split_glued, True)
        if out and start < out[-1].end:
            last = out[-1]
            if end > last.end:
                out[-1] = Span(last.start, end, last.category, last.subtype)
            continue
        out.append(sp if (start, end) == (sp.start, sp.end) else Span(start, end, sp.category, sp.subtype))
    return out
