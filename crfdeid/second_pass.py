"""A second-pass CRF that sees what a first CRF thought of each token (stacking).

Enabled with ``second_pass: {enabled: true, folds: 3, seed: 7}`` in a config.
Training (:func:`crfdeid.model.train_model`):

1. the training notes are split into ``folds`` patient-grouped folds; a
   first-pass CRF trained on the other folds gives every note of a fold its
   P(PHI) = 1 - P(O) per token, so no note is scored by a model that saw it
   (cross-fitting: a model's own training notes look far surer than new ones);
2. a first-pass CRF is trained on all the notes: it scores new notes at tagging;
3. the second CRF is trained on the usual features plus :func:`pass_attributes`
   of the cross-fitted P(PHI).

At tagging the first pass's P(PHI) of the note gives the attributes. Both
CRFs and both configs live in one model file (:mod:`crfdeid.model`).
"""

from __future__ import annotations

import copy
import re
from collections import defaultdict

from .errors import ConfigError
from .splits import kfold

#: P(PHI) bins, highest first: the attribute value of a probability above each bound.
BINS = ((0.5, "hi"), (0.1, "mid"), (0.01, "lo"))


def p_bin(p: float) -> str:
    """The bin of a probability.

    >>> [p_bin(x) for x in (0.9, 0.2, 0.05, 0.001)]
    ['hi', 'mid', 'lo', 'none']
    """
    for bound, name in BINS:
        if p > bound:
            return name
    return "none"


_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")


def _word_key(text: str) -> str | None:
    """The lower-cased word a token is an occurrence of (two letters or more), else None."""
    return text.lower() if _WORD.fullmatch(text) else None


def pass_attributes(tokens, p_phi) -> list[tuple]:
    """The second pass's extra attributes of every token, from the first pass's P(PHI).

    ``p1:own=<bin>`` (the token), ``p1:prev=<bin>`` and ``p1:next=<bin>`` (its
    neighbours) and ``p1:same_word=<bin>``: the highest P(PHI) of the same word
    (lower-cased) elsewhere in the note, when it occurs again.

    >>> from crfdeid.tokenize import tokenize
    >>> toks = tokenize("Lee saw Lee")
    >>> pass_attributes(toks, [0.9, 0.0, 0.2])[2]
    ('p1:own=mid', 'p1:prev=none', 'p1:same_word=hi')
    """
    n = len(tokens)
    bins = [p_bin(p) for p in p_phi]
    keys = [_word_key(t.text) for t in tokens]
    top: dict = defaultdict(lambda: [-1.0, -1, -1.0])  # word -> [highest P, its token, second highest]
    for i, k in enumerate(keys):
        if k is not None:
            t = top[k]
            if p_phi[i] > t[0]:
                t[:] = p_phi[i], i, t[0]
            elif p_phi[i] > t[2]:
                t[2] = p_phi[i]
    out = []
    for i in range(n):
        attrs = ["p1:own=" + bins[i]]
        if i > 0:
            attrs.append("p1:prev=" + bins[i - 1])
        if i + 1 < n:
            attrs.append("p1:next=" + bins[i + 1])
        k = keys[i]
        if k is not None:
            best, at, second = top[k]
            other = second if at == i else best  # the highest P(PHI) of the word's other tokens
            if other >= 0.0:
                attrs.append("p1:same_word=" + p_bin(other))
        out.append(tuple(attrs))
    return out


def with_attributes(feats: list, extra: list) -> list:
    """Each token's attribute list followed by its :func:`pass_attributes` (CRFsuite item format)."""
    return [f + list(e) for f, e in zip(feats, extra)]


def first_pass_config(cfg: dict) -> dict:
    """The config of the first pass: the same, without the second pass.

    The first pass is only asked for P(PHI), never thresholded, so it keeps no
    ``o_words`` list (``decoding.o_words_min_count`` off).
    """
    first = copy.deepcopy(cfg)
    first["second_pass"] = dict(first["second_pass"], enabled=False)
    first["decoding"] = dict(first["decoding"], o_words_min_count=None)
    return first


def cross_fitted_p_phi(docs, cfg: dict, train) -> list[list[float]]:
    """P(PHI) per token of every training note, each from a first pass that did not see it.

    ``train(docs, config)`` trains a model (``crfdeid.model.train_model``).
    """
    sp = cfg["second_pass"]
    first = first_pass_config(cfg)
    out: list = [None] * len(docs)
    try:
        folds = kfold(docs, sp["folds"], seed=sp["seed"])
    except ConfigError as exc:
        raise ConfigError(f"second_pass.folds: {exc}") from None
    for fold in folds:
        model = train([docs[i] for i in fold.train], first)
        for i, p in zip(fold.test, model.p_phi([docs[i].text for i in fold.test])):
            out[i] = p
    return out
