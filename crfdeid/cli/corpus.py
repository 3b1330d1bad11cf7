"""Look at and convert annotated corpora (``python -m crfdeid corpus``).

Subcommands come from :data:`COMMAND_MODULES`, each a module with
``register(subparsers)`` that adds its parsers and sets ``func(args) -> int``
as a default. This module provides ``stats`` and ``convert``;
``crfdeid.cli.surrogate`` adds ``surrogate`` and ``crfdeid.cli.stress`` adds ``stress``
(stress corpora, Sibanda & Uzuner 2006).

Per-document read errors are printed to standard error (file, document and
offset, never note text), counted in a closing summary, and make the exit
code 1; the other documents are still processed. An input that cannot be read
at all, an unknown format or option, or an output that is, lies in or contains
the input (or exists, without ``--overwrite``) is a usage error: exit 2 before
anything is written.

Examples::

    python -m crfdeid corpus stats physionet:../shared/corpora/physionet-dev --json
    python -m crfdeid corpus convert physionet:../shared/corpora/physionet-dev --to i2b2 --out /tmp/pn
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter

from .. import cli, labels
from ..errors import CrfdeidError
from ..io import read, reader_names, spec_path, write_documents, writer, writer_names
from ..schema import SUBTYPE_TO_PARENT
from ..text.tokenize import iter_segments, iter_tokens

#: Modules whose ``register(subparsers)`` adds subcommands, in help order.
COMMAND_MODULES = ("crfdeid.cli.corpus", "crfdeid.cli.surrogate", "crfdeid.cli.stress")
#: Numeric ``Document.meta`` counters that readers set and ``stats`` sums.
META_COUNTERS = ("trimmed_spans", "brat_fragments", "brat_dropped")


def progress(iterable, quiet: bool, **kwargs):
    """``iterable`` with a tqdm bar on a terminal's standard error, unless ``quiet``."""
    from tqdm import tqdm
    return tqdm(iterable, disable=quiet or not sys.stderr.isatty(), file=sys.stderr,
                leave=False, **kwargs)


def corpus_stats(docs, split_glued: bool = True, max_listed: int = 50,
                 show_text: bool = False) -> dict:
    """Counts for a corpus: documents, tokens, spans by category/subtype, alignment, BIO problems.

    Parameters
    ----------
    docs : iterable of Document
    split_glued : bool
        Tokenizer setting the alignment is measured against.
    max_listed : int
        How many misaligned spans and BIO problems to list (by document id and
        offsets); all are counted.
    show_text : bool
        Also list the text of misaligned spans (PHI: only when asked for).
    """
    n_docs = n_tokens = n_chars = n_segments = 0
    by_cat: Counter[str] = Counter()
    by_sub: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    meta: Counter[str] = Counter()
    aligned = total = 0
    misaligned: list[dict[str, object]] = []
    problem_list: list[dict[str, object]] = []
    for doc in docs:
        n_docs += 1
        n_chars += len(doc.text)
        scan = _DocScan(doc.spans)
        n_segments += sum(1 for _ in iter_segments(
            doc.text, scan.watch(iter_tokens(doc.text, split_glued=split_glued))))
        n_tokens += scan.tokens
        for sp in doc.spans:
            total += 1
            by_cat[sp.category] += 1
            by_sub[sp.subtype] += 1
            if sp.start in scan.starts and sp.end in scan.ends:
                aligned += 1
            elif len(misaligned) < max_listed:
                misaligned.append({"doc_id": doc.doc_id, "start": sp.start, "end": sp.end,
                                   "subtype": sp.subtype})
                if show_text:
                    misaligned[-1]["text"] = doc.surface(sp)
        # The tokens touching a span are all the encoder needs to find every problem.
        for prob in labels.encode(scan.near, doc.spans).problems:
            problems[prob.reason] += 1
            if len(problem_list) < max_listed:
                problem_list.append({"doc_id": doc.doc_id, "start": prob.span.start,
                                     "end": prob.span.end, "reason": prob.reason})
        for key in META_COUNTERS:
            meta[key] += int(doc.meta.get(key) or 0)
        for kind, count in (doc.meta.get("brat_ignored") or {}).items():
            meta[f"brat_ignored_{kind}"] += count
    return {
        "documents": n_docs, "characters": n_chars, "tokens": n_tokens, "segments": n_segments,
        "spans": total,
        "spans_by_category": dict(sorted(by_cat.items())),
        "spans_by_subtype": dict(sorted(by_sub.items())),
        "alignment": aligned / total if total else 1.0,
        "aligned_spans": aligned,
        "misaligned_spans": total - aligned, "misaligned": misaligned,
        "bio_problems": dict(sorted(problems.items())), "bio_problem_list": problem_list,
        "reader_counts": {k: v for k, v in sorted(meta.items()) if v},
        "tokenizer": {"split_glued": split_glued},
    }


class _DocScan:
    """One streaming pass over a note's tokens: count them, keep span-edge hits and span tokens.

    Memory stays proportional to the spans, not the note (a 50 MB note is fine).
    """

    def __init__(self, spans):
        self.edges_s = {sp.start for sp in spans}
        self.edges_e = {sp.end for sp in spans}
        self.merged = _merge((sp.start, sp.end) for sp in spans)
        self.starts, self.ends, self.near = set(), set(), []
        self.tokens = 0

    def watch(self, tokens):
        merged, j = self.merged, 0
        for tok in tokens:
            self.tokens += 1
            if tok.start in self.edges_s:
                self.starts.add(tok.start)
            if tok.end in self.edges_e:
                self.ends.add(tok.end)
            while j < len(merged) and merged[j][1] <= tok.start:
                j += 1
            if j < len(merged) and merged[j][0] < tok.end:
                self.near.append(tok)
            yield tok


