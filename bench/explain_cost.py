"""What provenance (``tag --explain``, issue 37 item 2) costs, in one process (docs/history/performance.md).

    python bench/explain_cost.py [--notes synth:300,5] [--rounds 8] [--model PATH]

The notes are read once, the model loaded once and one untimed round tagged; then rounds alternate tagging every note
without and with ``explain`` (``Model.tag_each``, the path ``tag`` runs), CPU seconds each
(``time.process_time``). Prints the lowest and median of each and their ratio; counts only,
never a note.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.io import read  # noqa: E402
from crfdeid.tagging.model import TaggingModel  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", default="synth:300,5")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--model")
    args = ap.parse_args()
    docs = list(read(args.notes))
    model = TaggingModel.load(args.model)
    for _doc, _tagged in model.tag_each(docs):  # warm-up: caches filled before the first timed round
        pass
    runs: dict[str, list[float]] = {"off": [], "explain": []}
    for _ in range(args.rounds):
        for name, options in (("off", None), ("explain", {"explain": True})):
            t = time.process_time()
            for _doc, tagged in model.tag_each(docs, options=options):
                assert not isinstance(tagged, Exception)
            runs[name].append(time.process_time() - t)
    for name, times in runs.items():
        print(f"{name:<8} lowest {min(times):.3f} s  median {statistics.median(times):.3f} s  ({len(docs)} notes)")
    print(f"explain / off: lowest {min(runs['explain']) / min(runs['off']):.3f}, "
          f"median {statistics.median(runs['explain']) / statistics.median(runs['off']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
