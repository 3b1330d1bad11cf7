r"""Ages in surrogate output: HIPAA Safe Harbor's over-89 rule, in the note's own phrasing.

An age of 89 or less stays as written, in digits or in words, whatever the span's
subtype (``78M`` found as an identifier is an age, not a code to redraw). An age
over 89 becomes the over-89 label in the same phrasing: ``92 year old`` ->
``90+ year old``, ``92-year-old`` -> ``90+ year old`` (never ``90+-year-old``),
``age 101`` -> ``age 90+``, ``92M`` -> ``90+ M``, and words for words:
``ninety-two year old`` -> ``ninety-plus year old``.

>>> over_89("92-year-old"), over_89("age 101"), over_89("92M"), over_89("ninety-two year old")
('90+ year old', 'age 90+', '90+ M', 'ninety-plus year old')
>>> over_89("in her 100s"), over_89("her 92nd birthday"), over_89("ninety-second birthday")
('in her 90s', 'her 90+ birthday', 'ninety-plus birthday')
>>> value("seventy-eight"), value("one hundred and one"), value("78M"), value("Smith")
(78, 101, 78, None)
"""

from __future__ import annotations

import re

from ..document import line_bounds

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_VALUE = {w: i for i, w in enumerate(_UNITS)} | {w: 10 * i for i, w in enumerate(_TENS) if w}
_NUMBER_WORD = "|".join(sorted(_WORD_VALUE, key=len, reverse=True))
#: A number in words: ``seventy-eight``, ``ninety two``, ``one hundred and one``.
WORDS = re.compile(rf"(?<![a-z])(?:(?:{_NUMBER_WORD})[ -]+hundred(?:[ -]+and)?[ -]+)?(?:{_NUMBER_WORD})"
                   rf"(?:[ -]+(?:{_NUMBER_WORD}))?(?![a-z])|(?<![a-z])(?:{_NUMBER_WORD})[ -]+hundred(?![a-z])",
                   re.I)
_DIGITS = re.compile(r"(?<!\d)\d{1,3}(?!\d)")  # digits of any script: int() reads them
#: What an age may hold besides its number: age words and sex letters (``78 yo``, ``78M``).
AGE_WORDS = frozenset({"y", "yo", "yr", "yrs", "year", "years", "old", "aged", "age", "mo", "mos", "month",
                       "months", "wk", "wks", "week", "weeks", "day", "days", "d", "m", "w", "h", "hr",
                       "f", "male", "female", "man", "woman", "boy", "girl", "of", "y/o", "yof", "yom",
                       "a", "an", "is"})
#: An age-shaped string of any subtype: a number then age words (``78M``, ``78 yo``, ``78-year-old``).
SHAPE = re.compile(r"(?i)\s*(?:age[ :]*)?[0-9]{1,3}(?:[ -]*(?:y/o|y\.o\.|yo[mf]?|yrs?|years?|old|[mf]\b|"
                   r"male|female))+\.?\s*")
_OVER_89 = r"(?:9[0-9]|1[01][0-9])"
_OVER_89_WORDS = r"(?:ninety(?:[- ][a-z]+)?|(?:one )?hundred(?: and)?(?:[- ][a-z]+)*)"
#: An age over 89 written in a note (``Age: 94``, ``94 yo``, ``94-year-old``, ``aged 101``,
#: ``a 92M``, ``ninety-four year old``, ``in her 90s``), spans or not.
MENTION = re.compile(rf"(?i)(?<![a-z0-9.,/-])(?:ages?[ \t]*[:=]?[ \t]*|aged[ \t]+){_OVER_89}(?![0-9]|\.[0-9])"
                     rf"|(?<![0-9.,/-]){_OVER_89}[ \t-]*(?:y/?o\b|y\.o\.|yrs?[ \t-]*old|years?[ \t-]*old"
                     rf"|years?[ \t]+of[ \t]+age|yo[mf]\b|[mf]\b)|(?<![a-z-]){_OVER_89_WORDS}[ \t-]*years?[ \t-]*old"
                     rf"|\b(?:his|her|their)[ \t]+(?:90|100)'?s\b")
