"""The model file: one file holding a manifest and the model's part, checked before use.

Layout::

    b"CRFDEID-MODEL-2\\n" | 8-byte big-endian manifest length | SHA-256 of the manifest (32 bytes)
        | manifest (JSON) | part [| companion] [| prior]

Every byte that decides what a model removes is checked: the manifest (config,
thresholds, labels, word lists) by the digest before it, each part by the size and
SHA-256 the manifest gives. A file written before the manifest had its digest
(:data:`LEGACY_MAGIC` ``b"CRFDEID-MODEL\\n"``, the same layout without the 32 bytes) still
loads, with a warning that a damaged setting in it would go unnoticed until it is saved
again. The two magic strings differ in more than one bit, so no single flipped bit makes
a file of the new layout pass for an unchecked one.

The part is a CRFsuite model (format 1), a network's weights in the safetensors
format (format 2, :mod:`crfdeid.neural`: tensors and a JSON header, no pickle), or
model files of this layout one after another (format 3, ``members_size`` and
``members_sha256``; :mod:`crfdeid.routing`: the manifest's ``members`` gives each one's
name, size and SHA-256 and its ``router`` the weights that choose one per note; each member
is checked whole as a file of its own when it is loaded).
A CRF whose config has a ``companion`` section is followed by the companion's CRFsuite
model, described by the manifest's ``companion`` entry (``crf_size``, ``crf_sha256``,
``labels``, its ``o_words`` and ``training`` statistics); a file without that entry
ends with the part, as every file written before it did. A config with a ``prior`` section
ends with the prior's CRFsuite model (the shipped model's, or another file's, copied at
training), described by the manifest's ``prior`` entry (``crf_size``, ``crf_sha256``, its
``config`` as its own file wrote it, ``labels`` and the ``source`` it was copied from).
The manifest holds the fully resolved config, the feature-set definition,
gazetteer checksums, the crfdeid version, the labels, training statistics (and a
network's vocabularies) and the size and SHA-256 of the part (``crf_size`` and
``crf_sha256``, or ``weights_size`` and ``weights_sha256``). :func:`parse` checks
all of it before the C library or PyTorch sees a byte, including every offset the C
library follows in a CRFsuite part (:mod:`crfdeid.tagging.crfsuite_check`), and raises
:class:`~crfdeid.errors.ModelError` naming the file (and the offset) for a corrupt
file, an unknown format or a model written by a newer crfdeid than the one running.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import stat
import warnings

from .. import gazetteers
from ..config import load_config
from ..errors import CrfdeidError, ModelError
from ..features import wordclass
from ..version import __version__
from .crfsuite_check import check as check_crfsuite

MAGIC = b"CRFDEID-MODEL-2\n"
#: The header of files written before the manifest had a digest (loaded with a warning).
LEGACY_MAGIC = b"CRFDEID-MODEL\n"
#: Format of a file holding a CRFsuite model.
FORMAT_VERSION = 1
#: Format of a file holding a network's weights (safetensors).
WEIGHTS_FORMAT_VERSION = 2
#: Format of a file holding other model files and a router choosing one per note (:mod:`crfdeid.routing`).
MEMBERS_FORMAT_VERSION = 3
#: The part each format holds: the manifest keys' prefix.
PARTS: dict[object, str] = {FORMAT_VERSION: "crf", WEIGHTS_FORMAT_VERSION: "weights", MEMBERS_FORMAT_VERSION: "members"}
CRF_MAGIC = b"lCRF"
_MAX_MANIFEST = 64 * 1024 * 1024
#: The largest model file read (the shipped CRF is under 1 MB, a network's weights tens of MB).
MAX_MODEL_BYTES = 1024 ** 3


def gazetteer_checksums(cfg: dict) -> dict:
    """Checksums of the word lists a config's features read (none without dictionary features), and of the word
    classes' table where its template is one of them."""
    sums = dict(gazetteers.checksums()) if cfg["features"]["groups"].get("dictionary") else {}
    if wordclass.NAME in cfg["features"].get("word", ()):
        sums[wordclass.TABLE] = wordclass.checksum()
    if wordclass.NAME_V2 in cfg["features"].get("word", ()):
        sums[wordclass.TABLE_V2] = wordclass.checksum_of(wordclass.TABLE_V2)
    return sums


#: The CRFs a CRF model file may hold after its own, in file order (each with its manifest entry).
EXTRA_PARTS = ("companion", "prior")


