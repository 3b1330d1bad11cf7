"""FHIR R4 JSON through Spark, read and written as ``tag --input-format fhir --output-format fhir``
reads and writes it (:mod:`crfdeid.io.fhir`): every resource de-identified by the policy, its
notes through the model, each file written back under its own name.

>>> from crfdeid.spark.fhir import read_fhir, deidentify_fhir              # doctest: +SKIP
>>> records = read_fhir(spark, [("/export/Patient.ndjson", "Patient.ndjson")])   # doctest: +SKIP
>>> out = deidentify_fhir(records, "surrogate", options={"key": key})      # doctest: +SKIP

:func:`read_fhir` reads each file whole (Spark's ``binaryFile`` source) and cuts it into one row
per record (an NDJSON line, or a ``.json`` file's Bundle or resource): ``file``, ``number`` (the
line; 0 for a JSON file), ``source``, ``record`` (the record as JSON), ``known`` and ``people``
(what its Patient, RelatedPerson and Practitioner resources say, as JSON), ``touches`` (the
groups the writer draws surrogates and date offsets in for it: :func:`crfdeid.io.fhir.touched`)
and ``error`` (a line or file that cannot be read: named by file and line, never its content).

:func:`deidentify_fhir` is the plan of docs/fhir.md: a first pass collects the people of the
whole input (the names a ``display`` is re-derived from, the values the notes' ``site.v1`` finds)
into a small table broadcast to every task, as ``tag`` reads every file before it writes one;
the records are grouped so that records sharing a patient (or a practitioner whose name a
display gives) go through one ``fhir`` writer in file and line order, which makes the
surrogates and date offsets ``tag``'s; each task keeps an in-memory writer. :func:`write_files`
(:mod:`crfdeid.spark.hl7`'s) writes each file's records on the driver, in order.
"""

from __future__ import annotations

import json
import os
import uuid

import pandas as pd

from ..adapters import require
from ..adapters.records import Deidentifier
from ..errors import CrfdeidError, ReaderError
from ..io import fhir, writer_class
from ..io.fhir_policy import load_policy
from ..io.records import known_fields
from .hl7 import cached_model, whole_files, write_files

__all__ = ["RECORD_SCHEMA", "deidentify_fhir", "read_fhir", "write_files"]

#: The columns of :func:`read_fhir`.
RECORD_SCHEMA = ("file string, number int, source string, record string, known string, people string, "
                 "touches array<string>, error string")
DEID, ERROR = "deid_fhir", "error"
_GROUP = "__crfdeid_group"


def read_fhir(spark, files: list[tuple[str, str]], encoding: str | None = None):
    """One row per record of the ``(path, name)`` files (module docstring): ``.ndjson`` files
    a line a record, any other file one JSON document."""
    return whole_files(spark, files, lambda path, name, data: _rows(path, name, data, encoding), RECORD_SCHEMA)


def _rows(source: str, name: str, data: bytes, encoding) -> list[tuple]:
    """The rows of one file: each record with its people and groups, or its error."""
    errors: list = []
    rows: list[tuple] = []
    for rec in fhir._records([(source, data, name)], errors.append, encoding):
        number = rec.extra["line"] or 0
        failed: list = []
        if not any(True for _ in fhir.record_documents([rec], failed.append, {}, {})):
            rows.append((name, number, source, None, None, None, [], "; ".join(map(str, failed))))
            continue  # not read (an attachment that is not base64...): named, not written
        known, people = fhir.known_of([rec]), fhir.people_of([rec])
        rows.append((name, number, source, json.dumps(rec.payload, ensure_ascii=False),
                     json.dumps(known) if known else None, json.dumps(people) if people else None,
                     sorted(fhir.touched(rec)), None))
    rows += [(name, None, source, None, None, None, [], str(e)) for e in errors]
    return rows


def people_tables(rows) -> tuple[dict, dict]:
    """``(known, people)`` of the whole input from the ``(known, people)`` JSON of its records in
    file and line order, as :func:`crfdeid.io.fhir.known_of` and ``people_of`` give them for all
    the records at once (values in first-seen order; a later resource's name wins)."""
    fields: dict[str, dict[str, list]] = {}
    people: dict = {}
    for known_json, people_json in rows:
        for key, values in json.loads(known_json or "{}").items():
            into = fields.setdefault(key, {})
            for field, found in values.items():
                into.setdefault(field, []).extend(found)
        people.update(json.loads(people_json or "{}"))
    return {k: known_fields(v) for k, v in fields.items()}, people


def components(sets) -> dict[str, str]:
    """``group -> its component's name`` for the groups of records that touch several (union
    find): records of one component go through one writer. A group not in the answer is its own.

    >>> components([["Patient/a", "Practitioner/x"], ["Practitioner/x", "PractitionerRole/r"]])["PractitionerRole/r"]
    'Patient/a'
    """
    parent: dict[str, str] = {}

    def root(g):
        while parent.setdefault(g, g) != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g
    for groups in sets:
        first, *rest = sorted(groups)
        for g in rest:
            a, b = root(first), root(g)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {g: root(g) for g in parent}


