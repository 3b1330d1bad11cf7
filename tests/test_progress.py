"""Progress of the long commands (issue 36): a bar on a terminal only, a line per step in
``--log FILE`` (counts and times, never note text), and ``--help`` saying what takes long."""

from __future__ import annotations

import logging

import pytest

from crfdeid import progress
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
    assert any(line.endswith("tag: started") for line in lines)
    assert any("tag: done, 3 docs in" in line for line in lines)
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
