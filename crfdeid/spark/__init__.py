"""De-identify a Spark DataFrame of notes: spans and de-identified text as columns.

>>> from crfdeid.spark import deidentify                                    # doctest: +SKIP
>>> out = deidentify(notes, "surrogate", key=open("secret.key", "rb").read().strip(),
...                  patient_col="patient")                                 # doctest: +SKIP

The model is loaded on the driver (checked), broadcast once, and kept by each Python
worker across its tasks (Spark reuses Python workers by default), so an executor
reads it once. :func:`deidentify` runs ``mapInPandas``: each task tags its notes in
batches of ``batch_rows`` through :class:`crfdeid.adapters.records.Deidentifier`, the
model and writer objects of ``python -m crfdeid tag``, so the spans and text are the
command's for the same notes, model and key.

Surrogates: the keyed draws are deterministic per key, patient and original string,
but a patient's surrogates also depend on the patient's notes rendered before
(initials resolved through the full names seen, draws refused because they equal
another original of the patient). So for ``surrogate`` the notes are repartitioned
by patient and sorted within each partition by patient, then input order: every
patient's notes go through one writer, in input order, as in the command, in any
number of partitions and on any run with the same key.
"""

from __future__ import annotations

import copy
import json
import uuid

import pandas as pd

from ..adapters import require
from ..adapters.records import Deidentifier
from ..document import Document
from ..site.mining import mines
from ..tagging.session import PatientWriters
from . import mining as mined
from .read import kind

#: The spans column: one struct per PHI span, offsets into the original text.
SPAN_TYPE = ("array<struct<type:string,category:string,start:int,end:int,"
             "confidence:double>>")
#: Names of the columns :func:`deidentify` adds.
SPANS, TEXT, ERROR = "spans", "deid_text", "error"
#: The column :func:`deidentify` adds with ``explain``: what each step did to the note's spans.
EXPLANATION = "explanation"
_ORDER, _GROUP = "__crfdeid_order", "__crfdeid_group"

# The model a Python worker keeps between tasks, by call of :func:`deidentify` (a reused
# worker tags every task of a call with one model, its word-type caches warm).
_MODELS: dict = {}
#: How many times this process took a model from a broadcast (once a call per Python
#: worker: tests/test_spark.py reads it in the executors of a ``local-cluster``).
LOADS = {"count": 0}


def _spark():
    require("pyspark", "spark", "crfdeid.spark")
    require("pyarrow", "spark", "crfdeid.spark")
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    return F, T


