"""Person-name surrogates that keep the parts of one person coherent.

Each name word maps to a surrogate word of the same role (first name, with
its gender when the gazetteers know it, or surname) once per patient, so
``John Smith``, ``Smith``, ``Mr. Smith`` map to ``Paul Jones``, ``Jones``,
``Mr. Jones``; initials are resolved through the full names of the patient
(``J. Smith`` -> ``P. Jones``, ``JS`` -> ``PJ``) and otherwise through a
per-patient letter permutation. Titles (``Dr.``, ``MD``) and punctuation stay.
"""

from __future__ import annotations

import functools
import re

from .. import gazetteers
from .rng import apply_case

_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")


@functools.lru_cache(maxsize=None)
def pool(name: str) -> tuple[str, ...]:
    """Single-word alphabetic entries of gazetteer ``name`` (at least two letters)."""
    return tuple(e for e in gazetteers.entries(name) if e.isalpha() and len(e) > 1 and e.isascii())


def _titles() -> frozenset:
    return frozenset(t.lower().rstrip(".") for t in gazetteers.load("titles"))


def words(text: str) -> list[re.Match]:
    """The name words of a name string (titles excluded)."""
    titles = _titles()
    return [m for m in _WORD.finditer(text) if m.group().lower() not in titles]


def full_words(text: str) -> tuple[str, ...]:
    """Lower-cased full (non-initial) name words, or () if any word is an initial."""
    ws = [m.group().lower() for m in words(text)]
    if len(ws) < 2 or any(_is_initials(w) for w in ws):
        return ()
    return tuple(ws)


def _is_initials(word: str) -> bool:
    if len(word) == 1:
        return True
    low = word.lower()
    return (word.isupper() and len(word) <= 3 and low not in gazetteers.load("surnames")
            and low not in gazetteers.load("first_male") and low not in gazetteers.load("first_female"))


@functools.lru_cache(maxsize=None)
def _rank(name: str) -> dict:
    return {e.lower(): i for i, e in reversed(list(enumerate(gazetteers.entries(name))))}


def _role(word: str) -> str:
    """``first_male``/``first_female`` (by the more frequent use when in both), else ``surname``."""
    low = word.lower()
    male, female = _rank("first_male").get(low), _rank("first_female").get(low)
    if male is None and female is None:
        return "surname"
    if female is None or (male is not None and male <= female):
        return "first_male"
    return "first_female"


def _pool_for(role: str) -> tuple[str, ...]:
    return pool(role if role != "surname" else "surnames")


def word_surrogate(state, keyed, word: str) -> str:
    """The surrogate of one full name word for this patient, in ``word``'s case."""
    role = _role(word)
    choices = _pool_for(role)
    kind = "first" if role.startswith("first") else "surname"
    new = state.assign(kind, word, lambda a: keyed.rng("name", state.patient, word.lower(), a).choice(choices))
    return apply_case(word, new)


def _initial(state, letter: str) -> str:
    up = letter.upper()
    new = state.letters.get(up, up)
    return new if letter.isupper() else new.lower()


def _person_for(state, ws: list[str]) -> tuple | None:
    """A known full name whose words match ``ws`` (full words equal, initials matching)."""
    low = [w.lower() for w in ws]
    for person in sorted(state.persons):
        if len(person) != len(low):
            continue
        if all(p == w or (_is_initials(o) and len(o) == 1 and p[0] == w)
               for p, w, o in zip(person, low, ws)):
            return person
    return None


def name(state, keyed, text: str) -> str:
    """Surrogate of a person-name string (PATIENT, DOCTOR): same layout, coherent parts."""
    ms = words(text) or list(_WORD.finditer(text))  # a span of a title alone ("MR") is a name too
    ws = [m.group() for m in ms]
    person = _person_for(state, ws) if any(_is_initials(w) for w in ws) and len(ws) > 1 else None
    reps = []
    for i, (m, w) in enumerate(zip(ms, ws)):
        if len(w) == 1:
            new = (word_surrogate(state, keyed, person[i])[0] if person else _initial(state, w))
            new = new.upper() if w.isupper() else new.lower()
        elif _is_initials(w):
            match = next((p for p in sorted(state.persons)
                          if len(p) == len(w) and "".join(x[0] for x in p) == w.lower()), None)
            if match:
                new = "".join(word_surrogate(state, keyed, x)[0] for x in match).upper()
            else:
                new = "".join(_initial(state, c) for c in w)
        else:
            new = word_surrogate(state, keyed, w)
        reps.append((m.start(), m.end(), new))
    out, pos = [], 0
    for s, e, new in reps:
        out += [text[pos:s], new]
        pos = e
    return "".join(out) + text[pos:]
