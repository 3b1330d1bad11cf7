"""Clinical tokenizer: regex-driven, offset-keeping, splits run-together tokens.

Tokens are maximal runs of one character class, with case transitions split so
that glued words separate (He et al. 2015, table 1)::

    PEND01/26/2098   -> PEND 01 / 26 / 2098
    ALMarital        -> AL Marital
    34712RadiologyExam -> 34712 Radiology Exam
    3041023MARY      -> 3041023 MARY
    (784)032-8966    -> ( 784 ) 032 - 8966

Every other non-space character (punctuation, symbols) is a token of its own,
so PHI boundaries fall on token boundaries. Tokens never overlap, and their
texts joined rebuild the text without its white space. Each token says whether
it touches its neighbour on the left/right (no white space in between), which
is how a feature can tell ``Since6/03/04`` from ``Since 6 / 03 / 04``.

>>> [t.text for t in tokenize("Since6/03/04 Dr.Smith")]
['Since', '6', '/', '03', '/', '04', 'Dr', '.', 'Smith']
>>> tokenize("x76221")[1]
Token(text='76221', start=1, end=6, glued_left=True, glued_right=False)
"""

from __future__ import annotations

from typing import NamedTuple

import regex

# Order matters: an upper-case run that precedes Capitalised word gives way to it
# (ALMarital -> AL + Marital); then Capitalised/lower words; then other upper runs.
_TOKEN = regex.compile(
    r"""
      [\p{Lu}\p{Lt}][\p{M}]*(?:[\p{Lu}\p{Lt}][\p{M}]*)*?(?=[\p{Lu}\p{Lt}][\p{M}]*\p{Ll})
                                          # upper run before a Capitalised word
    | [\p{Lu}\p{Lt}]?[\p{M}]*(?:\p{Ll}[\p{M}]*)+   # Word, word
    | (?:[\p{Lu}\p{Lt}][\p{M}]*)+         # WORD
    | (?:[\p{Lo}\p{Lm}][\p{M}]*)+         # caseless scripts
    | \p{Nd}+                             # digits
    | [^\s\p{L}\p{Nd}][\p{M}]*            # any other single character
    | \p{M}+                              # stray combining marks
    """,
    regex.VERBOSE,
)


class Token(NamedTuple):
    """A token: its text, half-open character offsets and whether it touches its neighbours."""

    text: str
    start: int
    end: int
    glued_left: bool
    glued_right: bool


def token_offsets(text: str) -> list[tuple[int, int]]:
    """Half-open ``(start, end)`` offsets of the tokens of ``text``, in order."""
    return [m.span() for m in _TOKEN.finditer(text)]


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into :class:`Token` objects with character offsets.

    Parameters
    ----------
    text : str
        The note text, unchanged.

    Returns
    -------
    list of Token
        Non-overlapping tokens in text order; ``text[t.start:t.end] == t.text``.
    """
    offsets = token_offsets(text)
    n = len(offsets)
    out = []
    prev_end = -1
    for i, (s, e) in enumerate(offsets):
        right = i + 1 < n and offsets[i + 1][0] == e
        out.append(Token(text[s:e], s, e, s == prev_end, right))
        prev_end = e
    return out


def boundaries(tokens) -> tuple[set, set]:
    """The sets of token start offsets and token end offsets."""
    return {t.start for t in tokens}, {t.end for t in tokens}
