"""The start-up of ``tag`` of two copies of crfdeid, side by side (docs/history/performance.md).

    python bench/startup_ab.py MAIN_COPY BRANCH_COPY [RUNS]

Each copy (a folder holding ``crfdeid/``, e.g. a ``git archive`` of a commit) runs
``python -m crfdeid.tag --quiet --output-format redacted note.txt`` on one made-up line, with
``PYTHONPATH`` set to it: one untimed run each (which writes its bytecode to a folder of its
own, as an installed package has it), then ``RUNS`` (7) runs each,
alternately. Prints the lowest, median and every figure of each copy: the CPU seconds (user +
system) of each child process from ``resource.getrusage(RUSAGE_CHILDREN)``, and the load average.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

NOTE = "Mr. John Smith was seen by Dr. Lee on 7/22/2098 at Mercy Hospital.\n"


def _cpu_seconds(copy: str, note: Path, pycache: Path) -> float:
    cmd = [sys.executable, "-m", "crfdeid.tag", "--quiet", "--output-format", "redacted", str(note)]
    # Bytecode cached as in an installed package, in a folder of each copy's own, even where
    # PYTHONDONTWRITEBYTECODE is set (it is on the development machine).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=copy, PYTHONPYCACHEPREFIX=str(pycache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, cwd=copy, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str]) -> int:
    copies, runs = argv[:2], int(argv[2]) if len(argv) > 2 else 7
    with tempfile.TemporaryDirectory() as tmp:
        note = Path(tmp) / "note.txt"
        note.write_text(NOTE, encoding="utf-8")
        caches = {copy: Path(tmp) / f"pycache-{i}" for i, copy in enumerate(copies)}
        for copy in copies:
            _cpu_seconds(copy, note, caches[copy])
        got: dict[str, list[float]] = {copy: [] for copy in copies}
        for _ in range(runs):
            for copy in copies:
                got[copy].append(_cpu_seconds(copy, note, caches[copy]))
    for copy, times in got.items():
        print(f"{copy}: lowest {min(times):.3f} median {statistics.median(times):.3f} "
              f"all {' '.join(f'{t:.3f}' for t in times)}")
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
