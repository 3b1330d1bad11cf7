"""The words of a place's or a firm's name (:mod:`.phrases`): plain or proper, its head, where it starts and ends.

A word is evidence of a proper name only when no plain list (:data:`PLAIN_LISTS`: common, clinical,
stop words, titles, heads...) holds it; a name's run is cut at a stop word, a relation, a day or a
month, and starts after a title or a plain word that opens a sentence. The head phrases are those of
:data:`HEAD_LISTS` (the ``organization_heads``, ``hospital_heads`` and ``ward_heads`` lists).
"""

from __future__ import annotations

from functools import lru_cache, partial

import regex

from .. import gazetteers
from .ruledata import lists, table

#: Lists of head words and the kind of place a name before one is (the first list naming a head wins).
HEAD_LISTS = table("phrases").mapping("HEAD_LISTS")
#: Lists whose words (every word of an entry) are plain: no evidence of a proper name.
PLAIN_LISTS = table("phrases").entries("PLAIN_LISTS")
_D = table("phrases").namespace()


def _alternation(items) -> str:
    """The items as one alternation, longest first, then in text order (the same pattern under
    every hash seed)."""
    heads = sorted(set(items), key=lambda h: (-len(h), h))
    return "|".join(regex.escape(h).replace(r"\ ", r"[ \t]") for h in heads)


@lru_cache(maxsize=1)
def _heads() -> dict[str, str]:
    """Head phrase (lower case, single spaces) -> subtype."""
    out: dict[str, str] = {}
    for name, sub in HEAD_LISTS.items():
        for entry in gazetteers.entries(name):
            out.setdefault(" ".join(entry.lower().split()), sub)
    return out


def _cased(entries) -> list[str]:
    """Entries as written, in title case and in capitals (``Primary School``, ``PRIMARY SCHOOL``; not
    the capitals of a short head, other words in a note in capitals: ``INC``, ``CO``, ``UNI``)."""
    return [form for e in entries
            for form in {e, *([e.upper()] if len(e) > 4 else []), " ".join(w[:1].upper() + w[1:] for w in e.split())}]


@lru_cache(maxsize=1)
def _plain() -> frozenset:
    """Words of the plain lists, lower case."""
    return frozenset(w.strip(".'’") for name in PLAIN_LISTS for e in gazetteers.load(name) for w in e.split())


def _proper(word: str) -> bool:
    """Evidence of a proper name: a word in no plain list written with a capital and small letters
    (``Millbeck``, ``Kirkgate``); written in capitals or in lower case (where a misspelt or inflected
    clinical word is as likely: ``PROPFOL``, ``transfused``), one of the name and place lists too."""
    low = word.lower().strip(".'’")
    low = low[:-2] if low.endswith(("'s", "’s")) else low
    if len(low) < 2 or not low.isalpha() or low in _plain():
        return False
    return (word[:1].isupper() and not word.isupper()) or low in _names()


def _unplain(word: str) -> bool:
    """A word of three letters or more in no plain list (``merthyr``, ``sunland``): after a cue that
    names a town or a firm, a lower-case note's proper name, which no list holds."""
    low = word.lower().strip(".,'’")
    return len(low) > 2 and low.isalpha() and low not in _plain()


#: First names, surnames and towns of the lists, lower case.
_names = partial(lists, "first_male", "first_female", "surnames", "surnames_rare", "cities")


def _leading_plain(text: str, start: int, end: int) -> int:
    """``start`` moved past leading stop words, titles and relations (``The``, ``Dear``, ``Mr``),
    and past a plain word that opens a line or a sentence (``Contact`` of ``Contact Hollybrook Unit``)."""
    skip = gazetteers.load("stop_words") | gazetteers.load("titles") | gazetteers.load("relations") | _D.LEADING_SKIP
    for i, m in enumerate(_D.WORD_RUN.finditer(text[start:end])):
        word = m.group().lower().strip(".,:")
        opens = i == 0 and _D.OPENS.search(text[max(0, start - 3):start]) is not None
        if word not in skip and not (opens and not _proper(m.group().strip(".,:"))):
            return start + m.start()
    return end


@lru_cache(maxsize=1)
def _breaks() -> frozenset:
    """Words a place's name does not hold past its first word: stop words (but the joins of
    ``Meals on Wheels``), relations, titles, days and months."""
    return (lists("stop_words") - _D.JOINS) | lists("relations", "titles", "days", "months")


def _after_stop(text: str, start: int, end: int) -> int:
    """Where the words of ``text[start:end]`` start after the last stop word or relation among
    them (``KINGSLEY`` of ``GO BACK TO KINGSLEY``, a note in capitals)."""
    at = start
    for m in _D.WORD_RUN.finditer(text[start:end]):
        if m.group().lower() in _breaks() - _head_words():
            at = start + m.end()
    return at


@lru_cache(maxsize=1)
def _head_words() -> frozenset:
    """The words of the head phrases, lower case (``family`` of ``Family Health Team``: a relation,
    but a word of a place's name before a head)."""
    return frozenset(w for h in _heads() for w in h.split())


def _cut(text: str, start: int, end: int) -> int:
    """Where the words of ``text[start:end]`` end before the first stop word, relation, day or
    month after the first word (``perris`` of ``perris with sister``)."""
    words = list(_D.WORD_RUN.finditer(text[start:end]))
    for w in words[1:]:
        if w.group().lower() in _breaks():
            return start + len(text[start:start + w.start()].rstrip())
    return end


def _first_proper(text: str, start: int, end: int, loose: bool = False) -> int | None:
    """Where the lower-case words of ``text[start:end]`` start once the leading words that are
    no proper name are left out (``on`` of ``on bucknall new``), None if none is left or a stop
    word follows the first proper one; ``loose``: a word of five letters or more in no plain list
    counts as a proper name too (``bucknall``)."""
    stops = gazetteers.load("stop_words")
    words = list(_D.WORD_RUN.finditer(text[start:end]))
    for i, w in enumerate(words):
        if _proper(w.group()) or (loose and len(w.group()) > 4 and _unplain(w.group())):
            return None if any(x.group() in stops for x in words[i:]) else start + w.start()
    return None


def _unplain_before(text: str, end: int) -> int | None:
    """Where the lower-case words right before ``end`` that are in no plain list (``&``, ``and``,
    ``sons``, ``bros`` between them) start, up to three words; None if there is none."""
    start = None
    window = max(0, end - 80)  # three words at most: no pass back over a long line
    line_start = text.rfind("\n", window, end) + 1 or window
    for i, w in enumerate(reversed(list(_D.WORD_RUN.finditer(text[line_start:end])))):
        word = w.group()
        if i == 3 or not (word in _D.JOIN_HEAD or (word.islower() and _unplain(word))):
            break
        if word not in _D.JOIN_HEAD:
            start = line_start + w.start()
    return start
