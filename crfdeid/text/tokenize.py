"""Text -> tokens: what the tagger reads of a note, its tokens, its CRF sequences, spans on token bounds.

The steps between a note and its features, and the one after the CRF that needs tokens again:

* :func:`for_tagging`: control and format characters read as spaces (same length, same offsets);
* :func:`tokenize` (:func:`iter_tokens`, :func:`token_offsets`): the clinical tokenizer;
* :func:`segments` (:func:`iter_segments`): the tokens cut into CRF sequences;
* :func:`to_token_bounds`: spans widened to the tokens they touch.

The clinical tokenizer is regex-driven, keeps offsets and splits run-together tokens.
Tokens are maximal runs of one character class, with case transitions split so
that glued words separate (He et al. 2015, table 1)::

    PEND01/26/2098   -> PEND 01 / 26 / 2098
    ALMarital        -> AL Marital
    34712RadiologyExam -> 34712 Radiology Exam
    3041023MARY      -> 3041023 MARY
    (784)032-8966    -> ( 784 ) 032 - 8966

Every other non-space character (punctuation, symbols) is a token of its own,
so PHI boundaries fall on token boundaries. Tokens never overlap, and their
texts joined rebuild the text without its white space (white space is what
``str.isspace`` says it is). Each token says whether it touches its neighbour
on the left/right (no white space in between), which is how a feature can tell
``Since6/03/04`` from ``Since 6 / 03 / 04``.

With ``split_glued=False`` letters and digits stay together (``Since6`` is one
token, ``ALMarital`` too); punctuation is still split off. This is the
"no splitting" arm of the tokenizer ablation.

Pure-ASCII text (the common case) goes through an equivalent stdlib ``re``
pattern, about four times faster than the Unicode-aware ``regex`` one.

>>> [t.text for t in tokenize("Since6/03/04 Dr.Smith")]
['Since', '6', '/', '03', '/', '04', 'Dr', '.', 'Smith']
>>> [t.text for t in tokenize("Since6/03/04", split_glued=False)]
['Since6', '/', '03', '/', '04']
>>> tokenize("x76221")[1]
Token(text='76221', start=1, end=6, glued_left=True, glued_right=False)
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate, compress
from operator import not_
from typing import NamedTuple

import regex

from ..document import Span, trim
from ..settings import Section, section

# -- what the tagger reads -------------------------------------------------------------

# Cc and Cf characters that str.isspace does not already count as white space.
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
_CONTROL = regex.compile(r"[\p{Cc}\p{Cf}--[\t\n\x0b\x0c\r\x1c-\x1f\x85]]", regex.V1)
# Digits of other scripts and the fullwidth forms of ASCII (U+FF01..U+FF5E): each one character
# that reads as one ASCII character (``７/２２/２０９８``, ``٧/٢٢/٢٠٩٨`` -> ``7/22/2098``).
_FOREIGN = regex.compile(r"[\p{Nd}--[0-9]]|[\uff01-\uff5e]", regex.V1)


@functools.cache
def _folding() -> dict[int, str]:
    """The translation of :data:`_FOREIGN`'s characters to ASCII (built once, when first needed)."""
    table = {c: chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}
    for c in range(0x80, 0x20000):  # every decimal digit of Unicode lies below U+20000
        value = unicodedata.decimal(chr(c), None)
        if value is not None:
            table[c] = str(value)
    return table


def for_tagging(text: str) -> str:
    """``text`` with its control and format characters replaced by spaces, and digits of every
    script and fullwidth characters read as ASCII (same length).

    The same string object comes back when there is nothing to replace (the common case).

    A NUL byte, a bidirectional mark or a zero-width space between a title and a name
    (``Dr.\\x00Smith``) is a token of its own to the tokenizer and a wall to the rules'
    patterns, which hide the name from both. :func:`for_tagging` replaces such characters
    (Unicode categories Cc and Cf that are not already white space) with spaces. It keeps
    the length, so every offset into the cleaned text is the same offset into the note:
    spans found on it are spans of the note, whose text is never changed.

    >>> for_tagging("Dr.\\x00Smith\\u200b")
    'Dr. Smith '
    >>> text = "plain ASCII"; for_tagging(text) is text
    True

    A date in fullwidth or Arabic-Indic digits is a date to the model and to the rules, each
    digit one character still (NFKC would do the same for these, one for one):

    >>> for_tagging("seen ７/２２/２０９８, ٧/٢٢/٢٠٩٨")
    'seen 7/22/2098, 7/22/2098'
    """
    if text.isascii():
        return _ASCII_CONTROL.sub(" ", text) if _ASCII_CONTROL.search(text) else text
    if _FOREIGN.search(text):
        text = text.translate(_folding())
    return _CONTROL.sub(" ", text) if _CONTROL.search(text) else text


# -- tokens ----------------------------------------------------------------------------

