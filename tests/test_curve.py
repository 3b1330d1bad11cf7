"""The learning curve on the tiny synthetic corpus of test_crossval (seconds)."""

from __future__ import annotations

import csv
import json

import pytest
import yaml
from test_crossval import FIRST, LAST, tiny_corpus

from crfdeid.cli import curve as curve_cli
from crfdeid.experiments import crossval, curve
from crfdeid.io import write


@pytest.fixture(scope="module")
def config_file(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("tiny")
    write(tiny_corpus(), "i2b2", corpus)
    path = tmp_path_factory.mktemp("cfg") / "tiny.yaml"
    path.write_text(yaml.safe_dump({"train": [f"i2b2:{corpus}"], "crf": {"max_iterations": 30}, "seed": 1}))
    return path


@pytest.fixture(scope="module")
def points(config_file):
    from crfdeid.config import load_config
    return curve.learning_curve(tiny_corpus(), load_config(config_file), (1.0, 0.34, 1.0), folds=4, seed=1,
                                thresholds=(None, 0.999), floors=(0.9, 0.0))


def test_points_train_on_more_patients_and_score_the_same_held_out_notes(points):
    small, full = points  # asked for (1, 0.34, 1): in increasing order, once each
    # 4 folds of 8 patients: 6 training patients a fold, a share 0.34 keeps round(2.04) = 2
    assert (small["train_fraction"], small["train_patients"], small["train_documents"]) == (0.34, 2, 4)
    assert (full["train_fraction"], full["train_patients"], full["train_documents"]) == (1.0, 6, 12)
    n_gold = sum(len(d.spans) for d in tiny_corpus())
    for p in points:  # every point scores all 16 notes once: the same gold spans
        assert p["pooled"]["strict"]["tp"] + p["pooled"]["strict"]["fn"] == n_gold
        assert [t["o_threshold"] for t in p["thresholds"]] == [None, 0.999]


def test_the_full_share_is_the_plain_cross_validation(points, config_file):
    from crfdeid.config import load_config
    plain = crossval.crossvalidate(tiny_corpus(), load_config(config_file), folds=4, seed=1,
                                   thresholds=(None, 0.999))
    assert points[1]["pooled"] == plain["pooled"]
    assert points[1]["thresholds"] == plain["thresholds"]


def test_recall_at_a_floor_is_the_best_point_of_the_sweep_that_reaches_it(points):
    for p in points:
        sweep = [p["pooled"]] + p["thresholds"]
        anything = p["recall_at_precision"][0.0]  # every point reaches precision 0
        assert anything["recall"] == max(f["binary_token"]["recall"] for f in sweep)
        best = p["recall_at_precision"][0.9]
        if best is not None:
            assert best["precision"] >= 0.9
            assert best["recall"] == max(f["binary_token"]["recall"] for f in sweep
                                         if f["binary_token"]["precision"] >= 0.9)


def _point(notes, recall, precision=0.96):
    return {"train_documents": notes,
            "recall_at_precision": {0.95: {"recall": recall, "precision": precision, "o_threshold": 0.9}
                                    if precision >= 0.95 else None}}


def test_gains_are_points_of_recall_per_100_notes():
    pts = [_point(300, 0.80), _point(700, 0.90), _point(1100, 0.93, precision=0.94), _point(1500, 0.95)]
    got = curve.gains(pts, 0.95)
    assert got[0] is None and got[1] == pytest.approx(2.5)  # 10 points over 400 notes
    assert got[2] is None and got[3] is None  # a point that misses the floor has no gain


def test_recall_at_precision_prefers_higher_precision_on_ties():
    fig = lambda p, r: {"binary_token": {"precision": p, "recall": r}}  # noqa: E731
    sweep = [("as configured", fig(0.95, 0.9)), (0.9, fig(0.97, 0.9)), (0.99, fig(0.94, 0.99))]
    assert crossval.recall_at_precision(sweep, 0.95) == {"recall": 0.9, "precision": 0.97, "o_threshold": 0.9}
    assert crossval.recall_at_precision(sweep, 0.98) is None


def test_cli_writes_table_csv_json_and_plot_without_note_text(config_file, tmp_path, capsys):
    out = tmp_path / "curve"
    rc = curve_cli.main(["--config", str(config_file), "--folds", "2", "--seed", "3", "--jobs", "2",
                     "--fractions", "0.5,1", "--o-thresholds", "none,0.9", "--precision", "0.9",
                     "--out", str(out), "--json", str(tmp_path / "c.json")])
    assert rc == 0
    printed = capsys.readouterr()
    for name in FIRST + LAST:
        assert name not in printed.out + printed.err
    assert "| share | training notes per fold |" in printed.out and "R at P >= 0.9" in printed.out
    assert sorted(p.name for p in out.iterdir()) == ["curve.csv", "curve.json", "curve.md", "curve.png"]
    assert (out / "curve.png").read_bytes().startswith(b"\x89PNG")
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert [r["train_fraction"] for r in rows] == ["0.5", "1.0"]
    assert [float(r["train_documents"]) for r in rows] == [4.0, 8.0]  # 4 of 8 training patients, 2 notes each
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["folds"] == 2 and data["seed"] == 3 and len(data["points"]) == 2
    assert data == json.loads((out / "curve.json").read_text())


@pytest.mark.parametrize("text", ["0", "0.5,1.5", "x", ""])
def test_bad_shares_are_refused(text):
    with pytest.raises(SystemExit):
        curve_cli.build_parser().parse_args(["--config", "c.yaml", "--fractions", text])
