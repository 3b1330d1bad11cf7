"""Reviewers simulated from a gold standard, through the review store: for examples and tests
of the audit only (a real audit is reviewed by people, in the review app).

A simulated reviewer opens each note given to them (the model's suggestions are copied to
them, as in the app), deletes the suggestions that overlap no gold span (false positives),
and for each gold span replaces the suggestions overlapping it by the gold span, unless they
overlook it: a gold span the model did not fully cover is overlooked with probability
``miss`` (then the overlapping suggestions stay as they are). Gold spans the model covered
are never overlooked (the reviewer keeps what the model shows). Then they mark the note done.
Single-review notes go to the reviewers in turn; double-review notes to the first two.
"""

from __future__ import annotations

import random
from pathlib import Path

from ..document import make_span
from ..io import read
from ..review.project import Project
from ..review.store import Conflict
from . import canary
from .diligence import SIMULATED
from .findings import FOUND, covered, status_of
from .sample import DOUBLE, load


def _merged(spans) -> list[list]:
    out: list[list] = []
    for sp in sorted(spans, key=lambda s: (s.start, s.end)):
        if out and sp.start < out[-1][1]:
            out[-1][1] = max(out[-1][1], sp.end)
        else:
            out.append([sp.start, sp.end, sp.subtype])
    return out


def review_note(store, nid: int, who: str, gold, model_spans, miss: float, rng: random.Random) -> int:
    """One simulated review of note ``nid`` by ``who``; returns how many gold spans they overlooked."""
    text = store.note(nid)["body"]
    mask = covered(text, model_spans)
    store.open(nid, who)
    overlooked = 0
    seen = []
    for s, e, sub in _merged(gold):
        if status_of(text, s, e, mask) != FOUND and rng.random() < miss:
            overlooked += 1
        else:
            seen.append((s, e, sub))
    mine = store.spans(nid, who)
    for sp in mine:
        hits_gold = any(sp["start"] < e and sp["end"] > s for s, e, _ in gold_extents(gold))
        hits_seen = any(sp["start"] < e and sp["end"] > s for s, e, _ in seen)
        if not hits_gold or hits_seen:
            store.update_span(sp["id"], who, status="deleted")
    for s, e, sub in seen:
        try:
            store.add_span(nid, who, s, e, sub)
        except Conflict:  # a kept suggestion overlaps it (a gold span it joins): the kept one stands
            pass
    store.finish(nid, who)
    return overlooked


def gold_extents(gold):
    return [(sp.start, sp.end, sp.subtype) for sp in gold]


def run(folder, gold_specs, reviewers, miss: float = 0.0, seed: int = 0) -> dict:
    """Review every note of the audit in ``folder`` with ``reviewers`` simulated from the gold
    standard ``gold_specs``; returns counts (notes reviewed, gold spans overlooked) per reviewer."""
    if not reviewers:
        raise ValueError("name at least one reviewer")
    manifest = load(folder)
    model = {n["doc_id"]: n["model_spans"] for n in manifest["notes"]}
    gold = {}
    for spec in gold_specs:
        for doc in read(spec):
            if doc.doc_id in model:
                gold[doc.doc_id] = doc.spans
    missing = sorted(set(model) - set(gold))
    if missing:
        raise ValueError(f"{len(missing)} sampled note(s) have no gold standard (first: {missing[0]!r})")
    for c in manifest.get("canaries", []):  # a simulated reviewer sees a canary as any identifier
        d = c["doc_id"]
        gold[d] = [make_span(a, b, t) for a, b, t in canary.to_store([(x.start, x.end, x.subtype) for x in gold[d]], c)]
        gold[d].append(make_span(c["start"], c["end"], c["subtype"]))
        model[d] = [list(x) for x in canary.to_store(model[d], c)]
    counts = {r: {"notes": 0, "overlooked": 0} for r in reviewers}
    turn = 0
    for part in manifest["sample"]["projects"]:
        project = Project.open(Path(folder) / part)
        try:
            store = project.store
            store.signed_in(SIMULATED)  # so the report lists them as played, never as people
            for row in store.notes():
                doc_id = row["doc_id"]
                if part == DOUBLE:
                    who = list(reviewers[:2])
                else:
                    who = [reviewers[turn % len(reviewers)]]
                    turn += 1
                for name in who:
                    store.ensure_annotator(name)
                    rng = random.Random(f"{seed}/{name}/{doc_id}")
                    counts[name]["notes"] += 1
                    counts[name]["overlooked"] += review_note(store, row["id"], name, gold[doc_id],
                                                              model[doc_id], miss, rng)
        finally:
            project.close()
    return counts
