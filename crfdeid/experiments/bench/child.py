"""Work run in a fresh process, so that its peak RSS and time are its own.

``python -m crfdeid.experiments.bench.child train CONFIG OUTPUT TRAIN_SPEC [MAX_ITER]`` trains a
model on ``TRAIN_SPEC`` with ``CONFIG`` and saves it; ``... tag MODEL SPEC OUT_DIR
[JOBS [BACKEND]]`` runs the tag CLI. Both print one JSON line: ``seconds`` (wall clock of
the work, interpreter start-up excluded), ``cpu_seconds`` (user + system, workers
included), ``peak_rss_mb`` (``VmHWM`` of this process) and ``children_peak_rss_mb``
(largest ``--jobs`` worker, ``ru_maxrss``: it counts pages shared with this process).
"""

from __future__ import annotations

import json
import os
import resource
import runpy
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...config import load_config
from ...crf import train_model

#: The folder holding the ``crfdeid`` package (a checkout's root, or site-packages): the
#: child processes run there and import this very copy of crfdeid.
ROOT = Path(__file__).resolve().parents[3]


def _train(config, output, spec, max_iter=None) -> dict:
    overrides: dict[str, Any] = {"train": [spec]}
    if max_iter:
        overrides["crf"] = {"max_iterations": int(max_iter)}
    cfg = load_config(config, overrides)
    t0 = time.perf_counter()
    model = train_model(None, cfg)
    seconds = time.perf_counter() - t0
    model.save(output)
    st = model.stats
    return {"seconds": round(seconds, 2), "documents": st.get("documents"),
            "tokens": st.get("tokens"), "features": st.get("features"),
            "iterations": st.get("iterations"), "featurize_seconds": st.get("featurize_seconds"),
            "crfsuite_seconds": st.get("train_seconds")}


def _tag(model, spec, out_dir, jobs=1, backend="numpy") -> dict:
    t0 = time.perf_counter()
    rc = _command(["tag", "--model", model, "--output-format", "i2b2", "--output-dir", out_dir,
                   "--jobs", str(jobs), "--backend", backend, "--quiet", spec])
    return {"seconds": round(time.perf_counter() - t0, 2), "exit_code": rc}


def _command(argv: list[str]) -> int:
    """Run ``python -m crfdeid ARGV`` in this process (its memory is what is measured), as a
    program through its entry point: the exit code."""
    saved = sys.argv
    sys.argv = ["crfdeid", *map(str, argv)]
    try:
        runpy.run_module("crfdeid", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = saved
    return 0


def peak_rss_mb() -> float:
    """Peak RSS of this process since its ``exec`` (``VmHWM``).

    ``ru_maxrss`` is not used for the process itself: Linux carries it over
    ``fork``/``exec``, so a child of a big parent would report the parent's size.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def measure(argv=None) -> int:
    """Do one step (``train`` or ``tag`` and its arguments), print its figures as JSON; the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    works: dict[str, Callable[..., dict]] = {"train": _train, "tag": _tag}
    work = works[argv[0]]
    out = work(*argv[1:])
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds (user + system) say what the work costs on a machine shared with other jobs.
    out.update(peak_rss_mb=peak_rss_mb(), children_peak_rss_mb=round(kids.ru_maxrss / 1024, 1),
               cpu_seconds=round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 2))
    print(json.dumps(out))
    return 0


def run(*args, timeout=3600, env: dict | None = None) -> dict:
    """Run ``measure(args)`` in a fresh interpreter (cwd: the repository) and return its JSON;
    ``env`` is its environment (default: this one, the repository on ``PYTHONPATH``)."""
    if env is None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
    code = "import sys; from crfdeid.experiments.bench.child import measure; sys.exit(measure(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no message"]
        raise RuntimeError(f"benchmark step {args[0]} failed (exit {proc.returncode}): {tail[0]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.exit(measure())
