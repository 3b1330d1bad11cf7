"""A reviewer's signature over their own reviews: proof that the events under their name are
theirs, with a secret only they hold.

The seals of :mod:`crfdeid.review.ledger` are keyed by the reviewer's token, which the review
app and whoever holds the token file also hold: they can seal events as anyone. Here each
reviewer has an Ed25519 key pair (``python -m crfdeid key new ann.key --for reviewer``): the
private key stays with them; the officer's signed audit plan names their public key
(``audit plan --reviewer ann=ann.key.pub``). When done, the reviewer signs
(``python -m crfdeid review sign PROJECT --name ann --key ann.key``): a ``sign_reviews`` event
holding the digest of every event of theirs in the log (their hashes, in order), the project's
audit tag and their signature. :func:`check` then names a reviewer the plan does not name, a
review nobody signed, events under a reviewer's name they did not sign (written after, or the log
re-chained), and a signature that does not hold. The store and its writer keep public keys only.
"""

from __future__ import annotations

import hashlib
import json

from ..deid import signing
from .store import Store

ACTION = "sign_reviews"
FORMAT = "crfdeid-review-receipt/1"
#: Events that are a person's reviewing (what their signature covers).
_REVIEWING = frozenset({"open", "shown", "hidden", "add_span", "update_span", "delete_span", "accept_all", "done",
                        "release", "reopen", "decide", "adjudicated", "reopen_adjudication"})


def _theirs(store: Store, who: str) -> list[dict]:
    return [r for r in store.db.query("SELECT id, who, action, hash, detail FROM audit WHERE who = ? ORDER BY id",
                                      (who,)) if r["action"] in _REVIEWING]


def body(store: Store, who: str, events: list[dict] | None = None) -> dict:
    """What a reviewer signs: the digest of their events' hashes, their count, the audit tag."""
    events = _theirs(store, who) if events is None else events
    digest = hashlib.sha256("\n".join(str(r["hash"]) for r in events).encode("ascii")).hexdigest()
    return {"format": FORMAT, "who": who, "audit": store.setting("audit"), "events": len(events), "digest": digest}


def sign(store: Store, who: str, key) -> dict:
    """Sign ``who``'s reviews with their private ``key``; returns what was signed."""
    signed = body(store, who)
    with store.db.write() as run:
        store.audit(run, who, ACTION, None, receipt=signed, key=signing.public_hex(key),
                    signature=signing.sign(key, signed))
    return signed


def check(store: Store, keys: dict[str, str]) -> list[dict]:
    """``[{"who", "what"}]``: each person whose reviewing in ``store`` their own key (``keys``:
    ``{name: public key hex}`` from the officer's plan) does not prove."""
    out = []
    humans = {a["name"] for a in store.annotators() if a["kind"] == "human"}
    receipts = store.db.query("SELECT who, detail FROM audit WHERE action = ? ORDER BY id", (ACTION,))
    for who in sorted(humans):
        events = _theirs(store, who)
        if not events:
            continue
        if who not in keys:
            out.append({"who": who, "what": f"forged reviews: {who} reviewed ({len(events)} events) but is not a "
                                             "reviewer the officer's plan names with a public key: nobody can "
                                             "prove these reviews are a person's"})
            continue
        mine = [json.loads(r["detail"] or "{}") for r in receipts if r["who"] == who]
        valid = [d for d in mine if d.get("key") == keys[who] and (d.get("receipt") or {}).get("who") == who
                 and signing.verify(keys[who], d.get("receipt") or {}, d.get("signature"))]
        if not valid:
            out.append({"who": who, "what": f"forged reviews: {who}'s reviews are not signed with {who}'s key "
                                            f"(`review sign --name {who}`)" + (" (a signature there does not hold)"
                                                                                if mine else "")})
            continue
        last = valid[-1]["receipt"]
        n = int(last.get("events", 0))
        if last.get("audit") != store.setting("audit"):
            out.append({"who": who, "what": f"{who}'s signature is of another audit's project"})
        elif body(store, who, events[:n])["digest"] != last.get("digest"):
            out.append({"who": who, "what": f"forged reviews: the events under {who}'s name are not the ones {who} "
                                            "signed (written in their name, or the log re-chained)"})
        elif len(events) > n:
            out.append({"who": who, "what": f"{who}'s review changed after they signed it ({len(events) - n} "
                                            "event(s) they did not sign)"})
    return out
