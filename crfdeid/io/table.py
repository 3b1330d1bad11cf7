"""CSV tables: one document a row, registered as ``csv``.

Options: ``text_column`` (default ``"text"``) and ``id_column`` (default
``"id"``; ``None`` numbers the rows ``row-1``, ``row-2``...); ``meta_columns``
(comma-separated names, or a list) copies those columns into each document's
``meta`` as strings (e.g. a note type, site or year the release audit
stratifies by). An optional
``spans`` column holds the spans as a JSON list of
``{"start", "end", "category", "subtype"}``. Cells are read as strings, never
as numbers or missing values, so ids such as ``007`` and texts such as ``NA``
stay as they are. The reader takes a file or ``-`` (standard input) and streams
it row by row.

A bad row costs that row only, reported with its row and line numbers: bytes that do not decode
(UTF-8 unless a byte-order mark or the ``encoding`` option names another), a row with too many
or too few fields, a quote in the wrong place, a bad ``spans`` cell. A quoted field left open
runs to the next quote or the end of the file; the rows it swallowed are named by their lines.
The first row must be the header: when it lacks the text or id column, or names one of the
columns read (text, id, spans, meta) twice, the file is not read, and the message gives the
number of columns but not their names (a file without a header has a note there). A byte-order
mark before the header names the encoding and is dropped; ``meta['source']``, ``meta['row']``
and ``meta['line']`` say where each document was read.

The writer writes ``id,text,spans`` with every field quoted, to a file (atomic)
or ``-``; quoted fields keep ``\\r\\n`` and commas inside the text exactly.
"""

from __future__ import annotations

import csv
import io
import json
import sys

from .. import schema
from ..document import Document
from ..errors import InputError, LocatedError, ReaderError
from .encoding import open_input
from .files import ENCODING_HINT, check_encoding, is_stdio, text_lines
from .jsonl import check_id, parse_object
from .outputs import StreamWriter
from .registry import READERS, WRITERS

_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)


class _Lines:
    """Lines of a byte stream, each decoded alone (:func:`~crfdeid.io.files.text_lines`);
    remembers which lines did not decode."""

    def __init__(self, stream, encoding=None, path=None) -> None:
        self.stream = stream
        self.encoding, self.path = encoding, path
        self.number = 0
        self.bad: dict[int, tuple[str, int, str]] = {}  # line -> (reason, offset in the line, encoding)

    def __iter__(self):
        for line, bad in text_lines(self.stream, self.encoding, self.path):
            self.number += 1
            if bad is not None:  # the line is parsed for its shape only, then dropped
                self.bad[self.number] = (bad.reason, bad.start, bad.encoding.upper())
            yield line


def _open(path):
    if is_stdio(path):
        return sys.stdin.buffer
    return open_input(path, "file (CSV)")


@READERS.register("csv")
def read_csv(path, report, text_column: str = "text", id_column: str | None = "id",
             spans_column: str = "spans", scheme=None, encoding: str | None = None,
             meta_columns: str | list | None = None):
    """Read a CSV table (or ``-``) into documents, one per row; a bad row is reported and skipped.
    ``scheme``: the labels allowed, as for ``jsonl``; ``encoding``: of a file without a
    byte-order mark (default UTF-8). Malformed CSV (text after a closing quote, a quote inside an
    unquoted cell) ends the reading of the file: past it, where a row starts is a guess, and a
    guess makes rows of a note's lines (ids, file names and messages of note text)."""
    scheme = schema.get(scheme)
    encoding = check_encoding(encoding)
    name = "-" if is_stdio(path) else path
    csv.field_size_limit(_FIELD_LIMIT)  # a note is one cell: the default 128 KiB is too small
    with _open(path) as stream:
        lines = _Lines(stream, encoding, name)
        # strict: a quote inside an unquoted field, or text after a closing quote, is an error
        # of that row instead of a silently different cell.
        rows = csv.reader(iter(lines), strict=True)
        header, first = None, 1
        row = 0
        while True:
            try:
                cells = next(rows)
                problem = None
            except StopIteration:
                break
            except csv.Error as exc:
                cells, problem = None, f"CSV does not parse ({_reason(exc)})"
            span = (first, lines.number)
            first = lines.number + 1
            lines_at = f"line {span[0]}" if span[1] == span[0] else f"lines {span[0]}-{span[1]}"
            if cells is None and header is not None:
                report(ReaderError(f"row {row + 1} ({lines_at}): {problem}; this row and the rest of the "
                                   "file are not read (where a row starts is not known past malformed CSV)",
                                   path=name))
                return
            if header is None:
                unread = [lines.bad[n] for n in range(span[0], span[1] + 1) if n in lines.bad]
                if unread:
                    raise InputError(f"{lines_at}: the header row cannot be read (not valid {unread[0][2]}: "
                                     f"{unread[0][0]}){'' if encoding else '; ' + ENCODING_HINT}", path=name)
                if problem:
                    raise InputError(f"{lines_at}: the header row cannot be read ({problem})", path=name)
                header = _header(cells, text_column, id_column, spans_column, name, meta_columns)
                continue
            row += 1
            where = f"row {row} ({lines_at})"
            bad = [n for n in range(span[0], span[1] + 1) if n in lines.bad]
            if bad:
                reason, offset, enc = lines.bad[bad[0]]
                problem = (f"not valid {enc} at line {bad[0]} ({reason}, byte {offset} of the line)"
                           f"{'' if encoding else '; ' + ENCODING_HINT}")
            elif cells is not None and len(cells) != len(header["names"]):
                problem = f"{len(cells)} fields where the header has {len(header['names'])}"
            if problem:
                report(ReaderError(f"{where}: {problem}; row not read", path=name))
                continue
            yield from _row(header, cells, row, span[0], name, report, scheme)
    if header is None:
        raise InputError("empty file (no header row)", path=name)


