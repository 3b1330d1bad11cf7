"""How each reviewer reviewed, from the stores' event logs: time and decisions per note, notes
finished faster than anyone reads them, suggestions undecided at done (an audit's project leaves
them undecided: :meth:`crfdeid.review.store.Store.finish`), notes reopened or edited after done.

A report that says "0 leaks" is worth what the reviewing behind it is worth: reviewers who open
and finish every note without a look give the same figures as careful ones. A note's reading
time is the time it was *shown* to the reviewer: from an event on it (``open``, ``shown``, a
decision) to the reviewer's next event on any note, a ``hidden`` (the page left the screen) or
its ``done``. A person reads one note at a time, so opening every note at once and finishing
them later gives the time to the last one opened only. Fluent adult readers read about 4 words
a second (Brysbaert 2019, J Mem Lang 109:104047, 238 words a minute for silent reading of
non-fiction), so a note done in under one second per :data:`TOKENS_PER_SECOND` tokens was not
read. A reviewer fails the audit (the report warns and is not signed) when more than
:data:`MAX_UNREAD` of their notes were done that fast, when they made no decision at all, when
they changed a review after its note was done without reopening it, and when they are simulated
(``audit simulate``, signed in as ``simulated``): a simulation is not a review.
"""

from __future__ import annotations

import heapq
import json
import statistics
from datetime import datetime
from pathlib import Path

from ..review.ledger import REVIEW_CHANGES
from ..review.project import Project

#: Tokens a second beyond which a note was not read (twice a fast reader's words a second,
#: a token being about a word).
TOKENS_PER_SECOND = 10.0
#: Share of a reviewer's notes done unread beyond which the reviewer fails.
MAX_UNREAD = 0.2
SIMULATED = "simulated"
_DECISIONS = frozenset({"add_span", "update_span", "delete_span", "accept_all"})
#: The events that tell when a note was shown to a person.
_WATCHED = REVIEW_CHANGES | {"open", "shown", "hidden"}


def _at(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def _events(folder, manifest: dict):
    """The people's events of every project, in time order, and ``{(part, note id): doc id}``."""
    out, doc = [], {}
    for part in sorted(manifest["sample"]["projects"]):
        project = Project.open(Path(folder) / part)
        try:
            store = project.store
            humans = {a["name"] for a in store.annotators() if a["kind"] == "human"}
            doc.update({(part, r["id"]): r["doc_id"] for r in store.notes()})
            out.append([(_at(e["at"]), part, e) for e in store.db.query(
                "SELECT id, at, who, action, note_id, detail FROM audit ORDER BY id")
                if e["who"] in humans and e["note_id"] is not None and e["action"] in _WATCHED])
        finally:
            project.close()
    # each project's log in its own order, the projects interleaved by time
    return [(part, e) for _, part, e in heapq.merge(*out, key=lambda x: x[0])], doc


def reviewing(folder, manifest: dict) -> dict:
    """``{"by_reviewer": {name: {...}}, "reopened_after_done": [{"doc_id", "part", "reviewer"}],
    "edited_after_done": [...], "failed": [name], "reasons": {name: [reason]}}`` (see the module
    docstring)."""
    tokens = {n["doc_id"]: n["tokens"] for n in manifest["notes"]}
    per: dict[str, dict] = {}
    reopened: list[dict] = []
    edited: list[dict] = []
    events, doc = _events(folder, manifest)
    shown: dict = {}     # who -> (note key, since)
    read: dict = {}      # (part, note id, who) -> seconds shown
    decisions: dict = {}
    done: set = set()
    for part, e in events:
        who, nid, action, t = e["who"], e["note_id"], e["action"], _at(e["at"])
        key = (part, nid, who)
        row = per.setdefault(who, {"notes": 0, "seconds": [], "decisions": 0, "unread": 0, "undecided_at_done": 0,
                                   "reopened_after_done": 0, "edited_after_done": 0, "signed_in": set()})
        detail = json.loads(e["detail"]) if e["detail"] else {}
        row["signed_in"].add(detail.get("auth") or "none")
        was = shown.get(who)
        if was is not None:
            read[was[0]] = read.get(was[0], 0.0) + max(0.0, t - was[1])
        shown[who] = None if action in ("hidden", "done", "release") else (key, t)
        if action in _DECISIONS:
            decisions[key] = decisions.get(key, 0) + 1
            if key in done:
                row["edited_after_done"] += 1
                edited.append({"doc_id": doc.get((part, nid)), "part": part, "reviewer": who, "action": action})
        elif action == "reopen" and key in done:
            done.discard(key)
            row["reopened_after_done"] += 1
            reopened.append({"doc_id": doc.get((part, nid)), "part": part, "reviewer": who})
        elif action == "done":
            done.add(key)
            seconds = read.pop(key, 0.0)
            row["notes"] += 1
            row["seconds"].append(seconds)
            row["decisions"] += decisions.pop(key, 0)
            row["undecided_at_done"] += int(detail.get("left_undecided") or detail.get("accepted_undecided") or 0)
            row["unread"] += seconds * TOKENS_PER_SECOND < tokens.get(doc.get((part, nid)), 0)
    by_reviewer, reasons = {}, {}
    for who, row in sorted(per.items()):
        how = sorted(row.pop("signed_in"))
        secs = row.pop("seconds")
        n = row["notes"]
        out = {**row, "signed_in": how, "median_seconds": round(statistics.median(secs), 1) if secs else None,
               "decisions_per_note": round(row["decisions"] / n, 2) if n else None}
        by_reviewer[who] = out
        why = [r for r, bad in (("simulated", SIMULATED in how), ("unread", n and row["unread"] > MAX_UNREAD * n),
                                ("no_decision", n and not row["decisions"]),
                                ("edited_after_done", row["edited_after_done"])) if bad]
        if why:
            reasons[who] = why
    return {"by_reviewer": by_reviewer, "reopened_after_done": reopened, "edited_after_done": edited,
            "failed": sorted(reasons), "reasons": reasons, "tokens_per_second": TOKENS_PER_SECOND,
            "max_unread": MAX_UNREAD}


def warnings(result: dict) -> list[str]:
    """The report's warnings about the reviewing (names and counts, no text)."""
    out = []
    for who in result["failed"]:
        r, why = result["by_reviewer"][who], result["reasons"][who]
        if "simulated" in why:
            out.append(f"{who} is a simulated reviewer (audit simulate): a simulation is not a review; the audit "
                       "fails")
        if "unread" in why:
            out.append(f"{who} finished {r['unread']} of {r['notes']} notes faster than {TOKENS_PER_SECOND:g} tokens "
                       f"a second while shown (median {r['median_seconds']} s a note, {r['decisions_per_note']} "
                       "decisions a note): notes not read were not reviewed; the audit fails until they are "
                       "reviewed again")
        if "no_decision" in why:
            out.append(f"{who} made no decision in {r['notes']} notes: a review with no decision is no review; the "
                       "audit fails")
        if "edited_after_done" in why:
            out.append(f"{who} changed {r['edited_after_done']} review(s) after the note was done, without reopening "
                       "it; the audit fails")
    if result["reopened_after_done"]:
        names = ", ".join(f"{r['doc_id']} ({r['reviewer']})" for r in result["reopened_after_done"])
        out.append(f"{len(result['reopened_after_done'])} review(s) reopened after done: {names}")
    return out
