"""Templates for words the model has no identity evidence for (context over identity, issue 18).

A name or place never seen in training and in no word list has only its shape and its
context to go on. ``oov.v1`` says so explicitly: the CRF then learns, from the training
names that are in no list (and from ``training.unknown_share``, which makes some), what
an out-of-dictionary capitalised word next to ``Dr``/``pt``/``lives in`` is.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from .. import gazetteers
from .window import WORD_TEMPLATES

_WORD = regex.compile(r"[A-Za-z]+")


@lru_cache(maxsize=1)
def dictionary_words() -> frozenset:
    """Every letter word (lower-cased) of every gazetteer list crfdeid has."""
    return frozenset(w.lower() for name in gazetteers.names() for e in gazetteers.load(name)
                     for w in _WORD.findall(e))


@WORD_TEMPLATES.register("oov.v1")
def oov(w: str) -> dict:
    """``oov:<case>`` for an ASCII letter word in no word list (``Xx``, ``X`` all caps, ``x``).

    >>> oov("Ymfgk"), oov("Smith"), oov("q4h")
    ({'oov': 'Xx'}, {}, {})
    """
    if not (w.isascii() and w.isalpha()) or w.lower() in dictionary_words():
        return {}
    return {"oov": "X" if w.isupper() and len(w) > 1 else "Xx" if w[0].isupper() else "x"}
