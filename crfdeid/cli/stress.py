"""``python -m crfdeid corpus stress``: stress copies of an annotated corpus
(:mod:`crfdeid.deid.stress`)."""

from __future__ import annotations

import json
import sys

from .. import cli
from ..deid.key import read_key_file
from ..deid.stress import KINDS, Stressor
from ..errors import CrfdeidError
from ..io import read, reader_names, spec_path, write_documents, writer, writer_names
from .corpus import progress


def register(subparsers) -> None:
    """Add the ``stress`` subcommand to a ``crfdeid.cli.corpus``-style parser."""
    p = subparsers.add_parser(
        "stress", help="stress copy: names and places out of every dictionary, or ambiguous",
        description="Re-surrogate the names and places of an annotated corpus (Sibanda & Uzuner "
                    "2006): --kind unknown (strings in no dictionary) or ambiguous (words also "
                    "used as plain text). Example: python -m crfdeid corpus stress --kind unknown "
                    "physionet:../shared/corpora/physionet-dev --out /tmp/stress-unknown --seed 13")
    p.add_argument("input", metavar="FORMAT:PATH", help=f"annotated corpus; formats: {', '.join(reader_names())}")
    p.add_argument("--kind", required=True, choices=KINDS)
    p.add_argument("--out", required=True, help="output folder (or file, for one-file formats)")
    p.add_argument("--to", default="i2b2", choices=writer_names(), help="output format (default i2b2)")
    cli.add_reader_options(p, "--reader-option", "--option", "-o", dest="option", inputs="the input")
    key = p.add_mutually_exclusive_group(required=True)
    key.add_argument("--seed", help="public seed: reproducible copies")
    key.add_argument("--key-file", help="read a secret key from this file")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    cli.add_overwrite(p)
    p.set_defaults(func=run)


def run(args) -> int:
    """Execute ``corpus stress``; print a summary of counts; return the exit code."""
    key = read_key_file(args.key_file) if args.key_file else None
    # The output is checked (not an input, no file replaced without --overwrite) before reading.
    out = writer(args.to, args.out, overwrite=args.overwrite, inputs=[spec_path(args.input)])
    errors: list = []
    docs = list(read(args.input, errors=errors, **cli.reader_options(args.option)))
    stressor = Stressor(args.kind, docs, seed=args.seed, key=key)

    def stressed():
        for doc in progress(docs, args.quiet, unit="doc", desc="stress"):
            try:
                yield stressor.stress(doc)
            except CrfdeidError as exc:
                errors.append(exc)

    written = write_documents(out, stressed(), errors)
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    c = stressor.counts
    summary = {"kind": args.kind, "notes": written, "failed": len(errors), "spans_stressed": c["spans"],
               "words_replaced": c["words"], "distinct_replacements": stressor.distinct()}
    if args.kind == "ambiguous":
        summary["pool_sizes"] = {cat: len(pool) for cat, pool in stressor.pools.items()}
    print(json.dumps(summary, indent=2))
    return 1 if errors else 0
