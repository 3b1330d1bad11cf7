"""Annotation keys as the official i2b2 2014 evaluation script builds them.

Each span becomes a hashable key; comparing two sets of keys is the whole of
strict scoring. Names are upper-cased, so comparison is case-insensitive, and
keys are set members, so a duplicated tag counts once. The end offset is
always the last element of a key, so relaxed matching can group keys by
``key[:-1]`` and compare ends.

>>> from crfdeid.document import Span
>>> sp = Span(4, 13, "name", "doctor")
>>> span_key(sp)
('NAME', 'DOCTOR', 4, 13)
>>> span_key(sp, binary=True)
(4, 13)
>>> token_keys(sp, "Dr. John-Smith said")
[('NAME', 'DOCTOR', 4, 8), ('NAME', 'DOCTOR', 9, 13)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import schema

#: What the token metric counts: runs of ASCII letters and digits (the official script's).
TOKEN_RUN = re.compile(r"[A-Za-z0-9]+")
#: The same in any script (``token.v2``, for schemes other than i2b2's): runs of letters,
#: combining marks and digits, so ``José``, ``Αθήνα`` and ``山田`` are counted whole.
TOKEN_RUN_ANY = re.compile(r"[^\W_]+")


def _head(span, binary: bool, parent: bool) -> tuple:
    """The type part of a key: none (``binary``), the parent category (``parent``), or both names."""
    if binary:
        return ()
    if parent:
        return (span.category.upper(),)
    return (span.category.upper(), span.subtype.upper())


def span_key(span, binary: bool = False, parent: bool = False) -> tuple:
    """``(PARENT, SUBTYPE, start, end)``; ``(PARENT, start, end)`` when ``parent``;
    ``(start, end)`` when ``binary``."""
    return _head(span, binary, parent) + (span.start, span.end)


def token_keys(span, text: str, binary: bool = False, parent: bool = False,
               pattern: re.Pattern = TOKEN_RUN) -> list[tuple]:
    """One key per ``[A-Za-z0-9]+`` run (or ``pattern`` match) inside the span:
    ``(PARENT, SUBTYPE, run start, run end)`` (type part as in :func:`span_key`)."""
    head = _head(span, binary, parent)
    # pos/endpos keep match offsets absolute and stop runs at the span edges.
    return [head + (m.start(), m.end()) for m in pattern.finditer(text, span.start, span.end)]


def restrict(spans: Iterable, hipaa: bool = False, include_idnum: bool = False,
             categories: frozenset | None = None, scheme=None) -> list:
    """Spans kept by a view: HIPAA subtypes only and/or some parent categories or subtypes.

    ``categories`` holds upper-case parent category or subtype names; a span is
    kept when its category or its subtype is among them. The HIPAA labels are
    ``scheme``'s (default i2b2 2014).
    """
    allowed = ({s.upper() for s in (scheme or schema.DEFAULT).hipaa_subtypes(include_idnum)}
               if hipaa else None)
    out = []
    for sp in spans:
        sub, cat = sp.subtype.upper(), sp.category.upper()
        if allowed is not None and sub not in allowed:
            continue
        if categories is not None and cat not in categories and sub not in categories:
            continue
        out.append(sp)
    return out
