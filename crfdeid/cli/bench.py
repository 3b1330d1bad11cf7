"""``python -m crfdeid bench``: speed and memory of training and tagging
(:mod:`crfdeid.experiments.bench`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import cli
from ..errors import CrfdeidError
from ..experiments import bench
from ..experiments.bench import run
from ..experiments.bench.report import format_table
from ..io import writer_names
from ..tagging.model import TaggingModel


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("bench", bench.__doc__,
                   "python -m crfdeid bench --quick --json build/bench-quick.json")
    p.add_argument("--corpus", metavar="FORMAT:PATH",
                   help="corpus to tag (default: PhysioNet dev corpus if present, else synth:1000,13)")
    p.add_argument("--model", help="model used for tagging (default: the one trained on the corpus)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--quick", action="store_true", help="tiny corpus and model: a smoke run")
    p.add_argument("--no-train", action="store_true", help="skip the training measurements (needs --model)")
    p.add_argument("--memory-notes", type=int, metavar="N",
                   help="streaming check: tag N and 4N synthetic notes (default 250; 10 with --quick)")
    p.add_argument("--large-note-mb", type=float, default=0, metavar="MB",
                   help="also tag one single-line synthetic note of this size")
    p.add_argument("--backend", choices=("numpy", "crfsuite"), default="numpy",
                   help="tagging backend measured (default: numpy)")
    p.add_argument("--max-jobs", type=int, default=2, metavar="N",
                   help="time the tag CLI with --jobs 1..N (default 2; 1 on a shared machine)")
    p.add_argument("--jobs-runs", type=int, default=3, metavar="N",
                   help="run the --jobs 1..N round N times, alternating; the medians are reported (default 3)")
    p.add_argument("--startup-runs", type=int, default=7, metavar="N",
                   help="runs of the start-up measurement, the lowest CPU time kept "
                        "(default 7; at most 2 with --quick)")
    p.add_argument("--write-dir", metavar="DIR",
                   help="folder under which the end-to-end run writes its output (default: /dev/shm "
                        "when it exists, else the system's temporary folder)")
    p.add_argument("--output-format", default="i2b2", metavar="FMT",
                   help="writer of the end-to-end run (default i2b2: one XML file per note; "
                        "jsonl: one stream for all notes)")
    p.add_argument("--quiet", action="store_true", help="no progress messages")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if msg := cli.missing_extra("bench", "psutil"):
        print(f"error: the benchmark {msg}", file=sys.stderr)
        return 2
    if args.no_train and not args.model:
        print("error: --no-train needs --model", file=sys.stderr)
        return 2
    try:  # a file that is not a model is an error before any training
        if args.model:
            TaggingModel.load(args.model)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.output_format not in writer_names():
        print(f"error: unknown --output-format {args.output_format!r}; known: {', '.join(writer_names())}",
              file=sys.stderr)
        return 2

    def say(msg):
        if not args.quiet:
            print(f"[bench] {msg}", file=sys.stderr, flush=True)

    try:
        res = run(args, say)
    except (RuntimeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(format_table(res))
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    return 0
