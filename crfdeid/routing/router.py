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

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from ..document import Document
from ..errors import ModelError

#: The feature set of new routers, stored with the weights: words and pairs of words
#: (docs/synth.md "Routed model, second round": at a threshold that keeps every PhysioNet dev note
#: with the default member, 284 of 300 held-out specialty notes routed, against 228 with words alone).
FEATURES = "note_words.v2"
#: The feature sets a stored router may name: words alone (the first routed model's) or with pairs.
FEATURE_SETS = ("note_words.v1", "note_words.v2")
_WORD = re.compile(r"[^\W\d_]{2,}")


def note_features(text: str, skip: Iterable[tuple[int, int]] = (), features: str = FEATURES) -> set[str]:
    """The router's features of a note outside the ``[start, end)`` spans ``skip``: its words of
    two letters or more, lower-cased, and (``note_words.v2``) each two such words with only white
    space between them; a pair never spans a word left out.

    >>> sorted(note_features("Op note: 3-0 Vicryl by Dr Lee.", [(26, 29)], "note_words.v1"))
    ['w:by', 'w:dr', 'w:note', 'w:op', 'w:vicryl']
    >>> sorted(note_features("Closed with Vicryl by Dr Lee.", [(25, 28)]))[:4]
    ['b:by_dr', 'b:closed_with', 'b:vicryl_by', 'b:with_vicryl']
    """
    spans = sorted(skip)
    out, i, prev = set(), 0, None
    for m in _WORD.finditer(text):
        while i < len(spans) and spans[i][1] <= m.start():
            i += 1
        if i < len(spans) and spans[i][0] < m.end():
            prev = None
            continue  # a word of a PHI span: never a weight, nor half of one
        word = m.group().lower()
        out.add("w:" + word)
        if features != "note_words.v1" and prev is not None and not text[prev[1]:m.start()].strip():
            out.add(f"b:{prev[0]}_{word}")
        prev = (word, m.end())
    return out


@dataclass
class Router:
    """Weights choosing between the ``default`` member and the ``other`` for each note.

    A note goes to ``other`` when :meth:`p_other` is above ``threshold``.
    """

    weights: dict[str, float]
    bias: float
    default: str
    other: str
    threshold: float
    features: str = FEATURES

    def p_other(self, text: str) -> float:
        """The probability that ``text`` is a note of the ``other`` member's kind."""
        z = self.bias + sum(self.weights.get(f, 0.0) for f in note_features(text, (), self.features))
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    def choose(self, text: str) -> str:
        """The member that tags ``text``."""
        return self.other if self.p_other(text) > self.threshold else self.default

    def to_dict(self) -> dict:
        """The router as data (the model file's manifest ``router`` entry)."""
        return {"features": self.features, "default": self.default, "other": self.other,
                "threshold": self.threshold, "bias": self.bias, "weights": dict(sorted(self.weights.items()))}

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
        return cls({k: float(v) for k, v in weights.items()}, float(bias), default, other, float(threshold),
                   data["features"])


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _doc_features(doc: Document, features: str) -> set[str]:
    return note_features(doc.text, [(sp.start, sp.end) for sp in doc.spans], features)


def train_router(notes: Mapping[str, list[Document]], default: str, threshold: float, *, min_notes: int = 3,
                 max_features: int = 6000, l2: float = 1.0, iterations: int = 400,
                 features: str = FEATURES) -> tuple[Router, dict]:
    """A router trained on the annotated ``notes`` of each of two members (``default`` and the
    other), and its statistics (notes per member, features, the training notes routed as labelled).

    A feature (of the set ``features``, :data:`FEATURE_SETS`) counts when it is in at least
    ``min_notes`` notes (the ``max_features`` most frequent).
    """
    if features not in FEATURE_SETS:
        raise ValueError(f"unknown router feature set {features!r}; known: {', '.join(FEATURE_SETS)}")
    if len(notes) != 2 or default not in notes:
        raise ValueError(f"a router chooses between two members, {default!r} one of them; got {sorted(notes)}")
    other = next(name for name in notes if name != default)
    feats = {name: [_doc_features(d, features) for d in docs] for name, docs in notes.items()}
    if not feats[default] or not feats[other]:
        raise ValueError("the router needs training notes of both members")
    df = Counter(f for rows in feats.values() for row in rows for f in row)
    vocab = sorted((f for f, n in df.items() if n >= min_notes), key=lambda f: (-df[f], f))[:max_features]
    index = {f: i for i, f in enumerate(sorted(vocab))}
    rows = feats[default] + feats[other]
    x = np.zeros((len(rows), len(index)), dtype=np.float64)
    for r, row in enumerate(rows):
        x[r, [index[f] for f in row if f in index]] = 1.0
    y = np.array([0.0] * len(feats[default]) + [1.0] * len(feats[other]))
    # each member's notes weigh half, whatever their numbers
    sample = np.where(y == 1, 0.5 / y.sum(), 0.5 / (len(y) - y.sum()))
    w, b = _fit(x, y, sample, l2 / len(y), iterations)
    p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
    router = Router({f: round(float(w[i]), 6) for f, i in index.items() if abs(w[i]) >= 1e-6},
                    round(float(b), 6), default, other, threshold, features)
    stats = {"notes": {default: len(feats[default]), other: len(feats[other])}, "features": len(router.weights),
             "routed_as_labelled": {default: int((p[y == 0] <= threshold).sum()),
                                    other: int((p[y == 1] > threshold).sum())},
             "highest_p_other_of_default": round(float(p[y == 0].max()), 6),
             "lowest_p_other_of_other": round(float(p[y == 1].min()), 6)}
    return router, stats


def _fit(x, y, sample, l2: float, iterations: int, positive: bool = True) -> tuple[np.ndarray, float]:
    """Weights and bias of the weighted log loss plus ``l2`` times the squared weights (Adam);
    ``positive``: no weight below zero (projected after each step)."""
    w, b = np.zeros(x.shape[1]), 0.0
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    rate, beta1, beta2, eps = 0.05, 0.9, 0.999, 1e-8
    for t in range(1, iterations + 1):
        z = np.clip(x @ w + b, -50, 50)
        err = (1.0 / (1.0 + np.exp(-z)) - y) * sample
        gw, gb = x.T @ err + 2 * l2 * w, float(err.sum())
        mw, vw = beta1 * mw + (1 - beta1) * gw, beta2 * vw + (1 - beta2) * gw * gw
        mb, vb = beta1 * mb + (1 - beta1) * gb, beta2 * vb + (1 - beta2) * gb * gb
        w = w - rate * (mw / (1 - beta1 ** t)) / (np.sqrt(vw / (1 - beta2 ** t)) + eps)
        b = b - rate * (mb / (1 - beta1 ** t)) / (math.sqrt(vb / (1 - beta2 ** t)) + eps)
        if positive:
            w = np.maximum(w, 0.0)
    return w, b
