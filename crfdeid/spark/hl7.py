"""HL7 v2 files through Spark, read and written as ``tag --input-format hl7 --output-format hl7``
reads and writes them (:mod:`crfdeid.io.hl7`): every message de-identified field by field, each
file written back under its own name, byte for byte but the replaced values.

>>> from crfdeid.spark.hl7 import read_hl7, deidentify_hl7                 # doctest: +SKIP
>>> messages = read_hl7(spark, [("/feeds/a.hl7", "a.hl7")])                  # doctest: +SKIP
>>> out = deidentify_hl7(messages, "surrogate", key=key)                    # doctest: +SKIP

:func:`read_hl7` reads each file whole (Spark's ``binaryFile`` source) and cuts it into one row
per message: ``file``, ``number``, ``patient`` (the surrogates' group: PID-3), ``message`` (its
bytes as text, batch headers and terminators included) and ``error`` (a message that cannot be
read: named by file, message and line, never its content; it has no ``message``).
:func:`deidentify_hl7` tags every message and writes it back de-identified (``deid_hl7``); with
``surrogate`` the messages are grouped by patient and taken in file and message order, so a
patient's messages go through one writer in the command's order. :func:`write_files` writes
each file's messages, in order, under the file's name; a message that failed is not written
and its error is returned.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pandas as pd

from ..adapters import require
from ..adapters.records import Deidentifier
from ..errors import CrfdeidError, OutputError
from ..io import hl7, writer_class
from ..io.files import atomic_write

#: The columns of :func:`read_hl7`, and what :func:`deidentify_hl7` adds.
MESSAGE_SCHEMA = "file string, number int, patient string, message string, error string"
DEID, ERROR = "deid_hl7", "error"
_MODELS: dict = {}


def read_hl7(spark, files: list[tuple[str, str]], encoding: str | None = None):
    """One row per message of the ``(path, name)`` files (module docstring)."""
    return whole_files(spark, files, lambda path, name, data: _messages(name, data, encoding), MESSAGE_SCHEMA)


def whole_files(spark, files: list[tuple[str, str]], rows, schema: str):
    """The rows ``rows(path, name, content)`` gives for each of the ``(path, name)`` files, each read
    whole by Spark's ``binaryFile`` source in the executors (``path`` without ``file:``); ``schema``
    is the rows' DDL (its column names in order)."""
    require("pyspark", "spark", "crfdeid.spark")
    names = dict(files)
    columns = [c.strip().split(" ")[0] for c in schema.split(",")]
    raw = spark.read.format("binaryFile").load([path for path, _ in files])

    def split(frames):
        for frame in frames:
            out = []
            for path, content in zip(frame["path"], frame["content"]):
                name = names.get(path) or names.get(path.replace("file:", "", 1)) or Path(path).name
                out += rows(path[5:] if path.startswith("file:") else path, name, bytes(content))
            yield pd.DataFrame(out, columns=columns)
    return raw.select("path", "content").mapInPandas(split, schema)


def cached_model(model_id: str, bc):
    """The model of a broadcast, kept by a Python worker between the tasks of one call."""
    model = _MODELS.get(model_id)
    if model is None:
        _MODELS.clear()
        model = _MODELS[model_id] = bc.value
    return model


def _messages(name: str, data: bytes, encoding) -> list[tuple]:
    """The rows of one file: each message, its text re-joined as read, or its error."""
    errors: list = []
    rows: list[tuple] = []
    for doc in hl7.documents([(name, data, name)], errors.append, encoding):
        rec = doc.meta["container"]
        text = rec.extra.get("bom", "") + "".join(c + t for c, t in rec.payload)
        rows.append((name, doc.meta["record"], doc.group, text, None))
    rows += [(name, None, None, None, str(e)) for e in errors]
    return rows


