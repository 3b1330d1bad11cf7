"""What the words beside a tagged span say of it, read by :func:`crfdeid.deid.confident.doubt` (issue 58
item 3, the fourth round, 2026-11-26): evidence for the spans the tagger is sure of that a shape of their
own words cannot tell from an identifier.

* :func:`in_listed_term`: the span with the words beside it is an entry of several words of the clinical
  term lists (``Maryland dissector``: the ``surgical_instruments`` list; ``Boston Scientific``): a
  state's, a town's or a name's word inside an instrument's, a scale's or a maker's name;
* :func:`scale_before`: a day and month alone right after the first word of a listed scale's name
  (``Prep: Boston 8/9``: the Boston Bowel Preparation Scale, out of 9), a score;
* :func:`count_after`: a day and month alone, the first number no greater than the second, right before a
  plural noun in lower case that is no stretch of time (``on 9/9 checks``; not ``11/22 nights``): a count out
  of a total, no date;
* :func:`term_word_after`: one word alone taken as a name, in a note not written in lower case, right before
  a word in lower case that is no common English word, no listed name and no verb's form (``Garrett
  dilators``, ``Brescia-Cimino radiocephalic``; not ``edna brockhurst``): a term's eponym;
* :func:`shift`: two clock times of a shift (``1900-0700``), no number of an identifier;
* :func:`role_last`: a name of three words or more ending on a clinical abbreviation of two or three
  letters not capitalised (``dr adaeze obi ho``: a house officer), the role after the name taken in;
* :func:`spelled_acronym`: the span among hyphen-joined words that an acronym beside them in brackets spells, or
  that spell the acronym right before their brackets (``medio NNN (Novy-MacNeal-Nicolle)``, ``Ring-Adair-Elwyn
  (RAE)``), or among words in brackets spelling a longer acronym's first letters (``LSVT (Lee Silverman) BIG``):
  an eponym's or a term's words, written out; a placeholder is honest whoever they are (check49, check50).

>>> from crfdeid.document import make_span
>>> text = "Prep: Boston 8/9. Glucose in range on 9/9 checks. A Maryland dissector was used."
>>> scale_before(text, 13), count_after(text, 38, 41), in_listed_term(text, make_span(52, 60, "STATE"))
(True, True, True)
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import gazetteers
from ..document import Span, line_bounds
from .evidence import PERSON_AFTER, english, fold, lower_case, stop_words

#: The lists whose entries of several words are clinical terms a name's, a town's or a state's word can
#: start or end (an instrument, an eponym, a scale, a procedure, a maker, a device, a suture).
TERM_LISTS = ("surgical_instruments", "eponyms", "eponyms_more", "anatomy_eponyms", "named_procedures",
              "brand_names", "devices", "clinical_scales", "score_names", "sutures", "contrast_agents")
#: The last words of a scale's name: a listed entry ending so is a scale (``Boston Bowel Preparation Scale``).
_SCALE_ENDS = frozenset({"scale", "score", "grade", "grading", "classification", "criteria", "index", "system"})
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_REACH = 40


@lru_cache(maxsize=1)
def _terms() -> tuple[frozenset, int]:
    """The folded entries of several words of :data:`TERM_LISTS`, and the most words one has."""
    entries = frozenset(" ".join(fold(e).split()) for n in TERM_LISTS for e in gazetteers.entries(n)
                        if " " in e.strip())
    return entries, max((len(e.split()) for e in entries), default=0)


def in_listed_term(text: str, sp: Span) -> bool:
    """Whether the span's words with up to a few words beside them on its line make an entry of several
    words of :data:`TERM_LISTS`, the span inside it (``Maryland dissector``; ``a Kittner dissector``)."""
    entries, most = _terms()
    line_start, line_end = line_bounds(text, sp.start, sp.end)
    ws = [m for m in _WORD.finditer(text, max(line_start, sp.start - _REACH), min(line_end, sp.end + _REACH))]
    inside = [i for i, m in enumerate(ws) if m.start() < sp.end and sp.start < m.end()]
    if not inside:
        return False
    first, last = inside[0], inside[-1]
    for a in range(max(0, last - most + 1), first + 1):
        for b in range(last + 1, min(len(ws), a + most) + 1):
            if b - a >= 2 and " ".join(fold(m.group()) for m in ws[a:b]) in entries:
                return True
    return False


@lru_cache(maxsize=1)
def _scale_firsts() -> frozenset:
    """The first words of listed scales' names of several words (``boston`` of ``Boston Bowel Preparation Scale``)."""
    entries, _ = _terms()
    return frozenset(e.split()[0] for e in entries if e.split()[-1] in _SCALE_ENDS and len(e.split()) >= 3)


_WORD_BEFORE = re.compile(r"([^\W\d_][\w'-]*)[ \t]*:?[ \t]*$")


def scale_before(text: str, start: int) -> bool:
    """Whether the first word of a listed scale's name of three words or more stands right before ``start``
    (``Boston 8/9``): a score written with its scale's first word."""
    m = _WORD_BEFORE.search(text, max(0, start - 30), start)
    return m is not None and m.group(1)[0].isupper() and fold(m.group(1)) in _scale_firsts()


_PLURAL_AFTER = re.compile(r"[ \t]+([a-z]{3,}[^s\W]s)\b")
#: Stretches of time a date comes before (``11/22 nights``, ``3/4 days``): no count's noun.
_TIMES = frozenset({"nights", "days", "weeks", "months", "years", "hours", "hrs", "mins", "minutes", "shifts",
                    "mornings", "evenings", "afternoons", "weekends", "nites", "nocs", "overnights"})
_NUMBERS = re.compile(r"(\d+)\D+(\d+)")


