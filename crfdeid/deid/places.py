"""Surrogates for places, organisations, professions and internet identifiers.

Whole strings known to a gazetteer (a city, a state, a hospital) are replaced
by another entry of the same list with the same number of words; other
strings word by word: generic words (``General``, ``Hospital``, ``St``) stay,
short upper-case acronyms get random letters, words with digits random
digits/letters, other words a city or surname. Case pattern is kept.
"""

from __future__ import annotations

import functools
import re

from .. import gazetteers
from .rng import apply_case, random_like

_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*|\d[\dA-Za-z]*|[A-Za-z]+\d[\dA-Za-z]*")
_STOP = frozenset({"of", "the", "and", "at", "for", "in", "on", "de", "la", "&"})


@functools.lru_cache(maxsize=None)
def phrases(name: str, n_words: int) -> tuple[str, ...]:
    """Entries of gazetteer ``name`` with ``n_words`` words (ASCII)."""
    return tuple(e for e in gazetteers.entries(name) if len(e.split()) == n_words and e.isascii())


@functools.lru_cache(maxsize=1)
def _generic() -> frozenset:
    return (gazetteers.load("hospital_words") | gazetteers.load("organization_words")
            | gazetteers.load("street_suffixes") | _STOP)


@functools.lru_cache(maxsize=None)
def word_pool(name: str) -> tuple[str, ...]:
    """Distinct identifying words of gazetteer ``name`` (generic words such as ``Road`` left out)."""
    generic = _generic()
    out = dict.fromkeys(w for e in gazetteers.entries(name) for w in e.split()
                        if w.isalpha() and w.isascii() and len(w) > 1 and w.lower() not in generic)
    return tuple(out)


def whole(state, keyed, kind: str, text: str, lists: tuple[str, ...]) -> str | None:
    """Another entry of the same gazetteer as ``text`` (same word count), or None if unknown."""
    norm = " ".join(text.lower().split())
    for name in lists:
        if norm in gazetteers.load(name):
            choices = phrases(name, len(text.split()))
            if len(text) <= 4:  # an abbreviation (MA, USA): same length, letters only
                choices = tuple(c for c in choices if len(c) == len(text) and c.isalpha() == text.isalpha())
            if len(choices) > 1:
                return apply_case(text, state.assign(
                    kind, text, lambda a: keyed.rng(kind, state.patient, norm, a).choice(choices)))
    return None


def wordwise(state, keyed, kind: str, text: str, source: str = "cities") -> str:
    """Replace the identifying words of ``text`` one by one (generic words kept)."""
    generic = _generic()
    reps = []
    for m in _TOKEN.finditer(text):
        w = m.group()
        low = w.lower()
        if any(c.isdigit() for c in w):
            new = state.assign("code", w, lambda a: random_like(w, keyed.rng("code", state.patient, low, a)))
        elif low in generic:
            continue
        elif w.isupper() and len(w) <= 4:
            new = state.assign("acronym", w, lambda a: random_like(w, keyed.rng("acronym", state.patient, low, a)))
        else:
            choices = word_pool(source)
            new = apply_case(w, state.assign(
                kind, w, lambda a: keyed.rng(kind, state.patient, low, a).choice(choices)))
        reps.append((m.start(), m.end(), new))
    if not reps:  # only generic words (e.g. "Mercy Hospital"): take a whole hospital name
        choices = phrases("hospitals", len(text.split())) or phrases("hospitals", 2)
        return apply_case(text, state.assign(
            "hospital", text, lambda a: keyed.rng("hospital", state.patient, text.lower(), a).choice(choices)))
    out, pos = [], 0
    for s, e, new in reps:
        out += [text[pos:s], new]
        pos = e
    return "".join(out) + text[pos:]


def location(state, keyed, subtype: str, text: str) -> str:
    """Surrogate of a LOCATION/ORGANIZATION/PROFESSION string according to its subtype."""
    lists = {
        "CITY": ("cities",), "STATE": ("state_abbrevs", "states"), "COUNTRY": ("countries",),
        "HOSPITAL": ("hospitals",), "ORGANIZATION": ("organizations",),
        "PROFESSION": ("professions",),
        "LOCATION-OTHER": ("cities", "states", "countries", "hospitals", "organizations"),
        "OTHER": ("cities", "hospitals", "organizations"),
    }.get(subtype, ())
    new = whole(state, keyed, subtype.lower(), text, lists)
    if new is not None:
        return new
    if subtype == "PROFESSION":
        choices = phrases("professions", len(text.split())) or phrases("professions", 1)
        return apply_case(text, state.assign(
            "profession", text, lambda a: keyed.rng("profession", state.patient, text.lower(), a).choice(choices)))
    source = {"STREET": "street_names", "HOSPITAL": "surnames", "ORGANIZATION": "surnames",
              "DEPARTMENT": "surnames"}.get(subtype, "cities")
    return wordwise(state, keyed, "place-" + source, text, source)


def email(state, keyed, text: str) -> str:
    """Random letters/digits in the same layout; the top-level domain is kept."""
    head, dot, tld = text.rpartition(".")
    if not dot or "@" not in head:
        return random_like(text, keyed.rng("email", state.patient, text.lower()))
    return state.assign("email", text, lambda a: random_like(
        head, keyed.rng("email", state.patient, text.lower(), a)) + dot + tld)


def url(state, keyed, text: str) -> str:
    """Random letters in the same layout; scheme, ``www`` and top-level domain kept."""
    m = re.match(r"(?i)((?:https?|ftp)://)?(www\.)?(.*?)(\.[a-z]{2,6})?(/.*)?$", text)
    scheme, www, body, tld, path = (g or "" for g in m.groups())
    return state.assign("url", text, lambda a: scheme + www + random_like(
        body, keyed.rng("url", state.patient, text.lower(), a)) + tld + random_like(
        path, keyed.rng("url-path", state.patient, text.lower(), a)))
