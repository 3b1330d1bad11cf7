"""The active-learning replay (``python -m crfdeid review simulate``) on a tiny synthetic corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import crfdeid
from crfdeid.cli.review import main as review_main
from crfdeid.review import active
from crfdeid.review.simulate import target

ROOT = Path(__file__).parent.parent


def test_priorities_rank_doubtful_notes_first():
    sure = [0.001, 0.999, 0.002]
    doubtful = [0.4, 0.6, 0.01]
    assert active.score(doubtful) > active.score(sure)
    assert active.score(doubtful, "least-confident") == pytest.approx(0.4)
    assert active.score([0.5, 0.25], "expected-phi") == pytest.approx(0.75)
    assert active.pick([0.1, 0.9, 0.5, 0.9], 3) == [1, 3, 2]
    with pytest.raises(ValueError, match="known"):
        active.score([0.5], "biggest")


def test_target_is_the_all_notes_recall_within_half_the_pool():
    result = {"all": {"notes": 100, "recall": 0.9},
              "strategies": {"uncertainty": [{"notes": 0, "recall": 0.95}, {"notes": 40, "recall": 0.91},
                                             {"notes": 60, "recall": 0.95}]}}
    assert target(result) == {"recall_all": 0.9, "half_pool_notes": 50, "uncertainty_notes_to_reach": 40,
                              "met": True}
    result["strategies"]["uncertainty"][1]["recall"] = 0.8
    assert target(result)["met"] is False and target(result)["uncertainty_notes_to_reach"] == 60


@pytest.mark.slow
def test_simulate_writes_both_curves(tmp_path):
    locked = tmp_path / "locked.txt"
    locked.write_text("100\n")                     # synthetic record prefixes are the patients
    out = tmp_path / "al.json"
    code = review_main(["simulate", "--config", str(ROOT / "configs" / "synth-small.yaml"),
                        "--corpus", "synth:12,3", "--exclude-groups", str(locked), "--batch", "3",
                        "--max-notes", "6", "--held-out", "0.3", "--json", str(out),
                        "--plot", str(tmp_path / "al.png"), "--set", "crf.max_iterations=5", "--quiet"])
    assert code == 0
    res = json.loads(out.read_text())
    assert res["excluded_notes"] >= 1 and res["excluded_patients"] == 1
    assert res["pool"]["notes"] + res["held_out"]["notes"] + res["excluded_notes"] == 12
    assert set(res["strategies"]) == {"uncertainty", "random"}
    for points in res["strategies"].values():
        assert [p["notes"] for p in points] == [0, 3, 6]
        assert all(0 <= p["precision"] <= 1 and 0 <= p["recall"] <= 1 for p in points)
        assert points[1]["tokens"] < points[2]["tokens"]
    assert res["all"]["notes"] == res["pool"]["notes"]
    assert res["target"]["recall_all"] == res["all"]["recall"]
    assert (tmp_path / "al.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_simulate_saves_the_site_model_reached_after_n_notes(tmp_path):
    """Without --config the replay trains the review app's site config (the shipped model as
    prior); --save-model writes the model of each round ({notes}) or of the last one."""
    locked = tmp_path / "locked.txt"
    locked.write_text("100\n")
    args = ["simulate", "--corpus", "synth:12,3", "--exclude-groups", str(locked), "--batch", "3",
            "--held-out", "0.3", "--strategy", "uncertainty", "--no-reference",
            "--set", "crf.max_iterations=5", "--quiet"]
    code = review_main(args + ["--max-notes", "6", "--json", str(tmp_path / "a.json"),
                               "--save-model", str(tmp_path / "site-{notes}.model")])
    assert code == 0
    res = json.loads((tmp_path / "a.json").read_text())
    assert res["all"] is None and res["target"] is None
    assert [p["notes"] for p in res["strategies"]["uncertainty"]] == [0, 3, 6]
    from crfdeid.review.sitemodel import site_config
    for n in (3, 6):
        model = crfdeid.load(tmp_path / f"site-{n}.model")
        assert model.config["prior"] == site_config()["prior"]
        assert model.stats["documents"] == n
    code = review_main(args + ["--max-notes", "3", "--json", str(tmp_path / "b.json"),
                               "--save-model", str(tmp_path / "last.model")])
    assert code == 0 and crfdeid.load(tmp_path / "last.model").stats["documents"] == 3


def test_save_model_needs_one_strategy(tmp_path, capsys):
    code = review_main(["simulate", "--corpus", "synth:4,3", "--json", str(tmp_path / "a.json"),
                        "--save-model", str(tmp_path / "m.model")])
    assert code == 2 and "one --strategy" in capsys.readouterr().err
    assert not (tmp_path / "m.model").exists()


def test_a_project_from_the_shipped_model_retrains_the_site_model(tmp_path):
    """The review app's retraining and the replay train one config: a project started from the
    shipped model (no config of its own) retrains configs/site.yaml; one that names a config, that."""
    from crfdeid.config import load_config
    from crfdeid.review.project import Project
    from crfdeid.review.sitemodel import site_config
    p = Project.create(tmp_path / "shipped")
    try:
        assert p.config() == site_config() and p.config()["prior"]["model"] == "default"
    finally:
        p.close()
    own = load_config(ROOT / "configs" / "synth-small.yaml")
    p = Project.create(tmp_path / "own", config=own)
    try:
        assert p.config()["prior"] is None and p.config()["crf"] == own["crf"]
    finally:
        p.close()