#: What ages over 89 become in words.
WORDS_OVER_89 = "ninety-plus"
_NTH = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
#: An ordinal over 89 (``92nd``, ``101st``, ``ninety-second``, ``hundredth``): the label takes its place
#: whole, suffix and all (``90+ nd`` would be unreadable).
_ORDINAL = re.compile(rf"(?i)(?<![0-9.,]){_OVER_89}(?:st|nd|rd|th)(?![a-z0-9])")
_ORDINAL_WORDS = re.compile(rf"(?i)(?<![a-z-])(?:ninet(?:ieth|y[ -]+(?:{_NTH}))"
                            rf"|(?:one[ -]+)?hundred(?:th|(?:[ -]+and)?[ -]+(?:{_NTH}|tenth)))(?![a-z])")


def word_value(text: str) -> int | None:
    """The value of a number written in words (``seventy-eight`` -> 78), or None."""
    parts = [p for p in re.split(r"[ -]+", text.lower()) if p and p != "and"]
    total = current = 0
    seen = False
    for p in parts:
        if p == "hundred":
            current = (current or 1) * 100
        elif p in _WORD_VALUE:
            current += _WORD_VALUE[p]
        else:
            return None
        seen = True
    total += current
    return total if seen else None


def value(text: str) -> int | None:
    """The age a string states: its first number in digits, else in words; None without one."""
    m = _DIGITS.search(text)
    if m is not None:
        return int(m.group())
    m = WORDS.search(text)
    return word_value(m.group()) if m is not None else None


def age_shaped(text: str) -> bool:
    """Whether ``text`` reads as an age whatever its subtype (``78M``, ``78 yo``, ``92-year-old``)."""
    return SHAPE.fullmatch(text) is not None


def over_89(text: str, label: str = "90+", words_label: str = WORDS_OVER_89) -> str:
    """``text`` with every age over 89 written as ``label`` (``words_label`` for one in words),
    a hyphen or letter right after it set apart by a space, and the rest of a hyphenated age
    (``-year-old``) written with spaces."""
    def digits(m):
        if int(m.group()) <= 89 or m.string[m.end():m.end() + 1] == "+":  # already the label
            return m.group()
        # a decade (in her 90s, 100s) is already the over-89 group
        return "90" if m.string[m.end():m.end() + 1] in ("s", "'") and m.group().endswith("0") else label

    def words(m):
        n = word_value(m.group())
        if m.string.startswith(words_label, m.start()):  # already the label
            return m.group()
        return words_label if n is not None and n > 89 else m.group()
    text = _ORDINAL_WORDS.sub(words_label, _ORDINAL.sub(label, text))
    out = _DIGITS.sub(digits, text)
    if out == text:
        out = WORDS.sub(words, text)
    for lab in {label, words_label}:
        at = out.find(lab)
        if at < 0:
            continue
        end = at + len(lab)
        tail = out[end:]
        if tail[:1] == "-" and lab == label:  # 90+-year-old: unreadable
            tail = " " + tail[1:].replace("-", " ")
        elif tail[:1].isalpha() and lab == label:
            tail = " " + tail
        out = out[:end] + tail
    return out


def over_89_left(text: str, label: str = "90+") -> bool:
    """Whether ``text`` still states an age over 89 other than the over-89 label (``90+``,
    ``ninety-plus``) or the decade ``90s``."""
    rest = text.replace(label, " ").replace(WORDS_OVER_89, " ")
    rest = re.sub(r"(?<![0-9])90'?s(?![a-z])", " ", rest)
    return (value(rest) or 0) > 89


#: A hyphenated age compound right after an age span (``92`` of ``92-year-old``).
TAIL = re.compile(r"-(?:years?|yrs?|y)(?:-old)?(?![A-Za-z])|-y/?o(?![A-Za-z])", re.I)
#: Words before a date that make it a birth date.
BIRTH = re.compile(r"(?i)(?:\bDOB|\bD\.O\.B\.?|\bdate\s+of\s+birth|\bbirth\s*date|\bbirthday|\bborn(?:\s+(?:on|in))?"
                   r"|\bb\.)\s*[:#=-]?\s*(?:on\s+)?$")


def birth_context(text: str, start: int) -> bool:
    """Whether the words just before ``start`` (same line, 30 characters) name a birth date."""
    return BIRTH.search(text[max(line_bounds(text, start)[0], start - 30):start]) is not None
