"""Training is reproducible (issue 36): every random choice comes from the config's seed, so
the same config on the same notes gives the same model file, byte for byte, in any process
(string hashing, which orders Python's sets, changes from process to process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _train(cfg: Path, out: Path, hash_seed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "crfdeid", "train", "--config", str(cfg), "--output", str(out),
                    "--quiet"], check=True, env=env, capture_output=True, cwd=cfg.parent)
    return out.read_bytes()


def test_a_model_with_a_companion_trained_twice_is_the_same_file(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({
        "train": ["synth:4,1"], "crf": {"max_iterations": 5}, "seed": 7,
        # the companion's oov.v1 augmentation draws unseen words: seeded by the config's seed
        "companion": {"features": "full_oov", "training": {"unknown_share": 1.0, "unknown_mode": "add"},
                      "weight": 0.5}}), encoding="utf-8")
    first = _train(cfg, tmp_path / "m1", "1")
    second = _train(cfg, tmp_path / "m2", "2")
    assert first == second


def test_adapt_twice_is_the_same_file(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({
        "train": ["synth:4,1"], "crf": {"max_iterations": 5}, "seed": 7,
        "companion": {"features": "full_oov", "training": {"unknown_share": 1.0, "unknown_mode": "add"},
                      "weight": 0.5}}), encoding="utf-8")
    base = tmp_path / "base.model"
    _train(cfg, base, "1")
    outs = []
    for hash_seed in ("3", "4"):
        out = tmp_path / f"adapted{hash_seed}.model"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, "-m", "crfdeid", "adapt", "--model", str(base), "--unlabeled", "synth:6,9",
                        "--max-notes", "4", "--output", str(out), "--quiet"], check=True, env=env,
                       capture_output=True, cwd=tmp_path)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
