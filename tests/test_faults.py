"""Issue 61: every fault of the program one named line with an exit code, never a traceback, and
nothing half written: a full disk at the run manifest, ``--log /dev/full``, a path too long, a
closed standard output, Ctrl-C, a key file that is a device, ``serve --port 70000``; the HTTP
service answers 422 (not 500) for a body whose records cannot be read or written back."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from crfdeid.cli import main
from crfdeid.io.runmanifest import RUN_MANIFEST, notes_only

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX descriptors and signals")
NOTE = "Seen by Dr. Lee on 7/22/2098.\n"


def _program(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crfdeid", *args], capture_output=True, text=True, timeout=180,
                          **kwargs)


@pytest.fixture
def note(tmp_path):
    path = tmp_path / "n.txt"
    path.write_text(NOTE, encoding="utf-8")
    return path


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_log_that_cannot_be_written_is_named_with_exit_3(tmp_path, note):
    done = _program("tag", str(note), "--output-format", "redacted", "--output-dir", str(tmp_path / "o"),
                    "--log", "/dev/full")
    assert done.returncode == 3 and "Traceback" not in done.stderr and "Logging error" not in done.stderr
    assert "cannot write the log '/dev/full' (No space left on device)" in done.stderr
    assert (tmp_path / "o" / "n.txt").read_text(encoding="utf-8").count("[**DOCTOR**]") == 1  # the notes are whole


def test_a_path_too_long_is_named_with_exit_2(tmp_path, note):
    done = _program("tag", str(note), "--output-format", "redacted", "--output-dir", str(tmp_path / ("d" * 5000)))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "ENAMETOOLONG" in done.stderr and "characters" in done.stderr and "d" * 300 not in done.stderr


@posix
def test_a_closed_standard_output_is_named_with_exit_3(tmp_path, note):
    done = _program("tag", str(note), "--output-format", "redacted", preexec_fn=lambda: os.close(1))
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert "standard output is closed" in done.stderr and "Lee" not in done.stderr
    out = tmp_path / "o"  # with --output-dir the closed standard output is no matter
    done = _program("tag", str(note), "--output-format", "redacted", "--output-dir", str(out),
                    preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and (out / "n.txt").read_text(encoding="utf-8").count("[**DOCTOR**]") == 1


INTERRUPTED = textwrap.dedent("""
    import os, signal, sys
    from crfdeid.tagging import model
    real = model.TaggingModel.tag_each

    def tag_each(self, docs, *args, **kwargs):  # Ctrl-C as the sixth note is tagged
        for i, result in enumerate(real(self, docs, *args, **kwargs)):
            if i == 5:
                os.kill(os.getpid(), signal.SIGINT)
            yield result

    model.TaggingModel.tag_each = tag_each
    from crfdeid.cli import main
    sys.exit(main())  # reads sys.argv: runs as the program does
""")


@posix
def test_ctrl_c_exits_130_with_a_message_and_nothing_half_written(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(30):
        (notes / f"n{i:02d}.txt").write_text(f"Seen by Dr. Lee on 7/22/2098, visit {i}.\n" * 20, encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", INTERRUPTED, "tag", str(notes), "--output-format", "redacted",
                           "--site-mining", "off", "--output-dir", str(out)], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 130 and "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr
    assert "interrupted (Ctrl-C)" in done.stderr and "Lee" not in done.stderr
    names = [p.name for p in out.iterdir()]
    assert not [n for n in names if n.startswith(".tmp-")]  # no temporary file left
    written = notes_only(names)
    assert len(written) < 30
    assert all((out / n).read_text(encoding="utf-8").count("[**DOCTOR**]") == 20 for n in written)  # whole files
    assert json.loads((out / RUN_MANIFEST).read_text(encoding="utf-8"))["complete"] is False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="/proc names a descriptor's file")
@pytest.mark.parametrize("when", ["start", "end"])
def test_a_full_disk_at_the_run_manifest_is_named(tmp_path, note, monkeypatch, capsys, when):
    from crfdeid.io import files
    real, calls = files.write_all, []

    def full(fd, data):  # ENOSPC for the manifest's temporary file, as a full file system gives
        if RUN_MANIFEST in os.readlink(f"/proc/self/fd/{fd}"):
            calls.append(fd)
            if when == "start" or len(calls) == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(files, "write_all", full)
    out = tmp_path / "o"
    code = main(["tag", str(note), "--output-format", "redacted", "--output-dir", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    if when == "start":  # before any note is tagged: nothing is written
        assert code == 2 and notes_only(p.name for p in out.iterdir()) == [] if out.exists() else code == 2
    else:  # the notes are written; the manifest stays marked incomplete
        assert code == 3 and "the run manifest was not written" in err
        assert json.loads((out / RUN_MANIFEST).read_text(encoding="utf-8"))["complete"] is False
    assert not [p for p in (out.iterdir() if out.exists() else ()) if p.name.startswith(".tmp-")]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_key_file_that_is_a_device_is_named(note, capsys):
    assert main(["tag", str(note), "--output-format", "surrogate", "--key-file", "/dev/zero"]) == 2
    assert "character device, not a file: not read" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["serve"], ["review", "serve", "project"]])
def test_a_port_out_of_range_is_a_usage_error(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--port", "70000"])
    assert stop.value.code == 2 and "a port is a number from 0 to 65535" in capsys.readouterr().err


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from crfdeid.serve.app import Settings, create_app
    with TestClient(create_app(Settings(max_bytes=100_000)), raise_server_exceptions=False) as c:
        yield c


def test_the_service_answers_422_for_a_record_it_cannot_read(client, monkeypatch):
    from crfdeid.serve import records

    def broken(files, report):  # a reader that meets what it did not foresee (a 5,000-digit number...)
        raise ValueError("Exceeds the limit for integer string conversion: Dorsey")
        yield

    monkeypatch.setitem(records.KINDS, "fhir", (broken, *records.KINDS["fhir"][1:]))
    r = client.post("/v1/fhir", content=b'{"resourceType": "Patient", "id": "p1"}')
    assert r.status_code == 422 and "cannot be read (ValueError)" in r.text and "Dorsey" not in r.text


def test_the_service_answers_422_for_a_record_it_cannot_write_back(client, monkeypatch):
    from crfdeid.errors import ReaderError
    from crfdeid.serve import records

    class Refusing:
        def __init__(self, *args, **kwargs):
            self.rendered = []

        def write(self, doc):
            raise ReaderError("a value of this record cannot be written back", doc_id=doc.doc_id)

    monkeypatch.setattr(records, "writer_class", lambda fmt: Refusing)
    r = client.post("/v1/fhir", content=json.dumps({"resourceType": "Observation", "id": "o1",
                                                    "valueString": "Seen by Kevin Dorsey"}).encode())
    assert r.status_code == 422 and "cannot be written back" in r.text and "Dorsey" not in r.text


def test_the_service_answers_422_for_a_lone_surrogate(client):
    body = '{"resourceType": "Observation", "id": "o1", "valueString": "Seen \\ud800 by Kevin Dorsey"}'
    r = client.post("/v1/fhir", content=body.encode())
    assert r.status_code == 422 and "Dorsey" not in r.text


def test_interrupt_signal_is_the_default_in_the_program():
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # else Ctrl-C would do nothing