def count_after(text: str, start: int, end: int) -> bool:
    """Whether the two numbers of ``[start, end)`` are a fraction (the first no greater than the second) and
    a plural noun in lower case comes right after ``end`` (``9/9 checks``, ``4/6 cores``; not a function
    word, ``was``, nor a stretch of time, ``11/22 nights``): a count out of a total."""
    nums = _NUMBERS.search(text, start, end)
    m = _PLURAL_AFTER.match(text, end)
    return (nums is not None and int(nums.group(1)) <= int(nums.group(2)) and m is not None
            and m.group(1) not in stop_words() | PERSON_AFTER | _TIMES)


_LOWER_AFTER = re.compile(r"(?:'s)?[ \t]+([a-z]{4,})\b")


def term_word_after(text: str, sp: Span, listed: frozenset = frozenset()) -> bool:
    """Whether one word alone (no blank inside the span) stands right before a word in lower case that
    is no common English word (the ``common_words`` list), no person's verb and no verb's form in ``-ing``
    or ``-ed`` and no word of ``listed`` (``Garrett dilators``, ``Brescia-Cimino radiocephalic``; not ``Okafor
    aware``, ``Emily ambulating``), in a note not written in lower case (``edna brockhurst``: a surname)."""
    if any(c.isspace() for c in text[sp.start:sp.end]) or lower_case(text):
        return False
    m = _LOWER_AFTER.match(text, sp.end)
    if m is None:
        return False
    word = m.group(1)
    return (word not in english() and word not in PERSON_AFTER and word not in stop_words() and word not in listed
            and not re.search(r"(?:ing|ed)$", word))


_SHIFT = re.compile(r"\s*(?:[01]\d|2[0-3])[0-5]\d\s*[-\u2013]\s*(?:[01]\d|2[0-3])[0-5]\d\s*")


def shift(surface: str) -> bool:
    """Whether ``surface`` is two clock times of a shift (``1900-0700``, ``0700 - 1930``)."""
    return _SHIFT.fullmatch(surface) is not None


def role_last(words: list[str], shouting: bool) -> bool:
    """Whether a name's words (three or more) end on an entry of the ``clinical_abbrevs`` list of two or three
    letters not capitalised (``adaeze obi ho``; not ``Mary Ann Ho``), in a note not written in capitals."""
    last = words[-1] if len(words) >= 3 else ""
    return (not shouting and 2 <= len(last) <= 3 and not last.istitle()
            and fold(last) in _abbrevs())


_ACRONYM_BEFORE = re.compile(r"\b([^\W\d_]{2,6})[ \t]*\($")
_ACRONYM_AFTER = re.compile(r"((?:[-\u2010][^\W\d_][\w']*)*)[ \t]*\([ \t]*([^\W\d_]{2,6})[ \t]*\)")
_HYPHENED = re.compile(r"[^\W\d_][\w']*(?:[-\u2010][^\W\d_][\w']*)+")
_NAMED = re.compile(r"[^\W\d_][\w']*(?:[-\u2010 ][^\W\d_][\w']*)*")
_RUN_END = re.compile(r"[^\W\d_][\w'\-\u2010]*$")
_PART = re.compile(r"[^\W\d_][\w']*")


def spelled_acronym(text: str, sp: Span) -> bool:
    """Whether the span lies among words joined by hyphens that an acronym beside them spells: in brackets right
    after it (``NNN (Novy-MacNeal-Nicolle)``) or right before it in brackets (``Ring-Adair-Elwyn (RAE)``). The
    acronym has as many letters as the words (two to six), the first and last of them their first and last words'
    initials. Words joined by blanks are not taken: a person signs so (``Kerstin Brandt (KB)``); but two or more words
    in brackets whose initials are the first letters only of a longer acronym before them are (``LSVT (Lee
    Silverman)``: Lee Silverman Voice Treatment), a person's initials being as many as their words."""
    open_ = text.rfind("(", max(0, sp.start - _REACH), sp.start)
    close = text.find(")", sp.end, sp.end + _REACH)
    inner = text[open_ + 1:close]
    m = _ACRONYM_BEFORE.search(text, max(0, open_ - 10), open_ + 1) if open_ >= 0 and close >= 0 else None
    if m is not None and _NAMED.fullmatch(inner.strip()):
        acronym, words = m.group(1), _PART.findall(inner)
        if _HYPHENED.fullmatch(inner.strip()) and _spells(acronym, words):
            return True
        if 2 <= len(words) < len(acronym) and _spells(acronym[:len(words)], words):
            return True  # LSVT (Lee Silverman): the eponyms of a longer term's first letters, no person's initials
    after = _ACRONYM_AFTER.match(text, sp.end)
    if after is None:
        return False
    acronym = after.group(2)
    run = _RUN_END.search(text, max(0, sp.start - _REACH), after.end(1))
    words = _PART.findall(run.group()) if run is not None and _HYPHENED.fullmatch(run.group()) else []
    spanned = len(_PART.findall(text[sp.start:after.end(1)]))
    return 0 < spanned <= len(words) and _spells(acronym, words)


def _spells(acronym: str, words: list[str]) -> bool:
    """Whether ``words`` are as many as the letters of ``acronym`` (in capitals, or in lower case with the words and no
    English word: not ``normal (no orchitis)``) and begin and end on its first and last letters."""
    lower = acronym.islower() and all(map(str.islower, words)) and fold(acronym) not in english()
    if len(words) != len(acronym) or not (acronym.isupper() or lower):
        return False
    return fold(words[0][0]) == fold(acronym[0]) and fold(words[-1][0]) == fold(acronym[-1])


@lru_cache(maxsize=1)
def _abbrevs() -> frozenset:
    return frozenset(fold(e) for e in gazetteers.entries("clinical_abbrevs"))
