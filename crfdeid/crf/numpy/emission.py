"""State scores of a document's tokens straight from cached score vectors (no attribute strings).

CRFsuite's state score of token ``t`` and label ``y`` is the sum, over the
attributes of the token, of the weight of (attribute, label). A token's
attributes (:meth:`crfdeid.features.Featurizer.featurize`) are the union of
what its word, each neighbouring word of the window, the bigrams and each
token of the token window contribute, so the score is a sum of per-source
vectors over labels. Each vector is cached: per word type (one row per window
offset) and per tuple of token-template attributes (one row per token-window
offset); the bigram attributes the model knows are indexed by word pair at
load, the window's attributes by their unprefixed text as new keys meet them.
The weights are held sparse (:class:`~crfdeid.crf.numpy.weights.CrfWeights`): a
new key's scores add only an attribute's non-zero weights. Scoring a group of
documents (:meth:`EmissionScorer.scores_many`) is then a dictionary look-up per
token and a few row gathers and sums in numpy.
Two scorers of one featurizer (a model and its prior, docs/prior.md) share a group's
keys and its new word types' attributes (:class:`SharedKeys`): what depends on the
featurizer alone is computed once, the scores under each model's weights.

Equivalence with the attribute strings is tested (``tests/test_inference.py``):
the scores equal the summed weights of ``featurize()``'s attributes, and the
labels and marginals equal CRFsuite's.
"""

from __future__ import annotations

import functools
import operator
from itertools import chain, compress, repeat

import numpy as np

from ...features.context import token_texts
from ...features.window import window_prefix
from .weights import CrfWeights

#: Bytes of cached score vectors after which the caches start afresh (bounded memory).
CACHE_BYTES = 64 * 2**20
_FILL = 1024  # new keys scored at a time


