"""Score system annotations against gold ones with the official i2b2 2014 metrics.

Prints overall, HIPAA, binary, per-category and per-subtype tables (micro and
macro), the leak view, and with ``--errors`` an error analysis. Documents on
one side only are listed and counted, never scored silently.

The tables follow a label scheme (``--scheme``): by default the corpus' own
(the i2b2 2014 scheme when every label of gold and system is an i2b2 label,
otherwise the labels as written, each its own parent category, and no HIPAA
rows); ``i2b2``; or the scheme of a config, scheme file or model.

Exit codes: 0 success, 1 unreadable or incomparable input, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys

from .. import cli, schema
from ..errors import CrfdeidError
from ..io import atomic_write, read
from ..io.labelled import settle, takes_scheme
from ..scoring import analyse_errors, evaluate, tables
from .scheme import load_scheme


def build_parser() -> argparse.ArgumentParser:
    ap = cli.parser(
        "evaluate", __doc__,
        "python -m crfdeid evaluate --gold i2b2:data/test --pred i2b2:out/test --json scores.json",
        "python -m crfdeid evaluate --gold i2b2:gold --pred i2b2:pred --filter NAME DATE "
        "--errors --examples 3")
    ap.add_argument("--gold", required=True, metavar="FORMAT:PATH", help="gold annotations")
    ap.add_argument("--pred", required=True, metavar="FORMAT:PATH", help="system annotations")
    ap.add_argument("--scheme", default="auto", metavar="SCHEME",
                    help="auto (the corpus' labels; default), i2b2, or a config, scheme YAML or "
                         "model file whose scheme makes the tables")
    cli.add_reader_options(ap, inputs="both inputs")
    cli.add_reader_options(ap, "--gold-reader-option", dest="gold_option", inputs="--gold")
    cli.add_reader_options(ap, "--pred-reader-option", dest="pred_option", inputs="--pred")
    ap.add_argument("--json", metavar="FILE", help="write every figure as JSON ('-': standard output, "
                    "instead of the tables)")
    ap.add_argument("--csv", metavar="FILE", help="write the figures as CSV rows ('-': standard output)")
    ap.add_argument("--plot", metavar="FILE.png", help="bar chart of F1 scores (needs matplotlib)")
    ap.add_argument("--filter", nargs="+", metavar="CATEGORY",
                    help="score only these parent categories and/or subtypes (e.g. NAME DATE DOCTOR)")
    ap.add_argument("--include-idnum", action="store_true",
                    help="count IDNUM as HIPAA (the official script does not)")
    ap.add_argument("--errors", action="store_true", help="add the error analysis")
    ap.add_argument("--examples", type=int, default=5, metavar="N",
                    help="examples per error class, as document id and offsets (default 5)")
    ap.add_argument("--show-text", action="store_true",
                    help="show the surface text of error examples (this prints PHI)")
    ap.add_argument("--no-check-text", dest="check_text", action="store_false",
                    help="score paired documents even when their texts differ")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    return ap


def _docs(spec: str, what: str, quiet: bool, scheme, options: dict) -> list:
    from tqdm import tqdm
    extra = {"scheme": schema.ANY if scheme is None else scheme} if takes_scheme(spec) else {}
    return list(tqdm(read(spec, **{**extra, **options}), desc=f"reading {what}", unit="doc",
                     file=sys.stderr, disable=quiet or not sys.stderr.isatty()))


def _emit(path: str, data: str) -> None:
    if path == "-":
        sys.stdout.write(data)
    else:
        atomic_write(path, data)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.examples < 0:
        build_parser().error("--examples must be 0 or more")
    if args.plot and (msg := cli.missing_extra("plot", "matplotlib")):
        print(f"error: --plot {msg}", file=sys.stderr)
        return 2
    try:
        scheme = load_scheme(args.scheme)
        both = cli.reader_options(args.reader_option)
        gold = _docs(args.gold, "gold", args.quiet, scheme, {**both, **cli.reader_options(args.gold_option)})
        pred = _docs(args.pred, "system", args.quiet, scheme, {**both, **cli.reader_options(args.pred_option)})
        (gold, pred), scheme = settle([gold, pred], scheme, args.gold)
        report = evaluate(gold, pred, include_idnum=args.include_idnum, filter=args.filter,
                          check_text=args.check_text, scheme=scheme)
        errors = (analyse_errors(gold, pred, examples=args.examples, show_text=args.show_text,
                                 filter=args.filter, check_text=args.check_text)
                  if args.errors else None)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    data = report.to_dict()
    if errors is not None:
        data["errors"] = errors.to_dict()
    if args.json:
        _emit(args.json, json.dumps(data, indent=2) + "\n")
    if args.csv:
        _emit(args.csv, tables.to_csv(report))
    if args.plot:
        tables.plot(report, args.plot)
    if "-" not in (args.json, args.csv):
        sys.stdout.write(tables.render(report, errors))
    missing = report.missing_in_pred + report.missing_in_gold
    if missing:
        print(f"warning: {len(missing)} document(s) on one side only were not scored "
              f"({len(report.missing_in_pred)} without prediction, "
              f"{len(report.missing_in_gold)} without gold)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
