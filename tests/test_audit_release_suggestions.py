"""An audit of a release's output (``audit sample --release-output``) suggests what the
release's run removed, not the model alone (issue 52): the run's site list finds a name the
model misses, and the reviewers see it pre-marked; ``verify`` makes the run's spans again.
Made-up notes only (a Welsh and an Indian name, lower case)."""

from __future__ import annotations

import json

import pytest

from crfdeid.cli.audit import main as audit
from crfdeid.cli.tag import main as tag
from crfdeid.review.project import Project
from crfdeid.review.store import MODEL

STAFF = "zephyrine"
NOTES = [
    {"id": "n1", "text": f"bp stable overnight. handed over to {STAFF} at 0700, obs unchanged.\n"},
    {"id": "n2", "text": f"seen on ward round. {STAFF} to recheck bloods with rhodri pugh's team.\n"},
    {"id": "n3", "text": "pt comfortable, family updated by phone (555-0187) by nurse priya nair.\n"},
    {"id": "n4", "text": f"mobilising with physio. {STAFF} informed, plan unchanged.\n"},
]


@pytest.fixture
def release(tmp_path):
    (tmp_path / "release.jsonl").write_text("".join(json.dumps(n) + "\n" for n in NOTES), encoding="utf-8")
    (tmp_path / "roster.txt").write_text(f"# made-up staff\n{STAFF}\n", encoding="utf-8")
    assert tag(["--input-format", "jsonl", str(tmp_path / "release.jsonl"), "--output-format", "redacted",
                "--site-list", f"staff={tmp_path / 'roster.txt'}", "--output-dir", str(tmp_path / "out"),
                "--quiet"]) == 0
    for f in (tmp_path / "out").glob("*.txt"):
        assert STAFF not in f.read_text(encoding="utf-8")  # the release itself has it removed
    return tmp_path


def _suggested(folder) -> dict[str, list[str]]:
    """``{doc id: the suggested spans' text}`` of every note of an audit's review project (no
    canaries: the review copy is the release's text)."""
    texts = {n["id"]: n["text"] for n in NOTES}
    out = {}
    p = Project.open(folder / "review")
    try:
        for row in p.store.notes():
            text = texts[row["doc_id"]]
            out[row["doc_id"]] = [text[s["start"]:s["end"]] for s in p.store.spans(row["id"], MODEL)]
    finally:
        p.close()
    return out


def _sample(release, name, *extra) -> int:
    return audit(["sample", f"jsonl:{release / 'release.jsonl'}", "--out", str(release / name), "--notes", "4",
                  "--seed", "3", "--canaries", "0", *extra])


def test_the_suggestions_are_what_the_release_run_removed(release, capsys):
    assert _sample(release, "model") == 0
    assert _sample(release, "run", "--release-output", str(release / "out")) == 0
    alone, of_run = _suggested(release / "model"), _suggested(release / "run")
    staff_notes = [n["id"] for n in NOTES if STAFF in n["text"]]
    assert any(STAFF not in alone[d] for d in staff_notes)  # the model alone misses the site's name
    assert all(STAFF in of_run[d] for d in staff_notes)     # the release's run removed it: suggested
    manifest = json.loads((release / "run" / "audit.json").read_text())
    assert manifest["suggestions"] == "release-run"
    assert json.loads((release / "model" / "audit.json").read_text())["suggestions"] == "model"
    for note in manifest["notes"]:
        text = next(n["text"] for n in NOTES if n["id"] == note["doc_id"])
        assert sorted(text[s:e] for s, e, _t in note["model_spans"]) == sorted(of_run[note["doc_id"]])
    capsys.readouterr()
    assert audit(["verify", str(release / "run"), "--evidence-only"]) == 0, capsys.readouterr().err
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and not result["differences"]


def test_verify_names_suggestions_that_are_not_the_release_runs(release, capsys):
    assert _sample(release, "run", "--release-output", str(release / "out")) == 0
    path = release / "run" / "audit.json"
    manifest = json.loads(path.read_text())
    manifest["notes"][0]["model_spans"] = []  # the data holder drops what the run found from the record
    path.write_text(json.dumps(manifest))
    capsys.readouterr()
    assert audit(["verify", str(release / "run"), "--evidence-only"]) == 1
    err = capsys.readouterr().err
    assert "differ from the release run's spans" in err and STAFF not in err


def test_a_release_run_that_lacks_a_note_is_refused(release, tmp_path, capsys):
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(n) + "\n" for n in NOTES[:2]), encoding="utf-8")
    assert tag(["--input-format", "jsonl", str(other), "--output-format", "redacted", "--output-dir",
                str(tmp_path / "out2"), "--quiet"]) == 0
    capsys.readouterr()
    assert _sample(release, "bad", "--release-output", str(tmp_path / "out2")) == 2
    assert "audit of something else: the audit's release is not the whole output that leaves (0 of the output's 2 " \
           "notes are not in it, 2 of its 4 are not in the output" in capsys.readouterr().err
