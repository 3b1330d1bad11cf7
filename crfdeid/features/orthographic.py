"""Orthographic word templates: shapes, length and binary character-class flags."""

from __future__ import annotations

import regex

from . import WORD_TEMPLATES

_UPPER = regex.compile(r"\p{Lu}")
_LOWER = regex.compile(r"\p{Ll}")
_DIGIT = regex.compile(r"\p{Nd}")
_OTHER = regex.compile(r"[^\p{L}\p{Nd}]")
_COLLAPSE = regex.compile(r"(.)\1+")


def _shape(w: str) -> str:
    s = _UPPER.sub("X", w)
    s = _LOWER.sub("x", s)
    return _DIGIT.sub("d", s)


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
    return {"sshape": _COLLAPSE.sub(r"\1", _shape(w))}


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
    alpha = any(c.isalpha() for c in w)
    digit = bool(_DIGIT.search(w))
    punct = bool(_OTHER.search(w))
    return {
        "has_alpha": alpha,
        "has_cap": bool(_UPPER.search(w)),
        "init_cap": w[:1].isupper(),
        "all_caps": w.isupper() and len(w) > 1,
        "has_digit": digit,
        "all_digits": w.isdigit(),
        "is_punct": not alpha and not digit,
        "alnum": alpha and digit,
        "digit_punct": digit and punct,
    }
