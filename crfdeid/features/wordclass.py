"""Distributional word classes (``wordclass.v1``, issue 58 item 2): what a word's neighbours say about it where no
list holds it.

The classes are a table the project learns from its own text (``crfdeid/_data/word_classes.tsv``, rebuilt by
``gazetteers/word_classes.py``: crfdeid's synthetic notes and the made-up sets the specialty member learns; PPMI of
the +-2 neighbours, truncated SVD, k-means 16 x 3 levels): each lower-cased word has a path of three class numbers
(``3.11.7``), words written in the same places sharing its first one, two or three. ``vicryl``, ``monocryl`` and
``pds`` share all three; ``aspirin`` and ``lisinopril`` the first two. A word template: its attributes are cached per
word type and windowed as a feature set's ``windowed`` says (``-1:wc2:13.11``).

``wordclass.v2`` reads a second table (``crfdeid/_data/word_classes_v2.tsv``, ``gazetteers/word_classes.py --v2``) that
also holds every word of the specialty recipe's own training text, the rare ones placed in the tree by their
neighbours, so that absence from the table is not learnt as a sign of PHI (with v1 most names of the training notes
have no class). Measured and refused as learn52 (docs/history/check46-rule.md): neither table's classes, learnt from
the project's own notes, helped the specialty member on real notes; no shipped model reads them.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

from ..errors import ReaderError
from .window import WORD_TEMPLATES

#: The table's file in ``crfdeid._data``.
TABLE = "word_classes.tsv"
#: The template's name in a feature set.
NAME = "wordclass.v1"
#: The attribute heads of the path's prefixes, coarsest first (``wc1``, ``wc2``, ``wc3``).
HEADS = ("wc1", "wc2", "wc3")
#: The second table and its template (same heads: a feature set reads one of the two).
TABLE_V2 = "word_classes_v2.tsv"
NAME_V2 = "wordclass.v2"


def parse_table(text: str, name: str = TABLE) -> dict[str, dict[str, str]]:
    """``word -> {head: path prefix}`` of a table's text (``#`` lines are its header).

    >>> parse_table("# header\\nvicryl\\t1.10.5\\n")["vicryl"]
    {'wc1': '1', 'wc2': '1.10', 'wc3': '1.10.5'}
    """
    out: dict[str, dict[str, str]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        word, tab, path = line.partition("\t")
        parts = path.split(".")
        if not tab or not word or not 1 <= len(parts) <= len(HEADS) or not all(p.isdigit() for p in parts):
            raise ReaderError(f"line {n} is not 'word TAB path' (a path of 1-{len(HEADS)} numbers joined by '.')",
                              path=name)
        out[word] = {head: ".".join(parts[:i]) for i, head in enumerate(HEADS[:len(parts)], 1)}
    return out


@lru_cache(maxsize=2)
def table(name: str = TABLE) -> dict[str, dict[str, str]]:
    """A shipped table (v1's by default), read on first use and kept."""
    return parse_table(resources.files("crfdeid._data").joinpath(name).read_text(encoding="utf-8"), name)


@lru_cache(maxsize=1)
def checksum() -> str:
    """SHA-256 of the shipped table: a model file that read it keeps it, so a rebuilt table warns at load."""
    return checksum_of(TABLE)


@lru_cache(maxsize=2)
def checksum_of(name: str) -> str:
    """SHA-256 of a shipped table's bytes."""
    return hashlib.sha256(resources.files("crfdeid._data").joinpath(name).read_bytes()).hexdigest()


@WORD_TEMPLATES.register(NAME)
def wordclass(w: str) -> dict:
    """``wc1``, ``wc2``, ``wc3``: the prefixes of the lower-cased word's class path; nothing for a word not in the
    table (no ``wc:?``: a word absent from the table is what every other template already sees).

    >>> wc = wordclass("Vicryl")
    >>> wc == wordclass("vicryl"), sorted(wc), wc["wc3"].startswith(wc["wc2"] + ".")
    (True, ['wc1', 'wc2', 'wc3'], True)
    >>> wordclass("Qzxvy")
    {}
    """
    return dict(table().get(w.lower(), ()))  # a copy: the table is shared


@WORD_TEMPLATES.register(NAME_V2)
def wordclass_v2(w: str) -> dict:
    """``wc1``, ``wc2``, ``wc3`` of the second table (:data:`TABLE_V2`); nothing for a word not in it.

    >>> wordclass_v2("Qzxvy")
    {}
    """
    return dict(table(TABLE_V2).get(w.lower(), ()))
