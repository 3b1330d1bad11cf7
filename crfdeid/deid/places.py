"""Surrogates for places, organisations, professions and internet identifiers.

Whole strings known to a gazetteer (a city, a state, a hospital) are replaced
by another entry of the same list with the same number of words. Other
hospitals, organisations, streets, cities, states and countries get a whole
entry of their list (a street's house number and other numbers redrawn);
short upper-case acronyms random letters; other strings are replaced word by
word (a city or surname per word, random digits/letters for words with
digits). Nothing of the original is kept: a generic word such as ``Hospital``
or ``Road`` is also text that redaction removes. Case pattern is kept.
"""

from __future__ import annotations

import functools

import regex

from .. import gazetteers
from . import zipdata
from .names import pool
from .rng import apply_case, normalize, random_like
from .state import NoDraw

_TOKEN = regex.compile(r"(?:\p{L}\p{M}*)+(?:'(?:\p{L}\p{M}*)+)*|\d[\d\p{L}]*|\p{L}+\d[\d\p{L}]*")
_STOP = frozenset({"of", "the", "and", "at", "for", "in", "on", "de", "la", "&"})
#: Subtypes replaced by a whole entry of a list when the string is not in it.
_WHOLE = {"HOSPITAL": "hospitals", "ORGANIZATION": "organizations", "STREET": "street_names",
          "CITY": "cities", "STATE": "states", "COUNTRY": "countries"}


@functools.cache
def phrases(name: str, n_words: int) -> tuple[str, ...]:
    """Entries of gazetteer ``name`` with ``n_words`` words (ASCII; US cities of ``cities``)."""
    return tuple(e for e in all_phrases(name) if len(e.split()) == n_words)


@functools.lru_cache(maxsize=1)
def _generic() -> frozenset:
    return (gazetteers.load("hospital_words") | gazetteers.load("organization_words")
            | gazetteers.load("street_suffixes") | _STOP)


@functools.lru_cache(maxsize=1)
def _institution_words() -> frozenset:
    """Generic words of hospitals and organisations (not streets': ``Lake`` names a hospital)."""
    return gazetteers.load("hospital_words") | gazetteers.load("organization_words") | _STOP


@functools.cache
def word_pool(name: str) -> tuple[str, ...]:
    """Distinct identifying words of gazetteer ``name`` (generic words such as ``Road`` left out)."""
    generic = _generic()
    out = dict.fromkeys(w for e in gazetteers.entries(name) for w in e.split()
                        if w.isalpha() and w.isascii() and len(w) > 1 and w.lower() not in generic)
    return tuple(out)


def pick(state, keyed, kind: str, text: str, *choice_sets) -> str | None:
    """An entry of the first of ``choice_sets`` that has an acceptable one (:meth:`PatientState.assign`),
    in ``text``'s case; None when none has."""
    norm = normalize(text)
    for i, choices in enumerate(c for c in choice_sets if c):
        k = kind if i == 0 else f"{kind}-{i}"
        try:
            return apply_case(text, state.assign(
                k, text, lambda a, k=k, choices=choices: keyed.rng(k, state.patient, norm, a).choice(choices)))
        except NoDraw:
            continue
    return None


def whole(state, keyed, kind: str, text: str, lists: tuple[str, ...]) -> str | None:
    """Another entry of the same gazetteer as ``text`` (same word count), or None if unknown."""
    norm = " ".join(text.lower().split())
    for name in lists:
        if norm in gazetteers.load(name):
            choices = phrases(name, len(text.split()))
            if len(text) <= 4:  # an abbreviation (MA, USA): same length, letters only
                choices = tuple(c for c in choices if len(c) == len(text) and c.isalpha() == text.isalpha())
            if len(choices) > 1:
                return pick(state, keyed, kind, text, choices)
    return None


def _acronym(text: str) -> bool:
    return text.isupper() and text.isalpha() and len(text) <= 4


#: Lists of generic place words: a word of one is replaced by another word of the same list.
_GENERIC_LISTS = ("hospital_words", "organization_words", "street_suffixes")
_SAINTS = ("St", "Mt", "Saint", "Mount", "Fort", "Ft")


@functools.cache
def _generic_words() -> dict[str, tuple[str, ...]]:
    """Lower-cased generic word -> the words it may become (its list's other words, ASCII letters)."""
    out: dict[str, tuple[str, ...]] = {}
    for name in reversed(_GENERIC_LISTS):
        # not a unit's code (icu, micu, csru): a ward's name, not a place's word
        words = tuple(sorted({e for e in gazetteers.entries(name) if e.isalpha() and e.isascii() and len(e) > 2
                              and not (len(e) <= 4 and e.lower().endswith("u"))}))
        out.update(dict.fromkeys((e.lower() for e in gazetteers.entries(name)), words))
    out.update(dict.fromkeys((w.lower() for w in _SAINTS), _SAINTS))
    return out


