"""``python -m crfdeid audit hips``: can an attacker tell residual identifiers from surrogates?
(:mod:`crfdeid.audit.hips`, docs/hips.md)."""

from __future__ import annotations

import json
import sys

from .. import cli
from ..audit import hips
from ..deid.key import SEED_WARNING, read_key_file
from ..io import atomic_write, read_all
from ..io.registry import describe_input
from ..io.splits import read_groups, select_groups

EXAMPLE = ("python -m crfdeid audit hips --gold physionet:../shared/corpora/physionet-dev "
           "--exclude-groups configs/splits/physionet-locked.txt --residual 0.2 --json hips.json")


def add_arguments(p) -> None:
    """The ``hips`` subcommand's arguments."""
    p.add_argument("--gold", action="append", required=True, metavar="FORMAT:PATH",
                   help="annotated notes (repeatable); their annotated values play the real identifiers")
    p.add_argument("--json", required=True, metavar="OUT", help="write the result here")
    p.add_argument("--residual", type=float, default=0.1, metavar="SHARE",
                   help="share of the identifiers of each category left in, as a model would miss them (0.1)")
    p.add_argument("--train-share", type=float, default=0.5, metavar="SHARE",
                   help="share of the notes (patient-grouped) the attacker learns from; it is scored on the rest (0.5)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the residual draw and the split, and of the surrogates without --key-file (0)")
    p.add_argument("--key-file", metavar="FILE", help="draw the surrogates with this secret key (as a release would)")
    p.add_argument("--exclude-groups", metavar="FILE",
                   help="patients left out entirely (e.g. configs/splits/physionet-locked.txt)")
    p.add_argument("--max-iterations", type=int, default=hips.CRF["max_iterations"],
                   help=f"the attacker CRF's L-BFGS iterations ({hips.CRF['max_iterations']})")
    p.add_argument("--quiet", action="store_true", help="no progress and no summary line")
    cli.add_reader_options(p, inputs="the gold notes")


def run(args) -> int:
    """Run ``audit hips``; returns the exit code."""
    key = read_key_file(args.key_file) if args.key_file else None
    if key is None and not args.quiet:
        print(SEED_WARNING, file=sys.stderr)
    docs = read_all(args.gold, **cli.reader_options(args.reader_option))
    if args.exclude_groups:
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    crf = dict(hips.CRF, max_iterations=args.max_iterations)
    settings = hips.Settings(args.residual, args.seed, key, args.train_share, crf)
    inputs = [{"input": describe_input(s), "exclude_groups": args.exclude_groups} for s in args.gold]
    result = hips.run(docs, settings, inputs, progress=not args.quiet)
    atomic_write(args.json, json.dumps(result, indent=1) + "\n")
    if not args.quiet:
        r, s = result["redacted"], result["surrogate"]
        print(f"surrogate output: the attacker found {s['found']} of {s['residual']} residual identifiers "
              f"({hips.pct(result['attacker_recall'])}, precision {hips.pct(result['attacker_precision'])}); "
              f"redacted output: {result['redacted_attack']['found']} ({hips.pct(r['attacker_recall'])}, "
              f"precision {hips.pct(r['attacker_precision'])})", file=sys.stderr)
    return 0
