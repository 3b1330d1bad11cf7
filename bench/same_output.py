"""Whether two copies of crfdeid write the same bytes (a speed change must not change an output).

    python bench/same_output.py MAIN_COPY BRANCH_COPY [--docs 200] [--seed 5] [--notes DIR]

Each copy (a folder holding ``crfdeid/``, e.g. a ``git archive`` of a commit) runs, with
``PYTHONPATH`` set to it, ``python -m crfdeid tag --quiet`` on the same notes in each output
format below and the SHA-256 of what it writes is compared. The notes are made-up ones
(``python -m crfdeid synth --docs N --seed S``, written by the first copy), or, with ``--notes``,
a folder of text notes (e.g. the PhysioNet development notes written out with ``python -m
crfdeid corpus convert physionet:PATH --to text --out DIR``; outside the repository). Prints one
line per format, digests only (never note text); the exit status is 1 when an output differs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: The output formats compared, each with its extra options.
FORMATS = {"redacted": [], "jsonl": [], "masked": [], "surrogate": ["--seed", "7"]}


def _run(copy: str, args: list[str]) -> bytes:
    env = {**os.environ, "PYTHONPATH": copy}
    done = subprocess.run([sys.executable, "-m", "crfdeid", *args], env=env, cwd=copy, capture_output=True,
                          check=True)
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("copies", nargs=2, metavar="COPY")
    p.add_argument("--docs", type=int, default=200)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--notes", type=Path, help="a folder of text notes instead of made-up ones")
    args = p.parse_args(argv)
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.notes is None:
            notes = Path(tmp) / "notes"
            _run(args.copies[0], ["synth", "--docs", str(args.docs), "--seed", str(args.seed), "--out", str(notes)])
            source = ["--input-format", "i2b2", str(notes)]
        else:
            source = [str(args.notes.resolve())]
        for fmt, extra in FORMATS.items():
            digests = [hashlib.sha256(_run(copy, ["tag", "--quiet", *source, "--output-format", fmt, *extra]))
                       .hexdigest()[:16] for copy in args.copies]
            same = len(set(digests)) == 1
            differ += not same
            print(f"{fmt:10} {' '.join(digests)} {'same' if same else 'DIFFERENT'}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