def deidentify_fhir(records, output_format: str = "redacted", *, model=None, options: dict | None = None,
                    partitions: int | None = None):
    """The rows of :func:`read_fhir` de-identified: ``file``, ``number``, ``deid_fhir`` (the record
    as the ``fhir`` writer writes it; null when it failed) and ``error`` (a record that failed, or
    the Bundle entries left out of a record that is written); no record text in the clear.

    Parameters
    ----------
    records : pyspark.sql.DataFrame
        :func:`read_fhir`'s rows.
    output_format : str
        ``redacted``, ``masked`` or ``surrogate`` (the writer's ``text``).
    model : Model, str or Path, optional
        Default: the model shipped with crfdeid.
    options : dict, optional
        The ``fhir`` writer's options (``key`` or ``seed``, ``policy``, ``style``...). Without a
        key or seed one random key is drawn here for every task (ids link within the run only).
    partitions : int, optional
        Default: Spark's default parallelism.
    """
    require("pyspark", "spark", "crfdeid.spark")
    from pyspark.sql import functions as F  # pyspark: the optional extra [spark], checked above
    from pyspark.sql import types as T
    deid = Deidentifier(model, "redacted")  # the model, checked on the driver
    given = dict(options or {})
    if given.get("key") is None and given.get("seed") is None:
        given["key"] = os.urandom(32)  # one key for every task: ids and surrogates agree across them
    policy = given.get("policy")
    given["policy"] = policy if policy is not None and not isinstance(policy, (str, os.PathLike)) \
        else load_policy(policy)  # read on the driver: no driver path inside a task
    writer_class("fhir")(None, text=output_format, **given).close()  # options refused now, not in a task
    spark = records.sparkSession
    base = records.persist()
    tables = base.where(F.col("known").isNotNull() | F.col("people").isNotNull()) \
        .orderBy("file", "number").select("known", "people").toLocalIterator()
    known, people = people_tables(tables)
    roots = components(r[0] for r in base.where(F.size("touches") > 1).select("touches").toLocalIterator())
    bc_roots = spark.sparkContext.broadcast(roots)

    @F.udf(T.StringType())
    def component(file, touches):
        return bc_roots.value.get(touches[0], touches[0]) if touches else file
    data = base.withColumn(_GROUP, component(F.col("file"), F.col("touches")))
    data = data.repartition(partitions or spark.sparkContext.defaultParallelism, _GROUP) \
        .sortWithinPartitions(_GROUP, "file", "number")
    task = _Task(spark.sparkContext.broadcast(deid.model), spark.sparkContext.broadcast((known, people)),
                 output_format, given)
    return data.mapInPandas(task, f"file string, number int, {DEID} string, {ERROR} string")


class _Task:
    """Each task: its records tagged and rendered by one ``fhir`` writer, in file and line order."""

    def __init__(self, bc, tables, output_format: str, options: dict):
        self.bc, self.tables, self.output_format, self.options = bc, tables, output_format, options
        self.model_id = uuid.uuid4().hex

    def __call__(self, frames):
        model = cached_model(self.model_id, self.bc)
        known, people = self.tables.value
        deid = Deidentifier(model, "redacted")
        writer = writer_class("fhir")(None, text=self.output_format, scheme=model.scheme, **self.options)
        for frame in frames:
            out = []
            for file, number, source, record, error in zip(frame["file"], frame["number"], frame["source"],
                                                            frame["record"], frame[ERROR]):
                number = None if pd.isna(number) else int(number)
                if not isinstance(record, str):
                    out.append((file, number, None, error))
                    continue
                out.append((file, number, *_one(deid, writer, file, source, number, record, known, people)))
            yield pd.DataFrame(out, columns=["file", "number", DEID, ERROR])


def _one(deid, writer, file: str, source: str, number, record: str, known, people) -> tuple:
    """``(rendered record or None, error or None)`` of one record."""
    rec = fhir.record_of(source, file, json.loads(record), number if file.lower().endswith(".ndjson") else None)
    errors: list = []
    docs = list(fhir.record_documents([rec], errors.append, known, people))
    failure = None
    try:
        for tagged in deid.tagged(docs):
            writer.write(tagged)
    except CrfdeidError as exc:  # a text that failed (not written), or entries left out (written)
        failure = f"{exc}"
    except Exception as exc:  # noqa: BLE001 - its text could quote the record: the type only
        failure = f"{rec.where}: tagging failed ({type(exc).__name__})"
    text = writer.rendered.pop() if writer.rendered else None
    messages = [str(e) for e in errors if isinstance(e, ReaderError)] + ([failure] if failure else [])
    return text, "; ".join(messages) or None
