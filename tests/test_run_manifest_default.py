"""``tag --output-dir`` writes its run manifest by default (issue 52): complete only when every
document was written, marked incomplete otherwise (what ``audit sample --release-output``
refuses by name), never read as a note by the next run, never written over a user's file of
its name. Made-up notes only."""

from __future__ import annotations

import json
import shutil

import pytest

from crfdeid.audit import sample
from crfdeid.cli.audit import main as audit
from crfdeid.cli.tag import main as tag
from crfdeid.errors import ConfigError
from crfdeid.io import list_files, runmanifest
from crfdeid.io.ownfiles import RUN_MANIFEST, is_own
from crfdeid.tagging import session as tagging_session

NOTES = {"p1_a.txt": "Seen by Dr. Okafor on 3/4/2091. Call 555-0142.\n",
         "p1_b.txt": "Mrs. Brennan called back from Galway.\n",
         "p2_a.txt": "patient aoife walsh, mrn 7731205, seen in ward 4\n"}


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _tag(notes, out, *extra) -> int:
    return tag([str(notes), "--output-format", "redacted", "--output-dir", str(out), "--quiet", *extra])


def test_tag_into_a_folder_writes_a_complete_manifest_by_default(notes, tmp_path):
    out = tmp_path / "out"
    assert _tag(notes, out) == 0
    run = runmanifest.read(out)
    assert run["complete"] is True and run["failed"] == 0
    assert set(run["files"]) == set(NOTES) == set(runmanifest.notes_only(p.name for p in out.iterdir()))
    assert is_own(out / RUN_MANIFEST)
    text = (out / RUN_MANIFEST).read_text()
    assert not any(word in text for word in ("Okafor", "Brennan", "walsh", "555-0142"))


def test_no_run_manifest_writes_none(notes, tmp_path):
    out = tmp_path / "out"
    assert _tag(notes, out, "--no-run-manifest") == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(NOTES)


def test_a_run_with_a_failed_document_leaves_an_incomplete_manifest_the_audit_refuses(notes, tmp_path, capsys):
    (notes / "p3_bad.txt").write_bytes(b"Dr. \xff\xfe broken bytes")
    out = tmp_path / "out"
    assert _tag(notes, out) == 1
    run = json.loads((out / RUN_MANIFEST).read_text())
    assert run["complete"] is False and run["failed"] == 1
    with pytest.raises(Exception, match="marked incomplete: 1 document"):
        runmanifest.read(out)
    release = tmp_path / "release"
    release.mkdir()
    for name, text in NOTES.items():
        (release / name).write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert audit(["sample", f"text:{release}", "--out", str(tmp_path / "a"), "--notes", "2", "--seed", "5",
                  "--release-output", str(out)]) == 2
    assert "marked incomplete" in capsys.readouterr().err


def test_a_run_killed_part_way_leaves_a_manifest_marked_incomplete(notes, tmp_path, monkeypatch):
    out = tmp_path / "out"
    seen = {}

    def killed(self, docs, out_writer, **kw):
        seen["run"] = json.loads((out / RUN_MANIFEST).read_text())
        raise KeyboardInterrupt

    monkeypatch.setattr(tagging_session.Session, "write", killed)
    with pytest.raises(KeyboardInterrupt):
        _tag(notes, out)
    assert seen["run"]["complete"] is False
    with pytest.raises(Exception, match="did not finish"):
        runmanifest.read(out)


@pytest.mark.parametrize("copy", [shutil.copy2, shutil.copyfile], ids=["with-xattr", "xattr-dropped"])
def test_a_manifest_is_never_read_as_a_note(notes, tmp_path, copy):
    out = tmp_path / "out"
    assert _tag(notes, out) == 0
    folder = tmp_path / "next"
    (folder / "sub").mkdir(parents=True)
    copy(out / RUN_MANIFEST, folder / "sub" / RUN_MANIFEST)
    (folder / "sub" / "note.manifest").write_text("Dr. Okafor wrote this note.\n")
    assert [p.name for p in list_files(folder, ".manifest", recursive=True)] == ["note.manifest"]
    assert tag([str(folder), "--recursive", "--reader-option", "suffix=.manifest", "--output-format", "jsonl",
                "--output-dir", str(tmp_path / "out2"), "--quiet"]) == 0
    records = (tmp_path / "out2" / "tagged.jsonl").read_text().splitlines()
    assert [json.loads(r)["id"] for r in records] == ["sub/note"]


def test_a_users_file_of_the_manifests_name_is_read_and_never_replaced(notes, tmp_path, capsys):
    mine = "a note of mine, Dr. Okafor, that has this name\n"
    (notes / RUN_MANIFEST).write_text(mine)
    assert not is_own(notes / RUN_MANIFEST)
    assert RUN_MANIFEST in [p.name for p in list_files(notes, ".manifest")]
    out = tmp_path / "out"
    out.mkdir()
    (out / RUN_MANIFEST).write_text(mine)
    capsys.readouterr()
    assert _tag(notes, out) == 2
    assert "crfdeid did not write" in capsys.readouterr().err
    assert (out / RUN_MANIFEST).read_text() == mine
    assert sorted(p.name for p in out.iterdir()) == [RUN_MANIFEST]  # nothing tagged


def test_a_second_run_with_overwrite_replaces_the_manifest(notes, tmp_path):
    out = tmp_path / "out"
    assert _tag(notes, out) == 0
    assert _tag(notes, out, "--overwrite", "-o", "template=<{subtype}>") == 0
    run = runmanifest.read(out)
    assert "template=<{subtype}>" in run["argv"] and run["complete"] is True
    assert runmanifest.compare(run["files"], runmanifest.output_files(out)) == []



@pytest.mark.parametrize("content, audit_says, run_says", [
    (None, "not an audit folder", "no run manifest"),
    ("{not json", "the audit manifest is not valid JSON", "the run manifest is not valid JSON"),
    ('["crfdeid-audit/1"]', "not a crfdeid-audit/1 manifest", "not a crfdeid-run/1 manifest"),
    ('{"format": "crfdeid-run/1"}', "not a crfdeid-audit/1 manifest", None),
    ('{"format": "crfdeid-audit/1"}', None, "not a crfdeid-run/1 manifest")])
def test_a_manifest_missing_broken_or_of_another_format_is_refused_by_name(tmp_path, content, audit_says, run_says):
    """The audit's and the run's manifests are read by one reader (``runmanifest.read_manifest``): a
    missing file, broken JSON, a JSON list or another format each a ConfigError saying which."""
    if content is not None:
        for name in (sample.MANIFEST, RUN_MANIFEST):
            (tmp_path / name).write_text(content, encoding="utf-8")
    for load, says in ((sample.load, audit_says), (runmanifest.read, run_says)):
        if says is None:
            assert load(tmp_path)["format"] == json.loads(content)["format"]
        else:
            with pytest.raises(ConfigError, match=says):
                load(tmp_path)