def deidentify(df, output_format: str = "redacted", *, model=None, key=None, seed=None,
               options: dict | None = None, o_threshold=..., id_col: str = "id",
               text_col: str = "text", patient_col: str | None = None,
               partitions: int | None = None, batch_rows: int = 1000, keep_text: bool = False,
               error_col: str | None = None, site=None, explain: bool = False, site_mining: bool = False):
    """Tag the notes of ``df`` and add the columns ``spans``, ``deid_text`` and ``error``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One note a row: ``id_col``, ``text_col`` (string) and, optionally, ``patient_col``.
    output_format : str
        ``redacted``, ``masked``, ``surrogate`` or ``spans`` (no ``deid_text`` column).
    model : Model, str or Path, optional
        Default: the model shipped with crfdeid.
    key, seed : bytes or str, optional
        ``surrogate`` only: the secret key (or a public seed); the same key gives the same
        surrogates in every partition and run. With neither, one random key for this call.
    options : dict, optional
        Writer options, as ``python -m crfdeid tag -o KEY=VALUE``.
    patient_col : str, optional
        The patient key (a column name or ``a.b`` path); where absent or null a note's
        patient is its i2b2 record prefix (``NNN-``), else its id, as in the command.
    partitions : int, optional
        Repartition into this many partitions (default: by patient for ``surrogate`` into
        ``spark.default.parallelism`` partitions, otherwise as the input comes unless it has
        fewer partitions than that).
    batch_rows : int
        Notes tagged per call of the tagger inside a task.
    keep_text : bool
        Keep the original text column (default: dropped, so the result holds no note text
        in the clear).
    error_col : str, optional
        A column of errors found before tagging (a reader's): a row where it is not null is
        not tagged and gets it as its ``error``; the column is not in the result.
    site : crfdeid.site.Site, optional
        What the site knows (docs/site.md), found in every note; its patient table is keyed
        by ``patient_col``.
    explain : bool
        Add the column ``explanation``: each note's :meth:`crfdeid.tagging.session.Session.explanation`
        as JSON (its spans with the steps that found, widened or retyped them, and the dropped
        spans with the step and reason; offsets and types, never text), as ``tag --explain``.
    site_mining : bool
        As ``tag --site-mining on`` over every note of ``df`` (:mod:`crfdeid.spark.mining`): the
        tagged notes are persisted between the tagging pass and the rendering (the caller may
        ``unpersist`` them, or ``spark.catalog.clearCache()``, once the result is written).

    Returns
    -------
    pyspark.sql.DataFrame
        The input columns (without ``text_col`` unless ``keep_text``), plus ``spans``
        (:data:`SPAN_TYPE`; null when the note failed), ``deid_text`` (null when the note
        failed) and ``error`` (null, or a message naming the document and the failure,
        never its text). With ``surrogate`` the rows come grouped by patient.
    """
    F, T = _spark()
    deid = Deidentifier(model, output_format, key=key, seed=seed, options=options,
                        o_threshold=o_threshold)
    spark = df.sparkSession
    for name in (id_col, text_col, *([error_col] if error_col else [])):
        if name not in df.columns:
            raise ValueError(f"no column {name!r}; columns: {', '.join(df.columns)}")
    taken = ({SPANS, TEXT, ERROR, _ORDER, _GROUP, *([EXPLANATION] if explain else [])}
             & (set(df.columns) - {text_col}))
    if taken:
        raise ValueError(f"the input already has column(s) {', '.join(sorted(taken))}: rename them")
    data = df
    parallelism = spark.sparkContext.defaultParallelism
    surrogate = output_format == "surrogate"
    site_mining = site_mining and mines(deid.model)
    grouped = surrogate or site is not None or site_mining  # a note's patient: surrogates, record, mining
    if grouped:
        patient = F.col(patient_col).cast("string") if patient_col else F.lit(None).cast("string")
        data = data.withColumn(_ORDER, F.monotonically_increasing_id())
        group = F.pandas_udf(_groups, T.StringType())
        data = data.withColumn(_GROUP, group(F.col(id_col).cast("string"), patient))
    if surrogate:
        data = data.repartition(partitions or parallelism, _GROUP).sortWithinPartitions(_GROUP, _ORDER)
    elif partitions:
        data = data.repartition(partitions)
    elif data.rdd.getNumPartitions() < parallelism:
        data = data.repartition(parallelism)
    keep = [f for f in df.schema.fields if (keep_text or f.name != text_col) and f.name != error_col]
    added = [f"{SPANS} {SPAN_TYPE}", *([f"{TEXT} string"] if output_format != "spans" else []),
             f"{ERROR} string", *([f"{EXPLANATION} string"] if explain else [])]
    schema = ", ".join([_ddl(f) for f in keep] + added)
    bc = spark.sparkContext.broadcast(deid.model)
    task = _Task(bc, output_format, deid.options, o_threshold, id_col, text_col,
                 _GROUP if grouped else None,
                 [f.name for f in keep], batch_rows, error_col, site, explain)
    if not site_mining:
        return data.mapInPandas(task, schema)
    first_task = copy.copy(task)
    first_task.keep = list(data.columns)
    first_schema = ", ".join([_ddl(f) for f in data.schema.fields]
                             + [f"{mined.TAGGED} string", f"{mined.FAILED} string"])
    first = data.mapInPandas(lambda frames: mined.tag_pass(first_task, frames), first_schema).persist()
    task.lessons = mined.lessons_of(first, id_col, text_col, _GROUP, site.allow if site else frozenset(), spark)
    task.error_col = mined.FAILED
    return first.mapInPandas(task, schema)


def _ddl(field) -> str:
    """``name type`` of a field in DDL (back-quoted name: any column name passes)."""
    return f"`{field.name.replace('`', '``')}` {field.dataType.simpleString()}"


