"""``lexicon.v1``: a recognizer that looks words and phrases up in public name and place lists.

The lists are crfdeid's gazetteers (US Census 1990 first names and all 88,799 surnames,
GeoNames cities, countries, US states, fictional hospital names; each file has a licence
header and is rebuilt by ``gazetteers/build.py`` from PyPI packages, docs/gazetteers.md).
A phrase of up to :data:`MAX_WORDS` tokens is matched, longest first, case-insensitively;
a single word that is also a common English or clinical word (``Hope``, ``Bell``,
``Foley``) is matched only when written as a name (capitalised, not opening a sentence;
confidence 0.4), or with ``plain_words: true``. A dictionary knows no context: it
finds ``Lee`` in ``Dr. Lee`` and in ``Lee's disease`` alike, and misses every name it does
not list, which is why it is a committee member and not a de-identifier (docs/committee.md).

>>> rec = LexiconRecognizer()
>>> [(d.span.subtype, d.confidence) for d in rec.find("Daughter Marisol drove in from Boston.")]
[('PATIENT', 0.8), ('CITY', 0.4)]
"""

from __future__ import annotations

from typing import Any

from .. import gazetteers
from ..errors import ConfigError, RegistryError
from ..text.tokenize import tokenize
from .base import Detection, Recognizer, detections, register
from .ruledata import table

#: Subtype -> gazetteer lists whose entries are that PHI.
#: Places come first: many cities are also census surnames (Worcester, Albany).
DEFAULT_LISTS = {sub: lists.split() for sub, lists in table("outside").mapping("LEXICON_LISTS").items()}
#: Lists of words that are never PHI on their own.
DEFAULT_PLAIN = list(table("outside").entries("LEXICON_PLAIN"))
#: Longest phrase looked up, in tokens.
MAX_WORDS = 4


@register("lexicon.v1")
class LexiconRecognizer(Recognizer):
    """Name and place lists as a recognizer.

    Parameters
    ----------
    lists : dict, optional
        Subtype -> gazetteer list names (default :data:`DEFAULT_LISTS`); the first
        subtype listing a phrase wins.
    plain : list of str, optional
        Lists of plain words a single-word match must not be in (:data:`DEFAULT_PLAIN`).
    plain_words : bool
        Match plain words in any case too (confidence 0.3).
    min_length : int
        Shortest single word matched (default 2).
    """

    name = "lexicon.v1"

    def __init__(self, lists: dict | None = None, plain: list | None = None, plain_words: bool = False,
                 min_length: int = 2):
        self.lists = dict(DEFAULT_LISTS if lists is None else lists)
        self.plain_lists = list(DEFAULT_PLAIN if plain is None else plain)
        self.plain_words = bool(plain_words)
        self.min_length = int(min_length)
        self._phrases: Any = None
        self._plain: Any = None

    def prepare(self) -> None:
        """Read the lists (once)."""
        if self._phrases is not None:
            return
        phrases: dict = {}
        try:
            for sub, names in self.lists.items():
                for name in names:
                    for entry in gazetteers.entries(name):
                        key = tuple(t.text.lower() for t in tokenize(entry))
                        if 0 < len(key) <= MAX_WORDS:
                            phrases.setdefault(key, sub.upper())
            plain = frozenset().union(*(gazetteers.load(n) for n in self.plain_lists))
        except RegistryError as exc:
            raise ConfigError(f"recognizer lexicon.v1: {exc}") from None
        self._phrases, self._plain = phrases, plain

    def find(self, text: str) -> list[Detection]:
        self.prepare()
        phrases, plain = self._phrases, self._plain
        toks = tokenize(text)
        low = [t.text.lower() for t in toks]
        found, i, n = [], 0, len(toks)
        while i < n:
            for k in range(min(MAX_WORDS, n - i), 0, -1):
                sub = phrases.get(tuple(low[i:i + k]))
                if sub is None:
                    continue
                if k == 1:
                    word = toks[i].text
                    if not word.isalpha() or len(word) < self.min_length:
                        continue
                    if low[i] in plain:  # "Boston" is a common word too: only written as a name
                        if word.istitle() and not self._starts_sentence(text, toks[i].start):
                            conf = 0.4
                        elif self.plain_words:
                            conf = 0.3
                        else:
                            continue
                    else:  # a capitalised word in mixed-case text is likelier a name
                        conf = 0.8 if word[0].isupper() and not word.isupper() else 0.6
                else:
                    conf = 1.0
                found.append((toks[i].start, toks[i + k - 1].end, sub, conf))
                i += k - 1
                break
            i += 1
        return detections(text, found)

    @staticmethod
    def _starts_sentence(text: str, start: int) -> bool:
        """Whether the word at ``start`` opens its line or follows a full stop, colon or bullet."""
        before = text[max(0, start - 3):start].rstrip(" \t")
        return not before or before[-1] in "\n.:;!?-*#"
