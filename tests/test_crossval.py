"""Patient-grouped cross-validation on a tiny synthetic corpus (seconds)."""

from __future__ import annotations

import json

import pytest
import yaml

from crfdeid.cli import crossval as crossval_cli
from crfdeid.document import Document, make_span
from crfdeid.experiments import crossval
from crfdeid.io import read, write

FIRST = ["Alma", "Boris", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hugo"]
LAST = ["Quist", "Rondell", "Sarkis", "Tolvan", "Umbra", "Vesik", "Wendle", "Yarrow"]
TEMPLATE = [("Patient ", None), ("{first} {last}", "PATIENT"), (" seen by Dr. ", None),
            ("{doc}", "DOCTOR"), (" on ", None), ("{month}/{day}/2091", "DATE"),
            (".\nCall ", None), ("({area}) 555-01{n:02d}", "PHONE"), (" with questions.\n", None)]


def tiny_corpus(patients: int = 8, notes: int = 2) -> list[Document]:
    """Synthetic notes ``1PP-NN`` (made-up names, dates and phones) with their spans."""
    docs = []
    for p in range(patients):
        for n in range(notes):
            values = {"first": FIRST[p], "last": LAST[p], "doc": LAST[(p + n + 3) % len(LAST)],
                      "month": 1 + (p + n) % 12, "day": 10 + n, "area": 600 + 11 * p, "n": p + n}
            text, spans = "", []
            for piece, subtype in TEMPLATE:
                piece = piece.format(**values)
                if subtype:
                    spans.append(make_span(len(text), len(text) + len(piece), subtype))
                text += piece
            docs.append(Document(f"{100 + p}-{n + 1:02d}", text, spans))
    return docs


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiny")
    write(tiny_corpus(), "i2b2", out)
    return out


@pytest.fixture(scope="module")
def config_file(corpus_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "tiny.yaml"
    path.write_text(yaml.safe_dump({"train": [f"i2b2:{corpus_dir}"],
                                    "crf": {"max_iterations": 30}, "seed": 1}))
    return path


@pytest.fixture(scope="module")
def result(config_file):
    from crfdeid.config import load_config
    docs = list(read(load_config(config_file)["train"][0]))
    return docs, crossval.crossvalidate(docs, load_config(config_file), folds=4, seed=1,
                                        thresholds=(0.5, 0.999))


def test_every_document_is_predicted_once_by_a_model_that_never_saw_its_patient(result):
    docs, res = result
    assert sorted(d.doc_id for d in res["predictions"]) == sorted(d.doc_id for d in docs)
    assert [f["documents"] for f in res["per_fold"]] == [4, 4, 4, 4]
    assert all(f["patients"] == 2 and f["train_documents"] == 12 for f in res["per_fold"])
    # pooled strict counts cover each gold span exactly once
    strict = res["pooled"]["strict"]
    assert strict["tp"] + strict["fn"] == sum(len(d.spans) for d in docs)


def test_cross_validated_model_finds_the_phi(result):
    # the template is trivially learnable: a working pipeline finds nearly all of it
    _, res = result
    assert res["pooled"]["binary_token"]["recall"] > 0.8
    assert res["pooled"]["binary_token"]["precision"] > 0.8
    assert {"NAME", "DATE", "CONTACT"} <= set(res["pooled"]["category_strict_f1"])


def test_higher_o_threshold_never_lowers_recall(result):
    _, res = result
    low, high = res["thresholds"]
    assert (low["o_threshold"], high["o_threshold"]) == (0.5, 0.999)
    assert high["binary_token"]["recall"] >= low["binary_token"]["recall"]
    assert high["binary_token"]["tp"] + high["binary_token"]["fp"] >= \
        low["binary_token"]["tp"] + low["binary_token"]["fp"]


def test_cli_writes_json_table_and_predictions_without_leaking_phi(config_file, tmp_path, capsys):
    out = tmp_path / "cv"
    rc = crossval_cli.main(["--config", str(config_file), "--folds", "2", "--seed", "3",
                        "--o-thresholds", "0.9", "--json", str(tmp_path / "cv.json"),
                        "--out", str(out), "--jobs", "2"])
    assert rc == 0
    printed = capsys.readouterr()
    assert "Per fold" in printed.out and "| binary_token |" in printed.out
    for name in FIRST + LAST:  # only ids, counts and scores are printed
        assert name not in printed.out + printed.err
    data = json.loads((tmp_path / "cv.json").read_text())
    assert data["folds"] == 2 and len(data["per_fold"]) == 2 and data["seed"] == 3
    assert data["thresholds"][0]["o_threshold"] == 0.9
    assert 0 <= data["pooled"]["binary_token"]["recall"] <= 1
    # parent-category strict: pooled, per category and in the sweep
    pooled = data["pooled"]
    assert all(pooled["parent_strict"][k] <= pooled["strict"][k] for k in ("fp", "fn"))
    assert set(pooled["category_parent_strict_f1"]) == set(pooled["category_strict_f1"])
    assert "| parent_strict |" in printed.out and "parent strict F1" in printed.out
    assert data["thresholds"][0]["parent_strict"]["f1"] >= 0
    assert (out / "crossval.md").read_text().startswith("Per fold")
    assert len(list((out / "predictions").iterdir())) == 16


def test_cli_reports_the_best_recall_at_each_precision_floor(config_file, tmp_path, capsys):
    assert crossval_cli.main(["--config", str(config_file), "--folds", "2", "--seed", "3",
                          "--o-thresholds", "none,0.999", "--precision", "0.99,0",
                          "--json", str(tmp_path / "cv.json")]) == 0
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "cv.json").read_text())
    sweep = [data["pooled"]] + data["thresholds"]
    anything = data["recall_at_precision"]["0.0"]  # every decoding reaches precision 0
    assert anything["recall"] == max(f["binary_token"]["recall"] for f in sweep)
    assert f"Best binary-token recall at precision >= 0: {anything['recall']:.3f}" in out
    strict = data["recall_at_precision"]["0.99"]
    reached = [f for f in sweep if f["binary_token"]["precision"] >= 0.99]
    assert (strict is None) == (not reached)
    assert "Best binary-token recall at precision >= 0.99: " in out


