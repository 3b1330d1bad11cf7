"""Ablation files: checking, running (seconds, tiny corpus) and the three result files."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml
from test_crossval import tiny_corpus

from crfdeid._data import install_hint
from crfdeid.cli import ablate as ablate_cli
from crfdeid.errors import ConfigError
from crfdeid.experiments import ablate
from crfdeid.io import write

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "configs" / "ablation").glob("*.yaml"))


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A base config training on 16 tiny synthetic notes (8 patients); test set of 4 others."""
    tmp = tmp_path_factory.mktemp("ablate")
    docs = tiny_corpus(patients=8)
    write(docs[:12], "i2b2", tmp / "train")
    write(docs[12:], "i2b2", tmp / "test")
    path = tmp / "base.yaml"
    path.write_text(yaml.safe_dump({"train": [f"i2b2:{tmp / 'train'}"],
                                    "crf": {"max_iterations": 20}}))
    return path


def ablation_file(tmp_path, base, **spec) -> Path:
    spec.setdefault("runs", {"lexical": {"features": "lexical"},
                             "full": {"features": "full"}})
    path = tmp_path / "abl.yaml"
    path.write_text(yaml.safe_dump({"base": str(base), **spec}, sort_keys=False))
    return path


def test_ablation_writes_table_csv_and_plot(base, tmp_path, capsys):
    # --folds replaces the file's evaluation (here a test set that is never read)
    path = ablation_file(tmp_path, base, evaluation={"test": "i2b2:/nonexistent", "seed": 0})
    assert ablate_cli.main([str(path), "--out", str(tmp_path / "out"), "--jobs", "2",
                        "--folds", "2"]) == 0
    out = tmp_path / "out"
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [r["run"] for r in rows] == ["lexical", "full"]  # file order kept
    assert all(0 <= float(r["binary_token_f1"]) <= 1 for r in rows)
    assert float(rows[1]["binary_token_recall"]) > 0.5
    assert all(0 <= float(r["parent_strict_f1"]) <= 1 for r in rows)
    table = (out / "results.md").read_text()
    assert "| run | bin-token P |" in table and "| full |" in table and "2-fold" in table
    assert "parent strict F1" in table
    assert (out / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| lexical |" in capsys.readouterr().out


def test_train_test_evaluation(base, tmp_path):
    test_dir = base.parent / "test"
    path = ablation_file(tmp_path, base, evaluation={"test": f"i2b2:{test_dir}"},
                         runs={"full": None})
    results = ablate.run_ablation(ablate.load_ablation(path))
    assert [r["run"] for r in results] == ["full"]
    strict = results[0]["strict"]
    assert strict["tp"] + strict["fn"] == 4 * 4  # 4 test notes, 4 PHI each


def test_runs_differ_only_by_their_override_after_common(base, tmp_path):
    path = ablation_file(tmp_path, base, evaluation={"folds": 2},
                         common={"crf": {"c1": 0.2, "c2": 0.3}},
                         runs={"a": {"crf": {"c1": 0.5}}, "b": {"tokenizer": {"split_glued": False}}})
    runs = ablate.load_ablation(path)["runs"]
    assert runs["a"]["crf"]["c1"] == 0.5 and runs["a"]["tokenizer"]["split_glued"] is True
    assert runs["b"]["tokenizer"]["split_glued"] is False and runs["b"]["crf"]["c1"] == 0.2
    assert runs["a"]["crf"]["c2"] == runs["b"]["crf"]["c2"] == 0.3
    assert runs["a"]["train"] == runs["b"]["train"]


def test_unknown_key_in_a_run_is_a_config_error_naming_the_run(base, tmp_path, capsys):
    path = ablation_file(tmp_path, base, runs={"typo": {"featurs": "full"}})
    with pytest.raises(ConfigError, match="run 'typo'.*featurs"):
        ablate.load_ablation(path)
    assert ablate_cli.main([str(path), "--quiet"]) == 2
    assert "typo" in capsys.readouterr().err


@pytest.mark.parametrize("spec, message", [
    ({"evaluation": {"folds": 2}, "extra": 1}, "unknown key.*extra"),
    ({"evaluation": {"folds": 2, "test": "i2b2:x"}}, "exactly one of"),
    ({"evaluation": {"fold": 2}}, "unknown key.*fold"),
    ({"evaluation": {"folds": 2}, "runs": []}, "non-empty mapping"),
])
def test_malformed_ablation_files_are_refused(base, tmp_path, spec, message):
    with pytest.raises(ConfigError, match=message):
        ablate.load_ablation(ablation_file(tmp_path, base, **spec))


def test_unknown_run_in_only_is_refused(base, tmp_path, capsys):
    path = ablation_file(tmp_path, base, evaluation={"folds": 2})
    assert ablate_cli.main([str(path), "--only", "nope", "--quiet"]) == 2
    assert "known: lexical, full" in capsys.readouterr().err


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_ablation_files_resolve(path):
    ab = ablate.load_ablation(path)
    assert ab["runs"] and all(cfg["train"] for cfg in ab["runs"].values())


def test_physionet_ablation_is_the_greedy_sequence():
    ab = ablate.load_ablation(ROOT / "configs" / "ablation" / "physionet.yaml")
    groups = [set(k for k, on in cfg["features"]["groups"].items() if on)
              for cfg in ab["runs"].values()]
    for smaller, larger in zip(groups[:4], groups[1:5]):
        assert smaller < larger and len(larger - smaller) == 1  # one group added per step
    runs = ab["runs"]
    assert runs["full, no glued split"]["tokenizer"]["split_glued"] is False
    assert runs["full + rules"]["rules"]["enabled"] is True
    assert runs["+context (full)"]["rules"]["enabled"] is False
    # the o-words list only where a run asks for it (the other rows stay reproducible)
    assert [k for k, cfg in runs.items() if cfg["decoding"]["o_words_min_count"]] == ["full + rules + o-words"]


@pytest.mark.slow
def test_shipped_synthetic_ablation_runs_in_seconds(tmp_path):
    pytest.importorskip("crfdeid.synth", reason="synthetic corpus reader not installed yet")
    out = tmp_path / "synth"
    assert ablate_cli.main([str(ROOT / "configs/ablation/synth-small.yaml"), "--out", str(out),
                        "--quiet"]) == 0
    assert {p.name for p in out.iterdir()} >= {"results.md", "results.csv", "results.png"}


@pytest.mark.parametrize("argv", [
    ["ablate", "configs/ablation/synth-small.yaml"],
    ["curve", "--config", "configs/synth-small.yaml", "--out", "x"],
    ["evaluate", "--gold", "i2b2:tests/data/scoring/gold", "--pred", "i2b2:tests/data/scoring/pred",
     "--plot", "x.png"],
])
def test_a_command_whose_extra_is_missing_says_which_before_it_runs(argv, monkeypatch, capsys):
    import importlib.util

    from crfdeid.cli import main
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert main(argv) == 2
    assert install_hint("plot") in capsys.readouterr().err
