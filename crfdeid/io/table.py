"""CSV tables (via pandas): one document a row, registered as ``csv``.

Options: ``text_column`` (default ``"text"``) and ``id_column`` (default
``"id"``; ``None`` numbers the rows ``row-1``, ``row-2``...). An optional
``spans`` column holds the spans as a JSON list of
``{"start", "end", "category", "subtype"}``. Cells are read as strings, never
as numbers or missing values, so ids such as ``007`` and texts such as ``NA``
stay as they are. The reader takes a file or ``-`` (standard input) and reads
it in chunks, so a large table is streamed.

The writer writes ``id,text,spans`` with every field quoted, to a file (atomic)
or ``-``; quoted fields keep ``\\r\\n`` and commas inside the text exactly.
"""

from __future__ import annotations

import csv
import io
import json
import sys

from ..document import Document
from ..errors import LocatedError, ReaderError
from . import READERS, WRITERS, StreamWriter, is_stdio
from .jsonl import parse_line

CHUNK_ROWS = 10_000


@READERS.register("csv")
def read_csv(path, report, text_column: str = "text", id_column: str | None = "id",
             spans_column: str = "spans"):
    """Read a CSV table (or ``-``) into documents, one per row."""
    import pandas as pd

    source = sys.stdin.buffer if is_stdio(path) else path
    try:
        chunks = pd.read_csv(source, dtype=str, keep_default_na=False, na_filter=False,
                             encoding="utf-8", chunksize=CHUNK_ROWS, engine="c")
        first = True
        row = 0
        for chunk in chunks:
            if first:
                missing = [c for c in (text_column, id_column) if c is not None and c not in chunk]
                if missing:
                    report(ReaderError(f"no column {', '.join(map(repr, missing))}; columns are "
                                       f"{', '.join(map(repr, chunk.columns))} (set text_column/id_column)",
                                       path=path))
                    return
                first = False
            spans_col = spans_column if spans_column in chunk else None
            ids = chunk[id_column] if id_column is not None else [None] * len(chunk)
            cells = chunk[spans_col] if spans_col else [""] * len(chunk)
            for doc_id, text, cell in zip(ids, chunk[text_column], cells):
                row += 1
                doc_id = doc_id if id_column is not None else f"row-{row}"
                yield from _row(doc_id, text, cell, row, path, report, spans_col is not None)
    except FileNotFoundError:
        report(ReaderError("no such file", path=path))
    except UnicodeDecodeError as exc:
        report(ReaderError(f"not valid UTF-8 ({exc.reason}); stopped reading", path=path))
    except pd.errors.EmptyDataError:
        report(ReaderError("empty file (no header row)", path=path))
    except (pd.errors.ParserError, csv.Error) as exc:
        report(ReaderError(f"CSV does not parse ({type(exc).__name__}); stopped reading", path=path))


def _row(doc_id, text, cell, row, path, report, annotated):
    try:
        obj = {"id": doc_id, "text": text, "spans": _spans(cell)}
        doc = parse_line(json.dumps(obj), path, lineno=row, unit="row")
    except LocatedError as exc:
        report(exc)
        return
    except ValueError:
        report(ReaderError(f"row {row}: spans column is not a JSON list", path=path,
                           doc_id=doc_id))
        return
    doc.meta.update({"source": str(path), "row": row, "annotated": annotated})
    yield doc


def _spans(cell: str):
    if not cell.strip():
        return []
    spans = json.loads(cell)
    if not isinstance(spans, list):
        raise ValueError("not a list")
    return spans


@WRITERS.register("csv")
class CsvWriter(StreamWriter):
    """Write ``id,text,spans`` rows to a file or ``-``."""

    def header(self) -> str:
        return self._line(["id", "text", "spans"])

    def render(self, doc: Document) -> str:
        spans = json.dumps([sp.as_dict() for sp in doc.spans], ensure_ascii=False)
        return self._line([doc.doc_id, doc.text, spans])

    @staticmethod
    def _line(fields) -> str:
        buf = io.StringIO()
        csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n").writerow(fields)
        return buf.getvalue()
