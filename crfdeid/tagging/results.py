"""What tagging gives back per note: a :class:`Record` (spans, text or error), the spans as JSON
data (:func:`span_records`, :func:`explanation`) and a tagging result (:func:`tag_result`), never
the note's text in a message (the results half of :mod:`crfdeid.tagging.session`)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import schema
from ..deid.spans import propagate
from ..document import Document
from ..errors import CrfdeidError
from ..progress import Cancelled


@dataclass(frozen=True)
class Record:
    """One note's result: id, spans (None on failure), text (None for ``spans``/failure), error;
    from a session with ``explain``, the note's :meth:`Session.explanation` (else None)."""

    id: str
    spans: list | None
    text: str | None
    error: str | None = None
    explanation: dict | None = None


def span_records(doc: Document) -> list[dict]:
    """The spans of a tagged document as ``{type, category, start, end, confidence}`` dicts.

    ``type`` is the subtype (``DOCTOR``), offsets are half-open into the note's text and
    ``confidence`` the tagger's (``Span.confidence``; 1.0 where it gave none); tagged with
    ``explain``, ``steps`` what each step did to it.
    """
    records = [{"type": sp.subtype, "category": sp.category, "start": sp.start, "end": sp.end,
                "confidence": 1.0 if sp.confidence is None else float(sp.confidence)}
               for sp in doc.spans]
    trace = doc.meta.get("explain")
    if trace is not None:  # tagged with explain: each span's steps
        for rec, steps in zip(records, trace["spans"]):
            rec["steps"] = steps
    return records


def explanation(doc: Document, repeats: bool = False, scheme=None) -> dict:
    """What each step did to a tagged document's spans (tagged with ``explain``), as JSON data:
    ``{"id", "spans": [{start, end, type, category, confidence, steps}], "dropped": [...]}``;
    offsets, types, the tagger's confidence (None for a span no tagger scored), step names and
    reasons, never the note's text.

    ``repeats``: the spans a de-identifying writer adds for the repeats of a span's words
    (:func:`crfdeid.deid.spans.propagate`, under the writer's ``scheme``, as the writer finds
    them), with the step ``propagate``.
    """
    trace = doc.meta.get("explain") or {"spans": [[] for _ in doc.spans], "dropped": []}
    spans = [{**_span_json(sp), "steps": steps} for sp, steps in zip(doc.spans, trace["spans"])]
    if repeats:
        have, written = set(doc.spans), propagate(doc, scheme=None if scheme is None else schema.get(scheme))
        spans += [{**_span_json(sp), "steps": [{"step": "propagate", "action": "found",
                                               "reason": "a repeat of a tagged span's words (deid)"}]}
                  for sp in written.spans if sp not in have]
        spans.sort(key=lambda r: (r["start"], r["end"]))
    return {"id": doc.doc_id, "spans": spans, "dropped": trace["dropped"]}


def _span_json(sp) -> dict:
    conf = None if sp.confidence is None else round(float(sp.confidence), 4)
    return {"start": sp.start, "end": sp.end, "type": sp.subtype, "category": sp.category, "confidence": conf}


def tag_result(doc: Document, tagged) -> tuple:
    """``(doc_id, tagged, None)``, or ``(doc_id, None, message)`` when ``tagged`` is an exception
    (the message never holds note text); :class:`~crfdeid.progress.Cancelled` is raised again."""
    if isinstance(tagged, Cancelled):  # the caller's deadline: no result for anyone, not a failed note
        raise tagged
    if isinstance(tagged, CrfdeidError):
        return doc.doc_id, None, str(tagged)
    if isinstance(tagged, Exception):  # a bug must name the document, never its text
        return doc.doc_id, None, f"document {doc.doc_id!r}: tagging failed ({type(tagged).__name__})"
    return doc.doc_id, tagged, None
