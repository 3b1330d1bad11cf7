"""The locked-test command on a tiny synthetic corpus (seconds)."""

from __future__ import annotations

import json

import pytest
import yaml
from test_crossval import tiny_corpus

from crfdeid.cli import locked as locked_cli
from crfdeid.io import read, write


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("locked")
    write(tiny_corpus(), "i2b2", root / "corpus")
    (root / "locked.txt").write_text("# two of eight patients\n101\n105  # comment\n")
    (root / "cfg.yaml").write_text(yaml.safe_dump({"train": [f"i2b2:{root / 'corpus'}"],
                                                    "crf": {"max_iterations": 30}, "seed": 1}))
    return root


@pytest.fixture(scope="module")
def result(setup):
    code = locked_cli.main(["--config", str(setup / "cfg.yaml"), "--locked", str(setup / "locked.txt"),
                        "--o-thresholds", "none,0.999", "--also", f"copy=i2b2:{setup / 'corpus'}",
                        "--out", str(setup / "out"), "--save-model", str(setup / "m.model"), "--quiet"])
    assert code == 0
    return json.loads((setup / "out" / "locked.json").read_text())


def test_trains_on_the_development_patients_and_scores_only_the_locked_ones(result, setup):
    assert result["sizes"] == {"train_documents": 12, "train_patients": 6,
                               "test_documents": 4, "test_patients": 2}
    got = sorted(d.doc_id for d in read(f"i2b2:{setup / 'out' / 'predictions' / 'original'}"))
    assert got == ["101-01", "101-02", "105-01", "105-02"]
    strict = result["runs"]["original"]["as configured"]["strict"]
    assert strict["tp"] + strict["fn"] == 4 * 4  # four gold spans per note, each counted once


def test_sweep_leak_view_and_categories(result):
    run = result["runs"]["original"]
    assert [t["o_threshold"] for t in run["thresholds"]] == [None, 0.999]
    conf = run["as configured"]
    assert conf["binary_token"]["recall"] > 0.8
    assert 0 <= conf["leak"]["fully_removed"] <= 1 and conf["leak"]["total"] == 16
    assert set(conf["categories"]) == {"NAME", "DATE", "CONTACT"}
    # a higher threshold never finds fewer PHI tokens
    assert run["thresholds"][1]["binary_token"]["recall"] >= run["thresholds"][0]["binary_token"]["recall"]


def test_another_copy_is_scored_with_the_same_model(result, setup):
    assert result["runs"]["copy"]["as configured"] == result["runs"]["original"]["as configured"]
    again = locked_cli.main(["--config", str(setup / "cfg.yaml"), "--locked", str(setup / "locked.txt"),
                         "--model", str(setup / "m.model"), "--out", str(setup / "again"), "--quiet"])
    assert again == 0
    res = json.loads((setup / "again" / "locked.json").read_text())
    assert res["system"] == "model"
    assert res["runs"]["original"]["as configured"] == result["runs"]["original"]["as configured"]
    md = (setup / "out" / "locked.md").read_text()
    assert "### copy" in md and "PHI fully removed" in md


def test_rules_only_needs_no_training(setup):
    code = locked_cli.main(["--config", str(setup / "cfg.yaml"), "--locked", str(setup / "locked.txt"),
                        "--rules-only", "--out", str(setup / "rules"), "--quiet"])
    assert code == 0
    res = json.loads((setup / "rules" / "locked.json").read_text())
    assert res["system"] == "rules"
    # the rules find "Dr. X", the full dates and the phone numbers, not the patient names
    assert res["runs"]["original"]["as configured"]["categories"]["DATE"]["covered"] == 1.0
    assert res["runs"]["original"]["as configured"]["categories"]["CONTACT"]["covered"] == 1.0


def test_a_locked_list_naming_no_patient_of_the_corpus_is_an_error(setup, capsys):
    (setup / "none.txt").write_text("999\n")
    code = locked_cli.main(["--config", str(setup / "cfg.yaml"), "--locked", str(setup / "none.txt"),
                        "--out", str(setup / "x"), "--quiet"])
    assert code == 1
    assert "locked patient" in capsys.readouterr().err
