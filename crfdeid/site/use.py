"""How many of a site's table rows the notes of a run met (``tag``'s summary, ``serve``'s
``/health``): counts, never keys; and the hint that says how a note finds its patient's rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..document import Document

if TYPE_CHECKING:
    from . import Site


#: How a note finds its patient's rows, said where the table options are and when none matched.
MAPPING_HINT = ("a row keyed by patient applies to the notes whose patient key is that value: "
                "meta.patient of JSONL/CSV input, or --group-by FIELD, --group-pattern REGEX "
                "(its first group, searched in the note id) or --group-table FILE (doc_id,patient); "
                "without them a plain file's patient key is its own id, so only rows keyed by note "
                "(a note column) apply")


class TableUse:
    """How many patients and notes of a site's tables the notes of a run matched (counts,
    never keys: a patient key may be a record number).

    >>> from crfdeid.document import Document
    >>> from crfdeid.site import Site
    >>> use = TableUse(Site(patients={"p1": {"name": "Kevin Dorsey"}, "p2": {"mrn": "12"}}))
    >>> use.see(Document("p1_a", "...")); use.see(Document("n2", "...", meta={"patient": "p1"}))
    >>> use.message()
    'site tables: 1 of 2 patient(s) matched a note (2 note(s) read)'
    """

    def __init__(self, site: Site | None):
        self.site = site
        self.patients: set[str] = set()
        self.notes: set[str] = set()
        self.read = 0

    @property
    def rows(self) -> bool:
        """Whether the site has table rows at all (else there is nothing to count)."""
        return self.site is not None and bool(self.site.patients or self.site.notes)

    def see(self, doc: Document) -> None:
        """Count ``doc`` (after its patient key is set)."""
        if not self.rows:
            return
        self.read += 1
        assert self.site is not None
        if doc.group in self.site.patients:
            self.patients.add(doc.group)
        if doc.doc_id in self.site.notes:
            self.notes.add(doc.doc_id)

    @property
    def matched(self) -> int:
        return len(self.patients) + len(self.notes)

    def counts(self) -> dict | None:
        """The counts as data (``serve``'s ``/health``), or None without table rows: the tables'
        patient and note rows, how many of each matched a note, the notes read. Counts only,
        never a key.

        >>> from crfdeid.site import Site
        >>> use = TableUse(Site(patients={"p1": {"name": "Kevin Dorsey"}}))
        >>> use.see(Document("n1", "...", meta={"patient": "p2"}))
        >>> use.counts()
        {'patients': 1, 'patients_matched': 0, 'notes': 0, 'notes_matched': 0, 'notes_read': 1}
        """
        if not self.rows:
            return None
        assert self.site is not None
        return {"patients": len(self.site.patients), "patients_matched": len(self.patients),
                "notes": len(self.site.notes), "notes_matched": len(self.notes), "notes_read": self.read}

    def message(self) -> str | None:
        """The count, or None without table rows."""
        if not self.rows:
            return None
        assert self.site is not None
        parts = [f"{len(found)} of {len(rows)} {what}(s)" for found, rows, what in
                 ((self.patients, self.site.patients, "patient"), (self.notes, self.site.notes, "note"))
                 if rows]
        return f"site tables: {' and '.join(parts)} matched a note ({self.read} note(s) read)"

    def warning(self) -> str | None:
        """A warning when notes were read and no table row matched any of them."""
        if not self.rows or self.matched or not self.read:
            return None
        return (f"warning: no note matched a row of the site tables, so they changed nothing; "
                f"{MAPPING_HINT} (docs/site.md)")
