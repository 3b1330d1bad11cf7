"""Progress of the long commands (issue 36): a bar on a terminal only, a line per step in
``--log FILE`` (counts and times, never note text), and ``--help`` saying what takes long."""

from __future__ import annotations

import logging

import pytest

from crfdeid import progress
from crfdeid.progress import Progress
from crfdeid.cli import main

LONG = ["tag", "train", "adapt", "crossval", "figures", "spark"]
NOTE = "Mr. Quillonard Vexby was seen by Dr. Tamsin Orrell on 7/22/2098 at Harwick Mercy.\n"


@pytest.mark.parametrize("command", LONG)
def test_help_says_what_takes_long_and_offers_a_log(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "takes long:" in text and "--log FILE" in text and "--quiet" in text


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "run.log"
    yield path
    progress.log_to(None)


def test_tag_logs_its_steps_and_never_the_notes(tmp_path, log, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.txt").write_text(NOTE, encoding="utf-8")
    assert main(["tag", "--log", str(log), "--output-format", "redacted", "--output-dir", str(tmp_path / "out"),
                 str(notes)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert any(line.endswith("tag: started (3 notes)") for line in lines)  # the notes counted first
    # a plain line as each phase starts and ends: site mining (on by default) holds the output
    for phase in ("tagging; output after site mining started (3 notes)", "tagging; output after site mining done, 3 notes",
                  "site mining started", "site mining done in", "writing started (3 notes)", "writing done, 3 notes"):
        assert any(f"tag: {phase}" in line for line in lines), phase
    assert any("tag: 3 document(s) written, 0 failed" in line for line in lines)
    text = log.read_text(encoding="utf-8")
    assert not any(word in text for word in ("Quillonard", "Vexby", "Orrell", "Harwick", "2098"))
    assert "\r" not in capsys.readouterr().err  # standard error is no terminal here: no bar


def test_train_logs_featurizing_and_the_iterations(tmp_path, log):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("train: ['synth:4,1']\ncrf: {max_iterations: 10}\n", encoding="utf-8")
    assert main(["train", "--config", str(cfg), "--output", str(tmp_path / "m"), "--quiet",
                 "--log", str(log)]) == 0
    text = log.read_text(encoding="utf-8")
    for line in ("featurize: started (4 docs)", "featurize: done, 4 docs", "train: started (10 iterations)",
                 "train: 5 of 10 iterations (50%)", "train: model saved"):
        assert line in text, line


def test_a_bar_only_on_a_terminal_and_never_with_quiet(monkeypatch, capsys, caplog):
    caplog.set_level(logging.INFO, logger="crfdeid")
    monkeypatch.setattr(progress, "_terminal", lambda: True)
    with progress.Progress("step", 4, "doc", enabled=True) as p:
        p.update(4)
    assert "step" in capsys.readouterr().err
    with progress.Progress("quiet step", 4, "doc", enabled=False) as p:
        p.update(4)
    assert capsys.readouterr().err == ""
    assert "quiet step: done, 4 docs" in caplog.text  # the log has it either way


def test_tag_progress_shows_total_phase_and_time_left_when_asked(tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(4):
        (notes / f"n{i}.txt").write_text(NOTE, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["tag", "--progress", "--site-mining", "off", "--output-format", "redacted", "--output-dir",
                 str(out), str(notes)]) == 0
    err = capsys.readouterr().err
    assert "tag (tagging)" in err and "4/4" in err  # the phase and the total
    assert "<00:00" in err  # elapsed<left: tqdm's time left, known from the total
    assert "Quillonard" not in err


def test_site_mining_phases_on_the_display(tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(2):
        (notes / f"n{i}.txt").write_text(NOTE, encoding="utf-8")
    assert main(["tag", "--progress", "--output-format", "redacted", "--output-dir", str(tmp_path / "o"),
                 str(notes)]) == 0
    err = capsys.readouterr().err
    assert err.index("output after site mining") < err.index("tag (site mining)") < err.index("tag (writing)")


def test_phase_restarts_the_count_and_logs_each_phase(log):
    from crfdeid.progress import log_to
    log_to(log)
    try:
        with Progress("job", 3, "note", enabled=False) as p:
            p.phase("reading", 3)
            p.update(3)
            p.phase("counting")
            assert (p.n, p.total) == (0, None)
    finally:
        log_to(None)
    text = log.read_text(encoding="utf-8")
    assert "job: reading started (3 notes)" in text and "job: reading done, 3 notes in" in text
    assert "job: counting started" in text and "job: counting done in" in text


@pytest.mark.parametrize("kind, files, expected", [
    ("text", {"a.txt": "x", "b.txt": "y", "c.csv": "z"}, 2),
    ("jsonl", {"n.jsonl": '{"id": "a", "text": "x"}\n\n{"id": "b", "text": "y"}\n{"id": "c", "text": "z"}'}, 3),
])
def test_count_documents_of_folders_and_jsonl(tmp_path, kind, files, expected):
    from crfdeid.tagging.inputs import count_documents
    for name, content in files.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    spec = str(tmp_path) if kind == "text" else str(tmp_path / "n.jsonl")
    assert count_documents([spec], kind) == expected
    assert count_documents([spec, "-"], kind) is None  # standard input cannot be counted ahead
    assert count_documents([spec], "brat") is None  # other formats: a count and a rate, no total
