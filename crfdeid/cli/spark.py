"""De-identify notes with Spark: Parquet or JSON Lines in, Parquet or JSON Lines out.

Examples::

    python -m crfdeid spark --input notes.parquet --output out.parquet
    python -m crfdeid spark --input notes.jsonl --output out/ --write-format jsonl \\
        --output-format surrogate --key-file secret.key --master 'local[2]'
    spark-submit --master yarn .../crfdeid/spark/submit.py --input ... --output ...  # docs/spark.md

The input has one note a row: ``id``, ``text`` and optionally ``patient`` (or
``meta.patient``, as crfdeid's own JSONL has it; ``--id-col``, ``--text-col`` and
``--patient-col`` name others). The output has ``id``, the patient column when there is
one, ``spans`` (type, category, start, end, confidence), ``deid_text`` (not for
``--output-format spans``) and ``error``: a note that fails has an error message and
no text. The output must not exist yet. Exit code 0 when every note was de-identified,
1 when some failed (their ids are listed), 2 on a usage or configuration error.
``--master`` defaults to ``local[*]`` unless ``spark-submit`` gave one.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from .. import cli
from ..errors import CrfdeidError

_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".json": "jsonl",
             ".ndjson": "jsonl"}


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("spark", __doc__, "python -m crfdeid spark --input notes.parquet --output out.parquet")
    p.add_argument("--input", required=True, help="Parquet or JSON Lines file or folder")
    p.add_argument("--output", required=True, help="output folder (Spark writes part files); must not exist")
    p.add_argument("--input-format", choices=("parquet", "jsonl"),
                   help="default: from the input's suffix (.parquet, .jsonl, .json)")
    p.add_argument("--write-format", choices=("parquet", "jsonl"),
                   help="default: from the output's suffix, else parquet")
    p.add_argument("--output-format", default="redacted",
                   choices=("redacted", "masked", "surrogate", "spans"), help="default: redacted")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--key-file", help="surrogate output: the secret key (HMAC); runs with the "
                                        "same key agree")
    key.add_argument("--seed", help="surrogate output: public seed (reproducible surrogates)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="writer option, as python -m crfdeid tag takes it")
    p.add_argument("--model", help="model file (default: the model shipped with crfdeid)")
    p.add_argument("--master", help="Spark master (default: local[*], or spark-submit's)")
    p.add_argument("--partitions", type=int, help="number of partitions to tag in "
                   "(default: Spark's default parallelism)")
    p.add_argument("--id-col", default="id")
    p.add_argument("--text-col", default="text")
    p.add_argument("--patient-col", help="patient key column (default: patient, else meta.patient, "
                                         "when the input has it)")
    p.add_argument("--site", metavar="FILE", help="site file (YAML): patients' identifiers (keyed by "
                                                  "the patient column), staff, institutions, safe terms "
                                                  "found in every note (docs/site.md)")
    p.add_argument("--quiet", action="store_true", help="no summary on success")
    return p


def _file_format(path: str, given: str | None, default: str | None) -> str | None:
    if given:
        return given
    fmt = _SUFFIXES.get(Path(path.rstrip("/")).suffix.lower())
    if fmt is None and Path(path).is_dir():  # a folder of part files: look at them
        found = {_SUFFIXES.get(f.suffix.lower()) for f in Path(path).iterdir()} - {None}
        fmt = found.pop() if len(found) == 1 else None
    return fmt or default


def _has(schema, dotted: str) -> bool:
    for part in dotted.split("."):
        names = {f.name: f for f in getattr(schema, "fields", ())}
        if part not in names:
            return False
        schema = names[part].dataType
    return True


def _session(master: str | None):
    """``(session, created)``: the active session (a program that calls :func:`main`), else a
    new one on ``master``."""
    from pyspark import SparkConf
    from pyspark.sql import SparkSession
    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    builder = SparkSession.builder.appName("crfdeid")
    if master or not SparkConf().contains("spark.master"):  # spark-submit's master wins
        master = master or "local[*]"
        builder = builder.master(master)
        if master.startswith("local"):  # one machine: listen on loopback only, no web UI
            builder = (builder.config("spark.driver.bindAddress", "127.0.0.1")
                       .config("spark.driver.host", "127.0.0.1").config("spark.ui.enabled", "false"))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark, True


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    missing = cli.missing_extra("spark", "pyspark", "pyarrow")
    if missing:  # before anything long
        print(f"error: python -m crfdeid spark {missing}", file=sys.stderr)
        return 2
    in_fmt = _file_format(args.input, args.input_format, None)
    out_fmt = _file_format(args.output, args.write_format, "parquet")
    problem = None
    if in_fmt is None:
        problem = f"cannot tell the format of {args.input!r}: give --input-format parquet or jsonl"
    elif "://" not in args.input and not Path(args.input).exists():
        problem = f"no such file or folder: {args.input!r}"
    elif "://" not in args.output and Path(args.output).exists():
        problem = f"output {args.output!r} exists; crfdeid never overwrites: name a new one"
    elif args.partitions is not None and args.partitions < 1:
        problem = "--partitions must be at least 1"
    elif args.output_format != "surrogate" and (args.key_file or args.seed):
        problem = "--key-file and --seed are for --output-format surrogate"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    from ..adapters.records import Deidentifier
    from .tag import _writer_option
    try:
        key = None
        if args.key_file:
            from ..deid.key import read_key_file
            key = read_key_file(args.key_file)
        options = dict(_writer_option(pair) for pair in args.option or ())
        from ..site import Site
        site = Site.load(args.site) if args.site else None
        deid = Deidentifier(args.model, args.output_format, key=key, seed=args.seed, options=options,
                            site=site)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.output_format == "surrogate" and not args.quiet:
        from ..deid.key import SEED_WARNING
        if args.seed is not None:
            print(SEED_WARNING, file=sys.stderr)
        elif not args.key_file:
            print("note: no --key-file: surrogates are drawn with a random key for this run only",
                  file=sys.stderr)
    warnings.filterwarnings("ignore", message=".*pandas >= 3.0.0.*", category=FutureWarning)
    spark, created = _session(args.master)
    try:
        return _run(spark, args, deid, in_fmt, out_fmt)
    finally:
        if created:
            spark.stop()


def _run(spark, args, deid, in_fmt, out_fmt) -> int:
    from pyspark.sql import functions as F

    from ..spark import ERROR, deidentify
    notes = (spark.read.parquet if in_fmt == "parquet" else spark.read.json)(args.input)
    patient = args.patient_col or next((c for c in ("patient", "meta.patient") if _has(notes.schema, c)), None)
    missing = [c for c in (args.id_col, args.text_col, patient) if c and not _has(notes.schema, c)]
    if missing:
        print(f"error: the input has no column {', '.join(map(repr, missing))}; columns: "
              f"{', '.join(notes.columns)}", file=sys.stderr)
        return 2
    cols = [F.col(args.id_col), F.col(args.text_col)]
    if patient:
        cols.append(F.col(patient).cast("string").alias("patient" if "." in patient else patient))
        patient = "patient" if "." in patient else patient
    out = deidentify(notes.select(*cols), deid.output_format, model=deid.model, options=deid.options,
                     id_col=args.id_col, text_col=args.text_col, patient_col=patient,
                     partitions=args.partitions, site=deid.site)
    (out.write.parquet if out_fmt == "parquet" else out.write.json)(args.output, mode="errorifexists")
    reader = spark.read.schema(out.schema)
    written = reader.parquet(args.output) if out_fmt == "parquet" else reader.json(args.output)
    total, n_failed = written.agg(F.count(F.lit(1)), F.count(ERROR)).first()
    failed = written.where(F.col(ERROR).isNotNull()).select(ERROR).limit(20).collect() if n_failed else []
    for row in failed:
        print(f"failed: {row[ERROR]}", file=sys.stderr)
    if n_failed > len(failed):
        print(f"failed: ... and {n_failed - len(failed)} more (the error column of the output)",
              file=sys.stderr)
    if not args.quiet or n_failed:
        print(f"de-identified {total - n_failed} document(s), {n_failed} failed; output: {args.output}",
              file=sys.stderr)
    return 1 if n_failed else 0
