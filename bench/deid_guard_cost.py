"""CPU cost of the no-shared-run check in ``corpus surrogate`` (guard on vs stubbed out).

    python bench/deid_guard_cost.py --key-file secret.key [--repeats 5] \\
        [--corpus physionet:../shared/corpora/physionet-dev]

Runs ``corpus surrogate CORPUS --out TMP --key-file K --check -q`` in fresh
processes, alternating the real code with a copy whose guard is stubbed out
(every surrogate accepted, no final check, no units learnt), and prints each
run's CPU seconds (user + system of the child) and wall seconds, then the
medians. The stubbed run is not a usable de-identifier: it only measures what
the check costs. The JSON summary of the real runs (counts only) is printed once.
Prints no note text.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import sys
from crfdeid.cli.corpus import main
if sys.argv[1] == "off":
    from crfdeid.deid import guard, surrogate
    surrogate.Surrogator._safe = staticmethod(lambda units, new: True)
    surrogate.Surrogator._verify = lambda *a: None
    guard.Units.add = lambda self, *a, **k: self
sys.exit(main(sys.argv[2:]))
"""


def _run(mode: str, corpus: str, key_file: str) -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _CHILD, mode, "surrogate", corpus, "--out", out,
                               "--key-file", key_file, "--check", "-q"],
                              capture_output=True, text=True, cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"corpus surrogate failed ({mode}): exit {proc.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.stdout


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--key-file", required=True, help="secret key file (python -m crfdeid key new FILE)")
    p.add_argument("--corpus", default="physionet:../shared/corpora/physionet-dev", help="FORMAT:PATH")
    p.add_argument("--repeats", type=int, default=5, help="runs of each (default 5)")
    args = p.parse_args(argv)
    times: dict[str, list] = {"on": [], "off": []}
    summary = None
    print(f"load average {os.getloadavg()}")
    for i in range(args.repeats):
        for mode in ("on", "off"):
            cpu, wall, out = _run(mode, args.corpus, args.key_file)
            times[mode].append((cpu, wall))
            summary = summary or (out if mode == "on" else None)
            print(f"run {i + 1} guard {mode:3}: cpu {cpu:.2f} s, wall {wall:.2f} s", flush=True)
    print(f"load average {os.getloadavg()}")
    for mode, ts in times.items():
        print(f"median guard {mode:3}: cpu {statistics.median(t[0] for t in ts):.2f} s, "
              f"wall {statistics.median(t[1] for t in ts):.2f} s")
    s = json.loads(summary)
    print(json.dumps({k: v for k, v in s.items() if k != "check"} | {"check_ok": s["check"]["ok"],
                     "run_leaks": s["check"]["run_leaks"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