def to_bytes(crf: bytes, manifest: dict, labels: list[str], companion: bytes | None = None,
             prior: bytes | None = None) -> bytes:
    """The file content for a CRFsuite model ``crf`` (or the weights of a format 2
    ``manifest``) and its ``manifest``; ``companion``, ``prior``: the companion CRF and the
    prior's CRF (their entries ``manifest["companion"]``, ``manifest["prior"]`` get each part's
    size and checksum)."""
    part = PARTS.get(manifest.get("format"), "crf")
    manifest = dict(manifest, labels=labels, **{f"{part}_size": len(crf),
                                                f"{part}_sha256": hashlib.sha256(crf).hexdigest()})
    given = {"companion": companion, "prior": prior}
    extras: dict[str, bytes] = {key: crf_part for key in EXTRA_PARTS if (crf_part := given[key]) is not None}
    for key, crf_part in extras.items():
        manifest[key] = dict(manifest[key], crf_size=len(crf_part), crf_sha256=hashlib.sha256(crf_part).hexdigest())
    head = json.dumps(manifest, sort_keys=True).encode("utf-8")
    return (MAGIC + len(head).to_bytes(8, "big") + hashlib.sha256(head).digest() + head + crf
            + b"".join(extras.values()))


def part_sha256(manifest: dict) -> str:
    """The SHA-256 of a loaded model file's part as its manifest gives it: the CRF's, the network's
    weights' or a routed file's members' ("" for a model not read from a file).

    >>> part_sha256({"format": MEMBERS_FORMAT_VERSION, "members_sha256": "ab12"}), part_sha256({"format": 1})
    ('ab12', '')
    """
    return str(manifest.get(f"{PARTS.get(manifest.get('format'), 'crf')}_sha256") or "")


def read_file(path) -> bytes:
    """The content of the model file ``path``, checked at the boundary before it is read whole:
    a regular file (not a device such as ``/dev/zero``, a FIFO or a folder), at most
    :data:`MAX_MODEL_BYTES`, starting with a model file's magic bytes.

    Raises
    ------
    ModelError
        Naming the file and what it is instead; OSError reading it is left to the caller.
    """
    st = os.stat(path)  # never opened before it is known to be a regular file (a FIFO would block)
    if stat.S_ISDIR(st.st_mode):
        raise ModelError("is a folder, not a crfdeid model file", path=path)
    if not stat.S_ISREG(st.st_mode):
        raise ModelError("is not a regular file (a device, FIFO or socket), not a crfdeid model file",
                         path=path)
    if st.st_size > MAX_MODEL_BYTES:
        raise ModelError(f"{st.st_size} bytes: larger than any crfdeid model file "
                         f"(at most {MAX_MODEL_BYTES}); not read", path=path)
    with open(path, "rb") as f:
        head = f.read(len(MAGIC))
        if not is_model_file(head):
            raise ModelError("not a crfdeid model file (bad magic bytes)", path=path)
        return head + f.read(MAX_MODEL_BYTES + 1 - len(head))


def is_model_file(start: bytes) -> bool:
    """Whether a file beginning with ``start`` is a crfdeid model file (of either header)."""
    return start.startswith(MAGIC) or start.startswith(LEGACY_MAGIC)


def _is_safetensors(data: bytes) -> bool:
    """Whether ``data`` starts as a safetensors file: 8-byte little-endian header size, JSON."""
    if len(data) < 10:
        return False
    size = int.from_bytes(data[:8], "little")
    return 8 + size <= len(data) and data[8:9] == b"{"


def parse(data: bytes, path=None) -> tuple[dict, bytes]:
    """``(manifest, part)`` of a model file's content, every part checked (:func:`parse_parts`)."""
    manifest, part, _ = parse_parts(data, path)
    return manifest, part


def parse_parts(data: bytes, path=None) -> tuple[dict, bytes, bytes | None]:
    """``(manifest, part, companion)`` of a model file's content, every part checked (:func:`parse_all`)."""
    manifest, part, extras = parse_all(data, path)
    return manifest, part, extras.get("companion")


