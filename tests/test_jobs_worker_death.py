"""``tag --jobs N``: a worker killed (``kill -9``, out of memory) ends the run with a named failure
and the notes written so far kept; the parent never waits for it forever (issue 52)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from crfdeid.io.runmanifest import notes_only
from crfdeid.tagging.workers import usable_cores

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="forked workers and SIGKILL"),
              pytest.mark.skipif(usable_cores() < 2, reason="--jobs 2 is clamped to 1 on one core: no worker")]

SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from crfdeid.tagging import session
    parent = os.getpid()
    real = session._tag_batch

    def dying(docs, own=None):
        if os.getpid() != parent:  # a worker: killed as the OOM killer or kill -9 would
            os.kill(os.getpid(), signal.SIGKILL)
        return real(docs, own)

    session._tag_batch = dying
    from crfdeid.cli import main
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.slow
def test_a_killed_worker_is_named_and_the_run_ends(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(40):
        (notes / f"n{i:02d}.txt").write_text(f"Seen by Dr. Lee on 7/22/2098, visit {i}.\n" * 30, encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", SCRIPT, "tag", str(notes), "--jobs", "2", "--site-mining", "off",
                           "--output-format", "redacted", "--output-dir", str(out)],
                          capture_output=True, text=True, timeout=240)  # a hang fails here
    assert done.returncode == 1
    assert "a worker process of --jobs 2 died" in done.stderr and "Traceback" not in done.stderr
    assert "Lee" not in done.stderr
    written = notes_only(out.iterdir()) if out.exists() else []  # the run manifest, marked incomplete, is not a note
    assert all(p.read_text(encoding="utf-8").count("[**DOCTOR**]") == 30 for p in written)  # complete files only
    assert len(written) < 40


PARENT = textwrap.dedent("""
    import os, sys, time
    from crfdeid.tagging import session
    parent = os.getpid()
    real = session._tag_batch

    def slow(docs, own=None):
        if os.getpid() != parent:  # a worker: says who it is, then takes its time (a long batch)
            with open(sys.argv[1], "a") as f:
                f.write(f"{os.getpid()}\\n")
            time.sleep(120)
        return real(docs, own)

    session._tag_batch = slow
    from crfdeid.cli import main
    sys.exit(main(sys.argv[2:]))
""")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie is dead, awaiting its reaper
    except FileNotFoundError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl")
@pytest.mark.parametrize("signum", ["SIGKILL", "SIGTERM"])
def test_no_worker_outlives_a_killed_parent(tmp_path, signum):
    """Issue 61: a ``tag --jobs 2`` parent killed (SIGKILL, SIGTERM) left its worker alive, adopted
    by init, with the notes in memory; now the worker ends with it."""
    import os
    import signal
    import time

    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(40):
        (notes / f"n{i:02d}.txt").write_text(f"Seen by Dr. Lee on 7/22/2098, visit {i}.\n" * 30, encoding="utf-8")
    pids = tmp_path / "workers"
    proc = subprocess.Popen([sys.executable, "-c", PARENT, str(pids), "tag", str(notes), "--jobs", "2",
                             "--site-mining", "off", "--output-format", "redacted", "--output-dir",
                             str(tmp_path / "out")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = [int(p) for p in pids.read_text().split()]
        assert workers and all(_alive(w) for w in workers)
        proc.send_signal(getattr(signal, signum))
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers)
    finally:
        proc.kill()
        for w in [int(p) for p in pids.read_text().split()] if pids.exists() else []:
            if _alive(w):
                os.kill(w, signal.SIGKILL)


def test_jobs_are_clamped_to_the_cores(monkeypatch, capsys):
    from crfdeid.tagging import workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert workers.bound_jobs(100_000) == 2 and workers.bound_jobs(2) == 2 and workers.bound_jobs(1) == 1
    assert "--jobs 100000 is more than the 2 core(s)" in capsys.readouterr().err


class _Capped(Exception):
    pass


@pytest.mark.parametrize("module, argv", [
    ("ablate", ["a.yaml"]), ("crossval", ["--config", "c.yaml"]), ("curve", ["--config", "c.yaml"]),
    ("figures", ["--config", "c.yaml"]),
    ("experiments", ["dev-cv", "--config", "c.yaml", "--cache", "k", "--out", "o"])])
def test_commands_that_train_in_processes_cap_jobs_first(monkeypatch, module, argv):
    # each command's --jobs goes through the one cap before any work starts
    import importlib

    from crfdeid import cli
    command = importlib.import_module(f"crfdeid.cli.{module}")
    seen = []

    def cap(args):
        seen.append(args.jobs)
        raise _Capped

    monkeypatch.setattr(cli, "cap_jobs", cap)  # every command calls it as cli.cap_jobs
    with pytest.raises(_Capped):
        command.main([*argv, "--jobs", "9"])
    assert seen == [9]


def test_cap_jobs_clamps_the_option_where_a_command_has_it(monkeypatch, capsys):
    import argparse

    from crfdeid import cli
    from crfdeid.tagging import workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    many, one, none = argparse.Namespace(jobs=9), argparse.Namespace(jobs=1), argparse.Namespace()
    for args in (many, one, none):
        cli.cap_jobs(args)
    assert (many.jobs, one.jobs, vars(none)) == (2, 1, {})
    assert "--jobs 9 is more than the 2 core(s)" in capsys.readouterr().err
