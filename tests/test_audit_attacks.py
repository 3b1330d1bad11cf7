"""The attacks of issue 60, each performed as a hostile insider at the data holder would (runs
every command, writes the store, holds the token file; never the officer's or a reviewer's
private key): each ends in ``audit verify`` failing, or signing refused, with a message naming
it; the honest audit verifies and signs. Synthetic notes only."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from audit_kit import officer_kit, planned, rechain, reviewed_by_people, signed_audit, tag_once, unreview

from crfdeid.audit import canary
from crfdeid.audit import report as audit_report
from crfdeid.audit import sample as audit_sample
from crfdeid.cli.audit import checked, main
from crfdeid.deid.signing import new_pair
from crfdeid.review import store as store_module
from crfdeid.review.credentials import Credentials
from crfdeid.review.project import Project


@pytest.fixture(scope="module", autouse=True)
def release_runs(tmp_path_factory):
    """The release's run made again once for each of its arguments and inputs (audit_kit.tag_once)."""
    with tag_once(tmp_path_factory.mktemp("runs")) as made:
        yield made


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    return officer_kit(tmp_path_factory.mktemp("attacks"))


@pytest.fixture(scope="module")
def honest(kit):
    """An audit drawn from the officer's plan, reviewed and signed; the ledger as it was then."""
    return signed_audit(kit, "honest")


@pytest.fixture
def audit(honest, kit, tmp_path):
    shutil.copy(kit[2].parent / "ledger-honest.jsonl", kit[4])
    shutil.copytree(honest, tmp_path / "a")
    return tmp_path / "a"


def _verify(folder, kit, capsys, *more) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["verify", str(folder), "--key", str(kit[3]), "--ledger", str(kit[4]), *more])
    return code, capsys.readouterr().err


def _sign(folder, kit, capsys, *more) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["report", str(folder), "--sign", str(kit[2]), "--ledger", str(kit[4]), "--json", "/dev/null",
                 *more])
    return code, capsys.readouterr().err


def test_the_honest_audit_verifies_with_the_public_key_and_the_ledger(audit, kit, capsys):
    code, err = _verify(audit, kit, capsys)
    assert code == 0 and "verify: ok" in err, err


def test_an_input_edited_after_the_release_run_is_tagged_again_and_named(audit, kit, capsys, release_runs):
    # the module's runs are made once per input bytes (release_runs): an edited note is a new run, not the first
    code, err = _verify(audit, kit, capsys)
    assert code == 0, err
    made = len(release_runs)
    notes = Path(kit[0].split(":", 1)[1])
    before = notes.read_text()
    records = [json.loads(x) for x in before.splitlines()]
    records[0]["text"] += " One more line."
    try:
        notes.write_text("\n".join(json.dumps(r) for r in records) + "\n")
        code, err = _verify(audit, kit, capsys)
    finally:
        notes.write_text(before)
    assert code == 1 and "changed since the run (SHA-256)" in err
    assert len(release_runs) == made + 2  # verify's two runs (the output, the spans) made again


def test_draw_shopping_with_a_chosen_seed_is_refused_and_named(kit, tmp_path, capsys):
    out = tmp_path / "seeded"
    assert main(["sample", kit[0], "--out", str(out), "--notes", "6", "--double", "2", "--seed", "197",
                 "--release-output", str(kit[1])]) == 0
    reviewed_by_people(out, kit[0], kit[2].parent)
    code, err = _sign(out, kit, capsys)
    assert code == 1 and "not signed: draw shopping" in err and not (out / "statement.json").exists()
    code, err = _verify(out, kit, capsys)
    assert code == 1 and "draw shopping: the audit was not drawn from a plan the officer signed" in err


def test_draw_shopping_with_strata_not_in_the_plan_is_named(audit, kit, capsys):
    m = json.loads((audit / "audit.json").read_text())
    m["sample"]["strata"]["length_bins"] = [100, 300]  # another stratification than the plan's
    (audit / "audit.json").write_text(json.dumps(m))
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "draw shopping: the draw's strata" in err


