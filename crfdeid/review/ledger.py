"""The review store's append-only event log, chained by hash, and its check.

Every write of the store appends one event (who, what, when, the note, offsets, types and
counts: never note text) in the same transaction as the change. Each event carries

- ``prev``, the hash of the event before it, and ``hash``, the SHA-256 of ``prev`` and the
  event itself: an event deleted or rewritten breaks the chain at the next one;
- ``state``, a digest per *scope* the event changed (a person's review of the note, the
  model's suggestions, the adjudication, the surrogates, the note's text): the digest of
  those rows as the event left them. A row changed without an event (an edit of the
  database by hand) no longer matches the last digest of its scope.

An event written for a person signed in with their own token carries a *seal* in its detail:
an HMAC-SHA256 of the event (time, who, action, note, detail, scopes, digests) under a key
derived from that person's token (:func:`crfdeid.review.credentials.seal_key`), which the store
never holds. Whoever rewrites ``detail.auth`` and re-chains cannot seal the event; checked with
the token file (``audit verify --tokens``), an event that claims a personal sign-in without a
valid seal is named. A settings change is an event too (``setting``, with the digest of every
setting after it): settings changed without one no longer match the last.

The log refuses ``UPDATE`` and ``DELETE`` (a trigger). The head of the chain (last hash and
number of events) is kept in ``log_head``; the row
lock taken on it orders concurrent writers (PostgreSQL) and SQLite's ``BEGIN IMMEDIATE``
does the same. What the log cannot tell: a store rolled back as a whole (tables, log and
head together) to an earlier consistent state; the audit manifest's digests and the draw
(``crfdeid audit verify``) catch that for the notes of an audit, and the officer's signed
statement (:mod:`crfdeid.audit.statement`) for a store rolled back after signing.
"""

from __future__ import annotations

import hashlib
import hmac
import json

from .records import ADJUDICATION, MODEL

GENESIS = "0" * 64
#: Scopes that are not a person's review.
NOTE, SURROGATES = "#note", "#surrogates"
#: Events that change a person's review of a note (``open`` only copies the suggestions).
REVIEW_CHANGES = frozenset({"add_span", "update_span", "delete_span", "accept_all", "done", "release", "reopen"})
_ADJUDICATION = frozenset({"decide", "adjudicated", "reopen_adjudication"})
_COLUMNS = ("scope", "state", "prev", "hash")


#: The log refuses UPDATE and DELETE (a hand edit has to drop the trigger first; the chain
#: still tells what it changed).
_TRIGGERS = {
    "sqlite": ["CREATE TRIGGER IF NOT EXISTS audit_append_only BEFORE UPDATE ON audit "
               "BEGIN SELECT RAISE(ABORT, 'the review log is append-only'); END",
               "CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit "
               "BEGIN SELECT RAISE(ABORT, 'the review log is append-only'); END"],
    "postgres": ["CREATE OR REPLACE FUNCTION crfdeid_append_only() RETURNS trigger LANGUAGE plpgsql AS "
                 "$f$ BEGIN RAISE EXCEPTION 'the review log is append-only'; END $f$",
                 "CREATE OR REPLACE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit "
                 "FOR EACH ROW EXECUTE FUNCTION crfdeid_append_only()"],
}


def migrate(db) -> None:
    """Give a store made before the log was chained its columns and head (old events stay
    unchained and are counted as such by :func:`check`)."""
    if db.kind == "sqlite":
        have = {r["name"] for r in db.query("PRAGMA table_info(audit)")}
        add = [c for c in _COLUMNS if c not in have]
        stmts = [f"ALTER TABLE audit ADD COLUMN {c} TEXT" for c in add]
    else:
        stmts = [f"ALTER TABLE audit ADD COLUMN IF NOT EXISTS {c} TEXT" for c in _COLUMNS]
    with db.write() as run:
        for s in stmts + _TRIGGERS[db.kind]:
            run(s)
        run("INSERT INTO log_head (id, hash, events) VALUES (1, ?, 0) ON CONFLICT (id) DO NOTHING", (GENESIS,))


