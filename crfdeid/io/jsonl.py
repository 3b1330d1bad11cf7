"""JSON Lines: one document a line, ``{"id", "text", "spans": [...], "meta"?}``.

Each span is ``{"start", "end", "category", "subtype"}`` with half-open
character offsets; ``category`` may be omitted and is then derived from the
subtype. Labels are checked against the reader's ``scheme`` option (``i2b2``, a
declared scheme; ``any`` takes them as written, a span without ``category`` being its own
parent). ``meta`` is optional and kept as is. The reader takes a file or ``-``
for standard input; the writer a file or ``-`` for standard output. Text is
stored as a JSON string, so any text (``\\r\\n``, non-ASCII, control
characters) reads back exactly. A byte-order mark before the first line is the
file's, not a note's, and is dropped; a U+FEFF inside a ``text`` string is text.
Each line is decoded and parsed alone, so a bad line (bad UTF-8, bad JSON, JSON
nested too deep for the parser) costs that line only. ``meta['source']`` and
``meta['line']`` say where each document was read.

>>> doc = parse_line('{"id": "n1", "text": "Dr. Lee", "spans": [{"start": 4, "end": 7, "subtype": "DOCTOR"}]}')
>>> doc.spans
[Span(start=4, end=7, category='NAME', subtype='DOCTOR')]
"""

from __future__ import annotations

import json
import re
import sys

from .. import schema
from ..document import Document, Span
from ..errors import LocatedError, ReaderError, SchemaError, described
from .encoding import open_input
from .files import ENCODING_HINT, check_encoding, is_stdio, text_lines
from .outputs import StreamWriter
from .registry import READERS, WRITERS

_SURROGATE = re.compile("[\ud800-\udfff]")
#: What a line with an integer of more digits than Python converts is told (its line only fails).
TOO_LONG_NUMBER = (f"a JSON number of more than {sys.get_int_max_str_digits()} digits, more than Python "
                   "reads; the line is not read (write the number as a string)")
#: The longest document id read (ids name output files); a longer one is note text in the wrong column.
MAX_ID = 128


def parse_line(line: str, path=None, lineno: int | None = None, unit: str = "line",
               scheme=None) -> Document:
    """One JSON line -> a validated :class:`Document`; raise naming file, line, document, offset."""
    at = f"{unit} {lineno}: " if lineno is not None else ""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ReaderError(f"{at}not valid JSON ({exc.msg}, column {exc.colno})", path=path) from None
    except RecursionError:
        raise ReaderError(f"{at}JSON nested too deeply to read", path=path) from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise ReaderError(f"{at}{TOO_LONG_NUMBER}", path=path) from None
    return parse_object(obj, path, lineno, unit, scheme)


def check_id(doc_id: str, at: str = "", path=None) -> str:
    """``doc_id``, unless it is note text in the id's place (a line break or control character,
    or more than :data:`MAX_ID` characters): refused, by ``at`` (its line or row), never shown."""
    if len(doc_id) > MAX_ID or not doc_id.isprintable():
        raise ReaderError(f"{at}'id' is not a document id ({len(doc_id)} characters"
                          f"{'' if doc_id.isprintable() else ', with a line break or control character'}; "
                          f"at most {MAX_ID}, printable; it is not shown)", path=path)
    return doc_id


