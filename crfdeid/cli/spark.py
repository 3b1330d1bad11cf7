"""De-identify notes with Spark: Parquet or JSON Lines in, Parquet or JSON Lines out.

Examples::

    python -m crfdeid spark --input notes.parquet --output out.parquet
    python -m crfdeid spark --input notes.jsonl --output out/ --write-format jsonl \\
        --output-format surrogate --key-file secret.key --master 'local[2]'
    spark-submit --master yarn .../crfdeid/spark/submit.py --input ... --output ...  # docs/spark.md

The input has one note a row: ``id``, ``text`` and optionally ``patient`` (or
``meta.patient``, as crfdeid's own JSONL has it; ``--id-col``, ``--text-col`` and
``--patient-col`` name others). The output has ``id``, the patient column when there is
one (always for JSON Lines), ``spans`` (type, category, start, end, confidence),
``deid_text`` (not for ``--output-format spans``) and ``error``: a note that fails (a JSON
Lines line that is not a note: named by line number and cause) has an error message and
no text. The output must not exist yet; Spark writes to ``OUTPUT.incomplete``, renamed to
``OUTPUT`` once complete (after a killed run, ``--replace-incomplete`` writes it again).

Exit code 0 when every note was de-identified, 1 when some failed (their ids are
listed), 2 on a usage or configuration error, 3 when the Spark job itself failed
(nothing is written to the output). ``--master`` defaults to ``local[*]`` unless
``spark-submit`` gave one. In local mode the workers run this Python unless
``PYSPARK_PYTHON`` names another, Spark's local files are encrypted and kept in a private
folder removed at the end, and the driver listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import stat
import sys
import warnings
from pathlib import Path

from .. import cli
from .. import site as site_args
from ..adapters.records import Deidentifier
from ..deid.key import SEED_WARNING, read_key_file
from ..errors import ConfigError, CrfdeidError
from ..io import writer_class
from ..io.files import check_encoding
from ..openfiles import kind
from ..progress import step
from ..site import Site
from ..tagging.session import Session
from .tag import _writer_option

#: Exit code when the Spark job itself fails (not a note: the job).
JOB_FAILED = 3
#: The input formats read as whole files and written back as files: their file suffixes.
_RECORDS = {"hl7": (".hl7",), "fhir": (".ndjson", ".json")}
_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".json": "jsonl",
             ".ndjson": "jsonl", ".hl7": "hl7"}


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("spark", __doc__, "python -m crfdeid spark --input notes.parquet --output out.parquet",
                   long="starting Spark (tens of seconds), then one pass in which the executors tag every "
                        "note (the tag command's speed times the cores); the stages' progress is in Spark's "
                        "web UI")
    p.epilog = (p.epilog or "") + (
        "\n\nexit codes: 0 every note de-identified, 1 some notes failed (listed), 2 usage or "
        f"configuration error, {JOB_FAILED} the Spark job itself failed (nothing written)")
    p.add_argument("--input", required=True, help="Parquet or JSON Lines file or folder")
    p.add_argument("--output", required=True, help="output folder (Spark writes part files); must not exist")
    p.add_argument("--input-format", choices=("parquet", "jsonl", "hl7", "fhir"),
                   help="default: from the input's suffix (.parquet, .jsonl, .json, .hl7); hl7: HL7 v2 "
                        "files, written back as tag --output-format hl7 writes them; fhir: FHIR R4 .ndjson "
                        "files (a bulk export) or a .json Bundle, written back as tag --output-format fhir "
                        "writes them (docs/fhir.md)")
    p.add_argument("--write-format", choices=("parquet", "jsonl", "hl7", "fhir"),
                   help="default: from the output's suffix, else parquet (hl7, fhir for HL7, FHIR input)")
    p.add_argument("--fhir-policy", metavar="FILE",
                   help="FHIR input: the de-identification policy, as tag --fhir-policy (default: the "
                        "shipped safe-harbor)")
    p.add_argument("--output-format", default="redacted",
                   choices=("redacted", "masked", "surrogate", "spans"), help="default: redacted")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--key-file", help="surrogate output (and FHIR's hashed ids): the secret key (HMAC); "
                                        "runs with the same key agree")
    key.add_argument("--seed", help="surrogate output (and FHIR's hashed ids): public seed (reproducible)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="writer option, as python -m crfdeid tag takes it")
    p.add_argument("--model", help="model file (default: the model shipped with crfdeid)")
    p.add_argument("--master", help="Spark master (default: local[*], or spark-submit's)")
    p.add_argument("--partitions", type=int, help="number of partitions to tag in "
                   "(default: Spark's default parallelism)")
    p.add_argument("--encoding", help="JSON Lines input: the encoding of files without a byte-order mark "
                                       "(default UTF-8; a mark names UTF-8, UTF-16 or UTF-32, as for tag)")
    p.add_argument("--id-col", default="id")
    p.add_argument("--text-col", default="text")
    p.add_argument("--patient-col", help="patient key column (default: patient, else meta.patient, "
                                         "when the input has it)")
    p.add_argument("--replace-incomplete", action="store_true",
                   help="delete OUTPUT.incomplete, left by a run that was killed, and write again")
    p.add_argument("--local-dir", help="local mode: where Spark's private folder of (encrypted) "
                                       "local files goes (default: the system temporary folder)")
    p.add_argument("--site", metavar="FILE", help="site file (YAML): patients' identifiers (keyed by "
                                                  "the patient column), staff, institutions, safe terms "
                                                  "found in every note (docs/site.md)")
    p.add_argument("--explain", action="store_true",
                   help="add the column explanation: each note's spans with the steps that found, widened "
                        "or retyped them and the dropped spans with the step and reason, as JSON (as tag "
                        "--explain; offsets and types, never text)")
    site_args.add_mining_arguments(p, save=False)
    p.add_argument("--date-order", choices=("auto", "mdy", "dmy", "ymd"), default=None,
                   help="how numeric dates are read when surrogates shift them, as tag --date-order "
                        "(auto decides in each partition: give the order when it is known)")
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


def _session(master: str | None, local_dir: str | None):
    """``(session, created, private local folder or None)``: the active session (a program that
    calls :func:`main`), else a new one on ``master`` (local mode: :mod:`crfdeid.spark.local`)."""
    from pyspark import SparkConf
    from pyspark.sql import SparkSession

    from ..spark.local import local_session, private_local_dir  # the package imports pandas: extra [spark]
    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False, None
    conf = SparkConf()
    master = master or conf.get("spark.master", None) or "local[*]"  # spark-submit's master wins
    if master.startswith("local"):
        folder = private_local_dir(local_dir)
        try:
            spark = local_session(master, folder)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
    else:
        folder, spark = None, SparkSession.builder.appName("crfdeid").master(master).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark, True, folder


def _special(path: str) -> str | None:
    """Why a local ``--input`` (or a file of its folder) cannot be read: a FIFO, device or socket
    (Spark would block on it forever, or read ``/dev/zero`` until memory is gone); else None."""
    top = Path(path)
    for f in [top, *(sorted(top.iterdir()) if top.is_dir() else ())]:
        try:
            mode = f.stat().st_mode
        except OSError:
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return f"--input {str(f)!r} is {kind(mode)}, not a file: not read (give a regular file or folder)"
    return None


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    missing = cli.missing_extra("spark", "pyspark", "pyarrow")
    if missing:  # before anything long
        print(f"error: python -m crfdeid spark {missing}", file=sys.stderr)
        return 2
    from ..spark.local import remove_stale, staging  # the package imports pandas: extra [spark]
    if (args.master or "local").startswith("local"):  # a killed run's local files go first
        try:
            remove_stale(args.local_dir)
        except CrfdeidError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    in_fmt = _file_format(args.input, args.input_format, None)
    out_fmt = _file_format(args.output, args.write_format, in_fmt if in_fmt in _RECORDS else "parquet")
    problem = None
    if in_fmt is None:
        problem = f"cannot tell the format of {args.input!r}: give --input-format parquet or jsonl"
    elif "://" not in args.input and not Path(args.input).exists():
        problem = f"no such file or folder: {args.input!r}"
    elif "://" not in args.input and _special(args.input):
        problem = _special(args.input)
    elif "://" not in args.output and Path(args.output).exists():
        problem = f"output {args.output!r} exists; crfdeid never overwrites: name a new one"
    elif "://" not in args.output and Path(staging(args.output)).exists() and not args.replace_incomplete:
        problem = _INCOMPLETE.format(staging(args.output))
    elif args.partitions is not None and args.partitions < 1:
        problem = "--partitions must be at least 1"
    elif args.output_format != "surrogate" and (args.key_file or args.seed) and in_fmt != "fhir":
        problem = "--key-file and --seed are for --output-format surrogate (and FHIR input)"
    elif args.fhir_policy and in_fmt != "fhir":
        problem = "--fhir-policy is for FHIR input (--input-format fhir)"
    elif {in_fmt, out_fmt} & set(_RECORDS) and (in_fmt != out_fmt or args.output_format == "spans"):
        kind = str(in_fmt if in_fmt in _RECORDS else out_fmt)
        problem = (f"{kind.upper()} input is written as {kind.upper()} files (--write-format {kind}, not spans), "
                   f"and {kind.upper()} output needs {kind.upper()} input")
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        key = None
        if args.key_file:
            key = read_key_file(args.key_file)
        elif args.output_format == "surrogate" and args.seed is None and in_fmt != "fhir":
            key = os.urandom(32)  # this run's own key, said below (as tag does)
        options = dict(_writer_option(pair) for pair in args.option or ())
        check_encoding(args.encoding)
        site = Site.load(args.site) if args.site else None
        if in_fmt == "fhir":  # the fhir writer's options, checked now: its text style, key, policy
            deid = _fhir_session(args, key, options)
        else:
            deid = Deidentifier(args.model, args.output_format, key=key, seed=args.seed, options=options,
                                site=site, date_order=args.date_order)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.output_format == "surrogate" and not args.quiet:
        if args.seed is not None:
            print(SEED_WARNING, file=sys.stderr)
        elif not args.key_file:
            print("note: no --key-file: surrogates are drawn with a random key for this run only",
                  file=sys.stderr)
    warnings.filterwarnings("ignore", message=".*pandas >= 3.0.0.*", category=FutureWarning)
    cli.start_log(args)
    step("spark: starting the session")
    try:
        spark, created, folder = _session(args.master, args.local_dir)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - no Java, a JVM that does not start...
        print(f"error: Spark did not start ({type(exc).__name__}; is Java 17 installed?) "
              f"(exit code {JOB_FAILED})", file=sys.stderr)
        return JOB_FAILED
    step("spark: session ready")
    try:
        return _run(spark, args, deid, in_fmt, out_fmt)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the job, not a note: its own exit code
        print(f"error: the Spark job failed ({_failure(exc)}); nothing was written to {args.output!r} "
              f"(exit code {JOB_FAILED})", file=sys.stderr)
        return JOB_FAILED
    finally:
        if created:
            spark.stop()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


_INCOMPLETE = ("an incomplete output of an earlier run (killed or failed) is at {0!r}: give "
               "--replace-incomplete to delete it and write again (when no other run writes there)")


def _failure(exc: BaseException) -> str:
    """The exception types of a failed job, never their messages (a worker's could hold data):
    the driver's, the last Python exception the message names (a worker's), and the Python
    the workers ran."""
    import os
    found = re.findall(r"^\s*(?:[\w.]+\.)?(\w+(?:Error|Exception)):", str(exc), re.M)
    worker = next((name for name in reversed(found) if name != type(exc).__name__), None)
    return (type(exc).__name__ + (f"; in a Python worker: {worker}" if worker else "")
            + f"; the Python workers ran {os.environ.get('PYSPARK_PYTHON') or 'python3'} (PYSPARK_PYTHON)")


def _run(spark, args, deid, in_fmt, out_fmt) -> int:
    from pyspark.sql import functions as F

    from ..spark import ERROR, deidentify  # pyspark, pandas: the optional extra [spark], checked first
    from ..spark.local import HadoopPaths, staging  # pyspark: the optional extra [spark]
    from ..spark.read import READ_ERROR, name_null_ids, read_jsonl  # pyspark: the optional extra [spark]
    paths, stage = HadoopPaths(spark), staging(args.output)
    if paths.exists(args.output):
        raise ConfigError(f"output {args.output!r} exists; crfdeid never overwrites: name a new one")
    if paths.exists(stage):
        if not args.replace_incomplete:
            raise ConfigError(_INCOMPLETE.format(stage))
        paths.delete(stage)
    if in_fmt in _RECORDS:
        return _run_records(spark, args, deid, paths, stage, in_fmt)
    if in_fmt == "jsonl":  # line by line: a line that is not a note is named (line, cause)
        patient = "patient" if not args.patient_col or "." in args.patient_col else args.patient_col
        notes = read_jsonl(spark, paths.files(args.input), args.id_col, args.text_col,
                           (args.patient_col,) if args.patient_col else ("patient", "meta.patient"),
                           patient, args.encoding)
        id_col, text_col = (c.rsplit(".", 1)[-1] for c in (args.id_col, args.text_col))
        error_col: str | None = READ_ERROR
    else:
        notes = spark.read.parquet(args.input)
        patient = args.patient_col or next((c for c in ("patient", "meta.patient") if _has(notes.schema, c)),
                                           None)
        missing = [c for c in (args.id_col, args.text_col, patient) if c and not _has(notes.schema, c)]
        if missing:
            print(f"error: the input has no column {', '.join(map(repr, missing))}; columns: "
                  f"{', '.join(notes.columns)}", file=sys.stderr)
            return 2
        cols = [F.col(args.id_col), F.col(args.text_col)]
        if patient:
            cols.append(F.col(patient).cast("string").alias("patient" if "." in patient else patient))
            patient = "patient" if "." in patient else patient
        notes, (id_col, text_col) = notes.select(*cols), (args.id_col, args.text_col)
        named = name_null_ids(notes, id_col)  # a row without an id is named by file and row
        notes, error_col = (notes, None) if named is None else (named, READ_ERROR)
        if patient is None and deid.site is not None and deid.site.patients:
            print("warning: the input has no patient column, so the site tables' rows keyed by patient "
                  "apply to no note; name it with --patient-col (docs/site.md)", file=sys.stderr)
    out = deidentify(notes, deid.output_format, model=deid.model, options=deid.options,
                     id_col=id_col, text_col=text_col, patient_col=patient,
                     partitions=args.partitions, error_col=error_col, site=deid.site,
                     explain=args.explain, site_mining=args.site_mining == "on")
    step("spark: tagging and writing every note (the executors)")
    try:  # written to the staging folder, renamed once complete: never half an output at OUTPUT
        (out.write.parquet if out_fmt == "parquet" else out.write.json)(stage, mode="errorifexists")
        reader = spark.read.schema(out.schema)
        written = reader.parquet(stage) if out_fmt == "parquet" else reader.json(stage)
        total, n_failed = written.agg(F.count(F.lit(1)), F.count(ERROR)).first()
        failed = written.where(F.col(ERROR).isNotNull()).select(ERROR).limit(20).collect() if n_failed else []
        paths.rename(stage, args.output)
        spark.catalog.clearCache()  # site mining's tagged notes
    except BaseException:
        try:
            paths.delete(stage)
        except Exception:  # noqa: BLE001, S110 - the JVM may be gone; --replace-incomplete then
            pass
        raise
    step("spark: done, %d document(s), %d failed", total - n_failed, n_failed)
    for row in failed:
        print(f"failed: {row[ERROR]}", file=sys.stderr)
    if n_failed > len(failed):
        print(f"failed: ... and {n_failed - len(failed)} more (the error column of the output)",
              file=sys.stderr)
    if not args.quiet or n_failed:
        print(f"de-identified {total - n_failed} document(s), {n_failed} failed; output: {args.output}",
              file=sys.stderr)
    return 1 if n_failed else 0


def _fhir_session(args, key, options: dict) -> Deidentifier:
    """The session of FHIR input: the model, and the ``fhir`` writer's options (``text``: the
    output format; the key, seed and policy; the date order), checked before Spark starts."""
    if "text" in options or "policy" in options:
        raise ConfigError("FHIR input: give the text style as --output-format and the policy as --fhir-policy, "
                          "not -o text= or -o policy=")
    options.update(text=args.output_format, policy=args.fhir_policy)
    options.update({"seed": args.seed} if args.seed is not None else {"key": key} if key is not None else {})
    session = Session(args.model, "fhir", options=options, date_order=args.date_order)  # as tag's
    writer_class("fhir")(None, **session.options).close()
    deid = Deidentifier(session.model, "redacted")
    deid.options = session.options
    return deid


def _run_records(spark, args, deid, paths, stage, kind: str) -> int:
    """HL7 or FHIR files in, the same files out (:mod:`crfdeid.spark.hl7`, :mod:`crfdeid.spark.fhir`),
    written on the driver."""
    from ..spark import fhir, hl7  # pyspark: the optional extra [spark]
    if "://" in args.output and not args.output.startswith("file:"):
        raise ConfigError(f"{kind.upper()} files are written on the driver's file system: give a local --output")
    top = Path(args.input.rstrip("/")).name
    suffixes = _RECORDS[kind]
    files = [(full, name) for full, name in paths.files(args.input) if name.lower().endswith(suffixes) or name == top]
    if not files:
        raise ConfigError(f"no {' or '.join('*' + x for x in suffixes)} files", path=args.input)
    unit = "message" if kind == "hl7" else "record"
    if args.site_mining == "on" and not args.quiet:
        print(f"note: site mining is not applied to {kind.upper()} input here (tag --input-format {kind} "
              f"applies it): each {unit} is tagged alone, as tag --site-mining off tags it", file=sys.stderr)
    if kind == "hl7":
        out = hl7.deidentify_hl7(hl7.read_hl7(spark, files, args.encoding), deid.output_format, model=deid.model,
                                 options=deid.options, partitions=args.partitions)  # the options hold the key
    else:
        options = {k: v for k, v in deid.options.items() if k != "text"}
        out = fhir.deidentify_fhir(fhir.read_fhir(spark, files, args.encoding), deid.options["text"],
                                   model=deid.model, options=options, partitions=args.partitions)
    step(f"spark: tagging every {unit} (the executors), writing the files (the driver)")
    text = hl7.DEID if kind == "hl7" else fhir.DEID
    out = out.persist()  # the sort samples its input first: the records are tagged once, not twice
    rows = out.orderBy("file", "number").select("file", "number", text, "error").toLocalIterator()
    local = stage[5:] if stage.startswith("file:") else stage
    try:
        written, failed = hl7.write_files(rows, local)
        Path(local).rename(args.output[5:] if args.output.startswith("file:") else args.output)
    except BaseException:
        shutil.rmtree(local, ignore_errors=True)
        raise
    finally:
        spark.catalog.clearCache()  # FHIR's records, read once for the people table and once to tag
    for error in failed[:20]:
        print(f"failed: {error}", file=sys.stderr)
    if len(failed) > 20:
        print(f"failed: ... and {len(failed) - 20} more", file=sys.stderr)
    if not args.quiet or failed:
        print(f"de-identified {written} {unit}(s), {len(failed)} failed; output: {args.output}", file=sys.stderr)
    return 1 if failed else 0
