"""The audit's plan, signed by the officer before the draw: every choice fixed before anyone
sees a sample.

A seed the officer's key fixed left the rest free: strata, length bins, sample size, the
double part, the canaries, and the release itself, so whoever draws could try settings
offline until a draw missed the leaky notes. ``audit plan --sign officer.key`` signs all of
it first: the release's digest, the digest of the run manifest of the whole output that
leaves, the model, the sample size, the double part, the strata and bins, the confidence
level, the canary count and the reviewers' public keys. The draw's seed is derived from the
plan's signature (:func:`seed_of`): Ed25519 signatures are deterministic, so the seed is fixed
by the plan, unknown until the officer signs it, and anyone with the officer's public key
checks it. Each plan is recorded in the officer's ledger (:mod:`crfdeid.audit.register`), so
plans signed again and again until one drew well are seen.

``audit verify --key officer.pub`` (:func:`check`) refuses an audit with no plan, a plan not
signed by that key or edited since, a seed not the plan's, and draw settings or a release or
output that differ from the plan's.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

from ..deid import signing
from ..errors import ConfigError
from ..review import receipts
from ..review.project import Project

FORMAT = "crfdeid-audit-plan/1"
#: The sample's settings a plan fixes, by their name in ``audit.json``'s ``sample``.
DRAW = ("size", "double", "strata", "canaries")


def make(key, *, release_digest: str, release_notes: int, output_manifest_sha256: str, model_sha256: str,
         size: int, double: int, strata: dict, level: float, canaries: int, output: str,
         reviewers: dict[str, str] | None = None, target: dict | None = None) -> dict:
    """The signed plan (``key``: the officer's private key)."""
    if not 0 < size <= release_notes:
        raise ConfigError(f"a sample of {size} notes from a release of {release_notes}")
    if not 0 <= double <= size:
        raise ConfigError(f"the double-review part ({double}) must lie between 0 and the sample size ({size})")
    body = {"format": FORMAT, "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "release_digest": release_digest, "release_notes": release_notes,
            "output_manifest_sha256": output_manifest_sha256, "model_sha256": model_sha256, "output": output,
            "size": size, "double": double, "strata": strata, "level": level, "canaries": canaries,
            "reviewers": dict(sorted((reviewers or {}).items())), "target": target}
    return {"body": body, "key": signing.public_hex(key), "key_id": signing.key_id(key),
            "signature": signing.sign(key, body)}


def seed_of(plan: dict) -> int:
    """The draw's seed, from the plan's signature (1 .. 2**31 - 1).

    >>> seed_of({"signature": "00" * 64}) == seed_of({"signature": "00" * 64}) != seed_of({"signature": "01" * 64})
    True
    """
    h = hashlib.sha256(b"crfdeid-audit-seed:" + bytes.fromhex(plan["signature"])).digest()
    return int.from_bytes(h[:8], "big") % (2**31 - 1) + 1


def load(path) -> dict:
    """A signed plan from its file (checked against its own key: an edited plan is refused)."""
    try:
        plan = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the signed plan: {exc}", path=path) from None
    if not isinstance(plan, dict) or (plan.get("body") or {}).get("format") != FORMAT:
        raise ConfigError(f"not a {FORMAT} plan (`audit plan --sign`)", path=path)
    if not signing.verify(plan.get("key", ""), plan["body"], plan.get("signature")):
        raise ConfigError("the plan's signature does not hold: it was edited after it was signed", path=path)
    return plan


def check(manifest: dict, officer) -> list[str]:
    """What differs between the audit and its signed plan (``officer``: the officer's public
    key); empty when the audit was drawn as the officer planned."""
    plan = manifest.get("plan")
    if not plan:
        return ["draw shopping: the audit was not drawn from a plan the officer signed (`audit plan --sign`, "
                "`audit sample --plan`): its seed and settings could have been chosen after seeing draws"]
    body = plan.get("body") or {}
    if plan.get("key") != signing.public_hex(officer):
        return ["the audit's plan was signed with another key than the officer's"]
    if not signing.verify(officer, body, plan.get("signature")):
        return ["the audit's plan was edited after the officer signed it (its signature does not hold)"]
    out = []
    s = manifest["sample"]
    if s.get("seed") != seed_of(plan) or s.get("seed_from") != "plan":
        out.append("draw shopping: the sample's seed is not the one the signed plan fixes (a chosen --seed)")
    mine = {k: s.get(k) for k in DRAW}
    for k in DRAW:
        if json.dumps(mine[k], sort_keys=True) != json.dumps(body.get(k), sort_keys=True):
            out.append(f"draw shopping: the draw's {k} ({_short(mine[k])}) is not the signed plan's "
                       f"({_short(body.get(k))})")
    if manifest["release"]["digest"] != body.get("release_digest"):
        out.append("audit of something else: the audit's release is not the release the plan signed "
                   "(its digest differs)")
    run = manifest.get("output_run") or {}
    if run.get("manifest_sha256") != body.get("output_manifest_sha256"):
        out.append("audit of something else: the output the audit is of is not the output the plan signed "
                   "(its run manifest's digest differs)")
    if manifest["model"]["sha256"] != body.get("model_sha256"):
        out.append("the audit's model is not the model the plan signed")
    return out


def reviews(folder, manifest: dict) -> list[dict]:
    """``[{"doc_id", "part", "what"}]``: each reviewer whose reviews their own key, named in the
    signed plan, does not prove (:func:`crfdeid.review.receipts.check`)."""
    keys = (((manifest.get("plan") or {}).get("body") or {}).get("reviewers")) or {}
    out = []
    for part in sorted(manifest["sample"]["projects"]):
        project = Project.open(Path(folder) / part)
        try:
            out += [{"doc_id": None, "part": part, "what": r["what"]} for r in receipts.check(project.store, keys)]
        finally:
            project.close()
    return out


def _short(v) -> str:
    s = json.dumps(v, sort_keys=True)
    return s if len(s) <= 60 else s[:57] + "..."
