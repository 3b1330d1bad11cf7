"""What a review project keeps: notes, annotators, annotations, reviews, decisions,
surrogate edits, models, background jobs, and an audit log of every change.

Annotations belong to one annotator each: ``model`` (kind ``model``: its suggestions,
with confidence), a person (kind ``human``) or ``imported`` spans (kind ``import``).
When a person first opens a note, the model's suggestions are copied into their own
set as ``suggested``; each decision then changes that person's row (``accepted``,
``deleted``, new offsets or type) and is written at once with who and when. The
audit log records offsets, types, counts and names, never note text.

>>> from crfdeid.review.db import Database
>>> import tempfile, os
>>> s = Store(Database(os.path.join(tempfile.mkdtemp(), "r.sqlite")))
>>> from crfdeid.document import Document, make_span
>>> nid = s.add_note(Document("1-1", "Seen by Dr. Lee.", [make_span(12, 15, "DOCTOR")]), "imported")
>>> [(sp["start"], sp["end"], sp["subtype"]) for sp in s.spans(nid, "imported")]
[(12, 15, 'DOCTOR')]
"""

from __future__ import annotations

import json
import threading

from .. import schema as phi_schema
from ..document import Document, Span, trim
from . import ledger
from .db import Database, StoreError
from .records import ADJUDICATION, KINDS, MODEL, SCHEMA, Conflict, Forbidden, Invalid, NotFound, Stale, check_name, now

__all__ = ["ADJUDICATION", "KINDS", "MODEL", "Conflict", "Forbidden", "Invalid", "NotFound", "Stale", "Store",
           "StoreError", "check_name", "now", "to_spans"]

def _span(row: dict) -> dict:
    sub = row["subtype"]
    return {"id": row["id"], "start": row["span_start"], "end": row["span_end"], "subtype": sub,
            "category": phi_schema.parent_of(sub), "status": row["status"],
            "confidence": row["confidence"], "origin": row["origin"],
            "updated_by": row["updated_by"], "updated_at": row["updated_at"]}


