"""Error analysis after He et al. (2015), tables 6-8: what kind of mistake each error is.

Each distinct gold span gets one class, decided in this order:

- ``correct``: a system span with the same extent and subtype;
- ``type``: a system span with the same extent but another subtype (counted
  in the subtype confusion matrix, gold subtype x system subtype);
- ``short`` / ``long`` / ``short_and_long``: overlapping system span(s) of the
  same subtype but another extent. *Short*: some such span starts later or
  ends earlier than the gold one (also a gold span split in pieces); *long*:
  some such span starts earlier or ends later; both: ``short_and_long``;
- ``type_and_extent``: only overlapping spans of other subtypes and extents;
- ``missing``: no system span overlaps it.

Each system span that overlaps no gold span is ``spurious``. Percentages are
shares of all errors. Examples give document ids and offsets; the surface text
(PHI) only when asked for. When the system's documents were tagged with ``explain``
(``tag --explain``: ``meta['explain']``, :mod:`crfdeid.recognizers.provenance`), an example
also says which steps made each system span and which step dropped a span over the gold one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .keys import restrict
from .pairing import pair
from .report import check_filter

#: Error classes, in report order.
ERROR_CLASSES = ("type", "short", "long", "short_and_long", "type_and_extent", "missing", "spurious")


@dataclass(frozen=True)
class ErrorExample:
    """One error: document id, the gold span and the system spans involved (offsets, subtype)."""

    doc_id: str
    gold: tuple | None
    system: tuple = ()
    gold_text: str | None = None
    system_text: tuple = ()
    #: With an explained prediction: each system span's steps (``"crf found"``, ...), and the
    #: spans over the gold one that a step dropped (``(start, end, subtype, "junk_spans.v1: ...")``).
    steps: tuple = ()
    dropped: tuple = ()

    def as_dict(self) -> dict:
        d = {"doc_id": self.doc_id, "gold": list(self.gold) if self.gold else None,
             "system": [list(s) for s in self.system]}
        if self.gold_text is not None or self.system_text:
            d.update(gold_text=self.gold_text, system_text=list(self.system_text))
        if self.steps:
            d["steps"] = [list(s) for s in self.steps]
        if self.dropped:
            d["dropped"] = [list(s) for s in self.dropped]
        return d


@dataclass
class ErrorAnalysis:
    """Counts per error class, a subtype confusion matrix and a few examples per class."""

    counts: Counter = field(default_factory=Counter)
    confusion: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=lambda: {c: [] for c in ERROR_CLASSES})
    correct: int = 0

    @property
    def total_errors(self) -> int:
        return sum(self.counts[c] for c in ERROR_CLASSES)

    def percent(self, cls: str) -> float:
        """Share (0-100) of all errors that fall in ``cls``."""
        total = self.total_errors
        return 100.0 * self.counts[cls] / total if total else 0.0

    def to_dict(self) -> dict:
        return {
            "correct": self.correct,
            "total_errors": self.total_errors,
            "classes": {c: {"count": self.counts[c], "percent": self.percent(c)} for c in ERROR_CLASSES},
            "confusion": [{"gold": g, "system": s, "count": n}
                          for (g, s), n in sorted(self.confusion.items())],
            "examples": {c: [e.as_dict() for e in ex] for c, ex in self.examples.items()},
        }


def analyse_errors(gold_docs: Iterable, pred_docs: Iterable, examples: int = 5,
                   show_text: bool = False, filter: Iterable[str] | None = None,
                   check_text: bool = True) -> ErrorAnalysis:
    """Classify every gold and system span of the documents both sides have.

    Parameters
    ----------
    examples : int
        Keep at most this many examples per error class.
    show_text : bool
        Put the surface strings (PHI) in the examples.

    Examples
    --------
    >>> from crfdeid.document import Document, make_span
    >>> text = "Dr John Smith saw him"
    >>> gold = [Document("1", text, [make_span(3, 13, "DOCTOR")])]
    >>> pred = [Document("1", text, [make_span(3, 7, "DOCTOR"), make_span(18, 21, "PATIENT")])]
    >>> ea = analyse_errors(gold, pred)
    >>> ea.counts["short"], ea.counts["spurious"], ea.total_errors
    (1, 1, 2)
    """
    keep = check_filter(filter)
    result = ErrorAnalysis()
    for g, p in pair(gold_docs, pred_docs, check_text=check_text).pairs:
        gold = sorted(set(restrict(g.spans, categories=keep)))
        system = sorted(set(restrict(p.spans, categories=keep)))
        for gs in gold:
            cls, involved = _classify(gs, system)
            if cls == "correct":
                result.correct += 1
                continue
            if cls == "type":
                result.confusion[(gs.subtype.upper(), involved[0].subtype.upper())] += 1
            _note(result, cls, g, gs, involved, examples, show_text, p)
        for ss in system:
            if not any(ss.overlaps(gs) for gs in gold):
                _note(result, "spurious", g, None, [ss], examples, show_text, p)
    return result


def _why(pred, gs, involved) -> tuple[tuple, tuple]:
    """The steps of each ``involved`` span and the dropped spans over ``gs``, from a prediction
    tagged with ``explain`` (both empty without)."""
    trace = pred.meta.get("explain")
    if not isinstance(trace, dict):
        return (), ()
    by_span = {(sp.start, sp.end, sp.subtype.upper()): steps for sp, steps in zip(pred.spans, trace.get("spans", ()))}
    steps = tuple(tuple(f"{x['step']} {x['action']}" for x in by_span.get((s.start, s.end, s.subtype.upper()), ()))
                  for s in involved)
    dropped = () if gs is None else tuple(
        (d["start"], d["end"], d["type"], f"{d['steps'][-1]['step']}: {d['steps'][-1]['reason']}")
        for d in trace.get("dropped", ()) if d["start"] < gs.end and gs.start < d["end"] and d.get("steps"))
    return steps, dropped


def _classify(gs, system) -> tuple[str, list]:
    sub = gs.subtype.upper()
    overlapping = [s for s in system if s.overlaps(gs)]
    same_extent = [s for s in overlapping if (s.start, s.end) == (gs.start, gs.end)]
    if any(s.subtype.upper() == sub for s in same_extent):
        return "correct", []
    if same_extent:
        return "type", same_extent
    same_type = [s for s in overlapping if s.subtype.upper() == sub]
    if same_type:
        short = any(s.start > gs.start or s.end < gs.end for s in same_type)
        long = any(s.start < gs.start or s.end > gs.end for s in same_type)
        return ("short_and_long" if short and long else "short" if short else "long"), same_type
    if overlapping:
        return "type_and_extent", overlapping
    return "missing", []


def _note(result, cls, doc, gs, involved, limit, show_text, pred=None) -> None:
    result.counts[cls] += 1
    if len(result.examples[cls]) >= limit:
        return
    steps, dropped = _why(pred, gs, involved) if pred is not None else ((), ())
    ex = ErrorExample(
        doc.doc_id,
        (gs.start, gs.end, gs.subtype.upper()) if gs else None,
        tuple((s.start, s.end, s.subtype.upper()) for s in involved),
        doc.surface(gs) if show_text and gs else None,
        tuple(doc.surface(s) for s in involved) if show_text else (),
        steps, dropped,
    )
    result.examples[cls].append(ex)
