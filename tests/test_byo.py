"""Bring your own corpus: a BRAT corpus with its own labels, four scripts, BOMs and discontinuous
spans goes through the documented commands and ``pipeline`` with no conversion step."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from byo_corpus import BOM, LABELS, make_corpus

from crfdeid.cli import main

FAST = ["--set", "crf.max_iterations=40"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("byo")
    return make_corpus(root / "train", 60, seed=1), make_corpus(root / "test", 24, seed=2, prefix="t")


@pytest.fixture(scope="module")
def piped(corpus, tmp_path_factory):
    train, test = corpus
    out = tmp_path_factory.mktemp("pipe") / "out"
    assert main(["pipeline", "--train", f"brat:{train}", "--test", f"brat:{test}", "--out", str(out),
                 "--quiet", *FAST]) == 0
    return out


def ann_lines(path):
    """``(label, [(start, end)], surface)`` of every T line of a ``.ann`` file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        tid, head, surface = line.split("\t")
        label, _, offsets = head.partition(" ")
        out.append((label, [tuple(map(int, f.split())) for f in offsets.split(";")], surface))
    return out


def test_pipeline_writes_model_predictions_and_scores(piped, corpus):
    _, test = corpus
    assert (piped / "model").is_file()
    names = sorted(p.name for p in (piped / "predictions").iterdir())
    assert names == sorted(p.name for p in test.iterdir())  # the test corpus' own file names
    scores = json.loads((piped / "scores.json").read_text(encoding="utf-8"))
    assert scores["scheme"] == "corpus"
    assert set(scores["by_subtype"]) == set(LABELS)          # the labels as written, no i2b2 names
    assert not any(k.startswith("hipaa") for k in scores["micro"])  # no HIPAA label declared
    assert scores["micro"]["strict"]["f1"] >= 0.9
    table = (piped / "scores.md").read_text(encoding="utf-8")
    assert all(re.search(rf"^\| {label} \|", table, re.M) for label in LABELS)


def test_predictions_keep_bom_and_the_users_offsets(piped, corpus):
    _, test = corpus
    boms = 0
    for txt in sorted(test.glob("*.txt")):
        pred_txt = piped / "predictions" / txt.name
        assert pred_txt.read_bytes() == txt.read_bytes()   # BOM and bytes as the user has them
        text = txt.read_bytes().decode("utf-8")               # BRAT: the BOM counts one character
        boms += text.startswith(BOM)
        for label, frags, surface in ann_lines(pred_txt.with_suffix(".ann")):
            assert label in LABELS
            assert " ".join(text[a:b] for a, b in frags) == surface
    assert boms >= 5
    # A BOM note's first gold span is found at the offsets the user's .ann gives.
    first = next(p for p in sorted(test.glob("*.txt")) if p.read_bytes().startswith(BOM.encode()))
    gold = {(lab, f) for lab, frags, _ in ann_lines(first.with_suffix(".ann")) for f in frags}
    pred = {(lab, f) for lab, frags, _ in ann_lines(piped / "predictions" / first.with_suffix(".ann").name)
            for f in frags}
    assert gold & pred


def test_documented_commands_agree_with_pipeline(piped, corpus, tmp_path):
    """train (a config with a mapping input, relative paths), tag, evaluate: the same figures."""
    train, test = corpus
    cfg = tmp_path / "cfgs" / "byo.yaml"
    cfg.parent.mkdir()
    rel = "../" * len(cfg.parent.parts) + str(train).lstrip("/")  # relative to the config's folder
    cfg.write_text(yaml.safe_dump({
        "train": [{"format": "brat", "path": rel, "check_text": True}],
        "features": "byo", "crf": {"algorithm": "lbfgs", "c1": 0.05, "c2": 0.01, "max_iterations": 40,
                                   "feature.possible_transitions": True},
        "decoding": {"o_threshold": None}, "seed": 13}), encoding="utf-8")
    model, pred = tmp_path / "m.model", tmp_path / "pred"
    assert main(["train", "--config", str(cfg), "--output", str(model), "--quiet"]) == 0
    assert main(["tag", "--model", str(model), "--input-format", "brat", str(test),
                 "--output-format", "brat", "--output-dir", str(pred), "--quiet"]) == 0
    scores = tmp_path / "s.json"
    assert main(["evaluate", "--gold", f"brat:{test}", "--pred", f"brat:{pred}", "--json", str(scores),
                 "--quiet"]) == 0
    ours = json.loads(scores.read_text(encoding="utf-8"))
    piped_scores = json.loads((piped / "scores.json").read_text(encoding="utf-8"))
    assert ours["micro"] == piped_scores["micro"]
    assert ours["by_subtype"] == piped_scores["by_subtype"]


def declared_config(path, train):
    scheme = {"name": "demo", "labels": {
        "NombrePaciente": {"parent": "PERSONA", "hipaa": True, "placeholder": "<PACIENTE>",
                           "surrogate": "name"},
        "NombreMedico": {"parent": "PERSONA", "surrogate": "name"},
        "Fecha": {"hipaa": True, "surrogate": "date"},
        "Ciudad": {"surrogate": "city"}, "Telefono": {"surrogate": "phone"},
        "Direccion": {"surrogate": "random"}, "NumHistoria": {"surrogate": "id"}}}
    path.write_text(yaml.safe_dump({"train": [f"brat:{train}"], "features": "byo", "scheme": scheme,
                                    "crf": {"max_iterations": 40}}), encoding="utf-8")
    return path


