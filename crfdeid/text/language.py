"""How much of a note is English: the share of its words among English's most frequent.

The routed model's language gate (:mod:`crfdeid.routing.language`) and the surrogate writer's evidence
(:func:`crfdeid.deid.evidence.foreign`) read a note's words (alphabetic, three letters or more, lower case;
the first :data:`LIMIT`) and the share of them in ``english_words`` (English's 50,000 most frequent words,
from wordfreq: ``gazetteers/english_words.py``). A note of another language holds few: the ICU member's own
1,500 training notes (``synth:1500,13,mix_icu``) hold at least 0.607 each, notes in Spanish, Polish or
Croatian a fraction of that.

>>> share_of("Paciente de 72 años, ingresa por disnea y fiebre.")[0] < MIN_SHARE
True
>>> share_of("Patient resting comfortably, family at bedside.")
(1.0, 5)
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from .. import _data

#: The word lists a share may be of (``crfdeid/_data/NAME.txt``, each rebuilt by a script named in its header).
WORD_LISTS = ("english_words",)
#: A word counted: three letters or more, no digit (``mg``, ``pt`` and codes tell no language).
_WORD = re.compile(r"[^\W\d_]{3,}")
#: The words of a note read, from its start (a note's cost is bounded whatever its length).
LIMIT = 1000
#: Under this share, a note of at least :data:`MIN_WORDS` words is not English: the ICU member's own training
#: notes hold at least 0.607 (rounded down); a few words tell no language.
MIN_SHARE = 0.6
MIN_WORDS = 20


@cache
def word_list(name: str) -> frozenset:
    """The lower-cased words of ``crfdeid/_data/NAME.txt`` (a name of :data:`WORD_LISTS`)."""
    if name not in WORD_LISTS:
        raise ValueError(f"unknown word list {name!r}; known: {', '.join(WORD_LISTS)}")
    lines = (Path(_data.__file__).parent / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


def share_of(text: str, words: str = "english_words") -> tuple[float, int]:
    """``(share, count)``: the share of the first :data:`LIMIT` words of ``text`` in the list ``words``
    (1.0 of a text of none) and how many words were read."""
    known = word_list(words)
    found = [m.group().lower() for _, m in zip(range(LIMIT), _WORD.finditer(text))]
    return (sum(w in known for w in found) / len(found) if found else 1.0), len(found)


def mostly_not(text: str, words: str = "english_words", min_share: float = MIN_SHARE,
               min_words: int = MIN_WORDS) -> bool:
    """Whether ``text`` has at least ``min_words`` words and under ``min_share`` of them in the list ``words``: the
    routed model's language gate and the writer's ``unread`` ask this one question."""
    share, count = share_of(text, words)
    return count >= min_words and share < min_share
