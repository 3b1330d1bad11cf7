"""Word-surface templates: what a token looks like, and the patterns of the text it is part of.

Three feature groups (:data:`crfdeid.features.window.GROUPS`), in this order:

* **lexical**: the word, its lower-case form, prefixes and suffixes;
* **orthographic**: shapes, length and binary character-class flags;
* **pattern**, in the spirit of MIST: regexes on the word and on the raw text. The
  tokenizer splits ``7/22/2098`` into five tokens, so a word-level regex cannot see a
  date. :func:`text_patterns` therefore runs text-level regexes once per document over
  the raw text and marks every token a match covers (``pat:date`` on each, plus
  ``pat:date:B`` on the first); word-level templates cover the shapes of single tokens
  (4- and 5-digit runs, years, real numbers).
"""

from __future__ import annotations

import bisect
import re
import string
from itertools import groupby

import regex

from ..text.patterns import LazyPattern
from .window import TOKEN_TEMPLATES, WORD_TEMPLATES

# -- lexical ---------------------------------------------------------------------------


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


# -- orthographic ----------------------------------------------------------------------

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


# -- pattern ---------------------------------------------------------------------------

#: Month names and abbreviations (also used by :mod:`crfdeid.recognizers.rules`).
MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"

def _lazy(pattern: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(regex.compile, pattern, flags)


#: Text-level patterns, name -> regex (case-insensitive, word-bounded), compiled on first use: on an
#: ASCII note the date and id patterns run as their ``re`` twins, the URL and e-mail ones only
#: where their literals stand (compiling them all cost every start-up about 8 ms).
TEXT_PATTERNS = {
    "date": _lazy(
        rf"""(?<![\w/.-])(?:
            \d{{1,2}}\s?[/-]\s?\d{{1,2}}(?:\s?[/-]\s?(?:\d{{4}}|\d{{2}}))?   # 7/22, 7/22/98
          | \d{{4}}[/-]\d{{1,2}}[/-]\d{{1,2}}                              # 2098-07-22
          | \d{{1,2}}\.\d{{1,2}}\.(?:\d{{4}}|\d{{2}})                        # 7.22.98
          | {MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+(?:\d{{4}}|'?\d{{2}}))?
          | \d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\.?(?:,?\s+\d{{4}})?
          | {MONTH}\.?\s+(?:of\s+)?\d{{4}}
          | (?:19|20)\d{{2}}s?
          | {_DAY}
          | {MONTH}
        )(?![\w/-])""", regex.I | regex.X),
    "phone": _lazy(
        r"(?<![\w-])(?:\(\s?\d{3}\s?\)\s?|\d{3}\s?[-.]\s?)?\d{3}\s?[-.]\s?\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w-])",
        regex.I),
    "ssn": _lazy(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])"),
    "email": _lazy(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "url": _lazy(r"(?:https?://|www\.)[^\s<>\"]+|\b[\w-]+\.(?:com|org|net|edu|gov)\b", regex.I),
    "ip": _lazy(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])"),
    "age": _lazy(
        r"(?<!\w)\d{1,3}\s*(?:-\s*)?(?:yo|y/o|y\.o\.?|yrs?\.?(?:\s+old)?|years?(?:\s*-?\s*old)?|"
        r"year-old|yr-old|m/o|months?\s+old|mo\.?\s+old)(?!\w)", regex.I),
    "time": _lazy(r"(?<![\w:])\d{1,2}\s?:\s?\d{2}(?:\s?(?:am|pm|a|p))?(?![\w:])", regex.I),
    "id": _lazy(r"(?<!\w)(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{5,}(?!\w)"),
    "number_unit": _lazy(r"(?<!\w)\d+(?:\.\d+)?\s?(?:mg|mcg|ml|cc|kg|g|mmhg|l|units?|meq|%)(?!\w)", regex.I),
}


#: Lower-cased literals of which every match of a pattern holds one: an ASCII text
#: without any of them is not scanned (:func:`cannot_match`).
NEEDS = {
    TEXT_PATTERNS["url"]: ("://", "www.", ".com", ".org", ".net", ".edu", ".gov"),
    TEXT_PATTERNS["email"]: ("@",),
}


def _ascii_twin(rx: LazyPattern, ahead: str = "", verbose: bool = False) -> LazyPattern:
    """``rx`` as a stdlib ``re`` pattern for lower-cased ASCII text (where both engines, and
    case-insensitive matching on the text, match the same), compiled on first use; ``verbose``:
    ``rx`` has ``regex.X`` (the twin ``re.X``)."""
    return LazyPattern(re.compile, ahead + rx.source, re.X if verbose else 0)