def _groups(ids: pd.Series, patients: pd.Series) -> pd.Series:
    """A note's patient, by the rule of :attr:`crfdeid.document.Document.group` (a pandas UDF)."""
    return pd.Series(["" if pd.isna(i) else Document(i, "", meta={} if pd.isna(p) else {"patient": p}).group
                      for i, p in zip(ids, patients)], index=ids.index)


def _plain(spans: list | None) -> list | None:
    """Spans tagged with ``explain`` without their ``steps`` (those go in ``explanation``): :data:`SPAN_TYPE`."""
    return None if spans is None else [{k: v for k, v in sp.items() if k != "steps"} for sp in spans]


class _Task:
    """What each ``mapInPandas`` task runs (pickled to the executors with the key, never the
    model, which comes through the broadcast)."""

    def __init__(self, bc, output_format, options, o_threshold, id_col, text_col, group_col,
                 keep, batch_rows, error_col=None, site=None, explain=False):
        self.bc, self.output_format, self.options = bc, output_format, options
        self.model_id = uuid.uuid4().hex  # names the broadcast in the workers' cache
        self.o_threshold, self.id_col, self.text_col, self.group_col = o_threshold, id_col, text_col, group_col
        self.keep, self.batch_rows, self.error_col, self.site = keep, batch_rows, error_col, site
        self.explain = explain
        self.lessons = None  # site mining's second pass: the notes come tagged (crfdeid.spark.mining)

    def model(self):
        model = _MODELS.get(self.model_id)
        if model is None:
            _MODELS.clear()  # one model per worker: a new call's model replaces the last one
            model = _MODELS[self.model_id] = self.bc.value
            LOADS["count"] += 1
        return model

    def __call__(self, frames):
        maker = Deidentifier if self.lessons is None else mined.Mined
        deid = maker(self.model(), self.output_format, options=self.options,
                    o_threshold=self.o_threshold, site=self.site, explain=self.explain)
        deid.lessons = self.lessons
        # rows come sorted by patient for ``surrogate``: one writer per patient, in turn
        writers = PatientWriters(deid) if self.output_format == "surrogate" else deid.writer()
        for frame in frames:
            for start in range(0, len(frame), self.batch_rows):
                yield self._batch(deid, writers, frame.iloc[start:start + self.batch_rows])

    def _batch(self, deid, writers, frame):
        ids = frame[self.id_col].tolist()
        docs, failed = self.documents(frame)
        records = iter(deid.run(docs, writers))
        spans, texts, errors, explained = [], [], [], []
        for i in range(len(ids)):
            rec = None if i in failed else next(records)
            spans.append(None if rec is None else _plain(rec.spans) if self.explain else rec.spans)
            explained.append(None if rec is None or rec.explanation is None else json.dumps(rec.explanation))
            texts.append(None if rec is None else rec.text)
            errors.append(failed[i] if rec is None else rec.error)
        out = frame[self.keep].copy()
        out[SPANS] = spans
        if self.output_format != "spans":
            out[TEXT] = texts
        out[ERROR] = errors
        if self.explain:
            out[EXPLANATION] = explained
        return out

    def documents(self, frame) -> tuple[list[Document], dict]:
        """The notes of ``frame`` to tag, and ``{row: error}`` of the rows that are not notes."""
        docs, failed = [], {}
        ids = frame[self.id_col].tolist()
        groups = frame[self.group_col].tolist() if self.group_col else [None] * len(ids)
        found = frame[self.error_col].tolist() if self.error_col else [None] * len(ids)
        for i, (doc_id, text, group, error) in enumerate(zip(ids, frame[self.text_col].tolist(), groups, found)):
            if isinstance(error, str):
                failed[i] = error
                continue
            if doc_id is None or (pd.api.types.is_scalar(doc_id) and pd.isna(doc_id)):
                failed[i] = "a note with a null id: not tagged"
                continue
            doc_id = str(doc_id)
            if not isinstance(text, str):  # a number, an object or a list is not a note
                what = "null" if pd.api.types.is_scalar(text) and pd.isna(text) else kind(text)
                failed[i] = f"document {doc_id!r}: the text is {what}, not a string; not tagged"
                continue
            meta = {} if group is None else {"patient": group}
            if self.lessons is not None:
                meta[mined.TAGGED] = frame[mined.TAGGED].iloc[i]
            docs.append(Document(doc_id, text, meta=meta))
        return docs, failed
