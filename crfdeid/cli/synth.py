"""``python -m crfdeid synth --docs N --seed S [--style ward] --out DIR``: write a synthetic i2b2 XML corpus."""

from __future__ import annotations

import argparse
import os
import sys
import time

from .. import cli, io
from ..errors import CrfdeidError
from ..synth import STYLES, iter_documents


def build_parser() -> argparse.ArgumentParser:
    parser = cli.parser("synth",
                        "Write synthetic clinical notes with gold PHI (all 25 i2b2 2014 subtypes) "
                        "as i2b2 2014 XML, one file per note (NNN-NN.xml).",
                        "python -m crfdeid synth --docs 200 --seed 13 --out /tmp/s200")
    parser.add_argument("--docs", type=int, default=1000, help="number of notes (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", required=True, help="output folder, or '-' for standard output")
    parser.add_argument("--format", default="i2b2", help="writer format (default i2b2)")
    parser.add_argument("--style", default="i2b2", choices=sorted(STYLES),
                        help="i2b2 (default: dense, i2b2 conventions) or ward (closer to real ward "
                             "notes: sparse PHI, lower case, typos, unknown and ambiguous names)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    cli.add_overwrite(parser)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.docs < 0:
        print("error: --docs must be >= 0", file=sys.stderr)
        return 2
    docs = iter_documents(args.docs, args.seed, args.style)
    show = not args.quiet and sys.stderr.isatty()
    if show:
        from tqdm import tqdm
        docs = tqdm(docs, total=args.docs, unit="doc", file=sys.stderr)
    t0 = time.perf_counter()
    try:
        n = io.write(docs, args.format, args.out, overwrite=args.overwrite)
    except CrfdeidError as exc:  # an output folder that is a file, a note file already there...
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # piped into `head`: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if not args.quiet:
        print(f"wrote {n} documents (seed {args.seed}) to {args.out} in "
              f"{time.perf_counter() - t0:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