@functools.cache
def _acronyms(n: int) -> tuple[str, ...]:
    """Acronyms of ``n`` letters that hospitals and organisations of the lists are known by (the
    initials of their words: ``Good Samaritan Hospital`` -> ``GSH``)."""
    out = set()
    for name in ("hospitals", "organizations"):
        for e in all_phrases(name):
            ws = [w for w in e.replace("-", " ").split() if w[:1].isalpha()]
            if len(ws) == n:
                out.add("".join(w[0] for w in ws).upper())
    return tuple(sorted(out))


@functools.cache
def place_words() -> tuple[str, ...]:
    """The identifying words of the US cities of the cities list (the notes' places are mostly
    near; a far city's name reads as a made-up one)."""
    generic = _generic()
    return tuple(dict.fromkeys(w for e in all_phrases("cities") for w in e.split()
                               if w.isalpha() and w.isascii() and len(w) > 1 and w.lower() not in generic))


def _word(state, keyed, kind: str, w: str, source: str) -> str:
    """The surrogate of one word of a place (:func:`wordwise`). A generic word in capitals (``HOLY``,
    ``OF``, ``ST``) is that word, as in lower case (one surrogate whatever the case), not an
    acronym; a unit's code (``ICU``, ``MICU``) is an acronym."""
    low = normalize(w)
    if any(c.isdigit() for c in w):
        return state.assign("code", w, lambda a: random_like(w, keyed.rng("code", state.patient, low, a)))
    if _acronym(w) and (low not in _generic_words() and low not in _STOP or (len(low) <= 4 and low.endswith("u"))):
        known = _acronyms(len(w))
        return state.assign("acronym", w, lambda a: keyed.rng("acronym", state.patient, low, a).choice(known)
                            if known and a < 25 else random_like(w, keyed.rng("acronym", state.patient, low, a)))
    generic = _generic_words().get(low)
    if generic:  # Memorial, General, Street, St: another word of its kind, not a city
        return apply_case(w, state.assign("generic", w, lambda a: keyed.rng(
            "generic", state.patient, low, a).choice(generic)))
    pool = place_words() if source == "cities" else word_pool(source)
    return apply_case(w, state.assign(kind, w, lambda a: keyed.rng(kind, state.patient, low, a).choice(pool)))


def wordwise(state, keyed, kind: str, text: str, source: str = "cities") -> str:
    """Replace every word of ``text`` one by one: words with digits by random characters of their
    shape, acronyms by acronyms of hospitals and organisations, generic words (``Memorial``,
    ``Road``, ``St``) by another of their kind, other words by words of the list ``source`` (US
    cities' for ``cities``)."""
    return _apply(text, [(m.start(), m.end(), _word(state, keyed, kind, m.group(), source))
                         for m in _TOKEN.finditer(text)])


def _apply(text: str, reps) -> str:
    out, pos = [], 0
    for s, e, new in reps:
        out += [text[pos:s], new]
        pos = e
    return "".join(out) + text[pos:]


def entry(state, keyed, kind: str, text: str, name: str) -> str:
    """A whole entry of list ``name`` for the words of ``text`` (same word count when the list
    has one); numbers before and after the words (a house number) redrawn."""
    words = [m for m in _TOKEN.finditer(text) if not any(c.isdigit() for c in m.group())]
    if not words:
        return wordwise(state, keyed, kind, text)
    a, b = words[0].start(), words[-1].end()
    phrase = text[a:b]
    new = pick(state, keyed, kind, phrase, phrases(name, len(phrase.split())), all_phrases(name))
    if new is None:
        raise NoDraw(f"no {name} entry without a run of the original")
    return wordwise(state, keyed, kind, text[:a]) + new + wordwise(state, keyed, kind, text[b:])


@functools.cache
def all_phrases(name: str) -> tuple[str, ...]:
    """Every ASCII entry of gazetteer ``name``; of ``cities``, the US cities (:func:`place_words`)."""
    us = _us_cities() if name == "cities" else None
    return tuple(e for e in gazetteers.entries(name) if e.isascii() and (us is None or e.lower() in us))


@functools.cache
def _us_cities() -> frozenset:
    return frozenset(city.lower() for city, _state, _zips in zipdata.us_places())


def institution(state, keyed, text: str, name: str) -> str | None:
    """A hospital or organisation of list ``name`` that is the same for every form of the
    original (``Harborview Mercy Hospital``, ``Harborview Mercy``): its identifying words (the
    words that are not generic: ``Hospital``, ``Medical Center``, ``St.``...) are drawn once per
    patient from the identifying words of the list's entries and followed by the generic words
    that end an entry (drawn once per place too, never the original's own): every form of one
    place reads as the same place, and as a hospital (``Quincy Visiting Nurses`` too). None
    when the text has no identifying word or digits (a house number: :func:`entry` handles those)."""
    words = [m.group() for m in _TOKEN.finditer(text)]
    if not words or any(c.isdigit() for c in text):
        return None
    generic = _institution_words()
    core = [w for w in words if w.lower().rstrip(".") not in generic and w.lower() not in generic]
    if not core or len(core) == len(words) and len(words) == 1 and _acronym(words[0]):
        return None
    key = " ".join(normalize(w) for w in core)
    cores = _cores(name, len(core)) or _cores(name, 0)
    new_core = state.assign(f"{name}-core", key, lambda a: keyed.rng(f"{name}-core", state.patient, key, a)
                            .choice(cores))
    tails = _tails(name)  # one per place, whatever generic words a form has: one place
    tail = state.assign(f"{name}-generic", key, lambda a: keyed.rng(f"{name}-generic", state.patient, key, a)
                        .choice(tails))
    out = f"{new_core} {tail}"
    return out.upper() if text.isupper() else out