def test_train_fraction_trains_on_whole_patients_and_tests_the_same_folds(config_file, tmp_path, capsys):
    assert crossval_cli.main(["--config", str(config_file), "--folds", "4", "--seed", "1", "--quiet",
                          "--train-fraction", "0.5", "--json", str(tmp_path / "cv.json")]) == 0
    data = json.loads((tmp_path / "cv.json").read_text())
    assert data["train_fraction"] == 0.5
    # 6 training patients (2 notes each) per fold -> 3 kept; the held-out folds do not change
    assert [f["train_documents"] for f in data["per_fold"]] == [6, 6, 6, 6]
    assert [f["documents"] for f in data["per_fold"]] == [4, 4, 4, 4]
    text = crossval.render(data)
    assert text.startswith("Each fold trained on a patient-grouped share 0.5") and "(6 notes" in text
    with pytest.raises(SystemExit):
        crossval_cli.build_parser().parse_args(["--config", "c.yaml", "--train-fraction", "0"])


def test_more_folds_than_patients_is_an_error(config_file, capsys):
    assert crossval_cli.main(["--config", str(config_file), "--folds", "9", "--quiet"]) == 1
    assert "8 patient groups" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["0.5,x", "0,0.5", "1.5"])
def test_bad_thresholds_are_refused(text):
    with pytest.raises(SystemExit):
        crossval_cli.build_parser().parse_args(["--config", "c.yaml", "--o-thresholds", text])


def test_exclude_groups_leaves_the_listed_patients_out(config_file, tmp_path):
    locked = tmp_path / "locked.txt"
    locked.write_text("# locked test patients\n100\n103  # a comment\n")
    out = tmp_path / "cv"
    assert crossval_cli.main(["--config", str(config_file), "--folds", "2", "--seed", "3", "--quiet",
                          "--exclude-groups", str(locked), "--json", str(tmp_path / "cv.json"),
                          "--out", str(out)]) == 0
    data = json.loads((tmp_path / "cv.json").read_text())
    assert sum(f["documents"] for f in data["per_fold"]) == 12  # 16 notes, 4 of patients 100 and 103
    ids = {p.stem for p in (out / "predictions").iterdir()}
    assert ids and not any(i.startswith(("100-", "103-")) for i in ids)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert crossval_cli.main(["--config", str(config_file), "--folds", "2", "--quiet",
                          "--exclude-groups", str(empty)]) == 1
