"""Bounds of a CRFsuite ``crf1d`` model checked in Python, before the C library reads it.

CRFsuite trusts its model file: the offsets in the header, the feature references
of every label and attribute, the hash tables and backward arrays of the two CQDB
string databases are followed without a bounds check, so a crafted or damaged file
(with a checksum recomputed to match) reads or writes outside the buffer and kills
the interpreter. :func:`check` follows every offset the tagger follows
(CRFsuite 0.12, ``crf1dm.c``, ``crf1d_tag.c``, ``cqdb.c``; the layout is in
:mod:`crfdeid.crf.numpy.weights`) and raises :class:`~crfdeid.errors.ModelError`
naming the offset of the first part out of bounds:

* the 48-byte header: magic ``lCRF``, type ``FOMC``, version 100, the size of the part;
* ``FEAT``: the features inside the part; a state feature goes from an attribute to a
  label, a transition from a label to a label (the tagger indexes arrays with them);
* the label and attribute CQDBs: a complete header, as many strings as the header
  says (CRFsuite sizes the tagger's arrays with either count), every hash table and every record
  it points to inside the chunk, each key NUL-terminated, each id below the count, one
  empty bucket per table (a lookup stops only there), and a backward array giving the
  string of every label;
* ``LFRF`` and ``AFRF``: a reference list for every label and attribute, inside the part,
  naming existing features.

Checks over every attribute or feature are done with numpy: the shipped model takes
a few milliseconds.
"""

from __future__ import annotations

import struct

import numpy as np

from ..errors import ModelError

_HEADER = struct.Struct("<4sI4s9I")
_CHUNK = struct.Struct("<4sII")
_CQDB = struct.Struct("<4s5I")
_CQDB_BYTEORDER = 0x62445371
_CQDB_TABLES = 256
_CQDB_DATA = 24 + 8 * _CQDB_TABLES  # header, then (offset, size) of each hash table
_FEATURE_SIZE = 20
VERSION = 100


class _Bad(Exception):
    """A part out of bounds at ``offset``."""

    def __init__(self, what: str, offset: int):
        super().__init__(what)
        self.what, self.offset = what, offset


