"""Canaries (issue 52 item 4): made-up identifiers planted in the review copies of sampled notes
measure each reviewer's misses; they never count as the model's leaks; a reviewer who misses
them fails the audit; verify names a canary that is not where audit.json says. Synthetic notes."""

from __future__ import annotations

import json
import random

import pytest
from audit_kit import reviewed_by_people

from crfdeid.audit import canary
from crfdeid.cli.audit import main
from crfdeid.io import write
from crfdeid.synth import iter_documents

TEXT = "Seen by Dr. Ada Quill.\nBP 120/80.\nplan: home"
OTHER = "Call Mr. Bo Lindqvist at 617-555-0147 on 3/4/2090.\nStable."


@pytest.mark.parametrize("seed", range(6))
def test_a_planted_canary_comes_out_whole_and_spans_move_both_ways(seed):
    spans = [(12, 21, "DOCTOR"), (26, 32, "X")]
    pool = canary.lines(OTHER, [(9, 21, "PATIENT"), (25, 37, "PHONE"), (41, 49, "DATE")]) if seed % 2 else ()
    text, c = canary.plant(TEXT, spans, random.Random(seed), pool)
    assert canary.strip(text, c) == TEXT and canary.in_place(text, c)
    moved = canary.to_store(spans, c)
    assert [text[a:b] for a, b, _ in moved] == [TEXT[a:b] for a, b, _ in spans]
    assert canary.from_store(moved, c) == spans
    assert canary.caught(text, [(c["start"], c["end"])], c) and not canary.caught(text, moved, c)
    assert canary.from_store([(c["start"], c["end"], "PHONE")], c) == []  # its span is no finding
    # drawn like a surrogate: no value of the line it was drawn from survives in it
    line = text[c["at"]:c["at"] + c["length"]]
    assert "Quill" not in line and "Lindqvist" not in line and "0147" not in line and c["subtype"] != "X"


def test_canaries_have_no_fixed_wording():
    """The lines drawn for 40 seeds: no two alike, none from a template of the code."""
    pool = canary.lines(OTHER, [(9, 21, "PATIENT"), (25, 37, "PHONE"), (41, 49, "DATE")])
    made = set()
    for seed in range(40):
        text, c = canary.plant(TEXT, [(12, 21, "DOCTOR")], random.Random(seed), pool)
        made.add(text[c["start"]:c["end"]])
    assert len(made) >= 35  # values from the surrogate generators, not from a short list
    assert not hasattr(canary, "TEMPLATES") and not hasattr(canary, "FIRST")


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    folder = tmp_path_factory.mktemp("canary")
    docs = list(iter_documents(16, 61))
    for d in docs:
        d.meta.clear()
    write(docs, "jsonl", folder / "notes.jsonl")
    return folder, f"jsonl:{folder / 'notes.jsonl'}"


def _report(folder, capsys) -> tuple[int, dict, str]:
    capsys.readouterr()
    code = main(["report", str(folder)])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def test_careful_reviewers_catch_every_canary_and_the_findings_are_those_of_the_release(release, capsys):
    folder, spec = release
    reports = {}
    for n in (0, 4):
        out = folder / f"c{n}"
        assert main(["sample", spec, "--out", str(out), "--notes", "8", "--double", "2", "--seed", "3",
                     "--canaries", str(n)]) == 0
        reviewed_by_people(out, spec)
        reports[n] = _report(out, capsys)
    code, report, err = reports[4]
    assert code == 0, err
    assert report["canaries"]["planted"] == 4
    assert all(r["recall"] == 1.0 for r in report["canaries"]["by_reviewer"].values())
    assert sum(r["planted"] for r in report["canaries"]["by_reviewer"].values()) >= 4
    assert report["identifiers"] == reports[0][1]["identifiers"]  # a canary is never a leak of the model
    assert reports[0][0] == 1 and "no canaries were planted" in reports[0][2]


def test_a_reviewer_who_misses_canaries_fails_the_audit(release, capsys):
    folder, spec = release
    out = folder / "careless"
    assert main(["sample", spec, "--out", str(out), "--notes", "8", "--seed", "4", "--canaries", "8"]) == 0
    assert main(["simulate", str(out), "--gold", spec, "--reviewers", "cy", "--miss", "1"]) == 0
    code, report, err = _report(out, capsys)
    assert code == 1 and "cy found 0 of the 8 canaries" in err
    assert report["canaries"]["by_reviewer"]["cy"]["recall"] == 0.0


def test_a_canary_not_where_audit_json_says_is_named(release, capsys):
    folder, spec = release
    out = folder / "moved"
    assert main(["sample", spec, "--out", str(out), "--notes", "8", "--seed", "5", "--canaries", "2"]) == 0
    m = json.loads((out / "audit.json").read_text())
    m["canaries"][0]["at"] += 1
    (out / "audit.json").write_text(json.dumps(m))
    capsys.readouterr()
    assert main(["verify", str(out), "--evidence-only"]) == 1
    assert f"{m['canaries'][0]['doc_id']}" in capsys.readouterr().err
