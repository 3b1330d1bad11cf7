"""Aggregate mode (Douglass 2005, section 2.3): several annotators and the model on one note.

The spans of the chosen voters are grouped into items: runs of spans that overlap each
other. Each voter's selection in an item is the extent it covers and the types it gave
there. As in the thesis, the item's agreement is ``all`` when every counted voter made the
same selection, ``majority`` when more than half did, else ``minority``; a selection that
differs only in type is a disagreement (``differs`` says whether extents, types or both
differ). The suggestion is checked (PHI) when at least half of the counted voters selected
anything there (a tie is PHI: recall first), with the majority's extent and type; a type
tie suggests no type, so the adjudicator must choose one. The
model's spans may be shown beside the people's, but the model never counts: it is a
suggestion, not an annotator, and cannot outvote a person's correction. The adjudicator
confirms or rejects each item (a decision, with who and when); the confirmed spans of a
finished note are its consensus. A note whose finishers disagree and that is not
adjudicated is *in conflict* (:func:`conflicts`): it has no final annotation until an
adjudicator settles it. Annotators are then scored against the consensus (their table
4.1): an annotator finds a consensus span when one of its spans overlaps it (credit once
per instance, partial extents count), and a span of the annotator is a false positive when
it overlaps no consensus span.

>>> [it["agreement"] for it in build_items({"a": [(0, 5, "DOCTOR")], "b": [(0, 5, "DOCTOR")],
...                                         "c": [(0, 3, "DOCTOR"), (9, 12, "DATE")]})]
['majority', 'minority']
>>> it, = build_items({"a": [(0, 5, "CITY")], "b": [(0, 5, "HOSPITAL")], "model": [(0, 5, "CITY")]},
...                   counted=["a", "b"])
>>> it["agreement"], it["differs"], it["suggest"]["subtype"]
('minority', ['type'], None)
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

from .. import schema as phi_schema
from ..document import Span
from .store import ADJUDICATION, MODEL, Conflict, Forbidden, Invalid, NotFound, Store, now, to_spans


def build_items(selections: dict, counted=None) -> list[dict]:
    """Items of ``{voter: [(start, end, subtype), ...]}`` (see the module docstring).

    ``counted``: the voters whose selections count (default: all); the others are shown only.
    """
    voters = list(selections)
    counting = [v for v in voters if counted is None or v in counted]
    marks = sorted((s, e, sub, v) for v, spans in selections.items() for s, e, sub in spans)
    groups: list[list] = []
    for m in marks:
        if groups and m[0] < max(x[1] for x in groups[-1]):
            groups[-1].append(m)
        else:
            groups.append([m])
    items = []
    half = len(counting) / 2
    for g in groups:
        by_voter = {v: [(s, e, sub) for s, e, sub, w in g if w == v] for v in voters}
        picks = {v: (min(s for s, _, _ in sp), max(e for _, e, _ in sp), tuple(sorted({x[2] for x in sp})))
                 for v, sp in by_voter.items() if sp and v in counting}
        start, end = min(x[0] for x in g), max(x[1] for x in g)
        best, n_best = Counter(picks.values()).most_common(1)[0] if picks else ((start, end, ()), 0)
        extents = Counter(p[:2] for p in picks.values())
        ext, n_ext = extents.most_common(1)[0] if extents else ((start, end), 0)
        agreement = "all" if n_best == len(counting) and counting else "majority" if n_best > half else "minority"
        differs = [what for what, n in (("extent", len(extents)), ("type", len({p[2] for p in picks.values()})))
                   if n > 1]
        agreed = n_ext > half
        if not agreed:
            ext = (start, end)
        types = Counter(sub for v, p in picks.items() if not agreed or p[:2] == ext for sub in p[2])
        ranked = types.most_common(2)
        subtype = ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) else None
        items.append({"item_start": start, "item_end": end, "agreement": agreement, "differs": differs,
                      "selected": len(picks), "voters": len(counting),
                      # a tie suggests PHI: recall first, and the adjudicator sees the disagreement
                      "suggest": {"phi": bool(picks) and len(picks) >= half, "start": ext[0], "end": ext[1],
                                  "subtype": subtype, "extent_agreed": agreed},
                      "by_voter": {v: [list(x) for x in sp] for v, sp in by_voter.items()}})
    return items


def default_voters(store: Store, note_id: int) -> list[str]:
    """The people who finished the note, plus the model (shown, never counted)."""
    return store.done_by(note_id) + [MODEL]


def reviewers(store: Store, note_id: int) -> list[str]:
    """The people who opened the note for review (finished or not)."""
    rows = store.db.query("SELECT r.annotator FROM reviews r JOIN annotators a ON a.name = r.annotator "
                          "WHERE r.note_id = ? AND a.kind = 'human' ORDER BY r.annotator", (note_id,))
    return [r["annotator"] for r in rows]


def check_adjudicator(store: Store, note_id: int, who: str | None) -> None:
    """:class:`Forbidden` when ``who`` reviewed the note: no one adjudicates their own work, and a
    reviewer does not see the others' spans (blind double review)."""
    if who and who in reviewers(store, note_id):
        raise Forbidden(f"{who} reviewed note {note_id}: another person adjudicates it")


