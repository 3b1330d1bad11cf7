"""Tag clinical notes with a CRF de-identifier and write the result.

Examples::

    echo "Seen by Dr. Lee on 7/22/2098." | python -m crfdeid tag --output-format jsonl
    python -m crfdeid tag --model build/physionet.model --output-format i2b2 \\
        --output-dir build/tagged notes/
    python -m crfdeid tag --input-format i2b2 --output-format redacted --output-dir out/ in/
    python -m crfdeid key new secret.key
    python -m crfdeid tag --output-format surrogate --key-file secret.key -o xml=true \\
        --group-pattern '^(p[0-9]+)_' --output-dir out/ notes/
    python -m crfdeid tag --site-table patients.csv --site-list staff=roster.txt \\
        --input-format jsonl notes.jsonl

Inputs are files, folders or ``-`` (standard input, the default), read with
``--input-format`` (``text`` by default; ``FORMAT:PATH`` also works) and
``--reader-option KEY=VALUE``. A folder's subfolders are read with ``--recursive`` (text
notes); without it their files are counted in a warning. Entries that look like notes but
are not readable files (dangling links, link loops, FIFOs) are named in a warning. In an
output folder each note keeps the name it was read under (``sub/P4.TXT``).
What the site knows (patients' identifiers, staff,
institutions, towns, safe terms: ``--site``, ``--site-table``, ``--site-list``; a JSONL
note's ``meta.known``) is found in every note too (docs/site.md). The spans an annotated
input carries are replaced by the model's; their labels are read as written, whatever the
model's scheme (gold labels the model does not use fail no note). Redacted and surrogate output
follow the model's label scheme (placeholders, generators). Without
``--output-dir`` everything goes to standard output: there several notes of a text
output (redacted, masked, surrogate) each start with a line ``==> ID <==``, and
a terminal gets notes only when ``--output-format`` is given. The run ends with a
summary on standard error (and in ``--log``): the spans found by category and the notes
with none, never their values. A document that cannot be
read or tagged is reported (file, document id, never its text), is not written
(fail closed), and does not stop the others; the exit code is 1 if any failed.
Exit code 2, before anything is tagged: an unknown format or option, an input
that is missing or has no matching files, an output folder that is, lies in or
contains an input, or cannot be made, and an output file (``tagged.jsonl``,
``mapping=``, or any document's file in the output folder: a re-run) that exists
without ``--overwrite``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
from pathlib import Path

from .. import cli, site
from ..deid import grouping
from ..deid.key import SEED_WARNING, read_key_file
from ..deid.writers import became
from ..errors import ConfigError, CrfdeidError
from ..io import runmanifest, spec_path
from ..io.explain import ExplainWriter
from ..io.outputs import check_apart
from ..io.walk import new_run, not_read_summary
from ..progress import Progress, gc_paused, step
from ..site import learnt
from ..tagging.inputs import count_documents
from ..tagging.model import DEFAULT_MODEL, TaggingModel
from ..tagging.session import NO_SURROGATES, Session, open_inputs, refuse_existing


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("tag", __doc__,
                   'echo "Seen by Dr. Lee on 7/22/2098." | python -m crfdeid tag --output-format jsonl',
                   long="loading the model (seconds), then every note (the shipped model: a few hundred "
                        "notes a minute on one core; --jobs N uses N cores)")
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="file, folder, FORMAT:PATH or - (stdin)")
    p.add_argument("--model", help="model file (default: the model shipped with crfdeid)")
    p.add_argument("--input-format", default="text", help="reader for bare paths (default: text)")
    cli.add_reader_options(p, inputs="the inputs")
    p.add_argument("--recursive", action="store_true",
                   help="read the subfolders of an input folder too (text notes; the output keeps "
                        "their relative paths)")
    p.add_argument("--output-format",
                   help="i2b2, brat, jsonl, redacted, masked, surrogate... (default: jsonl; required when "
                        "standard output is a terminal)")
    p.add_argument("--output-dir", help="folder for the output (default: standard output)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="writer option, e.g. style=xyz or template='<{subtype}>' (redacted), char=* "
                        "(masked), xml=true, date_shift=[-400,-100], age_bucket=5, mark=true, "
                        "proven=off (surrogate: made-up values for unproven spans too)")
    p.add_argument("--mapping", metavar="FILE",
                   help="surrogate output: write the original -> surrogate table here, a .csv or .tsv "
                        "file (it holds the original PHI: store it as PHI; the same as -o mapping=FILE)")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--seed", help="surrogate output: public seed, for tests and demonstrations only "
                                    "(anyone with the seed can recompute the surrogates)")
    key.add_argument("--key", help="surrogate output: secret key (HMAC); batches processed "
                                   "separately agree")
    key.add_argument("--key-file", help="surrogate output: read the secret key from this file "
                                        "(make one with: python -m crfdeid key new FILE)")
    p.add_argument("--fhir-policy", metavar="FILE",
                   help="--output-format fhir: the de-identification policy (YAML rules by resource and "
                        "path; default: the shipped safe-harbor; docs/fhir.md); the same as -o policy=FILE")
    p.add_argument("--o-threshold", type=_o_threshold, metavar="P",
                   help="mark a token as PHI when P(O) < P; 'none': Viterbi labels only "
                        "(overrides the model's setting)")
    p.add_argument("--no-o-words", action="store_true",
                   help="let the threshold mark every word, also those the model saw in training "
                        "only outside PHI (decoding.o_words_min_count)")
    grouping.add_arguments(p)
    site.add_arguments(p)
    site.add_mining_arguments(p)
    p.add_argument("--date-order", choices=("auto", "mdy", "dmy", "ymd"), default=None,
                   help="how numeric dates are read when they are shifted (surrogate, fhir, hl7): "
                        "auto (default: from the dates that read one way only, 17/10/2023 day first; "
                        "stated in the summary), mdy (US), dmy (UK, AU, IE, IN...), ymd; a site file's "
                        "date_order, else the model config's, when not given. No date is removed for its order")
    p.add_argument("--jobs", type=int, default=1,
                   help="processes that tag: this one and N-1 workers (default: 1)")
    p.add_argument("--route", metavar="MEMBER", default=None,
                   help="a routed model (docs/synth.md): tag every note with the member MEMBER (e.g. icu, "
                        "specialty) instead of the one its router chooses; auto: the router's choice (default)")
    p.add_argument("--backend", choices=("numpy", "crfsuite"), default="numpy",
                   help="tagging backend, same labels (default: numpy; crfsuite: pycrfsuite's tagger)")
    p.add_argument("--explain", nargs="?", const=True, default=None, metavar="FILE",
                   help="say which step found, widened, retyped or dropped each span and how sure the model "
                        "was. With FILE (.html: a page to read; .json or .jsonl: for programs) each note is "
                        "written there with its spans marked: it holds the notes' text, so it is written as "
                        "an output is (owner-only, never over an input or, without --overwrite, a file). "
                        "Bare --explain: in each JSONL record's meta.explain, else one JSON line per document "
                        "on standard error (offsets, types, steps; never text)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or summary (warnings still shown)")
    p.add_argument("--progress", action="store_true",
                   help="draw the progress display on standard error even when it is not a terminal "
                        "(by default only a terminal gets it: notes counted, phase, rate and time left)")
    p.add_argument("--run-manifest", action=argparse.BooleanOptionalAction, default=True,
                   help="with --output-dir (the default): write crfdeid-run.manifest there, the arguments, the "
                        "model's and site files' digests and every output file's digest (no note text; marked "
                        "incomplete unless every document was written), for `audit sample --release-output`. "
                        "--no-run-manifest: none, for a folder a program takes whole as notes, or when the "
                        "arguments' paths and the working folder must not leave with the output")
    cli.add_overwrite(p)
    return p


#: Said on stderr when surrogates are made without --key-file, --key or --seed.
RANDOM_KEY_NOTE = ("note: no --key-file, --key or --seed: the surrogates use a random key made for this run, "
                   "so another run (another batch of the same patients) gets different ones; for one set "
                   "per patient across runs make a key (python -m crfdeid key new secret.key) and pass "
                   "--key-file secret.key")


#: Said when notes would be shown in full on a terminal that did not ask for them.
NO_FORMAT = ("standard output is a terminal: name what to write there (--output-format redacted, masked, "
             "surrogate or jsonl...) or a folder (--output-dir); notes are never shown on a terminal unasked")


def _terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Tally:
    """The run summary: spans by category in the notes written, and the notes with none
    (counts only, never a value).

    >>> from crfdeid.document import Document, make_span
    >>> t = Tally("redacted")
    >>> for doc in (Document("a", "Dr. Lee", [make_span(4, 7, "DOCTOR")]), Document("b", "ok")):
    ...     t.add(doc)
    >>> t.message()
    'replaced: NAME 1 (spans by category); 1 of 2 note(s) with none'

    With ``routed`` (a routed model's run) the notes are counted by the member that tagged them
    (``meta["route"]``).
    """

    def __init__(self, output_format: str, routed: bool = False):
        self.routed = routed
        self.verb = "replaced" if output_format in ("redacted", "masked", "surrogate") else "found"
        self.counts: dict[str, int] = {}
        self.routes: dict[str, int] = {}
        self.gated = 0  # of them, notes the language gate sent to their member (crfdeid.routing.language)
        self.notes = self.empty = 0

    def add(self, doc) -> None:
        self.notes += 1
        self.empty += not doc.spans
        route = doc.meta.get("route") if self.routed else None
        if isinstance(route, str):
            self.routes[route] = self.routes.get(route, 0) + 1
            self.gated += doc.meta.get("route_gate") == "language"
        for span in doc.spans:
            self.counts[span.category] = self.counts.get(span.category, 0) + 1

    def watch(self, out) -> None:
        """Count each document ``out`` (an open writer) writes."""
        write = out.write

        def counted(doc):
            write(doc)
            self.add(doc)

        out.write = counted

    def message(self) -> str:
        found = ", ".join(f"{cat} {n}" for cat, n in sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0])))
        routes = ", ".join(f"{name} {n}" for name, n in sorted(self.routes.items()))
        return (f"{self.verb}: {found or 'nothing'} (spans by category); "
                f"{self.empty} of {self.notes} note(s) with none"
                + (f"; notes by member: {routes}" if routes else "")
                + (f" ({self.gated} of them by the language gate)" if self.gated else ""))


def _writer_option(pair: str) -> tuple:
    """``KEY=VALUE`` with a YAML value (``true``, ``5``, ``[-400, -100]``), except that a value
    YAML cannot parse or reads as a mapping (no writer takes one) stays the string typed, so
    templates such as ``[**{subtype}**]`` or ``[{subtype}]`` arrive as written."""
    import yaml
    raw = pair.partition("=")[2]
    try:
        [(key, value)] = cli.reader_options([pair], "--option").items()
    except yaml.YAMLError:
        return pair.partition("=")[0], raw
    if _holds_mapping(value):
        value = raw
    return key, value


def _holds_mapping(value) -> bool:
    """Whether a YAML value is or holds a mapping (``[[{}]]`` read from a marker ``[[{}]]``)."""
    return isinstance(value, dict) or (isinstance(value, list) and any(map(_holds_mapping, value)))


def _writer_options(args) -> dict:
    options = dict(_writer_option(pair) for pair in args.option or ())
    if args.mapping:
        if options.get("mapping", args.mapping) != args.mapping:
            raise ConfigError("--mapping and -o mapping= name two files; give one")
        options["mapping"] = args.mapping
    if args.fhir_policy:
        if args.output_format != "fhir":
            raise ConfigError("--fhir-policy is for --output-format fhir")
        options["policy"] = args.fhir_policy
    if args.seed is not None or args.key is not None or args.key_file:
        options.update({"seed": args.seed} if args.seed is not None else
                       {"key": read_key_file(args.key_file) if args.key_file else args.key})
    return options


def _o_threshold(value: str):
    """``--o-threshold``: a probability, or ``none`` for Viterbi decoding."""
    return "none" if value.strip().lower() == "none" else float(value)


def _explain_file(args, paths) -> ExplainWriter | None:
    """The writer of ``--explain FILE`` (refused before anything is tagged when it meets an input
    or the output, exists without ``--overwrite``, or is not .html/.json/.jsonl)."""
    if not isinstance(args.explain, str):
        return None
    ExplainWriter.kind(args.explain)
    check_apart(args.explain, paths, [args.output_dir], what="--explain")
    if Path(args.explain).exists() and not args.overwrite:
        raise ConfigError(f"{args.explain} exists; not replaced (to replace it: --overwrite)")
    return ExplainWriter(args.explain, overwrite=args.overwrite)


def _route(model, route: str | None) -> None:
    """``--route``: every note to one member of a routed model (refused for another model)."""
    if route is None or (route == "auto" and not hasattr(model, "forced")):
        return
    if not hasattr(model, "forced"):
        raise ConfigError(f"--route {route}: the model is not a routed model (it has one member)")
    model.forced(route)


def _check_mining_save(args, session) -> None:
    """Refuse ``--site-mining-save`` before anything is tagged when it cannot be honoured."""
    if args.site_mining_save is None:
        return
    if not session.site_mining:
        raise ConfigError("--site-mining-save needs --site-mining on and a model it applies to (English, "
                          "i2b2 labels: docs/site.md)")
    there = [p for p in learnt.files(args.site_mining_save).values() if p.exists()]
    if there and not args.overwrite:
        raise ConfigError(f"{there[0]} exists; not replaced (to replace it: --overwrite)")


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    if isinstance(args.o_threshold, float) and not 0 < args.o_threshold <= 1:
        print("error: --o-threshold must be in (0, 1]", file=sys.stderr)
        return 2
    if args.output_format is None:
        if args.output_dir is None and _terminal(sys.stdout):
            print(f"error: {NO_FORMAT}", file=sys.stderr)
            return 2
        args.output_format = "jsonl"
    errors: list = []
    specs = args.inputs or ["-"]
    try:  # usage errors first, before anything is loaded, tagged or written
        reader_options = cli.reader_options(args.reader_option)
        if args.recursive:
            reader_options["recursive"] = True
        # The modules and the model live until the process ends: frozen before the collector
        # runs again, they stay out of its passes (the next one, which would walk everything
        # the load made, and the one at exit: a fifth of a one-note run) and, in forked --jobs
        # workers, out of the pages those passes would copy. Only the program freezes: called
        # from Python, the freeze would keep every object of the caller out of its collector.
        paths = [spec_path(s, args.input_format) for s in specs]
        check_apart(args.log, paths, [args.output_dir])
        explain_file = _explain_file(args, paths)
        for part in learnt.files(args.site_mining_save).values() if args.site_mining_save else ():
            check_apart(part, paths, [args.output_dir], what="--site-mining-save")
        with gc_paused():
            model = TaggingModel.load(args.model, backend=args.backend)
            _route(model, args.route)
            if cli.owns_process(argv):
                gc.freeze()
        cli.start_log(args)  # before the inputs are opened: their warnings go to the log too
        new_run()  # this run's folders only (a process may run tag more than once)
        inputs = open_inputs(specs, args.input_format, errors, reader_options)
        grouper = grouping.from_args(args)
        known = site.from_args(args)
        options = _writer_options(args)
        check_apart(options.get("mapping"), paths, [args.output_dir], what="mapping")  # PHI: never over a note
        random_key = args.output_format == "surrogate" and options.get("key") is None and options.get("seed") is None
        session = Session(model, args.output_format, options=options, site=known, grouper=grouper,
                          o_threshold={None: ..., "none": None}.get(args.o_threshold, args.o_threshold),
                          o_words=not args.no_o_words, explain=bool(args.explain),
                          site_mining=args.site_mining == "on", date_order=args.date_order,
                          crf_evidence=args.output_format not in NO_SURROGATES)  # rendered here: no surrogate
        _check_mining_save(args, session)
        out = session.open_writer(args.output_dir, [spec_path(s, args.input_format) for s in specs], args.overwrite)
        inputs = refuse_existing(out, specs, inputs, args.input_format, reader_options)
        manifest = _run_manifest(args, argv)
        if manifest:  # a run killed part way leaves it marked incomplete
            runmanifest.start(args.output_dir, *manifest)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    total = count_documents(specs, args.input_format, reader_options)
    bar = Progress("tag", total, "note", not args.quiet, always=args.progress)

    def report(msg):
        bar.write(f"failed: {msg}")

    def to_stderr(data, tagged):
        bar.write("explain: " + json.dumps(data))

    explained = None
    if explain_file is not None:
        def explained(data, tagged):  # with what each span became in the output just written
            explain_file.add(data, tagged, became(tagged.doc_id))
    elif args.explain and args.output_format != "jsonl":  # the JSONL writer keeps it in the records
        explained = to_stderr

    if args.seed is not None and args.output_format == "surrogate" and not args.quiet:
        print(SEED_WARNING, file=sys.stderr)
    if random_key:
        print(RANDOM_KEY_NOTE, file=sys.stderr)  # even with --quiet: the outputs of two runs differ
    tally = Tally(args.output_format, routed=hasattr(model, "forced"))
    tally.watch(out)
    with explain_file if explain_file is not None else contextlib.nullcontext():
        done, failed, completed = session.write(
            session.documents(inputs, errors), out, jobs=args.jobs, errors=errors, report=report,
            progress=bar.update, explained=explained,
            phase=lambda name: bar.phase(name, None if name == "site mining" else total))
    bar.close()
    step("tag: %d document(s) written, %d failed", done, failed)
    use = session.table_use
    if not args.quiet or failed or not completed:
        print(f"tagged {done} document(s), {failed} failed"
              + ("" if completed else "; the output was not completed (see above)"), file=sys.stderr)
    if not args.quiet and not_read_summary():  # the warnings at the start may have scrolled away
        print(not_read_summary(), file=sys.stderr)
    step("tag: %s", tally.message())
    if not args.quiet and done:
        print(tally.message(), file=sys.stderr)
    if use.rows and not args.quiet:
        print(use.message(), file=sys.stderr)
    if use.warning():  # even with --quiet: the tables the user gave did nothing
        print(use.warning(), file=sys.stderr)
    if known is not None and known.dropped and not args.quiet:  # an old mined site file's words
        print(known.dropped_message(), file=sys.stderr)
    if args.site_mining == "on" and not session.site_mining and not args.quiet:
        print("site mining: does not apply to this model (labels of its own or another language; docs/site.md)",
              file=sys.stderr)
    if session.site_mining:
        if not args.quiet:
            print(session.lessons.summary(), file=sys.stderr)
        if args.site_mining_save:
            try:
                saved = learnt.save(session.lessons, args.site_mining_save, args.overwrite)
            except CrfdeidError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
            if not args.quiet:
                print(f"site mining: {saved['site']} site string(s) and {saved['patients']} patient row(s) "
                      f"saved to {args.site_mining_save} (PHI: store it as PHI)", file=sys.stderr)
    if not args.quiet and hasattr(out, "summary"):  # surrogate output: unparsed dates named
        print(out.summary(), file=sys.stderr)
    if manifest:  # for `audit sample --release-output`, which refuses an incomplete one
        try:
            runmanifest.write(args.output_dir, *manifest, complete=completed and not failed, failed=failed)
        except CrfdeidError as exc:  # a full disk at the last step: the notes are written, the manifest is not
            print(f"error: the run manifest was not written ({exc}); it stays marked incomplete", file=sys.stderr)
            return 3
    return 1 if failed or not completed else 0


def _run_manifest(args, argv) -> tuple[list[str], str | Path, str] | None:
    """``(argv, model file, output format)`` of the run manifest, or None when none is written."""
    if not (args.run_manifest and args.output_dir):
        return None
    path = args.model if args.model and (args.model != "default" or Path(args.model).is_file()) else DEFAULT_MODEL
    return sys.argv[1:] if argv is None else list(argv), path, args.output_format


if __name__ == "__main__":
    sys.exit(main())
