"""The attacks of issue 60, each performed as a hostile insider at the data holder would (runs
every command, writes the store, holds the token file; never the officer's or a reviewer's
private key): each ends in ``audit verify`` failing, or signing refused, with a message naming
it; the honest audit verifies and signs. Synthetic notes only."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil

import pytest
from audit_kit import officer_kit, planned

from crfdeid.audit import report as audit_report
from crfdeid.audit import sample as audit_sample
from crfdeid.cli.audit import checked, main
from crfdeid.deid.signing import new_pair


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    return officer_kit(tmp_path_factory.mktemp("attacks"))


@pytest.fixture(scope="module")
def honest(kit):
    """An audit drawn from the officer's plan, reviewed and signed; the ledger as it was then."""
    spec, _, key, _, ledger = kit
    out = key.parent / "honest"
    planned(kit, out, key.parent / "plan.json")
    assert main(["simulate", str(out), "--gold", spec, "--reviewers", "ann,bob"]) == 0
    assert main(["report", str(out), "--sign", str(key), "--ledger", str(ledger), "--json", "/dev/null"]) == 0
    shutil.copy(ledger, key.parent / "ledger-honest.jsonl")
    return out


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


def test_draw_shopping_with_a_chosen_seed_is_refused_and_named(kit, tmp_path, capsys):
    out = tmp_path / "seeded"
    assert main(["sample", kit[0], "--out", str(out), "--notes", "6", "--double", "2", "--seed", "197",
                 "--release-output", str(kit[1])]) == 0
    assert main(["simulate", str(out), "--gold", kit[0], "--reviewers", "ann,bob"]) == 0
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


def test_a_report_at_another_level_than_planned_is_a_warning_and_not_signed(audit, kit, tmp_path, capsys):
    capsys.readouterr()
    assert main(["report", str(audit), "--level", "0.6", "--json", str(tmp_path / "r.json")]) == 1
    assert "confidence level (0.6) is not the signed plan's (0.95)" in capsys.readouterr().err
    code, err = _sign(audit, kit, capsys, "--level", "0.6", "--supersede")
    assert code == 1 and "not signed" in err


def test_verify_without_the_key_fails_and_the_report_never_says_passed(audit, kit, capsys):
    st = json.loads((audit / "statement.json").read_text())
    st["body"]["figures"]["identifiers"]["missed"] = 0
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