class Store:
    """The project's records in one database (see the module docstring)."""

    def __init__(self, db: Database):
        self.db = db
        self._written = threading.local()
        db.create_schema(SCHEMA)
        ledger.migrate(db)
        with db.write() as run:
            for name, kind in ((MODEL, "model"),):
                run("INSERT INTO annotators (name, kind, created_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (name) DO NOTHING", (name, kind, now()))

    def close(self) -> None:
        self.db.close()

    # -- settings and audit -----------------------------------------------------------
    def setting(self, name: str, default=None):
        row = self.db.one("SELECT value FROM settings WHERE name = ?", (name,))
        return json.loads(row["value"]) if row else default

    def set_setting(self, name: str, value, who: str = "settings") -> None:
        """Set a project setting; the change is an event of the log (the settings' digest, not
        their values), so a setting changed by hand is named by :meth:`check_log`."""
        with self.db.write() as run:
            run("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
                "SET value = excluded.value", (name, json.dumps(value)))
            self.audit(run, who, "setting", None, name=name)

    def audit(self, run, who: str, action: str, note_id=None, scopes=None, delta=None, **detail) -> None:
        """Append one event to the log inside the caller's transaction (offsets, types, counts
        only; :mod:`crfdeid.review.ledger`), with how the person signed in (:meth:`signed_in`);
        ``delta``: ``{scope: (rows before, rows after)}`` when the change is of a few spans."""
        how = getattr(self._written, "auth", None)
        key = getattr(self._written, "seal", None)
        ledger.append(run, now(), who, action, note_id, dict(detail, auth=how) if how else detail, scopes, delta,
                      seal_key=key.get(who) if key else None)

    def signed_in(self, how: str | None, seal_keys: dict[str, bytes] | None = None) -> None:
        """How this thread's requests are signed in (``personal``, ``shared`` or ``none``),
        recorded with each event they write; ``seal_keys``: ``{name: key}`` from the person's
        token (:func:`crfdeid.review.credentials.seal_key`), which seals their events."""
        self._written.auth = how
        self._written.seal = seal_keys

    def changed_after_adjudication(self) -> list[dict]:
        """Reviews changed after their note's adjudication (:func:`crfdeid.review.ledger.after_adjudication`)."""
        return ledger.after_adjudication(self.db.query("SELECT note_id, who, action FROM audit ORDER BY id"))

    def check_log(self, seal_keys: dict[str, bytes] | None = None) -> dict:
        """The log's chain and every scope's rows against it (:func:`crfdeid.review.ledger.check`)."""
        return ledger.check(self.db, seal_keys)

    def audit_log(self, note_id=None, limit: int = 1000) -> list[dict]:
        """The latest events, newest first (who, what, when; the chain's digests left to :meth:`check_log`)."""
        where, params = ("WHERE note_id = ?", (note_id,)) if note_id is not None else ("", ())
        rows = self.db.query(f"SELECT id, at, who, action, note_id, detail FROM audit {where} "
                             f"ORDER BY id DESC LIMIT {int(limit)}", params)
        for r in rows:
            r["detail"] = json.loads(r["detail"])
        return rows

    # -- versions ---------------------------------------------------------------------
    def version(self, note_id: int, scope: str) -> int:
        """How many changes ``scope`` (a person's review of the note, or :data:`ADJUDICATION`)
        has had: a page reads it before the spans and sends it back with each write."""
        row = self.db.one("SELECT version FROM versions WHERE note_id = ? AND scope = ?", (note_id, scope))
        return row["version"] if row else 0

    def bump(self, run, note_id: int, scope: str, expected: int | None) -> int:
        """Inside a write: count one more change of ``scope``; :class:`Stale` when ``expected``
        (the version the page saw; ``None``: not checked) is not the stored one."""
        if not run("SELECT 1 AS x FROM notes WHERE id = ?", (note_id,)):
            raise NotFound(f"no note {note_id}")
        row = run("INSERT INTO versions (note_id, scope, version) VALUES (?, ?, 1) ON CONFLICT (note_id, scope) "
                  "DO UPDATE SET version = versions.version + 1 RETURNING version", (note_id, scope))[0]
        new = int(row["version"])
        if expected is not None and int(expected) != new - 1:
            raise Stale(f"note {note_id} changed since this page read it (version {new - 1}, the page had "
                        f"{int(expected)}): reload it")
        self._written.version = new
        return new

    def written_version(self) -> int | None:
        """The version this thread's last write gave its scope (what the page sends next);
        ``None`` when nothing was written since :meth:`forget_written`."""
        return getattr(self._written, "version", None)

    def forget_written(self) -> None:
        """Start a request: no version written yet (FastAPI reuses its threads)."""
        self._written.version = None

    # -- annotators -------------------------------------------------------------------
    def ensure_annotator(self, name: str, kind: str = "human") -> str:
        name = check_name(name)
        if kind not in KINDS:
            raise Invalid(f"annotator kind must be one of {', '.join(KINDS)}")
        row = self.db.one("SELECT kind FROM annotators WHERE name = ?", (name,))
        if row is None:
            with self.db.write() as run:
                run("INSERT INTO annotators (name, kind, created_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (name) DO NOTHING", (name, kind, now()))
                self.audit(run, name, "add_annotator", kind=kind)
        elif row["kind"] != kind:
            raise Conflict(f"annotator {name!r} is of kind {row['kind']}, not {kind}")
        return name

    def annotators(self) -> list[dict]:
        return self.db.query("SELECT name, kind, created_at FROM annotators ORDER BY kind, name")

    def kind_of(self, name: str) -> str | None:
        row = self.db.one("SELECT kind FROM annotators WHERE name = ?", (name,))
        return row["kind"] if row else None

    # -- notes ------------------------------------------------------------------------
    def add_note(self, doc: Document, annotator: str | None = None, who: str = "import") -> int:
        """Store a note; its spans (if any) become ``annotator``'s (kind ``import``)."""
        if annotator is not None and doc.spans:
            self.ensure_annotator(annotator, "import")
        meta = {k: v for k, v in doc.meta.items() if k != "confidence"}
        with self.db.write() as run:
            if run("SELECT id FROM notes WHERE doc_id = ?", (doc.doc_id,)):
                raise Conflict(f"document {doc.doc_id!r} is already in the project")
            nid = run("INSERT INTO notes (doc_id, patient, body, meta, imported_at) VALUES (?, ?, ?, ?, ?) "
                      "RETURNING id", (doc.doc_id, doc.group, doc.text, json.dumps(meta, default=str),
                                       now()))[0]["id"]
            if annotator is not None and doc.spans:
                t = now()
                for sp in doc.spans:
                    run("INSERT INTO annotations (note_id, annotator, span_start, span_end, subtype, status, "
                        "origin, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, 'accepted', 'import', ?, ?)",
                        (nid, annotator, sp.start, sp.end, sp.subtype, who, t))
            self.audit(run, who, "import_note", nid, [ledger.NOTE] + ([annotator] if annotator and doc.spans else []),
                       doc_id=doc.doc_id, spans=len(doc.spans) if annotator else 0, chars=len(doc.text))
        return nid

    def note(self, note_id: int) -> dict:
        row = self.db.one("SELECT * FROM notes WHERE id = ?", (note_id,))
        if row is None:
            raise NotFound(f"no note {note_id}")
        row["meta"] = json.loads(row["meta"])
        return row

    def notes(self) -> list[dict]:
        """Every note's id, document id, patient, priority and model version (no text)."""
        return self.db.query("SELECT id, doc_id, patient, priority, model_version FROM notes ORDER BY id")

    def document(self, note_id: int, spans=()) -> Document:
        row = self.note(note_id)
        meta = dict(row["meta"], patient=row["patient"])
        return Document(row["doc_id"], row["body"], list(spans), meta)

    # -- model suggestions ---------------------------------------------------------------
    def touched(self, note_id: int) -> bool:
        """Whether a person has opened the note (its model suggestions are then frozen)."""
        return bool(self.db.one("SELECT 1 AS x FROM reviews r JOIN annotators a ON a.name = r.annotator "
                                "WHERE r.note_id = ? AND a.kind = 'human'", (note_id,)))

    def set_suggestions(self, note_id: int, spans, confidences, version: int, priority: float) -> bool:
        """Replace the model's suggestions of an untouched note; always update its priority.

        Returns whether the suggestions were replaced.
        """
        with self.db.write() as run:
            # the row lock (PostgreSQL) orders this against a first opening of the note
            run("UPDATE notes SET priority = ? WHERE id = ?", (float(priority), note_id))
            if run("SELECT 1 AS x FROM reviews r JOIN annotators a ON a.name = r.annotator "
                   "WHERE r.note_id = ? AND a.kind = 'human'", (note_id,)):
                return False
            run("DELETE FROM annotations WHERE note_id = ? AND annotator = ?", (note_id, MODEL))
            t = now()
            for sp, c in zip(spans, confidences):
                run("INSERT INTO annotations (note_id, annotator, span_start, span_end, subtype, status, "
                    "confidence, origin, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, 'suggested', ?, "
                    "'model', ?, ?)", (note_id, MODEL, sp.start, sp.end, sp.subtype, float(c), MODEL, t))
            run("UPDATE notes SET model_version = ? WHERE id = ?", (version, note_id))
            self.audit(run, MODEL, "suggest", note_id, spans=len(spans), version=version)
        return True

    # -- annotations ----------------------------------------------------------------------
    def spans(self, note_id: int, annotator: str, include_deleted: bool = False) -> list[dict]:
        cond = "" if include_deleted else "AND status <> 'deleted'"
        rows = self.db.query(f"SELECT * FROM annotations WHERE note_id = ? AND annotator = ? {cond} "
                             "ORDER BY span_start, span_end, id", (note_id, annotator))
        return [_span(r) for r in rows]

    def open(self, note_id: int, annotator: str) -> dict:
        """Open a note for a person: copy the model's suggestions on the first opening.

        Returns the review state ``{"state": "open"|"done", ...}``.
        """
        state = self.review_state(note_id, annotator)
        if state is not None:
            return state
        self.note(note_id)
        with self.db.write() as run:
            self._first_open(run, note_id, annotator)
            return run("SELECT state, opened_at, done_at FROM reviews WHERE note_id = ? AND annotator = ?",
                       (note_id, annotator))[0]

    def shown(self, note_id: int, annotator: str, visible: bool = True) -> None:
        """The note came on (or left) the person's screen: an audit counts reading time while shown."""
        self.note(note_id)
        with self.db.write() as run:
            self.audit(run, annotator, "shown" if visible else "hidden", note_id)

    def _first_open(self, run, note_id: int, annotator: str) -> None:
        """Inside a transaction: the review row and, if new, the copy of the model's suggestions."""
        run("UPDATE notes SET model_version = model_version WHERE id = ?", (note_id,))  # row lock, as above
        new = run("INSERT INTO reviews (note_id, annotator, state, opened_at) VALUES (?, ?, 'open', ?) "
                  "ON CONFLICT (note_id, annotator) DO NOTHING RETURNING state", (note_id, annotator, now()))
        if new:
            n = run.count("INSERT INTO annotations (note_id, annotator, span_start, span_end, subtype, status, "
                          "confidence, origin, updated_by, updated_at) SELECT note_id, ?, span_start, span_end, "
                          "subtype, 'suggested', confidence, 'model', ?, ? FROM annotations "
                          "WHERE note_id = ? AND annotator = ? AND status <> 'deleted'",
                          (annotator, MODEL, now(), note_id, MODEL))
            self.audit(run, annotator, "open", note_id, suggestions=n)

    def _check_extent(self, run, note_id, annotator, start, end, subtype, span_id=None) -> tuple:
        rows = run("SELECT body FROM notes WHERE id = ?", (note_id,))
        if not rows:
            raise NotFound(f"no note {note_id}")
        text = rows[0]["body"]
        try:
            start, end = int(start), int(end)
        except (TypeError, ValueError):
            raise Invalid("span offsets must be integers") from None
        if not 0 <= start < end <= len(text):
            raise Invalid(f"span [{start}, {end}) is empty or outside the note (length {len(text)})")
        start, end = trim(text, start, end)
        if start >= end:
            raise Invalid("a span of white space only")
        subtype = str(subtype).upper()
        if subtype not in phi_schema.SUBTYPE_TO_PARENT:
            raise Invalid(f"unknown PHI type {subtype!r}; known: {', '.join(phi_schema.SUBTYPE_TO_PARENT)}")
        clash = run("SELECT id, span_start, span_end FROM annotations WHERE note_id = ? AND annotator = ? "
                    "AND status <> 'deleted' AND span_start < ? AND span_end > ? AND id <> ?",
                    (note_id, annotator, end, start, span_id or -1))
        if clash:
            c = clash[0]
            raise Conflict(f"span [{start}, {end}) overlaps span {c['id']} [{c['span_start']}, {c['span_end']})")
        return start, end, subtype

    def add_span(self, note_id: int, annotator: str, start: int, end: int, subtype: str,
                 version: int | None = None) -> dict:
        """A new accepted span of ``annotator`` (trimmed of white space; no overlap allowed).

        ``version`` (here and in every write of a review): the version of the person's review
        the page last saw (:meth:`version`); a page that missed a change gets :class:`Stale`.
        """
        with self.db.write() as run:
            start, end, subtype = self._check_extent(run, note_id, annotator, start, end, subtype)
            self.bump(run, note_id, annotator, version)
            # the model's suggestions first, whatever the order of the calls: a span added to a note
            # not opened yet must not leave them out of this person's review
            self._first_open(run, note_id, annotator)
            start, end, subtype = self._check_extent(run, note_id, annotator, start, end, subtype)
            row = run("INSERT INTO annotations (note_id, annotator, span_start, span_end, subtype, status, "
                      "origin, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, 'accepted', 'human', ?, ?) "
                      "RETURNING *", (note_id, annotator, start, end, subtype, annotator, now()))[0]
            self.audit(run, annotator, "add_span", note_id, delta={annotator: ([], [row])}, span=row["id"],
                       start=start, end=end, subtype=subtype)
        return _span(row)

    def update_span(self, span_id: int, who: str, start=None, end=None, subtype=None, status=None,
                    version: int | None = None) -> dict:
        """Change a span's extent, type or status (``accepted``, ``deleted``, ``suggested``).

        A new extent or type accepts a suggestion unless ``status`` says otherwise.
        """
        if status is not None and status not in ("accepted", "deleted", "suggested"):
            raise Invalid("status must be accepted, deleted or suggested")
        with self.db.write() as run:
            rows = run("SELECT * FROM annotations WHERE id = ?", (span_id,))
            if not rows:
                raise NotFound(f"no span {span_id}")
            old = rows[0]
            if old["annotator"] != who:
                raise Conflict(f"span {span_id} belongs to another annotator")
            self.bump(run, old["note_id"], who, version)
            changed = any(v is not None for v in (start, end, subtype))
            # changing a suggestion's extent or type is a decision about it
            new_status = status or ("accepted" if changed and old["status"] == "suggested" else old["status"])
            s, e, sub = old["span_start"], old["span_end"], old["subtype"]
            if new_status != "deleted":
                s, e, sub = self._check_extent(run, old["note_id"], who, s if start is None else start,
                                               e if end is None else end, sub if subtype is None else subtype,
                                               span_id)
            row = run("UPDATE annotations SET span_start = ?, span_end = ?, subtype = ?, status = ?, "
                      "updated_by = ?, updated_at = ? WHERE id = ? RETURNING *",
                      (s, e, sub, new_status, who, now(), span_id))[0]
            self.audit(run, who, "delete_span" if new_status == "deleted" else "update_span", old["note_id"],
                       delta={who: ([old], [row])}, span=span_id,
                       before=[old["span_start"], old["span_end"], old["subtype"], old["status"]],
                       after=[s, e, sub, new_status])
        return _span(row)

    def accept_all(self, note_id: int, annotator: str, version: int | None = None) -> int:
        """Accept every remaining suggestion of ``annotator`` on the note; returns how many."""
        with self.db.write() as run:
            self.bump(run, note_id, annotator, version)
            n = run.count("UPDATE annotations SET status = 'accepted', updated_by = ?, updated_at = ? "
                          "WHERE note_id = ? AND annotator = ? AND status = 'suggested'",
                          (annotator, now(), note_id, annotator))
            self.audit(run, annotator, "accept_all", note_id, spans=n)
        return n

    def finish(self, note_id: int, annotator: str, version: int | None = None) -> int:
        """Mark the note reviewed by ``annotator``; suggestions left undecided are accepted
        (recall first), except in an audit's project, where they stay undecided and the event
        counts them (an audit measures what the reviewer decided). Returns how many were
        accepted that way."""
        self.note(note_id)
        audit = self.setting("audit") is not None
        with self.db.write() as run:
            self.bump(run, note_id, annotator, version)
            self._first_open(run, note_id, annotator)
            if audit:
                left = run("SELECT COUNT(*) AS n FROM annotations WHERE note_id = ? AND annotator = ? AND "
                           "status = 'suggested'", (note_id, annotator))[0]["n"]
                n, detail = 0, {"left_undecided": left}
            else:
                n = run.count("UPDATE annotations SET status = 'accepted', updated_by = ?, updated_at = ? "
                              "WHERE note_id = ? AND annotator = ? AND status = 'suggested'",
                              (annotator, now(), note_id, annotator))
                detail = {"accepted_undecided": n}
            run("UPDATE reviews SET state = 'done', done_at = ? WHERE note_id = ? AND annotator = ?",
                (now(), note_id, annotator))
            self.audit(run, annotator, "done", note_id, **detail)
        return n

    def release(self, note_id: int, annotator: str, version: int | None = None) -> bool:
        """Undo a person's opening of a note they have not acted on (every copied suggestion
        untouched): the note leaves their queue's open notes and its suggestions may be
        renewed again. Returns whether it was released; any decision keeps the note open."""
        with self.db.write() as run:
            state = run("SELECT state FROM reviews WHERE note_id = ? AND annotator = ?", (note_id, annotator))
            if not state or state[0]["state"] != "open":
                return False
            if run("SELECT 1 AS x FROM annotations WHERE note_id = ? AND annotator = ? AND "
                   "(status <> 'suggested' OR origin <> 'model' OR updated_by <> ?)", (note_id, annotator, MODEL)):
                return False
            self.bump(run, note_id, annotator, version)
            run("DELETE FROM annotations WHERE note_id = ? AND annotator = ?", (note_id, annotator))
            run("DELETE FROM reviews WHERE note_id = ? AND annotator = ?", (note_id, annotator))
            self.audit(run, annotator, "release", note_id)
        return True

    def reopen(self, note_id: int, annotator: str, version: int | None = None) -> None:
        with self.db.write() as run:
            self.bump(run, note_id, annotator, version)
            run("UPDATE reviews SET state = 'open', done_at = NULL WHERE note_id = ? AND annotator = ?",
                (note_id, annotator))
            self.audit(run, annotator, "reopen", note_id)

    def review_state(self, note_id: int, annotator: str) -> dict | None:
        return self.db.one("SELECT state, opened_at, done_at FROM reviews WHERE note_id = ? AND annotator = ?",
                           (note_id, annotator))

    def done_by(self, note_id: int) -> list[str]:
        """The people who finished the note."""
        rows = self.db.query("SELECT r.annotator FROM reviews r JOIN annotators a ON a.name = r.annotator "
                             "WHERE r.note_id = ? AND r.state = 'done' AND a.kind = 'human' ORDER BY r.annotator",
                             (note_id,))
        return [r["annotator"] for r in rows]

    def queue(self, annotator: str, per_note: int = 1, limit: int = 50) -> list[int]:
        """Notes for ``annotator``: the ones they left open first (even when others have
        finished them since: their work is never orphaned), then the most uncertain notes not
        yet finished by ``per_note`` people (nor by them)."""
        rows = self.db.query(
            "SELECT n.id FROM notes n LEFT JOIN reviews mine ON mine.note_id = n.id AND mine.annotator = ? "
            "WHERE mine.state = 'open' OR (mine.state IS NULL AND (SELECT COUNT(*) FROM reviews r "
            "JOIN annotators a ON a.name = r.annotator WHERE r.note_id = n.id AND r.state = 'done' "
            "AND a.kind = 'human') < ?) ORDER BY CASE WHEN mine.state = 'open' THEN 0 ELSE 1 END, "
            f"n.priority DESC, n.id LIMIT {int(limit)}", (annotator, per_note))
        return [r["id"] for r in rows]

    def progress(self) -> dict:
        """Counts for the progress view: notes, notes finished by anyone, per annotator."""
        total = self.db.count("SELECT COUNT(*) AS n FROM notes")
        done = self.db.count("SELECT COUNT(DISTINCT r.note_id) AS n FROM reviews r JOIN annotators a "
                             "ON a.name = r.annotator WHERE r.state = 'done' AND a.kind = 'human'")
        per = self.db.query("SELECT r.annotator, COUNT(*) AS n FROM reviews r JOIN annotators a "
                            "ON a.name = r.annotator WHERE r.state = 'done' AND a.kind = 'human' "
                            "GROUP BY r.annotator ORDER BY r.annotator")
        adj = self.db.count("SELECT COUNT(*) AS n FROM adjudications")
        return {"notes": total, "reviewed": done, "adjudicated": adj,
                "by_annotator": {r["annotator"]: r["n"] for r in per}}


def to_spans(rows) -> list[Span]:
    """:class:`~crfdeid.document.Span` objects of span dictionaries."""
    return [Span(r["start"], r["end"], phi_schema.parent_of(r["subtype"]), r["subtype"]) for r in rows]
