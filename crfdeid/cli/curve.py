"""``python -m crfdeid curve``: the learning curve (:mod:`crfdeid.experiments.curve`)."""

from __future__ import annotations

import argparse
import sys

from .. import cli
from ..errors import CrfdeidError
from ..experiments import curve
from ..experiments.curve import learning_curve, to_markdown, write_curve
from ..experiments.results import provenance, write_json
from ..io import describe_input
from .crossval import add_fold_arguments, read_corpus


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("curve", curve.__doc__,
                   "python -m crfdeid curve --config configs/physionet.yaml --folds 10 --jobs 2 "
                   "--fractions 0.25,0.5,0.75,1 --o-thresholds none,0.5,0.9,0.98 --out results/curve"
                   "  # in a checkout, with the PhysioNet notes at ../shared/corpora/physionet-dev")
    add_fold_arguments(p)
    p.add_argument("--fractions", type=cli.parse_fractions, default=(0.25, 0.5, 0.75, 1.0), metavar="F,F,...",
                   help="patient-grouped shares of each fold's training notes (default 0.25,0.5,0.75,1)")
    p.add_argument("--json", metavar="FILE", help="write all figures as JSON ('-' = stdout)")
    p.add_argument("--out", metavar="DIR", help="write curve.md, curve.csv, curve.json and curve.png here")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no table on stdout")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    cli.cap_jobs(args)
    if args.out and (msg := cli.missing_extra("plot", "matplotlib")):
        print(f"curve: error: --out writes curve.png and {msg}", file=sys.stderr)
        return 2
    started = provenance()
    try:
        config, specs, docs, seed = read_corpus(args)
        if not args.quiet:
            print(f"learning curve of {args.config} on {len(docs)} documents "
                  f"({len({d.group for d in docs})} patients), {args.folds} folds, seed {seed}, "
                  f"shares {', '.join(f'{f:g}' for f in sorted(set(args.fractions)))}", file=sys.stderr)
        points = learning_curve(docs, config, args.fractions, args.folds, seed, args.by,
                                args.o_thresholds, args.precision, args.jobs, progress=not args.quiet)
    except CrfdeidError as exc:
        print(f"curve: error: {exc}", file=sys.stderr)
        return 1
    heading = f"# Learning curve of `{args.config}`"
    info = {"config": args.config, "inputs": [describe_input(x) for x in specs], "folds": args.folds,
            "seed": seed, "by": args.by,
            "o_thresholds": list(args.o_thresholds), **started, "resolved_config": config}
    if not args.quiet:
        sys.stdout.write(to_markdown(points, heading))
    if args.json:
        write_json({**info, "points": points}, args.json)
    if args.out:
        write_curve(points, args.out, info, heading)
    return 0
