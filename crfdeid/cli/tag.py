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
``--reader-option KEY=VALUE``. What the site knows (patients' identifiers, staff,
institutions, towns, safe terms: ``--site``, ``--site-table``, ``--site-list``; a JSONL
note's ``meta.known``) is found in every note too (docs/site.md). The spans an annotated
input carries are replaced by the model's; their labels are checked against the i2b2
scheme for an i2b2 model and taken as written for a model with labels of its own. Redacted and surrogate output
follow the model's label scheme (placeholders, generators). Without
``--output-dir`` everything goes to standard output. A document that cannot be
read or tagged is reported (file, document id, never its text), is not written
(fail closed), and does not stop the others; the exit code is 1 if any failed.
Exit code 2, before anything is tagged: an unknown format or option, an input
that is missing or has no matching files, an output folder that is, lies in or
contains an input, or cannot be made, and an output file (``tagged.jsonl``,
``mapping=``) that exists without ``--overwrite``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from .. import cli, schema, site
from ..adapters.records import tag_result
from ..crf.model import Model
from ..deid import grouping
from ..deid.key import SEED_WARNING, read_key_file
from ..errors import CrfdeidError, OutputError
from ..io import StreamWriter, open_writer, read, spec_path
from ..io.labelled import takes_scheme
from ..tagging.model import BATCH_CHARS, batches

_MODEL = None
_OPTIONS: dict = {}  # what the chain gets with every note (the site's knowledge), in a worker too


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("tag", __doc__,
                   'echo "Seen by Dr. Lee on 7/22/2098." | python -m crfdeid tag --output-format jsonl')
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="file, folder, FORMAT:PATH or - (stdin)")
    p.add_argument("--model", help="model file (default: the model shipped with crfdeid)")
    p.add_argument("--input-format", default="text", help="reader for bare paths (default: text)")
    cli.add_reader_options(p, inputs="the inputs")
    p.add_argument("--output-format", default="jsonl",
                   help="i2b2, brat, jsonl, redacted, masked, surrogate... (default: jsonl)")
    p.add_argument("--output-dir", help="folder for the output (default: standard output)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="writer option, e.g. style=xyz or template='<{subtype}>' (redacted), char=* "
                        "(masked), xml=true, date_shift=[-400,-100], age_bucket=5, mark=true "
                        "(surrogate)")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--seed", help="surrogate output: public seed, for tests and demonstrations only "
                                    "(anyone with the seed can recompute the surrogates)")
    key.add_argument("--key", help="surrogate output: secret key (HMAC); batches processed "
                                   "separately agree")
    key.add_argument("--key-file", help="surrogate output: read the secret key from this file "
                                        "(make one with: python -m crfdeid key new FILE)")
    p.add_argument("--o-threshold", type=_o_threshold, metavar="P",
                   help="mark a token as PHI when P(O) < P; 'none': Viterbi labels only "
                        "(overrides the model's setting)")
    p.add_argument("--no-o-words", action="store_true",
                   help="let the threshold mark every word, also those the model saw in training "
                        "only outside PHI (decoding.o_words_min_count)")
    grouping.add_arguments(p)
    site.add_arguments(p)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument("--backend", choices=("numpy", "crfsuite"), default="numpy",
                   help="tagging backend, same labels (default: numpy; crfsuite: pycrfsuite's tagger)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    cli.add_overwrite(p)
    return p


def _init_worker(model_path, backend="numpy", o_words=True, options=None):
    """Load the model in a spawned worker; a forked one has the parent's (:func:`_share`)."""
    global _MODEL, _OPTIONS
    if _MODEL is not None:
        return
    _MODEL = Model.load(model_path, backend=backend)
    _OPTIONS = options or {}
    if not o_words:
        _MODEL.o_words = frozenset()


def _share(model, options=None) -> None:
    """Make ``model`` (and the chain's ``options``) the ones forked workers tag with (no second
    load in each)."""
    global _MODEL, _OPTIONS
    _MODEL, _OPTIONS = model, options or {}


#: Said on stderr when surrogates are made without --key-file, --key or --seed.
RANDOM_KEY_NOTE = ("note: no --key-file, --key or --seed: the surrogates use a random key made for this run, "
                   "so another run (another batch of the same patients) gets different ones; for one set "
                   "per patient across runs make a key (python -m crfdeid key new secret.key) and pass "
                   "--key-file secret.key")


def _tag_batch(item):
    """A worker's task: a batch of documents, tagged together (the numpy backend labels
    a batch at once), one result per document."""
    docs, thr = item
    return [tag_result(doc, tagged) for doc, tagged in _MODEL.tag_each(docs, thr, options=_OPTIONS)]


def _open_inputs(specs, fmt, errors, options=None, scheme=None) -> list:
    """Every input opened (checked) before any is tagged: their document iterators.

    An annotated input's labels are checked against the i2b2 scheme for an i2b2 model (as
    always) and taken as written (``scheme=any``) for a model with labels of its own: the
    model's spans replace them, and a label only the test notes have must not fail a note."""
    labels = {"scheme": schema.I2B2 if scheme is None or scheme is schema.I2B2 else schema.ANY}
    return [read(spec, errors=errors, default_format=fmt,
                 **{**(labels if takes_scheme(spec, fmt) else {}), **(options or {})})
            for spec in specs]


def _documents(inputs, errors, grouper=None):
    for docs in inputs:
        for doc in docs:
            try:
                yield grouper.apply(doc) if grouper is not None else doc
            except CrfdeidError as exc:  # without its patient key a note cannot get its patient's surrogates
                errors.append(exc)


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
    if args.seed is not None or args.key is not None or args.key_file:
        options.update({"seed": args.seed} if args.seed is not None else
                       {"key": read_key_file(args.key_file) if args.key_file else args.key})
    return options


def _o_threshold(value: str):
    """``--o-threshold``: a probability, or ``none`` for Viterbi decoding."""
    return "none" if value.strip().lower() == "none" else float(value)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    if isinstance(args.o_threshold, float) and not 0 < args.o_threshold <= 1:
        print("error: --o-threshold must be in (0, 1]", file=sys.stderr)
        return 2
    errors: list = []
    specs = args.inputs or ["-"]
    try:  # usage errors first, before anything is loaded, tagged or written
        model = Model.load(args.model, backend=args.backend)
        inputs = _open_inputs(specs, args.input_format, errors, cli.reader_options(args.reader_option),
                              model.scheme)
        grouper = grouping.from_args(args)
        known = site.from_args(args)
        options = _writer_options(args)
        out = open_writer(args.output_format, args.output_dir, options,
                      [spec_path(s, args.input_format) for s in specs], args.overwrite, model.scheme)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    thr = {None: ..., "none": None}.get(args.o_threshold, args.o_threshold)
    chain_options = {} if known is None else {"site": known}
    if args.no_o_words:
        model.o_words = frozenset()
    done = failed = 0
    bar = None
    if not args.quiet:
        from tqdm import tqdm
        bar = tqdm(desc="tag", unit="doc", disable=None, file=sys.stderr)

    def report(msg):
        if bar is not None:
            bar.write(f"failed: {msg}", file=sys.stderr)
        else:
            print(f"failed: {msg}", file=sys.stderr)

    if args.seed is not None and args.output_format == "surrogate" and not args.quiet:
        print(SEED_WARNING, file=sys.stderr)
    if args.output_format == "surrogate" and options.get("key") is None and options.get("seed") is None:
        print(RANDOM_KEY_NOTE, file=sys.stderr)  # even with --quiet: the outputs of two runs differ
    docs = _documents(inputs, errors, grouper)
    pool = None
    results: Iterator[tuple]
    if args.jobs > 1:  # batches of documents to workers, results back in input order
        import multiprocessing as mp
        from itertools import chain

        method = "spawn" if sys.platform == "win32" else "fork"
        if method == "fork":
            _share(model, chain_options)
        pool = mp.get_context(method).Pool(args.jobs, _init_worker,
                                           (model.path, args.backend, not args.no_o_words, chain_options))
        tasks = ((batch, thr) for batch in batches(docs, BATCH_CHARS))
        results = chain.from_iterable(pool.imap(_tag_batch, tasks))
    else:  # in batches (the numpy backend labels several documents at once)
        results = (tag_result(doc, tagged) for doc, tagged in model.tag_each(docs, thr, options=chain_options))
    seen_errors = 0
    try:
        with out:
            for _doc_id, tagged, err in results:
                while seen_errors < len(errors):
                    report(str(errors[seen_errors]))
                    seen_errors += 1
                    failed += 1
                if err is None:
                    err = cli.write_document(out, tagged)
                if err is not None:
                    report(err)
                    failed += 1
                else:
                    done += 1
                if bar is not None:
                    bar.update(1)
            for e in errors[seen_errors:]:
                report(str(e))
                failed += 1
    except OutputError as exc:  # the closing step (an output file's rename, a mapping) failed
        report(str(exc))
        failed += 1
        if isinstance(out, StreamWriter):  # one stream file: none of it was made
            failed, done = failed + done, 0
    if pool is not None:
        pool.close()
        pool.join()
        _share(None)
    if bar is not None:
        bar.close()
    if not args.quiet or failed:
        print(f"tagged {done} document(s), {failed} failed", file=sys.stderr)
    if not args.quiet and hasattr(out, "summary"):  # surrogate output: unparsed dates named
        print(out.summary(), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