def deidentify_hl7(messages, output_format: str = "redacted", *, model=None, key=None, seed=None,
                   options: dict | None = None, partitions: int | None = None):
    """The rows of :func:`read_hl7` with ``deid_hl7`` (the message de-identified; null when it
    failed) and ``error``; ``message`` is dropped (no note text in the clear)."""
    require("pyspark", "spark", "crfdeid.spark")
    from pyspark.sql import functions as F  # pyspark: the optional extra [spark], checked above
    deid = Deidentifier(model, "redacted")  # the model, checked on the driver
    given = dict(options or {})
    given.update({k: v for k, v in (("key", key), ("seed", seed)) if v is not None})
    if output_format != "surrogate" and "key" not in given and "seed" not in given:
        given["key"] = os.urandom(32)  # one key for the links' hashes (MSH-10, MSA-2...) in every task
    writer_class("hl7")(None, text=output_format, **given).close()  # options refused now, not in a task
    spark = messages.sparkSession
    data = messages.withColumn("__group", F.coalesce(F.col("patient"), F.col("file")))
    data = data.repartition(partitions or spark.sparkContext.defaultParallelism, "__group") \
        .sortWithinPartitions("__group", "file", "number")
    task = _Task(spark.sparkContext.broadcast(deid.model), output_format, given)
    return data.mapInPandas(task, "file string, number int, patient string, deid_hl7 string, error string")


class _Task:
    """Each task: the messages of its patients tagged and rendered by one ``hl7`` writer."""

    def __init__(self, bc, output_format: str, options: dict):
        self.bc, self.output_format, self.options = bc, output_format, options
        self.model_id = uuid.uuid4().hex

    def __call__(self, frames):
        model = cached_model(self.model_id, self.bc)
        deid = Deidentifier(model, "redacted")
        writer = writer_class("hl7")(None, text=self.output_format, scheme=model.scheme, **self.options)
        for frame in frames:
            out = []
            for file, number, patient, message, error in zip(frame["file"], frame["number"], frame["patient"],
                                                             frame["message"], frame[ERROR]):
                if not isinstance(message, str):
                    out.append((file, number, patient, None, error))
                    continue
                out.append((file, number, patient, *self._one(deid, writer, file, number, message)))
            yield pd.DataFrame(out, columns=["file", "number", "patient", DEID, ERROR])

    @staticmethod
    def _one(deid, writer, file: str, number, message: str) -> tuple:
        errors: list = []
        docs = list(hl7.documents([(file, message.encode("utf-8"), file)], errors.append))
        if errors or len(docs) != 1:
            return None, f"file {file!r} message {number}: not read again ({len(errors)} error(s))"
        docs[0].meta["record"] = number
        try:
            for tagged in deid.tagged(docs):
                writer.write(tagged)
        except CrfdeidError as exc:
            return None, f"file {file!r} message {number}: {exc}"
        except Exception as exc:  # noqa: BLE001 - its text could quote the message: the type only
            return None, f"file {file!r} message {number}: tagging failed ({type(exc).__name__})"
        return writer.rendered.pop(), None


def write_files(rows, folder) -> tuple[int, list[str]]:
    """Write each file's de-identified messages (or FHIR records), in order, as ``folder/NAME`` (a
    new folder); ``(records written, errors)``. ``rows``: ``(file, number, text, error)`` in file
    and record order (``toLocalIterator()`` of the sorted result)."""
    folder = Path(folder)
    folder.mkdir(parents=True)
    written, errors, current = 0, [], None
    parts: list[str] = []

    def flush():
        if current is not None and parts:
            if (folder / current).exists():
                raise OutputError("two inputs give this output file name", path=folder / current)
            atomic_write(folder / current, "".join(parts))
    for file, _, text, error in rows:
        if file != current:
            flush()
            current, parts = file, []
        if text is None:
            errors.append(error or f"file {file!r}: a message failed")
        else:
            parts.append(text)
            written += 1
            if error:  # written, with a part left out (a FHIR Bundle's entry)
                errors.append(error)
    flush()
    return written, errors
