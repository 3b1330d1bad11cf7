"""Cheap, deterministic segmentation of clinical notes into CRF sequences.

A segment ends at a line break, after a sentence-final ``.``, ``?`` or ``!``
that is followed by white space (unless the token before it is a known title
or abbreviation such as ``Dr``, or a single letter like an initial), and at
``max_len`` tokens so that a pathological single-line note stays tractable.
Segments are token index ranges derived from the tokens; spans are still
decoded over the whole document, so a span may cross a segment boundary.

>>> from crfdeid.text.tokenize import tokenize
>>> text = "HPI: Seen by Dr. Lee. Stable.\\n- BP 120/80"
>>> toks = tokenize(text)
>>> [" ".join(t.text for t in toks[a:b]) for a, b in segments(text, toks)]
['HPI : Seen by Dr . Lee .', 'Stable .', '- BP 120 / 80']
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from itertools import compress

from ..settings import Section, section

_FINAL = frozenset(".?!")
#: Tokens after which a period does not end a sentence (compared lower-cased).
ABBREVIATIONS = frozenset("""
dr mr mrs ms mx prof st sr jr rev hon gen col capt lt sgt fr sen rep
no nos vs etc approx appt dept univ inc corp co ltd bros mt ft ave blvd rd
jan feb mar apr jun jul aug sep sept oct nov dec
mon tue tues wed thu thur thurs fri sat sun
e g i ie eg al pt pts hx dx tx rx sx fx
""".split())


def segments(text: str, tokens, max_len: int = 200) -> list[tuple[int, int]]:
    """Token index ranges ``(first, last + 1)`` of the segments of a tokenized note.

    Parameters
    ----------
    text : str
        The note text the tokens were cut from.
    tokens : iterable of Token
        Output of :func:`crfdeid.text.tokenize.tokenize` (or ``iter_tokens``) for ``text``.
    max_len : int
        Longest segment, in tokens.
    """
    if not isinstance(tokens, (list, tuple)):
        return list(iter_segments(text, tokens, max_len))
    # The same segments from C-level passes over a token list: where a segment may end
    # (the last token before a line break, always; a final ".?!" after a word that is not
    # an abbreviation, unless the segment starts there), then the max_len cuts in order.
    n = len(tokens)
    if not n:
        return []
    starts = [t.start for t in tokens]
    ends = [t.end for t in tokens]
    breaks = set()
    for ch in "\n\r":
        p = text.find(ch, ends[0])
        while p >= 0:
            k = bisect.bisect_left(starts, p)  # the first token after the break
            if k >= n:
                break
            if ends[k - 1] <= p:
                breaks.add(k - 1)
            p = text.find(ch, starts[k])
    words = [t.text for t in tokens]
    finals = [i for i in compress(range(1, n - 1), map(_FINAL.__contains__, words[1:n - 1]))
              if i not in breaks and starts[i + 1] != ends[i]
              and len(words[i - 1]) > 1 and words[i - 1].lower() not in ABBREVIATIONS]
    out, begin = [], 0
    for i, always in sorted([(i, True) for i in breaks] + [(i, False) for i in finals] + [(n - 1, True)]):
        while i + 1 - begin > max_len:
            out.append((begin, begin + max_len))
            begin += max_len
        if i >= begin and (always or i > begin):
            out.append((begin, i + 1))
            begin = i + 1
    return out


def iter_segments(text: str, tokens, max_len: int = 200):
    """:func:`segments` as a generator over any token iterable (one token of look-ahead)."""
    it = iter(tokens)
    cur = next(it, None)
    prev = None
    begin = i = 0
    while cur is not None:
        nxt = next(it, None)
        end_here = nxt is None or i + 1 - begin >= max_len
        if not end_here and nxt is not None and nxt.start != cur.end:  # touching tokens: no gap, no end
            gap = text[cur.end:nxt.start]
            if "\n" in gap or "\r" in gap:
                end_here = True
            elif cur.text in _FINAL and gap and i > begin:
                assert prev is not None  # i > begin: a token came before
                end_here = len(prev.text) > 1 and prev.text.lower() not in ABBREVIATIONS
        if end_here:
            yield begin, i + 1
            begin = i + 1
        prev, cur = cur, nxt
        i += 1


@section("segment")
@dataclass
class SegmentSettings(Section):
    """The config's ``segment`` section: ``max_len``, the longest CRF sequence in tokens."""

    max_len: int = field(default=200, metadata={"min": 1})