def _selections(store: Store, note_id: int, voters, blind: bool = True) -> dict:
    out = {}
    done = set(store.done_by(note_id)) if blind else set(voters)
    for v in voters:
        kind = store.kind_of(v)
        if kind is None:
            raise NotFound(f"no annotator {v!r}")
        if kind == "human" and v not in done:  # blind: a review is seen only once it is finished
            raise Forbidden(f"{v} has not finished note {note_id}: their spans are not shown before")
        out[v] = [(sp["start"], sp["end"], sp["subtype"]) for sp in store.spans(note_id, v)]
    return out


def aggregate(store: Store, note_id: int, voters=None, viewer: str | None = None) -> dict:
    """The items of a note with the stored decisions, and whether it is adjudicated.

    ``counted`` names the voters whose selections count (every voter but the model); a human
    voter must have finished the note, and ``viewer`` must not have reviewed it
    (:class:`~crfdeid.review.store.Forbidden`). ``version`` is the adjudication's version, to
    send back with each decision.
    """
    check_adjudicator(store, note_id, viewer)
    version = store.version(note_id, ADJUDICATION)  # read first: a change after it makes the page stale
    adj = store.db.one("SELECT adjudicator, voters, done_at FROM adjudications WHERE note_id = ?", (note_id,))
    recorded = voters is None and adj is not None  # the voters of a finished adjudication, as they were
    if voters is None:
        voters = json.loads(adj["voters"]) if adj else default_voters(store, note_id)
    counted = [v for v in voters if store.kind_of(v) != "model"]
    items = build_items(_selections(store, note_id, voters, blind=not recorded), counted)
    decided = {(d["item_start"], d["item_end"]): d for d in decisions(store, note_id)}
    for it in items:
        it["decision"] = decided.pop((it["item_start"], it["item_end"]), None)
    # Decisions on spans no voter marked (added by the adjudicator) are items of their own.
    for (s, e), d in sorted(decided.items()):
        items.append({"item_start": s, "item_end": e, "agreement": "minority", "differs": [], "selected": 0,
                      "voters": len(counted), "suggest": {"phi": True, "start": d["start"], "end": d["end"],
                                                          "subtype": d["subtype"], "extent_agreed": False},
                      "by_voter": {v: [] for v in voters}, "decision": d, "added": True})
    items.sort(key=lambda it: (it["item_start"], it["item_end"]))
    imported = [a["name"] for a in store.annotators() if a["kind"] == "import" and store.spans(note_id, a["name"])]
    return {"note_id": note_id, "version": version, "voters": list(voters), "counted": counted, "items": items,
            "candidates": list(dict.fromkeys(default_voters(store, note_id) + imported + list(voters))),
            "conflict": in_conflict(store, note_id),
            "adjudicated": dict(adj, voters=json.loads(adj["voters"])) if adj else None}


def decisions(store: Store, note_id: int) -> list[dict]:
    rows = store.db.query("SELECT * FROM decisions WHERE note_id = ? ORDER BY item_start, item_end", (note_id,))
    return [{"item_start": r["item_start"], "item_end": r["item_end"], "verdict": r["verdict"],
             "start": r["span_start"], "end": r["span_end"], "subtype": r["subtype"],
             "adjudicator": r["adjudicator"], "decided_at": r["decided_at"]} for r in rows]


