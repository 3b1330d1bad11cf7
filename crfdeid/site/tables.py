"""Reading what a site knows: identifier tables, word lists, a note's ``meta["known"]``.

The fields of a table row or of ``meta["known"]`` are :data:`FIELDS`; a row is keyed by one
of :data:`KEYS`. Errors name the file and row (or the document), never a value.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path

from ..errors import ConfigError, described
from ..openfiles import read_regular_text

#: Identifier fields of a table row or ``meta["known"]``: field -> subtype (``name`` kinds
#: are people's names: ``name`` and ``relative`` hold whole names, the others one part).
FIELDS = {"name": "PATIENT", "first_name": "PATIENT", "middle_name": "PATIENT", "last_name": "PATIENT",
          "relative": "PATIENT", "mrn": "MEDICALRECORD", "ssn": "SSN", "account": "ACCOUNT",
          "health_plan": "HEALTHPLAN", "id": "IDNUM", "phone": "PHONE", "fax": "FAX", "email": "EMAIL",
          "birth_date": "DATE", "address": "STREET", "street": "STREET", "city": "CITY", "zip": "ZIP"}
#: Site-wide lists: kind -> subtype (None: the allow-list).
LISTS = {"staff": "DOCTOR", "institutions": "HOSPITAL", "places": "CITY", "allow": None}
#: The key columns of a table: a row applies to a patient's notes or to one note.
KEYS = ("patient", "note")

#: The largest cell of a site table, csv's own default (bytes).
_CELL_LIMIT = 128 * 1024


def cell_values(value) -> list[str]:
    """A cell or meta value as strings: a list, or one string split at ``;``."""
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else str(value).split(";")
    return [str(v).strip() for v in items if str(v).strip()]


def check_fields(fields: Iterable[str], where: str, path=None, doc_id=None, echo: bool = True) -> None:
    """Refuse a field outside :data:`FIELDS` and :data:`KEYS`. ``echo=False`` (a note's own
    record, whose keys can be anything, a patient's name included) names each by its length."""
    bad = sorted(set(fields) - set(FIELDS) - set(KEYS))
    if bad:
        named = ", ".join(map(repr, bad)) if echo else "of " + ", ".join(described(str(f)) for f in bad)
        raise ConfigError(f"{where}: unknown field(s) {named}; known: "
                          f"{', '.join((*KEYS, *FIELDS))}", path=path, doc_id=doc_id)


def birth_date(value: str, path=None, doc_id=None) -> date:
    text = value.strip()
    try:
        if "/" in text:
            m, d, y = (int(x) for x in text.split("/"))
            return date(y if y > 99 else 1900 + y, m, d)
        return date.fromisoformat(text)
    except ValueError:
        raise ConfigError("birth_date: not a date (want YYYY-MM-DD or M/D/YYYY)", path=path,
                          doc_id=doc_id) from None


def as_record(value, where: str, path=None, doc_id=None, echo: bool = True) -> tuple:
    """A mapping (or a list of mappings: rows) of fields as sorted ``(field, value)`` pairs.

    Raises
    ------
    ConfigError
        Not a mapping, or an unknown field (names the fields known; the unknown one by its
        length only with ``echo=False``).
    """
    rows = value if isinstance(value, list) else [value]
    pairs: list[tuple[str, str]] = []
    for row in rows:
        if not isinstance(row, Mapping):
            raise ConfigError(f"{where}: want a mapping of identifier fields", path=path, doc_id=doc_id)
        check_fields(row, where, path, doc_id, echo)
        for fld, cell in row.items():
            if fld in KEYS:
                continue
            got = cell_values(cell)
            if fld == "birth_date":
                for v in got:
                    birth_date(v, path, doc_id)
            pairs += [(fld, v) for v in got]
    return tuple(pairs)


def read_table(path) -> list[tuple[str, str, dict]]:
    """``(key kind, key, row)`` for each row of a table: CSV (a header line), JSON Lines (``.jsonl``)
    or ``patient||||first||||last`` lines.

    Raises
    ------
    ConfigError
        Unreadable file, a row without ``patient`` or ``note``, unknown columns (names the
        file and line, never a value).
    """
    path = Path(path)
    text = read_regular_text(path, ConfigError, "the table")  # a FIFO or device refused, never read
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        rows = []
        for i, ln in enumerate(lines, 1):
            try:
                rows.append(json.loads(ln))
            except json.JSONDecodeError:
                raise ConfigError(f"line {i}: not valid JSON", path=path) from None
    elif lines and "||||" in lines[0]:
        rows = [dict(zip(("patient", "first_name", "last_name"), ln.split("||||"))) for ln in lines]
    else:
        reader = csv.DictReader(io.StringIO(text))
        # csv's limit is one setting of the process, which the notes' table reader raises: a
        # site table's cells (names, identifiers) keep csv's default of 128 KiB.
        csv.field_size_limit(_CELL_LIMIT)
        try:
            rows = list(reader)
        except csv.Error as exc:  # a cell over csv's field limit (128 KiB), a NUL: named by line
            raise ConfigError(f"line {reader.line_num}: not a table row ({exc})", path=path) from None
    out = []
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            raise ConfigError(f"row {i}: want a mapping of fields", path=path)
        as_record(row, f"row {i}", path)  # checked here, where the file and row are known
        keys = [k for k in KEYS if str(row.get(k) or "").strip()]
        if len(keys) != 1:
            raise ConfigError(f"row {i}: give exactly one of the columns patient and note", path=path)
        out.append((keys[0], str(row[keys[0]]).strip(), {k: v for k, v in row.items() if k not in KEYS}))
    return out


def read_list(path) -> list[str]:
    """Entries of a word list: one a line, blank lines and ``#`` comments left out."""
    lines = read_regular_text(path, ConfigError, "the list").splitlines()  # a FIFO or device refused
    return [s for s in (ln.strip() for ln in lines) if s and not s.startswith("#")]
