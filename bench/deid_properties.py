"""A long run of the de-identified output properties (tests/test_deid_properties.py).

    python bench/deid_properties.py [--examples 20000] [--seed 0]

CI runs each property over a few hundred random Unicode notes with random spans (all
of Unicode, astral characters, combining marks, right-to-left and CJK text, digits of
other scripts, NUL and every line separator): redacted, masked and surrogate output
keep the line count, no letter/digit run of a span survives at its place, the
fail-closed check never lets a leaking document through, and the writers keep the
line count on standard output. This runs the same properties with ``--examples``
examples each, drawn from ``--seed`` (after any failing example hypothesis saved in
``.hypothesis/``), and prints the time taken; a failing example is printed by
hypothesis (synthetic random text, never note text).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--examples", type=int, default=20000, help="examples per property (default 20000)")
    p.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    args = p.parse_args(argv)
    env = dict(os.environ, CRFDEID_PROPERTY_EXAMPLES=str(args.examples),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:warnings",
           f"--hypothesis-seed={args.seed}", "-k", "not across and not gold",
           str(ROOT / "tests" / "test_deid_properties.py")]
    start = time.perf_counter()
    rc = subprocess.call(cmd, cwd=ROOT, env=env)
    print(f"{args.examples} examples per property, seed {args.seed}: "
          f"{'passed' if rc == 0 else 'FAILED'} in {time.perf_counter() - start:.1f} s", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
