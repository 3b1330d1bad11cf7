"""Viterbi and forward-backward over many segments at once (numpy), as CRFsuite computes them.

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

import numpy as np

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


class _SparseMax:
    """``max_i (prev[s, i] + T[i, j])`` for a sparse ``T``, with the same values as dense.

    Where ``T[i, j] == 0``, ``prev[i] + T[i, j]`` is ``prev[i]`` exactly, so the
    maximum over those ``i`` is the largest ``prev[i]`` outside the few ``i`` with
    a weight: it is among the top ``K`` of ``prev`` (``K`` = largest such count
    + 1). The ``i`` with a weight are added one by one. Columns with many
    weights are done densely. Only the values are computed here (a maximum
    has no rounding); :func:`viterbi` picks the back pointers from them.
    """

    MAX_WEIGHTED = 8  # a column with more non-zero weights is done densely

    @staticmethod
    def worth(transition) -> bool | np.bool_:
        L = len(transition)
        return L >= 24 and np.count_nonzero(transition) <= L * L // 4

    def __init__(self, transition):
        L = len(transition)
        nz = transition != 0
        per_col = nz.sum(axis=0)
        self.dense = np.flatnonzero(per_col > self.MAX_WEIGHTED)
        self.sparse = np.flatnonzero(per_col <= self.MAX_WEIGHTED)
        self.k = min(L, int(per_col[self.sparse].max(initial=0)) + 1)
        self.t_dense = transition[:, self.dense]
        self.allowed = ~nz[:, self.sparse]  # [i, j]: T[i, j] == 0
        cols, rows = np.nonzero(nz[:, self.sparse].T)  # weighted entries grouped by column
        self.nz_rows, self.nz_w = rows, transition[rows, self.sparse[cols]]
        self.nz_cols, self.nz_starts = np.unique(cols, return_index=True)

    def __call__(self, prev):
        L = prev.shape[1]
        out = np.empty(prev.shape)
        if len(self.dense):
            out[:, self.dense] = (prev[:, :, None] + self.t_dense).max(axis=1)
        top = np.argpartition(prev, L - self.k, axis=1)[:, L - self.k:]
        vals = np.take_along_axis(prev, top, axis=1)
        order = np.argsort(-vals, axis=1, kind="stable")
        top, vals = np.take_along_axis(top, order, axis=1), np.take_along_axis(vals, order, axis=1)
        first = self.allowed[top].argmax(axis=1)  # (segments, sparse columns)
        res = np.take_along_axis(vals, first, axis=1)
        if len(self.nz_rows):
            weighted = np.maximum.reduceat(prev[:, self.nz_rows] + self.nz_w, self.nz_starts, axis=1)
            res[:, self.nz_cols] = np.maximum(res[:, self.nz_cols], weighted)
        out[:, self.sparse] = res
        return out


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
    emissions = np.take(emissions, steps.forward, axis=0)  # in step order (take: a fast row gather)
    best = np.empty(emissions.shape)
    first = steps.block(0)
    best[first] = score = emissions[first]
    step = _SparseMax(transition) if _SparseMax.worth(transition) else None
    for t in range(1, len(steps.running)):
        rows = steps.block(t)
        k = steps.running[t]
        # (prev[s, i] + T[i, j]) + E[t, j], maximum over i: CRFsuite's arithmetic.
        if step is None:
            score = _dense_max(score[:k], transition) + emissions[rows]
        else:
            score = step(score[:k]) + emissions[rows]
        best[rows] = score
    found = np.empty(len(emissions), dtype=np.intp)
    found[steps.last] = best[steps.last].argmax(axis=1)
    trans_t = np.ascontiguousarray(transition.T)
    for t in range(len(steps.running) - 1, 0, -1):
        rows, k = steps.block(t), steps.running[t]
        prev = slice(steps.at[t - 1], steps.at[t - 1] + k)  # the same segments one step back
        found[prev] = (best[prev] + trans_t[found[rows]]).argmax(axis=1)
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
    expe = emissions - emissions.max(axis=1, keepdims=True)
    np.exp(np.maximum(expe, _FLOOR, out=expe), out=expe)
    expt = np.exp(transition)
    # Forward, every segment from its start (rows in forward step order).
    fwd = np.take(expe, steps.forward, axis=0)
    alpha = np.empty(expe.shape)
    first = steps.block(0)
    alpha[first] = a = fwd[first] / fwd[first].sum(axis=1, keepdims=True)
    for t in range(1, len(steps.running)):
        rows, k = steps.block(t), steps.running[t]
        a = (a[:k] @ expt) * fwd[rows]
        alpha[rows] = a = a / a.sum(axis=1, keepdims=True)
    del fwd
    # Backward, each segment from its own end (rows in backward step order).
    bwd = np.take(expe, steps.backward, axis=0)
    beta = np.empty(expe.shape)
    beta[first] = b = np.ones((len(steps.lens), expe.shape[1]))
    for r in range(1, len(steps.running)):
        rows, k = steps.block(r), steps.running[r]
        b = (b[:k] * bwd[steps.at[r - 1]:steps.at[r - 1] + k]) @ expt.T
        beta[rows] = b = b / b.sum(axis=1, keepdims=True)
    del bwd
    probs = expe  # back in token order
    probs[steps.forward] = alpha
    probs[steps.backward] *= beta
    probs /= probs.sum(axis=1, keepdims=True)
    return probs
