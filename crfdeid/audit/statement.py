"""The officer's signed statement: what an audit's report rests on, under the officer's Ed25519
key (:mod:`crfdeid.deid.signing`), so that the evidence cannot be rewritten after the report is
signed and nobody without the private key can sign.

``audit report AUDIT --sign officer.key --ledger FILE`` writes ``AUDIT/statement.json``: the
digests of the manifest, the release, the model and its config, the run manifest of the output,
the signed plan's signature, the seed, each review store's log head, event count and settings
digest, and the report's figures and level, with the officer's signature over all of it; the
officer's ledger (:mod:`crfdeid.audit.register`) records it. A statement already there is never
replaced silently (``--supersede`` moves it to ``AUDIT/superseded/``). ``audit verify AUDIT --key
officer.key.pub --ledger FILE`` checks the signature with the public key, the plan
(:mod:`crfdeid.audit.plan`), that each store still ends at the signed head (an event after
signing is named, a store with fewer events or another event at the signed position was rolled
back or re-chained), that the figures recomputed now at the signed level are the figures signed,
and that the statement is the ledger's last for the release. A statement of the former format
(``crfdeid-audit-statement/1``, an HMAC: whoever can check it can make it) is never taken as
signed by the officer. What it cannot tell: a forgery made *before* signing that leaves no trace
in the stores' own checks or the reviewers' signed reviews.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

from ..deid import signing
from ..errors import ConfigError
from ..io import atomic_write
from ..io.runmanifest import sha256_file
from ..review import ledger
from ..review.project import Project
from . import register
from .sample import MANIFEST

STATEMENT = "statement.json"
FORMAT = "crfdeid-audit-statement/2"
#: The former format: an HMAC, which whoever can check can make (read, never taken as signed).
LEGACY = "crfdeid-audit-statement/1"
SUPERSEDED = "superseded"
#: The report's figures a statement holds (and verify recomputes).
FIGURES = ("identifiers", "recall", "rates", "projection", "notes_with_residual", "reviewers", "reviewer_tokens",
           "reviewer_misses", "reviewing", "canaries")


def stores(folder, manifest: dict) -> dict:
    """``{part: {"head", "events", "settings"}}`` of the audit's review stores now."""
    out = {}
    for part in sorted(manifest["sample"]["projects"]):
        project = Project.open(Path(folder) / part)
        try:
            db = project.store.db
            head = db.one("SELECT hash, events FROM log_head WHERE id = 1")
            out[part] = {"head": head["hash"] if head else None, "events": int(head["events"]) if head else 0,
                         "settings": ledger.settings_digest(db.query)}
        finally:
            project.close()
    return out


def body(folder, manifest: dict, report: dict) -> dict:
    """What the statement signs (see the module docstring)."""
    folder = Path(folder)
    return {"audit_json_sha256": sha256_file(folder / MANIFEST), "release_digest": manifest["release"]["digest"],
            "model_sha256": manifest["model"]["sha256"], "config_sha256": manifest["model"]["config_sha256"],
            "output": manifest.get("output_run"), "seed": manifest["sample"]["seed"],
            "seed_from": manifest["sample"].get("seed_from", "given"), "level": report["level"],
            "stores": stores(folder, manifest), "figures": {k: report.get(k) for k in FIGURES}}


def sign(folder, manifest: dict, report: dict, key, supersede: bool = False) -> dict:
    """Write ``AUDIT/statement.json`` signed with the officer's private ``key``; returns it.

    Raises
    ------
    ConfigError
        The audit has a statement already and ``supersede`` is not given (a statement is never
        replaced silently; with it the old one moves to ``AUDIT/superseded/``).
    """
    folder = Path(folder)
    path = folder / STATEMENT
    if path.exists() and not supersede:
        raise ConfigError("the audit has a signed statement already: a statement is never replaced silently "
                          "(--supersede keeps the old one in superseded/ and the ledger records both)", path=path)
    signed = body(folder, manifest, report)
    signed["plan_signature"] = (manifest.get("plan") or {}).get("signature")
    old = load(folder) if path.exists() else None
    if old is not None:  # the new statement names the one it replaces, so the two differ even signed in one second
        signed["supersedes"] = register.digest(old.get("body") or {})
    out = {"format": FORMAT, "signed_at": datetime.now(UTC).isoformat(timespec="seconds"),
           "key": signing.public_hex(key), "key_id": signing.key_id(key), "body": signed,
           "signature": signing.sign(key, signed)}
    if old is not None:
        (folder / SUPERSEDED).mkdir(mode=0o700, exist_ok=True)
        stem = f"statement-{str(old.get('signed_at', 'old')).replace(':', '')}"
        kept, n = folder / SUPERSEDED / f"{stem}.json", 1
        while kept.exists():  # two statements superseded within one second: neither is overwritten
            n += 1
            kept = folder / SUPERSEDED / f"{stem}-{n}.json"
        shutil.move(path, kept)
    atomic_write(path, json.dumps(out, indent=1, default=str) + "\n")
    return out


