"""Lexical word templates: the word, its lower-case form, prefixes and suffixes."""

from __future__ import annotations

from .registry import WORD_TEMPLATES


@WORD_TEMPLATES.register("word.v1")
def word(w: str) -> dict:
    """The token text as is.

    >>> word("Lee")
    {'w': 'Lee'}
    """
    return {"w": w}


@WORD_TEMPLATES.register("lower.v1")
def lower(w: str) -> dict:
    """The lower-cased token.

    >>> lower("LEE")
    {'lower': 'lee'}
    """
    return {"lower": w.lower()}


_PREFIXES = [(k, f"p{k}") for k in range(1, 5)]
_SUFFIXES = [(k, f"s{k}") for k in range(1, 5)]


@WORD_TEMPLATES.register("prefix.v1")
def prefix(w: str) -> dict:
    """Lower-cased prefixes of length 1-4 (only those shorter than the word).

    >>> prefix("Smith")
    {'p1': 's', 'p2': 'sm', 'p3': 'smi', 'p4': 'smit'}
    """
    lw = w.lower()
    return {key: lw[:k] for k, key in _PREFIXES if k < len(lw)}


@WORD_TEMPLATES.register("suffix.v1")
def suffix(w: str) -> dict:
    """Lower-cased suffixes of length 1-4 (only those shorter than the word).

    >>> suffix("Smith")
    {'s1': 'h', 's2': 'th', 's3': 'ith', 's4': 'mith'}
    """
    lw = w.lower()
    return {key: lw[-k:] for k, key in _SUFFIXES if k < len(lw)}
