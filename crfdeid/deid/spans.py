"""Rebuild a document with its PHI spans replaced, and spans re-computed in the new text.

>>> from crfdeid.document import Document, Span
>>> doc = Document("1", "Dr. Ann Lee on 7/22.", [Span(4, 11, "NAME", "DOCTOR"), Span(15, 19, "DATE", "DATE")])
>>> new = replace_spans(doc, lambda sp, s: sp.subtype)
>>> new.text, [new.surface(sp) for sp in new.spans]
('Dr. DOCTOR on DATE.', ['DOCTOR', 'DATE'])
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

from .. import gazetteers
from ..document import Document, Span, trim
from ..progress import checkpoint
from ..recognizers.clinical import why_clinical
from ..schema import LINE_BREAKS
from .facts import VALUE_REASONS
from .kinds import stand_in

# The characters ``str.splitlines`` breaks lines at (``\r\n`` is one break of two).
_BREAK = re.compile("[" + LINE_BREAKS + "]")


def has_line_break(text: str) -> bool:
    """Whether ``text`` holds a character that ``str.splitlines`` breaks at."""
    return _BREAK.search(text) is not None


def split_at_line_breaks(text: str, spans) -> list[Span]:
    r"""``spans`` cut at every line break of ``text``, each piece trimmed of white space.

    Line breaks are never PHI and never go into a replacement, so redacted,
    masked and surrogate output keep the line count of the input
    (``Mercy\nHospital`` -> two placeholders, one per line).

    >>> [(s.start, s.end) for s in split_at_line_breaks("at Mercy\r\n Hospital", [Span(3, 19, "LOCATION", "HOSPITAL")])]
    [(3, 8), (11, 19)]
    """
    out: list[Span] = []
    for sp in spans:
        pos = sp.start
        for m in _BREAK.finditer(text, sp.start, sp.end):
            out.extend(_piece(text, sp, pos, m.start()))
            pos = m.end()
        out.extend(_piece(text, sp, pos, sp.end))
    return out


def _piece(text: str, sp: Span, start: int, end: int) -> list[Span]:
    start, end = trim(text, start, end)
    if start == sp.start and end == sp.end:
        return [sp]
    return [Span(start, end, sp.category, sp.subtype)] if start < end else []


def deid_spans(doc: Document, spans=None) -> list[Span]:
    """The spans every de-identified output replaces: overlaps merged, cut at line breaks."""
    return split_at_line_breaks(doc.text, merged_spans(doc.spans if spans is None else spans))


def runs(spans, member: Callable[[Span], bool], joins: Callable[[list[Span], Span], bool]) -> list[list[Span]]:
    """The runs of two or more consecutive spans for which ``member`` holds, each joining the run
    before it when ``joins(run, span)`` (an address's parts, a name cut into pieces)."""
    out: list[list[Span]] = []
    run: list[Span] = []
    for sp in spans:
        if run and (not member(sp) or not joins(run, sp)):
            if len(run) > 1:
                out.append(run)
            run = []
        if member(sp):
            run.append(sp)
    if len(run) > 1:
        out.append(run)
    return out


def merged_spans(spans) -> list[Span]:
    """Spans sorted, with overlapping ones merged into the first (no PHI character is lost)."""
    out: list[Span] = []
    for sp in sorted(spans):
        if out and sp.start < out[-1].end:
            last = out[-1]
            out[-1] = Span(last.start, max(last.end, sp.end), last.category, last.subtype)
        else:
            out.append(sp)
    return out


def replace_spans(doc: Document, replace: Callable[[Span, str], str],
                  spans=None) -> Document:
    r"""A new document whose spans' text is ``replace(span, surface)``.

    Parameters
    ----------
    doc : Document
    replace : callable
        ``(span, original surface) -> new surface``.
    spans : list of Span, optional
        Spans to replace (default ``doc.spans``); overlapping ones are merged and
        every span is cut at line breaks (:func:`deid_spans`).

    Returns
    -------
    Document
        Same ``doc_id`` and a copy of ``meta``; new text; one new span per
        span of :func:`deid_spans`, same category/subtype, offsets into the new text.

    Raises
    ------
    ValueError
        A replacement that is empty or holds a line break (it could change the
        number of lines: ``\r`` + nothing + ``\n`` reads as one break).
    """
    spans = deid_spans(doc, spans)
    parts, new_spans, pos, delta = [], [], 0, 0
    for sp in spans:
        new = replace(sp, doc.text[sp.start:sp.end])
        if not new or has_line_break(new):
            raise ValueError(f"document {doc.doc_id!r}: the replacement of the span at offset "
                             f"{sp.start} is empty or holds a line break")
        parts.append(doc.text[pos:sp.start])
        parts.append(new)
        start = sp.start + delta
        new_spans.append(Span(start, start + len(new), sp.category, sp.subtype))
        delta += len(new) - len(sp)
        pos = sp.end
    parts.append(doc.text[pos:])
    return Document(doc.doc_id, "".join(parts), new_spans, dict(doc.meta))


def lower_same_length(text: str) -> str:
    """``text.lower()`` with every character kept one character long (``İ`` lowers to two), so
    offsets into it are offsets into ``text``.

    >>> lower_same_length("İSTANBUL Smith")
    'istanbul smith'
    """
    low = text.lower()
    return low if len(low) == len(text) else "".join(c.lower()[:1] if c == "\u0130" else c.lower() for c in text)


#: What is not a letter or digit at the edges of a span (a tagger's span may start at a hyphen).
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
#: Reasons of the clinical filter (:func:`crfdeid.recognizers.clinical.why_clinical`) for which a repeat is not
#: taken: the note's layout (a heading, a field label, a role, a service) and a clinical value (a score, a grade,
#: a clock time...). A name that is also a word (``Will agrees``: the modal reason) is left to :func:`as_name`.
NOT_REPEATS = frozenset({"heading", "label", "role", "specialty"}) | VALUE_REASONS
#: Categories whose annotated strings are looked for again elsewhere in the note.
PROPAGATED = frozenset({"NAME", "LOCATION", "CONTACT", "ID", "OTHER", "PROFESSION", "DATE"})


def propagate(doc: Document, min_len: int = 3, scheme=None) -> Document:
    """The document plus spans for unannotated repeats of its annotated PHI strings.

    A repeat is a whole-word, case-insensitive occurrence outside every span
    of a PHI string (without the punctuation at its edges: ``-López`` of ``García-López``
    is found again in ``GARCÍA-LÓPEZ``; words of any script) of at least ``min_len``
    characters (dates only when not a
    bare number, ages never: ``100`` also reads as a percentage). The words of a
    name of several words are looked for on their own too, where a repeat is written with a
    capital letter (``LÓPEZ`` after ``García-López``, ``Hare`` after ``Ann O'Hare``: a lower-case
    ``hare`` may be a plain word; :func:`name_parts`; of a user name, not its plain and place words:
    :func:`place_or_plain_word`); so is a name that is more often a plain
    English word (``Will``: not ``he will call``; :func:`plain_words`), unless a title comes before
    it. Names are found without their accents (``Lopez`` after ``García-López``). A repeat gets the
    subtype of the annotated string, so a name the annotator (or the tagger)
    found once is replaced everywhere in the note.

    A repeat is not taken where the clinical filter would drop a span the tagger found at its place
    as part of the note's layout or a clinical value (:data:`NOT_REPEATS`: a heading, a field label, a
    role, a score...):
    a tagger's false span ``Ward`` of ``Ward Manager`` would otherwise turn the heading ``WARD ROUND
    REVIEW`` and the label ``Ward:`` into names in every note (issue 50), and a patient named Ward
    is no more the label ``Ward:`` than Will is ``will recheck``. Every other repeat is still
    taken: a repeat the tagger missed is replaced unless the filter's rules, each of which takes no
    gold PHI token of the development notes (docs/clinical-values.md), call it clinical there, so
    the repeats fail closed as the spans do. Returns ``doc`` itself when
    nothing is added. Under a declared ``scheme`` a label is looked for again when
    its surrogate kind's category would be (:func:`crfdeid.deid.kinds.stand_in`).

    Longer strings claim their repeats first. The note is read once for all strings
    (:func:`_occurrences`), so the time grows with the note's length, not with its
    length times the number of distinct PHI strings.

    >>> from crfdeid.document import make_span
    >>> doc = Document("1", "Smith said SMITH and smithson", [make_span(0, 5, "DOCTOR")])
    >>> [(sp.start, sp.end) for sp in propagate(doc).spans]
    [(0, 5), (11, 16)]
    """
    low = lower_same_length(doc.text)
    fold = fold_same_length(low)  # names: accents off (``Lopez`` is a repeat of ``López``)
    wanted: dict[str, Span] = {}  # PHI string -> the span it was annotated as, longest first
    parts: dict[str, Span] = {}  # a word of a name of several words -> its span
    names: set[str] = set()  # the strings of names (looked for in ``fold``)
    plain: dict[str, str] = {}  # a name that is a common word -> its annotated spelling
    for sp in sorted(doc.spans, key=lambda s: -len(s)):
        cat = sp.category if scheme is None else _kind_category(sp, scheme)
        phi = _EDGES.sub("", (fold if cat == "NAME" else low)[sp.start:sp.end])
        if (len(phi) < min_len or phi in wanted or cat not in PROPAGATED
                or (cat == "DATE" and phi.isdigit())):
            continue
        wanted[phi] = sp
        if cat == "NAME":
            names.add(phi)
            if phi in plain_words():
                plain[phi] = _EDGES.sub("", doc.text[sp.start:sp.end])
            for part in name_parts(doc.text[sp.start:sp.end], min_len):
                if sp.subtype != "USERNAME" or not place_or_plain_word(part.lower()):
                    parts.setdefault(fold_same_length(part.lower()), sp)
    if not wanted:
        return doc
    checkpoint()
    found = []
    covered = bytearray(len(low))  # characters inside a span: overlap test in O(length)
    for sp in doc.spans:
        covered[sp.start:sp.end] = b"\x01" * len(sp)
    # whole strings first, then the parts of names where they are written with a capital
    for strings, capital_only in ((wanted, False), ({p: sp for p, sp in parts.items() if p not in wanted}, True)):
        hits = _occurrences(low, {p for p in strings if p not in names and not capital_only}, min_len)
        hits.update(_occurrences(fold, {p for p in strings if p in names or capital_only}, min_len))
        for phi, sp in strings.items():
            end = 0  # as re.finditer: a repeat starts after the previous one of the same string
            for a in hits.get(phi, ()):
                b = a + len(phi)
                if a < end:
                    continue
                end = b
                repeat = Span(a, b, sp.category, sp.subtype, confidence=sp.confidence,
                              crf_confidence=sp.crf_confidence)  # as sure as its original, in the model's word too
                if covered.find(1, a, b) == -1 and as_name(doc.text, low, a, b, capital_only, plain.get(phi)) \
                        and why_clinical(doc.text, repeat) not in NOT_REPEATS:
                    found.append(repeat)
                    covered[a:b] = b"\x01" * (b - a)
    return doc if not found else doc.with_spans(doc.spans + found)


def as_name(text: str, low: str, a: int, b: int, capital_only: bool, spelling: str | None) -> bool:
    """Whether the repeat ``text[a:b]`` is taken: a part of a name (``capital_only``) written with
    a capital; a name that is a common word (``spelling``: ``Will``; :func:`plain_words`) as
    annotated or with a capital (not ``he will call``); either after a title (``Mr. will``); any
    other always."""
    if not capital_only and spelling is None:
        return True
    if text[a:b] != low[a:b] or text[a:b] == spelling:
        return True
    title = _TITLE_BEFORE.search(low, max(0, a - 12), a)
    return title is not None and title.group(1) in gazetteers.load("titles")


@functools.cache
def plain_words() -> frozenset:
    """Common English words more frequent as words than as names: ``will``, ``hope``, ``may`` (not
    ``john`` or ``smith``): the rank in the common-word list before the rank in the first-name and
    surname lists (each ordered by frequency), or in none of them."""
    rank: dict[str, int] = {}
    for name in ("first_male", "first_female", "surnames"):
        for i, word in enumerate(gazetteers.entries(name)):
            rank[word.lower()] = min(rank.get(word.lower(), i), i)
    return frozenset(w for i, w in enumerate(map(str.lower, gazetteers.entries("common_words")))
                     if i < rank.get(w, i + 1))


@functools.cache
def _place_words() -> frozenset:
    words = {w.lower() for n in ("hospital_words", "organization_words") for w in gazetteers.entries(n)}
    names = {w.lower() for n in ("first_male", "first_female", "surnames") for w in gazetteers.entries(n)}
    return frozenset(words - names)


def place_or_plain_word(word: str) -> bool:
    """Whether a word of a user name is no name of its own to look for again: a plain word
    (:func:`plain_words`: ``admin``, ``nurse``) or a word of a place of care or an organization that no
    name list holds (``infirmary`` of ``mthomas.infirmary``; not ``ward``, a surname too). A user name
    is often a role's or a unit's account: its ``Infirmary`` before a telephone number is the unit's label.

    >>> place_or_plain_word("infirmary"), place_or_plain_word("admin"), place_or_plain_word("kowalska")
    (True, True, False)
    """
    return word in plain_words() or word in _place_words()


#: The word right before a repeat, past a full stop and white space (``Mr. `` in ``Mr. will``).
_TITLE_BEFORE = re.compile(r"([^\W\d_]+)\.?\s+$")


class _Fold(dict):
    """Code point -> the letter without its accents (``ó`` -> ``o``), one character always."""

    def __missing__(self, cp: int) -> str:
        c = chr(cp)
        d = unicodedata.normalize("NFD", c)
        out = d[0] if len(d) > 1 and all(unicodedata.combining(x) for x in d[1:]) else c
        self[cp] = out
        return out


_FOLD = _Fold()


def fold_same_length(text: str) -> str:
    """``text`` with the accents of its letters taken off, every character kept one character
    long (offsets into it are offsets into ``text``).

    >>> fold_same_length("garcía-lópez Ñandú")
    'garcia-lopez Nandu'
    """
    return text if text.isascii() else text.translate(_FOLD)


#: A run of letters (of any script): the words a name is made of.
_LETTERS = re.compile(r"[^\W\d_]+")


def name_parts(surface: str, min_len: int = 3) -> list[str]:
    """The words of a name of two or more words that are looked for again on their own: each run
    of ``min_len`` letters or more that is not followed by a full stop (``Mrs.``, ``Jr.``: a title
    or an abbreviation). A name of one word has none (it is looked for whole).

    >>> name_parts("García-López"), name_parts("Mrs. Ann O'Hare"), name_parts("Lee")
    (['García', 'López'], ['Ann', 'Hare'], [])
    """
    runs = list(_LETTERS.finditer(surface))
    if len(runs) < 2:
        return []
    return [m[0] for m in runs if len(m[0]) >= min_len and not surface.startswith(".", m.end())]


#: A letter or digit of any script (``\w`` without ``_``): what a whole-word repeat is not next to.
_WORD_CHAR = re.compile(r"[^\W_]")
#: Where a whole-word repeat starts: a letter or digit not right after another (an edge-stripped
#: PHI string starts and ends with one).
_WORD_START = re.compile(r"(?<![^\W_])[^\W_]")


#: Up to this many distinct prefixes, each is found with ``str.find`` (a few C-speed passes over
#: the note); beyond, one pass over the note's word starts (its time grows with the note alone).
_FIND_PREFIXES = 48


def _occurrences(low: str, phis, min_len: int) -> dict[str, list[int]]:
    r"""``{phi: [start, ...]}``: where each string of ``phis`` (each starting and ending with a
    letter or digit) occurs in ``low`` as a whole word (no letter or digit of any script right
    before or after), in order, overlaps included.

    The strings are looked up by their first ``min_len`` characters, then by their length (a
    handful per prefix). A note's few prefixes (most notes: :data:`_FIND_PREFIXES` at most) are
    found with ``str.find`` where they start a word (``isalnum`` is ``[^\W_]``); more, in one pass
    over the word starts. The same starts either way (tests/test_name_repeats.py)."""
    lengths: dict[str, set[int]] = {}
    for phi in phis:
        lengths.setdefault(phi[:min_len], set()).add(len(phi))
    by_prefix = {p: sorted(ls) for p, ls in lengths.items()}
    out: dict[str, list[int]] = {}
    if len(by_prefix) > _FIND_PREFIXES:
        starts = (m.start() for m in _WORD_START.finditer(low))
    elif by_prefix:
        starts = (a for p in by_prefix for a in _word_starts_of(low, p))
    else:
        return out
    n = len(low)
    for i, a in enumerate(starts):
        if not i % 65536:
            checkpoint()
        ls = by_prefix.get(low[a:a + min_len])
        if ls is None:
            continue
        for length in ls:
            b = a + length
            if b > n:
                break
            if (b == n or not _WORD_CHAR.match(low, b)) and low[a:b] in phis:
                out.setdefault(low[a:b], []).append(a)
    return out


def _word_starts_of(low: str, prefix: str):
    """Where ``prefix`` (starting with a letter or digit) occurs in ``low`` at a word's start, in order."""
    if not prefix[:1].isalnum():  # no word starts with it
        return
    a = low.find(prefix)
    while a != -1:
        if not a or not low[a - 1].isalnum():
            yield a
        a = low.find(prefix, a + 1)


def _kind_category(sp: Span, scheme) -> str:
    return stand_in(sp, scheme).category
