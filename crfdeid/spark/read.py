"""JSON Lines notes into a DataFrame, line by line, so that every line that cannot be a note is
reported by file and line number with its cause (never its content).

Spark's own JSON reader turns a ``text`` that is a number, an object or a list into a
string (which would then be de-identified as if it were the note), and a malformed or
non-UTF-8 line into a row of nulls (reported as "a note with a null id"). Here each line
is decoded (strict UTF-8) and parsed in the Python workers: a line that is not a note gets
an error naming ``line N of FILE`` and the reason, and is not tagged.

A file is read as ``tag`` reads it (:func:`crfdeid.io.files.text_lines`): UTF-8 unless a
byte-order mark names UTF-16 or UTF-32 or ``encoding`` names another encoding; such a file is
decoded whole by one task (its lines cannot be split as bytes). A file without a mark whose
first bytes show another encoding (UTF-16 without a mark: NUL bytes) fails once, with the
hint to name it (``--encoding``); none of its lines is read.
"""

from __future__ import annotations

import io
import json
import re
from functools import partial

from ..errors import CrfdeidError
from ..io.files import check_encoding, foreign, sniff, text_lines
from ..io.jsonl import TOO_LONG_NUMBER

#: The column :func:`read_jsonl` adds: null, or why the line is not a note to tag.
READ_ERROR = "__crfdeid_read_error"


def kind(value) -> str:
    """A value's JSON type in words, for messages (never the value).

    >>> kind(3), kind({"a": 1}), kind([1]), kind(None), kind(True)
    ('a number', 'an object', 'a list', 'null', 'a boolean')
    """
    import numbers
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, numbers.Number):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return "a string"
    return "a list" if hasattr(value, "__len__") else type(value).__name__


def _get(obj, dotted: str):
    for part in dotted.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else None
    return obj


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate(value: str) -> int:
    """Where ``value`` holds a lone surrogate code point (a ``\\ud800`` escape), else -1."""
    found = _SURROGATE.search(value)
    return -1 if found is None else found.start()


def parse_line(name: str, id_col: str, text_col: str, patient_cols: tuple, item):
    """``(id, text, patient, error)`` of one line ``(bytes, index)``; None for a blank line.

    ``patient_cols``: where the patient may be (dotted paths), the first present wins.

    >>> parse_line("a.jsonl", "id", "text", (), (b'{"id": "n1", "text": 5}', 2))[3]
    "line 3 of a.jsonl (document 'n1'): text is a number, not a string; not tagged"
    >>> parse_line("a.jsonl", "id", "text", (), (b'{"id": "n1", "text": "Seen', 0))[3]
    'line 1 of a.jsonl, column 22: not valid JSON (Unterminated string starting at); not tagged'
    """
    raw, index = item
    where = f"line {index + 1} of {name}"
    if index == 0 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a byte-order mark
    if not raw.strip():
        return None
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, None, None, f"{where}: not valid UTF-8 (byte {exc.start + 1}); not tagged"
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, None, None, f"{where}, column {exc.colno}: not valid JSON ({exc.msg}); not tagged"
    except RecursionError:
        return None, None, None, f"{where}: JSON nested too deeply to read; not tagged"
    except ValueError:  # an integer of more digits than Python converts
        return None, None, None, f"{where}: {TOO_LONG_NUMBER}; not tagged"
    if not isinstance(obj, dict):
        return None, None, None, f"{where}: {kind(obj)}, not a JSON object; not tagged"
    doc_id, text = _get(obj, id_col), _get(obj, text_col)
    patient_col, patient = next(((c, _get(obj, c)) for c in patient_cols if _get(obj, c) is not None),
                                (None, None))
    if doc_id is None:
        return None, None, None, f"{where}: no {id_col!r} (a note with a null id); not tagged"
    if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)) or (
            isinstance(doc_id, str) and _surrogate(doc_id) >= 0):
        what = "a lone surrogate code point" if isinstance(doc_id, str) else kind(doc_id)
        return None, None, None, f"{where}: the {id_col!r} is {what}, not a string or number; not tagged"
    doc_id = str(doc_id)
    problem = None
    if not isinstance(text, str):
        problem = f"{text_col} is {kind(text)}, not a string"
    elif _surrogate(text) >= 0:
        problem = f"{text_col} holds a lone surrogate code point at character {_surrogate(text)}"
    elif patient is not None and (isinstance(patient, bool) or not isinstance(patient, (str, int))
                                  or (isinstance(patient, str) and _surrogate(patient) >= 0)):
        problem = f"{patient_col} is {kind(patient)}, not a string or number"
    if problem:
        return doc_id, None, None, f"{where} (document {doc_id!r}): {problem}; not tagged"
    return doc_id, text, None if patient is None else str(patient), None


