"""The officer's signed statement: what an audit's report rests on, under a key the data
holder does not hold, so that the evidence cannot be rewritten after the report is signed.

``audit report AUDIT --sign officer.key`` writes ``AUDIT/statement.json``: the digests of the
manifest, the release, the model and its config, the run manifest of the output when there
is one, the seed and how it was fixed, each review store's log head, event count and settings
digest, and the report's figures, with an HMAC-SHA256 over all of it under the officer's key
(a ``python -m crfdeid key new FILE --for officer`` file). ``audit verify AUDIT --key officer.key`` checks the
MAC, that the seed is the one the key and the release fix (:func:`seed_for`: no seed
shopping), that each store still ends at the signed head (an event after signing is named, a
store with fewer events or another event at the signed position was rolled back or re-chained),
and that the figures recomputed now are the figures signed. What it cannot tell: a forgery
made *before* signing that leaves no trace in the stores' own checks (the seals of
:mod:`crfdeid.review.ledger`, checked with the token file, cover how people signed in).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime
from pathlib import Path

from ..errors import ConfigError
from ..io import atomic_write
from ..review import ledger
from ..review.project import Project
from .sample import MANIFEST, seed_for, sha256_file

STATEMENT = "statement.json"
FORMAT = "crfdeid-audit-statement/1"
#: The report's figures a statement holds (and verify recomputes).
FIGURES = ("identifiers", "recall", "rates", "projection", "notes_with_residual", "reviewers", "reviewer_tokens",
           "reviewer_misses", "reviewing", "canaries")


def key_id(key: bytes) -> str:
    """A name of the key that tells nothing of it (16 hexadecimal digits)."""
    return hmac.new(key, b"crfdeid-audit-key-id", hashlib.sha256).hexdigest()[:16]


def _mac(key: bytes, body: dict) -> str:
    return hmac.new(key, json.dumps(body, sort_keys=True, default=str).encode("utf-8"), hashlib.sha256).hexdigest()


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


def sign(folder, manifest: dict, report: dict, key: bytes) -> dict:
    """Write ``AUDIT/statement.json`` (a new one replaces the last); returns it."""
    signed = body(folder, manifest, report)
    out = {"format": FORMAT, "signed_at": datetime.now(UTC).isoformat(timespec="seconds"), "key_id": key_id(key),
           "body": signed, "mac": _mac(key, signed)}
    atomic_write(Path(folder) / STATEMENT, json.dumps(out, indent=1, default=str) + "\n")
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
    if not isinstance(out, dict) or out.get("format") != FORMAT:
        raise ConfigError(f"not a {FORMAT} statement", path=path)
    return out


def check(folder, manifest: dict, key: bytes, figures=None) -> list[dict]:
    """``[{"doc_id", "part", "what"}]``: every way the audit differs from its signed statement
    (the seed included); ``figures``: a callable giving the report recomputed now at a level."""
    folder = Path(folder)
    out: list[dict] = []

    def differ(what, part=None, doc_id=None):
        out.append({"doc_id": doc_id, "part": part, "what": what})

    release = manifest["release"]["digest"]
    if manifest["sample"]["seed"] != seed_for(key, release):
        differ("the sample's seed is not the one the officer's key fixes for this release (`audit sample --key`): "
               "it could have been chosen after seeing draws")
    st = load(folder)
    if st is None:
        differ(f"the audit has no signed statement ({STATEMENT}; `audit report --sign`)")
        return out
    if st.get("key_id") != key_id(key):
        differ("the statement was signed with another key")
        return out
    signed = st.get("body") or {}
    if not hmac.compare_digest(str(st.get("mac")), _mac(key, signed)):
        differ("the statement was edited after it was signed (its MAC does not match)")
        return out
    mine = {"audit_json_sha256": sha256_file(folder / MANIFEST), "release_digest": release,
            "model_sha256": manifest["model"]["sha256"], "config_sha256": manifest["model"]["config_sha256"],
            "output": manifest.get("output_run"), "seed": manifest["sample"]["seed"]}
    for k, v in mine.items():
        if signed.get(k) != v:
            differ(f"{k} differs from the signed statement (signed {_short(signed.get(k))}, now {_short(v)})")
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
