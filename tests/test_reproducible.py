"""Training is reproducible (issue 36): every random choice comes from the config's seed, so
the same config on the same notes gives the same model file, byte for byte, in any process
(string hashing, which orders Python's sets, changes from process to process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _run(hash_seed: str, cwd: Path, *argv: str) -> None:
    """``python -m crfdeid ARGV`` in a process whose string hashing (set order) is ``hash_seed``'s."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "crfdeid", *argv], check=True, env=env, capture_output=True, cwd=cwd)


@pytest.fixture
def config(tmp_path) -> Path:
    """A tiny config whose companion's oov.v1 augmentation draws unseen words (seeded by ``seed``)."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({
        "train": ["synth:4,1"], "crf": {"max_iterations": 5}, "seed": 7,
        "companion": {"features": "full_oov", "training": {"unknown_share": 1.0, "unknown_mode": "add"},
                      "weight": 0.5}}), encoding="utf-8")
    return cfg


def test_a_model_with_a_companion_trained_twice_is_the_same_file(config, tmp_path):
    for name, hash_seed in (("m1", "1"), ("m2", "2")):
        _run(hash_seed, tmp_path, "train", "--config", str(config), "--output", str(tmp_path / name), "--quiet")
    assert (tmp_path / "m1").read_bytes() == (tmp_path / "m2").read_bytes()


def test_adapt_twice_is_the_same_file(config, tmp_path):
    base = tmp_path / "base.model"
    _run("1", tmp_path, "train", "--config", str(config), "--output", str(base), "--quiet")
    for name, hash_seed in (("a3", "3"), ("a4", "4")):
        _run(hash_seed, tmp_path, "adapt", "--model", str(base), "--unlabeled", "synth:6,9", "--max-notes", "4",
             "--output", str(tmp_path / name), "--quiet")
    assert (tmp_path / "a3").read_bytes() == (tmp_path / "a4").read_bytes()
