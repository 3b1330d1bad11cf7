"""The officer's ledger: every plan and statement they signed, append-only, outside the audit
folder.

An audit folder can be put back as it was: an older audit with its older signed statement
verifies on its own, though a newer statement was signed for the release since. The officer
therefore keeps a ledger (a file they name, e.g. ``~/audits.ledger``, never inside an audit
folder): one JSON line per signature, each with the digest of what was signed, its kind
(``plan``, ``statement``), the release's digest, the hash of the line before it (a line
deleted or rewritten breaks the chain) and the officer's Ed25519 signature over the entry.
``audit verify --ledger`` refuses a statement or plan the ledger does not hold, an older one
for a release that has a newer one (a replay), and a plan signed more than once for the
same release without the audit being of the last one (draw shopping by plans).
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from ..deid import signing
from ..errors import ConfigError

GENESIS = "0" * 64


def digest(signed: dict) -> str:
    """The digest of a signed plan or statement as the ledger records it, and of a ledger line as the next one
    chains it (``prev``)."""
    return hashlib.sha256(signing.canonical(signed)).hexdigest()


def _outside(path: Path, folder) -> None:
    if folder is not None:
        inside = Path(folder).resolve()
        if path.resolve() == inside or inside in path.resolve().parents:
            raise ConfigError("the officer's ledger must live outside the audit folder (whoever holds the "
                              "folder could put an older ledger back with it)", path=path)


def entries(path) -> list[dict]:
    """The ledger's entries, in order (an empty list when the file does not exist yet)."""
    path = Path(path)
    if not path.exists():
        return []
    out = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError:
                raise ConfigError(f"line {i} of the officer's ledger is not JSON", path=path) from None
    return out


def append(path, key, kind: str, signed: dict, release_digest: str, folder=None) -> dict:
    """Record that the officer (``key``: their private key) signed ``signed`` (a plan or a
    statement) for the release; returns the entry."""
    path = Path(path)
    _outside(path, folder)
    have = entries(path)
    problems = chain(have, signing.public_hex(key))
    if problems:
        raise ConfigError(f"the officer's ledger does not hold together ({problems[0]}): not signed", path=path)
    body = {"seq": len(have) + 1, "at": datetime.now(UTC).isoformat(timespec="seconds"), "kind": kind,
            "release_digest": release_digest, "digest": digest(signed),
            "prev": digest(have[-1]) if have else GENESIS}
    entry = dict(body, signature=signing.sign(key, body))
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, sort_keys=True) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return entry


def chain(have: list[dict], officer_hex: str) -> list[str]:
    """What breaks the ledger: a line out of order, re-chained or not signed by the officer."""
    prev = GENESIS
    for i, e in enumerate(have, 1):
        body = {k: v for k, v in e.items() if k != "signature"}
        if e.get("seq") != i or e.get("prev") != prev:
            return [f"entry {i} does not follow entry {i - 1}: a line was deleted, moved or rewritten"]
        if not signing.verify(officer_hex, body, e.get("signature")):
            return [f"entry {i} is not signed by the officer's key"]
        prev = digest(e)
    return []


def check(path, officer, kind: str, signed: dict | None, release_digest: str) -> list[str]:
    """Why ``signed`` (the audit's plan or statement) is not the officer's last word on the
    release, by the ledger at ``path``; empty when it is."""
    have = entries(path)
    broken = chain(have, signing.public_hex(officer))
    if broken:
        return [f"the officer's ledger does not hold together: {broken[0]}"]
    if signed is None:
        return []
    mine = digest(signed)
    same = [e for e in have if e["kind"] == kind and e["release_digest"] == release_digest]
    at = [e["seq"] for e in same if e["digest"] == mine]
    if not at:
        return [f"the audit's {kind} is not in the officer's ledger: the officer did not sign it, or signed it "
                "outside their ledger"]
    if same[-1]["digest"] != mine:
        later = same[-1]
        what = "replay" if kind == "statement" else "draw shopping"
        return [f"{what}: the audit's {kind} (ledger entry {at[-1]}) is older than the officer's last {kind} for "
                f"this release (entry {later['seq']}, {later['at']}): a newer {kind} was signed since"]
    return []


def count(path, kind: str, release_digest: str) -> int:
    """How many ``kind`` the ledger holds for the release."""
    return sum(e["kind"] == kind and e["release_digest"] == release_digest for e in entries(path))
