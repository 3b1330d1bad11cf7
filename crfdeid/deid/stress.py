"""Stress corpora (Sibanda & Uzuner 2006): the same notes with names and places re-surrogated.

Two kinds, each a copy of an annotated corpus whose NAME and LOCATION words (not
USERNAME, not digits) are replaced, everything else kept character for character:

* ``unknown``: every name and place word becomes a string found in **no** dictionary
  (no gazetteer crfdeid ships, common or clinical word list, nor any word of the input
  corpus), drawn from a character trigram model trained on the name lists (NAME) or the
  place lists (LOCATION), of about the original's length and with its capitalisation.
  Generic words of a place's shape (``Hospital``, ``Center``, ``St``, ``of``) are kept:
  ``Ymfgk Memorial Hospital``.
* ``ambiguous``: every name and place word becomes a word that also occurs as plain text
  (outside every PHI span) in the input corpus and is a census name (NAME) or a place
  name (LOCATION): ``Swan``, ``Foley``, ``Bell``, ``Hope``. As the plain text is kept,
  each such word is used both ways in the output corpus.

A word is replaced the same way wherever it recurs for the same patient (``doc.group``);
the draws are keyed (:class:`crfdeid.deid.rng.Keyed`) by a seed or a secret key. Span
offsets are recomputed by :func:`crfdeid.deid.spans.replace_spans`; line breaks and all
non-PHI text are unchanged (checked for every note). Counts only, never note text, are
reported.

Example::

    python -m crfdeid corpus stress --kind unknown physionet:../shared/corpora/physionet-dev \\
        --out /tmp/stress-unknown --seed 13
"""

from __future__ import annotations

import os
import string
from collections import Counter, defaultdict
from functools import lru_cache

import regex

from .. import gazetteers
from ..document import Document
from ..errors import ConfigError, CrfdeidError
from ..features.identity import dictionary_words
from .rng import Keyed, apply_case
from .spans import merged_spans, replace_spans

KINDS = ("unknown", "ambiguous")
#: Parent categories whose words are replaced, and subtypes left alone.
STRESSED = frozenset({"NAME", "LOCATION"})
SKIPPED = frozenset({"USERNAME"})
_WORD = regex.compile(r"[A-Za-z]+")
#: Lists the generators learn from / the ambiguous pools are drawn from, per category.
SOURCES = {"NAME": ("first_male", "first_female", "surnames"),
           "LOCATION": ("cities", "states", "countries", "street_names")}
#: Words that give a place its shape and are kept (besides these lists' entries).
_KEEP_LISTS = ("hospital_words", "street_suffixes", "organization_words")
_KEEP_WORDS = frozenset("of the and at de la du von van st saint".split())
#: The most frequent English words are never an ambiguous name or place ("will", "may" are).
_COMMON_TOP = 300
_INITIALS = [c for c in string.ascii_lowercase if c not in "aio"]


def _letter_words(entries) -> set:
    return {w.lower() for e in entries for w in _WORD.findall(e)}


def augmenter(share: float, mode: str, seed):
    """A function ``note -> [notes to train on]`` that makes a ``share`` of name and place words unknown.

    ``mode`` ``replace`` gives the note with the words replaced; ``add`` gives the note and
    its copy (document id + ``~unknown``). The replacements are strings in no dictionary
    (:class:`Stressor` ``unknown``; the notes' own words are not banned, as they are
    streamed), so the CRF learns the contexts of names it has no list for.
    """
    stressor = Stressor("unknown", (), seed=f"train-{seed}", share=share)

    def versions(doc: Document) -> list:
        new = stressor.stress(doc)
        if mode != "add":
            return [new]
        return [doc, Document(f"{doc.doc_id}~unknown", new.text, new.spans, dict(new.meta, patient=doc.group))]
    return versions


@lru_cache(maxsize=1)
def kept_words() -> frozenset:
    """Generic words of a place's shape that the stress copies keep (``hospital``, ``st``)."""
    return frozenset(_letter_words(w for n in _KEEP_LISTS for w in gazetteers.load(n))) | _KEEP_WORDS


def _source_words(category: str) -> set:
    return _letter_words(w for n in SOURCES[category] for w in gazetteers.load(n))


class CharModel:
    """A character trigram model of words: draws strings that look like the words it saw.

    >>> import random
    >>> m = CharModel(["anna", "hanna", "jana"])
    >>> w = m.sample(random.Random(1), 4)
    >>> set(w) <= set("ahjn")
    True
    """

    def __init__(self, words, order: int = 3):
        self.order = order
        self.next: dict = defaultdict(Counter)
        for w in words:
            w = "^" * (order - 1) + w.lower() + "$"
            for i in range(order - 1, len(w)):
                self.next[w[i - order + 1:i]][w[i]] += 1
        # Characters in sorted order: ``words`` is often a set, whose order (string hashing)
        # changes from process to process, and a seeded draw must not (reproducible training).
        self._tables = {ctx: tuple(map(list, zip(*sorted(c.items())))) for ctx, c in self.next.items()}

    def sample(self, rng, target: int, tries: int = 40) -> str:
        """A drawn word whose length is closest to ``target`` among ``tries`` draws (the first within 1)."""
        best = ""
        for _ in range(tries):
            ctx, out = "^" * (self.order - 1), []  # type: tuple[str, list[str]]
            while len(out) < 3 * target + 5:
                chars, weights = self._tables[ctx]
                c = rng.choices(chars, weights)[0]
                if c == "$":
                    break
                out.append(c)
                ctx = (ctx + c)[1:]
            w = "".join(out)
            if not best or abs(len(w) - target) < abs(len(best) - target):
                best = w
            if abs(len(w) - target) <= 1:
                break
        return best


