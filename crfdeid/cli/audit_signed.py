"""The officer's signatures of an audit, checked (``audit verify --key --ledger``) and made
(``audit report --sign --ledger``): the signed plan (:mod:`crfdeid.audit.plan`), the statement
(:mod:`crfdeid.audit.statement`) and the officer's ledger (:mod:`crfdeid.audit.register`).

Without ``--key`` the statement is not checked, and that is a failure of ``verify`` (only
``--evidence-only`` asks not to check it); without ``--ledger`` a replay cannot be told, and
that is a failure too.
"""

from __future__ import annotations

from ..audit import plan as audit_plan
from ..audit import register, statement
from ..audit import report as audit_report
from ..audit import sample as audit_sample
from ..deid import signing
from ..errors import ConfigError


def check(folder, result: dict, key_path, ledger_path) -> dict[str, list]:
    """``{check name: [difference]}`` of the audit's signatures (``result``: the evidence
    recomputed, :func:`crfdeid.cli.audit.checked`)."""
    if not key_path:
        return {"statement": ["the signed statement was not checked: no --key (the officer's public key, "
                              "officer.key.pub); --evidence-only recomputes the evidence alone and says so"]}
    officer = signing.load_public(key_path)
    manifest = audit_sample.load(folder)
    out: dict[str, list] = {"plan": audit_plan.check(manifest, officer)}
    out["reviews"] = audit_plan.reviews(folder, manifest) if not out["plan"] else []
    out["statement"] = statement.check(folder, manifest, officer, figures=lambda level: audit_report.compute(
        folder, level or 0.95, checked=result))
    if not ledger_path:
        out["ledger"] = ["not checked against the officer's ledger (--ledger): an older statement put back with its "
                         "audit (a replay) cannot be told"]
        return out
    release = manifest["release"]["digest"]
    out["ledger"] = register.check(ledger_path, officer, "plan", manifest.get("plan"), release)
    st = statement.load(folder)
    if st is not None and st.get("format") == statement.FORMAT:
        out["ledger"] += register.check(ledger_path, officer, "statement", st, release)
    return out


def sign(folder, manifest: dict, report: dict, key_path, ledger_path, supersede: bool) -> str | None:
    """Sign the audit's statement and record it in the ledger; returns why it was refused, or
    None when signed. A report with warnings is refused last, after the plan, the ledger and the
    reviews are checked, so that the refusal still names forged reviews (a reviewer's reviews
    their key does not prove) and does not stop at "the report has warnings"."""
    if not ledger_path:
        return "--sign needs --ledger (the officer's ledger, outside the audit folder): a statement not recorded " \
               "there could be replaced or put back unseen"
    key = signing.load_private(key_path)
    public = key.public_key()
    problems = audit_plan.check(manifest, public)
    release = manifest["release"]["digest"]
    if not problems:
        problems = register.check(ledger_path, public, "plan", manifest.get("plan"), release)
    if not problems:  # the plan's reviewer keys are the officer's only once the plan holds
        problems = [f"{r['part']}: {r['what']}" for r in audit_plan.reviews(folder, manifest)]
    if report["warnings"]:
        problems = [*problems, "the report has warnings (above); a report is signed when it has none"]
    if problems:
        return "; ".join(problems)
    try:
        signed = statement.sign(folder, manifest, report, key, supersede)
    except ConfigError as exc:
        return str(exc)
    register.append(ledger_path, key, "statement", signed, release, folder)
    return None