#: Patterns that run as stdlib ``re`` twins on lower-cased ASCII text, 2x (date) and
#: 1.3x (id) faster than ``regex`` on the text (the other patterns are faster with
#: ``regex``). Each twin first checks what its matches start with (a word boundary, then
#: a character a date can start with, five id characters), which changes no match. Same
#: matches: tests/test_features.py.
ASCII_TWINS = {
    TEXT_PATTERNS["date"]: _ascii_twin(TEXT_PATTERNS["date"], r"\b(?=[\dadfjmnostw])", verbose=True),
    TEXT_PATTERNS["id"]: _ascii_twin(TEXT_PATTERNS["id"], r"\b(?=[a-z0-9]{5})"),
}


def ascii_lower(text: str) -> str | None:
    """``text`` lower-cased if it is ASCII (what :func:`cannot_match` needs), else ``None``."""
    return text.lower() if text.isascii() else None


def cannot_match(needs, lowered: str | None) -> bool:
    """Whether a text (``lowered``: from :func:`ascii_lower`) holds none of the literals ``needs``.

    Only for ASCII text: there lower-casing is the case folding of ``regex.I``.

    >>> cannot_match(("@",), ascii_lower("no mail")), cannot_match(("@",), ascii_lower("a@b.org"))
    (True, False)
    """
    return bool(needs) and lowered is not None and not any(s in lowered for s in needs)


def match_tokens(text: str, tokens, patterns=None) -> list[tuple]:
    """Per-token attributes ``pat:<name>`` for every text-level match covering the token.

    >>> from crfdeid.text.tokenize import tokenize
    >>> toks = tokenize("seen 7/22/98 by")
    >>> match_tokens("seen 7/22/98 by", toks)[1:3]
    [('pat:date', 'pat:date:B'), ('pat:date',)]
    """
    patterns = TEXT_PATTERNS if patterns is None else patterns
    n = len(tokens)
    out: list = [()] * n
    if not n:
        return out
    starts = [t.start for t in tokens]
    low = ascii_lower(text)
    for name, rx in patterns.items():
        if cannot_match(NEEDS.get(rx), low):
            continue
        on = text
        if low is not None and rx in ASCII_TWINS:
            rx, on = ASCII_TWINS[rx], low
        attr, first = (f"pat:{name}",), (f"pat:{name}", f"pat:{name}:B")
        for m in rx.finditer(on):
            s, e = m.span()
            i = bisect.bisect_left(starts, s)
            if i < n and starts[i] == s:
                out[i] += first
                i += 1
            while i < n and starts[i] < e:
                out[i] += attr
                i += 1
    return out


@TOKEN_TEMPLATES.register("text_patterns.v1")
def text_patterns(text: str, tokens) -> list[tuple]:
    """Text-level regex matches (dates, phones, SSN, email, URL, IP, ages, times, IDs)."""
    return match_tokens(text, tokens)


_YEAR = regex.compile(r"(?:19|20)\d\d")
_MONTH_RX = regex.compile(MONTH)
_DAY_RX = regex.compile(_DAY)
_REAL = regex.compile(r"\d+\.\d+")


@WORD_TEMPLATES.register("digits.v1")
def digits(w: str) -> dict:
    """Digit-run shapes: 1-2 digits, 3, 4 (year-like or not), 5 (ZIP-like), 6+ digits.

    >>> digits("2098"), digits("02115"), digits("Lee")
    ({'digits': 'year'}, {'digits': '5'}, {})
    """
    if not w.isdecimal():  # not isdigit: "²" and "①" are digits to it, and no int() reads them
        return {}
    n = len(w)
    if n == 4:
        return {"digits": "year" if _YEAR.fullmatch(w) else "4"}
    if n <= 2:
        v = int(w)
        return {"digits": "day" if 1 <= v <= 31 else "2"}
    return {"digits": str(n) if n <= 5 else "6+"}


@WORD_TEMPLATES.register("word_patterns.v1")
def word_patterns(w: str) -> dict:
    """Whole-token forms: real number, alphanumeric id, month/day name, ordinal.

    >>> word_patterns("A123B")
    {'alnum_id': True}
    """
    out = {}
    if _REAL.fullmatch(w):
        out["real"] = True
    if len(w) >= 3 and any(c.isdigit() for c in w) and any(c.isalpha() for c in w) and w.isalnum():
        out["alnum_id"] = True
    lw = w.lower()
    if _MONTH_RX.fullmatch(lw):
        out["month"] = True
    elif _DAY_RX.fullmatch(lw):
        out["weekday"] = True
    return out