# White space exactly as str.isspace defines it (regex's \s lacks U+001C..U+001F).
_WS = r"\s\x1c-\x1f"
_U = r"[\p{Lu}\p{Lt}]\p{M}*"
_L = r"\p{Ll}\p{M}*"
# Order matters: Capitalised/lower words first; then an upper-case run that is not
# followed by a lower-case letter, so that ALMarital -> AL + Marital (the atomic
# group keeps combining marks on their letter while the run backs off).
_SPLIT = regex.compile(
    rf"(?:{_U})?(?:{_L})+"                 # Word, word
    rf"|(?>{_U})+(?!\p{{Ll}})"             # WORD (not the capital of a following Word)
    r"|(?:[\p{Lo}\p{Lm}]\p{M}*)+"          # caseless scripts
    r"|\p{Nd}+"                            # digits
    rf"|[^{_WS}\p{{L}}\p{{Nd}}]\p{{M}}*"   # any other single character
    r"|\p{M}+"                             # stray combining marks
)
_GLUED = regex.compile(rf"[\p{{L}}\p{{M}}\p{{Nd}}]+|[^{_WS}\p{{L}}\p{{Nd}}]\p{{M}}*|\p{{M}}+")
# The same two patterns for pure-ASCII text.
_SPLIT_ASCII = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[^\sA-Za-z0-9]")
_GLUED_ASCII = re.compile(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]")


class Token(NamedTuple):
    """A token: its text, half-open character offsets and whether it touches its neighbours."""

    text: str
    start: int
    end: int
    glued_left: bool
    glued_right: bool


#: Each pattern as a splitter that keeps the tokens: ``[gap, token, gap, ..., token, gap]``.
_SPLITTERS = {rx: (re if isinstance(rx, re.Pattern) else regex).compile(f"({rx.pattern})", rx.flags)
              for rx in (_SPLIT, _GLUED, _SPLIT_ASCII, _GLUED_ASCII)}


_make_token = partial(tuple.__new__, Token)


def _pattern(text: str, split_glued: bool):
    if text.isascii():
        return _SPLIT_ASCII if split_glued else _GLUED_ASCII
    return _SPLIT if split_glued else _GLUED


def token_offsets(text: str, split_glued: bool = True) -> list[tuple[int, int]]:
    """Half-open ``(start, end)`` offsets of the tokens of ``text``, in order.

    >>> token_offsets("BP 120/80")
    [(0, 2), (3, 6), (6, 7), (7, 9)]
    """
    return [m.span() for m in _pattern(text, split_glued).finditer(text)]


def token_strings(text: str, split_glued: bool = True) -> list[str]:
    """The tokens of ``text`` as strings, in order (``text[s:e]`` of :func:`token_offsets`).

    >>> token_strings("BP 120/80")
    ['BP', '120', '/', '80']
    """
    return _pattern(text, split_glued).findall(text)  # the patterns have no capturing group


def tokenize(text: str, split_glued: bool = True) -> list[Token]:
    """Split ``text`` into :class:`Token` objects with character offsets.

    Parameters
    ----------
    text : str
        The note text, unchanged.
    split_glued : bool
        Split letters from digits and at case transitions (``CABG6`` -> ``CABG 6``,
        ``ALMarital`` -> ``AL Marital``). ``False`` keeps letter/digit runs whole.

    Returns
    -------
    list of Token
        Non-overlapping tokens in text order; ``text[t.start:t.end] == t.text``.
    """
    # Column-wise, from one split() that keeps the tokens: no match objects, no per-token
    # Python code (tuple.__new__ makes the named tuples in C).
    parts = _SPLITTERS[_pattern(text, split_glued)].split(text)
    if len(parts) == 1:
        return []
    bounds = list(accumulate(map(len, parts)))  # bounds[2k] = start, bounds[2k + 1] = end of token k
    starts = bounds[0:-1:2]
    left = [False]
    left += map(not_, parts[2:-1:2])  # no white space between tokens k - 1 and k
    right = left[1:]
    right.append(False)
    return list(map(_make_token, zip(parts[1::2], starts, bounds[1::2], left, right)))


def iter_tokens(text: str, split_glued: bool = True):
    """The tokens of :func:`tokenize`, one at a time, for notes too large to hold as a list.

    A list of tokens costs about 200 bytes a token; this generator keeps one.

    >>> [t.text for t in iter_tokens("BP 120/80")] == [t.text for t in tokenize("BP 120/80")]
    True
    """
    it = _pattern(text, split_glued).finditer(text)
    prev = next(it, None)
    if prev is None:
        return
    left = False
    for m in it:
        end = prev.end()
        glued = m.start() == end
        yield Token(prev.group(), prev.start(), end, left, glued)
        left, prev = glued, m
    yield Token(prev.group(), prev.start(), prev.end(), left, False)


@section("tokenizer")
@dataclass
class TokenizerSettings(Section):
    """The config's ``tokenizer`` section: ``split_glued`` splits run-together tokens (``PEND01``)."""

    split_glued: bool = True


# -- segments --------------------------------------------------------------------------

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

    A segment ends at a line break, after a sentence-final ``.``, ``?`` or ``!``
    that is followed by white space (unless the token before it is a known title
    or abbreviation such as ``Dr``, or a single letter like an initial), and at
    ``max_len`` tokens so that a pathological single-line note stays tractable.
    Segments are token index ranges derived from the tokens; spans are still
    decoded over the whole document, so a span may cross a segment boundary.

    Parameters
    ----------
    text : str
        The note text the tokens were cut from.
    tokens : iterable of Token
        Output of :func:`tokenize` (or :func:`iter_tokens`) for ``text``.
    max_len : int
        Longest segment, in tokens.

    >>> text = "HPI: Seen by Dr. Lee. Stable.\\n- BP 120/80"
    >>> toks = tokenize(text)
    >>> [" ".join(t.text for t in toks[a:b]) for a, b in segments(text, toks)]
    ['HPI : Seen by Dr . Lee .', 'Stable .', '- BP 120 / 80']
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


# -- spans on token bounds -------------------------------------------------------------

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