def decide(store: Store, note_id: int, adjudicator: str, item_start: int, item_end: int, verdict: str,
           start: int | None = None, end: int | None = None, subtype: str | None = None,
           version: int | None = None) -> dict:
    """Record (or replace) the adjudicator's decision on one item.

    Refused when the adjudicator reviewed the note, when it is adjudicated already (its
    decisions are final: :func:`reopen` first), and when ``version`` (the adjudication's version
    the page saw, :func:`aggregate`) is stale.
    """
    check_adjudicator(store, note_id, adjudicator)
    if verdict not in ("phi", "not_phi"):
        raise Invalid("verdict must be phi or not_phi")
    text = store.note(note_id)["body"]
    start = item_start if start is None else int(start)
    end = item_end if end is None else int(end)
    if not 0 <= start < end <= len(text) or not 0 <= item_start < item_end <= len(text):
        raise Invalid(f"span [{start}, {end}) is empty or outside the note (length {len(text)})")
    if verdict == "phi" and not subtype:
        raise Invalid("a PHI decision needs a type (the voters disagree on it)")
    subtype = (subtype or "OTHER").upper()
    if subtype not in phi_schema.SUBTYPE_TO_PARENT:
        raise Invalid(f"unknown PHI type {subtype!r}")
    with store.db.write() as run:
        _check_open(run, note_id)
        store.bump(run, note_id, ADJUDICATION, version)
        run("INSERT INTO decisions (note_id, item_start, item_end, verdict, span_start, span_end, subtype, "
            "adjudicator, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (note_id, item_start, item_end) "
            "DO UPDATE SET verdict = excluded.verdict, span_start = excluded.span_start, span_end = excluded.span_end, "
            "subtype = excluded.subtype, adjudicator = excluded.adjudicator, decided_at = excluded.decided_at",
            (note_id, item_start, item_end, verdict, start, end, subtype, adjudicator, now()))
        store.audit(run, adjudicator, "decide", note_id, item=[item_start, item_end], verdict=verdict,
                    span=[start, end, subtype])
    return {"item_start": item_start, "item_end": item_end, "verdict": verdict, "start": start, "end": end,
            "subtype": subtype, "adjudicator": adjudicator}


def _check_open(run, note_id: int) -> None:
    if run("SELECT 1 AS x FROM adjudications WHERE note_id = ?", (note_id,)):
        raise Conflict(f"note {note_id} is adjudicated already: reopen its adjudication to change it")


def finish(store: Store, note_id: int, adjudicator: str, voters=None, version: int | None = None) -> dict:
    """Close the adjudication of a note.

    Every item must have a decision, the note must have been finished by the project's
    ``per_note`` people, and every one of them must be a voter (nobody's review is left out:
    no voters at all would make the note final with no one's decision).
    """
    check_adjudicator(store, note_id, adjudicator)
    done = store.done_by(note_id)
    need = int(store.setting("per_note", 1) or 1)
    if len(done) < need:
        raise Conflict(f"note {note_id} needs {need} finished reviews before adjudication (it has {len(done)})")
    agg = aggregate(store, note_id, voters)
    left_out = [p for p in done if p not in agg["counted"]]
    if left_out:
        raise Invalid(f"every reviewer who finished note {note_id} must be a voter (left out: "
                      f"{', '.join(left_out)})")
    open_items = [it for it in agg["items"] if it["decision"] is None]
    if open_items:
        raise Conflict(f"{len(open_items)} item(s) of note {note_id} have no decision yet")
    with store.db.write() as run:
        _check_open(run, note_id)
        store.bump(run, note_id, ADJUDICATION, version)
        run("INSERT INTO adjudications (note_id, adjudicator, voters, done_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (note_id) DO UPDATE SET adjudicator = excluded.adjudicator, voters = excluded.voters, "
            "done_at = excluded.done_at", (note_id, adjudicator, json.dumps(agg["voters"]), now()))
        store.audit(run, adjudicator, "adjudicated", note_id, voters=agg["voters"],
                    phi=sum(it["decision"]["verdict"] == "phi" for it in agg["items"]))
    return agg


def reopen(store: Store, note_id: int, adjudicator: str, version: int | None = None) -> None:
    """Open an adjudicated note again (its decisions kept, and changeable until it is finished
    again); recorded in the audit log with the previous adjudicator."""
    check_adjudicator(store, note_id, adjudicator)
    with store.db.write() as run:
        old = run("SELECT adjudicator FROM adjudications WHERE note_id = ?", (note_id,))
        if not old:
            raise Conflict(f"note {note_id} is not adjudicated")
        store.bump(run, note_id, ADJUDICATION, version)
        run("DELETE FROM adjudications WHERE note_id = ?", (note_id,))
        store.audit(run, adjudicator, "reopen_adjudication", note_id, previous=old[0]["adjudicator"])


def consensus(store: Store, note_id: int) -> list[Span] | None:
    """The adjudicated spans of a note, or ``None`` when it is not adjudicated."""
    if not store.db.one("SELECT 1 AS x FROM adjudications WHERE note_id = ?", (note_id,)):
        return None
    return sorted({Span(d["start"], d["end"], phi_schema.parent_of(d["subtype"]), d["subtype"])
                   for d in decisions(store, note_id) if d["verdict"] == "phi"})


