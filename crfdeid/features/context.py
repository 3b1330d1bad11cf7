"""Context and dictionary templates: what the document around a token and the word lists say.

Context templates (glued flags, line position, list items, section headings, trigger
words) look at the document around a token, so they are computed once per document (not
cached per word type). The line ranges and token texts that several of them need (and the
emission scorer, :mod:`crfdeid.crf.numpy.emission`) are computed once per document
(:func:`crfdeid.features.window.per_document`).

Dictionary templates give gazetteer membership (word level and multi-word phrases).
Lists come from :mod:`crfdeid.gazetteers` (``gazetteers/<name>.txt``, English), loaded
lazily and cached. The clinical/common-word lists argue against PHI. A featurizer
built with other :class:`~crfdeid.resources.Resources` (a config's ``resources``
section: the user's lists, another language) binds each template to those lists
(``template.bind(resources)``).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from itertools import compress
from operator import attrgetter

import regex

from .. import gazetteers
from ..text.tokenize import token_strings
from .window import TOKEN_TEMPLATES, WORD_TEMPLATES, per_document

# -- what the token templates of one document share ------------------------------------


@per_document
def line_cuts(text: str, tokens) -> tuple:
    """``(0, ..., len(tokens))``: the index of the first token of every line, then the end.

    A line ends where the white space between two tokens holds a ``\\n``.

    >>> from crfdeid.text.tokenize import tokenize
    >>> text = "BP 120\\n\\nHR 80"
    >>> line_cuts(text, tokenize(text))
    (0, 2, 4)
    """
    n = len(tokens)
    cuts = [0]
    if n > 1:
        starts = [t.start for t in tokens]
        last = starts[-1]
        p = text.find("\n", tokens[0].end, last)
        while p >= 0:
            k = bisect.bisect_left(starts, p)  # the first token after the line break
            if tokens[k - 1].end <= p:  # in the white space between tokens k - 1 and k
                cuts.append(k)
                p = starts[k]  # the other breaks of this gap end the same line
            p = text.find("\n", p + 1, last)
    if n:
        cuts.append(n)
    return tuple(cuts)


def lines(text: str, tokens):
    """``(first, last + 1)`` token index ranges of the lines of ``text``."""
    cuts = line_cuts(text, tokens)
    return zip(cuts, cuts[1:])


def line_of(cuts: tuple, i: int) -> tuple[int, int]:
    """The ``(first, last + 1)`` token range of the line holding token ``i``."""
    j = bisect.bisect_right(cuts, i)
    return cuts[j - 1], cuts[j]


@per_document
def token_texts(text: str, tokens) -> tuple[list, list, list]:
    """The token texts, their lower-cased forms and whether each is alphabetic."""
    words = [t.text for t in tokens]
    return words, [w.lower() for w in words], list(map(str.isalpha, words))


# -- context ---------------------------------------------------------------------------

_HEADING = regex.compile(r"^[ \t]*([A-Za-z][A-Za-z /&]{1,30}?)[ \t]*:", regex.M)
_HEADING_ASCII = re.compile(_HEADING.pattern, re.M)  # the same on ASCII text, 2x faster
_LIST = regex.compile(r"[-*\u2022#]|\d{1,2}[.)]")


_GLUED = {(False, False): (), (True, False): ("glued_l",), (False, True): ("glued_r",),
           (True, True): ("glued_l", "glued_r")}
_GLUED_FLAGS = attrgetter("glued_left", "glued_right")


@TOKEN_TEMPLATES.register("glued.v1")
def glued(text: str, tokens) -> list[tuple]:
    """Whether a token touches its left/right neighbour (``Since6/03`` vs ``Since 6 / 03``)."""
    return list(map(_GLUED.__getitem__, map(_GLUED_FLAGS, tokens)))


_POS = ("linepos:first", "linepos:second", "linepos:mid", "linepos:last")


@TOKEN_TEMPLATES.register("line.v1")
def line(text: str, tokens) -> list[tuple]:
    """Position in line (first, second, last, other), line is a list item, line is all caps."""
    words, _, alpha = token_texts(text, tokens)
    out: list = []
    for a, b in lines(text, tokens):
        extra: tuple[str, ...] = ()
        if _LIST.fullmatch(words[a]) is not None:
            extra += ("list_item",)
        if all(map(str.isupper, compress(words[a:b], alpha[a:b]))):
            extra += ("line_upper",)
        first, second, mid, last = ((p,) + extra for p in _POS)
        k = b - a
        if k == 1:
            out.append(first)
            continue
        out.append(first)
        out.append(second)
        if k > 2:
            out.extend([mid] * (k - 3))
            out.append(last)
    return out


@TOKEN_TEMPLATES.register("section.v1")
def section(text: str, tokens) -> list[tuple]:
    """The section heading (``Xxx:`` at a line start, lower-cased) the token sits under.

    Headings are ASCII letters (English); ``section.v2`` takes letters of any script.
    """
    return _sections(text, tokens, _HEADING_ASCII if text.isascii() else _HEADING)


#: A heading in any script: ``Exploración física:``, ``Анамнез:``, ``既往歴:``.
_HEADING_ANY = regex.compile(r"^[ \t]*(\p{L}[\p{L}\p{M} /&]{1,30}?)[ \t]*[:\uff1a]", regex.M)


@TOKEN_TEMPLATES.register("section.v2")
def section_any_script(text: str, tokens) -> list[tuple]:
    """``section.v1`` for headings written in any script (letters and combining marks)."""
    return _sections(text, tokens, _HEADING_ASCII if text.isascii() else _HEADING_ANY)


def _sections(text: str, tokens, pattern) -> list[tuple]:
    heads = [(m.start(1), ("section:" + m.group(1).strip().lower().replace(" ", "_"),))
             for m in pattern.finditer(text)]
    if not heads:
        return [()] * len(tokens)
    starts = [h[0] for h in heads]
    out = []
    j, nxt = -1, starts[0]
    cur: tuple = ()
    for t in tokens:
        if t.start >= nxt:
            j = bisect.bisect_right(starts, t.start) - 1
            cur = heads[j][1]
            nxt = starts[j + 1] if j + 1 < len(starts) else len(text) + 1
        out.append(cur)
    return out


#: Words that announce a name or a place a few tokens later (lower case).
TRIGGERS = {
    "name": frozenset("""dr doctor md rn np pa mr mrs ms miss wife husband son daughter
        mother father brother sister niece nephew aunt uncle friend family called call spoke
        visited visit by with per pt patient name named attending resident fellow
        cousin grandson granddaughter daughters sons""".split()),
    "place": frozenset("""hospital transferred transfer from to at home rehab nursing
        facility center clinic admitted lives live living moved""".split()),
}


def _trigger_attrs(triggers: dict, name: str) -> dict:
    """word -> the attributes it gives the token k = 1, 2, 3 places away."""
    kinds: dict = {}
    for kind, words in triggers.items():
        for w in words:
            kinds.setdefault(w, []).append(kind)
    return {w: [tuple(f"{name}:{kind}:{k}" for kind in ks) for k in (1, 2, 3)]
            for w, ks in kinds.items()}


def _mark_near_triggers(text: str, tokens, table: dict, after: bool) -> list:
    """Give each token the attributes of the trigger words up to 3 tokens before it
    (``after=True``: after it) on the same line."""
    n = len(tokens)
    low = token_texts(text, tokens)[1]
    out: list = [()] * n
    hits = list(compress(range(n), map(table.__contains__, low)))
    if not hits:
        return out
    cuts = line_cuts(text, tokens)
    for i in hits:
        attrs = table[low[i]]
        a, b = line_of(cuts, i)
        for j in (range(max(a, i - 3), i) if after else range(i + 1, min(b, i + 4))):
            out[j] += attrs[abs(i - j) - 1]
    return out


_TRIGGER_ATTRS = _trigger_attrs(TRIGGERS, "trig")


@TOKEN_TEMPLATES.register("triggers.v1")
def triggers(text: str, tokens) -> list:
    """``trig:<kind>:<k>`` when the k-th token back (k <= 3, same line) is a trigger word."""
    return _mark_near_triggers(text, tokens, _TRIGGER_ATTRS, after=False)


def _triggers_with(table: dict, after: bool):
    if not table:  # no trigger word in this language: nothing to mark
        return lambda text, tokens: [()] * len(tokens)
    return lambda text, tokens: _mark_near_triggers(text, tokens, table, after=after)


# Bound to a config's resources (crfdeid.resources: the user's words, another language).
triggers.bind = lambda res: _triggers_with(
    _trigger_attrs(res.trigger_words("triggers"), "trig"), after=False)


#: Words that follow a name or a place (lower case): ``V. Finn, RRT``, ``Union hosp``.
TRIGGERS_AFTER = {
    "name": frozenset("""rn rrt np pa md lpn msw cm pt ot slp phd do resident fellow
        attending aware notified paged informed""".split()),
    "place": frozenset("""hospital hosp hospitals memorial medical center clinic rehab
        nursing facility house""".split()),
}
_AFTER_ATTRS = _trigger_attrs(TRIGGERS_AFTER, "trig_after")


@TOKEN_TEMPLATES.register("triggers_after.v1")
def triggers_after(text: str, tokens) -> list:
    """``trig_after:<kind>:<k>`` when the k-th token ahead (k <= 3, same line) is a trigger word."""
    return _mark_near_triggers(text, tokens, _AFTER_ATTRS, after=True)


triggers_after.bind = lambda res: _triggers_with(
    _trigger_attrs(res.trigger_words("triggers_after"), "trig_after"), after=True)


_SENT_END = frozenset(".!?:;")
_CAP_MID, _UPPER_MID = ("case:cap_mid_lower",), ("case:upper_mid_lower",)
_LOWER_IN_UPPER, _SENT_START = ("case:lower_in_upper",), ("case:sent_start",)


@TOKEN_TEMPLATES.register("case_context.v1")
def case_context(text: str, tokens) -> list:
    """A word's case against its line's: capitalised mid-sentence in a mostly lower-case line
    (``spoke with Sarah``) or lower case in an upper-case line (``CALLED sarah``)."""
    words, _, alpha = token_texts(text, tokens)
    out: list = [()] * len(tokens)
    for a, b in lines(text, tokens):
        idx = list(compress(range(a, b), alpha[a:b]))  # the line's words
        if not idx:
            continue
        lower = sum(map(str.islower, map(words.__getitem__, idx))) / len(idx)
        for i in idx:
            w = words[i]
            start = i == a or words[i - 1] in _SENT_END
            if lower >= 0.5 and not start and w[0].isupper():
                out[i] = _UPPER_MID if w.isupper() and len(w) > 1 else _CAP_MID
            elif lower < 0.5 and w.islower():
                out[i] = _LOWER_IN_UPPER
            elif start:
                out[i] = _SENT_START
    return out


# -- dictionary ------------------------------------------------------------------------

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
    return [(attr, frozenset(map(str.lower, entries))) for _, attr, entries in _installed(WORD_LISTS, res)]


@lru_cache(maxsize=1)
def _word_sets():
    # The shipped lists' lower-cased sets, those the rules and filters read too (built once).
    known = set(gazetteers.names())
    return [(attr, gazetteers.load(name)) for name, attr in WORD_LISTS.items() if name in known]


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


def _build_ranks(res) -> list[tuple[str, dict]]:
    """``[(kind, {lower-cased entry: its first position}), ...]`` in list order: built at C
    speed (a dictionary from the reversed list keeps each word's first position), the
    bucket computed when a word is looked up (the featurizer caches each word type)."""
    return [(kind, dict(zip(map(str.lower, reversed(entries)), range(len(entries) - 1, -1, -1))))
            for _, kind, entries in _installed(RANKED_LISTS, res)]


def _bucket(position: int) -> str:
    return next((f"top{b}" for b in _RANK_BUCKETS if position < b), "tail")


def _ranked(lists: list[tuple[str, dict]], lw: str) -> dict:
    got: dict = {}
    for kind, first in lists:  # the first list of a kind that has the word gives its bucket
        key = f"rank:{kind}"
        if key not in got and (position := first.get(lw)) is not None:
            got[key] = _bucket(position)
    return got


@lru_cache(maxsize=1)
def _ranks() -> list[tuple[str, dict]]:
    return _build_ranks(_shipped())


def _rank_with(ranks):
    def rank(w: str) -> dict:
        return _ranked(ranks, w.lower())
    return rank


@WORD_TEMPLATES.register("rank.v1")
def rank(w: str) -> dict:
    """Frequency bucket of the word in the ranked name and English-word lists.

    A surname in the top 100 and a common English word in the top 100 are
    different evidence from one that is merely on both lists (``Nancy``, ``Finn``).
    """
    return _ranked(_ranks(), w.lower())


rank.bind = lambda res: _rank_with(_build_ranks(res))


def _build_phrase_index(res) -> tuple[dict, frozenset]:
    index: dict = {}
    for _, attr, entries in _installed(PHRASE_LISTS, res):
        # An ASCII word of letters (lower-cased) is one token: only the others are tokenized.
        for entry in {e for e in map(str.lower, entries) if not (e.isalpha() and e.isascii())}:
            toks = tuple(token_strings(entry))
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