def test_draw_shopping_by_plans_signed_again_is_named_by_the_ledger(audit, kit, tmp_path, capsys):
    # a second plan for the same release, signed after the first: the audit of the first is not the last word
    spec, output, key, _, ledger = kit
    assert main(["plan", "--per", "tokens", "--target", "50", "--release", spec, "--release-output", str(output),
                 "--notes", "5", "--sign", str(key), "--ledger", str(ledger), "--out", str(tmp_path / "p2")]) == 0
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "draw shopping: the audit's plan (ledger entry 1) is older than the officer's last plan" \
        in err


def test_an_audit_of_the_release_minus_its_leaky_notes_is_refused(kit, tmp_path, capsys):
    lines = open(kit[0].split(":", 1)[1]).read().splitlines()
    (tmp_path / "part.jsonl").write_text("\n".join(lines[3:]) + "\n")  # three notes left out
    part = f"jsonl:{tmp_path / 'part.jsonl'}"
    capsys.readouterr()
    assert main(["sample", part, "--out", str(tmp_path / "p"), "--notes", "4", "--seed", "3",
                 "--release-output", str(kit[1])]) == 2
    assert "audit of something else: the audit's release is not the whole output that leaves (3 of the output's " \
           "14 notes" in capsys.readouterr().err
    assert main(["plan", "--per", "tokens", "--target", "50", "--release", part, "--release-output", str(kit[1]),
                 "--notes", "4", "--sign", str(kit[2]), "--ledger", str(tmp_path / "l"),
                 "--out", str(tmp_path / "plan.json")]) == 2
    assert "audit of something else" in capsys.readouterr().err and not (tmp_path / "plan.json").exists()


def test_an_audit_of_the_release_minus_its_leaky_notes_drawn_unchecked_fails_verify(kit, tmp_path, capsys,
                                                                                      monkeypatch):
    lines = open(kit[0].split(":", 1)[1]).read().splitlines()
    (tmp_path / "part.jsonl").write_text("\n".join(lines[3:]) + "\n")
    monkeypatch.setattr(audit_sample, "whole_output", lambda members, found: None)  # an older crfdeid drew it
    assert main(["sample", f"jsonl:{tmp_path / 'part.jsonl'}", "--out", str(tmp_path / "p"), "--notes", "4",
                 "--seed", "3", "--release-output", str(kit[1])]) == 0
    monkeypatch.undo()
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "p"), "--evidence-only"]) == 1
    assert "audit of something else: the audit's release (11 notes) is not the whole output that leaves (14 notes" \
        in capsys.readouterr().err


def test_a_replayed_older_statement_is_named_by_the_ledger(audit, kit, tmp_path, capsys):
    older = tmp_path / "older"
    shutil.copytree(audit, older)
    code, err = _sign(audit, kit, capsys)
    assert code == 1 and "never replaced silently" in err  # a second signature needs --supersede
    code, err = _sign(audit, kit, capsys, "--supersede")
    assert code == 0, err
    assert list((audit / "superseded").glob("statement-*.json"))
    shutil.rmtree(audit)
    shutil.copytree(older, audit)  # the older folder and its older statement put back
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "replay: the audit's statement (ledger entry 2) is older than the officer's last statement" \
        in err


def test_statements_superseded_within_one_second_differ_and_none_is_overwritten(audit, kit, capsys):
    # signed_at has whole seconds: the new statement names the one it replaces, so a replay of the older one is
    # told apart however fast the officer signs again, and each superseded statement keeps a file of its own
    digests = [hashlib.sha256(json.dumps(json.loads((audit / "statement.json").read_text())["body"],
                                         sort_keys=True).encode()).hexdigest()]
    for _ in range(2):
        code, err = _sign(audit, kit, capsys, "--supersede")
        assert code == 0, err
        body = json.loads((audit / "statement.json").read_text())["body"]
        assert len(body["supersedes"]) == 64  # the sha256 of the body it replaces
        digests.append(hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest())
    assert len(set(digests)) == 3
    assert len(list((audit / "superseded").glob("statement-*.json"))) == 2


def test_a_report_at_another_level_than_planned_is_a_warning_and_not_signed(audit, kit, tmp_path, capsys):
    capsys.readouterr()
    assert main(["report", str(audit), "--level", "0.6", "--json", str(tmp_path / "r.json")]) == 1
    assert "confidence level (0.6) is not the signed plan's (0.95)" in capsys.readouterr().err
    code, err = _sign(audit, kit, capsys, "--level", "0.6", "--supersede")
    assert code == 1 and "not signed" in err


