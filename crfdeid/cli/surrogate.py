"""``corpus surrogate``: turn an annotated corpus into a surrogate corpus (i2b2 XML).

Example::

    python -m crfdeid key new secret.key
    python -m crfdeid corpus surrogate physionet:../shared/corpora/physionet-dev \\
        --out /tmp/surr --key-file secret.key --check

Output and ``--check`` print counts only, never PHI. The input must be annotated: plain
text (or BRAT without ``.ann`` files) is refused, since its notes would pass
through unchanged; de-identify plain notes with ``python -m crfdeid tag``.
"""

from __future__ import annotations

import argparse
import json
import sys

from .. import schema
from ..cli import add_overwrite, add_reader_options, reader_options
from ..cli.corpus import progress
from ..deid import grouping
from ..deid.check import check
from ..deid.key import SEED_WARNING, read_key_file
from ..deid.spans import propagate
from ..deid.surrogate import DEFAULT_SHIFT, Surrogator
from ..deid.writers import check_mapping_path, write_mapping
from ..errors import ConfigError, CrfdeidError, describe
from ..io import parse_spec, spec_path, writer
from ..io.labelled import read_corpus
from ..io.outputs import check_apart
from .scheme import load_scheme

EXAMPLE = ("python -m crfdeid corpus surrogate physionet:../shared/corpora/physionet-dev "
           "--out /tmp/surr --key-file secret.key --check")
#: Readers whose documents never carry annotations.
UNANNOTATED_FORMATS = frozenset({"text"})


