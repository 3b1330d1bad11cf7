"""Orthographic word templates: shapes, length and binary character-class flags."""

from __future__ import annotations

import string
from itertools import groupby

import regex

from .registry import WORD_TEMPLATES

_UPPER = regex.compile(r"\p{Lu}")
_LOWER = regex.compile(r"\p{Ll}")
_DIGIT = regex.compile(r"\p{Nd}")
_OTHER = regex.compile(r"[^\p{L}\p{Nd}]")
_COLLAPSE = regex.compile(r"(.)\1+")


# The three classes of an ASCII word by table (what the regexes give, 8x faster).
_ASCII_SHAPE = str.maketrans(dict.fromkeys(string.ascii_uppercase, "X")
                             | dict.fromkeys(string.ascii_lowercase, "x") | dict.fromkeys(string.digits, "d"))


def _shape(w: str) -> str:
    if w.isascii():
        return w.translate(_ASCII_SHAPE)
    s = _UPPER.sub("X", w)
    s = _LOWER.sub("x", s)
    return _DIGIT.sub("d", s)


def _collapse(s: str) -> str:
    """Runs of one character written once (``.`` of the regex does not match a line break)."""
    if "\n" in s:
        return _COLLAPSE.sub(r"\1", s)
    return "".join(c for c, _ in groupby(s))


@WORD_TEMPLATES.register("shape.v1")
def shape(w: str) -> dict:
    """Word shape (``X`` upper, ``x`` lower, ``d`` digit), truncated to 8 characters.

    >>> shape("Lee12")
    {'shape': 'Xxxdd'}
    """
    return {"shape": _shape(w)[:8]}


@WORD_TEMPLATES.register("short_shape.v1")
def short_shape(w: str) -> dict:
    """Collapsed shape: runs of one class written once.

    >>> short_shape("McDonald")
    {'sshape': 'XxXx'}
    """
    return {"sshape": _collapse(_shape(w))}


@WORD_TEMPLATES.register("length.v1")
def length(w: str) -> dict:
    """Token length, capped at 10.

    >>> length("2098")
    {'len': '4'}
    """
    return {"len": str(min(len(w), 10))}


@WORD_TEMPLATES.register("flags.v1")
def flags(w: str) -> dict:
    """The binary character-class flags of He et al. 2015 (table 2).

    >>> sorted(k for k, v in flags("Lee").items() if v)
    ['has_alpha', 'has_cap', 'init_cap']
    """
    alpha = any(map(str.isalpha, w))
    digit = bool(_DIGIT.search(w))
    punct = bool(_OTHER.search(w))
    return {
        "has_alpha": alpha,
        "has_cap": bool(_UPPER.search(w)),
        "init_cap": w[:1].isupper(),
        "all_caps": w.isupper() and len(w) > 1,
        "has_digit": digit,
        "all_digits": w.isdecimal(),  # the digits of has_digit (Nd), not "²" or "①"
        "is_punct": not alpha and not digit,
        "alnum": alpha and digit,
        "digit_punct": digit and punct,
    }
