"""The review store and its logic (SQLite always, PostgreSQL when a server is reachable).

Every note here is made up for the test.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from crfdeid.document import Document, make_span
from crfdeid.review import agreement, surrogates
from crfdeid.review.project import Project, export_docs
from crfdeid.review.store import MODEL, Conflict, Invalid, NotFound

TEXT = "Seen by Dr. Ada Quill on 3/4. Call 555-0100 re: Ada Quill."
NAME = make_span(TEXT.index("Ada"), TEXT.index(" on"), "DOCTOR")
DATE = make_span(TEXT.index("3/4"), TEXT.index("3/4") + 3, "DATE")
PHONE = make_span(TEXT.index("555"), TEXT.index(" re"), "PHONE")
CALL = make_span(TEXT.index("Call"), TEXT.index("Call") + 4, "DOCTOR")


@pytest.fixture
def project(tmp_path, review_db):
    p = Project.create(tmp_path / "proj", review_db if review_db.startswith("postgres") else None)
    yield p
    p.close()


def add_note(p, doc_id="501-01", text=TEXT, suggestions=(), priority=1.0):
    nid = p.store.add_note(Document(doc_id, text, [], {"patient": doc_id.split("-")[0]}))
    p.store.set_suggestions(nid, list(suggestions), [0.8] * len(suggestions), 0, priority)
    return nid


def extents(rows):
    return [(r["start"], r["end"], r["subtype"], r["status"]) for r in rows]


def test_decisions_are_saved_at_once_with_who_and_audited_without_text(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME, DATE, CALL])
    store.ensure_annotator("alice")
    store.open(nid, "alice")
    spans = store.spans(nid, "alice")
    assert extents(spans) == [(s.start, s.end, s.subtype, "suggested") for s in (NAME, DATE, CALL)]
    assert all(sp["confidence"] == 0.8 for sp in spans)
    name, _date, call = spans
    store.update_span(call["id"], "alice", status="deleted")
    grown = store.update_span(name["id"], "alice", start=NAME.start - 4)  # "Dr. Ada Quill"
    assert (grown["start"], grown["end"]) == (NAME.start - 4, NAME.end)
    added = store.add_span(nid, "alice", PHONE.start, PHONE.end + 1, "phone")  # trailing space trimmed
    assert (added["start"], added["end"], added["subtype"]) == (PHONE.start, PHONE.end, "PHONE")
    with pytest.raises(Conflict):
        store.add_span(nid, "alice", PHONE.start + 1, PHONE.end, "PHONE")
    assert store.finish(nid, "alice") == 1  # the date was left undecided: kept (recall first)
    assert extents(store.spans(nid, "alice")) == [
        (NAME.start - 4, NAME.end, "DOCTOR", "accepted"), (DATE.start, DATE.end, "DATE", "accepted"),
        (PHONE.start, PHONE.end, "PHONE", "accepted")]
    assert store.review_state(nid, "alice")["state"] == "done"
    log = store.audit_log(nid)
    assert {r["action"] for r in log} >= {"open", "delete_span", "update_span", "add_span", "done", "import_note"}
    assert all(r["who"] in ("alice", "import", MODEL) and r["at"] for r in log)
    logged = json.dumps([{k: v for k, v in r.items() if k != "at"} for r in log])  # a time's digits may hold 555
    assert "Quill" not in logged and "555" not in logged
    # the model's suggestions stay as they were shown (for the estimated recall)
    assert extents(store.spans(nid, MODEL)) == [(s.start, s.end, s.subtype, "suggested") for s in (NAME, DATE, CALL)]


def test_bad_changes_are_refused(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME])
    store.ensure_annotator("alice")
    store.ensure_annotator("bob")
    store.open(nid, "alice")
    with pytest.raises(Invalid):
        store.add_span(nid, "alice", 0, len(TEXT) + 1, "DATE")
    with pytest.raises(Invalid):
        store.add_span(nid, "alice", DATE.start, DATE.end, "BIRTHDAY")
    with pytest.raises(Invalid):
        store.add_span(nid, "alice", 4, 5, "DATE")  # a blank
    with pytest.raises(NotFound):
        store.add_span(999, "alice", 0, 2, "DATE")
    span = store.spans(nid, "alice")[0]
    with pytest.raises(Conflict):
        store.update_span(span["id"], "bob", status="deleted")
    with pytest.raises(Invalid):
        store.ensure_annotator("no spaces please")
    with pytest.raises(Conflict):
        project.store.add_note(Document("501-01", "again"))


def test_queue_puts_open_notes_first_then_the_most_uncertain(project):
    store = project.store
    low = add_note(project, "601-01", priority=0.1)
    high = add_note(project, "602-01", priority=5.0)
    mid = add_note(project, "603-01", priority=1.0)
    store.ensure_annotator("alice")
    store.ensure_annotator("bob")
    assert store.queue("alice") == [high, mid, low]
    store.open(low, "alice")
    assert store.queue("alice") == [low, high, mid]
    store.finish(high, "bob")
    assert store.queue("alice") == [low, mid]        # one person per note by default
    assert store.queue("alice", per_note=2) == [low, high, mid]
    # a note someone opened keeps the suggestions they saw; others get the new model's
    assert not store.set_suggestions(high, [DATE], [0.5], 1, 9.0)
    assert store.set_suggestions(mid, [DATE], [0.5], 1, 9.0)
    assert extents(store.spans(mid, MODEL)) == [(DATE.start, DATE.end, "DATE", "suggested")]


def test_aggregate_adjudication_and_scores_against_the_consensus(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME, DATE, PHONE, CALL])
    for who, keep in (("alice", {NAME, DATE}), ("bob", {NAME, PHONE, CALL})):
        store.ensure_annotator(who)
        store.open(nid, who)
        for sp in store.spans(nid, who):
            if (sp["start"], sp["end"]) not in {(k.start, k.end) for k in keep}:
                store.update_span(sp["id"], who, status="deleted")
        store.finish(nid, who)
    agg = agreement.aggregate(store, nid)
    assert agg["voters"] == ["alice", "bob", MODEL] and agg["counted"] == ["alice", "bob"]
    assert agg["conflict"]  # the finishers disagree and nobody adjudicated yet
    assert agreement.final_spans(store, nid) == ("conflict", [])
    by_start = {it["item_start"]: it for it in agg["items"]}
    assert by_start[NAME.start]["agreement"] == "all"
    # one of two people: a tie, suggested as PHI (recall first); the model never breaks it
    assert by_start[DATE.start]["agreement"] == "minority" and by_start[DATE.start]["suggest"]["phi"]
    assert by_start[CALL.start]["agreement"] == "minority"  # bob; the model's vote does not count
    assert by_start[PHONE.start]["suggest"]["subtype"] == "PHONE"
    with pytest.raises(Conflict):
        agreement.finish(store, nid, "carol")       # no decisions yet
    store.ensure_annotator("carol")
    for it in agg["items"]:
        verdict = "not_phi" if it["item_start"] == CALL.start else "phi"
        agreement.decide(store, nid, "carol", it["item_start"], it["item_end"], verdict,
                         it["suggest"]["start"], it["suggest"]["end"], it["suggest"]["subtype"])
    agreement.finish(store, nid, "carol")
    kind, spans = agreement.final_spans(store, nid)
    assert kind == "consensus" and spans == sorted([NAME, DATE, PHONE])
    table = agreement.scores(store)
    a, b, m = (table["annotators"][k] for k in ("alice", "bob", MODEL))
    assert (a["sensitivity"], a["ppv"]) == (round(2 / 3, 4), 1.0)
    assert (b["sensitivity"], b["ppv"]) == (round(2 / 3, 4), round(2 / 3, 4))
    assert (m["sensitivity"], m["ppv"]) == (1.0, 0.75)
    pair = table["teams"][2]["members"][0]
    assert pair["members"] == ["alice", "bob"] and (pair["sensitivity"], pair["ppv"]) == (1.0, 0.75)
    assert table["teams"][1]["mean"]["ppv"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-4)


def _finish_with(store, nid, who, keep=None, retype=None):
    """``who`` opens the note, deletes what is not in ``keep`` (offsets), retypes ``retype``
    ({start: subtype}), and finishes it."""
    store.ensure_annotator(who)
    store.open(nid, who)
    for sp in store.spans(nid, who):
        if keep is not None and sp["start"] not in keep:
            store.update_span(sp["id"], who, status="deleted")
        elif retype and sp["start"] in retype:
            store.update_span(sp["id"], who, subtype=retype[sp["start"]])
    store.finish(nid, who)


def test_a_type_correction_is_a_disagreement_the_model_cannot_outvote(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME, DATE, PHONE])
    _finish_with(store, nid, "alice", retype={NAME.start: "PATIENT"})  # DOCTOR -> PATIENT
    _finish_with(store, nid, "bob")                                   # accepts everything
    agg = agreement.aggregate(store, nid)
    item = next(it for it in agg["items"] if it["item_start"] == NAME.start)
    assert item["agreement"] == "minority" and item["differs"] == ["type"]
    assert item["by_voter"]["alice"] == [[NAME.start, NAME.end, "PATIENT"]]
    assert item["by_voter"][MODEL] == [[NAME.start, NAME.end, "DOCTOR"]]   # shown, not counted
    assert item["suggest"]["subtype"] is None and item["suggest"]["phi"]  # the adjudicator chooses
    with pytest.raises(Invalid, match="needs a type"):
        agreement.decide(store, nid, "carol", item["item_start"], item["item_end"], "phi")
    others = [it for it in agg["items"] if it is not item]
    assert {it["agreement"] for it in others} == {"all"}
    # the unadjudicated note is in conflict: not final, not exported, named
    assert agreement.conflicts(store) == [nid]
    assert agreement.final_spans(store, nid) == ("conflict", [])
    docs, skipped = export_docs(project, "final")
    assert (docs, skipped) == ([], 0)
    docs, _ = export_docs(project, "final", conflicts="union")
    assert [sp.subtype for sp in docs[0].spans][0] in ("DOCTOR", "PATIENT")
    with pytest.raises(Exception, match="refuse or union"):
        export_docs(project, "final", conflicts="majority")
    store.ensure_annotator("carol")
    for it in agg["items"]:
        agreement.decide(store, nid, "carol", it["item_start"], it["item_end"], "phi",
                         it["suggest"]["start"], it["suggest"]["end"], it["suggest"]["subtype"] or "PATIENT")
    agreement.finish(store, nid, "carol")
    assert agreement.conflicts(store) == [] and not agreement.aggregate(store, nid)["conflict"]
    kind, spans = agreement.final_spans(store, nid)
    assert kind == "consensus" and [sp.subtype for sp in spans] == ["PATIENT", "DATE", "PHONE"]


def test_finishers_who_agree_give_the_final_annotation_without_adjudication(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME, DATE, CALL])
    for who in ("alice", "bob"):
        _finish_with(store, nid, who, keep={NAME.start, DATE.start})
    assert agreement.conflicts(store) == []
    assert agreement.final_spans(store, nid) == ("reviewed", [NAME, DATE])
    # a deletion by one person is not undone by the other's acceptance
    nid2 = add_note(project, "502-01", suggestions=[NAME, DATE, CALL])
    _finish_with(store, nid2, "alice", keep={NAME.start, DATE.start})
    _finish_with(store, nid2, "bob")
    assert agreement.conflicts(store) == [nid2]
    docs, _ = export_docs(project, "final")
    assert [d.doc_id for d in docs] == ["501-01"]


def test_a_half_reviewed_note_stays_in_its_owners_queue(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME])
    store.ensure_annotator("alice")
    store.open(nid, "alice")                      # alice starts, then two others finish it
    for who in ("bob", "carol"):
        _finish_with(store, nid, who)
    assert store.queue("alice", per_note=2) == [nid]
    assert store.queue("dave", per_note=2) == []  # full for anyone who has not started it


def test_surrogate_review_and_reidentified_export(project):
    store = project.store
    nid = add_note(project, suggestions=[NAME, DATE, PHONE])
    store.ensure_annotator("alice")
    store.finish(nid, "alice")
    items = surrogates.note_items(project, nid)
    # the second "Ada Quill" is an unannotated repeat of the name: offered too
    assert [(it["start"], it["repeat"]) for it in items] == [
        (NAME.start, False), (DATE.start, False), (PHONE.start, False), (TEXT.rindex("Ada"), True)]
    assert all(it["suggested"] != it["original"] for it in items)
    assert items[0]["suggested"] == surrogates.note_items(project, nid)[0]["suggested"]  # keyed: stable
    surrogates.edit(project, nid, PHONE.start, PHONE.end, "alice", "312-0199")
    with pytest.raises(Invalid):
        surrogates.edit(project, nid, PHONE.start, PHONE.end, "alice", "two\nlines")
    assert surrogates.approve_all(project, nid, "alice") == 3
    docs, skipped = export_docs(project, "reidentified")
    assert skipped == 0 and len(docs) == 1
    new = docs[0]
    surfaces = [new.surface(sp) for sp in new.spans]
    assert surfaces[2] == "312-0199"
    assert "Quill" not in new.text and "3/4" not in new.text and "555-0100" not in new.text
    assert [sp.subtype for sp in new.spans] == ["DOCTOR", "DATE", "PHONE", "DOCTOR"]


def test_sqlite_store_and_key_are_owner_only(tmp_path):
    p = Project.create(tmp_path / "proj")
    add_note(p)
    for name in ("review.sqlite", "secret.key", "project.json"):
        assert stat.S_IMODE(os.stat(tmp_path / "proj" / name).st_mode) == 0o600, name
    wal = tmp_path / "proj" / "review.sqlite-wal"
    if wal.exists():
        assert stat.S_IMODE(os.stat(wal).st_mode) == 0o600
    p.close()
    with pytest.raises(Exception, match="already a review project"):
        Project.create(tmp_path / "proj")


def test_a_stale_version_is_refused_and_changes_nothing_in_either_store(project):
    from crfdeid.review.store import ADJUDICATION, Forbidden, Stale
    store = project.store
    nid = add_note(project, suggestions=[NAME, DATE])
    store.ensure_annotator("alice")
    store.open(nid, "alice")
    seen = store.version(nid, "alice")
    name, date = store.spans(nid, "alice")
    store.update_span(name["id"], "alice", status="deleted", version=seen)
    assert store.version(nid, "alice") == store.written_version() == seen + 1
    with pytest.raises(Stale, match="reload"):                   # a second tab that read `seen`
        store.update_span(name["id"], "alice", status="accepted", version=seen)
    with pytest.raises(Stale):
        store.finish(nid, "alice", version=seen)
    assert [sp["id"] for sp in store.spans(nid, "alice")] == [date["id"]]
    assert store.version(nid, "alice") == seen + 1                # the refused writes left no trace
    store.finish(nid, "alice", version=seen + 1)
    # the adjudication's own version; alice, who reviewed the note, cannot adjudicate it
    store.ensure_annotator("carol")
    with pytest.raises(Forbidden):
        agreement.decide(store, nid, "alice", DATE.start, DATE.end, "phi", subtype="DATE")
    agreement.decide(store, nid, "carol", DATE.start, DATE.end, "phi", subtype="DATE", version=0)
    with pytest.raises(Stale):
        agreement.decide(store, nid, "carol", DATE.start, DATE.end, "not_phi", version=0)
    assert store.version(nid, ADJUDICATION) == 1
