"""The note-kind router: a logistic regression over the words of a whole note.

It reads a note as a set of features (:func:`note_features`): each word of two letters or more,
lower-cased (``w:vicryl``), and each pair of such words with only white space between them
(``b:roux_en`` is not one: a hyphen; ``b:closed_with`` is), and gives the probability that the
note is of the other member's kind rather than the default member's (:meth:`Router.p_other`). A
note goes to the other member only when that probability is above the threshold: recall of the
default kind first (a note the router doubts stays with the default member). Every weight is zero
or more: a word counts as evidence of the other kind, never as evidence of the default one, so a
note unlike both (PhysioNet's nursing notes are unlike the synthetic ones in many words) stays
with the default member: a first router with signed weights and layout shapes (case, lines,
headings) gave 467 of the 1,239 PhysioNet dev notes P > 0.5 (docs/synth.md).

Trained (:func:`train_router`) on annotated notes of each kind: the words inside their PHI spans
are left out, so that no identifier of the training notes becomes a weight (the weights are
data in the model file's manifest: feature -> number, no code). Deterministic: full-batch
gradient descent (Adam) on the class-balanced log loss with an L2 penalty, from zeros.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from ..document import Document
from ..errors import ModelError
from .language import LanguageGate

#: The feature set of new routers, stored with the weights: words and pairs of words
#: (docs/synth.md "Routed model, second round": at a threshold that keeps every PhysioNet dev note
#: with the default member, 284 of 300 held-out specialty notes routed, against 228 with words alone).
FEATURES = "note_words.v2"
#: The feature sets a stored router may name: words alone (the first routed model's), with pairs,
#: and with pairs and the note's length (``note_words.v3``: the one signed weight, :data:`LENGTH`).
FEATURE_SETS = ("note_words.v1", "note_words.v2", "note_words.v3")
#: The words of a note the router reads, from its start: its cost is bounded whatever the note's
#: length (the longest PhysioNet dev note has 520 such words, the made-up notes fewer than 250).
READ_WORDS = 1000
#: The feature of a note's length (``note_words.v3``): log(1 + words read) / log(1 + READ_WORDS).
LENGTH = "n:length"
_WORD = re.compile(r"([^\W\d_]{2,})")  # a group: split keeps the words


def note_features(text: str, skip: Iterable[tuple[int, int]] = (), features: str = FEATURES) -> set[str]:
    """The router's features of a note outside the ``[start, end)`` spans ``skip``: its words of
    two letters or more, lower-cased, and (``note_words.v2``, ``.v3``) each two such words with only
    white space between them; a pair never spans a word left out. Only the first
    :data:`READ_WORDS` words are read.

    >>> sorted(note_features("Op note: 3-0 Vicryl by Dr Lee.", [(26, 29)], "note_words.v1"))
    ['w:by', 'w:dr', 'w:note', 'w:op', 'w:vicryl']
    >>> sorted(note_features("Closed with Vicryl by Dr Lee.", [(25, 28)]))[:4]
    ['b:by_dr', 'b:closed_with', 'b:vicryl_by', 'b:with_vicryl']
    """
    return _read(text, skip, features)[0]


def length_value(words: int) -> float:
    """The value of :data:`LENGTH` for a note of ``words`` words read (0 to 1).

    >>> length_value(0), length_value(READ_WORDS)
    (0.0, 1.0)
    """
    return math.log1p(min(words, READ_WORDS)) / math.log1p(READ_WORDS)


def _read(text: str, skip: Iterable[tuple[int, int]], features: str) -> tuple[set[str], int]:
    """:func:`note_features` and the number of words read (one ``split``, not a loop over matches)."""
    parts = _WORD.split(text, READ_WORDS)  # the text before the first word, a word, what follows it, ...
    words: list = list(map(str.lower, parts[1::2]))
    if skip:
        spans, i = sorted(skip), 0
        at = list(itertools.accumulate(map(len, parts)))  # where each part ends
        for k in range(len(words)):
            while i < len(spans) and spans[i][1] <= at[2 * k]:
                i += 1
            if i < len(spans) and spans[i][0] < at[2 * k + 1]:
                words[k] = None  # a word of a PHI span: never a weight, nor half of one
    out = {"w:" + w for w in words if w}
    if features != "note_words.v1":  # two words with only white space between
        out.update(f"b:{a}_{b}" for a, b, gap in zip(words, words[1:], parts[2::2]) if a and b and not gap.strip())
    return out, len(words)


@dataclass
class Router:
    """Weights choosing between the ``default`` member and the ``other`` for each note.

    A note goes to ``other`` when :meth:`p_other` is above ``threshold``. With ``short`` (a router
    of its own, trained on short stretches of the notes: :func:`train_router` ``windows``), a note
    of at most ``short_words`` words is read by it and its threshold instead: the evidence of a
    few lines is thin for weights trained on whole notes (docs/synth.md, "Routed model: short and
    huge notes").
    """

    weights: dict[str, float]
    bias: float
    default: str
    other: str
    threshold: float
    features: str = FEATURES
    short: Router | None = None
    short_words: int = 0
    #: The language gate (:mod:`crfdeid.routing.language`): a note its member refuses goes to the other member.
    language: LanguageGate | None = None

    def _reader(self, text: str) -> tuple[Router, float]:
        """The router that reads ``text`` (itself or :attr:`short`) and its P(other)."""
        feats, words = _read(text, (), self.features)
        if self.short is not None and words <= self.short_words:
            return self.short._reader(text)
        z = self.bias + sum(self.weights.get(f, 0.0) for f in feats)
        if self.features == "note_words.v3":
            z += self.weights.get(LENGTH, 0.0) * length_value(words)
        return self, 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    def p_other(self, text: str) -> float:
        """The probability that ``text`` is a note of the ``other`` member's kind (by the router
        that reads it: :attr:`short` for a short note)."""
        return self._reader(text)[1]

    def choose(self, text: str) -> str:
        """The member that tags ``text``."""
        return self.decide(text)[0]

    def decide(self, text: str) -> tuple[str, bool]:
        """``(member, gated)``: the member that tags ``text``, and whether the language gate sent it there
        (the router chose the member the gate refuses the note for)."""
        reader, p = self._reader(text)
        name = self.other if p > reader.threshold else self.default
        if self.language is not None and name == self.language.member and self.language.refuses(text):
            return (self.default if name == self.other else self.other), True
        return name, False

    def to_dict(self) -> dict:
        """The router as data (the model file's manifest ``router`` entry)."""
        out = {"features": self.features, "default": self.default, "other": self.other,
               "threshold": self.threshold, "bias": self.bias, "weights": dict(sorted(self.weights.items()))}
        if self.short is not None:
            out["short"] = {"words": self.short_words, **self.short.to_dict()}
        if self.language is not None:
            out["language"] = self.language.to_dict()
        return out

    @classmethod
    def from_dict(cls, data, path=None) -> Router:
        """The router of a manifest's ``router`` entry, checked.

        Raises
        ------
        ModelError
            Another feature set, or a value of the wrong kind.
        """
        if not isinstance(data, Mapping) or data.get("features") not in FEATURE_SETS:
            raise ModelError("router entry missing or of another feature set (this crfdeid reads "
                             f"{', '.join(FEATURE_SETS)})", path=path)
        weights, bias, threshold = data.get("weights"), data.get("bias"), data.get("threshold")
        default, other = data.get("default"), data.get("other")
        if (not isinstance(weights, Mapping) or not _number(bias) or not _number(threshold)
                or not isinstance(bias, (int, float)) or not isinstance(threshold, (int, float))
                or not 0 <= threshold < 1 or not isinstance(default, str) or not isinstance(other, str)
                or not all(isinstance(k, str) and _number(v) for k, v in weights.items())):
            raise ModelError("corrupt router entry (weights, bias, threshold or member names)", path=path)
        router = cls({k: float(v) for k, v in weights.items()}, float(bias), default, other, float(threshold),
                     data["features"])
        short = data.get("short")
        if short is not None:
            words = short.get("words") if isinstance(short, Mapping) else None
            if (not isinstance(words, int) or isinstance(words, bool) or not 0 < words <= READ_WORDS
                    or "short" in short):
                raise ModelError("corrupt router entry: its short router (words, or a short router of its own)",
                                 path=path)
            router.short = cls.from_dict(short, path)
            if (router.short.default, router.short.other) != (default, other):
                raise ModelError("corrupt router entry: its short router names other members", path=path)
            router.short_words = words
        if data.get("language") is not None:
            if "language" in (short or {}):
                raise ModelError("corrupt router entry: a language gate in its short router", path=path)
            router.language = LanguageGate.from_dict(data["language"], (default, other), path)
        return router


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _doc_features(doc: Document, features: str, start: int = 0, end: int | None = None) -> list[tuple[str, float]]:
    """The features of ``doc.text[start:end]`` (PHI words left out) with their values."""
    text = doc.text[start:end]
    skip = [(sp.start - start, sp.end - start) for sp in doc.spans
            if sp.end > start and (end is None or sp.start < end)]
    feats, words = _read(text, skip, features)
    out = [(f, 1.0) for f in feats]
    return out + [(LENGTH, length_value(words))] if features == "note_words.v3" else out


def _windows(doc: Document, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """``count`` stretches ``[start, end)`` of 2 to 10 whole lines of ``doc`` (the first: its
    first lines; the others: anywhere), of a note of more lines than the stretch."""
    ends = list(itertools.accumulate(len(line) for line in doc.text.splitlines(keepends=True)))
    starts = [0, *ends[:-1]]
    out = []
    for k in range(count):
        size = rng.randint(2, 10)
        if len(ends) <= size:
            continue
        first = 0 if k == 0 else rng.randrange(len(ends) - size + 1)
        out.append((starts[first], ends[first + size - 1]))
    return out


def train_router(notes: Mapping[str, list[Document]], default: str, threshold: float, *, min_notes: int = 3,
                 max_features: int = 6000, l2: float = 1.0, iterations: int = 400,
                 features: str = FEATURES, windows: int = 0) -> tuple[Router, dict]:
    """A router trained on the annotated ``notes`` of each of two members (``default`` and the
    other), and its statistics (notes per member, features, the training notes routed as labelled).

    A feature (of the set ``features``, :data:`FEATURE_SETS`) counts when it is in at least
    ``min_notes`` notes (the ``max_features`` most frequent). ``windows``: each note also gives
    that many short stretches of its lines (2 to 10; the first from its start, :func:`_windows`,
    drawn with a fixed seed), labelled as the note, so that the router learns what a few lines of
    each kind look like; each member's rows weigh half, its notes and stretches alike.
    """
    if features not in FEATURE_SETS:
        raise ValueError(f"unknown router feature set {features!r}; known: {', '.join(FEATURE_SETS)}")
    if len(notes) != 2 or default not in notes:
        raise ValueError(f"a router chooses between two members, {default!r} one of them; got {sorted(notes)}")
    other = next(name for name in notes if name != default)
    if not notes[default] or not notes[other]:
        raise ValueError("the router needs training notes of both members")
    rng = random.Random(0)
    rows: list[list[tuple[str, float]]] = []
    labels: list[float] = []
    whole: list[bool] = []
    for name in (default, other):
        for doc in notes[name]:
            for start, end in [(0, None), *_windows(doc, windows, rng)]:
                rows.append(_doc_features(doc, features, start, end))
                labels.append(float(name == other))
                whole.append(end is None)
    df = Counter(f for row, full in zip(rows, whole) if full for f, _ in row)
    vocab = sorted((f for f, n in df.items() if n >= min_notes), key=lambda f: (-df[f], f))[:max_features]
    index = {f: i for i, f in enumerate(sorted(vocab))}
    x = _Sparse([[(index[f], v) for f, v in row if f in index] for row in rows], len(index))
    y = np.array(labels)
    # each member's rows weigh half, whatever their numbers
    sample = np.where(y == 1, 0.5 / y.sum(), 0.5 / (len(y) - y.sum()))
    signed = np.array([f == LENGTH for f in sorted(index)], dtype=bool)
    w, b = _fit(x, y, sample, l2 / int(np.sum(whole)), iterations, signed)
    p = 1.0 / (1.0 + np.exp(-(x.dot(w) + b)))
    router = Router({f: round(float(w[i]), 6) for f, i in index.items() if abs(w[i]) >= 1e-6},
                    round(float(b), 6), default, other, threshold, features)
    full, win = np.array(whole), ~np.array(whole)
    stats = {"notes": {default: len(notes[default]), other: len(notes[other])}, "features": len(router.weights),
             "routed_as_labelled": {default: int((p[full & (y == 0)] <= threshold).sum()),
                                    other: int((p[full & (y == 1)] > threshold).sum())},
             "highest_p_other_of_default": round(float(p[full & (y == 0)].max()), 6),
             "lowest_p_other_of_other": round(float(p[full & (y == 1)].min()), 6)}
    if windows:
        stats["windows"] = {default: int((win & (y == 0)).sum()), other: int((win & (y == 1)).sum())}
        stats["windows_routed_as_labelled"] = {default: int((p[win & (y == 0)] <= threshold).sum()),
                                               other: int((p[win & (y == 1)] > threshold).sum())}
    return router, stats


class _Sparse:
    """Rows of ``(column, value)`` pairs as flat arrays: the router's features are a few hundred
    of thousands of columns in each row, and short stretches multiply the rows."""

    def __init__(self, rows: list[list[tuple[int, float]]], columns: int):
        self.row = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
        self.col = np.array([c for r in rows for c, _ in r], dtype=np.int64)
        self.val = np.array([v for r in rows for _, v in r], dtype=np.float64)
        self.shape = (len(rows), columns)

    def dot(self, w: np.ndarray) -> np.ndarray:
        return np.bincount(self.row, weights=w[self.col] * self.val, minlength=self.shape[0])

    def tdot(self, e: np.ndarray) -> np.ndarray:
        return np.bincount(self.col, weights=e[self.row] * self.val, minlength=self.shape[1])


def _fit(x: _Sparse, y, sample, l2: float, iterations: int, signed=None) -> tuple[np.ndarray, float]:
    """Weights and bias of the weighted log loss plus ``l2`` times the squared weights (Adam); no
    weight below zero (projected after each step) but those marked ``signed``."""
    w, b = np.zeros(x.shape[1]), 0.0
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    rate, beta1, beta2, eps = 0.05, 0.9, 0.999, 1e-8
    floor = np.where(signed, -np.inf, 0.0) if signed is not None else np.zeros_like(w)
    for t in range(1, iterations + 1):
        z = np.clip(x.dot(w) + b, -50, 50)
        err = (1.0 / (1.0 + np.exp(-z)) - y) * sample
        gw, gb = x.tdot(err) + 2 * l2 * w, float(err.sum())
        mw, vw = beta1 * mw + (1 - beta1) * gw, beta2 * vw + (1 - beta2) * gw * gw
        mb, vb = beta1 * mb + (1 - beta1) * gb, beta2 * vb + (1 - beta2) * gb * gb
        w = w - rate * (mw / (1 - beta1 ** t)) / (np.sqrt(vw / (1 - beta2 ** t)) + eps)
        b = b - rate * (mb / (1 - beta1 ** t)) / (math.sqrt(vb / (1 - beta2 ** t)) + eps)
        w = np.maximum(w, floor)
    return w, b