def test_verify_without_the_key_fails_and_the_report_never_says_passed(audit, kit, capsys):
    st = json.loads((audit / "statement.json").read_text())
    st["body"]["figures"]["identifiers"]["missed"] += 1
    (audit / "statement.json").write_text(json.dumps(st))
    capsys.readouterr()
    assert main(["verify", str(audit)]) == 1
    err = capsys.readouterr().err
    assert "the signed statement was not checked: no --key" in err and "verify: ok" not in err
    assert main(["verify", str(audit), "--evidence-only"]) == 0  # asked not to check it: says so
    assert "the officer's signatures were NOT checked" in capsys.readouterr().err
    page = audit_report.to_html(audit_report.compute(audit, 0.95, checked=checked(audit)))
    assert "passed" not in page and "not checked here" in page
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "edited after it was signed" in err
    (audit / "statement.json").unlink()
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "the audit has no signed statement" in err


def test_a_legacy_hmac_statement_is_not_taken_as_the_officers(audit, kit, capsys):
    st = json.loads((audit / "statement.json").read_text())
    secret = b"k" * 32  # whoever checks an HMAC holds its key, and so can make one
    legacy = {"format": "crfdeid-audit-statement/1", "signed_at": st["signed_at"], "key_id": "0" * 16,
              "body": st["body"], "mac": hmac.new(secret, json.dumps(st["body"], sort_keys=True).encode(),
                                                  hashlib.sha256).hexdigest()}
    (audit / "statement.json").write_text(json.dumps(legacy))
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "legacy HMAC statement" in err and "not signed by the officer" in err


def test_a_statement_signed_with_the_insiders_own_key_is_named(audit, kit, tmp_path, capsys):
    mine, _ = new_pair(tmp_path / "insider.key")
    code, err = _sign(audit, (kit[0], kit[1], mine, kit[3], tmp_path / "own-ledger"), capsys, "--supersede")
    assert code == 1 and "signed with another key than the officer's" in err  # the plan is the officer's


def test_forged_reviews_written_as_a_reviewer_are_named_and_not_signed(audit, kit, tmp_path, capsys):
    # the insider holds the token file: they write as ann through the store (sealed as ann would be)
    tokens = tmp_path / "tokens"
    tokens.write_text("ann 0123456789abcdef-ann-token\nbob 0123456789abcdef-bob-token\n")
    tokens.chmod(0o600)
    project = Project.open(audit / "review")
    try:
        store = project.store
        store.signed_in("personal", Credentials.from_file(tokens).seal_keys())
        nid = next(r["id"] for r in store.notes() if store.spans(r["id"], "ann"))
        unreview(store, nid, "ann")
    finally:
        project.close()
    code, err = _sign(audit, kit, capsys, "--supersede")  # an officer who trusts the team signs again
    assert code == 1 and "not signed" in err
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "ann's review changed after they signed it" in err


def _delete_a_real_find(audit) -> None:
    """Deletes a reviewer's find of a real identifier, not of a planted canary (the canaries fall where the
    plan's signed seed puts them, and deleting a canary's find is refused for the canaries' figures first),
    and chains the store's events again as a forger would."""
    planted = {(c["doc_id"], c["start"], c["end"]) for c in json.loads((audit / "audit.json").read_text())
               .get("canaries", []) if c["part"] == "review"}
    con = sqlite3.connect(audit / "review" / "review.sqlite")
    with con:
        finds = con.execute("SELECT a.id, n.doc_id, a.span_start, a.span_end FROM annotations a JOIN notes n "
                            "ON n.id = a.note_id WHERE a.origin = 'human' ORDER BY a.id").fetchall()
        first = next(i for i, *where in finds if tuple(where) not in planted)
        con.execute("DELETE FROM annotations WHERE id = ?", (first,))
    con.close()
    rechain(audit)


