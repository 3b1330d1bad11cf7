"""The i2b2 2014 protocol (`make i2b2`, configs/i2b2-2014.yaml and its ablation file),
end to end on synthetic notes laid out as the i2b2 2014 distribution (the real data is
under a data-use agreement and never used here)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crfdeid.cli import ablate as ablate_cli
from crfdeid.config import load_config
from crfdeid.experiments import ablate
from crfdeid.io import read, write

ROOT = Path(__file__).resolve().parent.parent
SETS = ("training-PHI-Gold-Set1", "training-PHI-Gold-Set2", "testing-PHI-Gold-fixed")


@pytest.fixture(scope="module")
def i2b2_dir(tmp_path_factory):
    """``data/i2b2-2014/`` with the three folders of the distribution, synthetic notes."""
    root = tmp_path_factory.mktemp("i2b2")
    data = root / "data" / "i2b2-2014"
    train = list(read("synth:20,7"))
    write(train[:14], "i2b2", data / SETS[0])
    write(train[14:], "i2b2", data / SETS[1])
    write(list(read("synth:8,99")), "i2b2", data / SETS[2])
    return root


def test_config_is_the_he_et_al_protocol():
    cfg = load_config(ROOT / "configs" / "i2b2-2014.yaml")
    # Paths in a config are relative to it: configs/../data/i2b2-2014 is the checkout's data/.
    assert cfg["train"] == [f"i2b2:{ROOT / 'data' / 'i2b2-2014' / s}" for s in SETS[:2]]
    assert cfg["decoding"]["o_threshold"] is None and cfg["rules"]["enabled"] is False
    assert all(cfg["features"]["groups"].values())


@pytest.mark.slow
def test_make_i2b2_trains_tags_and_scores_the_test_set(i2b2_dir, tmp_path):
    out = tmp_path / "out"
    subprocess.run(["make", "-s", "i2b2", f"PYTHON={sys.executable}", f"I2B2={i2b2_dir / 'data' / 'i2b2-2014'}",
                    f"I2B2_OUT={out}", "TRAIN_ARGS=--set crf.max_iterations=20 --quiet"],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    gold = {d.doc_id: d for d in read(f"i2b2:{i2b2_dir / 'data' / 'i2b2-2014' / SETS[2]}")}
    pred = {d.doc_id: d for d in read(f"i2b2:{out / 'predictions'}")}
    assert pred.keys() == gold.keys() and all(pred[k].text == gold[k].text for k in gold)
    scores = json.loads((out / "scores.json").read_text())
    strict = scores["micro"]["strict"]
    assert strict["tp"] + strict["fn"] == sum(len(d.spans) for d in gold.values())
    assert strict["f1"] > 0.3  # 20 training notes, 20 iterations: far from chance


@pytest.mark.slow
def test_ablation_file_runs_on_the_distribution_layout(i2b2_dir, tmp_path):
    # The config files beside data/ as in a checkout: their paths are relative to themselves.
    shutil.copytree(ROOT / "configs", i2b2_dir / "configs", dirs_exist_ok=True)
    path = i2b2_dir / "configs" / "ablation" / "i2b2-2014.yaml"
    ab = ablate.load_ablation(path)
    assert ab["evaluation"] == {"test": f"i2b2:{i2b2_dir / 'data' / 'i2b2-2014' / SETS[2]}"}
    groups = [sum(cfg["features"]["groups"].values()) for cfg in ab["runs"].values()]
    assert groups[:5] == [1, 2, 3, 4, 5]  # one group added per step
    assert ablate_cli.main([str(path), "--only", "lexical", "--only", "full + rules", "--jobs", "2",
                        "--out", str(tmp_path / "abl")]) == 0
    table = (tmp_path / "abl" / "results.md").read_text()
    assert "| lexical |" in table and "| full + rules |" in table and "testing-PHI-Gold-fixed" in table
