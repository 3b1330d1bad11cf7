"""Word lists (gazetteers) for dictionary features and surrogates.

Each list is a UTF-8 file ``<name>.txt`` with one entry per line; lines that
start with ``#`` are the header (source, licence, how to regenerate). The
folder is the one shipped with the package (the repository's ``gazetteers/``, in a wheel
``crfdeid/_data/gazetteers``: :mod:`crfdeid._data`) unless the environment variable
``CRFDEID_GAZETTEERS`` names another one. Lists are read once and cached.

>>> "boston" in load("cities")
True
>>> entries("months")[:3]
['January', 'February', 'March']
>>> load("planets")
Traceback (most recent call last):
...
crfdeid.errors.RegistryError: unknown gazetteer 'planets'; known: ...
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache, lru_cache
from itertools import chain, filterfalse
from operator import methodcaller
from pathlib import Path

from . import _data
from .errors import RegistryError

ENV_VAR = "CRFDEID_GAZETTEERS"
_DEFAULT_DIR = _data.folder("gazetteers")


def folder() -> Path:
    """The folder the lists are read from (``$CRFDEID_GAZETTEERS`` or the shipped lists)."""
    env = os.environ.get(ENV_VAR)
    return Path(env) if env else _DEFAULT_DIR


def names() -> list[str]:
    """Names of the available lists, sorted.

    >>> {"surnames", "first_male", "clinical_words"} <= set(names())
    True
    """
    return _names(folder())


@lru_cache(maxsize=8)
def _names(where: Path) -> list[str]:
    return sorted(p.stem for p in where.glob("*.txt")) if where.is_dir() else []


def _path(name: str) -> Path:
    where = folder()
    known = _names(where)
    if name not in known:
        raise RegistryError(
            f"unknown gazetteer {name!r}; known: {', '.join(known) or '(none in ' + str(where) + ')'}")
    return where / f"{name}.txt"


def entries(name: str) -> list[str]:
    """Entries of list ``name`` in original case and file order (header lines left out).

    Raises
    ------
    RegistryError
        ``name`` is not a list in :func:`folder`; the message lists the known ones.
    """
    return list(_entries(_path(name)))


@cache
def _entries(path: Path) -> tuple[str, ...]:
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    # At C speed (lists of tens of thousands of lines are read when a model loads).
    return tuple(filterfalse(methodcaller("startswith", "#"), filter(None, map(str.strip, lines))))


def surrogate_entries(name: str) -> list[str]:
    """The entries surrogates of list ``name`` are drawn from: ``surrogates/NAME.txt`` (common
    names less those a reader takes for a joke or an insult; built by ``gazetteers/build.py``),
    else the list itself (a folder of one's own lists without one). Never a feature's list:
    :func:`names` and :func:`checksums` see the top folder only.

    >>> len(surrogate_entries("surnames")) < len(entries("surnames"))
    True
    """
    path = folder() / "surrogates" / f"{name}.txt"
    return list(_entries(path)) if path.is_file() else entries(name)


def load(name: str) -> frozenset:
    """Lower-cased entries of list ``name`` as a frozen set (cached), for membership tests."""
    return _load(_path(name))


@cache
def _load(path: Path) -> frozenset:
    return frozenset(map(str.lower, _entries(path)))


@cache
def id_schemes() -> tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...]:
    """``(module, subtype, label words, numbers)`` of every scheme of ``crfdeid/_data/id_schemes.tsv``
    (python-stdnum's catalogue of national numbers, rebuilt by ``python gazetteers/id_schemes.py``).

    >>> any(m == "stdnum.pl.pesel" and "PESEL" in words for m, _, words, _ in id_schemes())
    True
    """
    text = (Path(_data.__file__).parent / "id_schemes.tsv").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return tuple((module, subtype, tuple(words.split("|")), tuple(numbers.split("|")))
                 for module, _, subtype, words, numbers in rows)


def header(name: str) -> list[str]:
    """The ``#`` header lines of list ``name`` (source, licence, regeneration command)."""
    lines = _path(name).read_text(encoding="utf-8-sig").splitlines()
    return [line for line in lines if line.startswith("#")]


def words(names) -> frozenset:
    """The words (lower-cased letter runs of two letters or more) of the entries of the lists ``names``.

    >>> sorted(words(["months"]))[:3]
    ['apr', 'april', 'aug']
    """
    return _words(tuple(names), folder())


@lru_cache(maxsize=16)
def _words(names: tuple, where: Path) -> frozenset:
    entries = [entry for name in names for entry in load(name)]
    # An entry of letters only is its one letter run (str.isalpha is the regex's letters); the
    # regex reads the others, in one pass over them joined by a line break (no run crosses it).
    runs = {entry for entry in entries if entry.isalpha()}
    runs.update(_LETTERS.findall("\n".join(entry for entry in entries if not entry.isalpha())))
    return frozenset(w for w in runs if len(w) > 1)


_LETTERS = re.compile(r"[^\W\d_]+")


def word_test(names) -> WordTest:
    """Whether a word is in :func:`words` of the lists ``names``, without building that set.

    For a caller that only tests words (``"will" in word_test(["first_male"])``): the lists' own
    sets hold their one-word entries already, so only the letter runs of the other entries are
    gathered (a few thousand, against the 90,000 words of the name lists, whose set cost about
    0.06 CPU-s at every start).

    >>> "april" in word_test(["months"]), "april" in words(["months"])
    (True, True)
    """
    return _word_test(tuple(names), folder())


class WordTest:
    """``word in self`` exactly when ``word in words(names)`` (a str; see :func:`word_test`)."""

    __slots__ = ("_sets", "_runs")

    def __init__(self, sets: tuple) -> None:
        self._sets = sets
        others = filterfalse(str.isalpha, chain.from_iterable(sets))
        self._runs = frozenset(w for w in _LETTERS.findall("\n".join(others)) if len(w) > 1)

    def __contains__(self, word) -> bool:
        # an entry of letters only is its own run (as in _words); the others' runs are gathered
        if len(word) < 2:
            return False
        return word in self._runs or (word.isalpha() and any(word in s for s in self._sets))


@lru_cache(maxsize=16)
def _word_test(names: tuple, where: Path) -> WordTest:
    return WordTest(tuple(load(name) for name in names))


def checksums() -> dict[str, str]:
    """SHA-256 of every list file, by name; saved with models to detect changed lists."""
    return {name: _sha256(_path(name)) for name in names()}


@cache
def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def clear_cache() -> None:
    """Forget cached lists (after changing ``$CRFDEID_GAZETTEERS`` or editing files)."""
    for fn in (_names, _entries, _load, _sha256, _words, _word_test):
        fn.cache_clear()