def _reason(exc: csv.Error) -> str:
    """The csv module's reason, which names characters of the syntax, never cell contents."""
    text = str(exc)
    return text if len(text) < 80 and "field larger" not in text else "malformed"


def _header(cells, text_column, id_column, spans_column, name, meta_columns=None) -> dict:
    names = list(cells)
    if isinstance(meta_columns, str):
        meta_columns = [c.strip() for c in meta_columns.split(",") if c.strip()]
    meta_columns = list(meta_columns or ())
    missing = [c for c in (text_column, id_column, *meta_columns) if c is not None and c not in names]
    if missing:
        raise InputError(f"the header row has no column {' or '.join(map(repr, missing))} "
                         f"({len(names)} columns; their names are not shown, since a file without "
                         "a header row has a note there); set text_column/id_column", path=name)
    twice = [c for c in dict.fromkeys((text_column, id_column, spans_column, *meta_columns))
             if c is not None and names.count(c) > 1]
    if twice:  # which one holds the note? the other would pass un-read, and un-redacted if written back
        raise InputError(f"the header row names the column {' and '.join(map(repr, twice))} more than once "
                         f"(columns {', '.join(str(i + 1) for i, n in enumerate(names) if n == twice[0])}): "
                         "rename one, or set text_column/id_column to another", path=name)
    return {"names": names, "text": names.index(text_column),
            "id": None if id_column is None else names.index(id_column),
            "spans": names.index(spans_column) if spans_column in names else None,
            "meta": {c: names.index(c) for c in meta_columns}}


def _row(header, cells, row, line, path, report, scheme=None):
    try:
        doc_id = f"row-{row}" if header["id"] is None else check_id(cells[header["id"]], f"row {row}: ", path)
    except LocatedError as exc:
        report(exc)
        return
    cell = "" if header["spans"] is None else cells[header["spans"]]
    try:
        spans = json.loads(cell) if cell.strip() else []
    except (ValueError, RecursionError):
        spans = None
    if not isinstance(spans, list):
        report(ReaderError(f"row {row} (line {line}): spans column is not a JSON list", path=path))
        return
    try:
        doc = parse_object({"id": doc_id, "text": cells[header["text"]], "spans": spans},
                           path, lineno=row, unit="row", scheme=scheme)
    except LocatedError as exc:
        report(_by_row(exc))
        return
    doc.meta.update({c: cells[i] for c, i in header["meta"].items()})
    doc.meta.update({"source": str(path), "row": row, "line": line,
                     "annotated": header["spans"] is not None})
    yield doc


def _by_row(exc: LocatedError) -> LocatedError:
    """``exc`` without the document id: a malformed row's id cell may hold a name or note text
    (a shifted column), and the row number already says where."""
    if exc.doc_id is not None:
        LocatedError.__init__(exc, exc.reason, path=exc.path, offset=exc.offset)
    return exc


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
