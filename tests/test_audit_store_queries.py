"""The audit's queries of a review store run on PostgreSQL as on SQLite (issue 52): seals of a
personal sign-in, settings events, the statement's log heads and events after signing, the
diligence measures read from the log, the chain check. Each test runs on both stores
(``review_db``: PostgreSQL from ``$CRFDEID_TEST_PG`` or the local socket, skipped with the reason
when none is reachable). Made-up notes only."""

from __future__ import annotations

import pytest

from crfdeid.audit import diligence, statement
from crfdeid.document import Document, make_span
from crfdeid.review import ledger
from crfdeid.review.credentials import seal_key
from crfdeid.review.project import DB_ENV, Project

TEXT = "Seen by Dr. Okafor in Ballina on 3/4/2091; call 555-0161. Plan: rest.\n"
TOKENS = 14


@pytest.fixture
def audit_folder(tmp_path, review_db, monkeypatch):
    """An audit folder with one review project (the part ``review``) in the store under test, one
    note suggested, and its manifest's few fields the audit code reads."""
    pg = review_db.startswith("postgres")
    if pg:
        monkeypatch.setenv(DB_ENV, review_db)
    p = Project.create(tmp_path / "review", review_db if pg else None, per_note=1, retrain_every=0,
                       strategy="random")
    p.store.set_setting("audit", {"seed": 7, "part": "review", "model_sha256": "0" * 64, "release_digest": "1" * 64})
    nid = p.store.add_note(Document("n1", TEXT, [], {}), None, who="audit")
    start = TEXT.index("Okafor")
    p.store.set_suggestions(nid, [make_span(start, start + 6, "DOCTOR")], [0.9], 0, 1.0)
    p.close()
    manifest = {"sample": {"projects": {"review": "review/"}}, "notes": [{"doc_id": "n1", "tokens": TOKENS}]}
    return tmp_path, manifest


def _review(folder, who: str = "ann", token: str = "made-up-token-of-ann-0123456789") -> bytes:
    """``who`` reviews the note signed in with a personal token (sealed events); their seal key."""
    key = seal_key(token, who)
    p = Project.open(folder / "review")
    try:
        p.store.signed_in("personal", {who: key})
        p.store.ensure_annotator(who)
        nid = p.store.notes()[0]["id"]
        p.store.open(nid, who)
        p.store.accept_all(nid, who)
        start = TEXT.index("Ballina")
        p.store.add_span(nid, who, start, start + 7, "CITY")
        p.store.finish(nid, who)
    finally:
        p.close()
    return key


def test_seals_and_the_chain_check_on_either_store(audit_folder):
    folder, _manifest = audit_folder
    key = _review(folder)
    p = Project.open(folder / "review")
    try:
        checked = p.store.check_log({"ann": key})
        assert checked["problems"] == [] and checked["auth"]["ann"] == ["personal"]
        wrong = p.store.check_log({"ann": seal_key("another-made-up-token-0123456789", "ann")})
        assert wrong["auth"]["ann"] == ["unproven"]
        assert p.store.spans(p.store.notes()[0]["id"], "ann")
    finally:
        p.close()


def test_settings_are_events_on_either_store(audit_folder):
    folder, _manifest = audit_folder
    p = Project.open(folder / "review")
    try:
        events = [e for e in p.store.audit_log() if e["action"] == "setting"]
        assert events and p.store.check_log()["problems"] == []
        with p.store.db.write() as run:  # by SQL, outside the review app
            run("UPDATE settings SET value = ? WHERE name = ?", ("5", "retrain_every"))
        assert any("settings differ from the log" in x["what"] for x in p.store.check_log()["problems"])
    finally:
        p.close()


def test_statement_heads_and_events_after_signing_on_either_store(audit_folder):
    folder, manifest = audit_folder
    signed = statement.stores(folder, manifest)["review"]
    assert signed["events"] > 0 and len(signed["head"]) == 64
    p = Project.open(folder / "review")
    try:
        assert signed["settings"] == ledger.settings_digest(p.store.db.query)
    finally:
        p.close()
    _review(folder)
    now = statement.stores(folder, manifest)["review"]
    named: list = []
    statement._store(folder, "review", signed, now, lambda what, part, doc_id=None: named.append((what, doc_id)))
    assert named and all(what.startswith("event ") and " after signing: ann " in what for what, _d in named)
    assert "n1" in {d for _w, d in named}  # the review's events name its note
    named.clear()
    statement._store(folder, "review", now, now, lambda what, part, doc_id=None: named.append(what))
    assert named == []


def test_diligence_from_the_log_on_either_store(audit_folder):
    folder, manifest = audit_folder
    _review(folder)
    result = diligence.reviewing(folder, manifest)
    ann = result["by_reviewer"]["ann"]
    assert ann["notes"] == 1 and ann["decisions"] >= 2 and ann["reopened_after_done"] == 0
    assert result["reopened_after_done"] == []
