"""Person-name surrogates that keep the parts of one person coherent.

Each name word maps to a surrogate word of the same role (first name, with
its gender when the gazetteers know it, or surname) once per patient, so
``John Smith``, ``Smith``, ``Mr. Smith`` map to ``Paul Jones``, ``Jones``,
``Mr. Jones``; initials are resolved through the full names of the patient
(``J. Smith`` -> ``P. Jones``, ``JS`` -> ``PJ``) and otherwise through a
per-patient letter permutation. Titles (``Dr.``, ``MD``) and punctuation stay.
Words in any script count (``Петров``, ``王小明``, ``Zoë Müller-Øster``); the
surrogate words are taken from the (ASCII) gazetteers, and digits inside a name
span (``MRN 8830017`` typed as a name) are redrawn. A word keeps one surrogate per
patient whatever its role in a note; a possessive keeps its ``'s``; a run of surname
particles (``van der``, ``de la``, ``bin``) becomes as many other particles, once per
patient, in the case of each (``Van der Berg``, ``VAN DER BERG`` -> ``Op den Sheppard``,
``OP DEN SHEPPARD``).
"""

from __future__ import annotations

import functools
import unicodedata
from typing import NamedTuple

import regex

from .. import gazetteers
from ..document import Span
from ..schema import PERSON_SUBTYPES
from .rng import apply_case, normalize, random_like
from .spans import runs

_WORD = regex.compile(r"(?:\p{L}\p{M}*)+(?:['\u2019](?:\p{L}\p{M}*)+)*")
_DIGITS = regex.compile(r"\d+")
_POSSESSIVE = regex.compile(r"(?i)['\u2019]s$")
#: Surname particles (Dutch, German, French, Spanish, Portuguese, Italian, Arabic, Irish): written
#: by hand, a closed class. A run of them before a surname is replaced by a run of as many others.
PARTICLES = frozenset({"van", "von", "der", "den", "dem", "het", "de", "del", "della", "la", "las", "los",
                       "le", "du", "da", "di", "dos", "das", "do", "ter", "ten", "op", "uit", "zu", "und",
                       "bin", "binti", "bint", "ibn", "al", "el", "ni", "nic"})
#: The runs of two particles a two-particle run becomes (one particle: one of :data:`_ONE`).
_TWO = ("van der", "van den", "van de", "von der", "von dem", "de la", "de las", "de los", "van het",
        "da la", "ibn al", "bin al", "op ten", "op den", "uit den", "van ter", "von und")
_ONE = ("van", "von", "de", "du", "da", "di", "le", "ter", "ten", "bin", "ibn", "al", "el", "dos", "op", "zu")


def _ascii_fold(word: str) -> str:
    """Lower case without combining marks (``Zoë`` -> ``zoe``): how the gazetteers are looked up."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold())
                   if unicodedata.category(c)[0] != "M")


@functools.cache
def pool(name: str) -> tuple[str, ...]:
    """Single-word alphabetic entries (at least two letters) of the surrogate list of gazetteer
    ``name``: its common names (:func:`crfdeid.gazetteers.surrogate_entries`)."""
    return tuple(e for e in gazetteers.surrogate_entries(name) if e.isalpha() and len(e) > 1 and e.isascii())


@functools.cache
def _titles() -> frozenset:
    return frozenset(t.lower().rstrip(".") for t in gazetteers.load("titles"))


def words(text: str) -> list[regex.Match]:
    """The name words of a name string (titles excluded)."""
    titles = _titles()
    return [m for m in _WORD.finditer(text) if m.group().lower() not in titles]


def full_words(text: str) -> tuple[str, ...]:
    """Lower-cased full (non-initial) name words, or () if any word is an initial."""
    ws = [_ascii_fold(m.group()) for m in words(text)]
    if len(ws) < 2 or any(_is_initials(w) for w in ws):
        return ()
    return tuple(ws)


def _is_initials(word: str) -> bool:
    if len(word) == 1:
        return True
    low = _ascii_fold(word)
    return (word.isupper() and len(word) <= 3 and low not in gazetteers.load("surnames")
            and low not in gazetteers.load("first_male") and low not in gazetteers.load("first_female"))


@functools.cache
def _rank(name: str) -> dict:
    return {e.lower(): i for i, e in reversed(list(enumerate(gazetteers.entries(name))))}


def _role(word: str) -> str:
    """``first_male``/``first_female`` (by the more frequent use when in both), else ``surname``."""
    low = _ascii_fold(word)
    male, female = _rank("first_male").get(low), _rank("first_female").get(low)
    if male is None and female is None:
        return "surname"
    if female is None or (male is not None and male <= female):
        return "first_male"
    return "first_female"


def _pool_for(role: str) -> tuple[str, ...]:
    return pool(role if role != "surname" else "surnames")


_TITLE_GENDER = {"mrs": "first_female", "ms": "first_female", "miss": "first_female", "mr": "first_male"}


def gender_of(before: str, text: str) -> str | None:
    """``first_female``/``first_male`` when a title before or inside a name says so (``Mrs.``,
    ``Ms.``, ``Miss``, ``Mr.``), else None.

    >>> gender_of("seen by Mrs. ", "Kaveri Rao"), gender_of("", "Mr. Rao"), gender_of("", "Rao")
    ('first_female', 'first_male', None)
    """
    m = regex.search(r"(?i)\b(mrs|ms|miss|mr)\b\.?\s*$", before) or regex.match(r"(?i)\s*(mrs|ms|miss|mr)\b", text)
    return _TITLE_GENDER[m.group(1).lower()] if m else None


#: Surrogates of a name of rank r in its list are drawn among the common names ranked about
#: r/2 to 2r, and at least this many of them (hiding in plain sight: docs/hips.md).
_BAND = 50


@functools.cache
def _rare(role: str, listed: bool) -> tuple[str, ...]:
    """Names rarer than the common ones, for an original that is rare too: the entries of the
    role's list after its common ones (``listed``), or of ``surnames_rare`` (a surname in no
    list); words of the English or clinical word lists, and names left out of the common
    names (a joke or an insult), are never drawn."""
    full = "surnames" if role == "surname" else role
    common = _pool_for(role)
    entries = gazetteers.entries(full)
    denied = {e.lower() for e in entries[:_rank_of_last(role) + 1]} - {e.lower() for e in common}
    if not listed and role == "surname":
        entries = gazetteers.entries("surnames_rare")
    else:
        entries = entries[_rank_of_last(role) + 1:]
    words = gazetteers.load("common_words") | gazetteers.load("clinical_words") | denied
    out = tuple(e for e in entries if e.isalpha() and len(e) > 2 and e.isascii() and e.lower() not in words)
    return out or common


@functools.cache
def _rank_of_last(role: str) -> int:
    """The rank in the role's full list of its last common name."""
    full = "surnames" if role == "surname" else role
    ranks = _rank(full)
    return max(ranks.get(e.lower(), 0) for e in _pool_for(role))


