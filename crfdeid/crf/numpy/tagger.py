"""The numpy tagging backend: CRFsuite's labels and marginals without attribute strings.

:class:`NumpyTagger` scores tokens with :class:`crfdeid.crf.numpy.emission.EmissionScorer`
and labels the segments of several documents at once (:func:`viterbi`, :func:`marginals`):
a batch costs a few numpy operations per token position of its longest
segment, so batching documents removes most of the per-document overhead.

Viterbi and forward-backward run over many segments at once, as CRFsuite computes them.
The score of labels ``y`` for a segment is ``sum_t E[t, y_t] + sum_t T[y_t-1, y_t]``
(CRFsuite ``crf1d``: state and transition weights only, no start or end
weights). Segments of different lengths are processed together, one position
at a time: segments are sorted by length, so the ones still running at
position ``t`` are a prefix of that order, their tokens are laid out step by
step (:class:`_Steps`) and every step is a few array operations on a slice.

:func:`viterbi` does CRFsuite's arithmetic in CRFsuite's order
(``(prev[i] + T[i, j]) + E[t, j]``, first maximum wins), so with the same
emission scores it returns the same labels. :func:`marginals` computes
``P(y_t = j | x)`` with scaled forward and backward passes.

>>> import numpy as np
>>> E = np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])
>>> T = np.array([[0.0, -5.0], [0.0, 0.0]])
>>> viterbi(E, T, [(0, 2), (2, 3)]).tolist()
[1, 1, 0]
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ...labels import OUTSIDE
from ...tagging.decoding import below, threshold_labels
from .emission import EmissionScorer, SharedKeys
from .sparse_max import sparse_max
from .weights import ranges

#: Tokens labelled together (inference chunk): enough to amortise the per-step numpy
#: calls (a step costs about the same for 10 or 1,000 segments), small enough that
#: the arrays stay small (2 MB each with 13 labels, 9 MB with 59) and in cache.
BATCH_TOKENS = 20_000
#: Tokens of documents scored together: enough to amortise the numpy calls; one
#: group's template outputs alive at a time (with 20,000 the peak RSS of 1,000
#: synthetic notes was 1.10x that of 250, 1.07x with 5,000).
SCORE_TOKENS = 5_000


#: Variables by which a user chooses BLAS's threads; then :func:`_one_blas_thread` leaves BLAS alone.
_BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_blas: dict = {"controller": None, "limiter": None, "inside": 0}  # the process's BLAS libraries, found once
_blas_lock = threading.Lock()


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    """A context in which BLAS runs one thread, unless the user chose by an environment variable.

    The marginals multiply small matrices (segments x labels by labels x labels); OpenBLAS starts a
    thread per core for a chunk's, which buys no wall time and costs CPU. The commands set
    ``OPENBLAS_NUM_THREADS=1`` before numpy is imported (``crfdeid.cli``); a program that imported numpy
    first did not: ``tag_many`` of 400 PhysioNet development notes took 4.15 CPU-s (median of 5) with
    OpenBLAS's default two threads on two cores, 2.92 with one (docs/performance.md, 2026-11-26).
    The first batch in limits the pool (threadpoolctl) and the last one out puts it back, so batches
    tagged at once in several threads (the HTTP service) leave the program's pool as they found it. (A
    limit made in a thread other than the main one does not show there with OpenBLAS 0.3.31: such
    batches run as before.)
    """
    if any(name in os.environ for name in _BLAS_VARIABLES):
        yield
        return
    with _blas_lock:
        if _blas["inside"] == 0:
            if _blas["controller"] is None:
                from threadpoolctl import ThreadpoolController
                _blas["controller"] = ThreadpoolController()  # about half a millisecond: once a process
            _blas["limiter"] = _blas["controller"].limit(limits=1, user_api="blas")
        _blas["inside"] += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas["inside"] -= 1
            if _blas["inside"] == 0:
                _blas["limiter"].restore_original_limits()


# -- Viterbi and forward-backward ------------------------------------------------------

#: Floor of emissions relative to their row maximum in :func:`marginals`.
_FLOOR = -200.0


class _Steps:
    """The tokens of all segments in step order: step ``t`` is one block of consecutive rows.

    Segments are sorted by decreasing length, so the ones still running at step
    ``t`` are a prefix of that order: block ``t`` is rows ``at[t]`` to
    ``at[t] + running[t]``, one per running segment. :attr:`forward` gives the
    token of each row counting steps from the segments' starts, :attr:`backward`
    from their ends. Each step of a pass is then a slice, not a gather.
    """

    def __init__(self, bounds):
        b = np.asarray(bounds, dtype=np.intp).reshape(-1, 2)
        lens = b[:, 1] - b[:, 0]
        order = np.argsort(-lens, kind="stable")
        starts, self.lens = b[order, 0], lens[order]
        longest = int(self.lens[0]) if len(self.lens) else 0
        self.running = np.searchsorted(-self.lens, -np.arange(longest), side="left")
        self.at = np.concatenate(([0], np.cumsum(self.running))).astype(np.intp)
        step = np.repeat(np.arange(longest), self.running)
        seg = np.arange(len(step)) - self.at[step]
        self.forward = starts[seg] + step
        self.backward = starts[seg] + self.lens[seg] - 1 - step
        self.last = self.at[self.lens - 1] + np.arange(len(self.lens))  # each segment's last row

    def block(self, t: int) -> slice:
        """Rows of step ``t``."""
        return slice(self.at[t], self.at[t] + self.running[t])


def _dense_max(prev, transition):
    """``max_i (prev[s, i] + T[i, j])``: for many segments one 2-d maximum per ``i`` (2-3x
    faster than reducing the 3-d sums, which stays the way for few segments); same values."""
    if len(prev) < 64:
        return (prev[:, :, None] + transition).max(axis=1)
    best = prev[:, 0, None] + transition[0]
    sums = np.empty_like(best)
    for i in range(1, len(transition)):
        np.maximum(best, np.add(prev[:, i, None], transition[i], out=sums), out=best)
    return best


def viterbi(emissions: np.ndarray, transition: np.ndarray, bounds) -> np.ndarray:
    """Best label ids of every token, each segment decoded on its own.

    Parameters
    ----------
    emissions : ndarray, shape (n_tokens, n_labels)
        State scores of every token.
    transition : ndarray, shape (n_labels, n_labels)
        ``transition[i, j]``: score of label ``i`` followed by label ``j``.
    bounds : sequence of (start, end)
        Token index ranges of the segments: non-empty, together covering every token.
    """
    labels = np.zeros(len(emissions), dtype=np.intp)
    steps = _Steps(bounds)
    if not len(steps.lens):
        return labels
    # Forward pass keeps only the best scores; the back pointers are recomputed for the
    # labels actually chosen (same sums, same first-maximum rule), a (segments x labels)
    # argmax per step instead of (segments x labels x labels).
    # Step order, labels by rows (a step's scores are a block of columns: the sparse maximum
    # works on rows of segments).
    em = np.take(emissions, steps.forward, axis=0).T.copy()
    best_t = np.empty(em.shape)
    first = steps.block(0)
    best_t[:, first] = score = em[:, first]
    step = sparse_max(transition)
    for t in range(1, len(steps.running)):
        rows = steps.block(t)
        k = steps.running[t]
        # (prev[s, i] + T[i, j]) + E[t, j], maximum over i: CRFsuite's arithmetic.
        top = _dense_max(score[:, :k].T, transition).T if step is None else step(score[:, :k])
        score = best_t[:, rows]
        np.add(top, em[:, rows], out=score)
    found = np.empty(len(emissions), dtype=np.intp)
    found[steps.last] = best_t[:, steps.last].argmax(axis=0)
    into = np.ascontiguousarray(transition.T)  # row j: the scores of every label followed by j
    for t in range(len(steps.running) - 1, 0, -1):
        rows, k = steps.block(t), steps.running[t]
        prev = slice(steps.at[t - 1], steps.at[t - 1] + k)  # the same segments one step back
        # Segments by rows, labels by columns: an argmax along contiguous rows, no transposed copy.
        back = np.take(into, found[rows], axis=0)
        back += best_t[:, prev].T
        found[prev] = back.argmax(axis=1)
    labels[steps.forward] = found
    return labels


def marginals(emissions: np.ndarray, transition: np.ndarray, bounds) -> np.ndarray:
    """``P(y_t = j | x)`` for every token ``t`` and label ``j`` (rows sum to 1).

    Same arguments as :func:`viterbi`. Emissions are shifted by their row
    maximum before ``exp`` (the probabilities do not change; nothing overflows)
    and floored at ``exp(-200)``: a label that far below the best one has a
    probability under 1e-80 either way, and the floor keeps products out of
    subnormal floats, on which arithmetic is about a hundred times slower.
    """
    steps = _Steps(bounds)
    if not len(steps.lens):
        return np.zeros(emissions.shape)
    # Every pass works in forward step order (rows of steps.forward), in place: one gather in,
    # one scatter out, no temporaries a step (the same operations on the same rows: the same bits).
    fwd = np.take(emissions, steps.forward, axis=0)
    fwd -= fwd.max(axis=1, keepdims=True)
    np.exp(np.maximum(fwd, _FLOOR, out=fwd), out=fwd)
    expt = np.exp(transition)
    row = np.empty(len(fwd), dtype=np.intp)  # each token's forward row
    row[steps.forward] = np.arange(len(fwd))
    bw = row[steps.backward]  # each backward row's forward row
    # Forward, every segment from its start.
    alpha = np.empty(fwd.shape)
    first = steps.block(0)
    alpha[first] = fwd[first] / fwd[first].sum(axis=1, keepdims=True)
    for t in range(1, len(steps.running)):
        a = alpha[steps.block(t)]
        np.matmul(alpha[steps.at[t - 1]:steps.at[t - 1] + steps.running[t]], expt, out=a)
        a *= fwd[steps.block(t)]
        a /= a.sum(axis=1, keepdims=True)
    # Backward, each segment from its own end (rows in backward step order).
    bwd = np.take(fwd, bw, axis=0)
    del fwd
    beta = np.empty(bwd.shape)
    beta[first] = 1.0
    for r in range(1, len(steps.running)):
        prev = slice(steps.at[r - 1], steps.at[r - 1] + steps.running[r])  # the same segments one step back
        b = beta[steps.block(r)]
        np.matmul(beta[prev] * bwd[prev], expt.T, out=b)
        b /= b.sum(axis=1, keepdims=True)
    del bwd
    back = np.empty(len(beta), dtype=np.intp)  # each forward row's backward row
    back[bw] = np.arange(len(beta))
    alpha *= np.take(beta, back, axis=0)
    alpha /= alpha.sum(axis=1, keepdims=True)
    probs = np.empty(alpha.shape)  # back in token order
    probs[steps.forward] = alpha
    return probs


# -- the tagger ------------------------------------------------------------------------

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
        y, probs, offsets = self._infer(items, want_marginals or o_threshold is not None)
        return [self._finish(y[a:b], None if probs is None else probs[a:b], o_threshold, want_marginals,
                             toks, o_words)
                for (_, toks, _), a, b in zip(items, offsets[:-1].tolist(), offsets[1:].tolist())]

    def probabilities(self, items) -> list[tuple[list[str], np.ndarray]]:
        """Per document: its Viterbi labels and every token's marginals (rows in ``labels`` order)."""
        with _one_blas_thread():
            return self._probabilities(items, self._scores(items))

    def probabilities_beside(self, other, items, more=()) -> tuple[list, ...] | None:
        """``(self.probabilities(items), other.probabilities(items), *(m.probabilities(items) for m in more))``,
        each group's features computed once (:class:`~crfdeid.crf.numpy.emission.SharedKeys`) when ``other`` and
        ``more`` are taggers of the same featurizer object (a model and its priors of one feature set); None
        otherwise. The votes' labels are None, not decoded: a vote (``AveragedBackend``) reads only marginals."""
        votes = [other, *more]
        if not all(isinstance(v, NumpyTagger) and v.scorer.featurizer is self.scorer.featurizer for v in votes):
            return None
        docs = [(text, toks) for text, toks, _ in items]
        mine: list = []
        theirs: list[list] = [[] for _ in votes]
        with _one_blas_thread():
            for group in _groups(docs, SCORE_TOKENS):
                shared = SharedKeys(self.scorer.featurizer)
                mine.append(self.scorer.scores_many(group, shared))
                for v, scores in zip(votes, theirs):
                    scores.append(v.scorer.scores_many(group, shared))
            return (self._probabilities(items, self._joined(mine)),
                    *(v._probabilities(items, v._joined(scores), decode=False) for v, scores in zip(votes, theirs)))

    def _probabilities(self, items, allscores, decode: bool = True):
        y, probs, offsets = self._infer_batch(items, True, allscores, decode)
        assert probs is not None  # every token's marginals were asked for
        return [([self.labels[i] for i in y[a:b].tolist()] if decode else None, probs[a:b])
                for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]

    def _infer(self, items, every: bool):
        """``(y, probs, offsets)`` of the batch: Viterbi label indices, marginals (of every
        token with ``every``, else of PHI tokens' segments only; None when there are none) and
        each document's first row. BLAS runs one thread meanwhile (:func:`_one_blas_thread`)."""
        with _one_blas_thread():
            return self._infer_batch(items, every, self._scores(items))

    def _scores(self, items) -> np.ndarray:
        """State scores of every token of ``items``, a group of documents at a time."""
        docs = [(text, toks) for text, toks, _ in items]
        return self._joined([self.scorer.scores_many(g) for g in _groups(docs, SCORE_TOKENS)])

    def _joined(self, groups) -> np.ndarray:
        return np.concatenate(groups or [np.zeros((0, len(self.labels)))])

    def _infer_batch(self, items, every: bool, allscores: np.ndarray, decode: bool = True):
        """:meth:`_infer` of scores at hand; ``decode`` False (with ``every``): marginals only, no Viterbi."""
        offsets = np.cumsum([0] + [len(toks) for _, toks, _ in items])
        bounds = [(a + off, b + off) for (_, _, segs), off in zip(items, offsets.tolist())
                  for a, b in segs]
        y = np.zeros(len(allscores), dtype=np.intp)
        probs = None
        p: np.ndarray | None
        # A chunk of segments at a time: inference temporaries stay small on a huge note.
        for a, b, sub in _chunks(bounds, BATCH_TOKENS):
            s = allscores[a:b]
            if decode:
                y[a:b] = viterbi(s, self.transition, sub)
            if every:
                p = marginals(s, self.transition, sub)
            else:  # P(O) only of PHI tokens (confidences): only segments with PHI
                phi = np.flatnonzero(y[a:b] != self._outside)
                p = self._marginals_of(s, sub, phi) if len(phi) else None
            if p is not None:
                if probs is None:
                    probs = np.full(allscores.shape, np.nan)
                probs[a:b] = p
        return y, probs, offsets

    def _marginals_of(self, scores, bounds, tokens) -> np.ndarray:
        """Marginals of the segments holding ``tokens`` (sorted indices); NaN elsewhere."""
        b = np.asarray(bounds, dtype=np.intp)
        seg = np.searchsorted(b[:, 1], tokens, side="right")  # sorted, as ``tokens`` is
        seg = seg[np.flatnonzero(np.diff(seg, prepend=-1))]  # distinct (np.unique would import numpy.ma)
        lens = b[seg, 1] - b[seg, 0]
        rows = ranges(b[seg, 0], lens)
        sub = np.cumsum(lens)
        probs = np.full(scores.shape, np.nan)
        probs[rows] = marginals(scores[rows], self.transition,
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
        low = below(probs[:, out], ~phi, o_threshold, toks) if out >= 0 else []
        if low:
            threshold_labels(labels, low, lambda lab, t: probs[t, column[lab]], self._others,
                             toks, o_words)
        return labels, p_o, margs
