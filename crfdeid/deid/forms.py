r"""Whether a tagged span is, holds or sits inside a clinical form a surrogate would falsify: a score, grade,
stage, class, code or a ward's or bed's number (``Forrest IIa``, ``Class B2``, ``GCS E3V4M6``, ``Gleason
4+3=7``, ``pT2 pN1a M0``, ``E11.649``, ``2/6`` murmur, ``Ward 64``), an eponym before a term's head (``Hans
algorithm``), or a phrase or heading written in capitals of clinical words (``POSTERIOR DUODENAL ULCER,
FORREST IIA``, ``MARGINS:``). Read by :func:`crfdeid.deid.confident.doubt` for surrogate output only: such a
span gets a placeholder (the redaction spans do not change).

The forms are data (``crfdeid/_data/rules/forms.tsv``, each row with its evidence), with the score names of
the values table (:mod:`crfdeid.recognizers.values`: a listed scale and its value) and its terminology codes
(``CPT 99205``, ``ICD-10 C61``). A span with a title right before it (``Dr Forrest``) is a person's name
and is judged as one.

>>> from crfdeid.document import make_span
>>> text = "Duodenal ulcer, Forrest IIa. Seen by Dr Forrest. Apgar 9/9 on Ward 64."
>>> [form_doubt(text, make_span(a, b, t)) for a, b, t in [(16, 23, "PATIENT"), (40, 47, "DOCTOR"),
...                                                        (55, 58, "DATE"), (62, 69, "ROOM")]]
['form', None, 'form', 'form']
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import gazetteers
from ..document import Span, line_bounds
from ..recognizers import values
from ..recognizers.ruledata import table
from ..recognizers.rules import trie_pattern
from ..schema import PERSON_SUBTYPES
from .evidence import PERSON_AFTER, TITLE_BEFORE, english, fold, labels, lists, shouting

_T = table("forms")
#: The reasons :func:`form_doubt` gives (the surrogate writer counts their placeholders as clinical forms).
REASONS = frozenset({"form", "capitals", "heading"})
_REACH = 60


def form_doubt(text: str, sp: Span) -> str | None:
    """Why the span ``sp`` of ``text`` is part of a clinical form (``form``), a phrase in capitals of clinical
    words (``capitals``) or a heading in capitals (``heading``), or None (the module docstring)."""
    if sp.subtype == "AGE" or TITLE_BEFORE.search(text, max(0, sp.start - 12), sp.start):
        return None
    lo, hi = max(0, sp.start - _REACH), min(len(text), sp.end + _REACH)
    for pattern in _patterns():
        if any(m.start() < sp.end and sp.start < m.end() for m in pattern.finditer(text, lo, hi)):
            return "form"
    if _name_class(text, sp) or _term_head_after(text, sp):
        return "form"
    return _capitals(text, sp)


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, ...]:
    """The table's forms (its ``FORMS`` row, in order), a listed scale and its value (the values table's
    ``SCORE``, a name that is also a person's or a place's taken as well: ``Apgar 9/9``, ``Wells 4``; a
    placeholder is honest either way), a terminology's code."""
    scores = trie_pattern(sorted(gazetteers.entries("score_names"), key=len, reverse=True))
    score = re.compile(values._T.source("SCORE", PLAIN=scores, CAPITALS="(?!)", NAMED="(?!)"))
    return (*(_T.re(name) for name in _T.entries("FORMS")), score, values._V.CODE)


def _name_class(text: str, sp: Span) -> bool:
    """Whether a name or a one-word place is the capitalised word of a class (``Forrest IIa``, ``Vancouver B2``,
    ``Marshall diffuse injury II``): the words between are clinical, and a bare roman numeral after a name of
    two words (``Ann Lee III``) is a generation's suffix."""
    words = text[sp.start:sp.end].split()
    if sp.subtype not in PERSON_SUBTYPES and len(words) != 1:
        return False
    lo = max(0, sp.start - _REACH)
    for m in _T.re("NAME_CLASS").finditer(text, lo, min(len(text), sp.end + _REACH)):
        if not (m.start(1) < sp.end and sp.start < m.end(1)):
            continue
        between = m.group(2).split()
        value = m.group(3)
        if any(fold(w) not in lists()[0] for w in between) or (
                value.lower() in english() and not re.fullmatch(r"[IVX]+", value)):
            continue  # a word between that is no clinical one; a class that is a word (VIA)
        bare = re.fullmatch(r"[IVX]+", value) is not None
        before = re.search(r"([A-Za-z][\w'-]*)[ \t]+$", text[max(0, m.start() - 30):m.start()])
        if bare and (len(words) > 1 or (before is not None and before.group(1)[0].isupper())):
            continue
        return True
    return False


