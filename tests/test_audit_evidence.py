"""Evidence that holds against an edited store (issue 52): an audit signed with the officer's key
names, with ``verify --key``, every forgery the issue reproduced: a log re-chained with the
ledger's own functions, library edits as a reviewer after signing, an older copy of a store,
settings changed by SQL, a chosen seed; with the token file, an event whose ``detail.auth`` was
rewritten to a personal sign-in. An untouched audit verifies and reports the same figures.
Synthetic notes only."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from audit_kit import officer_kit, rechain, signed_audit, tag_once, unreview

from crfdeid.cli.audit import main
from crfdeid.review.project import Project
from crfdeid.review.store import MODEL


@pytest.fixture(scope="module", autouse=True)
def release_runs(tmp_path_factory):
    """The release's run made again once for each of its arguments and inputs (audit_kit.tag_once)."""
    with tag_once(tmp_path_factory.mktemp("runs")) as made:
        yield made


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    return officer_kit(tmp_path_factory.mktemp("evidence"))


@pytest.fixture(scope="module")
def signed(kit):
    """A reviewed audit drawn from the officer's signed plan, signed and in the officer's ledger."""
    return signed_audit(kit, "a", kit[2].parent / "signed-report.json"), kit[2], kit[0]


@pytest.fixture
def audit(signed, kit, tmp_path):
    shutil.copytree(signed[0], tmp_path / "a")
    shutil.copy(kit[2].parent / "ledger-a.jsonl", kit[4])  # the ledger as the fixture signed it
    return tmp_path / "a"


def _verify(folder, key, capsys, *more) -> tuple[int, dict]:
    """``verify`` with the officer's public key (``key``.pub) and ledger."""
    capsys.readouterr()
    code = main(["verify", str(folder), "--key", f"{key}.pub", "--ledger", str(key.parent / "ledger.jsonl"), *more])
    return code, json.loads(capsys.readouterr().out)


def _whats(result) -> str:
    return "\n".join(f"{d['part']}: {d['doc_id']}: {d['what']}" for d in result["differences"])


def _con(folder, part="review"):
    return sqlite3.connect(folder / part / "review.sqlite")


def test_an_untouched_signed_audit_verifies_and_reports_the_signed_figures(audit, signed, capsys):
    code, result = _verify(audit, signed[1], capsys)
    assert code == 0 and result["ok"] and result["checks"]["statement"], _whats(result)
    capsys.readouterr()
    assert main(["report", str(audit)]) == 0
    now = json.loads(capsys.readouterr().out)
    before = json.loads((signed[0].parent / "signed-report.json").read_text())
    now.pop("date"), before.pop("date")
    assert now == before
    st = json.loads((audit / "statement.json").read_text())
    assert set(st["body"]["stores"]) == {"review", "double"} and st["body"]["seed_from"] == "plan"
    assert "Quill" not in json.dumps(st)  # digests and counts only


def test_a_deleted_find_with_the_log_re_chained_is_named(audit, signed, capsys):
    # a reviewer's find of a real identifier, not of a planted canary (whose line the model's
    # spans place: that deletion is named by the canaries' figures instead)
    planted = {(c["doc_id"], c["start"], c["end"]) for c in json.loads((audit / "audit.json").read_text())
               .get("canaries", []) if c["part"] == "review"}
    con = _con(audit)
    with con:
        finds = con.execute("SELECT a.id, n.doc_id, a.span_start, a.span_end FROM annotations a JOIN notes n "
                            "ON n.id = a.note_id WHERE a.origin = 'human' ORDER BY a.id").fetchall()
        first = next(i for i, *where in finds if tuple(where) not in planted)
        con.execute("DELETE FROM annotations WHERE id = ?", (first,))
    con.close()
    rechain(audit)
    capsys.readouterr()
    assert main(["verify", str(audit), "--evidence-only"]) == 0  # the store's own checks are fooled, as the issue says
    code, result = _verify(audit, signed[1], capsys)
    assert code == 1 and "rewritten and re-chained" in _whats(result)
    assert "report's identifiers recomputed now differ" in _whats(result)


def test_library_edits_as_a_reviewer_after_signing_are_named(audit, signed, capsys):
    project = Project.open(audit / "review")
    try:
        store = project.store
        nid = next(r["id"] for r in store.notes() if store.done_by(r["id"]))
        doc_id = store.note(nid)["doc_id"]
        unreview(store, nid, "ann")
    finally:
        project.close()
    code, result = _verify(audit, signed[1], capsys)
    named = [d for d in result["differences"] if "after signing" in d["what"]]
    assert code == 1 and {d["doc_id"] for d in named} == {doc_id}
    assert [d["what"].split(": ", 1)[1] for d in named][:1] == ["ann reopen"] and named[-1]["what"].endswith("done")


def test_an_older_copy_of_the_double_review_store_is_named(audit, signed, capsys, tmp_path):
    older = tmp_path / "older.sqlite"
    shutil.copy(audit / "double" / "review.sqlite", older)
    project = Project.open(audit / "double")
    try:  # the adjudication, after the older copy was taken
        project.store.set_setting("note_to_adjudicator", "look again", who="carol")
    finally:
        project.close()
    capsys.readouterr()
    assert main(["report", str(audit), "--sign", str(signed[1]), "--ledger", str(signed[1].parent / "ledger.jsonl"),
                 "--supersede"]) == 0
    shutil.copy(older, audit / "double" / "review.sqlite")
    code, result = _verify(audit, signed[1], capsys)
    assert code == 1 and "an older copy of the store" in _whats(result)