def read_jsonl(spark, files: list[tuple[str, str]], id_col: str = "id", text_col: str = "text",
               patient_cols: tuple = ("patient", "meta.patient"), patient_name: str = "patient",
               encoding: str | None = None):
    """A DataFrame of the notes in JSON Lines ``files`` (``(path, name in messages)`` pairs, in
    order), rows in the files' order, each file's lines in order.

    Its columns: ``id`` and ``text`` (named by the last part of ``id_col`` and ``text_col``,
    dotted paths into each object), ``patient_name`` (the first of ``patient_cols`` a line
    has, null where none; no column when ``patient_cols`` is empty) and :data:`READ_ERROR`.
    ``encoding``: of the files without a byte-order mark (default UTF-8).
    """
    from pyspark.sql import functions as F
    sc = spark.sparkContext
    encoding = check_encoding(encoding)
    rdds = []
    for path, name in files:
        parse = partial(parse_line, name, id_col, text_col, tuple(patient_cols))
        head = _head(spark, path)
        enc, bom = sniff(head[:4], encoding)
        why = foreign(head) if encoding is None and not bom else None
        if why:  # the whole file is in another encoding: one failure, none of its lines read
            rdds.append(sc.parallelize([(None, None, None, f"{name}: not read as UTF-8: {why}; not tagged")], 1))
        elif enc == "utf-8":
            # Spark's text source keeps each line's bytes as they are (cast to binary: not decoded,
            # so a line that is not UTF-8 is seen as such); zipWithIndex numbers them in file order
            rdds.append(spark.read.text(path).select(F.col("value").cast("binary")).rdd.map(_bytes)
                        .zipWithIndex().map(parse).filter(_kept))
        else:  # UTF-16, UTF-32 or a named encoding: decoded whole, as ``tag`` decodes it
            rdds.append(sc.binaryFiles(path, 1).flatMap(partial(_decoded, name, encoding, parse))
                        .filter(_kept))
    names = [id_col.rsplit(".", 1)[-1], text_col.rsplit(".", 1)[-1],
             *([patient_name] if patient_cols else []), READ_ERROR]
    rows = sc.union(rdds) if rdds else sc.emptyRDD()
    if not patient_cols:
        rows = rows.map(_without_patient)
    return spark.createDataFrame(rows, ", ".join(f"`{n}` string" for n in names))


def _head(spark, path: str, size: int = 4096) -> bytes:
    """The first ``size`` bytes of a file, through Spark's Hadoop file system (read on the driver)."""
    jvm = spark._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    stream = p.getFileSystem(spark._jsc.hadoopConfiguration()).open(p)
    try:
        return bytes(stream.readNBytes(size))  # a byte[] comes back as bytes (Java 11's InputStream)
    finally:
        stream.close()


def _decoded(name: str, encoding, parse, item):
    """The rows of :func:`parse_line` of a whole file ``(path, content)``, decoded as ``tag``
    decodes it (:func:`crfdeid.io.files.text_lines`); a line that does not decode is named by
    its number and the reason (its content never)."""
    try:
        for index, (line, bad) in enumerate(text_lines(io.BytesIO(item[1]), encoding, name)):
            if bad is None:
                yield parse((line.encode("utf-8"), index))
            else:
                yield (None, None, None, f"line {index + 1} of {name}: not valid {bad.encoding.upper()} "
                                         f"({bad.reason}); not tagged")
    except CrfdeidError as exc:
        yield None, None, None, f"{name}: {exc.reason if hasattr(exc, 'reason') else exc}; not tagged"


def _bytes(row) -> bytes:
    return bytes(row[0])


def _kept(row) -> bool:
    return row is not None


def _without_patient(row) -> tuple:
    return row[0], row[1], row[3]


_ROW, _PART = "__crfdeid_row", "__crfdeid_part"


def name_null_ids(df, id_col: str):
    """``df`` (a file source, e.g. ``spark.read.parquet``, a projection of it at most) with the
    column :data:`READ_ERROR`: null, or for a row whose ``id_col`` is null ``row N of FILE: a
    note with a null id; not tagged`` (N counted from 1 in the file's order). None when no
    row's id is null (one pass over the ids; no other cost then).

    Rows are numbered without moving the notes: ``monotonically_increasing_id`` gives each
    row its partition and its place in it, a pass over the ids counts each file's rows per
    partition, and a file's partitions hold its splits in order (Spark's stable sort of the
    splits by size keeps a file's equal splits in offset order, its short last one after them).
    """
    from pyspark.sql import functions as F
    if not df.where(F.col(id_col).isNull()).limit(1).count():
        return None
    marked = (df.withColumn(_ROW, F.monotonically_increasing_id())
              .withColumn(_PART, F.input_file_name()))
    pieces = (marked.groupBy(_PART, F.shiftright(_ROW, 33).alias("p"))
              .agg(F.min(_ROW).alias("lo"), F.count(F.lit(1)).alias("n")).collect())
    before: dict[tuple, int] = {}
    seen: dict[str, int] = {}
    for row in sorted(pieces, key=lambda r: (r[_PART], r["p"])):
        before[(row[_PART], row["p"])] = seen.get(row[_PART], 0) - row["lo"]
        seen[row[_PART]] = seen.get(row[_PART], 0) + row["n"]
    # row N = place - first place of that file in that partition + rows of the file before it
    offsets = df.sparkSession.createDataFrame([(f, p, b) for (f, p), b in before.items()],
                                              f"`{_PART}` string, p long, b long")
    numbered = marked.join(F.broadcast(offsets), [marked[_PART] == offsets[_PART],
                                                  F.shiftright(marked[_ROW], 33) == offsets["p"]], "left")
    error = F.when(F.col(id_col).isNull(), F.concat(
        F.lit("row "), (marked[_ROW] + offsets["b"] + 1).cast("string"), F.lit(" of "), marked[_PART],
        F.lit(": a note with a null id; not tagged")))
    return numbered.select(*[marked[c] for c in df.columns], error.alias(READ_ERROR))
