r"""The no-shared-run guarantee: a surrogate never keeps a letter/digit run of what it replaces.

Every surrogate is checked against the text it replaces (and the other PHI of the
patient) before it is written; a typed generator's surrogate that fails is
replaced by a shape-keeping random one drawn so that it cannot fail
(:func:`safe_like`), and a document whose output still fails is refused.

Comparison (:func:`runs`)
    Each character is folded: NFKC, case folding, combining marks dropped
    (``Zoë`` = ``zoe``), digits of every script read as ASCII digits by value
    (``٣`` = ``３`` = ``3``). A *run* is a maximal sequence of digits, or of
    letters of one script (``abcПетров`` is two runs); an English ordinal suffix
    glued to digits stays with them (``14th``: the digits ``14``, not a word ``th``).
    In scripts written without spaces (Han, kana, Thai...) every two adjacent
    letters also count as a run, since a word there has no visible edges.

Units and survival (:class:`Units`)
    The runs of two or more characters of an original are its *units*. A letter
    unit survives when it occurs anywhere inside a run of the surrogate
    (``Smith`` in ``Smithson``); a number survives only as the same whole number
    (``20`` in ``2020`` is another number). A run folded from symbols alone is no unit: ``№`` folds to ``no``,
    ``™`` to ``tm``, and :func:`safe_like` keeps symbols as they are, so such a unit left no safe draw and failed the
    document (every Russian or Kazakh note with ``№`` in a tagged span: ``свидетельство I-ТҶ № 418827``).

>>> [r.text for r in runs("Dr. Zoë Müller-Øster, MRN８８３00１７ on the 14th")]
['dr', 'zoe', 'muller', 'øster', 'mrn', '8830017', 'on', 'the', '14']
>>> u = Units.of("MRN 8830017")
>>> u.survivor("WLY 8830017"), u.survivor("WLY 8830018"), u.survivor("Qmrnx 1")
(4, None, 0)
>>> Units.of("王小明").survivor("李小明")       # 小明: two adjacent Han characters
1
"""

from __future__ import annotations

import random
import string
import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache
from typing import NamedTuple

#: First word of the Unicode name of letters of scripts written without spaces between words.
UNSPACED = frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "THAI", "LAO", "KHMER",
                      "MYANMAR", "TIBETAN", "YI", "BOPOMOFO", "JAVANESE", "BALINESE", "TANGUT",
                      "NUSHU", "KHITAN", "?"})
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
DIGIT = "0"   # the class of digits; letters have their script's name, other characters ""


class Run(NamedTuple):
    """A run of folded characters: where it is in the original text, its class and text."""

    start: int
    end: int
    cls: str
    text: str


@cache
def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "?"


@lru_cache(maxsize=1 << 16)
def fold(ch: str) -> tuple[tuple[str, str], ...]:
    """``(class, folded character)`` pairs of one character (none for a combining mark).

    >>> fold("É"), fold("٣"), fold("ﬁ"), fold("\u0301")
    ((('LATIN', 'e'),), (('0', '3'),), (('LATIN', 'f'), ('LATIN', 'i')), ())
    """
    out = []
    for c in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", ch).casefold()):
        if unicodedata.category(c)[0] == "M":
            continue
        if c.isdecimal():
            out.append((DIGIT, str(unicodedata.decimal(c))))
        elif c.isdigit():
            out.append((DIGIT, str(unicodedata.digit(c))))
        elif c.isalpha() or c.isnumeric():
            out.append((_script(c), c))
        else:
            out.append(("", c))
    return tuple(out)


def runs(text: str) -> list[Run]:
    """The runs of ``text`` (see the module docstring), with their offsets in ``text``."""
    out: list[Run] = []
    start = end = 0
    cls = ""
    buf: list[str] = []
    for i, ch in enumerate(text):
        for c_cls, c in fold(ch):
            if c_cls != cls or not c_cls:
                if buf:
                    out.append(Run(start, end, cls, "".join(buf)))
                buf, start, cls = [], i, c_cls
            if c_cls:
                buf.append(c)
                end = i + 1
    if buf:
        out.append(Run(start, end, cls, "".join(buf)))
    return _join_ordinals(out)


def _has_alnum(text: str, r: Run) -> bool:
    """Whether the run ``r`` of ``text`` comes from a letter or digit of it, not from symbols alone (``№``).

    >>> [_has_alnum(t, runs(t)[-1]) for t in ("No 12 №", "I-ТҶ", "℡")]
    [False, True, False]
    """
    return any(ch.isalnum() for ch in text[r.start:r.end])


def _join_ordinals(rs: list[Run]) -> list[Run]:
    """``14th``: the suffix goes with the number, which is compared as the number ``14``."""
    out: list[Run] = []
    for r in rs:
        prev = out[-1] if out else None
        if (prev is not None and prev.cls == DIGIT and r.cls == "LATIN" and r.text in _ORDINALS
                and r.start == prev.end):
            out[-1] = prev._replace(end=r.end)
            continue
        out.append(r)
    return out