def _u32(b: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Little-endian uint32 values at the byte offsets ``at`` of ``b`` (any alignment)."""
    at = at.astype(np.int64)
    return (b[at].astype(np.int64) | b[at + 1].astype(np.int64) << 8
            | b[at + 2].astype(np.int64) << 16 | b[at + 3].astype(np.int64) << 24)


def _need(ok: bool, what: str, offset: int) -> None:
    if not ok:
        raise _Bad(what, offset)


def check(data: bytes, path=None, base: int = 0) -> None:
    """Raise :class:`ModelError` unless every offset CRFsuite follows in ``data`` stays inside it.

    ``base``: where ``data`` starts in the file ``path`` (error offsets are file offsets).
    """
    try:
        _check(data)
    except _Bad as bad:
        raise ModelError(f"corrupt CRFsuite model ({bad.what})", path=path, offset=base + bad.offset) from None


def _check(data: bytes) -> None:
    n = len(data)
    _need(n >= _HEADER.size, "truncated header", 0)
    (magic, size, kind, version, _nfeat, n_labels, n_attrs, off_feat, off_labels, off_attrs,
     off_lrefs, off_arefs) = _HEADER.unpack_from(data, 0)
    _need(magic == b"lCRF" and kind == b"FOMC", "not a crf1d model", 0)
    _need(version == VERSION, f"version {version}, not {VERSION}", 12)
    _need(size == n, "size field differs from the part's size", 4)
    _need(0 < n_labels < 1 << 20 and n_attrs < 1 << 28, "label or attribute count", 20)
    b = np.frombuffer(data, np.uint8)
    n_feat = _features(data, b, off_feat, n_labels, n_attrs)
    _cqdb(data, b, off_labels, n_labels, "labels", need_strings=True)
    _cqdb(data, b, off_attrs, n_attrs, "attributes", need_strings=False)
    _refs(data, b, off_lrefs, b"LFRF", n_labels, n_feat)
    _refs(data, b, off_arefs, b"AFRF", n_attrs, n_feat)


def _features(data: bytes, b: np.ndarray, off: int, n_labels: int, n_attrs: int) -> int:
    n = len(data)
    _need(_HEADER.size <= off and off + _CHUNK.size <= n, "feature chunk offset", 28)
    chunk, _csize, count = _CHUNK.unpack_from(data, off)
    _need(chunk == b"FEAT", "feature chunk id", off)
    _need(off + _CHUNK.size + _FEATURE_SIZE * count <= n, "feature count", off + 8)
    rec = np.frombuffer(data, np.dtype([("type", "<u4"), ("src", "<u4"), ("dst", "<u4"), ("w", "<f8")]),
                        count=count, offset=off + _CHUNK.size)
    state, trans = rec["type"] == 0, rec["type"] == 1
    bad = ~(state | trans) | (rec["dst"] >= n_labels) | (state & (rec["src"] >= n_attrs)) \
        | (trans & (rec["src"] >= n_labels))
    if bad.any():
        raise _Bad("a feature names an unknown label or attribute",
                   off + _CHUNK.size + _FEATURE_SIZE * int(np.argmax(bad)))
    return count


def _cqdb(data: bytes, b: np.ndarray, off: int, count: int, what: str, need_strings: bool) -> None:
    """A CQDB chunk at ``off`` as ``cqdb_reader`` opens it, ``cqdb_to_id`` and ``cqdb_to_string`` read it."""
    n = len(data)
    _need(_HEADER.size <= off and off + _CQDB_DATA <= n, f"{what} chunk offset", off)
    chunk, size, _flag, order, bwd_size, bwd_off = _CQDB.unpack_from(data, off)
    _need(chunk == b"CQDB" and order == _CQDB_BYTEORDER, f"{what} chunk id", off)
    _need(_CQDB_DATA <= size <= n - off, f"{what} chunk size", off + 4)
    tables = np.frombuffer(data, "<u4", count=2 * _CQDB_TABLES, offset=off + 24).astype(np.int64)
    t_off, t_num = tables[0::2], tables[1::2]
    # CRFsuite counts the strings as half the buckets of all tables (cqdb_num) and sizes
    # the tagger's arrays with it: it must be the header's count.
    _need(int((t_num // 2).sum()) == count, f"{what} count differs from the header's", off + 24)
    used = (t_off != 0) & (t_num != 0)
    _need(bool(np.all(t_off[used] + 8 * t_num[used] <= size)), f"{what} hash table outside the chunk", off + 24)
    refs = []
    for to, tn in zip(t_off[used].tolist(), t_num[used].tolist()):
        buckets = np.frombuffer(data, "<u4", count=2 * tn, offset=off + to).astype(np.int64)
        targets = buckets[1::2]
        _need(bool((targets == 0).any()), f"{what} hash table without an empty bucket", off + to)
        refs.append(targets[targets != 0])
    if bwd_off:
        _need(bwd_off + 4 * bwd_size <= size, f"{what} backward array outside the chunk", off + 20)
        back = np.frombuffer(data, "<u4", count=bwd_size, offset=off + bwd_off).astype(np.int64)
        if need_strings:
            _need(bwd_size >= count and bool(np.all(back[:count] != 0)), f"{what} without their strings", off + 16)
        refs.append(back[back != 0])
    else:
        _need(not need_strings, f"{what} without their strings", off + 20)
    if refs:
        _records(b, off, size, np.concatenate(refs), count, what)


def _records(b: np.ndarray, off: int, size: int, at: np.ndarray, count: int, what: str) -> None:
    """Records ``(id, key size, key)`` at the chunk offsets ``at``: inside, NUL-terminated, id < count."""
    inside = at + 8 <= size
    _need(bool(inside.all()), f"{what} record outside the chunk", off + int(at[~inside][0]) if (~inside).any() else off)
    ids, ksize = _u32(b, off + at), _u32(b, off + at + 4)
    ok = (ids < count) & (ksize >= 1) & (at + 8 + ksize <= size)
    _need(bool(ok.all()), f"{what} record with a bad id or key size", off + int(at[~ok][0]) if (~ok).any() else off)
    _need(bool(np.all(b[off + at + 8 + ksize - 1] == 0)), f"{what} key not NUL-terminated", off)


def _refs(data: bytes, b: np.ndarray, off: int, chunk_id: bytes, count: int, n_feat: int) -> None:
    """A reference chunk (``LFRF``/``AFRF``): for ids below ``count``, a list of feature ids."""
    n = len(data)
    what = "label" if chunk_id == b"LFRF" else "attribute"
    _need(_HEADER.size <= off and off + _CHUNK.size <= n, f"{what} reference chunk offset", off)
    chunk, _size, listed = _CHUNK.unpack_from(data, off)
    _need(chunk == chunk_id and listed >= count, f"{what} reference chunk id or count", off)
    _need(off + _CHUNK.size + 4 * count <= n, f"{what} reference chunk outside the part", off)
    if not count:
        return
    at = np.frombuffer(data, "<u4", count=count, offset=off + _CHUNK.size).astype(np.int64)
    _need(bool(np.all((at >= _HEADER.size) & (at + 4 <= n))), f"{what} reference outside the part", off)
    nums = _u32(b, at)
    _need(bool(np.all(at + 4 + 4 * nums <= n)), f"{what} reference list outside the part", off)
    total = int(nums.sum())
    if total:
        first = np.repeat(at + 4 - 4 * (np.cumsum(nums) - nums), nums)
        fids = _u32(b, first + 4 * np.arange(total))
        _need(bool(np.all(fids < n_feat)), f"{what} reference to an unknown feature", off)