_WORD_AFTER = re.compile(r"(?:'s)?[ \t]+([A-Za-z]+)")


def _term_head_after(text: str, sp: Span) -> bool:
    """Whether one name word alone stands right before a term's head the clinical heads lack (``Hans
    algorithm``: the table's ``TERM_HEADS``)."""
    if sp.subtype not in PERSON_SUBTYPES or len(text[sp.start:sp.end].split()) != 1:
        return False
    m = _WORD_AFTER.match(text, sp.end)
    return m is not None and m.group(1).lower() in _T.words("TERM_HEADS")


_CAPS_RUN = re.compile(r"[A-Z][A-Z0-9'/&().,-]*(?:[ \t]{1,2}[A-Z0-9(][A-Z0-9'/&().,-]*)*")
_LINE_START = re.compile(r"(?:^|\n)[ \t>*•-]*$")


def _capitals(text: str, sp: Span) -> str | None:
    """``heading`` for a span in capitals that starts its line and ends at a colon or the line's end
    (``MARGINS:``), or that starts its line with a clinical word in capitals before words that are not
    (``OPHTHALMOLOGY Brantwood Eye Hospital``: the line's heading taken in); ``capitals`` for a span in
    capitals inside a run of words in capitals on its line (no colon, no gap of three blanks) that holds a
    clinical word besides the span's (``POSTERIOR DUODENAL ULCER, FORREST IIA``); in a note written in
    capitals, neither."""
    surface = text[sp.start:sp.end]
    first = re.match(r"[A-Z]{4,}(?=[ \t]+\S*[a-z])", surface)
    if first and _LINE_START.search(text, max(0, sp.start - 8), sp.start) and fold(first.group()) in _clinical() \
            and not shouting(text):
        return "heading"  # OPHTHALMOLOGY Brantwood Eye Hospital: the line's heading taken in
    letters = [c for c in surface if c.isalpha()]
    if len(letters) < 2 or not all(c.isupper() for c in letters) or any(c.isdigit() for c in surface) \
            or shouting(text):  # a code in capitals (WG0043871) is an identifier's form
        return None
    if _LINE_START.search(text, max(0, sp.start - 8), sp.start) and re.match(r"[ \t]*(?::|\n|$)", text[sp.end:]):
        return "heading"
    line_start, line_end = line_bounds(text, sp.start, sp.end)
    line = text[line_start:line_end]
    for m in _CAPS_RUN.finditer(line):
        a, b = line_start + m.start(), line_start + m.end()
        if a <= sp.start and sp.end <= b:
            others = re.findall(r"[A-Z]{3,}", text[a:sp.start] + " " + text[sp.end:b])
            after = _NEXT_WORD.match(text, sp.end)
            if after is not None and fold(after.group(1)) in PERSON_AFTER | _titles():
                return None  # JOHN MERCER MD, ANN OKAFOR AWARE: a credential or a person's verb after it
            clinical = [w for w in others if fold(w) in _clinical()]
            # a short phrase, a third of its other words clinical: not a passage in capitals, nor a name beside its role
            return "capitals" if clinical and len(others) <= 8 and 3 * len(clinical) >= len(others) else None
    return None


_NEXT_WORD = re.compile(r"[ \t]*,?[ \t]*([A-Za-z]+)")


@lru_cache(maxsize=1)
def _titles() -> frozenset:
    """Titles and credentials (the ``titles`` list), folded, without their full stop."""
    return frozenset(fold(e).rstrip(".") for e in gazetteers.entries("titles"))


@lru_cache(maxsize=1)
def _clinical() -> frozenset:
    """Clinical words that are no listed name, no label, role, title or profession (``MD``, ``RN``: a name's
    neighbours): the clinical vocabulary lists."""
    clinical, listed, _, _, _ = lists()
    return frozenset(w for w in clinical if w not in listed and len(w) > 2 and w not in labels() and w not in _titles())
