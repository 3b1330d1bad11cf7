"""What an audit rests on (issue 35, item 5), through HTTP with personal tokens: no note is final
without the people it needs, only an adjudicator adjudicates (never their own notes), double
review is blind, a stale page or tab gets 409 instead of overwriting a decision, and the
exports keep every reviewer's decision. Notes are synthetic."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
pytest.importorskip("httpx", reason="httpx is needed by FastAPI's test client")

from fastapi.testclient import TestClient  # noqa: E402

from crfdeid.cli.review import main as review_main  # noqa: E402
from crfdeid.document import Document, make_span  # noqa: E402
from crfdeid.review import agreement  # noqa: E402
from crfdeid.review.credentials import Credentials, parse_roles  # noqa: E402
from crfdeid.review.project import Project, export_docs  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402

TEXT = "Seen by Dr. Ada Quill on 3/4 at Fairhaven Clinic in Boston."
SPANS = [make_span(TEXT.index("Ada"), TEXT.index(" on"), "DOCTOR"),
         make_span(TEXT.index("3/4"), TEXT.index(" at"), "DATE"),
         make_span(TEXT.index("Fairhaven"), TEXT.index(" in"), "HOSPITAL"),
         make_span(TEXT.index("Boston"), len(TEXT) - 1, "CITY")]


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "proj", per_note=2)
    for k in range(2):
        nid = p.store.add_note(Document(f"501-0{k}", TEXT, [], {"patient": "501"}))
        p.store.set_suggestions(nid, SPANS, [0.9] * len(SPANS), 0, 1.0)
    yield p
    p.close()


@pytest.fixture
def people(tmp_path, capsys):
    """alice and bob annotate, carol adjudicates (tokens made by `review token`)."""
    path = tmp_path / "tokens"
    for who, role in (("alice", []), ("bob", ["--role", "annotator"]), ("carol", ["--role", "adjudicator"])):
        assert review_main(["token", who, "--token-file", str(path), *role]) == 0
    capsys.readouterr()
    tokens, roles = parse_roles(path.read_text())
    assert roles == {"alice": "annotator", "bob": "annotator", "carol": "adjudicator"}
    return path, {who: {"Authorization": f"Bearer {t}"} for who, t in tokens.items()}


def app_client(project, path):
    return TestClient(create_app(project, hosts=("testserver",), credentials=Credentials.from_file(path)))


def review(c, h, nid, delete=(), retype=None):
    """Open, delete the spans at indices ``delete``, retype the first span, finish."""
    note = c.post(f"/api/notes/{nid}/open", headers=h, json={}).json()
    v = note["version"]
    for i in delete:
        r = c.patch(f"/api/spans/{note['spans'][i]['id']}", headers=h, json={"status": "deleted", "version": v})
        assert r.status_code == 200, r.text
        v = r.json()["version"]
    if retype:
        v = c.patch(f"/api/spans/{note['spans'][0]['id']}", headers=h, json={"subtype": retype, "version": v}).json()[
            "version"]
    r = c.post(f"/api/notes/{nid}/done", headers=h, json={"version": v})
    assert r.status_code == 200, r.text
    return note


def test_a_conflicted_note_needs_an_adjudicators_decision_with_every_reviewer(project, people):
    path, h = people
    c = app_client(project, path)
    nid = project.store.notes()[0]["id"]
    review(c, h["alice"], nid)
    review(c, h["bob"], nid, delete=[1])
    assert agreement.conflicts(project.store) == [nid]
    # an annotator cannot finish it, with no voters or any others, nor open aggregate mode at all
    assert c.post(f"/api/aggregate/{nid}/done", headers=h["alice"], json={"voters": []}).status_code == 403
    assert c.get("/api/aggregate", headers=h["alice"]).status_code == 403
    assert c.get(f"/api/aggregate/{nid}", headers=h["bob"]).status_code == 403
    # the adjudicator cannot leave the reviewers out either: no one's decision is no decision
    r = c.post(f"/api/aggregate/{nid}/done", headers=h["carol"], json={"voters": []})
    assert r.status_code == 422 and "alice, bob" in r.json()["detail"]
    r = c.post(f"/api/aggregate/{nid}/done", headers=h["carol"], json={"voters": ["alice", "model"]})
    assert r.status_code == 422
    assert project.store.db.one("SELECT * FROM adjudications") is None
    docs, _ = export_docs(project)
    assert [d.doc_id for d in docs] == []                              # not final, not written
    # the adjudicator decides each item, finishes; an annotator cannot overturn it afterwards
    agg = c.get(f"/api/aggregate/{nid}", headers=h["carol"]).json()
    v = agg["version"]
    for it in agg["items"]:
        r = c.post(f"/api/aggregate/{nid}/decisions", headers=h["carol"],
                   json={"item_start": it["item_start"], "item_end": it["item_end"], "verdict": "phi",
                         "subtype": it["suggest"]["subtype"], "version": v})
        assert r.status_code == 200, r.text
        v = r.json()["version"]
    assert c.post(f"/api/aggregate/{nid}/done", headers=h["carol"],
                  json={"voters": agg["voters"], "version": v}).status_code == 200
    first = agg["items"][0]
    body = {"item_start": first["item_start"], "item_end": first["item_end"], "verdict": "not_phi"}
    assert c.post(f"/api/aggregate/{nid}/decisions", headers=h["alice"], json=body).status_code == 403
    # nor can the adjudicator herself change it silently: an adjudicated note is reopened first (audited)
    assert c.post(f"/api/aggregate/{nid}/decisions", headers=h["carol"], json=body).status_code == 409
    docs, _ = export_docs(project)
    (doc,) = [d for d in docs if d.doc_id == "501-00"]
    assert len(doc.spans) == 4
    assert c.post(f"/api/aggregate/{nid}/reopen", headers=h["carol"], json={}).status_code == 200
    assert [a["action"] for a in project.store.audit_log(nid, limit=1)] == ["reopen_adjudication"]
    assert c.post(f"/api/aggregate/{nid}/decisions", headers=h["carol"], json=body).status_code == 200
    assert "501-00" not in [d.doc_id for d in export_docs(project)[0]]   # open again: not final


def test_a_stale_adjudication_page_gets_a_conflict_not_an_overwrite(project, people):
    path, h = people
    c = app_client(project, path)
    nid = project.store.notes()[0]["id"]
    review(c, h["alice"], nid)
    review(c, h["bob"], nid, delete=[1])
    page1 = c.get(f"/api/aggregate/{nid}", headers=h["carol"]).json()
    page2 = c.get(f"/api/aggregate/{nid}", headers=h["carol"]).json()     # a second tab, same view
    it = page1["items"][1]
    item = {"item_start": it["item_start"], "item_end": it["item_end"]}
    r = c.post(f"/api/aggregate/{nid}/decisions", headers=h["carol"],
               json={**item, "verdict": "phi", "subtype": "DATE", "version": page1["version"]})
    assert r.status_code == 200
    r = c.post(f"/api/aggregate/{nid}/decisions", headers=h["carol"],
               json={**item, "verdict": "not_phi", "version": page2["version"]})
    assert r.status_code == 409 and "reload" in r.json()["detail"]
    (d,) = [d for d in agreement.decisions(project.store, nid) if d["item_start"] == it["item_start"]]
    assert d["verdict"] == "phi"                                         # the confirmed span stands


def test_no_one_adjudicates_a_note_they_reviewed_and_double_review_is_blind(project, people):
    path, h = people
    c = app_client(project, path)
    nid = project.store.notes()[0]["id"]
    review(c, h["alice"], nid)
    bob = c.post(f"/api/notes/{nid}/open", headers=h["bob"], json={}).json()
    c.patch(f"/api/spans/{bob['spans'][0]['id']}", headers=h["bob"], json={"status": "deleted"})
    # mid-review, bob's spans are nobody's to see: not alice's, not even the adjudicator's
    for who in ("alice", "carol"):
        r = c.get(f"/api/aggregate/{nid}?voters=bob", headers=h[who])
        assert r.status_code == 403 and "Ada" not in r.text
    # the adjudicator reviewed the note herself: she cannot see others' spans on it nor adjudicate it
    review(c, h["carol"], nid)
    c.post(f"/api/notes/{nid}/done", headers=h["bob"], json={})
    assert c.get(f"/api/aggregate/{nid}", headers=h["carol"]).status_code == 403
    assert nid not in [n["id"] for n in c.get("/api/aggregate", headers=h["carol"]).json()["notes"]]
    r = c.post(f"/api/aggregate/{nid}/decisions", headers=h["carol"],
               json={"item_start": SPANS[0].start, "item_end": SPANS[0].end, "verdict": "not_phi"})
    assert r.status_code == 403 and "reviewed" in r.json()["detail"]
    assert c.get("/api/project", headers=h["carol"]).json()["role"] == "adjudicator"


def test_a_note_that_needs_two_reviewers_is_not_final_with_one(project, people, tmp_path, capsys):
    path, h = people
    c = app_client(project, path)
    nid = project.store.notes()[0]["id"]
    review(c, h["alice"], nid)
    assert agreement.final_spans(project.store, nid)[0] == "unreviewed"
    assert c.get("/api/reviewed", headers=h["alice"]).json()["notes"] == []
    assert c.post(f"/api/aggregate/{nid}/done", headers=h["carol"], json={"voters": ["alice"]}).status_code == 409
    review(c, h["bob"], nid)
    assert agreement.final_spans(project.store, nid)[0] == "reviewed"
    assert [n["id"] for n in c.get("/api/reviewed", headers=h["alice"]).json()["notes"]] == [nid]


def test_a_stale_tab_cannot_bring_back_a_deleted_span_nor_change_a_done_note(project, people):
    path, h = people
    c = app_client(project, path)
    nid = project.store.notes()[0]["id"]
    tab1 = c.post(f"/api/notes/{nid}/open", headers=h["alice"], json={}).json()
    tab2 = c.post(f"/api/notes/{nid}/open", headers=h["alice"], json={}).json()
    span = tab1["spans"][0]["id"]
    r = c.patch(f"/api/spans/{span}", headers=h["alice"], json={"status": "deleted", "version": tab1["version"]})
    assert r.status_code == 200
    r = c.patch(f"/api/spans/{span}", headers=h["alice"], json={"status": "accepted", "version": tab2["version"]})
    assert r.status_code == 409
    assert [sp["status"] for sp in project.store.spans(nid, "alice", include_deleted=True)
            if sp["id"] == span] == ["deleted"]
    for path_, body in ((f"/api/notes/{nid}/spans", {"start": 0, "end": 4, "subtype": "CITY"}),
                        (f"/api/notes/{nid}/accept-all", {}), (f"/api/notes/{nid}/done", {})):
        assert c.post(path_, headers=h["alice"], json={**body, "version": tab2["version"]}).status_code == 409
    # tab 1 finishes the note; tab 2, never reloaded, cannot delete a span of it
    done = c.post(f"/api/notes/{nid}/done", headers=h["alice"], json={"version": r.json().get("version") or
                                                                       tab1["version"] + 1})
    assert done.status_code == 200
    other = tab2["spans"][1]["id"]
    r = c.patch(f"/api/spans/{other}", headers=h["alice"], json={"status": "deleted", "version": tab2["version"]})
    assert r.status_code == 409
    assert len(project.store.spans(nid, "alice")) == len(SPANS) - 1
    # a page that reloads reads the current version and goes on
    fresh = c.post(f"/api/notes/{nid}/open", headers=h["alice"], json={}).json()
    assert fresh["version"] == done.json()["version"]


def test_union_export_prefers_a_reviewers_type_and_unreviewed_keeps_deletions(project, tmp_path, capsys):
    c = TestClient(create_app(project, hosts=("testserver",)))
    alice, bob, carol = ({"X-Annotator": n} for n in ("alice", "bob", "carol"))
    first, second = (r["id"] for r in project.store.notes())
    # both keep the doctor; alice keeps the model's type on the clinic, bob corrects it: a tie
    review(c, alice, first)
    review(c, bob, first, delete=[1], retype=None)
    note = c.post(f"/api/notes/{first}/reopen", headers=bob, json={})
    assert note.status_code == 200
    bob_spans = project.store.spans(first, "bob")
    clinic = next(sp for sp in bob_spans if sp["subtype"] == "HOSPITAL")
    assert c.patch(f"/api/spans/{clinic['id']}", headers=bob, json={"subtype": "CITY"}).status_code == 200
    c.post(f"/api/notes/{first}/done", headers=bob, json={})
    project.close()
    out = tmp_path / "union.jsonl"
    assert review_main(["export", str(project.path), "--to", "jsonl", "--out", str(out),
                        "--conflicts", "union"]) == 0
    (row,) = [json.loads(x) for x in out.read_text().splitlines()]
    types = {(s["start"], s["end"]): s.get("subtype") or s.get("type") for s in row["spans"]}
    assert types[(SPANS[2].start, SPANS[2].end)] == "CITY"              # bob's correction, not the model's type
    # the second note: alice deleted a suggestion and has not finished; it is not brought back
    p = Project.open(project.path)
    try:
        c = TestClient(create_app(p, hosts=("testserver",)))
        note = c.post(f"/api/notes/{second}/open", headers=alice, json={}).json()
        c.patch(f"/api/spans/{note['spans'][3]['id']}", headers=alice, json={"status": "deleted"})
        c.post(f"/api/notes/{second}/open", headers=carol, json={})  # carol has opened it, decided nothing
        docs, _ = export_docs(p, include_unreviewed=True)
        (doc,) = [d for d in docs if d.doc_id == "501-01"]
        assert [(sp.start, sp.end) for sp in doc.spans] == [(s.start, s.end) for s in SPANS[:3]]
    finally:
        p.close()