def test_declared_scheme_drives_tables_placeholders_and_surrogates(corpus, tmp_path):
    train, test = corpus
    cfg = declared_config(tmp_path / "declared.yaml", train)
    model = tmp_path / "m.model"
    assert main(["train", "--config", str(cfg), "--output", str(model), "--quiet"]) == 0
    pred = tmp_path / "pred"
    assert main(["tag", "--model", str(model), "--input-format", "brat", str(test),
                 "--output-format", "brat", "--output-dir", str(pred), "--quiet"]) == 0
    scores = tmp_path / "s.json"
    assert main(["evaluate", "--gold", f"brat:{test}", "--pred", f"brat:{pred}", "--scheme", str(cfg),
                 "--json", str(scores), "--quiet"]) == 0
    data = json.loads(scores.read_text(encoding="utf-8"))
    assert data["scheme"] == "demo" and "hipaa_strict" in data["micro"]
    assert set(data["by_category"]) == {"PERSONA", "Fecha", "Ciudad", "Telefono", "Direccion", "NumHistoria"}
    assert "hipaa_token" in data["by_category"]["PERSONA"]["micro"]
    assert "hipaa_token" not in data["by_category"]["Ciudad"]["micro"]
    red = tmp_path / "red"
    assert main(["tag", "--model", str(model), "--input-format", "brat", str(test),
                 "--output-format", "redacted", "--output-dir", str(red), "--quiet"]) == 0
    texts = "".join(p.read_text(encoding="utf-8") for p in red.glob("*.txt"))
    assert "<PACIENTE>" in texts and "[**Ciudad**]" in texts and "[**NombrePaciente**]" not in texts
    sur = tmp_path / "sur"
    assert main(["tag", "--model", str(model), "--input-format", "brat", str(test), "--seed", "3",
                 "--output-format", "surrogate", "--output-dir", str(sur), "--quiet"]) == 0
    for txt in test.glob("*.txt"):
        new = (sur / txt.name).read_text(encoding="utf-8")
        for label, _, surface in ann_lines(txt.with_suffix(".ann")):
            if label == "Fecha" and "/" in surface:
                assert surface not in new   # dates moved by the patient's offset
        if re.search(r"\d{2}/\d{2}/\d{4}", txt.read_text(encoding="utf-8")):
            assert re.search(r"\d{1,2}/\d{1,2}/\d{4}", new)  # still a date (the date generator)


def test_declared_scheme_refuses_a_label_it_lacks(corpus, tmp_path, capsys):
    train, _ = corpus
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({"train": [f"brat:{train}"], "features": "byo",
                                   "scheme": {"labels": ["Fecha", "Ciudad"]}}), encoding="utf-8")
    assert main(["train", "--config", str(cfg), "--output", str(tmp_path / "m"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "unknown label" in err and ".ann line" in err and "known subtypes: Fecha, Ciudad" in err


def test_reader_options_on_the_command_line(corpus, tmp_path, capsys):
    train, _ = corpus
    # corpus stats reads the corpus' labels as pipeline does; the i2b2 scheme only when asked.
    assert main(["corpus", "stats", f"brat:{train}", "--json", "-q", "--reader-option", "scheme=i2b2"]) == 1
    capsys.readouterr()
    assert main(["corpus", "stats", f"brat:{train}", "--json", "-q"]) == 0
    stats = json.loads(capsys.readouterr().out.split("\n}\n")[-2] + "\n}")
    assert set(stats["spans_by_subtype"]) == set(LABELS)
    # An option the reader does not take is refused, listing the ones it takes.
    assert main(["pipeline", "--train", f"brat:{train}", "--test", f"brat:{train}", "--out",
                 str(tmp_path / "o"), "--reader-option", "colour=red"]) == 2
    err = capsys.readouterr().err
    assert "does not take colour" in err and "label_map, check_text, scheme" in err


def test_label_map_from_a_reader_option(corpus, tmp_path):
    train, test = corpus
    lmap = tmp_path / "map.yaml"
    lmap.write_text("NumHistoria: null\nTelefono: Contacto\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["pipeline", "--train", f"brat:{train}", "--test", f"brat:{test}", "--out", str(out),
                 "--quiet", "--reader-option", f"label_map={lmap}", *FAST]) == 0
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert "NumHistoria" not in scores["by_subtype"] and "Contacto" in scores["by_subtype"]


def test_api_and_commands_read_and_score_a_corpus_alike(corpus, piped, tmp_path):
    # io.read takes the labels pipeline and evaluate take; scoring.evaluate counts as both do
    # (token runs in any script for the corpus' own labels, not the i2b2 script's ASCII runs).
    import crfdeid
    _, test = corpus
    gold = list(crfdeid.io.read(f"brat:{test}"))
    pred = list(crfdeid.io.read(f"brat:{piped / 'predictions'}"))
    assert {sp.subtype for doc in gold for sp in doc.spans} == set(LABELS)
    api = crfdeid.scoring.evaluate(gold, pred).to_dict()
    scores = json.loads((piped / "scores.json").read_text(encoding="utf-8"))
    del scores["pipeline"]
    assert api == scores
    assert main(["evaluate", "--gold", f"brat:{test}", "--pred", f"brat:{piped / 'predictions'}",
                 "--json", str(tmp_path / "e.json"), "--quiet"]) == 0
    assert json.loads((tmp_path / "e.json").read_text(encoding="utf-8")) == api
    token = api["micro"]["token"]
    assert token["tp"] + token["fn"] > len([sp for doc in gold for sp in doc.spans])  # runs, not spans
