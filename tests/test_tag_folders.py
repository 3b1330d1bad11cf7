"""Nothing skipped in silence: what `tag` does with a folder's subfolders, odd entries and file
names, with several notes on standard output and on a terminal, and the summary it ends with.

Every note and name here is made up.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from crfdeid import cli
from crfdeid.io.runmanifest import notes_only

NOTE = "Seen by Dr. Tamsin Quillon on 03/14/2098.\n"
OTHER = "Zorbek Vexlan called 617-555-0148 on 04/02/2098.\n"


@pytest.fixture
def notes(tmp_path):
    """``notes/`` with a note, an upper-case name, a subfolder two deep, and odd entries."""
    folder = tmp_path / "notes"
    (folder / "sub" / "deep").mkdir(parents=True)
    (folder / "n1.txt").write_text(NOTE, encoding="utf-8")
    (folder / "P4.TXT").write_text(OTHER, encoding="utf-8")
    (folder / "sub" / "n3.txt").write_text(OTHER, encoding="utf-8")
    (folder / "sub" / "deep" / "n9.txt").write_text(NOTE, encoding="utf-8")
    (folder / "readme.md").write_text("not a note", encoding="utf-8")  # another suffix: not a note
    return folder


def _odd_entries(folder):
    os.symlink("nowhere.txt", folder / "dangling.txt")
    os.symlink("loop.txt", folder / "loop.txt")
    os.mkfifo(folder / "fifo.txt")
    os.symlink("sub", folder / "linked.txt")  # a link to a folder, named like a note


def test_subfolders_are_counted_without_recursive_and_kept_with_it(notes, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["tag", str(notes), "--output-format", "redacted", "--output-dir", str(out)]) == 0
    err = capsys.readouterr().err
    written = sorted(p.relative_to(out).as_posix() for p in notes_only(out.rglob("*")) if p.is_file())
    assert written == ["P4.TXT", "n1.txt"]
    assert "2 *.txt, *.docx or *.rtf file(s) in subfolders not read ('sub/'); --recursive" in err

    out2 = tmp_path / "out2"
    assert cli.main(["tag", str(notes), "--recursive", "--output-format", "redacted", "--output-dir", str(out2)]) == 0
    err = capsys.readouterr().err
    written = sorted(p.relative_to(out2).as_posix() for p in notes_only(out2.rglob("*")) if p.is_file())
    assert written == ["P4.TXT", "n1.txt", "sub/deep/n9.txt", "sub/n3.txt"]
    assert "in subfolders not read" not in err and "1 file(s) not read" in err and "'readme.md'" in err
    assert "Quillon" not in (out2 / "sub" / "deep" / "n9.txt").read_text(encoding="utf-8")


def test_jsonl_ids_of_a_recursive_run_are_relative_paths(notes, capsys):
    assert cli.main(["tag", str(notes), "--recursive", "--output-format", "jsonl", "--quiet"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["meta"]["file"]) for r in records] == [
        ("P4", "P4.TXT"), ("n1", "n1.txt"), ("sub/deep/n9", "sub/deep/n9.txt"), ("sub/n3", "sub/n3.txt")]


def test_links_loops_and_fifos_are_named_never_read(notes, tmp_path, capsys):
    _odd_entries(notes)
    out = tmp_path / "out"
    log = tmp_path / "run.log"
    assert cli.main(["tag", str(notes), "--output-format", "redacted", "--output-dir", str(out),
                     "--log", str(log), "--quiet"]) == 0
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "not a readable file" in x)
    assert line.startswith("warning: ") and "4 entries ending in .txt, .docx or .rtf not read" in line
    for name, why in (("dangling.txt", "a dangling link"), ("loop.txt", "a link loop"), ("fifo.txt", "a FIFO"),
                      ("linked.txt", "a link to a folder, not followed")):
        assert f"'{name}' ({why})" in line
    assert "Quillon" not in err and "Vexlan" not in err
    assert line[len("warning: "):] in log.read_text(encoding="utf-8")  # in the log too
    assert sorted(p.name for p in notes_only(out.iterdir())) == ["P4.TXT", "n1.txt"]


@pytest.mark.parametrize("reader", ["brat", "i2b2"])
def test_other_folder_readers_name_what_they_skip_too(tmp_path, reader, capsys):
    from crfdeid.io.files import list_files
    suffix = ".txt" if reader == "brat" else ".xml"
    (tmp_path / "sub").mkdir()
    (tmp_path / f"a{suffix}").write_text("x", encoding="utf-8")
    (tmp_path / "sub" / f"b{suffix}").write_text("x", encoding="utf-8")
    assert [p.name for p in list_files(tmp_path, suffix)] == [f"a{suffix}"]
    assert "give each subfolder as an input of its own" in capsys.readouterr().err


def test_several_notes_on_standard_output_are_separated_one_is_not(notes, capsys):
    assert cli.main(["tag", str(notes), "--output-format", "redacted", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("==> ")] == ["==> P4 <==", "==> n1 <=="]
    assert out.index("==> n1 <==") > out.index("called")  # each note after its own line
    assert cli.main(["tag", str(notes / "n1.txt"), "--output-format", "redacted", "--quiet"]) == 0
    assert capsys.readouterr().out == "Seen by Dr. [**DOCTOR**] on [**DATE**].\n"


def test_a_terminal_gets_no_note_text_unasked(notes, monkeypatch, capsys):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert cli.main(["tag", str(notes)]) == 2
    got = capsys.readouterr()
    assert got.out == "" and "--output-format" in got.err and "Quillon" not in got.err
    assert cli.main(["tag", str(notes / "n1.txt"), "--output-format", "jsonl", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "n1"


def test_the_summary_counts_by_category_never_a_value(tmp_path, capsys):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text(NOTE, encoding="utf-8")
    (folder / "b.txt").write_text("Afebrile, ambulating, tolerating diet.\n", encoding="utf-8")
    log = tmp_path / "run.log"
    assert cli.main(["tag", str(folder), "--output-format", "masked", "--output-dir", str(tmp_path / "o"),
                     "--log", str(log)]) == 0
    err = capsys.readouterr().err
    [line] = [x for x in err.splitlines() if x.startswith("replaced: ")]
    assert line == "replaced: DATE 1, NAME 1 (spans by category); 1 of 2 note(s) with none; notes by member: icu 2"
    assert line in log.read_text(encoding="utf-8")
    assert "Quillon" not in err + log.read_text(encoding="utf-8")
    assert cli.main(["tag", str(folder), "--output-format", "jsonl", "--output-dir", str(tmp_path / "j")]) == 0
    assert "found: DATE 1, NAME 1" in capsys.readouterr().err  # annotations: found, not replaced
    assert cli.main(["tag", str(folder), "--output-format", "masked", "--output-dir", str(tmp_path / "q"),
                     "--quiet"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("file, written", [
    ("sub/x.TXT", "sub/x.TXT"),          # kept as given
    ("../escape.txt", "rec.txt"),        # not a safe relative path: the id names the file
    ("/abs/x.txt", "rec.txt"),
    (".tmp-x-1/y.txt", "rec.txt"),
])
def test_a_records_file_name_is_kept_only_when_safe(tmp_path, file, written, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "rec", "text": NOTE, "meta": {"file": file}}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["tag", f"jsonl:{src}", "--output-format", "redacted", "--output-dir", str(out), "--quiet"]) == 0
    assert [p.relative_to(out).as_posix() for p in notes_only(out.rglob("*")) if p.is_file()] == [written]
    assert not (tmp_path / "escape.txt").exists()


def test_recursive_is_refused_by_a_reader_without_folders(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "r", "text": NOTE}) + "\n", encoding="utf-8")
    assert cli.main(["tag", f"jsonl:{src}", "--recursive", "--output-format", "redacted"]) == 2
    assert "does not take recursive" in capsys.readouterr().err


def test_demo_writes_the_made_up_notes_and_never_replaces_one(tmp_path, capsys):
    target = tmp_path / "notes"
    assert cli.main(["demo", str(target)]) == 0
    names = sorted(p.name for p in target.iterdir())
    assert names == ["p1_discharge.txt", "p1_nursing.txt", "p2_nursing.txt"]
    (target / "p2_nursing.txt").write_text("mine", encoding="utf-8")
    assert cli.main(["demo", str(target)]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert (target / "p2_nursing.txt").read_text(encoding="utf-8") == "mine"
    assert cli.main(["demo", str(target), "--overwrite", "--quiet"]) == 0
    assert (target / "p2_nursing.txt").read_text(encoding="utf-8") != "mine"


def test_a_bad_reader_option_is_a_usage_error(notes, capsys):
    assert cli.main(["tag", str(notes), "--reader-option", "bogus", "--output-format", "redacted"]) == 2
    assert "--reader-option wants KEY=VALUE" in capsys.readouterr().err