def _shift(value: str) -> tuple[int, int]:
    try:
        lo, hi = (int(v) for v in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--date-shift wants MIN,MAX in days, got {value!r}") from None
    return lo, hi


def annotated_only(spec: str, docs: list, errors: list) -> list:
    """``docs`` without those a reader marked as unannotated (each reported).

    Raises
    ------
    ConfigError
        When the input has no annotated document at all (names the input).
    """
    fmt = parse_spec(spec)[0]
    bare = [d for d in docs if d.meta.get("annotated") is False]
    if fmt in UNANNOTATED_FORMATS or (docs and len(bare) == len(docs)):
        raise ConfigError(f"input {spec!r} has no annotations: corpus surrogate would pass its notes "
                          "through unchanged. Give annotated input (i2b2, physionet with its phrase "
                          "file, brat with .ann files, jsonl/csv with spans), or de-identify plain "
                          "notes with: python -m crfdeid tag --output-format surrogate --key-file F")
    for d in bare:
        errors.append(ConfigError("has no annotations (e.g. a .txt without its .ann): not written",
                                  path=d.meta.get("source"), doc_id=d.doc_id))
    return [d for d in docs if d.meta.get("annotated") is not False]


def register(subparsers) -> None:
    """Add the ``surrogate`` subcommand to a ``crfdeid.cli.corpus``-style parser."""
    p = subparsers.add_parser(
        "surrogate", help="replace annotated PHI by consistent surrogates; write i2b2 XML",
        description=f"Replace the annotated PHI of a corpus by realistic surrogates, consistent per "
                    f"patient, and write i2b2 XML with the new text and spans. Example: {EXAMPLE}")
    p.add_argument("input", metavar="FORMAT:PATH", help="annotated corpus, e.g. physionet:DIR or i2b2:DIR")
    add_reader_options(p, "--reader-option", "--option", "-o", dest="option", inputs="the input")
    p.add_argument("--scheme", default="auto",
                   help="label scheme: auto (the corpus': i2b2 when every label is one; default), "
                        "i2b2, or a config or scheme YAML whose labels name their surrogate generators")
    p.add_argument("--out", required=True, help="output folder (one <doc_id>.xml per note)")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--seed", help="public seed, for tests and demonstrations only: anyone with the "
                                    "seed can recompute (reverse) the surrogates")
    key.add_argument("--key", help="secret key (HMAC-SHA256): batches processed separately agree")
    key.add_argument("--key-file", help="read the secret key from this file (keeps it out of `ps`); "
                                        "make one with: python -m crfdeid key new FILE")
    p.add_argument("--date-shift", type=_shift, default=DEFAULT_SHIFT, metavar="MIN,MAX",
                   help=f"range of the per-patient date offset in days (default "
                        f"{DEFAULT_SHIFT[0]},{DEFAULT_SHIFT[1]})")
    p.add_argument("--age-over-89", default="90+", help="what ages above 89 become (default 90+)")
    p.add_argument("--dob", choices=("placeholder", "no-year"), default="placeholder",
                   help="a patient over 89's birth date: [**DOB**] (default) or month and day only")
    p.add_argument("--unparsed-dates", choices=("placeholder", "random"), default="placeholder",
                   help="a date no pattern explains: [**DATE**] (default) or random digits; named "
                        "in the summary either way")
    p.add_argument("--date-order", choices=("auto", "mdy", "dmy", "ymd"), default="auto",
                   help="how numeric dates are read, as tag --date-order (default auto: from the dates "
                        "that read one way only, stated in the summary)")
    grouping.add_arguments(p)
    p.add_argument("--no-propagate", action="store_true",
                   help="do not replace unannotated repeats of an annotated PHI string")
    p.add_argument("--check", action="store_true",
                   help="verify: no original PHI left, spans aligned, date intervals kept (exit 1 if not)")
    p.add_argument("--kinds", metavar="guess|LABEL:KIND,...",
                   help="surrogate generators for labels of a corpus' own scheme: guess (from the labels' "
                        "names: Fecha date, Edad age, Nombre name...), LABEL:KIND pairs, or both; "
                        "without a generator such a label is refused")
    p.add_argument("--mapping", metavar="FILE",
                   help="also write the original->surrogate table, a .csv or .tsv file (contains PHI; "
                        "off by default; a new file outside --out)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_overwrite(p)
    p.set_defaults(func=run)


def run(args) -> int:
    """Execute ``corpus surrogate``; return the exit code."""
    key = read_key_file(args.key_file) if args.key_file else args.key
    grouper = grouping.from_args(args)
    if args.mapping:
        check_mapping_path(args.mapping, args.out)
        check_apart(args.mapping, [spec_path(args.input)], [args.out], what="mapping")
    if parse_spec(args.input)[0] in UNANNOTATED_FORMATS:
        annotated_only(args.input, [], [])  # refused before anything is read
    # The output is checked (not an input, not inside or around one, no file replaced without
    # --overwrite) before anything is read or written.
    out = writer("i2b2", args.out, overwrite=args.overwrite, inputs=[spec_path(args.input)])
    errors: list = []
    # (namespaces built by callers of run() before these options existed lack them)
    docs, scheme = read_corpus([args.input], load_scheme(getattr(args, "scheme", None)), errors=errors,
                               **reader_options(getattr(args, "option", None)))
    own = None if scheme is schema.I2B2 else scheme  # i2b2 labels take their own generators
    surrogator = Surrogator(seed=args.seed, key=key, date_shift=args.date_shift,
                            age_over_89=args.age_over_89, scheme=own, dob=getattr(args, "dob", "placeholder"),
                            unparsed_dates=getattr(args, "unparsed_dates", "placeholder"),
                            kinds=getattr(args, "kinds", None),
                            date_order=getattr(args, "date_order", "auto"))
    if args.mapping:
        surrogator.keep_mapping()
    if args.seed is not None and not args.quiet:
        print(SEED_WARNING, file=sys.stderr)
    docs = annotated_only(args.input, docs, errors)
    for doc in docs:
        grouper.apply(doc)
    annotated = sum(len(d.spans) for d in docs)
    if not args.no_propagate:
        docs = [propagate(d, scheme=own) for d in docs]
    for doc in docs:  # every note of a patient first, so initials find their full names
        surrogator.learn(doc)
    pairs, fallbacks, orders = [], {}, {}
    with out:
        for doc in progress(docs, args.quiet, unit="doc", desc="surrogate"):
            try:
                new = surrogator.surrogate(doc)
                out.write(new)
                pairs.append((doc, new))
                fallbacks[doc.doc_id] = surrogator.last_exempt
                orders[doc.doc_id] = surrogator.last_order  # the note's own order (for --check)
            except CrfdeidError as exc:
                errors.append(exc)
            except Exception as exc:  # a bug must name the document, never its text
                errors.append(CrfdeidError(f"document {doc.doc_id!r}: surrogate failed "
                                           f"({describe(exc)})"))
    if args.mapping:
        write_mapping(surrogator, args.mapping)
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    c = surrogator.counts
    summary: dict = {"notes": len(pairs), "failed": len(errors), "spans": c["spans"],
               "propagated_spans": sum(len(d.spans) for d in docs) - annotated,
               **surrogator.summary()}
    status = 1 if errors else 0
    if args.check:
        rep = check(pairs, fallbacks, surrogator.age_keeps, order=orders)
        summary["check"] = rep.to_dict()
        status = status or (0 if rep.ok else 1)
    print(json.dumps(summary, indent=2))
    return status