def parse_all(data: bytes, path=None) -> tuple[dict, bytes, dict[str, bytes]]:
    """``(manifest, part, extras)`` of a model file's content, every part checked.

    ``manifest["format"]`` tells the part: a CRFsuite model (1) or safetensors weights (2);
    ``extras`` maps ``companion`` and ``prior`` to the CRFsuite model of each the file holds.

    Raises
    ------
    ModelError
        Wrong magic bytes, truncated or altered content, or a format this crfdeid
        does not read.
    """
    n, size = _manifest_extent(data, path)
    try:
        manifest = json.loads(data[n:n + size].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelError("corrupt model manifest", path=path, offset=n) from None
    if not isinstance(manifest, dict):
        raise ModelError("corrupt model manifest", path=path, offset=n)
    fmt = manifest.get("format")
    if fmt not in PARTS or isinstance(fmt, bool):
        raise ModelError(f"model format {fmt!r} is not supported by crfdeid {__version__} "
                         f"(formats {', '.join(map(str, PARTS))}); retrain the model", path=path)
    _check_version(manifest.get("crfdeid_version"), path)
    name = PARTS[fmt]
    entries = {key: manifest[key] for key in EXTRA_PARTS if manifest.get(key) is not None}
    for key, entry in entries.items():
        if (name != "crf" or not isinstance(entry, dict) or not isinstance(entry.get("crf_size"), int)
                or isinstance(entry["crf_size"], bool) or entry["crf_size"] < 0):
            raise ModelError(f"corrupt model manifest ({key} entry)", path=path, offset=n)
    rest = data[n + size:]
    own = manifest.get(f"{name}_size")
    part = rest[:own] if entries and isinstance(own, int) and own >= 0 else rest
    _check_part(part, manifest, name, "CRF" if name == "crf" else name, path, n + size)
    extras, at = {}, len(part)
    for i, (key, entry) in enumerate(entries.items()):
        last = i == len(entries) - 1
        extras[key] = rest[at:] if last else rest[at:at + entry["crf_size"]]
        _check_part(extras[key], entry, "crf", f"{key} CRF" if key == "prior" else "companion CRF", path,
                    n + size + at)
        at += len(extras[key])
    return manifest, part, extras


def _manifest_extent(data: bytes, path) -> tuple[int, int]:
    """Offset and size of the manifest in ``data``, its digest checked (a legacy header: a warning)."""
    legacy = data.startswith(LEGACY_MAGIC)
    if not legacy and not data.startswith(MAGIC):
        raise ModelError("not a crfdeid model file (bad magic bytes)", path=path)
    magic = LEGACY_MAGIC if legacy else MAGIC
    n = len(magic) + 8 + (0 if legacy else 32)
    if len(data) < n:
        raise ModelError("truncated or corrupt model file (header)", path=path)
    size = int.from_bytes(data[len(magic):len(magic) + 8], "big")
    if size > min(_MAX_MANIFEST, len(data) - n):
        raise ModelError("truncated or corrupt model file (manifest size)", path=path, offset=len(magic))
    if legacy:
        warnings.warn(f"model {path or '(bytes)'} was written before its manifest (config, thresholds, "
                      "labels) had a checksum: a damaged setting in it would go unnoticed; save it again "
                      "(crfdeid.crf.Model.load(path).save(path)) to have it checked", stacklevel=4)
    elif hashlib.sha256(data[n:n + size]).digest() != data[n - 32:n]:
        raise ModelError("corrupt model file (manifest checksum mismatch)", path=path, offset=len(magic) + 8)
    return n, size


def _check_part(part: bytes, entry: dict, name: str, what: str, path, offset: int) -> None:
    """``part`` of the size and checksum ``entry`` gives (``{name}_size``, ``{name}_sha256``), a valid CRF."""
    part_size = entry.get(f"{name}_size")
    looks_right = {"crf": part.startswith(CRF_MAGIC), "members": part.startswith(MAGIC)}.get(name) \
        if name != "weights" else _is_safetensors(part)
    if not isinstance(part_size, int) or len(part) != part_size or not looks_right:
        raise ModelError(f"truncated or corrupt model file ({what} part "
                         f"is {len(part)} bytes, manifest says {part_size})", path=path, offset=offset)
    if hashlib.sha256(part).hexdigest() != entry.get(f"{name}_sha256"):
        raise ModelError("corrupt model file (checksum mismatch)", path=path, offset=offset)
    if name == "crf":
        for at, piece in crf_pieces(part, entry, path):
            check_crfsuite(piece, path, base=offset + at)


def crf_pieces(part: bytes, entry: dict, path=None) -> list[tuple[int, bytes]]:
    """A CRF part as ``(offset, CRFsuite model)`` pairs: the prior's part with ``also`` is its CRFs one after another
    (:func:`crfdeid.crf.train.prior_part`: ``first_size`` and each ``also`` entry's ``crf_size``), every other
    part one model. Used where the file is checked and where the prior's CRFs are opened
    (:meth:`crfdeid.crf.model.Model._open_priors`).

    Raises
    ------
    ModelError
        ``also`` sizes that are not positive integers adding up to the part's size.
    """
    also = entry.get("also")
    if not also:
        return [(0, part)]
    raw = [entry.get("first_size"), *(e.get("crf_size") if isinstance(e, dict) else None for e in also)] \
        if isinstance(also, list) else [None]
    sizes: list[int] = [n for n in raw if isinstance(n, int) and not isinstance(n, bool) and n > 0]
    if len(sizes) != len(raw) or sum(sizes) != len(part):
        raise ModelError("corrupt model manifest (the prior entry's first_size and also sizes)", path=path)
    starts = [0, *itertools.accumulate(sizes)]
    return [(at, part[at:end]) for at, end in zip(starts, starts[1:])]


def member_files(manifest: dict, part: bytes, path=None) -> dict[str, bytes]:
    """The member model files of a checked format 3 file (its ``part`` cut by the manifest's
    ``members`` entry), by name in file order, each size and SHA-256 checked.

    Raises
    ------
    ModelError
        A corrupt ``members`` entry, a member whose bytes are not the entry's, bytes after the last.
    """
    entries = manifest.get("members")
    if not isinstance(entries, list) or not entries:
        raise ModelError("corrupt model manifest (members entry)", path=path)
    members, at = {}, 0
    for entry in entries:
        size = entry.get("size") if isinstance(entry, dict) else None
        named = isinstance(entry, dict) and isinstance(entry.get("name"), str)
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0 or not named:
            raise ModelError("corrupt model manifest (members entry)", path=path)
        data = part[at:at + size]
        if len(data) != size or hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise ModelError(f"corrupt model file (member {entry['name']!r}: size or checksum mismatch)", path=path)
        members[entry["name"]] = data
        at += size
    if at != len(part):
        raise ModelError("corrupt model file (bytes after the last member)", path=path)
    return members


def member_of(data: bytes, name: str | None = None, path=None) -> tuple[str | None, bytes]:
    """``(member name, file content)``: a routed file's member ``name`` (None: its default member,
    the config's ``routing.default``), followed down while that member is routed too; a file of
    another format is itself (name None), whatever ``name``.

    Raises
    ------
    ModelError
        A damaged file, or a routed file without a member ``name`` (the message lists its members).
    """
    chosen = None
    while True:
        manifest, part, _ = parse_all(data, path)
        if manifest.get("format") != MEMBERS_FORMAT_VERSION:
            return chosen, data
        members = member_files(manifest, part, path)
        want = name if name is not None else ((manifest.get("config") or {}).get("routing") or {}).get("default")
        if want not in members:
            raise ModelError(f"the routed model has no member {want!r} (its members: {', '.join(members)})",
                             path=path)
        chosen, data = want, members[want]


def resolved_config(manifest: dict, path=None) -> dict:
    """The validated config a model file's manifest holds (:func:`upgrade_config` first).

    Raises
    ------
    ModelError
        A config this crfdeid cannot read.
    """
    try:
        return load_config(upgrade_config(manifest["config"], path))
    except (CrfdeidError, KeyError) as exc:
        raise ModelError(f"incompatible model configuration ({exc})", path=path) from None


def version_tuple(version) -> tuple[int, int, int] | None:
    """``(major, minor, patch)`` of a version string such as ``0.2.0`` (None if it is not one).

    >>> version_tuple("0.2.0"), version_tuple("1.3"), version_tuple("x")
    ((0, 2, 0), (1, 3, 0), None)
    """
    if not isinstance(version, str):
        return None
    m = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?(?:[.+-]?[A-Za-z0-9.+-]*)?", version)
    return (int(m[1]), int(m[2]), int(m[3] or 0)) if m else None


def _check_version(version, path) -> None:
    """Refuse a model written by a newer crfdeid: it may hold what this one cannot apply."""
    written, running = version_tuple(version), version_tuple(__version__)
    if written is None:
        raise ModelError(f"model manifest has no readable crfdeid_version ({str(version)[:20]!r})", path=path)
    if running is not None and written > running:
        raise ModelError(f"model written by crfdeid {version}, newer than this crfdeid {__version__}; "
                         "upgrade crfdeid to use it", path=path)


def upgrade_config(config, path=None):
    """The config of a model written by an earlier crfdeid, in today's keys.

    crfdeid 0.1 wrote a ``second_pass`` section (the stacked CRF, since removed):
    dropped when it was off; a model that used it must be retrained. A model whose config lists
    its chain in ``postprocess`` tagged without reading ``rules`` (a config may no longer give
    both): its ``rules`` become the defaults, which configure nothing there.

    >>> upgrade_config({"rules": {"date_check": False}, "postprocess": ["rules.v1"]})["rules"]
    {}
    """
    if not isinstance(config, dict):
        return config
    if isinstance(config.get("postprocess"), list) and config.get("rules"):
        config = {**config, "rules": {}}
    if "second_pass" not in config:
        return config
    config = dict(config)
    if (config.pop("second_pass") or {}).get("enabled"):
        raise ModelError("second-pass (stacked) models are no longer supported; retrain the model "
                         "with a config without `second_pass`", path=path)
    return config
