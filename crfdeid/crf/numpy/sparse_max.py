"""The sparse maximum of Viterbi's step (:class:`SparseMax`), built once a transition matrix
(:func:`sparse_max`): :mod:`crfdeid.crf.numpy.tagger` takes it where the matrix is sparse enough."""

from __future__ import annotations

from functools import lru_cache

import numpy as np


def runs(flags):
    """``(start, end)`` of each run of true values in ``flags``."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], flags.astype(np.int8), [0]))))
    return zip(edges[::2].tolist(), edges[1::2].tolist())


class SparseMax:
    """``max_i (prev[i, s] + T[i, j])`` for a sparse ``T``, with the same values as dense.

    Where ``T[i, j] == 0``, ``prev[i] + T[i, j]`` is ``prev[i]`` exactly, so column ``j``'s
    maximum is that of two kinds of candidates: the largest ``prev[i]`` over each run of
    such ``i`` (label order: the labels with most weights last, which makes runs few) and
    ``prev[i] + T[i, j]`` for each ``i`` with a weight. A run's maximum is read from a table
    of the maxima of every power-of-two range (two overlapping ranges cover a run), built
    once per step; one gather and one ``maximum.reduceat`` then give every column. A maximum
    has no rounding, so the values are the dense ones (same candidates, same sums); only the
    values are computed here, :func:`viterbi` picks the back pointers from them.

    From :attr:`CHAIN_FROM` segments on, the columns' candidates are reduced by a chain of
    pairwise maxima instead of ``reduceat`` (which costs about 20 ns an element along axis 0,
    4x the chain's): candidates are laid out by their place in their column (the columns
    with most candidates first), so the ``p``-th candidates of all columns that have one are
    one block, folded into the running maxima by one ``np.maximum``. Below it the chain's
    calls (one per place: 47 for the default model) cost more than they save.
    """

    #: Segments from which a step's maxima are folded by the chain of maxima.
    CHAIN_FROM = 32

    @staticmethod
    def worth(transition) -> bool | np.bool_:
        L = len(transition)
        return L >= 24 and np.count_nonzero(transition) <= L * L // 4

    def __init__(self, transition):
        L = len(transition)
        nz = transition != 0
        self.order = np.argsort(nz.sum(axis=1), kind="stable")  # table row r is label order[r]
        row = np.empty(L, dtype=np.intp)
        row[self.order] = np.arange(L)
        idx: list[int] = []
        weight: list[float] = []
        starts: list[int] = []
        levels = 1
        for j in range(L):
            starts.append(len(idx))
            for a, b in runs(~nz[self.order, j]):
                lev = (b - a).bit_length() - 1  # ranges of 2**lev rows: [a, ...) and [..., b)
                levels = max(levels, lev + 1)
                for r in dict.fromkeys((a, b - (1 << lev))):
                    idx.append(lev * L + r)
                    weight.append(0.0)
            for i in np.flatnonzero(nz[:, j]).tolist():
                idx.append(int(row[i]))
                weight.append(float(transition[i, j]))
        self.levels = levels
        self.idx = np.array(idx, dtype=np.intp)
        self.weight = np.array(weight)[:, None]
        self.starts = np.array(starts, dtype=np.intp)
        # The chain's layout: block p holds the p-th candidate of every column with more than p.
        counts = np.diff(np.append(self.starts, len(self.idx)))
        cols = np.argsort(-counts, kind="stable")
        self.heights = [int(np.count_nonzero(counts > p)) for p in range(int(counts.max()))]
        at = np.concatenate([self.starts[cols[:h]] + p for p, h in enumerate(self.heights)])
        self.chain_idx, self.chain_weight = self.idx[at], self.weight[at]
        self.chain_at = np.concatenate(([0], np.cumsum(self.heights))).tolist()
        self.chain_back = np.empty(L, dtype=np.intp)  # column j's row in the chain's maxima
        self.chain_back[cols] = np.arange(L)

    def __call__(self, prev):
        """The maxima, shape (labels, segments), of ``prev`` of that shape."""
        L, k = prev.shape
        table = np.empty((self.levels * L, k))  # rows lev * L + r: max of table rows r .. r + 2**lev
        np.take(prev, self.order, axis=0, out=table[:L], mode="clip")  # "clip": unbuffered (the rows are labels)
        for lev in range(1, self.levels):
            half, n, src = 1 << (lev - 1), L - (1 << lev) + 1, (lev - 1) * L
            np.maximum(table[src:src + n], table[src + half:src + half + n], out=table[lev * L:lev * L + n])
        if k < self.CHAIN_FROM:
            cand = np.take(table, self.idx, axis=0)
            cand += self.weight
            return np.maximum.reduceat(cand, self.starts, axis=0)
        cand = np.take(table, self.chain_idx, axis=0)
        cand += self.chain_weight
        top, at = cand[:L], self.chain_at
        for p in range(1, len(self.heights)):
            h = self.heights[p]
            np.maximum(top[:h], cand[at[p]:at[p] + h], out=top[:h])
        return np.take(top, self.chain_back, axis=0)


def sparse_max(transition) -> SparseMax | None:
    """The :class:`SparseMax` of ``transition`` when it is worth it, built once a matrix (of its
    bytes): about 0.7 ms, which every inference chunk of every batch paid before."""
    if not SparseMax.worth(transition):
        return None
    return _sparse_max_of(transition.tobytes(), transition.shape, transition.dtype.str)


@lru_cache(maxsize=8)
def _sparse_max_of(data: bytes, shape: tuple, dtype: str) -> SparseMax:
    return SparseMax(np.frombuffer(data, dtype=dtype).reshape(shape))
