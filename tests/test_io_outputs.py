"""Nothing given is overwritten, nothing written twice, no temporary file left (issue 17).

Outputs equal to, inside or containing an input are refused before anything is
written; colliding document ids never overwrite each other; pre-existing files
are replaced only with --overwrite; every failure path removes the ``.tmp-*``
files, which hold note text.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from crfdeid.cli import corpus, tag
from crfdeid.document import Document, make_span
from crfdeid.errors import OutputError
from crfdeid.io import read, write, writer

ROOT = Path(__file__).resolve().parent.parent
SECRET = "Quackenbush"
NOTE = f"Seen by Dr. Zebulon {SECRET} on 03/14/2098.\n"


def _notes(folder: Path, names=("a.txt", "b.txt")) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text(NOTE, encoding="utf-8")
    return _snapshot(folder)


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _temps(folder: Path) -> list:
    return sorted(p.name for p in folder.rglob(".tmp-*"))


# -- item 2: an output that is, lies in or contains an input ------------------------------

def _overlapping(tmp_path: Path, how: str):
    src = tmp_path / "notes"
    if how == "equal":
        return src, src
    if how == "inside":
        return src, src / "out"
    if how == "containing":
        return src, tmp_path
    if how == "symlink":  # the same folder under another name
        (tmp_path / "alias").symlink_to(src, target_is_directory=True)
        return src, tmp_path / "alias"
    if how == "file-input":  # the folder holding the input file
        return src / "a.txt", src
    raise AssertionError(how)


@pytest.mark.parametrize("how", ["equal", "inside", "containing", "symlink", "file-input"])
@pytest.mark.parametrize("command", ["tag", "convert"])
def test_output_overlapping_an_input_is_refused_before_writing(tmp_path, capsys, how, command):
    before = _notes(tmp_path / "notes")
    src, out = _overlapping(tmp_path, how)
    if command == "tag":
        rc = tag.main(["--output-format", "text", "--output-dir", str(out), str(src), "--quiet"])
    else:
        rc = corpus.main(["convert", f"text:{src}", "--to", "text", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and "input" in err and "Traceback" not in err
    assert _snapshot(tmp_path / "notes") == before  # nothing written, nothing replaced
    assert not (tmp_path / "notes" / "out").exists()


@pytest.mark.parametrize("out, reason", [
    ("afile", "is a file"),                 # an output folder that is a file
    ("afile/sub", "is a file"),             # ... or that cannot be made
    ("MAPPING", "is a file"),               # an unwritable mapping path
])
def test_output_that_cannot_be_made_is_a_usage_error(tmp_path, capsys, out, reason):
    _notes(tmp_path / "notes")
    (tmp_path / "afile").write_text("x")
    argv = ["--output-format", "redacted", "--output-dir", str(tmp_path / out), "--quiet"]
    if out == "MAPPING":
        argv = ["--output-format", "surrogate", "--seed", "1", "-o", f"mapping={tmp_path / 'afile' / 'm.tsv'}",
                "--output-dir", str(tmp_path / "o"), "--quiet"]
    rc = tag.main([*argv, str(tmp_path / "notes")])
    err = capsys.readouterr().err
    assert rc == 2 and reason in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_convert_to_a_folder_that_is_a_file_exit_2(tmp_path, capsys):
    _notes(tmp_path / "notes")
    (tmp_path / "afile").write_text("x")
    rc = corpus.main(["convert", f"text:{tmp_path / 'notes'}", "--to", "i2b2", "--out",
                      str(tmp_path / "afile"), "--quiet"])
    assert rc == 2 and "is a file" in capsys.readouterr().err


def test_an_unwritable_file_written_at_the_end_is_a_message_not_a_traceback(tmp_path, capsys, data_dir):
    # corpus surrogate writes its PHI mapping last, through atomic_write
    (tmp_path / "afile").write_text("x")
    rc = corpus.main(["surrogate", f"i2b2:{data_dir / 'i2b2'}", "--out", str(tmp_path / "o"), "--seed", "1",
                      "--mapping", str(tmp_path / "afile" / "m.tsv"), "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot write (Not a directory)" in err and "m.tsv" in err


# -- item 3: colliding ids, pre-existing files ---------------------------------------------

@pytest.mark.parametrize("ids, name", [
    (("x/y", "x_y"), "x_y.txt"),          # the same name after file-name sanitising
    (("Note", "note"), "note.txt"),       # the same file on a case-insensitive file system
    (("same", "same"), "same.txt"),       # a repeated id
])
def test_colliding_documents_never_overwrite_each_other(tmp_path, ids, name):
    first = Document(ids[0], "first", [], {"source": "in.jsonl", "line": 1})
    second = Document(ids[1], f"second {SECRET}", [], {"source": "in.jsonl", "line": 2})
    with writer("text", tmp_path / "out") as w:
        w.write(first)
        with pytest.raises(OutputError) as exc:
            w.write(second)
    msg = str(exc.value)
    assert repr(ids[0]) in msg and repr(ids[1]) in msg and "line 1" in msg and "line 2" in msg
    assert SECRET not in msg
    [only] = list((tmp_path / "out").iterdir())
    assert only.read_text() == "first" and only.name.lower() == name.lower()


def test_brat_document_is_written_whole_or_not_at_all(tmp_path):
    (tmp_path / "n.ann").write_text("older")  # its .txt could be written, its .ann not: neither is
    with pytest.raises(OutputError, match="exists"):
        write([Document("n", "Dr. Lee", [make_span(4, 7, "DOCTOR")])], "brat", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.ann"]


def test_stream_writer_refuses_a_repeated_id(tmp_path):
    out = tmp_path / "o.jsonl"
    with writer("jsonl", out) as w:
        w.write(Document("a", "one"))
        with pytest.raises(OutputError, match="repeated"):
            w.write(Document("a", "two"))
    assert [d.text for d in read(f"jsonl:{out}")] == ["one"]



def test_write_documents_counts_what_was_made(tmp_path, monkeypatch):
    # corpus convert and corpus stress count through it: a document refused is an error and not counted;
    # a stream file whose closing step fails is not made, so none of its documents is counted
    import crfdeid.io.outputs as outputs
    from crfdeid.io import write_documents
    docs = [Document("a", "one"), Document("a", "two"), Document("b", "three")]
    errors: list = []
    assert write_documents(writer("jsonl", tmp_path / "ok.jsonl"), docs, errors) == 2
    assert len(errors) == 1 and "repeated" in errors[0]
    target, real = tmp_path / "late.jsonl", outputs.publish

    def made_meanwhile(tmp, path, overwrite):
        target.write_text("another run's output\n")
        return real(tmp, path, overwrite)
    monkeypatch.setattr(outputs, "publish", made_meanwhile)
    errors = []
    assert write_documents(writer("jsonl", target), docs[:1], errors) == 0
    assert [type(e) for e in errors] == [OutputError]
    assert target.read_text() == "another run's output\n"

def test_existing_files_are_replaced_only_when_asked(tmp_path):
    out = tmp_path / "out"
    write([Document("a", "old")], "text", out)
    with pytest.raises(OutputError, match="overwrite") as refused:
        write([Document("a", "new")], "text", out)
    # the message says how to replace, not that replacing was asked for
    assert "was not replaced (to replace it: --overwrite, or overwrite=True" in str(refused.value)
    assert (out / "a.txt").read_text() == "old"
    write([Document("a", "new")], "text", out, overwrite=True)
    assert (out / "a.txt").read_text() == "new"
    stream = tmp_path / "o.jsonl"
    write([Document("a", "old")], "jsonl", stream)
    with pytest.raises(OutputError, match="overwrite"):
        write([Document("a", "new")], "jsonl", stream)
    assert [d.text for d in read(f"jsonl:{stream}")] == ["old"]
    assert _temps(tmp_path) == []


def test_tag_twice_into_one_folder_needs_overwrite(tmp_path, capsys):
    _notes(tmp_path / "notes")
    argv = ["--output-format", "text", "--output-dir", str(tmp_path / "o"), str(tmp_path / "notes"), "--quiet"]
    assert tag.main(argv) == 0
    (tmp_path / "o" / "a.txt").write_text("edited by the user")
    assert tag.main(argv) == 2  # refused before any note is tagged (issue 36)
    assert "exist" in capsys.readouterr().err
    assert (tmp_path / "o" / "a.txt").read_text() == "edited by the user"
    assert tag.main([*argv, "--overwrite"]) == 0
    assert (tmp_path / "o" / "a.txt").read_text() == NOTE
    jsonl = ["--output-dir", str(tmp_path / "j"), str(tmp_path / "notes"), "--quiet"]
    assert tag.main(jsonl) == 0 and tag.main(jsonl) == 2  # tagged.jsonl exists: refused at once
    assert tag.main([*jsonl, "--overwrite"]) == 0


@pytest.mark.parametrize("fmt, argv, existing", [
    ("text", [], ["a.txt"]),
    ("brat", [], ["b.ann"]),  # one of a document's two files is enough
    ("surrogate", ["-o", "xml=true", "--seed", "1"], ["a.xml"]),
    ("text", ["-"], ["stdin.txt"]),  # standard input is read once and kept for the run
])
def test_a_rerun_is_refused_before_any_note_is_tagged(tmp_path, capsys, monkeypatch, fmt, argv, existing):
    """Issue 36: a re-run into a folder that holds its outputs tagged every note, then refused
    each write (exit 1 after the whole run); it is refused at once with the count and the fix,
    nothing tagged or written."""
    import io

    from crfdeid.tagging.session import Session
    _notes(tmp_path / "notes", ("a.txt", "b.txt", "c.txt"))
    out = tmp_path / "o"
    out.mkdir()
    for name in existing:
        (out / name).write_text("the user's file")
    before = _snapshot(out)
    stdin = "-" in argv
    if stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(NOTE.encode())))
    tagged = []
    original = Session.tag
    monkeypatch.setattr(Session, "tag",
                        lambda self, docs, jobs=1, *rest: (tagged.append(1), original(self, docs, jobs, *rest))[1])
    args = ["--output-format", fmt, "--output-dir", str(out), *argv]
    rc = tag.main([*args] if stdin else [*args, str(tmp_path / "notes")])
    err = capsys.readouterr().err
    assert rc == 2 and tagged == []
    assert f"{len(existing)} output file(s) of 1 document(s) exist" in err and "--overwrite" in err
    assert existing[0] in err and SECRET not in err and "failed:" not in err
    assert _snapshot(out) == before
    if not stdin:  # the other documents are written once the folder is clean
        (out / existing[0]).unlink()
        assert tag.main([*args, str(tmp_path / "notes"), "--quiet"]) == 0


@pytest.mark.parametrize("fmt, make", [
    ("jsonl", lambda p: p.write_text('{"id": "a", "text": "x"}\n{"id": "a", "text": "' + SECRET + '"}\n')),
    ("csv", lambda p: p.write_text(f'id,text\na,x\nb,y\na,{SECRET}\n')),
])
def test_readers_report_a_repeated_id_naming_both_sources(tmp_path, fmt, make):
    path = tmp_path / f"in.{fmt}"
    make(path)
    errors = []
    docs = list(read(f"{fmt}:{path}", errors=errors))
    assert [d.text for d in docs if d.doc_id == "a"] == ["x"]  # the first stands
    [err] = errors
    where = ("line 2", "line 1") if fmt == "jsonl" else ("row 3", "row 1")
    assert all(w in str(err) for w in where) and err.doc_id == "a" and SECRET not in str(err)


def test_text_files_differing_only_in_case_are_a_repeated_id(tmp_path):
    (tmp_path / "a.TXT").write_text("upper")
    (tmp_path / "a.txt").write_text("lower")
    errors = []
    assert [d.text for d in read(f"text:{tmp_path}", errors=errors)] == ["upper"]
    assert "a.txt" in str(errors[0]) and "a.TXT" in str(errors[0])


# -- item 8: temporary files never outlive a failure ---------------------------------------

def test_disk_full_mid_stream_leaves_no_file(tmp_path, monkeypatch):
    from crfdeid.io import files
    real, calls = os.write, []

    def full(fd, data):
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        return real(fd, data)
    monkeypatch.setattr(files.os, "write", full)
    out = tmp_path / "o.jsonl"
    with writer("jsonl", out) as w:
        w.write(Document("a", NOTE))
        with pytest.raises(OutputError, match="No space left"):
            w.write(Document("b", NOTE))
        with pytest.raises(OutputError, match="failed earlier"):  # half a line may be on disk
            w.write(Document("c", NOTE))
    assert list(tmp_path.iterdir()) == []


def _child(script: str, tmp_path: Path, **kwargs):
    import crfdeid  # the child runs the crfdeid these tests import
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(crfdeid.__file__).parents[1]),
                                                         os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120, check=False, **kwargs)


def test_file_size_limit_during_convert_leaves_no_temporary_file(tmp_path):
    """A real write error from the kernel (EFBIG past RLIMIT_FSIZE) in the middle of a run."""
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": f"n{i}", "text": NOTE * 50}) + "\n" for i in range(200)))
    script = ("import resource, signal, sys\n"
              "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
              "resource.setrlimit(resource.RLIMIT_FSIZE, (60000, 60000))\n"
              "from crfdeid.cli import corpus\n"
              f"sys.exit(corpus.main(['convert', 'jsonl:{src}', '--to', 'jsonl', '--out', 'out/o.jsonl', '-q']))\n")
    proc = _child(script, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "File too large" in proc.stderr and "Traceback" not in proc.stderr
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_a_signal_mid_run_removes_the_temporary_file(tmp_path, sig):
    script = ("import os, signal\n"
              f"signal.signal(signal.{sig}, signal.SIG_DFL)  # as a shell starts it (not under nohup)\n"
              "from crfdeid.document import Document\n"
              "from crfdeid.io import outputs, writer\n"
              "outputs.anonymous_temp_file = lambda path: None  # a named one, as without O_TMPFILE\n"
              "w = writer('jsonl', 'out.jsonl')\n"
              "w.__enter__()\n"
              f"w.write(Document('a', {NOTE!r}))\n"
              "assert [p for p in os.listdir('.') if p.startswith('.tmp-')]\n"
              f"os.kill(os.getpid(), signal.{sig})\n")
    proc = _child(script, tmp_path)
    assert proc.returncode == -getattr(signal, sig)  # still dies of the signal
    assert list(tmp_path.iterdir()) == []


def test_a_hangup_ignored_under_nohup_stays_ignored(tmp_path):
    script = ("import os, signal\n"
              "signal.signal(signal.SIGHUP, signal.SIG_IGN)  # nohup\n"
              "from crfdeid.document import Document\n"
              "from crfdeid.io import writer\n"
              "with writer('jsonl', 'out.jsonl') as w:\n"
              f"    w.write(Document('a', {NOTE!r}))\n"
              "    os.kill(os.getpid(), signal.SIGHUP)\n")
    proc = _child(script, tmp_path)
    assert proc.returncode == 0, proc.stderr  # the run goes on and its output is written
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_an_application_signal_handler_is_left_alone(tmp_path):
    script = ("import os, signal, sys\n"
              "signal.signal(signal.SIGTERM, lambda *a: sys.exit(7))\n"
              "from crfdeid.document import Document\n"
              "from crfdeid.io import writer\n"
              "with writer('jsonl', 'out.jsonl') as w:\n"
              "    w.write(Document('a', 'x'))\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n")
    proc = _child(script, tmp_path)
    assert proc.returncode == 7 and list(tmp_path.iterdir()) == []  # its exit still cleans up


def _killed_mid_stream(tmp_path: Path, named: bool = False):
    """A child that writes one note to ``out/o.jsonl`` and is killed (SIGKILL) before closing;
    ``named``: with a named temporary file, as where the system has no ``O_TMPFILE``."""
    script = ("import os, signal\n"
              "from crfdeid.document import Document\n"
              "from crfdeid.io import outputs, writer\n"
              + ("outputs.anonymous_temp_file = lambda path: None\n" if named else "")
              + "w = writer('jsonl', 'out/o.jsonl')\n"
              "w.__enter__()\n"
              f"w.write(Document('a', {NOTE!r}))\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    return _child(script, tmp_path)


def test_a_killed_runs_temporary_file_is_removed_by_the_next_run(tmp_path, capsys):
    """SIGKILL leaves a ``.tmp-`` file with note text (issue 36): the next writer into that folder
    removes it (its process is gone) and names a temporary file it cannot place."""
    assert _killed_mid_stream(tmp_path, named=True).returncode == -signal.SIGKILL
    [left] = _temps(tmp_path / "out")
    assert SECRET in (tmp_path / "out" / left).read_text()
    (tmp_path / "out" / ".tmp-foreign").write_text("?")  # no process id: not known to be stale
    with writer("jsonl", tmp_path / "out" / "p.jsonl") as w:
        w.write(Document("b", "x"))
    err = capsys.readouterr().err
    assert _temps(tmp_path / "out") == [".tmp-foreign"]
    assert "removed 1 temporary file(s)" in err and left in err and ".tmp-foreign" in err
    assert SECRET not in err


def test_a_users_file_named_like_a_temporary_file_is_never_removed(tmp_path, capsys):
    """Issue 52: a user's file named like crfdeid's temporary files, with the number of a process
    that is gone, was deleted as stale. Only files crfdeid marked as its own are removed."""
    out = tmp_path / "out"
    out.mkdir()
    mine = out / ".tmp-notes-999999"  # process 999999 runs nowhere here
    mine.write_text("the user's own file")
    with writer("jsonl", out / "p.jsonl") as w:
        w.write(Document("b", "x"))
    assert mine.read_text() == "the user's own file"
    assert ".tmp-notes-999999" in capsys.readouterr().err  # named, never removed


def test_a_stream_output_made_meanwhile_counts_documents_not_the_close(tmp_path, capsys, monkeypatch):
    """Two runs into one output: the later one to finish finds the file made and keeps it; it
    reports its notes as not written, not one failure more than it has notes (was 301 of 300)."""
    import crfdeid.io.outputs as outputs
    _notes(tmp_path / "notes")
    target = tmp_path / "o" / "tagged.jsonl"
    real = outputs.publish

    def other_run_first(tmp, path, overwrite):
        target.write_text("the other run's output\n")
        return real(tmp, path, overwrite)
    monkeypatch.setattr(outputs, "publish", other_run_first)
    rc = tag.main(["--output-dir", str(tmp_path / "o"), str(tmp_path / "notes")])
    err = capsys.readouterr().err
    assert rc == 1 and "tagged 0 document(s), 2 failed; the output was not completed" in err
    assert target.read_text() == "the other run's output\n" and _temps(tmp_path / "o") == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="O_TMPFILE is Linux's")
def test_a_killed_stream_run_leaves_nothing_on_disk(tmp_path):
    """Where the system allows, a stream output's temporary file has no name until it is
    complete: SIGKILL mid-run leaves no file, so nothing readable (issue 36)."""
    from crfdeid.io.files import anonymous_temp_file
    fd = anonymous_temp_file(tmp_path / "probe")
    if fd is None:
        pytest.skip("no O_TMPFILE on this file system")
    os.close(fd)
    assert _killed_mid_stream(tmp_path).returncode == -signal.SIGKILL
    assert list((tmp_path / "out").iterdir()) == []
    with writer("jsonl", tmp_path / "out" / "o.jsonl") as w:  # and a complete run is published
        w.write(Document("a", NOTE))
    assert [d.text for d in read(f"jsonl:{tmp_path / 'out' / 'o.jsonl'}")] == [NOTE]
    assert _temps(tmp_path / "out") == []
