"""Rules the review app keeps for an audit, through HTTP: an audit's project never retrains,
a surrogate edit never carries an original back (nor reaches the export), only an adjudicator
or a named editor edits surrogates, the model's suggestions survive any order of calls, a
review changed after adjudication is flagged, and each event records how its author signed in.
Notes are synthetic."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
pytest.importorskip("httpx", reason="httpx is needed by FastAPI's test client")

from fastapi.testclient import TestClient  # noqa: E402

from crfdeid.cli.review import main as review_main  # noqa: E402
from crfdeid.document import Document, make_span  # noqa: E402
from crfdeid.errors import CrfdeidError  # noqa: E402
from crfdeid.review import agreement  # noqa: E402
from crfdeid.review.credentials import Credentials  # noqa: E402
from crfdeid.review.project import Project, export_docs  # noqa: E402
from crfdeid.review.retrain import retrain  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402
from crfdeid.review.store import Invalid  # noqa: E402

TEXT = "Seen by Dr. Ada Quill on 3/4 with Bo Lindqvist."
SECOND = "Ada Quill called back."
SPANS = [make_span(TEXT.index("Ada"), TEXT.index(" on"), "DOCTOR"),
         make_span(TEXT.index("3/4"), TEXT.index(" with"), "DATE"),
         make_span(TEXT.index("Bo "), len(TEXT) - 1, "PATIENT")]


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "proj")
    for k, text in enumerate((TEXT, SECOND)):
        nid = p.store.add_note(Document(f"501-0{k}", text, [], {"patient": "501"}))
        p.store.set_suggestions(nid, SPANS if k == 0 else [], [0.9] * 3 if k == 0 else [], 0, 1.0 - k)
    yield p
    p.close()


@pytest.fixture
def tokens(tmp_path, capsys):
    path = tmp_path / "tokens"
    for who, role in (("alice", "annotator"), ("carol", "adjudicator")):
        assert review_main(["token", who, "--token-file", str(path), "--role", role]) == 0
    capsys.readouterr()
    creds = Credentials.from_file(path)
    return creds, {w: {"Authorization": f"Bearer {t}"} for w, t in creds.tokens.items()}


def client(project, credentials=None):
    return TestClient(create_app(project, hosts=("testserver",), credentials=credentials))


def finish(c, nid, h=None, name="alice"):
    h = h or {"X-Annotator": name}
    c.post(f"/api/notes/{nid}/open", headers=h, json={})
    assert c.post(f"/api/notes/{nid}/done", headers=h, json={}).status_code == 200


def test_an_audit_project_never_retrains(project):
    project.store.set_setting("audit", {"seed": 1, "part": "review", "model_sha256": "0" * 64})
    c = client(project)
    finish(c, 1)
    r = c.post("/api/retrain", json={})
    assert r.status_code == 409 and "frozen to the audited model" in r.json()["detail"]
    training = c.get("/api/progress").json()["training"]
    assert training["frozen"] is True and training["every"] == 0 and not training["running"]
    with pytest.raises(CrfdeidError, match="never retrains"):
        retrain(project)
    assert project.model_version() == 0


def test_a_project_that_is_not_an_audit_still_retrains_on_request(project):
    c = client(project)
    assert c.get("/api/progress").json()["training"]["frozen"] is False
    r = c.post("/api/retrain", json={})
    assert r.status_code == 200  # started, or not (nothing reviewed): never refused


@pytest.mark.parametrize("value", ["Ada Quill", "Quill", "Adams Jones", "Lindqvists", "Bo Smith"])
def test_a_surrogate_sharing_a_run_with_an_original_of_the_patient_is_refused_without_echo(project, value):
    c = client(project)
    finish(c, 1)
    h = {"X-Annotator": "alice"}
    r = c.put("/api/surrogates/1", headers=h, json={"start": SPANS[0].start, "end": SPANS[0].end, "value": value})
    assert r.status_code == 422 and value not in r.text
    assert project.store.db.one("SELECT COUNT(*) AS n FROM surrogates")["n"] == 0
    ok = c.put("/api/surrogates/1", headers=h, json={"start": SPANS[0].start, "end": SPANS[0].end,
                                                     "value": "Wyn Moreau"})
    assert ok.status_code == 200


def test_the_export_refuses_an_original_written_in_the_database(project):
    c = client(project)
    finish(c, 1)
    assert c.post("/api/surrogates/1/approve-all", headers={"X-Annotator": "alice"}, json={}).status_code == 200
    assert len(export_docs(project, "reidentified")[0]) == 1
    project.store.db.query("UPDATE surrogates SET value = 'Ada Quill' WHERE span_start = ? RETURNING value",
                           (SPANS[0].start,))
    with pytest.raises(Invalid) as err:
        export_docs(project, "reidentified")
    assert "Quill" not in str(err.value) and f"offset {SPANS[0].start}" in str(err.value)
    assert review_main(["export", str(project.path), "--to", "jsonl", "--out", str(project.path / "x.jsonl"),
                        "--source", "reidentified"]) != 0


def test_surrogate_edits_need_the_adjudicator_role_or_the_editors_setting(project, tokens):
    creds, h = tokens
    c = client(project, creds)
    finish(c, 1, h["alice"])
    item = {"start": SPANS[1].start, "end": SPANS[1].end}
    r = c.put("/api/surrogates/1", headers=h["alice"], json=item)
    assert r.status_code == 403 and "adjudicators" in r.json()["detail"]
    assert c.post("/api/surrogates/1/approve-all", headers=h["alice"], json={}).status_code == 403
    assert c.put("/api/surrogates/1", headers=h["carol"], json=item).status_code == 200
    project.store.set_setting("surrogate_editors", ["alice"])
    assert c.put("/api/surrogates/1", headers=h["alice"], json=item).status_code == 200
    assert c.put("/api/surrogates/1", headers=h["carol"], json=item).status_code == 403


def test_review_init_names_the_surrogate_editors(tmp_path, tokens, capsys):
    path = tmp_path / "named"
    assert review_main(["init", str(path), "--surrogate-editors", "alice, alice,dan"]) == 0
    assert "surrogate editors: alice, dan" in capsys.readouterr().out
    project = Project.open(path)
    try:
        assert project.setting("surrogate_editors") == ["alice", "dan"]
        nid = project.store.add_note(Document("501-00", TEXT, [], {"patient": "501"}))
        project.store.set_suggestions(nid, SPANS, [0.9] * 3, 0, 1.0)
        creds, h = tokens
        c = client(project, creds)
        finish(c, nid, h["alice"])
        item = {"start": SPANS[1].start, "end": SPANS[1].end}
        assert c.put(f"/api/surrogates/{nid}", headers=h["alice"], json=item).status_code == 200  # an annotator
        assert c.put(f"/api/surrogates/{nid}", headers=h["carol"], json=item).status_code == 403  # not named
    finally:
        project.close()
    assert review_main(["init", str(tmp_path / "none")]) == 0
    project = Project.open(tmp_path / "none")
    assert project.setting("surrogate_editors") is None
    project.close()


@pytest.mark.parametrize("names", ["bad name", ",", "a/b"])
def test_review_init_refuses_a_bad_editor_name(tmp_path, names):
    with pytest.raises(SystemExit) as err:
        review_main(["init", str(tmp_path / "p"), "--surrogate-editors", names])
    assert err.value.code == 2 and not (tmp_path / "p" / "project.json").exists()


@pytest.mark.parametrize("first", ["add", "accept-all"])
def test_the_model_suggestions_are_kept_whatever_call_comes_first(project, first):
    c = client(project)
    h = {"X-Annotator": "alice"}
    end = TEXT.index(" Ada")
    if first == "add":  # "Dr." added before the note was ever opened
        assert c.post("/api/notes/1/spans", headers=h, json={"start": end - 3, "end": end,
                                                              "subtype": "DOCTOR"}).status_code == 200
    else:
        assert c.post("/api/notes/1/accept-all", headers=h, json={}).status_code == 200
    assert c.post("/api/notes/1/done", headers=h, json={}).status_code == 200
    (doc,) = [d for d in export_docs(project, "final")[0] if d.doc_id == "501-00"]
    got = {(s.start, s.end) for s in doc.spans}
    assert {(s.start, s.end) for s in SPANS} <= got


def test_a_review_changed_after_adjudication_is_flagged_for_the_adjudicator(project, tokens):
    creds, h = tokens
    c = client(project, creds)
    finish(c, 1, h["alice"])
    store = project.store
    for it in agreement.aggregate(store, 1)["items"]:
        agreement.decide(store, 1, "carol", it["item_start"], it["item_end"], "phi", subtype=it["suggest"]["subtype"])
    agreement.finish(store, 1, "carol")
    flagged = {n["id"]: n["changed_after_adjudication"] for n in c.get("/api/aggregate", headers=h["carol"]).json()
               ["notes"]}
    assert flagged == {1: False}
    v = c.get("/api/notes/1", headers=h["alice"]).json()["version"]
    assert c.post("/api/notes/1/reopen", headers=h["alice"], json={"version": v}).status_code == 200
    flagged = {n["id"]: n["changed_after_adjudication"] for n in c.get("/api/aggregate", headers=h["carol"]).json()
               ["notes"]}
    assert flagged == {1: True}
    # every event alice wrote says she signed in with her own token
    auth = store.check_log()["auth"]
    assert auth["alice"] == ["personal"] and store.check_log()["problems"] == []


def test_the_event_log_is_chained_in_either_store(tmp_path, review_db):
    p = Project.create(tmp_path / "p", review_db if review_db.startswith("postgres") else None)
    try:
        nid = p.store.add_note(Document("501-09", TEXT, [], {"patient": "501"}))
        p.store.set_suggestions(nid, SPANS, [0.9] * 3, 0, 1.0)
        p.store.ensure_annotator("alice")
        p.store.add_span(nid, "alice", TEXT.index("Dr."), TEXT.index("Dr.") + 3, "DOCTOR")
        p.store.finish(nid, "alice")
        ok = p.store.check_log()
        assert ok["problems"] == [] and ok["events"] >= 5
        for edit in ("UPDATE audit SET who = 'mallory' RETURNING id", "DELETE FROM audit RETURNING id"):
            with pytest.raises(Exception, match="append-only"):
                p.store.db.query(edit)
        p.store.db.query("UPDATE annotations SET subtype = 'CITY' WHERE annotator = 'alice' RETURNING id")
        assert [x["what"] for x in p.store.check_log()["problems"]] == [
            "alice's review differs from the log (changed outside the review app)"]
    finally:
        p.close()