def load(folder) -> dict | None:
    """The statement of the audit, or ``None`` when it has none."""
    path = Path(folder) / STATEMENT
    if not path.exists():
        return None
    try:
        out = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise ConfigError("the signed statement is not valid JSON", path=path) from None
    if not isinstance(out, dict) or out.get("format") not in (FORMAT, LEGACY):
        raise ConfigError(f"not a {FORMAT} statement", path=path)
    return out


def check(folder, manifest: dict, officer, figures=None) -> list[dict]:
    """``[{"doc_id", "part", "what"}]``: every way the audit differs from its signed statement
    (``officer``: the officer's public key); ``figures``: a callable giving the report
    recomputed now at a level."""
    folder = Path(folder)
    out: list[dict] = []

    def differ(what, part=None, doc_id=None):
        out.append({"doc_id": doc_id, "part": part, "what": what})

    st = load(folder)
    if st is None:
        differ(f"the audit has no signed statement ({STATEMENT}; `audit report --sign`)")
        return out
    if st.get("format") == LEGACY:
        differ("the statement is a legacy HMAC statement (crfdeid-audit-statement/1): whoever can check an HMAC "
               "can make one, so it is not signed by the officer; sign again with an Ed25519 key "
               "(`key new FILE --for officer`)")
        return out
    if st.get("key") != signing.public_hex(officer):
        differ("the statement was signed with another key than the officer's")
        return out
    signed = st.get("body") or {}
    if not signing.verify(officer, signed, st.get("signature")):
        differ("the statement was edited after it was signed (its signature does not hold)")
        return out
    release = manifest["release"]["digest"]
    mine = {"audit_json_sha256": sha256_file(folder / MANIFEST), "release_digest": release,
            "model_sha256": manifest["model"]["sha256"], "config_sha256": manifest["model"]["config_sha256"],
            "output": manifest.get("output_run"), "seed": manifest["sample"]["seed"],
            "plan_signature": (manifest.get("plan") or {}).get("signature")}
    for k, v in mine.items():
        if signed.get(k) != v:
            differ(f"{k} differs from the signed statement (signed {_short(signed.get(k))}, now {_short(v)})")
    planned = ((manifest.get("plan") or {}).get("body") or {}).get("level")
    if planned is not None and signed.get("level") != planned:
        differ(f"the statement's confidence level ({signed.get('level')}) is not the signed plan's ({planned})")
    current = stores(folder, manifest)
    for part, was in sorted((signed.get("stores") or {}).items()):
        _store(folder, part, was, current.get(part), differ)
    if figures is not None and signed.get("figures") is not None:
        report = figures(signed.get("level"))
        for k in FIGURES:
            if json.dumps(report.get(k), sort_keys=True, default=str) != \
                    json.dumps(signed["figures"].get(k), sort_keys=True, default=str):
                differ(f"the report's {k} recomputed now differ from the signed figures")
    return out


def _short(v) -> str:
    s = str(v)
    return s[:12] if len(s) == 64 else s


def _store(folder: Path, part: str, was: dict, now: dict | None, differ) -> None:
    """Name how one store moved from its signed head."""
    if now is None:
        differ("the review store signed is gone", part)
        return
    if now["settings"] != was["settings"]:
        differ("the project's settings differ from those signed", part)
    n = int(was["events"])
    if now["events"] < n:
        differ(f"the store's log has {now['events']} events, {n} when signed: an older copy of the store", part)
        return
    project = Project.open(folder / part)
    try:
        db = project.store.db
        row = db.one(f"SELECT hash FROM audit WHERE hash IS NOT NULL ORDER BY id LIMIT 1 OFFSET {n - 1}") \
            if n else None
        if n and (row is None or row["hash"] != was["head"]):
            differ(f"event {n} of the store's log is not the one signed: the log was rewritten and re-chained, "
                   "or the store replaced", part)
        later = db.query(f"SELECT a.id, a.who, a.action, n.doc_id FROM audit a LEFT JOIN notes n ON n.id = a.note_id "
                         f"WHERE a.hash IS NOT NULL ORDER BY a.id LIMIT {1 << 62} OFFSET {n}")
        for r in later:
            differ(f"event {r['id']} after signing: {r['who']} {r['action']}", part, r["doc_id"])
    finally:
        project.close()
