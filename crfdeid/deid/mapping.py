"""The original -> surrogate table (``--mapping FILE``): PHI, written only when asked.

One row per distinct (patient, category, subtype, original as written, surrogate as written),
with the first note it occurs in and how many spans it covers; an address (a STREET, CITY,
STATE and ZIP on one line, two or more of them) also gets a row of subtype ``ADDRESS`` whose
parts have their own columns. Every span of every note written is in the table (placeholders
too: what the original became). The file is a CSV (``.csv``, the ``csv`` module's quoting) or
a TSV (``.tsv``); another suffix is refused by name. It is written at the end, private (0600),
never over an existing file without ``overwrite``, never inside the output folder.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ..document import Document
from ..errors import ConfigError
from ..io import atomic_write
from . import address

#: The columns, in order.
COLUMNS = ("patient", "note", "category", "subtype", "original", "surrogate", "spans",
           "original_street", "original_city", "original_state", "original_zip",
           "surrogate_street", "surrogate_city", "surrogate_state", "surrogate_zip", "date_shift_days")
#: The suffixes a mapping file may have, and the CSV dialect of each.
DIALECTS = {".csv": "excel", ".tsv": "excel-tab"}
_ADDRESS_PARTS = ("STREET", "CITY", "STATE", "ZIP")


def check_suffix(path) -> None:
    """Refuse a mapping file whose name does not end in ``.csv`` or ``.tsv`` (names the file)."""
    if Path(path).suffix.lower() not in DIALECTS:
        raise ConfigError("the mapping file must be named .csv (comma-separated) or .tsv "
                          "(tab-separated)", path=path)


class MappingTable:
    """The rows of the mapping, gathered note by note (:meth:`add`) and written once (:meth:`write`)."""

    def __init__(self) -> None:
        self.rows: dict[tuple, list] = {}
        self.shifts: dict[str, int | None] = {}

    def add(self, doc: Document, out: Document, shift_days: int | None) -> None:
        """Record every (original span of ``doc``, span of its surrogate document ``out``) pair;
        the spans of both are in the same order."""
        patient = doc.group
        self.shifts[patient] = shift_days
        for a, b in zip(doc.spans, out.spans):
            self._count((patient, a.category, a.subtype, doc.surface(a), out.surface(b)), doc.doc_id, {})
        where = {sp: i for i, sp in enumerate(doc.spans)}
        for group in address.groups(doc.text, doc.spans, frozenset(_ADDRESS_PARTS)):
            first, last = group[0], group[-1]
            new = [out.spans[where[sp]] for sp in group]
            parts = {f"original_{sp.subtype.lower()}": doc.surface(sp) for sp in group}
            parts.update({f"surrogate_{sp.subtype.lower()}": out.surface(n) for sp, n in zip(group, new)})
            self._count((patient, first.category, "ADDRESS", doc.text[first.start:last.end],
                         out.text[new[0].start:new[-1].end]), doc.doc_id, parts)

    def _count(self, key: tuple, note: str, parts: dict) -> None:
        row = self.rows.get(key)
        if row is None:
            self.rows[key] = [note, 1, parts]
        else:
            row[1] += 1

    def render(self, dialect: str = "excel") -> str:
        """The table as CSV text (``dialect``: ``excel`` or ``excel-tab``), header line first."""
        buf = io.StringIO()
        w = csv.DictWriter(buf, COLUMNS, dialect=dialect, restval="")
        w.writeheader()
        for (patient, category, subtype, original, new), (note, n, parts) in sorted(self.rows.items()):
            shift = self.shifts.get(patient)
            w.writerow({"patient": patient, "note": note, "category": category, "subtype": subtype,
                        "original": original, "surrogate": new, "spans": n, **parts,
                        "date_shift_days": "" if shift is None else shift})
        return buf.getvalue()

    def write(self, path, overwrite: bool = False) -> None:
        """Write the table to ``path`` (``.csv`` or ``.tsv``), private, atomically; an existing
        file is replaced only with ``overwrite``."""
        check_suffix(path)
        atomic_write(path, self.render(DIALECTS[Path(path).suffix.lower()]), overwrite=overwrite)