@functools.cache
def _cores(name: str, n_words: int) -> tuple[str, ...]:
    """The identifying words of the entries of list ``name`` (with ``n_words`` of them; 0: any)."""
    generic = _institution_words()
    out = []
    for e in all_phrases(name):
        core = [w for w in e.split() if w.lower().rstrip(".") not in generic and w.lower() not in generic]
        if core and (not n_words or len(core) == n_words):
            out.append(" ".join(core))
    return tuple(dict.fromkeys(out))


@functools.cache
def _tails(name: str) -> tuple[str, ...]:
    """The generic words that end entries of list ``name`` (``Memorial Hospital``, ``Clinic``)."""
    generic = _institution_words()
    out = []
    for e in all_phrases(name):
        ws = e.split()
        i = len(ws)
        while i > 0 and (ws[i - 1].lower() in generic or ws[i - 1].lower().rstrip(".") in generic):
            i -= 1
        if 0 < i < len(ws):
            out.append(" ".join(ws[i:]))
    return tuple(dict.fromkeys(out))


def location(state, keyed, subtype: str, text: str) -> str:
    """Surrogate of a LOCATION/ORGANIZATION/PROFESSION string according to its subtype."""
    if subtype in ("HOSPITAL", "ORGANIZATION"):
        new = institution(state, keyed, text, _WHOLE[subtype])
        if new is not None:
            return new
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
        new = pick(state, keyed, "profession", text, phrases("professions", len(text.split())),
                   all_phrases("professions"))
        if new is None:
            raise NoDraw("no profession without a run of the original")
        return new
    if subtype in _WHOLE and not _acronym(text.strip()):
        return entry(state, keyed, "place-" + _WHOLE[subtype], text, _WHOLE[subtype])
    source = "surnames" if subtype == "DEPARTMENT" else "cities"
    return wordwise(state, keyed, "place-" + source, text, source)


#: Domains that cannot belong to anyone: RFC 2606 names and made-up hosts under the
#: reserved top-level domains ``.test`` and ``.example``.
SAFE_DOMAINS = ("example.com", "example.org", "example.net", "mail.example.org", "post.example.net",
                "inbox.test", "mailhost.test", "webmail.test", "clinic.example", "health.example",
                "familymail.test", "homepage.example")


def _person_words(rng) -> tuple[str, str]:
    return rng.choice(pool("first_female") + pool("first_male")).lower(), rng.choice(pool("surnames")).lower()


def email(state, keyed, text: str) -> str:
    """A realistic address on a domain nobody can own: a made-up person's name in the
    original's style (``first.last``, ``first_last``, initial and surname; digits when the
    original has some) at one of :data:`SAFE_DOMAINS`, in the original's case."""
    local = text.partition("@")[0]

    def draw(a):
        rng = keyed.rng("email", state.patient, normalize(text), a)
        first, last = _person_words(rng)
        sep = "." if "." in local else "_" if "_" in local else ""
        name = f"{first}{sep}{last}" if sep or rng.random() < 0.5 else f"{first[0]}{last}"
        if any(c.isdigit() for c in local):
            name += str(rng.randint(10, 99))
        return apply_case(text, f"{name}@{rng.choice(SAFE_DOMAINS)}")
    return state.assign("email", text, draw)


def url(state, keyed, text: str) -> str:
    """A realistic web address on a domain nobody can own: a scheme (``https://``, ``http://``
    or none, whichever keeps no run of the original's) when it has one, a host of
    :data:`SAFE_DOMAINS`, a path of made-up words when it has a path."""
    m = regex.match(r"(?i)((?:https?|ftp)://)?(www\.)?([^/?#]*)(.*)$", text)
    scheme, _www, _host, path = (g or "" for g in m.groups())

    def draw(a):
        rng = keyed.rng("url", state.patient, normalize(text), a)
        words = _person_words(rng)
        new_path = ""
        if path.strip("/"):
            new_path = "/" + "/".join(rng.choice(words) for _ in path.strip("/").split("/"))
        elif path:
            new_path = "/"
        # http:// of an original http:// would be a kept run: then https:// or none (redrawn)
        new_scheme = rng.choice(("https://", "http://", "")) if scheme else ""
        return apply_case(text, new_scheme + rng.choice(SAFE_DOMAINS) + new_path)
    return state.assign("url", text, draw)
