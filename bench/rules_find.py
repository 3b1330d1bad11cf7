"""Time the rule scan (``crfdeid.recognizers.rules.find``) over a corpus: best and median of N passes.

    python bench/rules_find.py [--corpus physionet:../shared/corpora/physionet-dev] [--passes 10]

Prints CPU seconds per pass over all notes (``time.process_time``, one process, the
rules' word lists loaded first) and the number of spans found; no note text.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.io import read  # noqa: E402
from crfdeid.recognizers import rules  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", default="physionet:../shared/corpora/physionet-dev", help="FORMAT:PATH")
    p.add_argument("--passes", type=int, default=10, help="passes over the corpus (default 10)")
    args = p.parse_args(argv)
    texts = [d.text for d in read(args.corpus)]
    rules.prepare()
    times, found = [], 0
    for _ in range(args.passes):
        t0 = time.process_time()
        found = sum(len(rules.find(t)) for t in texts)
        times.append(time.process_time() - t0)
    print(f"{len(texts)} notes, {len(rules.RULES)} rules, {found} spans: best {min(times):.3f} CPU-s, "
          f"median {statistics.median(times):.3f} CPU-s per pass ({args.passes} passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
