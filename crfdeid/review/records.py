"""The review store's tables and error types, and the few helpers every part of it uses.

The tables (:data:`SCHEMA`, one statement per table, with the dialect words of
:mod:`crfdeid.review.db`) are read and written by :class:`crfdeid.review.store.Store`; the
``audit`` table is the append-only event log of :mod:`crfdeid.review.ledger`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from .db import StoreError

MODEL = "model"
KINDS = ("human", "model", "import")
SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
  id {pk}, doc_id TEXT NOT NULL UNIQUE, patient TEXT NOT NULL, body TEXT NOT NULL,
  meta TEXT NOT NULL, priority {real} NOT NULL DEFAULT 0, model_version INTEGER NOT NULL DEFAULT 0,
  imported_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS annotators (name TEXT PRIMARY KEY, kind TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS annotations (
  id {pk}, note_id INTEGER NOT NULL REFERENCES notes(id), annotator TEXT NOT NULL REFERENCES annotators(name),
  span_start INTEGER NOT NULL, span_end INTEGER NOT NULL, subtype TEXT NOT NULL, status TEXT NOT NULL,
  confidence {real}, origin TEXT NOT NULL, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS annotations_note ON annotations (note_id, annotator);
CREATE TABLE IF NOT EXISTS reviews (
  note_id INTEGER NOT NULL REFERENCES notes(id), annotator TEXT NOT NULL REFERENCES annotators(name),
  state TEXT NOT NULL, opened_at TEXT NOT NULL, done_at TEXT, PRIMARY KEY (note_id, annotator));
CREATE TABLE IF NOT EXISTS decisions (
  id {pk}, note_id INTEGER NOT NULL REFERENCES notes(id), item_start INTEGER NOT NULL, item_end INTEGER NOT NULL,
  verdict TEXT NOT NULL, span_start INTEGER NOT NULL, span_end INTEGER NOT NULL, subtype TEXT NOT NULL,
  adjudicator TEXT NOT NULL, decided_at TEXT NOT NULL, UNIQUE (note_id, item_start, item_end));
CREATE TABLE IF NOT EXISTS adjudications (
  note_id INTEGER PRIMARY KEY REFERENCES notes(id), adjudicator TEXT NOT NULL, voters TEXT NOT NULL,
  done_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS surrogates (
  note_id INTEGER NOT NULL REFERENCES notes(id), span_start INTEGER NOT NULL, span_end INTEGER NOT NULL,
  value TEXT NOT NULL, status TEXT NOT NULL, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (note_id, span_start, span_end));
CREATE TABLE IF NOT EXISTS models (
  version INTEGER PRIMARY KEY, path TEXT NOT NULL, notes INTEGER NOT NULL, trained_at TEXT NOT NULL,
  stats TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
  id {pk}, kind TEXT NOT NULL, state TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,
  detail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
  note_id INTEGER NOT NULL REFERENCES notes(id), scope TEXT NOT NULL, version INTEGER NOT NULL,
  PRIMARY KEY (note_id, scope));
CREATE TABLE IF NOT EXISTS audit (
  id {pk}, at TEXT NOT NULL, who TEXT NOT NULL, action TEXT NOT NULL, note_id INTEGER, detail TEXT NOT NULL,
  scope TEXT, state TEXT, prev TEXT, hash TEXT);
CREATE TABLE IF NOT EXISTS log_head (id INTEGER PRIMARY KEY, hash TEXT NOT NULL, events INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS log_state (
  note_id INTEGER NOT NULL, scope TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (note_id, scope))
"""


class NotFound(StoreError):
    """No such note, span or annotator."""


class Conflict(StoreError):
    """A change that contradicts what is stored (e.g. a span overlapping another)."""


class Invalid(StoreError):
    """A change with bad values (offsets outside the text, unknown type, bad name)."""


class Forbidden(StoreError):
    """A change the person may not make (their role, or a note they reviewed themselves)."""


class Stale(Conflict):
    """A write from a page that has not seen the last change of the note (another tab, another
    adjudicator): it would overwrite a decision it never showed, so it is refused."""


#: The version scope of a note's adjudication (a person's review is scoped by their name,
#: which cannot hold ``#``).
ADJUDICATION = "#adjudication"


def now() -> str:
    """The current UTC time, ISO 8601 with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def check_name(name: str) -> str:
    """An annotator name: 1-40 letters, digits, ``.``, ``_`` or ``-``."""
    name = (name or "").strip()
    if not (0 < len(name) <= 40) or not all(c.isalnum() or c in "._-" for c in name):
        raise Invalid("annotator names have 1-40 letters, digits, '.', '_' or '-'")
    return name
