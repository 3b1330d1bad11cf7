"""How each reviewer reviewed, from the stores' event logs: time and decisions per note, notes
finished faster than anyone reads them, suggestions undecided at done (an audit's project leaves
them undecided: :meth:`crfdeid.review.store.Store.finish`), notes reopened after done.

A report that says "0 leaks" is worth what the reviewing behind it is worth: reviewers who open
and finish every note without a look give the same figures as careful ones. The evidence this
rests on is the time between a person's first event on a note (its opening) and their ``done``
(:mod:`crfdeid.review.ledger` records both, with the writer's sign-in): fluent adult readers
read about 4 words a second (Brysbaert 2019, J Mem Lang 109:104047, 238 words a minute for
silent reading of non-fiction), so a note done in under one second per :data:`TOKENS_PER_SECOND`
tokens was not read. A reviewer with more than :data:`MAX_UNREAD` of their notes done that fast
fails the audit (the report warns and is not signed). Simulated reviewers (``audit simulate``,
signed in as ``simulated``) are listed and not judged.
"""

from __future__ import annotations

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


def _at(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def reviewing(folder, manifest: dict) -> dict:
    """``{"by_reviewer": {name: {...}}, "reopened_after_done": [{"doc_id", "part", "reviewer"}],
    "failed": [name]}`` (see the module docstring)."""
    tokens = {n["doc_id"]: n["tokens"] for n in manifest["notes"]}
    per: dict[str, dict] = {}
    reopened: list[dict] = []
    for part in sorted(manifest["sample"]["projects"]):
        project = Project.open(Path(folder) / part)
        try:
            store = project.store
            humans = {a["name"] for a in store.annotators() if a["kind"] == "human"}
            doc = {r["id"]: r["doc_id"] for r in store.notes()}
            first: dict = {}
            decisions: dict = {}
            done: set = set()
            for e in store.db.query("SELECT at, who, action, note_id, detail FROM audit ORDER BY id"):
                who, nid, action = e["who"], e["note_id"], e["action"]
                if who not in humans or nid is None or (action not in REVIEW_CHANGES and action != "open"):
                    continue
                row = per.setdefault(who, {"notes": 0, "seconds": [], "decisions": 0, "unread": 0,
                                           "undecided_at_done": 0, "reopened_after_done": 0, "signed_in": set()})
                detail = json.loads(e["detail"]) if e["detail"] else {}
                row["signed_in"].add(detail.get("auth") or "none")
                key = (nid, who)
                first.setdefault(key, _at(e["at"]))
                if action in _DECISIONS:
                    decisions[key] = decisions.get(key, 0) + 1
                elif action == "reopen" and key in done:
                    row["reopened_after_done"] += 1
                    reopened.append({"doc_id": doc.get(nid), "part": part, "reviewer": who})
                elif action == "done":
                    done.add(key)
                    seconds = _at(e["at"]) - first[key]
                    row["notes"] += 1
                    row["seconds"].append(seconds)
                    row["decisions"] += decisions.pop(key, 0)
                    row["undecided_at_done"] += int(detail.get("left_undecided") or detail.get("accepted_undecided")
                                                    or 0)
                    row["unread"] += seconds * TOKENS_PER_SECOND < tokens.get(doc.get(nid), 0)
                    first.pop(key)
        finally:
            project.close()
    by_reviewer, failed = {}, []
    for who, row in sorted(per.items()):
        how = sorted(row.pop("signed_in"))
        secs = row.pop("seconds")
        n = row["notes"]
        out = {**row, "signed_in": how, "median_seconds": round(statistics.median(secs), 1) if secs else None,
               "decisions_per_note": round(row["decisions"] / n, 2) if n else None}
        by_reviewer[who] = out
        if how != [SIMULATED] and n and row["unread"] > MAX_UNREAD * n:
            failed.append(who)
    return {"by_reviewer": by_reviewer, "reopened_after_done": reopened, "failed": failed,
            "tokens_per_second": TOKENS_PER_SECOND, "max_unread": MAX_UNREAD}


def warnings(result: dict) -> list[str]:
    """The report's warnings about the reviewing (names and counts, no text)."""
    out = []
    for who in result["failed"]:
        r = result["by_reviewer"][who]
        out.append(f"{who} finished {r['unread']} of {r['notes']} notes faster than {TOKENS_PER_SECOND:g} tokens a "
                   f"second (median {r['median_seconds']} s a note, {r['decisions_per_note']} decisions a note): "
                   "notes not read were not reviewed; the audit fails until they are reviewed again")
    if result["reopened_after_done"]:
        names = ", ".join(f"{r['doc_id']} ({r['reviewer']})" for r in result["reopened_after_done"])
        out.append(f"{len(result['reopened_after_done'])} review(s) reopened after done: {names}")
    return out
