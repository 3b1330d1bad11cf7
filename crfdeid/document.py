"""The document model: a note's text and its PHI spans.

One span convention everywhere: half-open character offsets ``[start, end)``
into ``Document.text``. The surface string of a span is always
``text[start:end]``; it is never stored as the truth.

>>> doc = Document("110-01", "Seen by Dr. Smith on 7/22.", [Span(12, 17, "NAME", "DOCTOR")])
>>> doc.surface(doc.spans[0])
'Smith'
>>> doc.group
'110'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from . import schema
from .errors import SchemaError, SpanError

_I2B2_RECORD = re.compile(r"^(\d+)-\d+")


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A PHI mention: half-open character offsets, parent category and subtype.

    ``confidence`` is the tagger's confidence in a predicted span (the lowest
    P(PHI) of its tokens; 1.0 for a rule's span), ``None`` for gold spans.
    ``crf_confidence`` is the CRF's word on the span whatever step made it (the lowest
    P(PHI) of the tokens it overlaps: :mod:`crfdeid.tagging.crf_evidence`), which the
    surrogate gate reads of a place a rule made; ``None`` where no CRF scored it. Neither takes part in
    comparisons: two spans with the same offsets and type are equal.

    >>> Span(0, 3, "NAME", "DOCTOR", confidence=0.8) == Span(0, 3, "NAME", "DOCTOR")
    True
    """

    start: int
    end: int
    category: str
    subtype: str
    confidence: float | None = field(default=None, compare=False, repr=False)
    crf_confidence: float | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        """Whether the two spans share at least one character."""
        return self.start < other.end and other.start < self.end

    def shifted(self, delta: int) -> Span:
        """The same span moved by ``delta`` characters."""
        return replace(self, start=self.start + delta, end=self.end + delta)

    def as_dict(self) -> dict:
        return {"start": self.start, "end": self.end,
                "category": self.category, "subtype": self.subtype}


@dataclass(frozen=True, slots=True)
class Found:
    """What a recognizer found in ``text`` while tagging, kept with the tagged note so that a
    writer does not search it again: ``(form name, span)`` pairs of
    :func:`crfdeid.recognizers.safeharbor.matches`. Valid for ``text`` only: a reader checks
    that its note's text is still that text."""

    text: str
    matches: tuple[tuple[str, Span], ...]


@dataclass(slots=True)
class Document:
    """A note: identifier, text, PHI spans (sorted) and free metadata.

    ``meta`` may carry ``patient`` (the grouping key for patient-level splits
    and surrogate consistency) and ``source`` (the file it was read from).
    ``found`` is what the tagger's Safe Harbor layer found (:class:`Found`), or None;
    it is never written and takes no part in comparisons.
    """

    doc_id: str
    text: str
    spans: list = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    found: Found | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        self.spans = sorted(self.spans)

    def surface(self, span: Span) -> str:
        """The text a span covers."""
        return self.text[span.start:span.end]

    @property
    def group(self) -> str:
        """Patient/grouping key: ``meta['patient']``, else the i2b2 record prefix, else the id."""
        patient = self.meta.get("patient")
        if patient is not None:
            return str(patient)
        m = _I2B2_RECORD.match(self.doc_id)
        return m.group(1) if m else self.doc_id

    def with_spans(self, spans) -> Document:
        """A copy of this document with other spans (text, meta and found shared)."""
        return Document(self.doc_id, self.text, list(spans), dict(self.meta), self.found)

    def validate(self, path=None, allow_overlap: bool = True, scheme=None) -> Document:
        """Check every span against the text and a label scheme; raise on the first problem.

        ``scheme`` (a :class:`~crfdeid.schema.Scheme`) defaults to i2b2 2014;
        :data:`crfdeid.schema.ANY` accepts every label (labels as written).

        Raises
        ------
        SpanError
            A span outside the text, empty, or (with ``allow_overlap=False``) overlapping another.
        SchemaError
            A category/subtype pair outside the scheme.
        """
        scheme = schema.DEFAULT if scheme is None else scheme
        n = len(self.text)
        prev = None
        for sp in self.spans:
            if not (0 <= sp.start < sp.end <= n):
                raise SpanError(
                    f"span [{sp.start}, {sp.end}) is empty, reversed or outside the text (length {n})",
                    path=path, doc_id=self.doc_id, offset=sp.start)
            if not scheme.is_valid(sp.category, sp.subtype):
                raise SchemaError(
                    f"unknown PHI category/subtype {sp.category}/{sp.subtype}; "
                    f"known subtypes: {schema.known_labels(scheme)}",
                    path=path, doc_id=self.doc_id, offset=sp.start)
            if not allow_overlap and prev is not None and prev.overlaps(sp):
                raise SpanError(
                    f"span [{sp.start}, {sp.end}) overlaps [{prev.start}, {prev.end})",
                    path=path, doc_id=self.doc_id, offset=sp.start)
            prev = sp
        return self


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Offsets with white space at both edges removed (white space is never PHI).

    >>> trim("at nov. 2016", 3, 8)
    (3, 7)
    """
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def line_bounds(text: str, start: int, end: int | None = None) -> tuple[int, int]:
    """Where the line holding ``start`` begins and the line holding ``end`` (``start`` when not given)
    ends: after the last ``\\n`` before ``start``, at the first ``\\n`` from ``end`` on (the text's end
    when there is none). Only ``\\n`` ends a line here (a ``\\r`` stays inside it).

    >>> text = "BP 120\\nSeen by Dr Lee\\nHR 80"
    >>> line_bounds(text, 15, 18), line_bounds(text, 22), line_bounds(text, 0, 2)
    ((7, 21), (22, 27), (0, 6))
    """
    line_end = text.find("\n", start if end is None else end)
    return text.rfind("\n", 0, start) + 1, len(text) if line_end < 0 else line_end


def make_span(start: int, end: int, subtype: str, category: str | None = None) -> Span:
    """Build a span from a subtype (parent derived) with upper-cased names."""
    subtype = subtype.upper()
    return Span(start, end, (category or schema.parent_of(subtype)).upper(), subtype)


def merge_disjoint(base: list, extra: list) -> list:
    """``base`` plus each span of ``extra`` that overlaps no span kept so far (both sorted and
    disjoint; one linear pass, so a note with a million matches stays linear)."""
    out: list[Span] = []
    i, n = 0, len(base)
    for sp in extra:
        while i < n and base[i].start < sp.start:
            out.append(base[i])
            i += 1
        if (out and out[-1].end > sp.start) or (i < n and base[i].start < sp.end):
            continue
        out.append(sp)
    out.extend(base[i:])
    return out
