"""The numpy tagging backend: CRFsuite's labels and marginals without attribute strings.

:class:`NumpyTagger` scores tokens with :class:`crfdeid.crf.numpy.emission.EmissionScorer`
and labels the segments of several documents at once
(:func:`crfdeid.crf.numpy.inference.viterbi`, :func:`crfdeid.crf.numpy.inference.marginals`):
a batch costs a few numpy operations per token position of its longest
segment, so batching documents removes most of the per-document overhead.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

import numpy as np

from ...labels import OUTSIDE
from ..decoding import threshold_labels
from . import inference
from .emission import EmissionScorer

#: Tokens labelled together (inference chunk): enough to amortise the per-step numpy
#: calls (a step costs about the same for 10 or 1,000 segments), small enough that
#: the arrays stay small (2 MB each with 13 labels, 9 MB with 59) and in cache.
BATCH_TOKENS = 20_000
#: Tokens of documents scored together: enough to amortise the numpy calls; one
#: group's template outputs alive at a time (with 20,000 the peak RSS of 1,000
#: synthetic notes was 1.10x that of 250, 1.07x with 5,000).
SCORE_TOKENS = 5_000
#: Characters of documents tagged together (``Model.tag_each``): about 20,000 tokens of
#: clinical notes (PhysioNet: 4.1 characters a token).
BATCH_CHARS = 80_000


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector (if it runs) for the block.

    Tagging makes millions of small objects (tokens, attribute tuples) that live
    until their batch is done and hold no reference cycles: the collector's passes
    over them free nothing (``gc.get_stats()``: 0 collected on the PhysioNet
    corpus) but cost about a tenth of the tagging time. Reference counting still
    frees everything; the collector resumes after the block.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _groups(docs, size):
    """Consecutive ``(text, tokens)`` documents in groups of at least ``size`` tokens (the last: fewer)."""
    group, n = [], 0
    for doc in docs:
        group.append(doc)
        n += len(doc[1])
        if n >= size:
            yield group
            group, n = [], 0
    if group:
        yield group


def _chunks(bounds, size):
    """``(first, end, bounds - first)`` of consecutive segments holding about ``size`` tokens."""
    b = np.asarray(bounds, dtype=np.intp).reshape(-1, 2)
    i = 0
    while i < len(b):
        first = b[i, 0]
        stop = max(i + 1, int(np.searchsorted(b[:, 1], first + size, side="right")))
        yield first, b[stop - 1, 1], b[i:stop] - first
        i = stop


class NumpyTagger:
    """Label tokenized documents with a model's weights.

    Parameters
    ----------
    featurizer : crfdeid.features.Featurizer
    weights : crfdeid.crf.numpy.weights.CrfWeights
    """

    def __init__(self, featurizer, weights):
        self.scorer = EmissionScorer(featurizer, weights)
        self.labels = list(weights.labels)
        self.transition = weights.transition
        self._outside = self.labels.index(OUTSIDE) if OUTSIDE in self.labels else -1
        self._others = [lab for lab in self.labels if lab != OUTSIDE]
        self._column = {lab: j for j, lab in enumerate(self.labels)}

    def run(self, items, o_threshold, want_marginals=False, o_words=frozenset()) -> list[tuple]:
        """Labels of several documents at once.

        Parameters
        ----------
        items : list of (text, tokens, segments)
        o_threshold : float or None
            Recall-oriented decoding: an ``O`` token whose P(O) is below it becomes PHI.
        want_marginals : bool
            Also return every token's ``{label: probability}``.
        o_words : frozenset of str
            Words (compared lower-cased) that the threshold does not make PHI.

        Returns
        -------
        list of (labels, p_outside, marginals)
            Per document: labels, P(O) per token (``None`` where not needed:
            ``O`` tokens without a threshold) and marginals (empty unless asked).
        """
        docs = [(text, toks) for text, toks, _ in items]
        allscores = np.concatenate([self.scorer.scores_many(g) for g in _groups(docs, SCORE_TOKENS)]
                                   or [np.zeros((0, len(self.labels)))])
        offsets = np.cumsum([0] + [len(toks) for _, toks, _ in items])
        bounds = [(a + off, b + off) for (_, _, segs), off in zip(items, offsets.tolist())
                  for a, b in segs]
        y = np.zeros(len(allscores), dtype=np.intp)
        probs = None
        p: np.ndarray | None
        # A chunk of segments at a time: inference temporaries stay small on a huge note.
        for a, b, sub in _chunks(bounds, BATCH_TOKENS):
            s = allscores[a:b]
            y[a:b] = inference.viterbi(s, self.transition, sub)
            if want_marginals or o_threshold is not None:
                p = inference.marginals(s, self.transition, sub)
            else:  # P(O) only of PHI tokens (confidences): only segments with PHI
                phi = np.flatnonzero(y[a:b] != self._outside)
                p = self._marginals_of(s, sub, phi) if len(phi) else None
            if p is not None:
                if probs is None:
                    probs = np.full(allscores.shape, np.nan)
                probs[a:b] = p
        return [self._finish(y[a:b], None if probs is None else probs[a:b], o_threshold, want_marginals,
                             toks, o_words)
                for (_, toks, _), a, b in zip(items, offsets[:-1].tolist(), offsets[1:].tolist())]

    def _marginals_of(self, scores, bounds, tokens) -> np.ndarray:
        """Marginals of the segments holding ``tokens`` (sorted indices); NaN elsewhere."""
        b = np.asarray(bounds, dtype=np.intp)
        seg = np.searchsorted(b[:, 1], tokens, side="right")  # sorted, as ``tokens`` is
        seg = seg[np.flatnonzero(np.diff(seg, prepend=-1))]  # distinct (np.unique would import numpy.ma)
        lens = b[seg, 1] - b[seg, 0]
        rows = np.repeat(b[seg, 0] - np.cumsum(lens) + lens, lens) + np.arange(lens.sum())
        sub = np.cumsum(lens)
        probs = np.full(scores.shape, np.nan)
        probs[rows] = inference.marginals(scores[rows], self.transition,
                                          np.column_stack([sub - lens, sub]))
        return probs

    def _finish(self, y, probs, o_threshold, want_marginals, toks, o_words):
        labels = [self.labels[i] for i in y.tolist()]
        out = self._outside
        if probs is None:
            return labels, [None] * len(labels), []
        margs = [dict(zip(self.labels, row)) for row in probs.tolist()] if want_marginals else []
        phi = y != out
        p_o = probs[:, out].tolist() if out >= 0 else [0.0] * len(labels)
        if o_threshold is None:
            return labels, [p if f else None for p, f in zip(p_o, phi.tolist())], margs
        column = self._column
        low = np.flatnonzero(~phi & (probs[:, out] < o_threshold)).tolist() if out >= 0 else []
        if low:
            threshold_labels(labels, low, lambda lab, t: probs[t, column[lab]], self._others,
                             toks, o_words)
        return labels, p_o, margs