def union(span_lists, model=()) -> list[Span]:
    """Overlapping spans of several annotators joined (widest extent, most frequent type).

    On a tie of types, a type the ``model``'s spans there did not suggest wins: it is a
    reviewer's own correction, the other may be a suggestion left as it was.
    """
    suggested = list(model)
    marks = sorted(sp for spans in span_lists for sp in spans)
    out: list[Span] = []
    group: list[Span] = []
    for sp in marks + [None]:
        if sp is not None and group and sp.start < max(g.end for g in group):
            group.append(sp)
            continue
        if group:
            ranked = Counter(g.subtype for g in group).most_common()
            tied = [t for t, n in ranked if n == ranked[0][1]]
            s0, e0 = min(g.start for g in group), max(g.end for g in group)
            machine = {m.subtype for m in suggested if m.start < e0 and s0 < m.end}
            sub = next((t for t in tied if t not in machine), tied[0])
            out.append(Span(min(g.start for g in group), max(g.end for g in group),
                            phi_schema.parent_of(sub), sub))
        group = [sp]
    return out


#: The kinds of :func:`final_spans` that are a note's final annotation.
FINAL = ("consensus", "reviewed")


def _finished_sets(store: Store, note_id: int) -> dict[str, frozenset]:
    return {p: frozenset((sp["start"], sp["end"], sp["subtype"]) for sp in store.spans(note_id, p))
            for p in store.done_by(note_id)}


def in_conflict(store: Store, note_id: int) -> bool:
    """Whether the people who finished the note disagree (extent, type or presence of a span)
    and no adjudicator has settled it."""
    if store.db.one("SELECT 1 AS x FROM adjudications WHERE note_id = ?", (note_id,)):
        return False
    return len(set(_finished_sets(store, note_id).values())) > 1


def conflicts(store: Store) -> list[int]:
    """The notes in conflict (see :func:`in_conflict`), by note id."""
    rows = store.db.query("SELECT r.note_id FROM reviews r JOIN annotators a ON a.name = r.annotator "
                          "WHERE r.state = 'done' AND a.kind = 'human' AND r.note_id NOT IN "
                          "(SELECT note_id FROM adjudications) GROUP BY r.note_id HAVING COUNT(*) > 1 "
                          "ORDER BY r.note_id")
    return [r["note_id"] for r in rows if in_conflict(store, r["note_id"])]


def final_spans(store: Store, note_id: int, conflicts: str = "refuse") -> tuple[str, list[Span]]:
    """``(source, spans)`` of a note: ``("consensus", ...)`` if adjudicated, else
    ``("reviewed", ...)`` when the people who finished it (as many as the project's ``per_note``)
    agree exactly, else
    ``("unreviewed", [])``. Finishers who disagree give ``("conflict", [])``: such a note is
    not final until adjudicated, unless ``conflicts="union"`` (every finisher's spans joined,
    still marked ``"conflict"``: a choice the caller must ask for).
    """
    cons = consensus(store, note_id)
    if cons is not None:
        return "consensus", cons
    sets = _finished_sets(store, note_id)
    if not sets:
        return "unreviewed", []
    if len(set(sets.values())) == 1:
        if len(sets) < int(store.setting("per_note", 1) or 1):  # not final until enough people agree
            return "unreviewed", []
        agreed = next(iter(sets.values()))
        return "reviewed", sorted(Span(s, e, phi_schema.parent_of(sub), sub) for s, e, sub in agreed)
    if conflicts == "union":
        return "conflict", union((to_spans(store.spans(note_id, p)) for p in sets),
                                 to_spans(store.spans(note_id, MODEL)))
    return "conflict", []


def provisional_spans(store: Store, note_id: int) -> list[Span]:
    """The spans of a note that is not final yet: the model's suggestions with every reviewer's
    decisions so far (the union of what each reviewer keeps; a suggestion one reviewer deleted
    stays out unless another reviewer accepted it), or the model's alone if no one opened it."""
    people = reviewers(store, note_id)
    if not people:
        return to_spans(store.spans(note_id, MODEL))
    rows = {p: store.spans(note_id, p, include_deleted=True) for p in people}
    deleted = {(r["start"], r["end"]) for rs in rows.values() for r in rs if r["status"] == "deleted"}
    kept = [[r for r in rs if r["status"] == "accepted" or (r["status"] == "suggested"
                                                           and (r["start"], r["end"]) not in deleted)]
            for rs in rows.values()]
    return union((to_spans(k) for k in kept), to_spans(store.spans(note_id, MODEL)))


