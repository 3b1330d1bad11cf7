"""Which patient a note belongs to, for surrogates consistent across a patient's notes.

Surrogates (names, places, the date offset) are consistent per patient key,
``Document.group``: the reader's ``meta['patient']`` (PhysioNet, JSONL/CSV with a
patient column), else the i2b2 record prefix ``NNN-``, else the document id. A
folder of plain-text notes has none, so each file is its own patient unless one
of these is given (``crfdeid.tag`` and ``corpus surrogate``):

``--group-by FIELD``
    the document metadata field holding the patient key (JSONL/CSV input);
``--group-pattern REGEX``
    a regular expression searched in the document id (for text, BRAT and i2b2
    folders: the file name without its extension); its first group is the
    patient key (``--group-pattern '^(p\\d+)_'`` puts ``p0042_2097-03-14.txt`` and
    ``p0042_2097-04-02.txt`` together);
``--group-table FILE``
    a CSV file with the columns ``doc_id,patient`` (a header line), one row per note.

A note that the pattern does not match, or that the table does not list, is
reported and not written: without its patient key it cannot get its patient's
surrogates. Messages give document ids, never patient keys (they may be record
numbers).

>>> from crfdeid.document import Document
>>> g = Grouper(pattern=r"^(p\\d+)_")
>>> doc = g.apply(Document("p0042_2097-03-14", "..."))
>>> doc.group
'p0042'
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..document import Document
from ..errors import ConfigError
from ..openfiles import read_regular_text


class Grouper:
    """Sets ``meta['patient']`` from a metadata field, a document-id pattern or a table."""

    def __init__(self, field: str | None = None, pattern: str | None = None, table=None):
        if sum(x is not None for x in (field, pattern, table)) > 1:
            raise ConfigError("give one of --group-by, --group-pattern and --group-table")
        self.field = field
        self.regex = _compile(pattern) if pattern is not None else None
        self.table = read_table(table) if table is not None else None
        self.table_path = table

    @property
    def active(self) -> bool:
        return any(x is not None for x in (self.field, self.regex, self.table))

    def key(self, doc: Document) -> str:
        """The patient key of ``doc``.

        Raises
        ------
        ConfigError
            When ``doc`` has no key by the rule given (names the document).
        """
        if self.field is not None:
            if self.field not in doc.meta:
                raise ConfigError(f"--group-by: no metadata field {self.field!r}; fields: "
                                  f"{', '.join(sorted(doc.meta)) or '(none)'}", doc_id=doc.doc_id)
            return str(doc.meta[self.field])
        if self.regex is not None:
            m = self.regex.search(doc.doc_id)
            if m is None or not m.group(1):
                raise ConfigError("--group-pattern does not match the document id (or its first "
                                  "group is empty)", doc_id=doc.doc_id)
            return m.group(1)
        table = self.table or {}
        if doc.doc_id not in table:
            raise ConfigError("not listed in the --group-table file", path=self.table_path,
                              doc_id=doc.doc_id)
        return table[doc.doc_id]

    def apply(self, doc: Document) -> Document:
        """``doc`` with ``meta['patient']`` set (unchanged when no rule is given)."""
        if self.active:
            doc.meta["patient"] = self.key(doc)
        return doc


def _compile(pattern: str) -> re.Pattern:
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise ConfigError(f"--group-pattern is not a valid regular expression ({exc.msg} at "
                          f"position {exc.pos})") from None
    if rx.groups < 1:
        raise ConfigError("--group-pattern needs a group, e.g. '^(p\\d+)_': its first group is "
                          "the patient key")
    return rx


def read_table(path) -> dict[str, str]:
    """``{doc_id: patient}`` from a CSV file with the header ``doc_id,patient``.

    Raises
    ------
    ConfigError
        The file cannot be read, lacks the two columns, has an empty cell, or
        lists a document twice with different patients (file and line named).
    """
    path = Path(path)
    text = read_regular_text(path, ConfigError, "the group table")  # a FIFO or device refused, never read
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:  # a cell over csv's field limit (128 KiB), a NUL
        raise ConfigError(f"cannot read the group table ({exc})", path=path) from None
    if not rows or [c.strip().lower() for c in rows[0][:2]] != ["doc_id", "patient"]:
        raise ConfigError("the group table needs a header line 'doc_id,patient'", path=path)
    table: dict[str, str] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) < 2 or not row[0].strip() or not row[1].strip():
            raise ConfigError(f"line {line}: a row needs a document id and a patient", path=path)
        doc_id, patient = row[0].strip(), row[1].strip()
        if table.setdefault(doc_id, patient) != patient:
            raise ConfigError(f"line {line}: document {doc_id!r} is listed twice with different "
                              "patients", path=path)
    return table


def add_arguments(parser) -> None:
    """Add ``--group-by``, ``--group-pattern`` and ``--group-table`` (mutually exclusive)."""
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--group-by", metavar="FIELD",
                   help="surrogate output: document metadata field holding the patient key, so "
                        "a patient's notes share surrogates and date offset (default: the reader's "
                        "patient, else the i2b2 record prefix NNN-, else the document id)")
    g.add_argument("--group-pattern", metavar="REGEX",
                   help="surrogate output: regular expression searched in the document id (text "
                        "input: the file name without .txt); its first group is the patient key")
    g.add_argument("--group-table", metavar="FILE",
                   help="surrogate output: CSV file 'doc_id,patient' giving each note's patient")


def from_args(args) -> Grouper:
    """The :class:`Grouper` of parsed ``--group-*`` arguments (ConfigError when bad)."""
    return Grouper(args.group_by, args.group_pattern, args.group_table)