class Stressor:
    """Re-surrogate the names and places of documents for one stress ``kind``.

    Parameters
    ----------
    kind : {"unknown", "ambiguous"}
    docs : sequence of Document
        The whole input corpus: its words are banned (``unknown``) or its plain words are
        the pool (``ambiguous``).
    seed, key
        A public seed or a secret key (:class:`crfdeid.deid.rng.Keyed`); one of them.
    share : float
        The share of (patient, word) pairs replaced; the others stay (1: all, as the
        stress corpora; less for training, ``training.unknown_share``).

    Raises
    ------
    ConfigError
        Unknown kind, or (``ambiguous``) a category with no word usable both ways.
    """

    def __init__(self, kind: str, docs, seed=None, key=None, share: float = 1.0):
        if kind not in KINDS:
            raise ConfigError(f"unknown stress kind {kind!r}; known: {', '.join(KINDS)}")
        if seed is not None and key is not None:
            raise ConfigError("give a seed or a key, not both")
        self.kind = kind
        self.share = share
        self.keyed = Keyed.from_seed(seed) if seed is not None else Keyed(key or os.urandom(32))
        self.counts: Counter = Counter()
        self._maps: dict = {}
        words: set[str] = set()
        plain: Counter = Counter()
        for doc in docs:
            pos = 0
            for sp in merged_spans(doc.spans):
                plain.update(w.lower() for w in _WORD.findall(doc.text, pos, sp.start))
                pos = max(pos, sp.end)
            plain.update(w.lower() for w in _WORD.findall(doc.text, pos))
            words.update(w.lower() for w in _WORD.findall(doc.text))
        self.keep = kept_words()
        if kind == "unknown":
            self.banned = dictionary_words() | words
            self.models = {c: CharModel(_source_words(c) - self.keep) for c in STRESSED}
        else:
            common = set(gazetteers.entries("common_words")[:_COMMON_TOP])
            common = {w.lower() for w in common}
            self.pools = {c: sorted(w for w in set(plain) & _source_words(c)
                                    if len(w) >= 3 and w not in common and w not in self.keep)
                          for c in STRESSED}
            empty = [c for c, pool in self.pools.items() if not pool]
            if empty:
                raise ConfigError(f"ambiguous stress: no plain word of the corpus is also a "
                                  f"{' or '.join(empty)} word (the corpus is too small)")

    def word(self, patient: str, category: str, original: str) -> str:
        """The replacement of one name or place word (same for the same patient and word)."""
        key = (patient, category, original.lower())
        new = self._maps.get(key)
        if new is None:
            rng = self.keyed.rng("stress", self.kind, category, patient, original.lower())
            if self.share < 1 and rng.random() >= self.share:
                new = ""  # this word stays (training-time replacement of a share of the words)
            else:
                new = (self._unknown(category, original, rng) if self.kind == "unknown"
                       else rng.choice(self.pools[category]))
            self._maps[key] = new
        if not new:
            return original
        self.counts["words"] += 1
        return apply_case(original, new)

    def _unknown(self, category: str, original: str, rng) -> str:
        if len(original) == 1:  # an initial: any other letter that is not a word ("a", "i", "o")
            return rng.choice([c for c in _INITIALS if c != original.lower()])
        # A short word is checked against the lists only: notes hold most two-letter strings.
        banned = dictionary_words() if len(original) == 2 else self.banned
        for attempt in range(200):
            if len(original) == 2 or attempt >= 100:  # or a model that keeps hitting lists
                w = "".join(rng.choice(string.ascii_lowercase) for _ in range(len(original)))
            else:
                w = self.models[category].sample(rng, len(original))
            if w and w != original.lower() and w not in banned:
                return w
        raise CrfdeidError(f"no out-of-dictionary string found for a word of {len(original)} letters")

    def stress(self, doc: Document) -> Document:
        """A copy of ``doc`` with its name and place words replaced; spans recomputed."""
        patient = doc.group

        def replace(sp, surface: str) -> str:
            if sp.category not in STRESSED or sp.subtype in SKIPPED:
                return surface
            self.counts["spans"] += 1
            return _WORD.sub(lambda m: m.group() if m.group().lower() in self.keep
                             else self.word(patient, sp.category, m.group()), surface)
        new = replace_spans(doc, replace)
        if not same_outside(doc, new):
            raise CrfdeidError(f"document {doc.doc_id!r}: stress copy changed text outside PHI")
        self.counts["notes"] += 1
        return new

    def distinct(self) -> int:
        """How many distinct replacement words were drawn."""
        return len(set(self._maps.values()) - {""})


def outside_text(doc: Document) -> list[str]:
    """The pieces of a document's text between its (merged) spans, in order."""
    pieces, pos = [], 0
    for sp in merged_spans(doc.spans):
        pieces.append(doc.text[pos:sp.start])
        pos = max(pos, sp.end)
    pieces.append(doc.text[pos:])
    return pieces


def same_outside(old: Document, new: Document) -> bool:
    """Whether two versions of a note have the same text outside PHI and the same lines."""
    return outside_text(old) == outside_text(new) and old.text.count("\n") == new.text.count("\n")
