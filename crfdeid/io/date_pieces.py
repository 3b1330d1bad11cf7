"""A date span widened over the pieces of its date the model left beside it, so that a
de-identified text never reads ``[**DATE**]-12`` (:meth:`crfdeid.io.records.RecordWriter.text`)."""

from __future__ import annotations

import re

from ..document import Document, Span

#: A piece of a date beside a date span: ``-12``, ``/2098``, ``.07`` after it, ``12/`` before it.
_PIECE_AFTER = re.compile(r"[-/.](?:\d{1,4})(?!\d)")
_PIECE_BEFORE = re.compile(r"(?<!\d)\d{1,4}[-/.]$")


def whole_dates(doc: Document) -> Document:
    """``doc`` with each DATE span widened over the date pieces that touch it (at most two a
    side) where no other span lies.

    >>> from crfdeid.document import make_span
    >>> d = whole_dates(Document("d", "on 2098-07-12.", [make_span(3, 10, "DATE")]))
    >>> [(s.start, s.end) for s in d.spans]
    [(3, 13)]
    """
    if not any(s.category == "DATE" for s in doc.spans):
        return doc
    spans = sorted(doc.spans)
    out = []
    for k, s in enumerate(spans):
        if s.category == "DATE":
            lo = spans[k - 1].end if k else 0
            hi = spans[k + 1].start if k + 1 < len(spans) else len(doc.text)
            start, end = s.start, s.end
            for _ in range(2):
                m = _PIECE_AFTER.match(doc.text, end)
                if m and m.end() <= hi:
                    end = m.end()
                b = _PIECE_BEFORE.search(doc.text, max(lo, start - 5), start)
                if b:
                    start = b.start()
            if (start, end) != (s.start, s.end):
                s = Span(start, end, s.category, s.subtype, s.confidence)
        out.append(s)
    return Document(doc.doc_id, doc.text, out, doc.meta)