def _choices(role: str, low: str) -> tuple[str, ...]:
    """The names a surrogate of name word ``low`` is drawn from: common names of about its rank
    when it is a common name, rarer names when it is rarer (real names are not all common:
    surrogates that always are stand out)."""
    common = _pool_for(role)
    rank = _rank("surnames" if role == "surname" else role).get(low)
    if rank is None or rank > _rank_of_last(role):
        return _rare(role, rank is not None)
    lo = max(0, min(rank // 2, len(common) - _BAND))
    return common[lo:max(lo + _BAND, 2 * rank + 1)]


def word_surrogate(state, keyed, word: str, role: str | None = None) -> str:
    """The surrogate of one full name word for this patient, in ``word``'s case (``role``: the
    list to draw from when the lists do not know the word), of about its frequency (:func:`_choices`).

    One surrogate per word and patient whatever its role in a note (``Ms. Olawale`` takes a
    first name's list, ``Olawale-Finch`` a surname's): the list only matters at the first draw.
    """
    role = _role(word) if role is None or _role(word) != "surname" else role
    choices = _choices(role, _ascii_fold(word))
    low = _ascii_fold(word)
    new = state.assign("name", low, lambda a: keyed.rng("name", state.patient, low, a).choice(choices))
    return apply_case(word, new)


def _particle_run(ws: list[str], i: int) -> int:
    """How many words from ``i`` are a run of surname particles before a name word (0: none).

    A particle is one of :data:`PARTICLES`; the run must be followed by a word that is not one.
    A capitalised first word alone before a name (``Van Morrison``, ``Al Smith``) is a first name
    when the lists know it as one; lower case (``van Gogh``), a run of two (``VAN DER BERG``), a
    place after another word (``Anna Van Berg``) or a word no first-name list holds (``bin``) is a
    particle.
    """
    j = i
    while j < len(ws) - 1 and _ascii_fold(ws[j]) in PARTICLES:
        j += 1
    n = j - i
    if n == 1 and i == 0 and not ws[0].islower() and _role(ws[0]) != "surname":
        return 0
    return n


def particles(state, keyed, run: list[str]) -> list[str]:
    """The surrogate of a run of surname particles (``van der``, ``de la``, ``bin``): as many other
    particles, the same for the patient whatever the case, each in the case of the one it replaces."""
    low = " ".join(_ascii_fold(w) for w in run)
    pool_ = _TWO if len(run) == 2 else _ONE

    def draw(a):  # the usual runs first; then any particles, the originals' runs being refused
        rng = keyed.rng("particles", state.patient, low, a)
        return rng.choice(pool_) if len(run) <= 2 and a < 20 else " ".join(rng.choice(_ONE) for _ in run)
    new = state.assign("particles", low, draw, limit=60).split()
    return [apply_case(w, n) if not w.islower() else n for w, n in zip(run, new)]


def _initial(state, keyed, letter: str) -> str:
    up = _ascii_fold(letter).upper()
    new = state.letters.get(up)
    if new is None:  # a letter outside A-Z: a keyed random one
        new = keyed.rng("initial", state.patient, up).choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return new if letter.isupper() or not letter.islower() else new.lower()


def _person_for(state, ws: list[str]) -> tuple | None:
    """A known full name whose words match ``ws`` (full words equal, initials matching)."""
    low = [_ascii_fold(w) for w in ws]
    for person in sorted(state.persons):
        if len(person) != len(low):
            continue
        if all(p == w or (_is_initials(o) and len(o) == 1 and p[0] == w)
               for p, w, o in zip(person, low, ws)):
            return person
    return None


class _Word(NamedTuple):
    start: int
    end: int
    text: str


def _hyphenated(text: str, ms: list[_Word], i: int) -> bool:
    """Whether name word ``i`` is joined to the next or the one before by a hyphen."""
    after = i + 1 < len(ms) and text[ms[i].end:ms[i + 1].start] in ("-", "\u2010", "\u2011")
    before = i > 0 and text[ms[i - 1].end:ms[i].start] in ("-", "\u2010", "\u2011")
    return after or before


def _later_word(state, word: str) -> bool:
    """Whether ``word`` is a word after the first of one of the patient's full names (a surname)."""
    return _ascii_fold(word) in state.later_words


def name(state, keyed, text: str, gender: str | None = None) -> str:
    """Surrogate of a person-name string (PATIENT, DOCTOR): same layout, coherent parts. A first
    name the lists do not know takes a first name of ``gender`` when given (:func:`gender_of`)."""
    return apply_parts(text, name_parts(state, keyed, text, gender))


def apply_parts(text: str, reps, start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` with the replacements ``(s, e, new)`` (offsets into ``text``) that lie in it."""
    end = len(text) if end is None else end
    out, pos = [], start
    for s, e, new in reps:
        if start <= s and e <= end:
            out += [text[pos:s], new]
            pos = e
    return "".join(out) + text[pos:end]


def name_parts(state, keyed, text: str, gender: str | None = None) -> list[tuple[int, int, str]]:
    """The replacements ``(start, end, surrogate)`` of the words and numbers of a person-name
    string, sorted (:func:`name`): titles, punctuation and spaces are left out, a possessive's
    ``'s`` too, a run of surname particles (``van der``) gets as many particles."""
    ms = [_Word(m.start(), m.end(), m.group()) for m in words(text) or _WORD.finditer(text)]
    for i, m in enumerate(ms):  # a possessive keeps its 's: Smith's is Smith
        if len(m.text) > 3 and _POSSESSIVE.search(m.text):
            ms[i] = _Word(m.start, m.end - 2, m.text[:-2])
    ws = [m.text for m in ms]
    person = _person_for(state, ws) if any(_is_initials(w) for w in ws) and len(ws) > 1 else None
    reps = []
    run_end, surname = 0, False
    for i, (m, w) in enumerate(zip(ms, ws)):
        if i < run_end:
            continue
        n = _particle_run(ws, i)
        if n:
            for p, new in zip(ms[i:i + n], particles(state, keyed, ws[i:i + n])):
                reps.append((p.start, p.end, new))
            run_end, surname = i + n, True
            continue
        if surname:  # the word after particles is a surname (de la Cruz), not a first name
            reps.append((m.start, m.end, word_surrogate(state, keyed, w, "surname")))
            surname = False
            continue
        if len(w) == 1:
            new = (word_surrogate(state, keyed, person[i])[0] if person else _initial(state, keyed, w))
            new = new.lower() if w.islower() else new.upper()
        elif _is_initials(w):
            match = next((p for p in sorted(state.persons)
                          if len(p) == len(w) and "".join(x[0] for x in p) == _ascii_fold(w)), None)
            if match:
                new = "".join(word_surrogate(state, keyed, x)[0] for x in match).upper()
            else:
                new = "".join(_initial(state, keyed, c) for c in w)
        else:
            # a title's gender makes an unknown first word a first name, unless it is part of a
            # surname: hyphenated (Olawale-Finch) or a later word of the patient's full names,
            # so "Ms. Olawale-Finch" takes the surname "Marguerite Olawale-Finch" gave it
            first = (gender is not None and i == 0 and len(ws) > 1 and not _hyphenated(text, ms, i)
                     and not _later_word(state, w))
            new = word_surrogate(state, keyed, w, gender if first else None)
        reps.append((m.start, m.end, new))
    for m in _DIGITS.finditer(text):  # a number in a name span ("MRN 8830017" found as a name)
        w = m.group()
        reps.append((m.start(), m.end(), state.assign("code", w, lambda a, w=w: random_like(
            w, keyed.rng("code", state.patient, normalize(w), a)))))
    return sorted(reps)


def adjacent(text: str, spans: list[Span]) -> list[list[Span]]:
    """Runs of two or more PATIENT or DOCTOR spans of one subtype separated by spaces alone on
    one line (``Anna Van`` | ``der`` | ``Berg``, as a tagger may cut a name): one name, whose
    surrogate is drawn whole (:func:`name_parts`) so its particles and parts stay coherent."""
    def joins(run: list[Span], sp: Span) -> bool:
        gap = text[run[-1].end:sp.start]
        return sp.subtype == run[-1].subtype and bool(gap) and not gap.strip(" \t")
    return runs(spans, lambda sp: sp.subtype in PERSON_SUBTYPES, joins)
