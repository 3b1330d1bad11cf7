"""``python -m crfdeid experiments site-mining | safeharbor | dev-cv``: the figures they print
and write, on tiny made-up and synthetic notes."""

from __future__ import annotations

import contextlib
import io
import json
import shlex

import pytest

from crfdeid.cli.experiments import _parser, main
from crfdeid.document import Document, make_span
from crfdeid.experiments import safeharbor, sitemining
from crfdeid.io import read

_NOTE = "Call 555-123-4567 or write to jo@example.org today. SSN 123-45-6789."


@pytest.mark.parametrize("experiment", ["site-mining", "safeharbor", "dev-cv", "rule-ledger"])
def test_each_help_shows_examples_that_parse(experiment):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([experiment, "--help"])
    examples = out.getvalue().split("examples:\n", 1)[1].replace("\\\n", " ")
    lines = [ln.split("python -m crfdeid experiments ", 1)[1] for ln in examples.splitlines() if "crfdeid" in ln]
    assert lines and all(_parser().parse_args(shlex.split(ln, comments=True)).experiment == experiment
                         for ln in lines)


def test_safeharbor_counts_hits_false_positives_and_gold_touched():
    doc = Document("n1", _NOTE, [make_span(5, 17, "PHONE"), make_span(56, 67, "SSN")])
    other = Document("n2", _NOTE, [], {"patient": "p2"})
    res = safeharbor.count([doc, other], frozenset({"p2"}))
    assert res["documents"] == 1 and res["characters"] == len(_NOTE) and res["excluded_groups"] == 1
    assert res["hits_by_form"] == {"id_far_label": 1, "id_label": 1, "phone": 1, "ssn": 1}
    assert res["false_positives_by_form"] == {"email": 1}
    assert res["gold_by_subtype"] == res["gold_touched_by_subtype"] == {"PHONE": 1, "SSN": 1}


def test_safeharbor_command_prints_json_of_the_corpus(tmp_path, capsys):
    groups = sorted({d.group for d in read("synth:20,3")})
    (tmp_path / "locked.txt").write_text(groups[0] + "\n")
    assert main(["safeharbor", "synth:20,3", "--exclude-groups", str(tmp_path / "locked.txt"),
                 "--json", str(tmp_path / "sh.json")]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res == json.loads((tmp_path / "sh.json").read_text())
    kept = [d for d in read("synth:20,3") if d.group != groups[0]]
    assert res["source"] == "synth" and res["documents"] == len(kept) < 20
    assert sum(res["gold_by_subtype"].values()) == sum(len(d.spans) for d in kept)
    assert all(res["gold_touched_by_subtype"][k] <= v for k, v in res["gold_by_subtype"].items())
    assert sum(res["hits_by_form"].values()) > 0


def test_site_mining_figures_per_category():
    text = "John Smith seen March by Dr Lee"
    gold = [Document("a", text, [make_span(0, 10, "PATIENT"), make_span(16, 21, "DATE")])]
    pred = [gold[0].with_spans([make_span(0, 4, "PATIENT"), make_span(28, 31, "DOCTOR")])]
    f = sitemining.figures(gold, pred)
    assert (f["tp"], f["fp"], f["fn"]) == (1, 1, 2)
    assert f["recall_by_category"] == {"DATE": 0.0, "NAME": 0.5}
    assert f["missed_by_category"] == {"DATE": 1, "NAME": 1}
    assert f["precision_by_category"] == {"NAME": [0.5, 1, 1]}


def test_site_mining_command_off_and_on_agree_with_a_mining_session(tmp_path, capsys):
    assert main(["site-mining", "--corpus", "synth:8,5", "--full", "--json", str(tmp_path / "m.json")]) == 0
    out = capsys.readouterr().out
    res = json.loads((tmp_path / "m.json").read_text())
    assert res["notes"] == 8 and res["applies"] and res["full_same"] is True
    off, on = res["off"], res["on"]
    assert off["tp"] + off["fn"] == on["tp"] + on["fn"] > 0 and on["tp"] >= off["tp"]
    assert off["precision"] == round(off["tp"] / (off["tp"] + off["fp"]), 4)
    assert f"mining off: P {off['precision']:.3f}  R {off['recall']:.3f}  tp {off['tp']}" in out
    assert "a mining session gives the same spans: True" in out


def test_site_mining_keeps_or_leaves_out_the_named_patients(tmp_path):
    groups = tmp_path / "locked.txt"
    groups.write_text("100\n")                      # synthetic record prefixes are the patients
    counts = {}
    for flag in ("--only-groups", "--exclude-groups"):
        out = tmp_path / f"{flag}.json"
        assert main(["site-mining", "--corpus", "synth:8,5", flag, str(groups), "--json", str(out)]) == 0
        counts[flag] = json.loads(out.read_text())["notes"]
    assert counts["--only-groups"] > 0 and counts["--only-groups"] + counts["--exclude-groups"] == 8


CONFIG = """train: ["synth:8,7"]
features: no_dict
crf: {algorithm: lbfgs, c1: 0.05, c2: 0.01, max_iterations: 5, feature.possible_transitions: true}
decoding: {o_threshold: 0.9, o_words_min_count: 1}
seed: 7
"""


def test_dev_cv_sweep_rules_and_stress_on_two_cached_folds(tmp_path, capsys):
    (tmp_path / "tiny.yaml").write_text(CONFIG)
    args = ["dev-cv", "--config", str(tmp_path / "tiny.yaml"), "--folds", "2", "--jobs", "1",
            "--o-thresholds", "none,0.98", "--o-words", "0,2", "--o-words-thresholds", "0.98",
            "--cache", str(tmp_path / "folds")]
    assert main(args + ["--rules", "--out", str(tmp_path / "out")]) == 0
    res = json.loads((tmp_path / "out" / "dev_cv.json").read_text())
    printed = capsys.readouterr().out
    assert printed == (tmp_path / "out" / "dev_cv.md").read_text()
    assert (res["documents"], res["folds"], res["seed"]) == (8, 2, 7)
    assert sorted((tmp_path / "folds").iterdir()) == [tmp_path / "folds" / "fold0.model",
                                                       tmp_path / "folds" / "fold1.model"]
    grid = [(s["o_threshold"], s["o_words_min_count"]) for s in res["sweep"]]
    assert grid == [(0.98, 0), (None, 1), (0.9, 1), (0.98, 1), (0.98, 2)]
    conf = res["sweep"][2]["binary_token"]
    assert conf["recall"] == res["original"]["binary_token"]["recall"] > 0
    assert res["ablation"]["all rules"]["tp"] == conf["tp"]
    assert all(m["matches"] == m["overlap_gold"] + m["no_gold"] for m in res["rule_matches"].values())
    assert f"| 0.9 | 1 | {conf['precision']:.3f} | {conf['recall']:.3f} |" in printed
    when = [p.stat().st_mtime_ns for p in sorted((tmp_path / "folds").iterdir())]
    assert main(args + ["--stress", "same=synth:8,7", "--out", str(tmp_path / "again")]) == 0
    assert [p.stat().st_mtime_ns for p in sorted((tmp_path / "folds").iterdir())] == when  # reused
    again = json.loads((tmp_path / "again" / "dev_cv.json").read_text())
    assert again["sweep"] == res["sweep"] and "ablation" not in again
    # the stress copy is the same notes: the same figures as the original
    assert again["stress"]["same"]["binary_token"] == res["original"]["binary_token"]