def test_a_re_chained_store_re_signed_by_the_officer_is_refused(audit, kit, capsys):
    _delete_a_real_find(audit)
    code, err = _sign(audit, kit, capsys, "--supersede")
    assert code == 1 and "forged reviews: the events under" in err and "not the ones" in err
    code, err = _verify(audit, kit, capsys)
    assert code == 1 and "forged reviews" in err


def test_a_report_with_warnings_still_names_the_forged_reviews_before_it_refuses(audit, kit, capsys):
    # the same forgery as above, in a report that also has a warning (another level than planned): the
    # refusal (exit 1, nothing signed) names the forged reviews first, then the warnings
    _delete_a_real_find(audit)
    before = (audit / "statement.json").read_bytes()
    code, err = _sign(audit, kit, capsys, "--level", "0.6", "--supersede")
    refusal = next(line for line in err.splitlines() if line.startswith("error: not signed:"))
    assert code == 1 and "confidence level (0.6) is not the signed plan's" in err
    assert re.search(r"review: forged reviews: the events under (\w+)'s name are not the ones \1 signed", refusal), err
    assert refusal.index("forged reviews") < refusal.index("the report has warnings")
    assert (audit / "statement.json").read_bytes() == before and not (audit / "superseded").exists()


def test_simulated_reviewers_named_like_people_fail_the_audit(kit, tmp_path, capsys):
    out = tmp_path / "simulated"
    planned(kit, out, tmp_path / "plan.json")
    assert main(["simulate", str(out), "--gold", kit[0], "--reviewers", "ann,bob"]) == 0
    code, err = _sign(out, kit, capsys)
    assert code == 1 and "ann is a simulated reviewer (audit simulate)" in err and "not signed" in err
    assert "forged reviews: ann's reviews are not signed with ann's key" in err  # named though it has warnings
    code, err = _verify(out, kit, capsys)
    assert code == 1 and "forged reviews: ann's reviews are not signed with ann's key" in err


def _clocked(mp, start):
    """A clock the test moves (``clock[0]``: minutes after ``start``) for the store's events."""
    clock = [0.0]
    mp.setattr(store_module, "now", lambda: (start + timedelta(minutes=clock[0])).isoformat(timespec="milliseconds"))
    return clock


def test_opening_every_note_at_once_does_not_count_reading_time_for_all(kit, tmp_path, capsys, monkeypatch):
    out = tmp_path / "stamped"
    assert main(["sample", kit[0], "--out", str(out), "--notes", "5", "--seed", "7", "--canaries", "0"]) == 0
    clock = _clocked(monkeypatch, datetime.now(UTC))
    project = Project.open(out / "review")
    try:
        store = project.store
        store.ensure_annotator("dee", "human")
        ids = [r["id"] for r in store.notes()]
        for nid in ids:  # every note opened (shown) at once through the API's store calls
            store.open(nid, "dee")
            store.shown(nid, "dee")
        clock[0] += 60  # an hour later: time enough to read all five, had they been read one by one
        for nid in ids:
            for sp in store.spans(nid, "dee")[:1]:
                store.update_span(sp["id"], "dee", status="accepted")
            store.finish(nid, "dee")
    finally:
        project.close()
    capsys.readouterr()
    assert main(["report", str(out), "--json", str(tmp_path / "r.json")]) == 1
    assert "dee finished 4 of 5 notes faster than 10 tokens a second while shown" in capsys.readouterr().err


def test_a_review_with_no_decision_and_an_edit_after_done_fail_the_audit(kit, tmp_path, capsys, monkeypatch):
    out = tmp_path / "idle"
    assert main(["sample", kit[0], "--out", str(out), "--notes", "4", "--seed", "7", "--canaries", "0"]) == 0
    clock = _clocked(monkeypatch, datetime.now(UTC))
    project = Project.open(out / "review")
    try:
        store = project.store
        for who in ("eve", "fay"):
            store.ensure_annotator(who, "human")
        rows = store.notes()
        for r in rows:  # eve reads every note (an hour each) and decides nothing
            store.open(r["id"], "eve")
            clock[0] += 60
            store.finish(r["id"], "eve")
        nid = next(r["id"] for r in rows if store.spans(r["id"], "model"))
        store.open(nid, "fay")
        clock[0] += 60
        sp = store.spans(nid, "fay")[0]
        store.update_span(sp["id"], "fay", status="accepted")
        store.finish(nid, "fay")
        store.update_span(sp["id"], "fay", status="deleted")  # after done, without reopening
    finally:
        project.close()
    capsys.readouterr()
    assert main(["report", str(out), "--json", str(tmp_path / "r.json")]) == 1
    err = capsys.readouterr().err
    assert "eve made no decision in 4 notes: a review with no decision is no review" in err
    assert "fay changed 1 review(s) after the note was done, without reopening it" in err
    assert json.loads((tmp_path / "r.json").read_text())["reviewing"]["failed"] == ["eve", "fay"]


