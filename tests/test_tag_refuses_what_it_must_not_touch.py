"""``tag`` refuses, before it reads or writes a note: a ``--log`` that is, lies in or contains
an input or an output; an input folder holding a link into the output folder (``--overwrite``
would replace the linked note); a ``--model`` that is no regular file, too large or without
the magic bytes (``/dev/zero`` read without bound and ended in a MemoryError)."""

from __future__ import annotations

import os

import pytest

from crfdeid import progress
from crfdeid.cli import tag
from crfdeid.tagging import modelfile

NOTE = "Seen by Dr. Quillonard Vexby on 03/14/2098.\n"


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(NOTE, encoding="utf-8")
    yield folder
    progress.log_to(None)


@pytest.mark.parametrize("log, why", [
    ("in/a.txt", "lies inside the input"),     # the note itself: log lines appended to it
    ("in/new.log", "lies inside the input"),   # a new file in an input folder
    ("out/run.log", "lies inside the output"),  # among the outputs (made by this run)
    (".", "contains the input"),
])
def test_a_log_that_meets_an_input_or_an_output_is_refused(tmp_path, notes, capsys, log, why):
    rc = tag.main([str(notes), "--log", str(tmp_path / log), "--output-dir", str(tmp_path / "out"), "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert why in err and "log file" in err and "Quillonard" not in err
    assert (notes / "a.txt").read_text(encoding="utf-8") == NOTE
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_a_log_given_as_a_note_file_is_refused(tmp_path, notes, capsys):
    rc = tag.main([str(notes / "a.txt"), "--log", str(notes / "a.txt"), "--output-dir", str(tmp_path / "out")])
    assert rc == 2 and "the log file is the input" in capsys.readouterr().err
    assert (notes / "a.txt").read_text(encoding="utf-8") == NOTE


def test_a_log_apart_from_inputs_and_outputs_is_written(tmp_path, notes):
    log = tmp_path / "logs" / "run.log"
    log.parent.mkdir()
    assert tag.main([str(notes), "--log", str(log), "--output-dir", str(tmp_path / "out"), "--quiet"]) == 0
    assert "tag: started" in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("overwrite", [True, False])
def test_an_input_link_into_the_output_folder_is_refused(tmp_path, notes, capsys, overwrite):
    out = tmp_path / "out"
    out.mkdir()
    (out / "b.txt").write_text(NOTE, encoding="utf-8")
    os.symlink(out / "b.txt", notes / "b.txt")  # read as the input note b, written as out/b.txt
    rc = tag.main([str(notes), "--output-format", "redacted", "--output-dir", str(out), "--quiet",
                   *(["--overwrite"] if overwrite else [])])
    assert rc == 2
    assert "through the link" in capsys.readouterr().err
    assert (out / "b.txt").read_text(encoding="utf-8") == NOTE and sorted(os.listdir(out)) == ["b.txt"]


def test_a_link_to_a_folder_inside_the_output_is_refused(tmp_path, notes, capsys):
    out = tmp_path / "out"
    (out / "kept").mkdir(parents=True)
    os.symlink(out / "kept", notes / "more")
    assert tag.main([str(notes), "--output-dir", str(out), "--overwrite", "--quiet"]) == 2
    assert "through the link" in capsys.readouterr().err


def _fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("model, message", [
    (lambda tmp: "/dev/zero", "not a regular file"),
    (_fifo, "not a regular file"),               # opening it would wait for a writer
    (lambda tmp: tmp, "is a folder"),
    (lambda tmp: tmp / "in" / "a.txt", "bad magic bytes"),
])
def test_a_model_that_is_not_a_model_file_is_refused_at_the_boundary(tmp_path, notes, capsys, model, message):
    rc = tag.main([str(notes), "--model", str(model(tmp_path)), "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_model_file_larger_than_the_limit_is_not_read(tmp_path, notes, capsys, monkeypatch):
    big = tmp_path / "big.model"
    big.write_bytes(modelfile.MAGIC + b"\0" * 100)
    monkeypatch.setattr(modelfile, "MAX_MODEL_BYTES", 64)
    assert tag.main([str(notes), "--model", str(big), "--quiet"]) == 2
    assert "larger than any crfdeid model file" in capsys.readouterr().err


def test_a_site_mining_file_that_meets_an_input_is_refused_even_with_overwrite(tmp_path, notes, capsys):
    """``--site-mining-save`` writes PHI lists: never over a note, whatever ``--overwrite`` says."""
    rc = tag.main([str(notes), "--site-mining-save", str(notes / "a.txt"), "--overwrite",
                   "--output-dir", str(tmp_path / "out"), "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "--site-mining-save file" in err and "Quillonard" not in err
    assert (notes / "a.txt").read_text(encoding="utf-8") == NOTE
