"""What the reviewers found that the model missed, note by note (offsets and counts only).

A reviewer's spans, once they marked the note done, are the identifiers as they saw them:
the model's suggestions they kept (changed or not) and the spans they added; suggestions
they deleted were not identifiers. The reviewers of a note are pooled: spans that overlap
are one identifier (their union). An identifier is *found* when the model's spans (of any
type) cover each of its letters and digits, *partial* when they cover some, *missed* when
none (:mod:`crfdeid.scoring.leak` counts characters the same way). Its tokens are the
tokenizer's tokens it overlaps; a *leaked* token holds a letter or digit the model left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..review.project import Project
from ..text.tokenize import token_offsets
from . import canary
from .sample import DOUBLE

FOUND, PARTIAL, MISSED = "found", "partial", "missed"


@dataclass
class Identifier:
    """One identifier of a reviewed note, as the reviewers marked it."""

    start: int
    end: int
    subtype: str
    status: str = FOUND
    tokens: int = 0
    leaked_tokens: int = 0
    #: reviewer -> whether their own span(s) of it showed what the model left
    seen_by: dict = field(default_factory=dict)


@dataclass
class NoteFindings:
    """A reviewed note of the sample."""

    doc_id: str
    part: str
    stratum: list
    tokens: int
    reviewers: list
    identifiers: list

    @property
    def residual(self) -> list:
        return [i for i in self.identifiers if i.status != FOUND]


def covered(text: str, spans) -> list[bool]:
    """Per character of ``text``: whether one of ``spans`` (``(start, end, ...)``) covers it."""
    mask = [False] * len(text)
    for s, e, *_ in spans:
        for k in range(max(0, s), min(len(text), e)):
            mask[k] = True
    return mask


def status_of(text: str, start: int, end: int, mask) -> str:
    """``found``, ``partial`` or ``missed``: how much of ``text[start:end]``'s letters and
    digits the model covered.

    >>> t = "Seen by John Smith."
    >>> m = covered(t, [(8, 12)])
    >>> status_of(t, 8, 12, m), status_of(t, 8, 18, m), status_of(t, 13, 18, m)
    ('found', 'partial', 'missed')
    """
    alnum = [k for k in range(start, end) if text[k].isalnum()] or list(range(start, end))
    hit = sum(mask[k] for k in alnum)
    return FOUND if hit == len(alnum) else PARTIAL if hit else MISSED


def pool(text: str, model_spans, reviewer_spans: dict) -> list[Identifier]:
    """The identifiers of a note: the reviewers' spans (``{reviewer: [(start, end, subtype)]}``)
    joined where they overlap, each with its status against ``model_spans``."""
    mask = covered(text, model_spans)
    items = sorted((s, e, sub, who) for who, spans in reviewer_spans.items() for s, e, sub in spans)
    groups: list[list] = []
    for s, e, sub, who in items:
        if groups and s < max(x[1] for x in groups[-1]):
            groups[-1].append((s, e, sub, who))
        else:
            groups.append([(s, e, sub, who)])
    toks = token_offsets(text)
    out = []
    for g in groups:
        start, end = min(x[0] for x in g), max(x[1] for x in g)
        # the type of the longest span, the first reviewer's on a tie
        sub = sorted(g, key=lambda x: (-(x[1] - x[0]), x[3]))[0][2]
        ident = Identifier(start, end, sub, status_of(text, start, end, mask))
        for s, e, _, who in g:
            ident.seen_by[who] = ident.seen_by.get(who, False) or status_of(text, s, e, mask) != FOUND
        for ts, te in toks:
            if ts < end and te > start:
                ident.tokens += 1
                lo, hi = max(ts, start), min(te, end)
                if any(text[k].isalnum() and not mask[k] for k in range(lo, hi)):
                    ident.leaked_tokens += 1
        out.append(ident)
    return out


def collect(folder, manifest: dict) -> tuple[list[NoteFindings], dict]:
    """The reviewed notes of the audit (finished by at least one person) and, per part,
    ``{"sampled": n, "reviewed": n, "by_reviewer": {name: notes}, "canaries": {name: {"planted",
    "caught"}}}``; a note's canary (:mod:`crfdeid.audit.canary`) is counted there and left out
    of its findings."""
    notes = {n["doc_id"]: n for n in manifest["notes"]}
    birds = {c["doc_id"]: c for c in manifest.get("canaries", [])}
    found: list[NoteFindings] = []
    progress: dict = {}
    for part in manifest["sample"]["projects"]:
        project = Project.open(Path(folder) / part)
        try:
            store = project.store
            # drawn: as the manifest says (a note missing from the store is not reviewed, and
            # `audit verify` names it), never as the store happens to hold
            stats: dict = {"sampled": sum(n["part"] == part for n in manifest["notes"]), "reviewed": 0,
                           "reviewed_twice": 0, "by_reviewer": {}, "canaries": {}}
            for row in store.notes():
                info = notes.get(row["doc_id"])
                if info is None or info["part"] != part:
                    continue
                who = store.done_by(row["id"])
                if not who:
                    continue
                stats["reviewed"] += 1
                stats["reviewed_twice"] += len(who) >= 2
                for name in who:
                    stats["by_reviewer"][name] = stats["by_reviewer"].get(name, 0) + 1
                text = store.note(row["id"])["body"]
                spans = {name: [(sp["start"], sp["end"], sp["subtype"]) for sp in store.spans(row["id"], name)]
                         for name in who}
                bird = birds.get(row["doc_id"])
                if bird is not None and bird["part"] == part and canary.in_place(text, bird):
                    for name in who:  # the canary is measured, then taken out of the findings
                        c = stats["canaries"].setdefault(name, {"planted": 0, "caught": 0})
                        c["planted"] += 1
                        c["caught"] += canary.caught(text, spans[name], bird)
                    text = canary.strip(text, bird)
                    spans = {name: canary.from_store(v, bird) for name, v in spans.items()}
                found.append(NoteFindings(row["doc_id"], part, info["stratum"], info["tokens"], who,
                                          pool(text, info["model_spans"], spans)))
            progress[part] = stats
        finally:
            project.close()
    return sorted(found, key=lambda f: f.doc_id), progress


def recapture_counts(found) -> dict:
    """The two reviews of the double-review notes reviewed twice: identifiers the model left
    that the first reviewer (by name) showed, that the second showed, and that both did."""
    first = second = both = notes = 0
    for f in found:
        if f.part != DOUBLE or len(f.reviewers) < 2:
            continue
        notes += 1
        a, b = f.reviewers[:2]
        for ident in f.residual:
            sa, sb = ident.seen_by.get(a, False), ident.seen_by.get(b, False)
            first += sa
            second += sb
            both += sa and sb
    return {"notes": notes, "first": first, "second": second, "both": both}
