"""Provenance: which step of tagging found, widened, retyped or dropped each span (``tag --explain``).

A :class:`Trace` is made only when a caller asks for an explanation (``options={"explain":
True}``): the tagging model starts it with the decoded spans (the CRF's, or the network's, and
what a companion CRF's vote added), and :meth:`crfdeid.recognizers.chain.Chain.run` records what
each processor changed by comparing the spans before and after it. A span's history is a list
of :class:`Step` (step name, action, reason, and the span it came from); a dropped span is kept
aside with its history. Reasons are fixed phrases of the processors (``a clinical term
(dose)``), never the note's words. Without a trace the chain runs as it always did.

>>> from crfdeid.document import make_span
>>> trace = Trace([make_span(3, 8, "DATE")], "crf")
>>> trace.record("rules.v1", [make_span(3, 8, "DATE")], [make_span(3, 13, "DATE")], {"widened": "a rule's form"})
>>> [s.action for s in trace.of(make_span(3, 13, "DATE"))]
['found', 'widened']
>>> trace.record("junk_spans.v1", [make_span(3, 13, "DATE")], [], {"dropped": "punctuation only"})
>>> trace.report([])["dropped"][0]["steps"][-1]
{'step': 'junk_spans.v1', 'action': 'dropped', 'reason': 'punctuation only'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..document import Span

#: What a step may do to a span.
ACTIONS = ("found", "widened", "narrowed", "moved", "retyped", "merged", "dropped")


@dataclass(frozen=True, slots=True)
class Step:
    """One step's change to a span: its name, the action (:data:`ACTIONS`), a reason, and
    ``was``, the ``(start, end, subtype)`` of the span it changed (None for ``found`` and
    ``dropped``)."""

    step: str
    action: str
    reason: str = ""
    was: tuple[int, int, str] | None = None

    def as_dict(self) -> dict:
        out: dict = {"step": self.step, "action": self.action, "reason": self.reason}
        if self.was is not None:
            out["was"] = {"start": self.was[0], "end": self.was[1], "type": self.was[2]}
        return out


def _action(new: Span, olds: list[Span]) -> str:
    """What became of ``olds`` (the removed spans ``new`` overlaps) in ``new``."""
    if len(olds) > 1:
        return "merged"
    old = olds[0]
    if (old.start, old.end) == (new.start, new.end):
        return "retyped"
    if new.start <= old.start and old.end <= new.end:
        return "widened" if old.subtype == new.subtype else "merged"
    if old.start <= new.start and new.end <= old.end:
        return "narrowed"
    return "moved"


class Trace:
    """The history of every span of one note, and the spans dropped on the way.

    ``spans`` are the spans a first step (``step``) found, with ``reason``.
    """

    def __init__(self, spans: Iterable[Span] = (), step: str = "crf", reason: str = ""):
        self.history: dict[Span, list[Step]] = {sp: [Step(step, "found", reason)] for sp in spans}
        self.dropped: list[tuple[Span, list[Step]]] = []

    def of(self, sp: Span) -> list[Step]:
        """The steps that made ``sp`` (empty when no step recorded it)."""
        return self.history.get(sp, [])

    def record(self, step: str, before: list[Span], after: list[Span], reasons: Mapping[str, str] | None = None,
               why: Callable[[Span], str | None] | None = None) -> None:
        """What ``step`` changed, from the spans ``before`` it and ``after`` it.

        ``reasons`` gives a fixed reason per action (``{"dropped": "an age under 90"}``);
        ``why(span)`` a reason for one span (found or dropped), when the step knows one.
        """
        reasons = reasons or {}
        kept = set(after) & set(before)
        if len(kept) == len(before) == len(after):
            return
        removed = [sp for sp in before if sp not in kept]
        used: set[Span] = set()
        for new in after:
            if new in kept:
                continue
            olds = [old for old in removed if old.overlaps(new)]
            if not olds:
                self.history[new] = [Step(step, "found", _reason(why, new) or reasons.get("found", ""))]
                continue
            used.update(olds)
            action = _action(new, olds)
            past = self.history.get(olds[0], [])
            self.history[new] = [*past, Step(step, action, reasons.get(action, ""),
                                             (olds[0].start, olds[0].end, olds[0].subtype))]
        for old in removed:
            if old in used:
                continue
            into = next((sp for sp in after if sp.overlaps(old)), None)
            if into is not None:  # joined a span this step left as it was
                was = (old.start, old.end, old.subtype)
                self.history[into] = [*self.history.get(into, []), Step(step, "merged", reasons.get("merged", ""), was)]
                continue
            self.dropped.append((old, [*self.history.get(old, []),
                                       Step(step, "dropped", _reason(why, old) or reasons.get("dropped", ""))]))

    def report(self, spans: Iterable[Span]) -> dict:
        """``{"spans": [...], "dropped": [...]}``: for each of ``spans`` (the note's final spans, in
        order) its steps, and each dropped span with its offsets, type and steps (JSON data)."""
        return {"spans": [[s.as_dict() for s in self.of(sp)] for sp in spans],
                "dropped": [{"start": sp.start, "end": sp.end, "type": sp.subtype, "category": sp.category,
                             "steps": [s.as_dict() for s in steps]} for sp, steps in self.dropped]}


def _reason(why, sp: Span) -> str | None:
    return None if why is None else why(sp)