def parse_object(obj, path=None, lineno: int | None = None, unit: str = "line",
                 scheme=None) -> Document:
    """A decoded JSON object -> a validated :class:`Document` (see :func:`parse_line`)."""
    at = f"{unit} {lineno}: " if lineno is not None else ""
    scheme = schema.get(scheme)
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str) or "id" not in obj:
        raise ReaderError(f"{at}want an object with a string 'text' and an 'id'", path=path)
    if not isinstance(obj["id"], (str, int)) or isinstance(obj["id"], bool):
        raise ReaderError(f"{at}'id' must be a string or an integer", path=path)
    doc_id = check_id(str(obj["id"]), at, path)
    bad = _SURROGATE.search(obj["text"])
    if bad:
        raise ReaderError(f"{at}'text' holds a lone surrogate (U+{ord(bad.group()):04X}), which is "
                          "not Unicode text", path=path, doc_id=doc_id, offset=bad.start())
    if "\x00" in obj["text"]:  # an escaped NUL: the note was read in the wrong encoding, or is no note
        raise ReaderError(f"{at}'text' holds a NUL character, which no note holds; {ENCODING_HINT}",
                          path=path, doc_id=doc_id, offset=obj["text"].index("\x00"))
    raw_spans = obj.get("spans") or []
    if not isinstance(raw_spans, list):
        raise ReaderError(f"{at}'spans' must be a list", path=path, doc_id=doc_id)
    spans = []
    for i, sp in enumerate(raw_spans):
        try:
            start, end, sub = _offset(sp["start"]), _offset(sp["end"]), str(sp["subtype"])
            cat = str(sp["category"]) if sp.get("category") else None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ReaderError(f"{at}span {i} lacks integer start/end and a subtype", path=path,
                              doc_id=doc_id) from None
        got = scheme.resolve(sub, cat) if sub else None
        if got is None:
            shown = [x if known(x) else f"{what} of {described(x)}"
                     for x, known, what in ((cat, scheme.category, "a category"),
                                            (sub, scheme.label, "a subtype")) if x]
            raise SchemaError(f"{at}span {i}: unknown PHI category/subtype ({', '.join(shown)}); "
                              f"known subtypes: {schema.known_labels(scheme)}", path=path,
                              doc_id=doc_id, offset=start)
        spans.append(Span(start, end, *got))
    meta = obj["meta"] if isinstance(obj.get("meta"), dict) else {}
    doc = Document(doc_id, obj["text"], spans, dict(meta))
    try:
        return doc.validate(path=path, scheme=scheme)
    except LocatedError as exc:  # the same error, with its line
        raise type(exc)(f"{at}{exc.reason}", path=path, doc_id=doc_id, offset=exc.offset) from None


def _offset(value) -> int:
    """An offset: an integer, or a string of digits (as some tools write them); not 1.5 or true."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError("not an integer")
    return int(value)


@READERS.register("jsonl")
def read_jsonl(path, report, scheme=None, encoding: str | None = None):
    """Read a JSON Lines file (or ``-``); a bad line is reported and the next one read.
    ``scheme``: the labels allowed (module docstring); ``encoding``: of a file without a
    byte-order mark (default UTF-8; :func:`~crfdeid.io.files.text_lines`)."""
    scheme = schema.get(scheme)
    encoding = check_encoding(encoding)
    if is_stdio(path):
        stream, name = sys.stdin.buffer, "-"
    else:
        stream, name = open_input(path, "file (JSON Lines)"), path
    with stream:
        # Lines split after "\n" only; each is decoded alone so one bad line costs one document.
        for lineno, (line, bad) in enumerate(text_lines(stream, encoding, name), 1):
            if bad is not None:
                report(ReaderError(f"line {lineno}: not valid {bad.encoding.upper()} ({bad.reason}, byte "
                                   f"{bad.start} of the line){'' if encoding else '; ' + ENCODING_HINT}",
                                   path=name))
                continue
            if not line.strip():
                continue
            try:
                doc = parse_line(line, name, lineno, scheme=scheme)
            except LocatedError as exc:
                report(exc)
                continue
            doc.meta.update({"source": str(name), "line": lineno})
            yield doc


def render(doc: Document) -> str:
    """One JSON line (with its newline) for ``doc``."""
    obj: dict[str, object] = {"id": doc.doc_id, "text": doc.text, "spans": [sp.as_dict() for sp in doc.spans]}
    meta = {k: v for k, v in doc.meta.items() if _jsonable(v)}
    if meta:
        obj["meta"] = meta
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _jsonable(value) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


@WRITERS.register("jsonl")
class JsonlWriter(StreamWriter):
    """Write one JSON line per document to a file or ``-``."""

    def render(self, doc: Document) -> str:
        return render(doc)
