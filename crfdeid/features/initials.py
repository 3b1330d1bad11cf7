"""Initials that are a name's the note writes (``name_initials.v1``, sign39; issue 58): a signature's evidence that no
list and no neighbour holds (``AB`` or ``A.B.`` where the note has ``Anna Berg``)."""

from __future__ import annotations

from functools import lru_cache

from .. import gazetteers
from .context import token_texts
from .window import TOKEN_TEMPLATES

_INITIALS_ATTR = ("ini:name",)


@lru_cache(maxsize=1)
def _name_word_lists() -> tuple[frozenset, frozenset]:
    """Given names and surnames, and the plain words (common, clinical, clinical abbreviations) of the shipped lists."""
    names = frozenset().union(*(gazetteers.load(n) for n in ("first_male", "first_female", "surnames",
                                                             "surnames_rare")))
    plain = frozenset().union(*(gazetteers.load(n) for n in ("common_words", "clinical_words", "clinical_abbrevs")))
    return names, plain - names


@lru_cache(maxsize=1)
def _plain_initials() -> frozenset:
    """Capitals that are a word or an abbreviation before anyone's initials (``TO``, ``AT``, ``PT``, ``BP``)."""
    return frozenset(w.upper() for n in ("stop_words", "clinical_abbrevs") for w in gazetteers.load(n) if len(w) <= 4)


def _name_word(w: str, names: frozenset, plain: frozenset) -> bool:
    lw = w.lower()
    if len(w) < 2 or not w[0].isupper() or not w.isalpha():
        return False
    return lw in names or (lw not in plain and not w.isupper())  # in capitals only a listed name (``LG OB``: none)


def _initials_groups(text: str, words: list, tokens) -> list[tuple[int, int, str]]:
    """Runs of tokens written as initials: one token of two to four capitals (``KBS``), or single capitals each
    followed by a dot (``A.B.``), as ``(first, past_last, letters)``."""
    out, i, n = [], 0, len(words)
    while i < n:
        w = words[i]
        if 2 <= len(w) <= 4 and w.isalpha() and w.isupper():
            out.append((i, i + 1, w))
        elif len(w) == 1 and w.isalpha() and w.isupper() and i + 1 < n and words[i + 1] == "." \
                and tokens[i + 1].start == tokens[i].end:
            j, letters = i, ""
            while j + 1 < n and len(words[j]) == 1 and words[j].isalpha() and words[j].isupper() \
                    and words[j + 1] == "." and tokens[j + 1].start == tokens[j].end and len(letters) < 4:
                letters += words[j]
                j += 2
                if j < n and tokens[j].start != tokens[j - 1].end:
                    break
            if len(letters) >= 2:
                out.append((i, j, letters))
                i = j
                continue
        i += 1
    return out


@TOKEN_TEMPLATES.register("name_initials.v1")
def name_initials(text: str, tokens) -> list:
    """``ini:name`` on initials that are those of a name the note writes (``AB`` or ``A.B.`` where the note has
    ``Anna Berg``; ``MPC`` or ``MC`` for ``Maria Pia Cabrera``): two or three capitalised words in a row, parted by
    one blank, each a given name or surname of the lists or no common or clinical word (``Lung Sounds`` gives no
    ``LS``; in capitals only a listed name counts), and the initials no stop word or clinical abbreviation unless
    written with dots (``TO``, ``PT``). A signature's evidence that no list and no neighbour holds (sign39). The
    shipped English lists are read whatever a config's resources say."""
    words = token_texts(text, tokens)[0]
    out: list = [()] * len(tokens)
    groups = _initials_groups(text, words, tokens)
    if not groups:
        return out
    names, plain = _name_word_lists()
    known: set[str] = set()
    run: list[int] = []
    for i, w in enumerate(words + [""]):
        if w and _name_word(w, names, plain) and (not run or text[tokens[run[-1]].end:tokens[i].start] == " "):
            run.append(i)
            continue
        for a in range(len(run)):
            for b in (a + 2, a + 3):
                if b <= len(run):
                    firsts = [words[k][0].upper() for k in run[a:b]]
                    known.add("".join(firsts))
                    known.add(firsts[0] + firsts[-1])
        run = [i] if w and _name_word(w, names, plain) else []
    taken = _plain_initials()
    for a, b, letters in groups:
        if letters in known and (b - a > 1 or letters not in taken):
            out[a:b] = [_INITIALS_ATTR] * (b - a)
    return out
