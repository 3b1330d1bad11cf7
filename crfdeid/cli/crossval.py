"""``python -m crfdeid crossval``: patient-grouped cross-validation of a config
(:mod:`crfdeid.experiments.crossval`); also the corpus and fold options the learning curve shares."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import cli
from ..config import load_config
from ..errors import ConfigError, CrfdeidError
from ..experiments import crossval
from ..experiments.crossval import best_recalls, crossvalidate, render
from ..experiments.results import provenance, to_json, write_files, write_json
from ..io import describe_input, write
from ..io.labelled import as_setting
from ..io.labelled import read_corpus as read_labelled_corpus
from ..io.splits import WEIGHTS, read_groups, select_groups
from ..neural import require
from .train import parse_overrides


def add_fold_arguments(p: argparse.ArgumentParser) -> None:
    """The corpus, fold and sweep options shared by crossval and the learning curve."""
    p.add_argument("--config", required=True, help="config YAML (its `train` inputs are folded)")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="corpus to fold instead of the config's `train` (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value, e.g. model=elman or neural.epochs=5 (repeatable)")
    p.add_argument("--folds", type=int, default=10, help="number of folds (default 10)")
    p.add_argument("--seed", type=int, default=None, help="fold seed (default: config seed or 0)")
    p.add_argument("--by", choices=WEIGHTS, default="documents", help="balance folds on")
    p.add_argument("--jobs", type=int, default=1, help="trainings run in parallel (processes)")
    p.add_argument("--o-thresholds", type=cli.parse_thresholds, default=(),
                   help="comma-separated O-marginal thresholds to sweep, e.g. none,0.5,0.9 "
                        "(none = plain Viterbi)")
    p.add_argument("--exclude-groups", metavar="FILE",
                   help="leave out the documents of the groups (patients) listed in FILE, one "
                        "per line, e.g. configs/splits/physionet-locked.txt (the locked test)")
    p.add_argument("--only-groups", metavar="FILE",
                   help="keep only the documents of the groups (patients) listed in FILE")
    p.add_argument("--precision", type=cli.parse_floors, default=(0.95, 0.9), metavar="P,P,...",
                   help="precision floors for 'best recall at precision >= P' over the sweep "
                        "(default 0.95,0.9)")
    cli.add_reader_options(p, inputs="the corpus")


def read_corpus(args) -> tuple[dict, list, list, int]:
    """``(config, input specs, documents, seed)`` for parsed :func:`add_fold_arguments` options.

    The corpus is read under the config's scheme (:mod:`crfdeid.io.labelled`); a config
    without one gets the corpus' in ``config['scheme']``, so every fold has the same labels.

    Raises
    ------
    ConfigError
        A config without ``train`` inputs and no ``--train``; a network's config
        without PyTorch.
    """
    try:
        overrides = parse_overrides(getattr(args, "set", None) or [])
    except ValueError as exc:
        raise ConfigError(str(exc), path=args.config) from None
    config = load_config(args.config, overrides)
    specs = args.train or config.get("train") or []
    if not specs:
        raise ConfigError("no `train` inputs to cross-validate; give --train FORMAT:PATH",
                          path=args.config)
    seed = args.seed if args.seed is not None else int(config.get("seed") or 0)
    require(config["model"], args.config)  # before reading a corpus to train networks on
    docs, scheme = read_labelled_corpus(specs, config["scheme"],
                                        **cli.reader_options(getattr(args, "reader_option", None)))
    config["scheme"] = as_setting(scheme)
    if getattr(args, "exclude_groups", None):
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    if getattr(args, "only_groups", None):
        docs = select_groups(docs, read_groups(args.only_groups), keep=True)
    return config, list(specs), docs, seed


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("crossval", crossval.__doc__,
                   "python -m crfdeid crossval --config configs/physionet.yaml --folds 10 --jobs 2 "
                   "--o-thresholds 0.5,0.7,0.9 --json cv.json"
                   "  # in a checkout, with the PhysioNet notes at ../shared/corpora/physionet-dev",
                   long="one model trained per fold (configs/physionet.yaml, 5 folds: about as long as five "
                        "trainings divided by --jobs), then the held-out notes tagged")
    add_fold_arguments(p)
    p.add_argument("--train-fraction", type=cli.one_fraction, default=1.0, metavar="F",
                   help="train each fold on a patient-grouped share F in (0, 1] of its "
                        "training notes, same held-out folds (a learning curve point)")
    p.add_argument("--json", metavar="FILE", help="write all figures as JSON ('-' = stdout)")
    p.add_argument("--out", metavar="DIR",
                   help="write crossval.md, crossval.json and held-out predictions (i2b2) here")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no table on stdout")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    cli.cap_jobs(args)

    started = provenance()  # the code that runs, not what lands in the checkout meanwhile
    cli.start_log(args)
    try:
        config, specs, docs, seed = read_corpus(args)
        if not args.quiet:
            print(f"cross-validating {args.config} on {len(docs)} documents "
                  f"({len({d.group for d in docs})} patients), {args.folds} folds, seed {seed}"
                  + (f", training on {args.train_fraction:g} of each fold's training patients"
                     if args.train_fraction != 1 else ""), file=sys.stderr)
        result = crossvalidate(docs, config, args.folds, seed, args.by, args.o_thresholds,
                               args.jobs, progress=not args.quiet,
                               train_fraction=args.train_fraction)
    except CrfdeidError as exc:
        print(f"crossval: error: {exc}", file=sys.stderr)
        return 1
    if args.o_thresholds:
        result["recall_at_precision"] = best_recalls(result, args.precision)
    result = {"config": args.config, "inputs": [describe_input(s) for s in specs],
              "exclude_groups": args.exclude_groups,
              "set": args.set, "folds": args.folds, "seed": seed,
              "by": args.by, "train_fraction": args.train_fraction, **started, **result,
              "resolved_config": config}
    text = render(result)
    if not args.quiet:
        sys.stdout.write(text)
    predictions = result.pop("predictions")
    if args.json:
        write_json(result, args.json)
    if args.out:
        write_files(args.out, {"crossval.md": text, "crossval.json": to_json(result)})
        write(predictions, "i2b2", Path(args.out) / "predictions", overwrite=True)  # its own results
    return 0
