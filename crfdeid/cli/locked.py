"""``python -m crfdeid locked``: score the locked test once (:mod:`crfdeid.experiments.locked`)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from .. import cli
from ..config import load_config
from ..crf import Model, train_model
from ..errors import ConfigError, CrfdeidError
from ..experiments import locked
from ..experiments.locked import RulesOnly, render, score_system
from ..experiments.results import provenance, to_json, write_files
from ..io import read_all, write
from ..io.splits import read_groups, select_groups


def parse_also(text: str) -> tuple[str, str]:
    """``"unknown=i2b2:DIR"`` -> ``("unknown", "i2b2:DIR")``."""
    name, sep, spec = text.partition("=")
    if not sep or not name or not spec or name == "original":
        raise argparse.ArgumentTypeError(f"--also wants NAME=FORMAT:PATH (NAME not 'original'), got {text!r}")
    return name, spec


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("locked", locked.__doc__,
                   "python -m crfdeid locked --config configs/physionet.yaml --locked "
                   "configs/splits/physionet-locked.txt --o-thresholds none,0.9,0.98 --out results/locked"
                   "  # in a checkout, with the PhysioNet notes at ../shared/corpora/physionet-dev")
    p.add_argument("--config", required=True, help="config YAML (its `train` inputs hold both parts)")
    p.add_argument("--locked", required=True, metavar="FILE", help="the locked test patients, one per line")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="corpus to split instead of the config's `train` (repeatable)")
    system = p.add_mutually_exclusive_group()
    system.add_argument("--model", metavar="PATH",
                        help="score this trained model instead of training ('default': the shipped one)")
    system.add_argument("--rules-only", action="store_true", help="score the rule overlay alone")
    p.add_argument("--o-thresholds", type=cli.parse_thresholds, default=(),
                   help="O-marginal thresholds to sweep, e.g. none,0.9,0.98 (none = plain Viterbi)")
    p.add_argument("--also", type=parse_also, action="append", default=[], metavar="NAME=FORMAT:PATH",
                   help="also score another copy of the locked notes (matched by document id), "
                        "e.g. unknown=i2b2:stress/unknown (repeatable)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="write locked.md, locked.json and the predictions (i2b2) here")
    p.add_argument("--save-model", metavar="PATH", help="also save the model trained here")
    cli.add_reader_options(p, inputs="the corpus and --also copies")
    p.add_argument("--quiet", action="store_true", help="no table on stdout")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)

    started = provenance()
    t0 = time.perf_counter()
    try:
        config = load_config(args.config)
        specs = args.train or config.get("train") or []
        if not specs:
            raise ConfigError("no `train` inputs; give --train FORMAT:PATH", path=args.config)
        locked = read_groups(args.locked)
        options = cli.reader_options(args.reader_option)
        docs = read_all(specs, **options)
        dev, test = select_groups(docs, locked, keep=False), select_groups(docs, locked, keep=True)
        if not test:
            raise ConfigError("no document of the corpus belongs to a locked patient", path=args.locked)
        copies = {"original": test}
        for name, spec in args.also:
            ids = {d.doc_id for d in test}
            got = [d for d in read_all([spec], **options) if d.doc_id in ids]
            if len(got) != len(test):
                raise ConfigError(f"--also {name}: {len(got)} of the {len(test)} locked notes found", path=spec)
            copies[name] = got
        system: Any
        if args.rules_only:
            system, kind = RulesOnly(), "rules"
        elif args.model:
            system, kind = Model.load(args.model), "model"
        else:
            if not args.quiet:
                print(f"training on {len(dev)} development notes ({len({d.group for d in dev})} patients)",
                      file=sys.stderr)
            system, kind = train_model(dev, config), "trained"
            if args.save_model:
                system.save(args.save_model)
        thresholds = () if args.rules_only else args.o_thresholds
        runs = {name: score_system(system, gold, thresholds) for name, gold in copies.items()}
    except CrfdeidError as exc:
        print(f"locked: error: {exc}", file=sys.stderr)
        return 1
    predictions = {name: run.pop("predictions") for name, run in runs.items()}
    result = {"config": args.config, "locked": args.locked, "inputs": list(specs), "system": kind,
              "model": args.model, **started, "seconds": round(time.perf_counter() - t0, 1),
              "sizes": {"train_documents": len(dev), "train_patients": len({d.group for d in dev}),
                        "test_documents": len(test), "test_patients": len({d.group for d in test})},
              "runs": runs, "resolved_config": config if kind == "trained" else None}
    text = render(result)
    if not args.quiet:
        sys.stdout.write(text)
    write_files(args.out, {"locked.md": text, "locked.json": to_json(result)})
    for name, pred in predictions.items():
        write(pred, "i2b2", Path(args.out) / "predictions" / name, overwrite=True)  # its own results
    return 0
