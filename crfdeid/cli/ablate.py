"""``python -m crfdeid ablate``: a base config plus named overrides, each cross-validated
(:mod:`crfdeid.experiments.ablate`)."""

from __future__ import annotations

import argparse
import sys

from .. import cli
from ..errors import ConfigError, CrfdeidError
from ..experiments import ablate
from ..experiments.ablate import load_ablation, run_ablation, to_markdown, write_results
from ..experiments.results import provenance


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("ablate", ablate.__doc__,
                   "python -m crfdeid ablate configs/ablation/synth-small.yaml --out /tmp/ablation"
                   "  # in a checkout (configs/ablation)")
    p.add_argument("ablation", help="ablation YAML (base config, evaluation, runs)")
    p.add_argument("--jobs", type=int, default=1, help="trainings run in parallel (processes)")
    p.add_argument("--out", metavar="DIR",
                   help="output folder (default: ablation-<file name> in the working folder)")
    p.add_argument("--only", action="append", metavar="RUN", help="run only these runs")
    p.add_argument("--folds", type=int, metavar="K",
                   help="override the file's evaluation with K-fold cross-validation")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no table on stdout")
    cli.add_reader_options(p, inputs="the corpora")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    cli.cap_jobs(args)
    if msg := cli.missing_extra("plot", "matplotlib"):
        print(f"ablate: error: the results plot {msg}", file=sys.stderr)
        return 2
    started = provenance()  # the code that runs, not what lands in the checkout meanwhile
    try:
        ablation = load_ablation(args.ablation)
        ablation["provenance"] = started
        if args.only:
            missing = sorted(set(args.only) - set(ablation["runs"]))
            if missing:
                raise ConfigError(f"unknown run(s) {', '.join(missing)}; known: "
                                  f"{', '.join(ablation['runs'])}", path=args.ablation)
            ablation["runs"] = {k: v for k, v in ablation["runs"].items() if k in args.only}
        if args.folds is not None:
            ev = {k: v for k, v in ablation["evaluation"].items() if k != "test"}
            ablation["evaluation"] = {**ev, "folds": args.folds}
        results = run_ablation(ablation, jobs=args.jobs, progress=not args.quiet,
                               reader_options=cli.reader_options(args.reader_option))
    except CrfdeidError as exc:
        print(f"ablate: error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ConfigError) else 1
    files = write_results(results, ablation, args.out or f"ablation-{ablation['name']}")
    if not args.quiet:
        sys.stdout.write(to_markdown(results, ablation))
        print("wrote " + ", ".join(map(str, files)), file=sys.stderr)
    return 0
