"""``python -m crfdeid spark`` in local mode as a scheduler runs it: in a fresh process (a JVM
of its own), from an interpreter that is not the ``python3`` on PATH, crashed and killed.

Each test that starts Spark is slow (a JVM and a session: seconds on a quiet machine) and
bounded: every wait has a deadline.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pandas", reason="the spark extra is not installed (pip install crfdeid[spark])")

from crfdeid.io import read  # noqa: E402
from crfdeid.spark.local import private_local_dir, remove_stale  # noqa: E402

ROOT = Path(__file__).parent.parent
MARKER = "Qzxmarkname"  # a made-up name in every note: it must not be readable on disk
pytestmark = pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning")

# Runs the command after recording what the local session is made with (settings, folder).
CHILD = """
import json, sys
from crfdeid.cli import spark as cli
from crfdeid.spark import local
made = local.local_session
def spy(master, folder):
    import os
    session = made(master, folder)
    conf = dict(session.sparkContext.getConf().getAll())
    print(json.dumps({"conf": conf, "folder": str(folder), "mode": os.stat(folder).st_mode,
                      "python": session.sparkContext.pythonExec}), flush=True)
    return session
local.local_session = spy
sys.exit(cli.main(sys.argv[1:]))
"""


def _notes(path: Path, n: int) -> Path:
    lines = [json.dumps({"id": d.doc_id, "patient": d.group, "text": f"{MARKER} Smith was seen. {d.text}"})
             for d in read(f"synth:{n},13")]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _env(tmp_path, **extra) -> dict:
    """This environment with a ``python3`` on PATH that cannot run a Spark worker."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "python3").write_text("#!/bin/sh\necho 'not the Python of crfdeid' >&2\nexit 1\n")
    (fake / "python3").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "SPARK_LOCAL_DIRS")}
    return dict(env, PATH=f"{fake}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
                OPENBLAS_NUM_THREADS="1", **extra)


def _spark(tmp_path, args, env, timeout=900):
    pytest.importorskip("pyspark")
    return subprocess.run([sys.executable, "-c", CHILD, *args], env=env, capture_output=True,
                          text=True, timeout=timeout, cwd=tmp_path)


def test_the_local_folder_is_private_and_killed_runs_folders_go(tmp_path):
    base = tmp_path / "base"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    run = private_local_dir(base)
    assert run.name == f"run-{os.getpid()}" and stat.S_IMODE(run.stat().st_mode) == 0o700
    assert stat.S_IMODE(run.parent.stat().st_mode) == 0o700
    stale, alive = run.parent / f"run-{dead.pid}", run.parent / f"run-{os.getppid()}"
    stale.mkdir()
    alive.mkdir()
    remove_stale(base)
    assert not stale.exists() and alive.exists() and run.exists()
    run.parent.chmod(0o755)  # a folder others may read is refused, not used
    from crfdeid.errors import ConfigError
    with pytest.raises(ConfigError, match="not a private folder"):
        private_local_dir(base)


@pytest.mark.slow
def test_workers_run_the_drivers_python_with_encrypted_private_local_files(tmp_path):
    src, dest, base = _notes(tmp_path / "in.jsonl", 6), tmp_path / "out", tmp_path / "base"
    done = _spark(tmp_path, ["--input", str(src), "--output", str(dest), "--master", "local[1]",
                             "--local-dir", str(base), "--quiet"], _env(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    made = json.loads(done.stdout.splitlines()[0])
    assert made["python"] == sys.executable  # not the python3 on PATH
    conf = made["conf"]
    assert conf["spark.io.encryption.enabled"] == "true" and conf["spark.local.dir"] == made["folder"]
    assert conf["spark.driver.host"] == "127.0.0.1" and conf["spark.ui.enabled"] == "false"
    assert Path(made["folder"]).parent == base / f"crfdeid-spark-{os.getuid()}"
    assert stat.S_IMODE(made["mode"]) == 0o700
    assert not Path(made["folder"]).exists()  # removed at the end
    assert (dest / "_SUCCESS").exists() and not Path(f"{dest}.incomplete").exists()


@pytest.mark.slow
def test_a_failed_job_exits_3_and_writes_nothing(tmp_path):
    src, dest = _notes(tmp_path / "in.jsonl", 3), tmp_path / "out"
    env = _env(tmp_path)
    env["PYSPARK_PYTHON"] = str(tmp_path / "bin" / "python3")  # the user's choice, and a bad one
    done = _spark(tmp_path, ["--input", str(src), "--output", str(dest), "--master", "local[1]",
                             "--local-dir", str(tmp_path / "base")], env)
    assert done.returncode == 3, done.stderr[-3000:]
    assert "error: the Spark job failed" in done.stderr and "(exit code 3)" in done.stderr
    assert "PYSPARK_PYTHON" in done.stderr and MARKER not in done.stderr
    assert not dest.exists() and not Path(f"{dest}.incomplete").exists()


@pytest.mark.slow
def test_a_killed_run_leaves_no_readable_note_and_no_output(tmp_path):
    src, dest, base = _notes(tmp_path / "in.jsonl", 300), tmp_path / "out", tmp_path / "base"
    log = tmp_path / "log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "crfdeid", "spark", "--input", str(src),
                                 "--output", str(dest), "--output-format", "surrogate", "--seed", "7",
                                 "--master", "local[1]", "--local-dir", str(base)],
                                env=_env(tmp_path), stdout=fh, stderr=subprocess.STDOUT,
                                start_new_session=True)  # driver, JVM and workers: one group to kill
    run = base / f"crfdeid-spark-{os.getuid()}" / f"run-{proc.pid}"
    shuffled: list = []
    try:
        deadline = time.monotonic() + 600
        while not shuffled and proc.poll() is None and time.monotonic() < deadline:
            shuffled = [p for p in run.rglob("shuffle_*.data") if p.stat().st_size] if run.exists() else []
            time.sleep(0.05)
        mode = stat.S_IMODE(run.stat().st_mode) if run.exists() else None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # a hard kill: nothing cleans up
        proc.wait(timeout=60)
    assert shuffled, f"no shuffle file before the job ended: {log.read_text()[-2000:]}"
    assert mode == 0o700
    assert not dest.exists()  # only ever renamed into place once complete
    left = [p for p in run.rglob("*") if p.is_file()]
    assert left and not [p for p in left if MARKER.encode() in p.read_bytes()]  # encrypted
    assert [p for p in left if b"Smith was seen" in p.read_bytes()] == []
    remove_stale(base)  # what the next run does first
    assert not run.exists()