def _shape(line: str, spans) -> re.Pattern:
    """A line of the notes as its surrogates may write it: its wording, any value where a span is. After an
    age, a hyphenated tail may be written with spaces (``103-year-old`` -> ``90+ year old``: crfdeid/deid/ages.py)."""
    pieces, at, before = [], 0, None
    for s, e, subtype in spans:
        pieces.append((line[at:s], before))
        at, before = e, subtype
    pieces.append((line[at:], before))
    out = []
    for text, before in pieces:
        head = re.match(r"\S*", text).group() if before == "AGE" else ""
        out.append(re.escape(head).replace(r"\-", "[- ]") + re.escape(text[len(head):]))
    return re.compile(".+?".join(out))


def test_canaries_are_not_found_by_the_old_templates_regex(honest, kit):
    """The insider's regex for the former canaries (three line templates, names from a list in the
    code) finds none; each canary line is a line of the release's notes with its identifiers
    replaced by surrogates."""
    m = json.loads((honest / "audit.json").read_text())
    assert m["canaries"]
    old = re.compile(r"^(Call back 555-01\d\d\.|MRN: \d{7}|Spoke with [A-Z][a-z]+ [A-Z][a-z]+ today\.)$")
    texts = {r["id"]: r["text"] for r in map(json.loads, open(kit[0].split(":", 1)[1]))}
    # each drawn note's lines with identifiers, as patterns: their wording, any value
    shapes = [_shape(line, spans) for n in m["notes"]
              for line, spans in canary.lines(texts[n["doc_id"]], [tuple(x) for x in n["model_spans"]])]
    for c in m["canaries"]:
        project = Project.open(honest / c["part"])
        try:
            nid = next(r["id"] for r in project.store.notes() if r["doc_id"] == c["doc_id"])
            line = project.store.note(nid)["body"][c["at"]:c["at"] + c["length"]].strip("\n")
        finally:
            project.close()
        assert not old.match(line)
        assert any(p.fullmatch(line) for p in shapes)  # a line of the notes, its identifiers replaced


def test_reading_time_stops_while_the_page_is_hidden(kit, tmp_path, monkeypatch):
    pytest.importorskip("fastapi", reason="the review extra is not installed")
    pytest.importorskip("httpx", reason="httpx is needed by FastAPI's test client")
    from fastapi.testclient import TestClient

    from crfdeid.audit import diligence
    from crfdeid.review.server import create_app

    out = tmp_path / "hidden"
    assert main(["sample", kit[0], "--out", str(out), "--notes", "1", "--seed", "7", "--canaries", "0"]) == 0
    clock = _clocked(monkeypatch, datetime.now(UTC))
    project = Project.open(out / "review")
    try:
        c = TestClient(create_app(project, hosts=("testserver",)))
        h = {"X-Annotator": "gus"}
        nid = project.store.notes()[0]["id"]
        assert c.post(f"/api/notes/{nid}/open", headers=h, json={}).status_code == 200
        clock[0] += 1
        assert c.post(f"/api/notes/{nid}/hidden", headers=h, json={}).json() == {"hidden": True}
        clock[0] += 60  # an hour in another tab
        assert c.post(f"/api/notes/{nid}/shown", headers=h, json={}).json() == {"shown": True}
        clock[0] += 2
        assert c.post(f"/api/notes/{nid}/done", headers=h, json={}).status_code == 200
    finally:
        project.close()
    gus = diligence.reviewing(out, json.loads((out / "audit.json").read_text()))["by_reviewer"]["gus"]
    assert gus["median_seconds"] == 180.0  # 1 + 2 minutes shown; the hour hidden does not count
