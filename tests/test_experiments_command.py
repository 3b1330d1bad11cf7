"""``python -m crfdeid experiments``: the made-up notes check and its reader."""

from __future__ import annotations

import json

from crfdeid.cli.experiments import main
from crfdeid.document import make_span
from crfdeid.experiments import madeup
from crfdeid.text.tokenize import tokenize


def test_made_up_notes_are_read_with_their_marked_phi():
    docs = madeup.read_notes()
    assert len(docs) == 15 and len({d.doc_id for d in docs}) == 15
    for d in docs:
        assert "[[" not in d.text and all(d.text[s.start:s.end].strip() for s in d.spans)


def test_made_up_score_counts_misses_and_false_placeholders():
    [gold] = [d for d in madeup.read_notes() if d.doc_id == "ed_triage"]
    first, rest = gold.spans[0], gold.spans[1:]
    fake = make_span(0, 6, "PATIENT")                       # "TRIAGE": a placeholder on non-PHI
    res = madeup.score([gold], [gold.with_spans([*rest, fake])])
    assert res["missed"] == len(tokenize(gold.text[first.start:first.end])) >= 1
    assert res["missed_safe_harbor"] == res["missed"] and res["false_spans"] == 1
    assert madeup.score([gold], [gold])["missed"] == 0


def test_made_up_command_prints_counts_and_writes_json(tmp_path, capsys):
    assert main(["made-up", "--json", str(tmp_path / "m.json")]) == 0
    out = capsys.readouterr().out
    res = json.loads((tmp_path / "m.json").read_text())
    assert f"missed {res['missed']} (Safe Harbor identifiers {res['missed_safe_harbor']})" in out
    assert len(res["notes"]) == 15 and res["gold_tokens"] > 100
    assert "missed=" not in out                               # surfaces only with --show


def test_experiments_needs_a_known_experiment(capsys):
    import pytest
    with pytest.raises(SystemExit) as exc:
        main(["sweep"])
    assert exc.value.code == 2
