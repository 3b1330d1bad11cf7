"""What the token templates of one document share: line ranges and token texts.

Token templates are pure functions of ``(text, tokens)`` that run one after
another on the same document; several of them need the lines of the document
or the lower-cased token texts. :func:`per_document` computes such a value
once per document instead of once per template.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable
from typing import Any, TypeVar

_MEMOS: list = []  # the [text, tokens, result] of every per_document function
_T = TypeVar("_T")


def per_document(fn: Callable[[str, Any], _T]) -> Callable[[str, Any], _T]:
    """Remember ``fn(text, tokens)`` for the last document it saw (the same ``text`` and ``tokens`` objects).

    The result is shared between callers, which must not change it; :func:`forget`
    drops it (and the document) once the document's templates have run.
    """
    last: list = [None, None, None]
    _MEMOS.append(last)

    @functools.wraps(fn)
    def shared(text, tokens):
        if last[0] is not text or last[1] is not tokens:
            last[:] = text, tokens, fn(text, tokens)
        return last[2]
    return shared


def forget() -> None:
    """Drop what :func:`per_document` functions remember (a large note is not kept alive)."""
    for last in _MEMOS:
        last[:] = None, None, None


@per_document
def line_cuts(text: str, tokens) -> tuple:
    """``(0, ..., len(tokens))``: the index of the first token of every line, then the end.

    A line ends where the white space between two tokens holds a ``\\n``.

    >>> from crfdeid.text.tokenize import tokenize
    >>> text = "BP 120\\n\\nHR 80"
    >>> line_cuts(text, tokenize(text))
    (0, 2, 4)
    """
    n = len(tokens)
    cuts = [0]
    if n > 1:
        starts = [t.start for t in tokens]
        last = starts[-1]
        p = text.find("\n", tokens[0].end, last)
        while p >= 0:
            k = bisect.bisect_left(starts, p)  # the first token after the line break
            if tokens[k - 1].end <= p:  # in the white space between tokens k - 1 and k
                cuts.append(k)
                p = starts[k]  # the other breaks of this gap end the same line
            p = text.find("\n", p + 1, last)
    if n:
        cuts.append(n)
    return tuple(cuts)


def lines(text: str, tokens):
    """``(first, last + 1)`` token index ranges of the lines of ``text``."""
    cuts = line_cuts(text, tokens)
    return zip(cuts, cuts[1:])


def line_of(cuts: tuple, i: int) -> tuple[int, int]:
    """The ``(first, last + 1)`` token range of the line holding token ``i``."""
    j = bisect.bisect_right(cuts, i)
    return cuts[j - 1], cuts[j]


@per_document
def token_texts(text: str, tokens) -> tuple[list, list, list]:
    """The token texts, their lower-cased forms and whether each is alphabetic."""
    words = [t.text for t in tokens]
    return words, [w.lower() for w in words], list(map(str.isalpha, words))