def scopes_of(action: str, who: str) -> list[str]:
    """The scopes an event changes, by its action."""
    if action in REVIEW_CHANGES or action == "open":
        return [who]
    if action == "suggest":
        return [MODEL]
    if action in _ADJUDICATION:
        return [ADJUDICATION]
    if action == "surrogate":
        return [SURROGATES]
    if action == "import_note":
        return [NOTE]
    return []


def _digest(rows) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode("utf-8")).hexdigest()


_MOD = 1 << 256


def span_hash(r: dict) -> int:
    """One annotation row's hash, as a number (a review's digest is their sum)."""
    body = ["span", r["id"], r["span_start"], r["span_end"], r["subtype"], r["status"], r["origin"]]
    return int(hashlib.sha256(json.dumps(body).encode("utf-8")).hexdigest(), 16)


def _review_digest(spans, review) -> str:
    # a sum of row hashes (a multiset hash): one span's change updates it without reading the
    # note's other spans (a note may have 90,000), and the full sum checks it
    total = sum(map(span_hash, spans)) + int(_digest([r["state"] for r in review]), 16)
    return f"{total % _MOD:064x}"


def state(query, note_id: int, scope: str) -> str:
    """The digest of the rows of ``scope`` of a note; ``query(sql, params) -> rows``."""
    if scope == NOTE:
        rows = query("SELECT doc_id, patient, body FROM notes WHERE id = ?", (note_id,))
        return _digest([[r["doc_id"], r["patient"], hashlib.sha256(r["body"].encode("utf-8")).hexdigest()]
                        for r in rows])
    if scope == ADJUDICATION:
        dec = query("SELECT item_start, item_end, verdict, span_start, span_end, subtype, adjudicator "
                    "FROM decisions WHERE note_id = ? ORDER BY item_start, item_end", (note_id,))
        adj = query("SELECT adjudicator, voters FROM adjudications WHERE note_id = ?", (note_id,))
        return _digest([dec, adj])
    if scope == SURROGATES:
        rows = query("SELECT span_start, span_end, value, status, updated_by FROM surrogates WHERE note_id = ? "
                     "ORDER BY span_start, span_end", (note_id,))
        return _digest(rows)
    spans = query("SELECT id, span_start, span_end, subtype, status, origin FROM annotations "
                  "WHERE note_id = ? AND annotator = ?", (note_id, scope))
    review = query("SELECT state FROM reviews WHERE note_id = ? AND annotator = ?", (note_id, scope))
    return _review_digest(spans, review)


def _state_now(run, note_id: int, scope: str, delta: dict | None) -> str:
    """The scope's digest after the caller's change: from the last one and ``delta``
    (``{scope: (rows before, rows after)}`` of the annotation rows it changed), else in full."""
    if delta and scope in delta:
        last = run("SELECT digest FROM log_state WHERE note_id = ? AND scope = ?", (note_id, scope))
        if last:
            before, after = delta[scope]
            total = int(last[0]["digest"], 16) - sum(map(span_hash, before)) + sum(map(span_hash, after))
            return f"{total % _MOD:064x}"
    return state(run, note_id, scope)


def event_hash(prev: str, row: dict) -> str:
    """The hash of an event: ``prev`` and the event's fields, in a fixed form."""
    body = [prev, row["at"], row["who"], row["action"], row["note_id"], row["detail"], row["scope"], row["state"]]
    return hashlib.sha256(json.dumps(body, default=str).encode("utf-8")).hexdigest()


def settings_digest(query) -> str:
    """The digest of every project setting (names and values)."""
    return _digest(query("SELECT name, value FROM settings ORDER BY name"))


def _seal_body(row: dict, detail: dict) -> bytes:
    body = [row["at"], row["who"], row["action"], row["note_id"], json.dumps(detail, sort_keys=True),
            row["scope"], row["state"]]
    return json.dumps(body, default=str).encode("utf-8")


