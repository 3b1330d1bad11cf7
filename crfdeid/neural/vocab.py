"""Vocabularies of the networks: words, characters, labels; word-vector files. No PyTorch here.

A word is looked up by its key (digits replaced by ``0``, so dates and numbers of one
shape share a vector); a key missing from the vocabulary is tried lower-cased, then
falls back to the unknown-word entry. Index 0 is padding (the zero vector at the
edges of a segment's context window), 1 the unknown word or character.

>>> v = Vocabulary.build([["seen", "by", "Dr", "Lee", "on", "3/4"]] * 2, min_count=2)
>>> v.words[:4]
['<pad>', '<unk>', '0/0', 'Dr']
>>> v.ids(["Dr", "SEEN", "Smith", "7/8"])  # as written, lower-cased, unknown, digits as 0
[3, 7, 1, 2]
>>> v.char_ids("Lee"), v.char_ids("Lex")
([6, 8, 8], [6, 8, 1])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import ConfigError

PAD, UNK = "<pad>", "<unk>"
#: Characters of a word the character features see (longer words: first and last halves).
MAX_WORD_CHARS = 20
_DIGIT = re.compile(r"\d")


def word_key(text: str, lowercase: bool = False) -> str:
    """The form a word is counted and looked up under.

    >>> word_key("PEND01/26"), word_key("Lee", lowercase=True)
    ('PEND00/00', 'lee')
    """
    key = _DIGIT.sub("0", text)
    return key.lower() if lowercase else key


class Vocabulary:
    """Words and characters of the training notes (plus a word-vector file's words), indexed."""

    def __init__(self, words: Sequence[str], chars: Sequence[str], lowercase: bool = False):
        self.words = list(words)
        self.chars = list(chars)
        self.lowercase = lowercase
        self._word_id = {w: i for i, w in enumerate(self.words)}
        self._char_id = {c: i for i, c in enumerate(self.chars)}

    @classmethod
    def build(cls, sentences: Iterable[Sequence[str]], min_count: int = 2, lowercase: bool = False,
              extra_words: Iterable[str] = ()) -> Vocabulary:
        """Words seen ``min_count`` times or more (then ``extra_words``), every character seen."""
        words: Counter[str] = Counter()
        chars: Counter[str] = Counter()
        for sent in sentences:
            for w in sent:
                words[word_key(w, lowercase)] += 1
                chars.update(w)
        kept = [w for w, c in sorted(words.items(), key=lambda x: (-x[1], x[0])) if c >= min_count]
        seen = set(kept)
        for w in extra_words:
            if w not in seen:
                seen.add(w)
                kept.append(w)
        return cls([PAD, UNK] + kept, [PAD, UNK] + sorted(chars), lowercase)

    def to_dict(self) -> dict:
        """JSON-able form, stored in the model file's manifest."""
        return {"words": self.words, "chars": self.chars, "lowercase": self.lowercase}

    @classmethod
    def from_dict(cls, d: dict) -> Vocabulary:
        return cls(d["words"], d["chars"], bool(d.get("lowercase")))

    def word_id(self, text: str) -> int:
        key = word_key(text, self.lowercase)
        i = self._word_id.get(key)
        if i is None:
            i = self._word_id.get(key.lower(), 1)
        return i

    def ids(self, texts: Iterable[str]) -> list[int]:
        """Word indices of token texts."""
        return [self.word_id(t) for t in texts]

    def char_ids(self, text: str) -> list[int]:
        """Character indices of one word (at most :data:`MAX_WORD_CHARS`)."""
        if len(text) > MAX_WORD_CHARS:
            half = MAX_WORD_CHARS // 2
            text = text[:half] + text[-half:]
        get = self._char_id.get
        return [get(c, 1) for c in text]


def read_vectors(path, dim: int | None = None):
    """Words and vectors of a word2vec or GloVe text file (``word v1 v2 ...`` per line).

    A first line of two integers (word2vec's ``count dim`` header) is skipped. Words
    whose vector has the wrong length are an error naming the file and line.

    Returns
    -------
    (list of str, numpy.ndarray)
        The words in file order and a ``float32`` array of shape ``(len(words), dim)``.

    Raises
    ------
    ConfigError
        Unreadable file, no vectors, or lines of different lengths.
    """
    import numpy as np
    path = Path(path)
    words, rows = [], []
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                parts = line.rstrip().split(" ")
                if n == 1 and len(parts) == 2 and all(p.isdigit() for p in parts):
                    continue  # word2vec header
                if len(parts) < 2:
                    continue
                if dim is None:
                    dim = len(parts) - 1
                if len(parts) - 1 != dim:
                    raise ConfigError(f"word vector of {len(parts) - 1} numbers where {dim} are "
                                      f"expected (line {n})", path=path)
                try:
                    rows.append([float(x) for x in parts[1:]])
                except ValueError:
                    raise ConfigError(f"not a number in a word vector (line {n})", path=path) from None
                words.append(parts[0])
    except OSError as exc:
        raise ConfigError(f"cannot read the word vectors: {exc.strerror}", path=path) from None
    if not words:
        raise ConfigError("no word vectors in the file", path=path)
    return words, np.asarray(rows, dtype=np.float32)
