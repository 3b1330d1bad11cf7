"""Model files: a damaged or crafted CRFsuite part is refused with ModelError, never a crash.

The mutated files keep a valid crfdeid manifest and a recomputed checksum, so what
refuses them is the check of the CRFsuite structure (:mod:`crfdeid.crf.crfsuite_check`).
They are loaded and used in a child process, so that a mutation the check lets through
and that kills the interpreter (SIGSEGV) fails the test instead of the test run.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from crfdeid import __version__
from crfdeid.config import load_config
from crfdeid.crf import Model, modelfile, train_model
from crfdeid.errors import ModelError

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
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"train": ["synth:4,3"], "crf": {"max_iterations": 3}})
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
