"""Surrogate review (Douglass 2005, section 2.4): suggested surrogates beside each span,
edited or approved, then the re-identified corpus written with the new offsets.

An edited value keeps the no-shared-run rule every generated surrogate keeps
(:mod:`crfdeid.deid.guard`): one that shares a letter or digit run of two or more characters
with its original or with another original PHI string of the patient is refused (the message
gives the note and offset, never the value), also when it is written spaced, dotted, with
digits for letters, in look-alike letters of another script or as a number's digits alone
(:mod:`crfdeid.review.lookalike`); the export refuses such a value whatever wrote it (the page,
the API or an edit of the database).

Suggestions come from :class:`crfdeid.deid.Surrogator` keyed with the project's secret
key, run over all reviewed notes of a patient in document order (so a name gets the
same surrogate in every note of the patient, and dates move by the patient's offset).
The spans are each note's final annotations (:func:`crfdeid.review.agreement.final_spans`)
plus, when the project's ``propagate`` setting is on (the default), unannotated
repeats of an annotated PHI string (:func:`crfdeid.deid.propagate`), shown as
``repeat`` items. Overlapping spans are merged, as the surrogate writer does. An
edit stores the new value with who and when; the audit log holds its length only.
"""

from __future__ import annotations

from ..deid import Surrogator, propagate
from ..deid.guard import Units
from ..deid.spans import merged_spans, replace_spans
from ..deid.surrogate import age_keeps
from ..document import Document
from . import lookalike
from .agreement import FINAL, final_spans
from .store import Invalid, now

#: Longest surrogate accepted from the page (characters).
MAX_VALUE = 500


def _reviewed(project, patient: str) -> list[tuple[int, Document, set]]:
    """``(note id, document with final spans, offsets of the spans the reviewers made)`` of the
    patient's reviewed notes, in document order."""
    store = project.store
    rows = store.db.query("SELECT id FROM notes WHERE patient = ? ORDER BY doc_id, id", (patient,))
    out = []
    for r in rows:
        kind, spans = final_spans(store, r["id"])
        if kind not in FINAL:
            continue
        doc = store.document(r["id"], spans)
        own = {(sp.start, sp.end) for sp in spans}
        if project.setting("propagate"):
            doc = propagate(doc)
        out.append((r["id"], doc, own))
    return out


def _stored(store, note_id: int) -> dict:
    rows = store.db.query("SELECT * FROM surrogates WHERE note_id = ?", (note_id,))
    return {(r["span_start"], r["span_end"]): r for r in rows}


def patient_items(project, patient: str) -> dict:
    """``{note id: [item, ...]}`` for every reviewed note of a patient (see the module docstring)."""
    sur = Surrogator(key=project.key)
    out = {}
    for nid, doc, own in _reviewed(project, patient):
        spans = merged_spans(doc.spans)
        new = sur.surrogate(doc.with_spans(spans))
        stored = _stored(project.store, nid)
        items = []
        for sp, nsp in zip(spans, new.spans):
            suggested = new.surface(nsp)
            row = stored.get((sp.start, sp.end))
            items.append({"start": sp.start, "end": sp.end, "subtype": sp.subtype,
                          "original": doc.surface(sp), "suggested": suggested,
                          "value": row["value"] if row else suggested,
                          "status": row["status"] if row else "suggested",
                          "updated_by": row["updated_by"] if row else None,
                          "repeat": not any(s <= sp.start and sp.end <= e for s, e in own)})
        out[nid] = items
    return out


def _originals(items) -> tuple[Units, list[str]]:
    """The units (runs of 2+ characters) of every original of a patient's items, and the
    originals :mod:`.lookalike` re-reads (ages are kept as they are: not those)."""
    units = Units()
    for it in items:
        units.add(it["original"], 2, keep=age_keeps if it["subtype"] == "AGE" else None)
    return units, [it["original"] for it in items if it["subtype"] != "AGE"]


def _refuse_shared_run(originals: tuple[Units, list[str]], value: str, note_id: int, start: int) -> None:
    units, texts = originals
    if units.survivor(value) is not None or lookalike.survives(texts, value):
        raise Invalid(f"the surrogate at offset {start} of note {note_id} shares a letter or digit run with an "
                      "original of the patient: write one that keeps none")


def note_items(project, note_id: int) -> list[dict]:
    """The surrogate items of one note (empty when the note is not reviewed yet)."""
    patient = project.store.note(note_id)["patient"]
    return patient_items(project, patient).get(note_id, [])


def edit(project, note_id: int, start: int, end: int, who: str, value: str | None = None,
         approve: bool = True) -> dict:
    """Store a surrogate for the item ``[start, end)``: ``value`` (``None``: the suggestion)."""
    every = patient_items(project, project.store.note(note_id)["patient"])
    items = {(it["start"], it["end"]): it for it in every.get(note_id, [])}
    item = items.get((int(start), int(end)))
    if item is None:
        raise Invalid(f"no surrogate item [{start}, {end}) in note {note_id}")
    value = item["suggested"] if value is None else str(value)
    if not value.strip() or len(value) > MAX_VALUE or "\n" in value:
        raise Invalid(f"a surrogate is one line of 1-{MAX_VALUE} characters")
    if value != item["suggested"]:  # the suggestion passed the generator's own check
        _refuse_shared_run(_originals([it for its in every.values() for it in its]), value, note_id, item["start"])
    status = "approved" if approve else "edited"
    store = project.store
    with store.db.write() as run:
        run("INSERT INTO surrogates (note_id, span_start, span_end, value, status, updated_by, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (note_id, span_start, span_end) DO UPDATE SET "
            "value = excluded.value, status = excluded.status, updated_by = excluded.updated_by, "
            "updated_at = excluded.updated_at", (note_id, item["start"], item["end"], value, status, who, now()))
        store.audit(run, who, "surrogate", note_id, span=[item["start"], item["end"]], status=status,
                    edited=value != item["suggested"], length=len(value))
    return dict(item, value=value, status=status, updated_by=who)


def approve_all(project, note_id: int, who: str) -> int:
    """Approve every item of a note not approved yet (its current value); returns how many."""
    n = 0
    for it in note_items(project, note_id):
        if it["status"] != "approved":
            edit(project, note_id, it["start"], it["end"], who, it["value"], approve=True)
            n += 1
    return n


def _lookup(values: dict):
    """``replace_spans``' callback: the value stored for the span's offsets."""
    return lambda sp, _surface: values[(sp.start, sp.end)]


def reidentified(project, include_unreviewed: bool = False) -> tuple[list[Document], int]:
    """``(documents, skipped)``: reviewed notes with every PHI replaced by its surrogate (the
    stored value, else the suggestion) and spans at the new offsets. Unreviewed notes are
    skipped (never written with their original text); ``include_unreviewed`` is refused."""
    if include_unreviewed:
        raise Invalid("unreviewed notes are never written re-identified (their PHI is not known)")
    store = project.store
    patients = [r["patient"] for r in store.db.query("SELECT DISTINCT patient FROM notes ORDER BY patient")]
    docs = []
    for patient in patients:
        items = patient_items(project, patient)
        units = _originals([it for its in items.values() for it in its])
        for nid, doc, _ in _reviewed(project, patient):
            for it in items[nid]:
                if it["value"] != it["suggested"]:
                    _refuse_shared_run(units, it["value"], nid, it["start"])
            values = {(it["start"], it["end"]): it["value"] for it in items[nid]}
            docs.append(replace_spans(doc, _lookup(values)))
    total = store.db.count("SELECT COUNT(*) AS n FROM notes")
    return sorted(docs, key=lambda d: d.doc_id), total - len(docs)
