"""``audit verify``: recompute what the report rests on, from the release, the model file, the
seed and the review stores, and name every difference with what the audit folder says.

What is recomputed and compared (each difference names the note's document id and what
differs, never note text):

- the release: every note read again, its text digest, its token count and the release digest;
- the draw: the sample and its double-review part drawn again from the seed and the strata;
- the model: the file's SHA-256, then the drawn notes tagged again: the manifest's
  ``model_spans`` and every stored suggestion must be the audited model's spans;
- the manifest: each drawn note's token count and text digest against the release;
- the review stores: each project belongs to this audit (seed, part, model and release
  digests), each drawn note is in them exactly once, in its part, with the release's text;
- the stores' event logs (:mod:`crfdeid.review.ledger`): the hash chain unbroken, every
  review's rows as their last event left them, and no review changed after its note was
  adjudicated (unless adjudicated again since).

The result also says, per reviewer, how they signed in (a personal token, a shared one, none).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ..errors import ConfigError, CrfdeidError
from ..io import read
from ..io.runmanifest import sha256_file
from ..review.credentials import Credentials
from ..review.project import Project
from ..review.store import MODEL
from ..tagging.model import TaggingModel
from ..tagging.session import SPANS, Session
from . import canary
from .sample import DOUBLE, SINGLE, Strata, draw, load, population, release_digest, text_sha256


def _spans(spans) -> list[list]:
    return sorted([int(s), int(e), str(t)] for s, e, t in spans)


def _retag(specs, options, ids: set, model_path: Path) -> dict:
    """``{doc id: [[start, end, subtype], ...]}``: the drawn notes tagged by the audited model."""
    session = Session(TaggingModel.load(model_path), SPANS)
    docs = [doc.with_spans([]) for spec in specs for doc in read(spec, **(options or {})) if doc.doc_id in ids]
    return {d.doc_id: _spans((s.start, s.end, s.subtype) for s in t.spans)
            for d, t in zip(docs, session.tagged(docs))}


def verify(folder, specs=None, tokens=None, retag=None) -> dict:
    """Recompute and compare (see the module docstring).

    ``tokens``: the review app's token file, to check the seal of every event that says its
    writer signed in with a personal token (without it, no personal sign-in is taken as proven).
    ``retag(ids)``: ``{doc id: [[start, end, subtype], ...]}`` of the release's run made again,
    for an audit whose suggestions are the release run's (``"suggestions": "release-run"``;
    ``crfdeid audit verify`` passes it); without it such an audit's spans are named as unchecked.

    Returns ``{"ok", "checks": {name: bool}, "differences": [{"doc_id", "part", "what"}],
    "changed_after_adjudication": [...], "reviewers": {name: {"signed_in": [...],
    "personal_token": bool}}, "log": {part: {"events", "unchained"}}}``.
    """
    folder = Path(folder)
    manifest = load(folder)
    s, rel, mod = manifest["sample"], manifest["release"], manifest["model"]
    specs = specs or rel["inputs"]
    options = rel.get("reader_options")
    st = s["strata"]
    members, errors = population(specs, Strata(tuple(st["fields"]), tuple(st["length_bins"]), st["pattern"]),
                                 options)
    info = {m.doc_id: m for m in members}
    diffs: list[dict] = []

    def differ(doc_id, what, part=None):
        diffs.append({"doc_id": doc_id, "part": part, "what": what})

    checks = {"release_readable": not errors, "release_digest": release_digest(members) == rel["digest"]}
    if not checks["release_digest"]:
        now = release_digest(members)
        differ(None, f"the release digest differs (audit.json {rel['digest'][:12]}, now {now[:12]}): {len(members)} "
                     f"notes and {sum(m.tokens for m in members):,} tokens now, {rel['notes']} and "
                     f"{rel['tokens']:,} at the sample")
    for e in errors:
        differ(None, f"the release could not be read whole: {e}")
    base = len(diffs)
    try:
        sample, twice = draw(members, s["size"], s["seed"], s["double"])
    except ConfigError:
        sample, twice = [], []
    notes = {n["doc_id"]: n for n in manifest["notes"]}
    checks["sample"] = sample == sorted(notes)
    checks["double_part"] = twice == sorted(d for d, n in notes.items() if n["part"] == DOUBLE)
    for d in sorted(set(sample) - set(notes)):
        differ(d, "drawn again from the seed but missing from audit.json")
    for d in sorted(set(notes) - set(sample)):
        differ(d, "in audit.json but not drawn from the seed")
    part_of = {d: (DOUBLE if d in set(twice) else SINGLE) for d in sample}
    for d, n in sorted(notes.items()):
        m = info.get(d)
        if m is None:
            differ(d, "in audit.json but not in the release")
            continue
        if n.get("tokens") != m.tokens:
            differ(d, f"tokens in audit.json ({n.get('tokens')}) differ from the recount ({m.tokens})")
        if n.get("text_sha256") != m.text_sha256:
            differ(d, "text digest in audit.json differs from the release's note")
        if d in part_of and n.get("part") != part_of[d]:
            differ(d, f"part in audit.json ({n.get('part')}) differs from the draw ({part_of[d]})")
    model_path = Path(mod["path"])
    checks["model_file"] = model_path.is_file() and sha256_file(model_path) == mod["sha256"]
    tagged: dict = {}
    of_release = manifest.get("suggestions") == "release-run"
    if checks["model_file"] and of_release and retag is None:
        differ(None, "the suggestions are the release run's: verify with `crfdeid audit verify`, which makes the "
                     "run again")
    elif checks["model_file"]:
        tagged = retag(set(sample)) if of_release else _retag(specs, options, set(sample), model_path)
        whose = "the release run's" if of_release else "the audited model's"
        for d, n in sorted(notes.items()):
            if d in tagged and _spans(n.get("model_spans") or []) != tagged[d]:
                differ(d, f"model_spans in audit.json differ from {whose} spans")
    else:
        differ(None, "the model file is missing or its SHA-256 differs from audit.json: the drawn notes "
                     "could not be tagged again")
    seal_keys = Credentials.from_file(tokens).seal_keys() if tokens else None
    stores, log, auth, changed = _check_stores(folder, manifest, info, tagged, differ, seal_keys)
    seen: dict = defaultdict(list)
    for part, doc_id in stores:
        seen[doc_id].append(part)
    for d in sample:
        where = seen.get(d, [])
        if not where:
            differ(d, "drawn but not in the review stores")
        elif len(where) > 1:
            differ(d, f"in the review stores {len(where)} times ({', '.join(sorted(where))})")
        elif where[0] != part_of[d]:
            differ(d, f"in {where[0]}/ but drawn for {part_of[d]}/", where[0])
    for d in sorted(set(seen) - set(sample)):
        differ(d, "in the review stores but not drawn", seen[d][0])
    checks["notes"] = len(diffs) == base
    ok = all(checks.values())
    reviewers = {w: {"signed_in": how, "personal_token": how == ["personal"] and seal_keys is not None}
                 for w, how in sorted(auth.items())}
    return {"ok": ok, "checks": checks, "differences": diffs,
            "changed_after_adjudication": changed,
            "reviewers": reviewers, "log": log}


def _check_stores(folder: Path, manifest: dict, info: dict, tagged: dict, differ, seal_keys=None):
    """Compare each review store with the release, the model and its own log; returns
    ``([(part, doc id)], {part: log counts}, {reviewer: [how signed in]}, [reviews changed after
    adjudication])``."""
    s, mod = manifest["sample"], manifest["model"]
    canaries = {c["doc_id"]: c for c in manifest.get("canaries", [])}
    present: list[tuple[str, str]] = []
    logs: dict = {}
    auth: dict = defaultdict(set)
    changed: list[dict] = []
    parts = set(s.get("projects") or {})
    for part in sorted(parts | {p for p in (SINGLE, DOUBLE) if (folder / p).is_dir()}):
        if part not in (SINGLE, DOUBLE):
            differ(None, f"unknown review project {part!r} in audit.json", part)
            continue
        if part not in parts:
            differ(None, "a review project audit.json does not name", part)
        try:
            project = Project.open(folder / part)
        except CrfdeidError as exc:
            differ(None, f"the review project cannot be opened ({type(exc).__name__})", part)
            continue
        try:
            store = project.store
            tag = store.setting("audit") or {}
            want = {"seed": s["seed"], "part": part, "model_sha256": mod["sha256"]}
            if any(tag.get(k) != v for k, v in want.items()) or \
                    tag.get("release_digest", manifest["release"]["digest"]) != manifest["release"]["digest"]:
                differ(None, "the review project belongs to another audit (its seed, part, model or release "
                             "differ from audit.json)", part)
            by_nid = {}
            for row in store.notes():
                d = row["doc_id"]
                by_nid[row["id"]] = d
                present.append((part, d))
                m = info.get(d)
                body = store.note(row["id"])["body"]
                bird = canaries.get(d)
                if bird is not None and (bird["part"] != part or not canary.in_place(body, bird)):
                    differ(d, "the canary audit.json records is not in the review store's note", part)
                    bird = None
                text = canary.strip(body, bird)
                if m is not None and text_sha256(text) != m.text_sha256:
                    differ(d, "the note's text in the review store differs from the release (digest)", part)
                if d in tagged and _spans(canary.from_store([(x["start"], x["end"], x["subtype"])
                                                             for x in store.spans(row["id"], MODEL)], bird)) \
                        != tagged[d]:
                    differ(d, "the model's suggestions in the review store differ from the audited model's spans",
                           part)
            result = store.check_log(seal_keys)
            names = {**result["doc_ids"], **by_nid}
            for p in result["problems"]:
                differ(names.get(p["note_id"]), p["what"], part)
            for c in result["changed_after_adjudication"]:
                d = names.get(c["note_id"])
                changed.append({"doc_id": d, "part": part, "annotator": c["annotator"], "action": c["action"]})
                differ(d, f"{c['annotator']} changed their review after adjudication ({c['action']})", part)
            logs[part] = {"events": result["events"], "unchained": result["unchained"]}
            if result["unchained"]:
                differ(None, f"{result['unchained']} event(s) of the review store predate the hash chain", part)
            humans = {a["name"] for a in store.annotators() if a["kind"] == "human"}
            for who, how in result["auth"].items():
                if who in humans:
                    auth[who].update(how)
        finally:
            project.close()
    return present, logs, {w: sorted(v) for w, v in auth.items()}, changed