def _counts(spans, gold) -> tuple[int, int, int, int]:
    """``(found, missed, true_marks, false_marks)`` by overlap."""
    found = sum(any(s.overlaps(g) for s in spans) for g in gold)
    true = sum(any(s.overlaps(g) for g in gold) for s in spans)
    return found, len(gold) - found, true, len(spans) - true


def _rates(found, missed, true, false) -> dict:
    return {"sensitivity": round(found / (found + missed), 4) if found + missed else None,
            "ppv": round(true / (true + false), 4) if true + false else None,
            "found": found, "missed": missed, "false_positives": false}


def scores(store: Store, max_team: int = 3) -> dict:
    """Each annotator (and teams of 2..``max_team`` people, as unions) against the consensus.

    Returns ``{"notes": n, "annotators": {name: rates}, "teams": {k: {"members": [...],
    "min"/"max"/"mean": {sensitivity, ppv}}}}`` over the adjudicated notes; a person
    or team is scored on the adjudicated notes they all finished.
    """
    notes = [r["note_id"] for r in store.db.query("SELECT note_id FROM adjudications ORDER BY note_id")]
    gold = {n: consensus(store, n) for n in notes}
    done = {n: set(store.done_by(n)) for n in notes}
    people = sorted(set().union(*done.values())) if done else []
    others = [a["name"] for a in store.annotators() if a["kind"] != "human"]

    kinds = {a["name"]: a["kind"] for a in store.annotators()}

    def eligible(n, members) -> bool:
        # people count on the notes they finished, imported spans where there are some
        return all(m in done[n] if kinds[m] == "human" else
                   kinds[m] != "import" or bool(store.spans(n, m, include_deleted=True)) for m in members)

    def team_counts(members):
        tot, n_notes = [0, 0, 0, 0], 0
        for n in notes:
            if eligible(n, members):
                n_notes += 1
                spans = union(to_spans(store.spans(n, m)) for m in members)
                tot = [a + b for a, b in zip(tot, _counts(spans, gold[n]))]
        return n_notes, tot

    out: dict[str, Any] = {"notes": len(notes), "annotators": {}, "teams": {}}
    for name in people + others:
        n_notes, tot = team_counts([name])
        if n_notes:
            out["annotators"][name] = dict(_rates(*tot), notes=n_notes, kind=kinds[name])
    for k in range(2, min(max_team, len(people)) + 1):
        rows = []
        for team in itertools.combinations(people, k):
            n_notes, tot = team_counts(list(team))
            if n_notes:
                rows.append(dict(_rates(*tot), members=list(team), notes=n_notes))
        if rows:
            out["teams"][k] = {"members": rows, **_summary(rows)}
    singles = [v for v in out["annotators"].values() if v["kind"] == "human"]
    if singles:
        out["teams"][1] = {"members": [], **_summary(singles)}
    return out


def _summary(rows) -> dict:
    res: dict[str, dict] = {}
    for stat in ("min", "max", "mean"):
        res[stat] = {}
        for m in ("sensitivity", "ppv"):
            vals = [r[m] for r in rows if r[m] is not None]
            if not vals:
                res[stat][m] = None
                continue
            res[stat][m] = round({"min": min, "max": max}.get(stat, lambda v: sum(v) / len(v))(vals), 4)
    return res


def plot(table: dict, path) -> None:
    """Sensitivity against PPV of each annotator and team (table 4.1 as a picture), as PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=100)
    for name, r in table["annotators"].items():
        if r["sensitivity"] is None or r["ppv"] is None:
            continue
        marker = "s" if r["kind"] != "human" else "o"
        ax.scatter(r["ppv"], r["sensitivity"], marker=marker, s=50, zorder=3)
        ax.annotate(name, (r["ppv"], r["sensitivity"]), textcoords="offset points", xytext=(5, 4), fontsize=8)
    for team in table["teams"].values():
        for r in team["members"]:
            if r["sensitivity"] is not None and r["ppv"] is not None:
                ax.scatter(r["ppv"], r["sensitivity"], marker="^", color="gray", s=30, zorder=2)
                ax.annotate("+".join(r["members"]), (r["ppv"], r["sensitivity"]), textcoords="offset points",
                            xytext=(5, -10), fontsize=7, color="gray")
    ax.set_xlim(-0.02, 1.05)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("PPV (against the adjudicated consensus)")
    ax.set_ylabel("sensitivity")
    ax.set_title(f"Annotators against the consensus ({table['notes']} adjudicated notes)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
