"""Words of other languages than English that the surrogate writer reads as evidence of a span's type, or as none
(:mod:`crfdeid.deid.confident_type`; issue 58 item 3, branch ``proof21``, 2026-11-27).

Two data files of ``crfdeid/_data``, read once:

* ``other_languages.tsv`` (written for crfdeid, MIT): by kind and language, a person's **titles** written right
  before a name (``Dra.``, ``Sig.ra``, ``Hr.``, ``Fru``, ``MUDr.``), the **person words** a name follows on its
  line (roles, relations, labels: ``Paciente:``, ``Manželka``, ``Técnico:``) and the **place heads**, a hospital's
  or a street's type word (``Ospedale``, ``Szpital``, ``Calle``, ``Strasse``) and the **compound heads**, a
  hospital's type word that ends a compound (``Universitetssjukehus``, ``Magánklinika``);
* ``name_words_other.txt`` (wordfreq's frequent words, CC BY-SA 4.0; ``gazetteers/name_words_other.py``): the
  words of the name lists that are frequent words of another language (``alla``, ``nada``, ``karena``), which say
  nothing alone of a person, as English's frequent words say nothing (``Grace``, ``Will``).

>>> "dott.ssa" in titles() and "paciente" in person_words() and "szpital" in place_heads()
True
>>> "alla" in frequent_name_words(), "smith" in frequent_name_words()
(True, False)
>>> [person_before(t, t.index("X")) for t in ("Dott.ssa Xu", "Paciente: Xu", "valutazione per Xu")]
[True, True, False]
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .. import gazetteers
from .evidence import fold, lists

#: The kinds of ``other_languages.tsv``.
KINDS = ("title", "person", "place_head", "compound_head")
#: The word right before a span on its line, a colon or comma between (``Dott.ssa Xu``, ``Paciente: Xu``).
_WORD_BEFORE = re.compile(r"([^\W\d_][\w.'ºª-]*)[ \t]*[,:]?[ \t]*$")


def _rows(name: str) -> list[list[str]]:
    """The tab-separated rows of the data file ``name``, header lines left out."""
    text = resources.files("crfdeid._data").joinpath(name).read_text(encoding="utf-8")
    return [ln.split("\t") for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


@lru_cache(maxsize=1)
def _by_kind() -> dict[str, frozenset]:
    """``other_languages.tsv``'s words by kind, folded (a final full stop dropped)."""
    out: dict[str, set] = {k: set() for k in KINDS}
    for kind, _langs, words in _rows("other_languages.tsv"):
        if kind not in out:
            raise ValueError(f"other_languages.tsv: unknown kind {kind!r}; known: {', '.join(KINDS)}")
        out[kind].update(fold(w).rstrip(".") for w in words.split())
    return {k: frozenset(v) for k, v in out.items()}


def titles() -> frozenset:
    """Titles of other languages written before a name (``dra``, ``sig.ra``, ``hr``, ``fru``, ``mudr``), folded."""
    return _by_kind()["title"]


def person_words() -> frozenset:
    """Roles, relations and labels of other languages a name follows (``paciente``, ``manzelka``), folded."""
    return _by_kind()["person"]


def place_heads() -> frozenset:
    """A hospital's or a street's type word in other languages (``ospedale``, ``szpital``, ``calle``), folded."""
    return _by_kind()["place_head"]


def compound_heads() -> frozenset:
    """A hospital's type word that ends a compound (``sjukehus`` of ``Universitetssjukehus``), folded."""
    return _by_kind()["compound_head"]


#: Letters ``fold`` keeps that the data files write plain (``læge`` as ``laege``, ``kullanıcı`` as ``kullanici``).
_FLAT = str.maketrans({"æ": "ae", "ø": "o", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ı": "i", "ð": "d", "þ": "th"})
#: An identifier's label written as one short word (``CPR``, ``EGN``, ``PESEL``): python-stdnum's catalogue's.
_ACRONYM = re.compile(r"[A-Z]{2,6}")


@lru_cache(maxsize=1)
def person_labels() -> frozenset:
    """Words that stand beside a person's name and are none of it, folded: :func:`person_words` (a role, a
    relation, a label of another language: ``mutter``, ``enfermera``) and the one-word labels of national numbers
    (``id_schemes.tsv``, python-stdnum's catalogue: ``cpr``, ``egn``, ``cnp``) no name list holds.

    >>> {"mutter", "enfermera", "cpr", "egn"} <= person_labels(), "smith" in person_labels()
    (True, False)
    """
    listed = lists()[1]
    acronyms = {w.lower() for _, _, words, _ in gazetteers.id_schemes() for w in words if _ACRONYM.fullmatch(w)}
    return frozenset(w.translate(_FLAT) for w in person_words()) | frozenset(acronyms - listed)


@lru_cache(maxsize=4096)
def person_label(word: str) -> bool:
    """Whether ``word`` is a :func:`person_labels` word, or a compound that ends in a person word of four letters
    or more after three letters or more and no name or place list holds (``Hausarzt``, ``Overlæge``,
    ``Szakorvos``, ``Großmutter``): a role or relation, no name's word.

    >>> [person_label(w) for w in ("Mutter", "CPR", "Hausarzt", "SZAKORVOS", "Overlæge", "Kumari", "Arizona", "Smith")]
    [True, True, True, True, True, False, False, False]
    """
    low = fold(word).strip(".:,").translate(_FLAT)
    if low in person_labels():
        return True
    _, listed, _, _, places = lists()
    return low not in listed and low not in places and any(
        low.endswith(w) and len(low) >= len(w) + 3 for w in _suffixes())


@lru_cache(maxsize=1)
def _suffixes() -> tuple[str, ...]:
    """The person words of four letters or more (:func:`person_label`'s compounds' last parts), plain."""
    return tuple(w.translate(_FLAT) for w in person_words() if len(w) >= 4)


@lru_cache(maxsize=1)
def frequent_name_words() -> frozenset:
    """The listed name words that are frequent words of another language (``name_words_other.txt``), folded."""
    return frozenset(row[0] for row in _rows("name_words_other.txt"))


def person_before(text: str, start: int) -> bool:
    """Whether a title or a person word of another language stands right before ``start`` on its line."""
    m = _WORD_BEFORE.search(text, max(0, start - 30), start)
    if m is None:
        return False
    word = fold(m.group(1)).rstrip(".")
    return word in titles() or word in person_words()
