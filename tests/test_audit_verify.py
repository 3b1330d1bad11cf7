"""``audit verify`` recomputes what the report rests on: every edit of an audit folder a tester
made by hand is named (by document id, never with note text) and fails ``verify`` and
``report``; an untouched folder verifies and reports the same. Synthetic notes only."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from audit_kit import reviewed_by_people

from crfdeid.cli.audit import main
from crfdeid.io import write
from crfdeid.review import agreement
from crfdeid.review.project import Project
from crfdeid.synth import iter_documents


def _release(folder, n: int, seed: int) -> str:
    docs = list(iter_documents(n, seed))
    for d in docs:
        d.meta.clear()
    write(docs, "jsonl", folder / "notes.jsonl")
    return f"jsonl:{folder / 'notes.jsonl'}"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """A reviewed audit of 6 of 14 notes (2 reviewed twice), and a second one of another release."""
    folder = tmp_path_factory.mktemp("audit")
    release = _release(folder, 14, 31)
    other = folder / "other"
    other.mkdir()
    other_release = _release(other, 14, 32)
    for spec, out in ((release, folder / "a"), (other_release, other / "a")):
        assert main(["sample", spec, "--out", str(out), "--notes", "6", "--double", "2", "--seed", "11"]) == 0
        reviewed_by_people(out, spec)
    return folder / "a", other / "a"


@pytest.fixture
def audit(reviewed, tmp_path):
    shutil.copytree(reviewed[0], tmp_path / "a")
    return tmp_path / "a"


def _verify(folder, capsys) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["verify", str(folder), "--evidence-only"])
    return code, json.loads(capsys.readouterr().out)


def _named(result) -> dict:
    """``{doc id: [what differs]}``."""
    out: dict = {}
    for d in result["differences"]:
        out.setdefault(d["doc_id"], []).append(d["what"])
    return out


def _manifest(folder) -> dict:
    return json.loads((folder / "audit.json").read_text())


def _edit_manifest(folder, change) -> dict:
    m = _manifest(folder)
    change(m)
    (folder / "audit.json").write_text(json.dumps(m))
    return m


def _sql(folder, part, *statements):
    con = sqlite3.connect(folder / part / "review.sqlite")
    with con:
        for s in statements:
            con.execute(*s) if isinstance(s, tuple) else con.execute(s)
    con.close()


def _report_fails(folder, capsys) -> dict:
    capsys.readouterr()
    assert main(["report", str(folder)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not report["verify"]["ok"]
    return report


def test_an_untouched_audit_verifies_and_reports_the_same(audit, capsys):
    code, result = _verify(audit, capsys)
    assert code == 0 and result["ok"] and result["differences"] == [], result["differences"]
    assert result["log"]["review"]["events"] > 0 and result["log"]["review"]["unchained"] == 0
    capsys.readouterr()
    assert main(["report", str(audit)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["report", str(audit)]) == 0
    second = json.loads(capsys.readouterr().out)
    first.pop("date"), second.pop("date")
    assert first == second and first["verify"]["ok"] and first["sample"]["drawn"] == 6
    m = _manifest(audit)
    assert first["digests"] == {"release": m["release"]["digest"], "model_sha256": m["model"]["sha256"],
                                "config_sha256": m["model"]["config_sha256"], "seed": 11}
    # the simulated reviewers wrote through the store, not the app: no personal token
    assert first["reviewer_tokens"] == {"ann": False, "bob": False}


def test_tokens_multiplied_by_ten_are_named(audit, capsys):
    m = _edit_manifest(audit, lambda m: [n.update(tokens=10 * n["tokens"]) for n in m["notes"]])
    code, result = _verify(audit, capsys)
    named = _named(result)
    assert code == 1 and not result["checks"]["notes"]
    for n in m["notes"]:
        assert any(w.startswith("tokens in audit.json") and f"({n['tokens']})" in w for w in named[n["doc_id"]])
    assert "tokens in audit.json" in json.dumps(_report_fails(audit, capsys)["verify"])


def test_widened_model_spans_are_named(audit, capsys):
    def widen(m):
        n = m["notes"][1]
        n["model_spans"] = [[max(0, s - 5), e + 5, t] for s, e, t in n["model_spans"]] or [[0, 5, "NAME"]]
    _edit_manifest(audit, widen)
    code, result = _verify(audit, capsys)
    doc_id = _manifest(audit)["notes"][1]["doc_id"]
    assert code == 1
    assert _named(result) == {doc_id: ["model_spans in audit.json differ from the audited model's spans"]}


def test_drawn_notes_deleted_from_a_store_are_named_and_still_counted_as_drawn(audit, capsys):
    single = [n["doc_id"] for n in _manifest(audit)["notes"] if n["part"] == "review"]
    gone = single[:3]
    marks = ",".join("?" * len(gone))
    ids = f"SELECT id FROM notes WHERE doc_id IN ({marks})"
    _sql(audit, "review", "PRAGMA foreign_keys=OFF",
         *[(f"DELETE FROM {t} WHERE note_id IN ({ids})", gone) for t in ("annotations", "reviews", "versions")],
         (f"DELETE FROM notes WHERE doc_id IN ({marks})", gone))
    code, result = _verify(audit, capsys)
    named = _named(result)
    assert code == 1
    for d in gone:
        assert "drawn but not in the review stores" in named[d]
        assert "the note was deleted from the store" in named[d]  # the store's own log says so too
    report = _report_fails(audit, capsys)
    assert report["sample"]["drawn"] == 6 and report["sample"]["reviewed"] == 3


def test_note_text_replaced_in_a_store_is_named(audit, capsys):
    doc_id = next(n["doc_id"] for n in _manifest(audit)["notes"] if n["part"] == "double")
    _sql(audit, "double", ("UPDATE notes SET body = ? WHERE doc_id = ?", ("Seen today. Made up text.", doc_id)))
    code, result = _verify(audit, capsys)
    named = _named(result)
    assert code == 1
    assert "the note's text in the review store differs from the release (digest)" in named[doc_id]
    assert "the note's text differs from the log (changed outside the review app)" in named[doc_id]
    assert "Made up" not in json.dumps(result)


def test_review_projects_of_another_release_are_named(audit, reviewed, capsys):
    for part in ("review", "double"):
        shutil.rmtree(audit / part)
        shutil.copytree(reviewed[1] / part, audit / part)
    code, result = _verify(audit, capsys)
    assert code == 1
    whats = [d["what"] for d in result["differences"]]
    assert whats.count("the review project belongs to another audit (its seed, part, model or release differ "
                       "from audit.json)") == 2
    assert sum(w == "drawn but not in the review stores" for w in whats) >= 1
    _report_fails(audit, capsys)


def _adjudicate(store, nid, who="carol"):
    for it in agreement.aggregate(store, nid)["items"]:
        agreement.decide(store, nid, who, it["item_start"], it["item_end"], "phi", subtype=it["suggest"]["subtype"]
                         if it.get("suggest") else "NAME")
    agreement.finish(store, nid, who)


def test_a_review_reopened_and_edited_after_adjudication_is_named_until_adjudicated_again(audit, capsys):
    p = Project.open(audit / "double")
    try:
        store = p.store
        nid = next(r["id"] for r in store.notes() if store.spans(r["id"], "ann"))
        doc_id = store.note(nid)["doc_id"]
        store.ensure_annotator("carol")
        _adjudicate(store, nid)
        code, result = _verify(audit, capsys)
        assert code == 0, result["differences"]
        store.reopen(nid, "ann")
        store.update_span(store.spans(nid, "ann")[0]["id"], "ann", status="deleted")  # a find deleted
        assert [c["note_id"] for c in store.changed_after_adjudication()] == [nid]
        code, result = _verify(audit, capsys)
        assert code == 1
        assert _named(result)[doc_id] == ["ann changed their review after adjudication (delete_span)"]
        report = _report_fails(audit, capsys)
        assert report["verify"]["changed_after_adjudication"] == [
            {"doc_id": doc_id, "part": "double", "annotator": "ann", "action": "delete_span"}]
        store.finish(nid, "ann")
        agreement.reopen(store, nid, "carol")
        agreement.finish(store, nid, "carol")          # the adjudicator looked again
        assert store.changed_after_adjudication() == []
        assert _verify(audit, capsys)[0] == 0
    finally:
        p.close()


@pytest.mark.parametrize("edit, what", [
    ("DELETE FROM audit WHERE id = 5", "the log breaks before event 6: an event was deleted or rewritten"),
    ("UPDATE audit SET detail = '{}' WHERE id = 7", "event 7 was rewritten"),
    ("DELETE FROM audit WHERE id = (SELECT MAX(id) FROM audit)", "its last events were deleted"),
])
def test_a_deleted_or_rewritten_event_is_named(audit, capsys, edit, what):
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        _sql(audit, "review", edit)
    _sql(audit, "review", "DROP TRIGGER audit_append_only", "DROP TRIGGER audit_no_delete", edit)
    code, result = _verify(audit, capsys)
    assert code == 1 and any(what in d["what"] for d in result["differences"]), result["differences"]


def test_a_review_row_rewritten_outside_the_app_is_named(audit, capsys):
    p = Project.open(audit / "review")
    try:
        nid = next(r["id"] for r in p.store.notes() if p.store.spans(r["id"], "ann"))
        doc_id = p.store.note(nid)["doc_id"]
    finally:
        p.close()
    _sql(audit, "review", ("UPDATE annotations SET status = 'deleted' WHERE note_id = ? AND annotator = 'ann'",
                           (nid,)))
    code, result = _verify(audit, capsys)
    assert code == 1 and _named(result) == {doc_id: ["ann's review differs from the log (changed outside the "
                                                     "review app)"]}
