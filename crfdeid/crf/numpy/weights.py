"""The weights of a CRFsuite ``crf1d`` model, read exactly from its binary file.

``pycrfsuite.Tagger.info()`` parses CRFsuite's text dump, which prints every
weight with six decimals; the numpy tagger (:mod:`crfdeid.crf.numpy.tagger`) must
reproduce CRFsuite's scores exactly, so the weights are read from the model
file itself. Layout (CRFsuite ``crf1dm.c``, little-endian): a 48-byte header
(magic ``lCRF``, size, type ``FOMC``, version, counts, chunk offsets), a
``FEAT`` chunk of 20-byte features (type, source, destination, float64
weight; type 0 = state feature attribute -> label, 1 = transition label ->
label), and two ``CQDB`` string databases (labels, attributes) whose backward
array maps an id to ``(id, size, NUL-terminated string)``.

A ``crf1d`` model has no start or end transition weights: the score of a label
sequence is the sum of its state and transition weights only.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass

import numpy as np

from ...errors import ModelError

_HEADER = struct.Struct("<4sI4s9I")
_FEATURE = np.dtype([("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("weight", "<f8")])
_CQDB_BYTEORDER = 0x62445371
STATE, TRANSITION = 0, 1


@dataclass(frozen=True)
class CrfWeights:
    """Labels, attributes and weights of a CRFsuite model.

    The state weights are held sparse, row by row (CSR): an attribute has non-zero
    weights for a few of the labels (under two of sixty-one in the shipped models), and a
    dense table of a large model is tens of megabytes filled at every load.

    Attributes
    ----------
    labels : list of str
        In CRFsuite's label-id order (the order ``Tagger.labels()`` gives).
    attributes : dict
        Attribute string -> row of the state weights.
    indptr, columns, values : numpy.ndarray
        The state weights of row ``r`` (an attribute) are ``values[indptr[r]:indptr[r + 1]]`` at
        labels ``columns[indptr[r]:indptr[r + 1]]`` (increasing), a weight listed twice in the
        file summed; ``n_attributes + 1`` rows, the last empty: the row of any attribute the
        model does not know.
    transition : numpy.ndarray
        ``(n_labels, n_labels)`` float64: weight of label ``i`` followed by ``j``.
    """

    labels: list
    attributes: dict
    indptr: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    transition: np.ndarray

    @property
    def unknown(self) -> int:
        """The row for attributes the model does not know (no weights)."""
        return len(self.indptr) - 2

    @functools.cached_property
    def state(self) -> np.ndarray:
        """``(n_attributes + 1, n_labels)`` float64: every state weight, dense (built on first use)."""
        return self.rows(np.arange(self.unknown + 1))

    def rows(self, ids) -> np.ndarray:
        """``(len(ids), n_labels)`` float64: the dense state-weight rows ``ids`` (a zero where no weight)."""
        ids = np.asarray(ids, dtype=np.intp)
        out = np.zeros((len(ids), len(self.labels)))
        at, entries = self.entries(ids)
        out[at, self.columns[entries]] = self.values[entries]
        return out

    def entries(self, ids) -> tuple[np.ndarray, np.ndarray]:
        """``(at, entries)``: the index into ``ids`` and the entry (of :attr:`columns`, :attr:`values`) of every
        weight of the rows ``ids``, in the order of ``ids`` and each row's labels."""
        first, stop = self.indptr[ids], self.indptr[np.asarray(ids) + 1]
        counts = stop - first
        return np.repeat(np.arange(len(counts), dtype=np.intp), counts), ranges(first, counts)

    def vector(self, attrs) -> np.ndarray:
        """Summed state weights of an attribute list (unknown attributes count zero).

        A repeated attribute counts once per occurrence, as in CRFsuite.
        """
        index = self.attributes
        rows = [index[a] for a in attrs if a in index]
        if not rows:
            return np.zeros(len(self.labels))
        return self.rows(rows).sum(axis=0)


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``starts[i], ..., starts[i] + lengths[i] - 1`` for each ``i``, end to end (integers of ``starts``' kind).

    >>> ranges(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist()
    [5, 6, 9, 10, 11]
    """
    # the k-th index of range i: starts[i] + k, k counted from the range's start in the concatenation
    offsets = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return offsets + np.arange(len(offsets), dtype=starts.dtype)


def _strings(data: bytes, offset: int, count: int, what: str, path) -> list[str]:
    """The ``count`` strings of the CQDB chunk at ``offset``, by id (the records' ids and sizes checked at once,
    with numpy: a model of 100,000 attributes loads in a fraction of the time a record at a time took)."""
    try:
        chunk, size, _flag, order, bwd_size, bwd_offset = struct.unpack_from("<4s5I", data, offset)
        if chunk != b"CQDB" or order != _CQDB_BYTEORDER or bwd_size != count:
            raise ValueError
        refs = np.frombuffer(data, "<u4", count, offset + bwd_offset).astype(np.int64)
        if (refs + 8 > size).any():
            raise ValueError
        raw = np.frombuffer(data, np.uint8)
        head = raw[(offset + refs)[:, None] + np.arange(8)].copy().view("<u4")  # (key id, size) per record
        sizes = head[:, 1].astype(np.int64)
        starts = offset + refs + 8
        if ((head[:, 0] != np.arange(count)).any() or (sizes < 1).any() or (refs + 8 + sizes > size).any()
                or raw[starts + sizes - 1].any()):
            raise ValueError
        # Every string with its NUL, end to end: one decode and one split, not one decode a string.
        strings = raw[ranges(starts, sizes)].tobytes().decode("utf-8").split("\0")
        strings.pop()  # after the last NUL
        if len(strings) != count:  # a NUL inside a string: CRFsuite writes C strings, not this file
            raise ValueError
        return strings
    except (struct.error, ValueError, IndexError, UnicodeDecodeError):
        raise ModelError(f"cannot read the {what} of the CRFsuite model", path=path,
                         offset=offset) from None


def read_weights(data: bytes, path=None) -> CrfWeights:
    """Read a CRFsuite ``crf1d`` model file (its bytes).

    Raises
    ------
    ModelError
        Not a CRFsuite ``FOMC`` model, or a chunk that does not parse.
    """
    try:
        (magic, size, kind, _version, _nfeat, n_labels, n_attrs, off_feat, off_labels,
         off_attrs, _off_lrefs, _off_arefs) = _HEADER.unpack_from(data, 0)
    except struct.error:
        raise ModelError("truncated CRFsuite model", path=path) from None
    if magic != b"lCRF" or kind != b"FOMC" or size != len(data):
        raise ModelError("not a CRFsuite crf1d model", path=path)
    try:
        chunk, _csize, n_feat = struct.unpack_from("<4sII", data, off_feat)
        if chunk != b"FEAT":
            raise ValueError
        feats = np.frombuffer(data, _FEATURE, count=n_feat, offset=off_feat + 12)
    except (struct.error, ValueError):
        raise ModelError("cannot read the features of the CRFsuite model", path=path,
                         offset=off_feat) from None
    labels = _strings(data, off_labels, n_labels, "labels", path)
    attrs = _strings(data, off_attrs, n_attrs, "attributes", path)
    kinds, src, dst = feats["type"], feats["src"], feats["dst"]
    st, tr = kinds == STATE, kinds == TRANSITION
    bad = ((~(st | tr)).any() or (dst >= n_labels).any() or (src[st] >= n_attrs).any()
           or (src[tr] >= n_labels).any())
    if bad:
        raise ModelError("CRFsuite model with out-of-range features", path=path, offset=off_feat)
    # A (source, destination) pair listed twice adds up, as CRFsuite's scorer does: one bincount, in the features'
    # order (as np.add.at, several times faster).
    indptr, columns, values = _sparse(src[st], dst[st], feats["weight"][st], n_attrs + 1, n_labels)
    transition = _summed(src[tr], dst[tr], feats["weight"][tr], n_labels, n_labels)
    return CrfWeights(labels, dict(zip(attrs, range(n_attrs))), indptr, columns, values, transition)


def _sparse(rows, cols, weights, n_rows: int, n_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR ``(indptr, columns, values)`` of ``weights`` at ``(rows, cols)``, a repeated cell summed in the
    weights' order (the sums :func:`_summed` gives its cells, a cell without a weight left out)."""
    cells = rows.astype(np.intp) * n_cols + cols.astype(np.intp)
    unique, inverse = np.unique(cells, return_inverse=True)
    values = np.bincount(inverse, weights=weights, minlength=len(unique))
    indptr = np.searchsorted(unique, np.arange(n_rows + 1, dtype=np.intp) * n_cols)
    return indptr.astype(np.intp), (unique % n_cols).astype(np.intp), values


def _summed(rows, cols, weights, n_rows: int, n_cols: int) -> np.ndarray:
    """``(n_rows, n_cols)`` float64 with ``weights`` added at ``(rows, cols)``, a repeated cell summed."""
    cells = rows.astype(np.intp) * n_cols + cols.astype(np.intp)
    return np.bincount(cells, weights=weights, minlength=n_rows * n_cols).reshape(n_rows, n_cols)
