"""A table like Sibanda & Uzuner's tables 7-13 from ``python -m crfdeid locked`` results.

    python bench/stress_table.py "PhysioNet model=results/locked/locked.json" \\
        "default model=results/locked-default/locked.json" "rules alone=results/locked-rules/locked.json"

Each argument is ``LABEL=locked.json`` of a run with ``--also unknown=... --also ambiguous=...``.
Prints, per system and copy (original, unknown, ambiguous), at the configured decoding: NAME
and LOCATION typed token P/R/F and the share of their gold tokens inside any predicted span,
and the overall binary token P/R/F. Aggregate figures only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.experiments.results import markdown_table  # noqa: E402

COPIES = ("original", "unknown", "ambiguous")


def rows(label: str, result: dict) -> list:
    out = []
    for copy in COPIES:
        run = result["runs"].get(copy)
        if run is None:
            continue
        f = run["as configured"]
        row = [label, copy]
        for cat in ("NAME", "LOCATION"):
            c = f["categories"].get(cat)
            row += [f"{c[k]:.3f}" for k in ("precision", "recall", "f1", "covered")] if c else ["", "", "", ""]
        b = f["binary_token"]
        out.append(row + [f"{b[k]:.3f}" for k in ("precision", "recall", "f1")])
    return out


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    table = []
    for arg in args:
        label, _, path = arg.partition("=")
        table += rows(label, json.loads(Path(path).read_text()))
    head = ["system", "copy"] + [f"{c} {m}" for c in ("NAME", "LOC") for m in ("P", "R", "F", "covered")] \
        + ["overall P", "overall R", "overall F"]
    print(markdown_table(head, table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
