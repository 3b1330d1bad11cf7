"""Model files: a damaged or crafted CRFsuite part is refused with ModelError, never a crash.

The mutated files keep a valid crfdeid manifest and a recomputed checksum, so what
refuses them is the check of the CRFsuite structure (:mod:`crfdeid.tagging.crfsuite_check`).
They are loaded and used in a child process, so that a mutation the check lets through
and that kills the interpreter (SIGSEGV) fails the test instead of the test run.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from crfdeid import __version__
from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.errors import ModelError
from crfdeid.tagging import modelfile
from crfdeid.tagging.model import DEFAULT_MODEL, TaggingModel

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys
from pathlib import Path
from crfdeid.crf import Model
from crfdeid.errors import ModelError
counts = {"refused": 0, "accepted": 0}
other = []
for f in sorted(Path(sys.argv[1]).glob("*.model"), key=lambda f: int(f.stem)):
    print(f.stem, file=sys.stderr, flush=True)  # the last one named is the one that crashed
    try:
        for backend in ("crfsuite", "numpy"):
            m = Model.load(f, backend=backend)
            m.tag_text("Seen by Dr. Lee on 7/22/2098, MRN 00482913.")
            m._tagger.labels()
        counts["accepted"] += 1
    except ModelError:
        counts["refused"] += 1
    except Exception as exc:
        other.append([f.stem, type(exc).__name__])
print(json.dumps({"counts": counts, "other": other}))
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    # Every structure the check follows (header, features, both string tables, both reference
    # tables; all 30 labels of the notes) at a seventh of the size: attributes seen fewer than 4
    # times are left out (69 KB, not 514 KB), so the ~900 mutants are parsed and loaded faster
    # (the test below: 60 s -> 19 s on a loaded 2-core machine, 2026-11-25).
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"train": ["synth:4,3"], "crf": {"max_iterations": 3, "feature.minfreq": 4}})
    model = train_model(None, cfg)
    return model.manifest, model._crf, model.labels


def _offsets(crf: bytes) -> dict:
    """Byte offsets of the u32 fields the C library follows, by part."""
    h = struct.unpack_from("<4sI4s9I", crf, 0)
    off_feat, off_labels, off_attrs, off_lrefs, off_arefs = h[7:12]
    fields = {"header": list(range(4, 48, 4))}
    fields["feat"] = [off_feat + 4, off_feat + 8] + [off_feat + 12 + 20 * k + j for k in (0, 1, 5) for j in (0, 4, 8)]
    for name, off in (("labels", off_labels), ("attrs", off_attrs)):
        bwd_off = struct.unpack_from("<I", crf, off + 20)[0]
        tables = [off + 24 + 8 * t for t in range(256)
                  if struct.unpack_from("<II", crf, off + 24 + 8 * t)[0]]
        bucket = [off + struct.unpack_from("<I", crf, t)[0] + 4 for t in tables[:4]]
        fields[name] = [off + 4, off + 16, off + 20] + tables[:6] + [t + 4 for t in tables[:6]] + bucket \
            + [off + bwd_off + 4 * k for k in range(3)]
    for name, off in (("lrefs", off_lrefs), ("arefs", off_arefs)):
        first = struct.unpack_from("<I", crf, off + 12)[0]
        fields[name] = [off + 8, off + 12, off + 16, first, first + 4]
    return fields


def _mutants(crf: bytes, seed: int = 17):
    """Mutated CRFsuite parts: every followed u32 set to edge values, then random byte changes."""
    rng = random.Random(seed)
    n = len(crf)
    for offs in _offsets(crf).values():
        for at in offs:
            old = struct.unpack_from("<I", crf, at)[0]
            for value in (0, 1, 0xFFFFFFFF, 0x7FFFFFFF, n, n - 1, old + 8, old - 4 if old >= 4 else 3,
                          old + 1000, rng.randrange(1 << 32)):
                b = bytearray(crf)
                struct.pack_into("<I", b, at, value & 0xFFFFFFFF)
                if bytes(b) != crf:
                    yield bytes(b)
    for _ in range(150):
        b = bytearray(crf)
        for _ in range(rng.choice((1, 2, 8))):
            b[rng.randrange(48, n)] = rng.randrange(256)
        yield bytes(b)


@pytest.mark.slow
def test_mutated_crfsuite_parts_are_refused_cleanly(tiny, tmp_path):
    manifest, crf, labels = tiny
    count = 0
    for i, part in enumerate(_mutants(crf)):
        (tmp_path / f"{i}.model").write_bytes(modelfile.to_bytes(part, manifest, labels))
        count = i + 1
    run = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], capture_output=True, text=True,
                         timeout=600)
    last = run.stderr.split()[-1:] if run.stderr else []
    assert run.returncode == 0, f"the child died (return code {run.returncode}) on mutant {last}"
    got = json.loads(run.stdout)
    assert got["other"] == []
    assert sum(got["counts"].values()) == count
    assert got["counts"]["refused"] > count // 2


def test_the_check_accepts_every_model_it_trains(tiny):
    manifest, crf, labels = tiny
    again, part = modelfile.parse(modelfile.to_bytes(crf, manifest, labels))
    assert part == crf
    Model.load()  # and the shipped one


@pytest.mark.parametrize("field, value", [(4, 0), (28, 1 << 30), (32, 7), (36, 0xFFFFFFFF), (40, 48), (44, 3)])
def test_a_header_offset_out_of_bounds_names_the_offset(tiny, field, value):
    manifest, crf, labels = tiny
    b = bytearray(crf)
    struct.pack_into("<I", b, field, value)
    data = modelfile.to_bytes(bytes(b), manifest, labels)
    with pytest.raises(ModelError, match="corrupt CRFsuite model") as err:
        modelfile.parse(data, "m.model")
    assert err.value.offset is not None and err.value.offset >= len(data) - len(crf)


@pytest.mark.parametrize("written, refused", [
    ("99.0.0", True), (__version__, False), ("0.0.1", False), ("nonsense", True), (None, True)])
def test_a_model_from_a_newer_crfdeid_is_refused(tiny, written, refused):
    manifest, crf, labels = tiny
    data = modelfile.to_bytes(crf, dict(manifest, crfdeid_version=written), labels)
    if refused:
        with pytest.raises(ModelError, match="crfdeid"):
            modelfile.parse(data)
    else:
        assert modelfile.parse(data)[1] == crf


def _header_end(data: bytes) -> int:
    """Where the manifest ends: magic, manifest length, manifest digest, manifest."""
    size = int.from_bytes(data[len(modelfile.MAGIC):len(modelfile.MAGIC) + 8], "big")
    return len(modelfile.MAGIC) + 8 + 32 + size


@pytest.mark.parametrize("which", ["tiny", "shipped"])
def test_any_flipped_bit_before_the_parts_is_refused(tiny, which, tmp_path):
    # Issue 36: 100 of 150 flips in the manifest loaded silently, one made o_threshold 0.96 -> 0.16.
    # Every bit of the magic, length and digest, and 400 random bits of the manifest (config,
    # thresholds, labels, word lists): each is refused, naming the file.
    manifest, crf, labels = tiny
    data = modelfile.to_bytes(crf, manifest, labels) if which == "tiny" else DEFAULT_MODEL.read_bytes()
    end, start = _header_end(data), len(modelfile.MAGIC) + 40
    rng = random.Random(36)
    bits = [(i, b) for i in range(start) for b in range(8)]
    bits += [(rng.randrange(start, end), rng.randrange(8)) for _ in range(400)]
    path = tmp_path / "m.model"
    loaded = []
    for i, b in bits:
        bad = bytearray(data)
        bad[i] ^= 1 << b
        try:
            modelfile.parse_parts(bytes(bad), path)
        except ModelError as exc:
            assert str(path) in str(exc)
        else:
            loaded.append((i, b))
    assert loaded == []


def test_the_threshold_of_the_issue_flipped_is_refused(tmp_path):
    shipped = DEFAULT_MODEL.read_bytes()
    data = bytearray(modelfile.member_of(shipped)[1])  # a routed shipped file: its ICU CRF's file
    at = data.index(b'"o_threshold": 0.9') + len(b'"o_threshold": 0.')
    data[at] ^= 0x08  # "9" -> "1": 0.93 -> 0.13 (0.96 -> 0.16 in the issue)
    (tmp_path / "m.model").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="manifest checksum"):
        Model.load(tmp_path / "m.model")
    whole = bytearray(shipped)  # the same flip inside the routed file: its member's checksum refuses it
    at = whole.index(b'"o_threshold": 0.9') + len(b'"o_threshold": 0.')
    whole[at] ^= 0x08
    (tmp_path / "r.model").write_bytes(bytes(whole))
    with pytest.raises(ModelError, match="checksum"):
        TaggingModel.load(tmp_path / "r.model")


def test_a_file_written_before_the_manifest_digest_loads_with_a_warning(tiny, tmp_path):
    manifest, crf, labels = tiny
    new = modelfile.to_bytes(crf, manifest, labels)
    old = modelfile.LEGACY_MAGIC + new[len(modelfile.MAGIC):len(modelfile.MAGIC) + 8] \
        + new[len(modelfile.MAGIC) + 40:]
    (tmp_path / "old.model").write_bytes(old)
    with pytest.warns(UserWarning, match="old.model.*save it again"):
        m = Model.load(tmp_path / "old.model")
    assert m.labels == labels and modelfile.parse(m.to_bytes())[1] == crf
    m.save(tmp_path / "again.model")  # saved again: the new header, no warning
    assert (tmp_path / "again.model").read_bytes() == new
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Model.load(tmp_path / "again.model")


def test_no_single_flip_turns_the_header_into_the_unchecked_one():
    # a file of the new header with one bit flipped never starts with the legacy magic
    new, old = modelfile.MAGIC, modelfile.LEGACY_MAGIC
    for i in range(len(new)):
        for b in range(8):
            bad = bytearray(new)
            bad[i] ^= 1 << b
            assert not bytes(bad).startswith(old)
