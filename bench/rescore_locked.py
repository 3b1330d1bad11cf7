"""Re-score the saved as-configured predictions of a ``locked`` run (after a change of the figures).

    python bench/rescore_locked.py RESULT_DIR --train physionet:../shared/corpora/physionet-dev \\
        --locked configs/splits/physionet-locked.txt [--also unknown=i2b2:DIR ...]

Reads ``RESULT_DIR/locked.json`` and ``RESULT_DIR/predictions/<copy>``, recomputes the figures
of the configured decoding of every copy with :func:`crfdeid.experiments.locked.figures`, and
writes them back (the threshold sweeps are kept as they were). Aggregate figures only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.cli.locked import parse_also  # noqa: E402
from crfdeid.experiments.locked import figures, render  # noqa: E402
from crfdeid.experiments.results import to_json, write_files  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("result")
    p.add_argument("--train", required=True)
    p.add_argument("--locked", required=True)
    p.add_argument("--also", type=parse_also, action="append", default=[])
    args = p.parse_args(argv)
    out = Path(args.result)
    result = json.loads((out / "locked.json").read_text())
    test = select_groups(read_all([args.train]), read_groups(args.locked), keep=True)
    ids = {d.doc_id for d in test}
    copies = {"original": test, **{n: [d for d in read_all([s]) if d.doc_id in ids] for n, s in args.also}}
    for name, gold in copies.items():
        if name in result["runs"]:
            pred = read_all([f"i2b2:{out / 'predictions' / name}"])
            result["runs"][name]["as configured"] = figures(gold, pred)
    write_files(out, {"locked.md": render(result), "locked.json": to_json(result)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