def test_settings_changed_by_sql_are_named_with_and_without_the_key(audit, signed, capsys):
    con = _con(audit)
    with con:
        con.execute("UPDATE settings SET value = '5' WHERE name = 'retrain_every'")
    con.close()
    capsys.readouterr()
    assert main(["verify", str(audit), "--evidence-only"]) == 1
    assert "settings differ from the log" in capsys.readouterr().err
    code, result = _verify(audit, signed[1], capsys)
    assert code == 1 and "settings differ from those signed" in _whats(result)


def test_a_chosen_seed_is_named_and_not_signed(signed, kit, tmp_path, capsys):
    out = tmp_path / "shopped"
    assert main(["sample", signed[2], "--out", str(out), "--notes", "6", "--seed", "109",
                 "--release-output", str(kit[1])]) == 0
    code, result = _verify(out, signed[1], capsys)
    assert code == 1 and "draw shopping: the audit was not drawn from a plan the officer signed" in _whats(result)


def test_a_rewritten_auth_is_named_with_the_token_file(audit, signed, capsys, tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("ann 0123456789abcdef-ann-token\nbob 0123456789abcdef-bob-token\n")
    tokens.chmod(0o600)
    con = _con(audit)
    with con:
        con.execute("DROP TRIGGER audit_append_only")
        con.execute("UPDATE audit SET detail = json_set(detail, '$.auth', 'personal') WHERE who = 'ann'")
    con.close()
    rechain(audit)
    capsys.readouterr()
    assert main(["verify", str(audit), "--tokens", str(tokens)]) == 1
    assert "its seal does not prove it" in capsys.readouterr().err
    capsys.readouterr()
    assert main(["report", str(audit), "--tokens", str(tokens)]) == 1
    assert json.loads(capsys.readouterr().out)["reviewer_tokens"]["ann"] is False


def test_a_statement_edited_by_hand_is_named(audit, signed, capsys):
    st = json.loads((audit / "statement.json").read_text())
    st["body"]["figures"]["identifiers"]["missed"] += 1
    (audit / "statement.json").write_text(json.dumps(st))
    code, result = _verify(audit, signed[1], capsys)
    assert code == 1 and "edited after it was signed (its signature does not hold)" in _whats(result)


def test_rubber_stamping_with_personal_tokens_fails_the_audit(signed, tmp_path, capsys):
    pytest.importorskip("fastapi", reason="the review extra is not installed")
    pytest.importorskip("httpx", reason="httpx is needed by FastAPI's test client")
    from fastapi.testclient import TestClient

    from crfdeid.review.credentials import Credentials
    from crfdeid.review.server import create_app

    out = tmp_path / "stamped"
    assert main(["sample", signed[2], "--out", str(out), "--notes", "4", "--seed", "7"]) == 0
    tokens = tmp_path / "tokens"
    tokens.write_text("dee 0123456789abcdef-dee-token\n")
    tokens.chmod(0o600)
    project = Project.open(out / "review")
    try:
        c = TestClient(create_app(project, hosts=("testserver",), credentials=Credentials.from_file(tokens)))
        h = {"Authorization": "Bearer 0123456789abcdef-dee-token"}
        for r in project.store.notes():  # open and finish every note without a look
            assert c.post(f"/api/notes/{r['id']}/open", headers=h, json={}).status_code == 200
            assert c.post(f"/api/notes/{r['id']}/done", headers=h, json={}).status_code == 200
    finally:
        project.close()
    capsys.readouterr()
    assert main(["report", str(out), "--tokens", str(tokens), "--sign", str(signed[1])]) == 1
    captured = capsys.readouterr()
    assert "dee finished 4 of 4 notes faster than" in captured.err and "not signed" in captured.err
    report = json.loads(captured.out)
    assert report["reviewer_tokens"] == {"dee": True}  # the seals prove the personal sign-in
    assert report["reviewing"]["failed"] == ["dee"] and not (out / "statement.json").exists()


def test_an_audit_leaves_suggestions_undecided_and_names_a_reopen_after_done(signed, tmp_path, capsys):
    out = tmp_path / "reopened"
    assert main(["sample", signed[2], "--out", str(out), "--notes", "4", "--seed", "7"]) == 0
    project = Project.open(out / "review")
    try:
        store = project.store
        nid = next(r["id"] for r in store.notes() if store.spans(r["id"], MODEL))
        doc_id = store.note(nid)["doc_id"]
        store.ensure_annotator("eve", "human")
        store.open(nid, "eve")
        assert store.finish(nid, "eve") == 0
        assert {sp["status"] for sp in store.spans(nid, "eve")} == {"suggested"}  # not accepted for her
        store.reopen(nid, "eve")
        store.finish(nid, "eve")
    finally:
        project.close()
    capsys.readouterr()
    assert main(["report", str(out)]) == 1
    captured = capsys.readouterr()
    assert f"1 review(s) reopened after done: {doc_id} (eve)" in captured.err
    eve = json.loads(captured.out)["reviewing"]["by_reviewer"]["eve"]
    assert eve["reopened_after_done"] == 1 and eve["undecided_at_done"] > 0 and eve["decisions_per_note"] == 0


def test_a_release_changed_outside_the_sample_is_named_with_its_counts(audit, signed, tmp_path, capsys):
    m = json.loads((audit / "audit.json").read_text())
    drawn = {n["doc_id"] for n in m["notes"]}
    lines = (signed[0].parent / "notes.jsonl").read_text().splitlines()
    records = [json.loads(x) for x in lines]
    next(r for r in records if r["id"] not in drawn)["text"] += " One more line."
    (tmp_path / "edited.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    capsys.readouterr()
    assert main(["verify", str(audit), f"jsonl:{tmp_path / 'edited.jsonl'}"]) == 1
    err = capsys.readouterr().err
    assert "the release digest differs" in err and "14 notes" in err and "0 difference(s)" not in err
