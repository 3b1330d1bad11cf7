"""Re-spellings of a surrogate a person typed, so that the no-shared-run rule sees through them.

The rule of :mod:`crfdeid.deid.guard` already folds case, compatibility forms (NFKC) and
accents. A person editing a surrogate can still write an original back in a form the rule
reads as other runs: letters spaced or dotted apart (``J o s e p h i n e``,
``J.o.s.e.p.h.i.n.e``), digits for letters (``J0seph1ne``), letters of another script that look
alike (Cyrillic ``о`` for Latin ``o``), a phone's digits without its separators. :func:`variants`
gives the value read each of those ways; :func:`survives` refuses the value when an original's
unit survives in any of them.

Evidence each reading rests on (fail closed: a false refusal costs the editor another
value, a false pass puts a patient's name in the release):

- *look-alikes*: Unicode's confusables table (UTS #39), through the ``confusable-homoglyphs``
  package: a letter of another script whose confusable is one ASCII letter is read as that letter;
- *digits for letters*: inside a word that has letters, ``0 1 3 4 5 7 8`` read as ``o i/l e a
  s t b`` (both readings of ``1``), and ``@ $`` as ``a s``; a number alone is not re-read;
- *spaced letters*: a sequence of one-character pieces is read as one word; the whole value
  with every space and mark removed is also compared, with units of three letters or more
  (two-letter units such as ``Bo`` would refuse most joined names);
- *digits alone*: the value's digits joined are compared with each original's digits joined,
  for originals of five digits or more (phones and identifiers; a short date's digits would
  refuse most dates), without their leading zeros (a trunk prefix left out internationally);
- *letters for digits*: a piece made of digits and letters that look like digits
  (:data:`DIGIT_LIKE`: ``l I i | !`` as 1, ``O o Q D`` as 0, ``S s`` as 5, ``B`` as 8, ``Z z`` as
  2, ``E`` as 3, ``A`` as 4, ``G b`` as 6, ``T`` as 7, ``g q`` as 9) is read as those digits
  (``6l7-5S5-6S68`` is 617-555-6568), and number words (``six one seven``, ``oh``, ``zero``...)
  as their digits; both are compared as digits alone.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables as _confusables

from ..deid.guard import Units

#: Digits and signs written for letters (both readings of 1).
LEET = ({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s"},
        {"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s"})
#: Originals with at least this many digits are compared by their digits alone.
MIN_DIGITS = 5
#: Letters and signs written for digits (read so in a piece of digits and such letters only).
DIGIT_LIKE = {"l": "1", "I": "1", "i": "1", "|": "1", "!": "1", "O": "0", "o": "0", "Q": "0", "D": "0",
              "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2", "E": "3", "A": "4", "G": "6", "b": "6",
              "T": "7", "g": "9", "q": "9"}
#: Digits spelled out (English), read as the digit.
NUMBER_WORDS = {"zero": "0", "oh": "0", "nought": "0", "one": "1", "two": "2", "three": "3", "four": "4",
                "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_PIECE = re.compile(r"[0-9" + re.escape("".join(DIGIT_LIKE)) + r"]+")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_PIECE = re.compile(r"[^\W_]+|[@$]", re.UNICODE)


@lru_cache(maxsize=1 << 14)
def latin(ch: str) -> str:
    """The ASCII letter a letter of another script looks like (UTS #39), else ``ch`` folded.

    >>> latin("о"), latin("Ρ"), latin("é"), latin("ж")
    ('o', 'p', 'e', 'ж')
    """
    folded = "".join(c for c in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", ch).casefold())
                     if unicodedata.category(c)[0] != "M")
    if folded.isascii() or not folded.isalpha():
        return folded
    for c in folded:
        found = _confusables.is_confusable(c, greedy=True, preferred_aliases=["latin"]) or []
        for hit in found:
            for g in hit["homoglyphs"]:
                if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalpha():
                    return folded.replace(c, g["c"].lower())
    return folded


def _pieces(value: str) -> list[str]:
    return _PIECE.findall("".join(latin(ch) for ch in value))


def _spaced(pieces: list[str]) -> list[str]:
    """One-character pieces in a row joined into one word."""
    out: list[str] = []
    single = False
    for p in pieces:
        if len(p) == 1 and single:
            out[-1] += p
        else:
            out.append(p)
        single = len(p) == 1
    return out


def _leet(word: str, table: dict) -> str:
    if not any(c.isalpha() for c in word):
        return word
    return "".join(table.get(c, c) for c in word)


def variants(value: str) -> list[str]:
    """The value read as look-alikes, with digits for letters and spaced letters joined
    (one string a reading, words separated by spaces).

    >>> variants("J 0 s e p h 1 n e")
    ['j 0 s e p h 1 n e', 'j0seph1ne', 'josephine', 'josephlne']
    """
    pieces = _pieces(value)
    joined = _spaced(pieces)
    out = {" ".join(pieces), " ".join(joined)}
    for table in LEET:
        out.add(" ".join(_leet(w, table) for w in joined))
        out.add(" ".join(_leet(w, table) for w in pieces))
    return sorted(out)


def digits(text: str) -> str:
    """Every digit of ``text`` (any script), joined."""
    return "".join(str(unicodedata.digit(c)) for c in text if c.isdigit() and unicodedata.digit(c, None) is not None)


def digit_readings(value: str) -> list[str]:
    """The value's digits read plainly, with letters for digits, and with number words.

    >>> digit_readings("6l7-5S5-6S68")
    ['6175556568', '6755668']
    >>> digit_readings("six one seven, five five five")
    ['617555']
    """
    folded = "".join(latin(ch) if not ch.isascii() else ch for ch in value)
    as_digits = "".join(digits(m.group()) if m.group().isdigit() else "".join(DIGIT_LIKE.get(c, c) for c in m.group())
                        for m in _pieces_with_digits(folded))
    words = _WORD.sub(lambda m: NUMBER_WORDS.get(m.group().lower(), m.group()), folded)
    return sorted({digits(value), as_digits, digits(words)} - {""})


def _pieces_with_digits(text: str):
    """The runs of digits and digit-like letters that stand alone (not inside a longer word)."""
    for m in _DIGIT_PIECE.finditer(text):
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            yield m


def survives(originals: list[str], value: str) -> bool:
    """Whether a unit of an original survives in ``value`` read any way of :func:`variants`,
    or an original's digits (five or more) stand among the value's digits."""
    units = Units()
    long_units = Units()
    for o in originals:
        read = " ".join(_pieces(o))
        units.add(read, 2)
        long_units.add(read, 3)
    readings = variants(value)
    if any(units.survivor(v) is not None for v in [value, *readings]):
        return True
    if any(long_units.survivor(v.replace(" ", "")) is not None for v in readings):
        return True
    mine = digit_readings(value)
    # leading zeros dropped: a national trunk prefix is left out when a number is written
    # internationally (AU 0412 345 678 = +61 412 345 678)
    return any(len(d) >= MIN_DIGITS and any(d in m for m in mine) for d in (digits(o).lstrip("0") for o in originals))
