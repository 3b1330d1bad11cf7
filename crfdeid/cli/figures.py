"""Measure the README's accuracy figures (dev CV, locked test, zero-shot) and render its table.

Example::

    python -m crfdeid figures --config configs/physionet.yaml \\
        --train physionet:../shared/corpora/physionet-dev --locked configs/splits/physionet-locked.txt \\
        --stress unknown=i2b2:build/stress-unknown --zero-shot default --jobs 2 \\
        --json docs/figures.json --readme docs/figures.md
    # the table again from the results file, without measuring
    python -m crfdeid figures --render docs/figures.json --readme docs/figures.md

Pooled patient-grouped CV over the development patients is the headline; the locked
patients' figures stand beside it (docs/protocol.md: score them once per change set). The
results file holds the date, commit, command and every figure; the README's table between
``<!-- figures:start -->`` and ``<!-- figures:end -->`` is rendered from it. Prints the
table only (aggregate figures, never note text). Exit codes: 0 success, 1 unreadable
inputs, 2 bad arguments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import cli
from ..config import load_config
from ..crf import Model
from ..errors import CrfdeidError
from ..experiments import figures as fig
from ..experiments.results import provenance, to_json
from ..io import read_all
from ..io.splits import read_groups
from .locked import parse_also


def _parser():
    p = cli.parser("figures", __doc__,
                   "python -m crfdeid figures --config configs/physionet.yaml --locked "
                   "configs/splits/physionet-locked.txt --zero-shot default --json docs/figures.json "
                   "--readme docs/figures.md"
                   "  # in a checkout, with the PhysioNet notes at ../shared/corpora/physionet-dev",
                   long="measuring trains folds + 1 models (configs/physionet.yaml: six trainings, divided "
                        "by --jobs) and tags every note two to four times; --render only renders")
    p.add_argument("--config", help="config of the model cross-validated and scored on the locked test")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="the annotated corpus (both parts), replacing the config's train list")
    p.add_argument("--locked", metavar="FILE", help="the locked test patients, one per line")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--stress", action="append", default=[], metavar="NAME=FORMAT:PATH",
                   help="a stress copy of the corpus (corpus stress), matched by document id (repeatable)")
    p.add_argument("--zero-shot", metavar="MODEL", help="also score this fixed model ('default': the shipped one)")
    p.add_argument("--jobs", type=int, default=1, help="models trained at the same time")
    p.add_argument("--cache", metavar="DIR", help="save the trained models here and reuse them")
    p.add_argument("--json", metavar="FILE", help="write the results file here")
    p.add_argument("--render", metavar="FILE", help="render the table from this results file (no measuring)")
    p.add_argument("--readme", metavar="FILE", help="put the table between the markers of this file")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    cli.cap_jobs(args)
    if bool(args.render) == bool(args.config):
        print("error: give --config (measure) or --render FILE (render a results file)", file=sys.stderr)
        return 2
    if args.config and not args.locked:
        print("error: --locked FILE is needed to measure", file=sys.stderr)
        return 2
    cli.start_log(args)
    try:
        if args.render:
            res = json.loads(Path(args.render).read_text(encoding="utf-8"))
        else:
            res = _measure(args, fig)
            res = {"date": fig.today(), **provenance(), "config": args.config,
                   "command": " ".join(["python -m crfdeid figures", *(sys.argv[2:] if argv is None else argv)]),
                   **res}
            if args.json:
                Path(args.json).write_text(to_json(res), encoding="utf-8")
        table = fig.render_table(res)
        if args.readme:
            readme = Path(args.readme)
            readme.write_text(fig.replace_between(readme.read_text(encoding="utf-8"), table), encoding="utf-8")
    except (CrfdeidError, OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(table)
    return 0


def _measure(args, fig) -> dict:
    config = load_config(args.config)
    docs = read_all(args.train or config["train"])
    stress = {}
    for item in args.stress:
        name, spec = parse_also(item)
        stress[name] = read_all([spec])
    zero = Model.load(args.zero_shot) if args.zero_shot else None
    return fig.measure(docs, config, read_groups(args.locked), folds=args.folds, stress=stress,
                       zero_shot=zero, jobs=args.jobs, cache=Path(args.cache) if args.cache else None,
                       progress=not args.quiet)


if __name__ == "__main__":
    sys.exit(main())
