"""The word lists and the note's shapes that :mod:`crfdeid.deid.confident` reads: clinical vocabulary,
listed names and places, English word frequency (the shipped ``common_words`` list, wordfreq's), a note's
labels and headings, whether a note is written in capitals or in lower case; and the tagger's confidence
its weaker evidence needs (:data:`SURE`), the figure :mod:`crfdeid.deid.confident` and
:mod:`crfdeid.deid.confident_note` share."""

from __future__ import annotations

import re
from functools import lru_cache

from .. import gazetteers
from ..text.language import mostly_not
from . import facts, names

#: A word among this many of the most frequent English words (the shipped ``common_words`` list,
#: wordfreq's top 10,000 by frequency) is a common word: about Zipf 4.0 and above (``ward`` rank
#: 3,778, ``class`` 405, ``height`` 2,774; ``smith`` 1,335 but a listed surname of the 2,000 most frequent).
COMMON = 7000
#: A tagger's confidence (lowest token P(PHI) in the span) a one-word name or a day and month
#: without a year needs, and below which the weaker evidence of :mod:`crfdeid.deid.confident_note` is
#: doubted: the weaker the shape's evidence, the surer the tagger must be.
SURE = 0.9
_COMMON_SURNAMES = 2000
ARTICLE_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(?:a|an|the)\s+$")
#: A title right before a span (``Dr``, ``Mrs.``, ``Sister``): a person's name follows.
TITLE_BEFORE = re.compile(r"(?i)\b(?:dr|mr|mrs|ms|miss|mx|prof|professor|sister|sr|fr|rev|dame|sir|lady|lord)"
                          r"\.?\s*$")
#: Words that put a person right before them (``Okafor aware``, ``Okafor notified``): what a person does in a
#: note, never a term's.
PERSON_AFTER = frozenset({"aware", "notified", "paged", "called", "phoned", "informed", "updated", "visited",
                          "visiting", "spoke", "said", "says", "stated", "states", "reports", "reported",
                          "agrees", "agreed", "declined", "requested", "asked", "wants", "wishes"})
#: Lists of the words that head or label a note's parts and name its staff: no name word.
_LABEL_LISTS = ("note_labels", "heading_words", "staff_roles", "professions")
_PLACE_LISTS = ("hospitals", "cities", "countries", "states", "hospital_words", "hospital_heads",
                "organizations", "organization_words", "organization_heads", "ward_heads",
                "town_heads", "street_types", "street_suffixes", "state_abbrevs", "street_names")


@lru_cache(maxsize=1)
def lists() -> tuple[frozenset, frozenset, frozenset, frozenset, frozenset]:
    """Clinical words (but common names), listed names, the most frequent names, clinical heads, places."""
    entries, _, heads = facts._vocabulary()
    first = frozenset(w.lower() for n in ("first_male", "first_female") for w in gazetteers.entries(n))
    surnames = [w.lower() for w in gazetteers.entries("surnames")]
    listed = first | frozenset(surnames) | frozenset(w.lower() for w in gazetteers.entries("surnames_rare"))
    frequent = first | frozenset(surnames[:_COMMON_SURNAMES])
    clinical = frozenset(e for e in entries | labels() if " " not in e)
    places = frozenset(e.lower() for n in _PLACE_LISTS for e in gazetteers.entries(n))
    return clinical, listed, frequent, heads, places


@lru_cache(maxsize=1)
def english() -> dict[str, int]:
    """The frequency rank of each of the 10,000 most frequent English words (``common_words``)."""
    return {w.lower(): i for i, w in reversed(list(enumerate(gazetteers.entries("common_words"))))}


def fold(word: str) -> str:
    """``word`` in lower case without accents, a typographic apostrophe made plain: how the lists are looked up."""
    return names._ascii_fold(word).replace("\u2019", "'")


@lru_cache(maxsize=8)  # a note's every name span asks (the surrogate gate): once a note
def shouting(text: str) -> bool:
    """Whether the note is written in capitals (most of its letters upper case; a few lines tell nothing)."""
    letters = [c for c in text[:4000] if c.isalpha()]
    return len(letters) >= 200 and sum(c.isupper() for c in letters) > 0.6 * len(letters)


_STARTS = re.compile(r"(?:^|[.!?][ \t]+)[^\w\n]*([^\W\d_])", re.MULTILINE)


@lru_cache(maxsize=8)  # as shouting: once a note
def foreign(text: str) -> bool:
    """Whether the note is mostly in another language than English: of its words (at least the routed model's
    language gate's ``MIN_WORDS``), fewer than ``MIN_SHARE`` among English's 50,000 most frequent
    (:func:`crfdeid.text.language.mostly_not`), the gate's own measure."""
    return mostly_not(text)


@lru_cache(maxsize=8)  # as shouting: once a note
def lower_case(text: str) -> bool:
    """Whether the note is written in lower case: half its lines and sentences or more begin with a
    lower-case letter (``bed 5 edna brockhurst``; a note of fewer than three tells nothing: True)."""
    starts = [m.group(1) for m in _STARTS.finditer(text, 0, 4000)]
    return len(starts) < 3 or sum(c.islower() for c in starts) >= 0.5 * len(starts)


@lru_cache(maxsize=1)
def labels() -> frozenset:
    """The entries of the lists of a note's labels, headings, staff roles and professions (``ward``, ``house``)."""
    return frozenset(e.lower() for n in _LABEL_LISTS for e in gazetteers.entries(n))


@lru_cache(maxsize=1)
def stop_words() -> frozenset:
    """The function words of the ``stop_words`` list (``the``, ``of``, ``for``), lower case."""
    return frozenset(w.lower() for w in gazetteers.entries("stop_words"))


def head_after(text: str, end: int) -> bool:
    """Whether a clinical head noun comes right after ``end`` (``Dawes-Redman criteria``, ``Allred score``)."""
    m = facts._HEAD_AFTER.match(text, end)
    return m is not None and m.group(1).lower() in lists()[3]


@lru_cache(maxsize=1)
def note_labels() -> frozenset:
    """The entries of the lists of a note's labels and headings, lower case."""
    return frozenset(e.lower() for n in ("note_labels", "heading_words") for e in gazetteers.entries(n))
