"""``tag --explain FILE``: a page a person reads (which words were removed, the category, the
model's confidence and the step that decided) and JSON for programs, written as an output is."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

import crfdeid
from crfdeid.cli import main

NOTE = "Seen by Dr. Tamsin Orrell on 7/22/2098 at Harwick Mercy.\n"


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "n1.txt").write_text(NOTE, encoding="utf-8")
    (folder / "n2.txt").write_text("Nothing to remove here.\n", encoding="utf-8")
    return folder


def test_html_page_marks_each_span_with_category_confidence_and_step(tmp_path, notes, capsys):
    page = tmp_path / "why.html"
    assert main(["tag", str(notes), "--output-format", "redacted", "--output-dir", str(tmp_path / "out"),
                 "--explain", str(page), "--quiet"]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<mark" in html and "Orrell" in html and "DOCTOR" in html
    assert "crf: found" in html and "confidence" in html
    assert "<script" not in html and "http" not in html.replace("http-equiv", "")  # self-contained, nothing fetched
    assert "2 note(s)" in html
    assert stat.S_IMODE(page.stat().st_mode) == 0o600  # it holds the notes' text
    assert "Orrell" not in capsys.readouterr().err  # never on the terminal


def test_json_file_for_programs(tmp_path, notes):
    out = tmp_path / "why.json"
    assert main(["tag", str(notes), "--output-format", "redacted", "--output-dir", str(tmp_path / "out"),
                 "--explain", str(out), "--quiet"]) == 0
    records = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in records] == ["n1", "n2"]
    first = records[0]
    doctor = [s for s in first["spans"] if s["type"] == "DOCTOR"]
    assert doctor and doctor[0]["text"] == first["text"][doctor[0]["start"]:doctor[0]["end"]]
    assert all(0 <= s["confidence"] <= 1 and s["steps"] for s in first["spans"])
    assert records[1]["spans"] == []


def test_jsonl_file_one_note_a_line(tmp_path, notes):
    out = tmp_path / "why.jsonl"
    assert main(["tag", str(notes), "--output-format", "jsonl", "--output-dir", str(tmp_path / "out"),
                 "--explain", str(out), "--quiet"]) == 0
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["n1", "n2"]


@pytest.mark.parametrize("where", ["notes/x.html", "exists.html", "notes/"])
def test_refused_before_anything_is_tagged(tmp_path, notes, where, capsys):
    (tmp_path / "exists.html").write_text("mine", encoding="utf-8")
    target = tmp_path / where
    assert main(["tag", str(notes), "--output-format", "redacted", "--output-dir", str(tmp_path / "out"),
                 "--explain", str(target), "--quiet"]) == 2
    assert "--explain" in capsys.readouterr().err or not (tmp_path / "out").exists()
    assert (tmp_path / "exists.html").read_text(encoding="utf-8") == "mine"  # nothing a user gave is lost
    assert not (tmp_path / "out").exists()


def test_bare_explain_keeps_steps_without_text_on_stderr(tmp_path, notes, capsys):
    assert main(["tag", str(notes / "n1.txt"), "--output-format", "redacted", "--output-dir", str(tmp_path / "o"),
                 "--explain"]) == 0
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if x.startswith("explain: "))
    data = json.loads(line[len("explain: "):])
    assert data["spans"] and all("confidence" in s for s in data["spans"])
    assert "Orrell" not in err


#: The demo's made-up nursing note, in which rules drop two finds of the model (a bed, a pain score).
DROPPED_NOTE = (Path(crfdeid.__file__).parent / "_data" / "samples" / "p1_nursing.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("style", ["redacted", "surrogate"])
def test_each_span_shows_what_it_became_and_dropped_finds_come_first(tmp_path, notes, style, capsys):
    # issue 61: the page did not say what a span became; a find a rule dropped was a grey row
    (notes / "n3.txt").write_text(DROPPED_NOTE, encoding="utf-8")
    page, data, out = tmp_path / "why.html", tmp_path / "why.json", tmp_path / "out"
    seed = ["--seed", "demo"] if style == "surrogate" else []
    assert main(["tag", str(notes), "--output-format", style, *seed, "--output-dir", str(out),
                 "--explain", str(page), "--quiet"]) == 0
    assert main(["tag", str(notes), "--output-format", style, *seed, "--output-dir", str(tmp_path / "out2"),
                 "--explain", str(data), "--quiet"]) == 0
    records = {r["id"]: r for r in json.loads(data.read_text(encoding="utf-8"))}
    written = (out / "n1.txt").read_text(encoding="utf-8")
    html = page.read_text(encoding="utf-8")
    for sp in records["n1"]["spans"]:
        assert sp["became"] and sp["became"] in written and sp["became"] != sp["text"]
        assert f"<span class=to>→ {sp['became']}</span>" in html  # (no character to escape in these)
    doctor = next(s for s in records["n1"]["spans"] if s["type"] == "DOCTOR")
    assert (doctor["became"] == "[**DOCTOR**]") == (style == "redacted")
    # the finds a rule removed, at the top of the page, each with the rule that removed it
    dropped = records["n3"]["dropped"]
    assert {d["text"] for d in dropped} == {"6B-12", "4/10"}
    top = html[html.index('<section id="summary">'):]
    assert "Found, then removed" in top and "found by crf, then removed by rules.v1" in top
    assert "#summary{order:-1}" in html  # the summary is shown first
    assert '<mark class="gone" title="found by crf, then removed by rules.v1' in html  # and in the note's text
    assert "Orrell" not in capsys.readouterr().err


def test_bare_explain_never_says_what_a_span_became(tmp_path, notes, capsys):
    assert main(["tag", str(notes), "--output-format", "surrogate", "--seed", "demo", "--explain", "--quiet"]) == 0
    assert "became" not in capsys.readouterr().err
