"""Dictionary templates: gazetteer membership (word level and multi-word phrases).

Lists come from :mod:`crfdeid.gazetteers` (``gazetteers/<name>.txt``, English), loaded
lazily and cached. The clinical/common-word lists argue against PHI. A featurizer
built with other :class:`~crfdeid.resources.Resources` (a config's ``resources``
section: the user's lists, another language) binds each template to those lists
(``template.bind(resources)``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress

from .. import gazetteers
from ..text.tokenize import token_offsets
from .perdoc import token_texts
from .registry import TOKEN_TEMPLATES, WORD_TEMPLATES

#: Gazetteers consulted for single words, and the short attribute each sets.
WORD_LISTS = {
    "first_male": "g:first", "first_female": "g:first", "surnames": "g:sur",
    "surnames_rare": "g:sur_rare",
    "cities": "g:city", "states": "g:state", "state_abbrevs": "g:st_abbr",
    "countries": "g:country", "street_suffixes": "g:street_sfx", "months": "g:month",
    "days": "g:day", "holidays": "g:holiday", "hospital_words": "g:hosp_word",
    "organization_words": "g:org_word", "professions": "g:prof",
    "common_words": "g:common", "clinical_words": "g:clinical",
    "relations": "g:relation", "titles": "g:title",
}
#: Gazetteers whose multi-word entries are matched as token sequences.
PHRASE_LISTS = {"cities": "city", "hospitals": "hosp", "organizations": "org",
                "street_names": "street", "countries": "country", "states": "state",
                "professions": "prof"}


class _Shipped:
    """The shipped English lists, as :class:`crfdeid.resources.Resources` gives them by default."""

    @staticmethod
    def entries(name: str) -> tuple | None:
        return tuple(gazetteers.entries(name)) if name in gazetteers.names() else None


def _shipped() -> _Shipped:
    """The default resources: the shipped English lists."""
    return _Shipped()


def _installed(lists: dict, res) -> list[tuple[str, str, tuple]]:
    """``[(list name, value, entries), ...]`` for the lists of ``lists`` that ``res`` has."""
    return [(name, value, got) for name, value in lists.items() if (got := res.entries(name)) is not None]


def _build_word_sets(res) -> list[tuple[str, frozenset]]:
    return [(attr, frozenset(e.lower() for e in entries)) for _, attr, entries in _installed(WORD_LISTS, res)]


@lru_cache(maxsize=1)
def _word_sets():
    return _build_word_sets(_shipped())


def _gazetteer_with(sets):
    def gazetteer(w: str) -> dict:
        lw = w.lower()
        return {attr: True for attr, entries in sets if lw in entries}
    return gazetteer


@WORD_TEMPLATES.register("gazetteer.v1")
def gazetteer(w: str) -> dict:
    """``g:<list>`` for every gazetteer that contains the lower-cased word."""
    lw = w.lower()
    return {attr: True for attr, entries in _word_sets() if lw in entries}


gazetteer.bind = lambda res: _gazetteer_with(_build_word_sets(res))


#: Frequency-ordered lists whose rank a word gets (bucketed) from ``rank.v1``.
RANKED_LISTS = {"first_male": "first", "first_female": "first", "surnames": "sur",
                "common_words": "eng"}
_RANK_BUCKETS = (100, 1000, 5000)


def _build_ranks(res) -> dict:
    ranks: dict = {}
    for _, kind, entries in _installed(RANKED_LISTS, res):
        for r, entry in enumerate(entries):
            bucket = next((f"top{b}" for b in _RANK_BUCKETS if r < b), "tail")
            ranks.setdefault(entry.lower(), {}).setdefault(kind, bucket)
    return ranks


@lru_cache(maxsize=1)
def _ranks():
    return _build_ranks(_shipped())


def _rank_with(ranks):
    def rank(w: str) -> dict:
        got = ranks.get(w.lower())
        return {f"rank:{kind}": bucket for kind, bucket in got.items()} if got else {}
    return rank


@WORD_TEMPLATES.register("rank.v1")
def rank(w: str) -> dict:
    """Frequency bucket of the word in the ranked name and English-word lists.

    A surname in the top 100 and a common English word in the top 100 are
    different evidence from one that is merely on both lists (``Nancy``, ``Finn``).
    """
    got = _ranks().get(w.lower())
    return {f"rank:{kind}": bucket for kind, bucket in got.items()} if got else {}


rank.bind = lambda res: _rank_with(_build_ranks(res))


def _build_phrase_index(res) -> tuple[dict, frozenset]:
    index: dict = {}
    for _, attr, entries in _installed(PHRASE_LISTS, res):
        for entry in {e.lower() for e in entries}:
            toks = tuple(entry[s:e] for s, e in token_offsets(entry))
            if len(toks) < 2 or len(toks) > 8:
                continue
            index.setdefault(toks[0], {}).setdefault(len(toks), {}).setdefault(toks, set()).add(attr)
    pairs = frozenset(toks[:2] for by_len in index.values() for entries in by_len.values() for toks in entries)
    return index, pairs


@lru_cache(maxsize=1)
def _phrase_index() -> tuple[dict, frozenset]:
    """``first word -> {length: {entry tokens: {list attribute}}}`` of the multi-word
    entries, and the set of their first two words (what a match must start with)."""
    return _build_phrase_index(_shipped())


@TOKEN_TEMPLATES.register("gazetteer_phrases.v1")
def gazetteer_phrases(text: str, tokens) -> list[tuple]:
    """``gp:<list>`` on every token of a multi-word gazetteer entry found in the text."""
    return _phrases(text, tokens, *_phrase_index())


def _phrases(text: str, tokens, index: dict, pairs: frozenset) -> list[tuple]:
    low = token_texts(text, tokens)[1]
    n = len(low)
    out: list = [()] * n
    for i in compress(range(n), map(pairs.__contains__, zip(low, low[1:]))):  # the first two words of an entry
        for k, entries in index[low[i]].items():
            if i + k > n:
                continue
            attrs = entries.get(tuple(low[i:i + k]))
            if attrs:
                marks = tuple(f"gp:{a}" for a in sorted(attrs))
                for j in range(i, i + k):
                    out[j] += marks
    return out


def _phrases_with(built):
    return lambda text, tokens: _phrases(text, tokens, *built)


gazetteer_phrases.bind = lambda res: _phrases_with(_build_phrase_index(res))