class Units:
    """Units of one or more originals: letter units (found as substrings) and numbers (whole).

    Each unit remembers the offset of its first character in the text it came
    from, so a failure can be reported by offset, never by its text.
    """

    def __init__(self) -> None:
        self.letters: dict[str, int] = {}
        self.numbers: dict[str, int] = {}
        self.longest = 0

    @classmethod
    def of(cls, text: str, min_len: int = 2, base: int = 0, keep: Callable[[Run], bool] | None = None):
        """The units of ``text`` (runs of at least ``min_len`` characters, except those ``keep`` allows)."""
        units = cls()
        units.add(text, min_len, base, keep)
        return units

    def add(self, text: str, min_len: int = 2, base: int = 0,
            keep: Callable[[Run], bool] | None = None) -> Units:
        """Add the units of ``text``; ``base`` is added to their offsets."""
        for r in runs(text):
            if len(r.text) < min_len or (keep is not None and keep(r)) or not _has_alnum(text, r):
                continue
            if r.cls == DIGIT:
                self.numbers.setdefault(r.text, base + r.start)
                continue
            self.letters.setdefault(r.text, base + r.start)
            self.longest = max(self.longest, len(r.text))
            if r.cls in UNSPACED:
                for i in range(len(r.text) - 1):
                    self.letters.setdefault(r.text[i:i + 2], base + min(r.start + i, r.end - 1))
        return self

    def update(self, other: Units) -> Units:
        for k, v in other.letters.items():
            self.letters.setdefault(k, v)
        for k, v in other.numbers.items():
            self.numbers.setdefault(k, v)
        self.longest = max(self.longest, other.longest)
        return self

    def __bool__(self) -> bool:
        return bool(self.letters or self.numbers)

    def survivor(self, new: str) -> int | None:
        """Offset (in the original) of a unit that survives in ``new``, or None."""
        if not self:
            return None
        for r in runs(new):
            if r.cls == DIGIT:
                if r.text in self.numbers:
                    return self.numbers[r.text]
                continue
            hit = self._inside(r.text)
            if hit is not None:
                return hit
        return None

    def _inside(self, word: str) -> int | None:
        letters, top = self.letters, self.longest
        for i in range(len(word) - 1):
            for j in range(i + 2, min(len(word), i + top) + 1):
                if word[i:j] in letters:
                    return letters[word[i:j]]
        return None


class NoSafeReplacement(Exception):
    """No replacement of the original's shape avoids every unit (only for pathological texts)."""


def safe_like(text: str, rng: random.Random, units: Units, budget: int = 20000) -> str:
    """A shape-keeping random replacement of ``text`` in which no unit of ``units`` survives.

    Case is kept, letters of any script become ASCII letters (upper case where the
    original is upper case, lower case otherwise), digits of any script (and
    other numeric characters: ``¼``, ``Ⅻ``) ASCII digits, combining marks are
    dropped, every other character stays. Each run is
    drawn letter by letter so that no unit can end at any position, with
    backtracking: the result is safe by construction.

    Raises
    ------
    NoSafeReplacement
        When the units leave no possible run (a run of one or two digits whose
        every value is a unit, say).

    >>> u = Units.of("Mercy Hospital 12")
    >>> out = safe_like("Mercy Hospital 12", random.Random(1), u)
    >>> [len(w) for w in out.split()], u.survivor(out) is None, out[0].isupper()
    ([5, 8, 2], True, True)
    """
    shape: list = []  # (kind, upper) per output character, or the character itself
    for ch in text:
        if unicodedata.category(ch)[0] == "M":
            continue
        if ch.isalpha():
            shape.append(("l", ch.isupper()))
        elif ch.isnumeric():  # digits of any script, and numbers such as ¼ or Ⅻ
            shape.append(("d", False))
        else:
            shape.append(ch)
    out: list[str] = []
    i = 0
    while i < len(shape):
        if isinstance(shape[i], str):
            out.append(shape[i])
            i += 1
            continue
        j = i
        while j < len(shape) and not isinstance(shape[j], str) and shape[j][0] == shape[i][0]:
            j += 1
        kinds = shape[i:j]
        out.append(_digits(len(kinds), rng, units) if kinds[0][0] == "d"
                   else _letters(kinds, rng, units, budget))
        i = j
    return "".join(out)


def _digits(n: int, rng: random.Random, units: Units) -> str:
    for _ in range(200):
        cand = "".join(rng.choice(string.digits) for _ in range(n))
        if n < 2 or cand not in units.numbers:
            return cand
    if n <= 4:  # few values: take one that is not a unit, if any is left
        free = [v for v in (f"{x:0{n}d}" for x in range(10 ** n)) if v not in units.numbers]
        if free:
            return rng.choice(free)
    raise NoSafeReplacement(f"no {n}-digit number outside the original's numbers")


def _letters(kinds, rng: random.Random, units: Units, budget: int) -> str:
    """Letters in the case of ``kinds``, no unit ending anywhere (depth-first, random order)."""
    letters, top = units.letters, units.longest
    word: list[str] = []
    stack = [rng.sample(string.ascii_lowercase, 26)]
    steps = 0
    while stack:
        steps += 1
        if steps > budget:
            break
        options = stack[-1]
        if not options:
            stack.pop()
            if word:
                word.pop()
            continue
        c = options.pop()
        cand = word + [c]
        if any("".join(cand[k:]) in letters for k in range(max(0, len(cand) - top), len(cand) - 1)):
            continue
        word.append(c)
        if len(word) == len(kinds):
            return "".join(ch.upper() if up else ch for ch, (_, up) in zip(word, kinds))
        stack.append(rng.sample(string.ascii_lowercase, 26))
    raise NoSafeReplacement(f"no {len(kinds)}-letter word outside the original's letter runs")