def seal(key: bytes, row: dict, detail: dict) -> str:
    """The event's seal under a person's key (``detail`` without its ``seal``)."""
    return hmac.new(key, _seal_body(row, detail), hashlib.sha256).hexdigest()


def append(run, at: str, who: str, action: str, note_id, detail: dict, scopes=None, delta=None,
           seal_key: bytes | None = None) -> None:
    """Append one event inside the caller's transaction (after its change); ``delta``: see
    :func:`_state_now`; ``seal_key``: the person's key, which seals the event."""
    scopes = scopes_of(action, who) if scopes is None else scopes
    states = {s: _state_now(run, note_id, s, delta) for s in scopes} if note_id is not None else {}
    for scope, digest in states.items():
        run("INSERT INTO log_state (note_id, scope, digest) VALUES (?, ?, ?) ON CONFLICT (note_id, scope) "
            "DO UPDATE SET digest = excluded.digest", (note_id, scope, digest))
    if action == "setting":
        detail = dict(detail, settings=settings_digest(run))
    row = {"at": at, "who": who, "action": action, "note_id": note_id, "scope": ",".join(scopes) or None,
           "state": json.dumps(states, sort_keys=True) if states else None}
    if seal_key is not None:
        detail = dict(detail, seal=seal(seal_key, row, detail))
    row["detail"] = json.dumps(detail, sort_keys=True)
    prev = run("UPDATE log_head SET events = events + 1 WHERE id = 1 RETURNING hash")[0]["hash"]
    h = event_hash(prev, row)
    run("INSERT INTO audit (at, who, action, note_id, detail, scope, state, prev, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (row["at"], who, action, note_id, row["detail"], row["scope"], row["state"], prev, h))
    run("UPDATE log_head SET hash = ? WHERE id = 1", (h,))


def check(db, seal_keys: dict[str, bytes] | None = None) -> dict:
    """Check the chain, every scope's rows and the settings against their last event, and
    (with ``seal_keys``, ``{name: key}`` from the token file) each personal event's seal.

    Returns ``{"events", "unchained", "head", "problems": [{"note_id", "what"}],
    "changed_after_adjudication": [{"note_id", "annotator", "action"}], "auth": {who: [how they
    signed in]}, "doc_ids": {note id: document id as imported}}`` (no text); an event whose
    seal fails counts as signed in ``unproven``.
    """
    problems: list[dict] = []
    prev, chained, legacy = GENESIS, 0, 0
    last: dict[tuple, str] = {}
    settings = None
    auth: dict[str, set] = {}
    doc_ids: dict = {}
    rows = db.query("SELECT * FROM audit ORDER BY id")
    for r in rows:
        if r["hash"] is None:
            if chained:
                problems.append({"note_id": r["note_id"], "what": f"event {r['id']} is outside the hash chain"})
            else:
                legacy += 1
            continue
        if r["prev"] != prev:
            problems.append({"note_id": r["note_id"],
                             "what": f"the log breaks before event {r['id']}: an event was deleted or rewritten"})
        if event_hash(r["prev"], r) != r["hash"]:
            problems.append({"note_id": r["note_id"], "what": f"event {r['id']} was rewritten"})
        prev, chained = r["hash"], chained + 1
        for scope, digest in (json.loads(r["state"]) if r["state"] else {}).items():
            last[(r["note_id"], scope)] = digest
        detail = json.loads(r["detail"]) if r["detail"] else {}
        how = detail.get("auth") or "none"
        if how == "personal" and seal_keys is not None and not _sealed(r, detail, seal_keys.get(r["who"])):
            problems.append({"note_id": r["note_id"], "what": f"event {r['id']} ({r['action']}) says {r['who']} "
                                                              "signed in with a personal token; its seal does not "
                                                              "prove it (written or rewritten without the token)"})
            how = "unproven"
        auth.setdefault(r["who"], set()).add(how)
        if r["action"] == "setting":
            settings = detail.get("settings")
        if r["action"] == "import_note" and "doc_id" in detail:
            doc_ids[r["note_id"]] = detail["doc_id"]
    head = db.one("SELECT hash, events FROM log_head WHERE id = 1")
    if head is not None and (head["hash"] != prev or int(head["events"]) != chained):
        problems.append({"note_id": None, "what": f"the log ends before its recorded head ({chained} of "
                                                  f"{head['events']} events): its last events were deleted"})
    for (nid, scope), digest in sorted(last.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if scope == NOTE and not db.query("SELECT 1 AS x FROM notes WHERE id = ?", (nid,)):
            problems.append({"note_id": nid, "what": "the note was deleted from the store"})
        elif state(db.query, nid, scope) != digest:
            verb = "differ" if scope in (MODEL, SURROGATES) else "differs"
            problems.append({"note_id": nid, "what": f"{_label(scope)} {verb} from the log (changed outside "
                                                     "the review app)"})
    if settings is not None and settings != settings_digest(db.query):
        problems.append({"note_id": None, "what": "the project's settings differ from the log (changed outside "
                                                  "the review app)"})
    elif settings is None and chained and db.query("SELECT 1 AS x FROM settings"):
        problems.append({"note_id": None, "what": "the project's settings have no event in the log"})
    if not legacy:
        for nid, scope in _present(db):
            if (nid, scope) not in last:
                problems.append({"note_id": nid, "what": f"{_label(scope)} has no event in the log"})
    return {"events": chained, "unchained": legacy, "head": prev, "problems": problems,
            "changed_after_adjudication": after_adjudication(rows),
            "auth": {w: sorted(v) for w, v in sorted(auth.items())}, "doc_ids": doc_ids}


def _sealed(row: dict, detail: dict, key: bytes | None) -> bool:
    given = detail.get("seal")
    if key is None or not isinstance(given, str):
        return False
    body = {k: v for k, v in detail.items() if k != "seal"}
    return hmac.compare_digest(given, seal(key, row, body))


def after_adjudication(events) -> list[dict]:
    """``[{"note_id", "annotator", "action"}]``: reviews changed after their note was adjudicated
    and not adjudicated again since (the adjudicator should look again); ``events`` in order."""
    adjudicated: dict = {}
    changed: dict = {}
    for r in events:
        nid, action = r["note_id"], r["action"]
        if action == "adjudicated":
            adjudicated[nid] = True
            changed = {k: v for k, v in changed.items() if k[0] != nid}  # adjudicated again: seen
        elif action == "reopen_adjudication":
            adjudicated[nid] = False
        elif action in REVIEW_CHANGES and adjudicated.get(nid):
            changed[(nid, r["who"])] = action
    return [{"note_id": n, "annotator": w, "action": a} for (n, w), a in sorted(changed.items())]


def _label(scope: str) -> str:
    return {NOTE: "the note's text", ADJUDICATION: "the adjudication", SURROGATES: "the surrogates",
            MODEL: "the model's suggestions"}.get(scope, f"{scope}'s review")


def _present(db) -> set[tuple]:
    """Every (note, scope) that has rows now."""
    out = {(r["id"], NOTE) for r in db.query("SELECT id FROM notes")}
    out |= {(r["note_id"], r["annotator"]) for r in db.query("SELECT DISTINCT note_id, annotator FROM annotations")}
    out |= {(r["note_id"], r["annotator"]) for r in db.query("SELECT note_id, annotator FROM reviews")}
    out |= {(r["note_id"], ADJUDICATION) for r in db.query("SELECT note_id FROM decisions UNION "
                                                           "SELECT note_id FROM adjudications")}
    out |= {(r["note_id"], SURROGATES) for r in db.query("SELECT DISTINCT note_id FROM surrogates")}
    return out