def _merge(intervals) -> list:
    out: list[list[int]] = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def _format_stats(st: dict) -> str:
    lines = [f"documents     {st['documents']}", f"characters    {st['characters']}",
             f"tokens        {st['tokens']}", f"segments      {st['segments']}",
             f"spans         {st['spans']}",
             f"alignment     {st['alignment']:.4f} ({st['aligned_spans']}/{st['spans']} spans "
             "start and end on token boundaries)"]
    if st["spans_by_category"]:
        lines.append("spans by category/subtype:")
        for cat, n in st["spans_by_category"].items():
            lines.append(f"  {cat:<12} {n:>7}")
            for sub, m in st["spans_by_subtype"].items():
                if SUBTYPE_TO_PARENT.get(sub) == cat and sub != cat:
                    lines.append(f"    {sub:<16} {m:>5}")
    for m in st["misaligned"]:
        shown = f" {m['text']!r}" if "text" in m else ""
        lines.append(f"misaligned: document {m['doc_id']!r} [{m['start']}, {m['end']}) {m['subtype']}{shown}")
    if st["bio_problems"]:
        lines.append("BIO encoding problems: " + ", ".join(f"{k} {v}" for k, v in st["bio_problems"].items()))
        for p in st["bio_problem_list"]:
            lines.append(f"  {p['reason']}: document {p['doc_id']!r} [{p['start']}, {p['end']})")
    for key, n in st["reader_counts"].items():
        lines.append(f"reader: {key} {n}")
    return "\n".join(lines) + "\n"


def _report_errors(errors: list, processed: int, verb: str) -> int:
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    print(f"{verb} {processed} documents, {len(errors)} failed", file=sys.stderr)
    return 1 if errors else 0


def _cmd_stats(args) -> int:
    errors: list = []
    docs = progress(read(args.input, errors=errors, **cli.reader_options(args.option)),
                    args.quiet, unit="doc", desc="stats")
    st = corpus_stats(docs, split_glued=not args.no_split_glued, max_listed=args.max_listed,
                      show_text=args.show_text)
    st["failed_documents"] = len(errors)
    st["errors"] = [str(e) for e in errors]
    sys.stdout.write(json.dumps(st, indent=2) + "\n" if args.json else _format_stats(st))
    return _report_errors(errors, st["documents"], "read")


def _cmd_convert(args) -> int:
    errors: list = []
    docs = read(args.input, errors=errors, **cli.reader_options(args.option))
    w = writer(args.to, args.out, overwrite=args.overwrite, inputs=[spec_path(args.input)])
    written = write_documents(w, progress(docs, args.quiet, unit="doc", desc="convert"), errors)
    return _report_errors(errors, written, "wrote")


def register(subparsers) -> None:
    """Add the ``stats`` and ``convert`` subcommands."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("input", metavar="FORMAT:PATH",
                        help=f"input corpus; formats: {', '.join(reader_names())}")
    cli.add_reader_options(common, "--reader-option", "--option", "-o", dest="option",
                           inputs="the input")
    common.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    st = subparsers.add_parser(
        "stats", parents=[common], help="documents, tokens, spans, boundary alignment",
        description="Corpus statistics. Example: python -m crfdeid corpus stats "
                    "physionet:../shared/corpora/physionet-dev --json")
    st.add_argument("--json", action="store_true", help="print JSON instead of a table")
    st.add_argument("--no-split-glued", action="store_true",
                    help="measure alignment with the non-splitting tokenizer")
    st.add_argument("--max-listed", type=int, default=50, metavar="N",
                    help="misaligned spans/BIO problems to list (default 50; all are counted)")
    st.add_argument("--show-text", action="store_true",
                    help="also print the text of misaligned spans (PHI: off by default)")
    st.set_defaults(func=_cmd_stats)

    cv = subparsers.add_parser(
        "convert", parents=[common], help="convert a corpus to another format",
        description="Convert between formats. Example: python -m crfdeid corpus convert "
                    "physionet:../shared/corpora/physionet-dev --to i2b2 --out /tmp/pn-i2b2")
    cv.add_argument("--to", required=True, choices=writer_names(), help="output format")
    cv.add_argument("--out", required=True, help="output folder or file, '-' for standard output")
    cli.add_overwrite(cv)
    cv.set_defaults(func=_cmd_convert)


def build_parser() -> argparse.ArgumentParser:
    """The ``crfdeid.cli.corpus`` parser with the subcommands of every available command module."""
    parser = cli.parser("corpus", __doc__,
                        "python -m crfdeid corpus stats synth:50,13 --json",
                        "python -m crfdeid corpus stats physionet:../shared/corpora/physionet-dev --json"
                        "  # needs the PhysioNet deid notes there")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = sys.modules[__name__] if name == __name__ or name == "crfdeid.cli.corpus" else _optional(name)
        if module is not None:
            module.register(subparsers)
    return parser


def _optional(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None  # not written/installed yet: its subcommand is simply absent
        raise


def main(argv=None) -> int:
    """Run ``python -m crfdeid corpus``; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
