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


#: The public English and clinical lists whose words ``plain_vocab.v1`` marks, less every word of
#: :data:`NAME_LISTS` (the shipped config's ``decoding.o_words_lists`` and ``o_words_except``).
PLAIN_LISTS = ("common_words", "icd10_words", "drug_names", "eponyms", "brand_names", "clinical_abbrevs",
               "clinical_words")
#: Lists of names and places: a word in one of them is never plain vocabulary (recall first).
NAME_LISTS = ("first_male", "first_female", "surnames", "surnames_rare", "nicknames", "cities", "countries",
              "states", "state_abbrevs", "months", "days", "holidays", "hospital_words", "organization_words",
              "street_suffixes")


@lru_cache(maxsize=1)
def plain_vocabulary() -> frozenset:
    """Words of :data:`PLAIN_LISTS` that are in none of :data:`NAME_LISTS` (lower-cased)."""
    return gazetteers.words(PLAIN_LISTS) - gazetteers.words(NAME_LISTS)


@WORD_TEMPLATES.register("plain_vocab.v1")
def plain_vocab(w: str) -> dict:
    """``plain`` for a word of public English or clinical vocabulary that no name or place list holds.

    >>> plain_vocab("bowel"), plain_vocab("Milrinone"), plain_vocab("green"), plain_vocab("4/5")
    ({'plain': True}, {'plain': True}, {}, {})
    """
    return {"plain": True} if w.lower() in plain_vocabulary() else {}