class _Rows:
    """Cached score blocks ``(blocks, labels)`` by key, in one growing array laid out
    ``(blocks, keys, labels)``: a gather of one block's rows is a contiguous ``np.take``."""

    def __init__(self, blocks: int, n_labels: int):
        self.index: dict = {}
        self.limit = max(1024, CACHE_BYTES // (8 * blocks * n_labels))
        self.data = np.zeros((blocks, 256, n_labels))

    def ids(self, keys, fill) -> np.ndarray:
        """Row of every key; ``fill(new_keys)`` returns the new keys' score blocks."""
        index = self.index
        rows = list(map(index.get, keys))  # one hash per key when all are known
        if None in rows:
            new = list(dict.fromkeys(k for k, r in zip(keys, rows) if r is None))
            if len(index) + len(new) > self.limit:
                index.clear()
                new = list(dict.fromkeys(keys))
            first = len(index)
            need = first + len(new)
            blocks, size, n_labels = self.data.shape
            if need > size:
                grown = np.zeros((blocks, max(need, 2 * size), n_labels))
                grown[:, :first] = self.data[:, :first]
                self.data = grown
            for i in range(first, need, _FILL):  # a bounded number at a time: bounded temporaries
                blocks_of_new = fill(new[i - first:i - first + _FILL])  # (keys, blocks, labels)
                self.data[:, i:min(need, i + _FILL)] = blocks_of_new.transpose(1, 0, 2)
            index.update(zip(new, range(first, need)))
            if first:  # fill the gaps (after a clear, every key is new)
                missing = list(compress(range(len(rows)), map(operator.is_, rows, repeat(None))))
                for i, r in zip(missing, map(index.__getitem__, map(keys.__getitem__, missing))):
                    rows[i] = r
            else:
                rows = list(map(index.__getitem__, keys))
        return np.array(rows, dtype=np.intp)


class _Near(dict):
    """Unprefixed attribute -> ``[(b, row)]``: its row among the model's ``attributes`` as seen from
    ``offsets[b]`` (each offset but 0; with ``own``, first ``(0, row)`` of the attribute itself). Found on
    first look-up, an attribute at a time; forgotten past a bound (memory stays bounded on endless streams).
    Each ``b`` is another score block: the order of a list changes no sum."""

    LIMIT = 2**19

    def __init__(self, attributes: dict, offsets, own: bool):
        super().__init__()
        self.attributes = attributes
        self.heads = [(b, window_prefix(o, "")) for b, o in enumerate(offsets) if o]
        self.own = own

    def __missing__(self, base: str) -> list:
        index = self.attributes
        got = [(0, index[base])] if self.own and base in index else []
        for b, head in self.heads:
            row = index.get(head + base)
            if row is not None:
                got.append((b, row))
        if len(self) >= self.LIMIT:
            self.clear()
        self[base] = got
        return got


class SharedKeys:
    """What the scorers of one featurizer compute alike for one group of documents.

    The first scorer that reads a group (:meth:`EmissionScorer.scores_many`) stores its tokens'
    keys here, and every new word type's template attributes; the others read them: a pure
    function of the featurizer and the documents, computed once. Scorers of another featurizer
    compute their own.
    """

    def __init__(self, featurizer) -> None:
        self.featurizer = featurizer
        self.keys: tuple | None = None  # (lens, starts, words, pairs, token keys) of the group
        self.types: dict = {}  # word key -> Featurizer.type_attributes(word key)

    def type_attributes(self, word):
        """``featurizer.type_attributes(word)``, computed once a word."""
        got = self.types.get(word)
        if got is None:
            got = self.types[word] = self.featurizer.type_attributes(word)
        return got


class EmissionScorer:
    """Score vectors of a featurizer's attributes under a model's weights.

    Parameters
    ----------
    featurizer : crfdeid.features.Featurizer
    weights : crfdeid.crf.numpy.weights.CrfWeights
    """

    def __init__(self, featurizer, weights: CrfWeights):
        self.featurizer = featurizer
        self.weights = weights
        n_labels = len(weights.labels)
        self._n_labels = n_labels
        self._unknown = weights.unknown
        self._offsets = [0] + featurizer.offsets
        tw = featurizer.token_window
        self._tok_offsets = [0] + [o for k in range(1, tw + 1) for o in (-k, k)]
        self._words = _Rows(len(self._offsets), n_labels)
        self._tokens = _Rows(len(self._tok_offsets), n_labels)
        self._pair_rows = self._pairs(weights.attributes)
        self._pad = {o: weights.vector([featurizer.pad_attribute(o)]) for o in featurizer.offsets}
        # Attribute (unprefixed) -> [(block, row)] of the model's attributes it is at each window offset,
        # found when a new key first holds it (not by a pass over the model's attributes at load:
        # a large model's are many, a note's few): a new key needs one look-up per attribute, not one
        # per offset. A token's own attributes: block 0, first.
        self._by_base = _Near(weights.attributes, self._offsets, own=False)
        self._tok_by_base = _Near(weights.attributes, self._tok_offsets, own=True)

    def _pairs(self, attributes: dict) -> dict:
        """Bigram attributes the model knows, by word pair (``left|right``, as :meth:`_keys` joins a pair):
        ``[row on the right word, row on the left]``. A pair's attribute is its head and the pair so joined
        (``Featurizer.bigram_pair_attributes``): the same string for every reading of a bar in a word."""
        right_head, left_head = heads = self.featurizer.BIGRAM_HEADS
        # a third of a model's attributes; one without a bar names no pair
        bigrams = [item for item in attributes.items() if item[0].startswith(heads) and "|" in item[0]]
        unknown = self._unknown
        pair_rows = {attr[len(right_head):]: [row, unknown] for attr, row in bigrams if attr.startswith(right_head)}
        for attr, row in bigrams:
            if attr.startswith(left_head):
                rows = pair_rows.get(attr[len(left_head):])
                if rows is None:
                    pair_rows[attr[len(left_head):]] = [unknown, row]
                else:
                    rows[1] = row
        return pair_rows

    def _word_blocks(self, words, attributes=None):
        """Score blocks of new word types; the windowed attributes are looked up unprefixed.

        ``attributes``: a word's :meth:`Featurizer.type_attributes`, where they are shared."""
        nb, by_base = len(self._offsets), self._by_base
        index, unknown = self.weights.attributes, self._unknown
        mine, windowed = zip(*map(attributes or self.featurizer.type_attributes, words))
        # Block 0: the word's own attributes (unknown ones dropped after the look-up).
        cols = np.fromiter(map(index.get, chain.from_iterable(mine), repeat(unknown)), dtype=np.intp)
        rows = np.repeat(np.arange(len(words), dtype=np.intp) * nb, list(map(len, mine)))
        known = cols != unknown
        near_rows, near_cols = [], []  # the other blocks: what the word gives its neighbours
        for r, attrs in enumerate(windowed):
            for a in attrs:
                for b, i in by_base[a]:
                    near_rows.append(r * nb + b)
                    near_cols.append(i)
        return self._scatter(np.concatenate([rows[known], np.asarray(near_rows, dtype=np.intp)]),
                             np.concatenate([cols[known], np.asarray(near_cols, dtype=np.intp)]),
                             len(words), nb)

    def _scatter(self, rows, cols, n_keys, n_blocks):
        # out[rows[e]] += state[cols[e]] for every e, summed in the order of e (as np.add.at does, 2.5x
        # faster): one bincount over the (row, label) cells of the weights the rows hold. A dense row's
        # zeros add nothing (a sum started at 0.0 is never -0.0, and x + 0.0 is x): the same sums.
        weights, n_labels = self.weights, self._n_labels
        at, entries = weights.entries(np.asarray(cols, dtype=np.intp))
        cells = np.asarray(rows, dtype=np.intp)[at] * n_labels + weights.columns[entries]
        out = np.bincount(cells, weights=weights.values[entries], minlength=n_keys * n_blocks * n_labels)
        return out.reshape(n_keys, n_blocks, n_labels)

    def _token_blocks(self, keys):
        # Block b: the key's attributes as the token at offset -_tok_offsets[b] sees them.
        by_base, nb = self._tok_by_base, len(self._tok_offsets)
        rows, cols = [], []
        for r, key in enumerate(keys):
            for a in chain.from_iterable(key):
                for b, i in by_base[a]:
                    rows.append(r * nb + b)
                    cols.append(i)
        return self._scatter(rows, cols, len(keys), nb)

    def clear_cache(self) -> None:
        """Forget the cached score vectors."""
        for rows in (self._words, self._tokens):
            rows.index.clear()
        for near in (self._by_base, self._tok_by_base):
            near.clear()

    def scores(self, text: str, tokens) -> np.ndarray:
        """``(n_tokens, n_labels)`` state scores, as CRFsuite computes them from ``featurize()``."""
        return self.scores_many([(text, tokens)])

    def scores_many(self, docs, shared: SharedKeys | None = None) -> np.ndarray:
        """The :meth:`scores` of several ``(text, tokens)`` documents, one after another.

        All documents are scored together, the windows stopping at each document's
        ends, so that a batch costs a few numpy operations, not a few per document.
        ``shared``: the group's keys and word attributes, computed by the first scorer of
        this featurizer that reads it (:class:`SharedKeys`; the same ``docs`` each time).
        """
        if shared is not None and shared.featurizer is not self.featurizer:
            shared = None  # another featurizer's keys: not this scorer's
        if shared is not None and shared.keys is not None:
            lens, starts, words, pairs, keys = shared.keys
        else:
            lens, starts, words, pairs, keys = self._keys(docs)
            if shared is not None:
                shared.keys = lens, starts, words, pairs, keys
        if not len(lens):
            return np.zeros((0, self._n_labels))
        fill = functools.partial(self._word_blocks, attributes=None if shared is None else shared.type_attributes)
        window = _Window(np.repeat(np.arange(len(lens)), lens))
        ids = self._words.ids(words, fill)  # may grow .data: look it up after
        out = window.start(self._words.data, ids, self._offsets)
        for o, pad in self._pad.items():  # the position just outside a text (-1 or n)
            m = abs(o)
            out[starts[:-1][lens >= m] + (m - 1) if o < 0 else starts[1:][lens >= m] - o] += pad
        if pairs:  # the model knows few pairs: the rows of those found, added where they go
            got = list(map(self._pair_rows.get, pairs))  # a document's pair j: its words j - 1, j
            hits = np.fromiter(compress(range(len(got)), got), dtype=np.intp)
            doc = np.searchsorted(starts[:-1] + np.arange(len(lens)), hits, side="right") - 1
            j = hits - starts[doc] - doc
            for k, ok in ((0, j < lens[doc]), (1, j > 0)):
                if ok.any():
                    out[starts[doc[ok]] + j[ok] - k] += self.weights.rows([got[g][k] for g in hits[ok].tolist()])
        if keys:
            ids = self._tokens.ids(keys, self._token_blocks)
            window.add(out, self._tokens.data, ids, self._tok_offsets)
        return out

    def _keys(self, docs) -> tuple:
        """``(lens, starts, words, pairs, token keys)`` of the documents with tokens: what the
        featurizer alone decides (the word-type keys, the bigram pairs, the token templates' keys)."""
        fz = self.featurizer
        docs = [(text, tokens) for text, tokens in docs if len(tokens)]
        lens = np.array([len(tokens) for _, tokens in docs], dtype=np.intp)
        starts = np.concatenate(([0], np.cumsum(lens))).astype(np.intp)
        words: list[str] = []
        pairs: list[str] = []
        keys: list[tuple] = []
        for text, tokens in docs:
            texts, lowered, _ = token_texts(text, tokens)
            words += fz.word_keys(text, tokens, texts)
            if fz.bigrams:  # a pair as its attributes hold it (``left|right``): one key, not a tuple
                pairs += map("|".join, fz.bigram_pairs(texts, lowered))
            if fz.has_token_columns:
                keys += fz.token_keys(text, tokens)
        return lens, starts, words, pairs, keys


class _Window:
    """Adds over the +-window of tokens that stops at document ends (``doc``: document of each token)."""

    def __init__(self, doc: np.ndarray):
        self.doc = doc
        self._other: dict = {}

    def _other_doc(self, o: int, lo: int, hi: int):
        """Indices ``i - lo`` of the tokens ``i`` in ``[lo, hi)`` whose token ``i + o`` is in another
        document (None: none is)."""
        if o not in self._other:
            other = np.flatnonzero(self.doc[lo:hi] != self.doc[lo + o:hi + o])
            self._other[o] = other if len(other) else None
        return self._other[o]

    def start(self, table, ids, offsets) -> np.ndarray:
        """:meth:`add` to zeros, ``offsets[0]`` being 0: its rows are the sums' first terms, taken
        as they are (``0.0 + x`` is ``x``: a cached sum, started at ``0.0``, is never ``-0.0``)."""
        out = np.take(table[0], ids, axis=0)
        self.add(out, table, ids, offsets, first=1)
        return out

    def add(self, out, table, ids, offsets, first: int = 0) -> None:
        """``out[i] += table[b, ids[i + o]]`` for the ``b``-th offset ``o`` (within the document),
        from ``offsets[first]`` on."""
        n = len(ids)
        buf = np.empty(out.shape)  # every offset's rows gathered here in turn (no new array each)
        for b, o in enumerate(offsets[first:], first):
            if abs(o) >= n:
                continue
            lo, hi = max(0, -o), n - max(0, o)
            # 3.5x faster than table[ids, b]; mode "clip" writes straight into ``buf`` (the ids are rows)
            rows = np.take(table[b], ids[lo + o:hi + o], axis=0, out=buf[:hi - lo], mode="clip")
            other = self._other_doc(o, lo, hi)
            if other is not None:  # a row of zeros adds nothing (3x faster than a masked add)
                rows[other] = 0.0
            np.add(out[lo:hi], rows, out=out[lo:hi])
