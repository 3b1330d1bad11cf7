"""What the audit tests share: the officer's kit (a release, its output written by tag with a
run manifest, the officer's key pair and ledger, two reviewers' key pairs), an audit drawn from a
signed plan, and its notes reviewed as people review. Synthetic notes only."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import shutil
import sqlite3
import types
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from crfdeid.audit import simulate as audit_simulate
from crfdeid.cli import audit_release
from crfdeid.cli.audit import main
from crfdeid.cli.review import main as review
from crfdeid.cli.tag import main as tag
from crfdeid.deid.signing import new_pair
from crfdeid.io import runmanifest, write
from crfdeid.review import ledger
from crfdeid.review import store as store_module
from crfdeid.synth import iter_documents
from crfdeid.tagging.model import DEFAULT_MODEL


def officer_kit(folder):
    """A release of 14 synthetic notes, its output written by tag with a run manifest, the
    officer's key pair and ledger: ``(spec, output folder, private key, public key, ledger)``."""
    docs = list(iter_documents(14, 41))
    for d in docs:
        d.meta.clear()
    write(docs, "jsonl", folder / "notes.jsonl")
    spec = f"jsonl:{folder / 'notes.jsonl'}"
    assert tag(["--input-format", "jsonl", str(folder / "notes.jsonl"), "--output-format", "redacted",
                "--output-dir", str(folder / "out"), "--quiet", "--run-manifest"]) == 0
    key, pub = new_pair(folder / "officer.key")
    for name in REVIEWERS:
        new_pair(folder / f"{name}.key")
    return spec, folder / "out", key, pub, folder / "ledger.jsonl"


REVIEWERS = ("ann", "bob")


def _named(argv: list[str]) -> str:
    """A digest of the bytes of every file (or folder's files) an argument names, read now, and of the
    default model's file (a run without ``--model`` tags with it): an edited input is another run."""
    h = hashlib.sha256()
    for a in [str(DEFAULT_MODEL), *argv]:
        for name in (a, a.partition("=")[2], a.partition(":")[2]):
            path = Path(name) if name else None
            files = [path] if path and path.is_file() else sorted(path.rglob("*")) if path and path.is_dir() else []
            for f in (f for f in files if f.is_file()):
                h.update(f"{a}\0{f}\0{runmanifest.sha256_file(f)}\0".encode())
    return h.hexdigest()


@contextlib.contextmanager
def tag_once(folder: Path):
    """``tag`` as ``audit verify``, ``report``, ``sample`` and ``plan`` run it again (``audit_release.tag``)
    made once for the same arguments, working folder and input bytes while the block runs; a repeat gets
    the first run's output folder copied into its own ``--output-dir`` and its exit code. Every check of a
    module's kit makes the release's run again with the same arguments, model and notes: a deterministic
    run (that is what the check relies on), whose files are compared as before. ``folder``: where the
    first runs' outputs are kept. Yields ``{key: exit code}`` of the runs made."""
    made: dict = {}

    def main(argv):
        out = argv[len(argv) - 1 - argv[::-1].index("--output-dir") + 1]  # the last one: what tag writes to
        key = (os.getcwd(), tuple("OUT" if a == out else a for a in argv), _named(argv))
        if key not in made:
            kept = folder / str(len(made))
            code = tag(argv)
            if Path(out).is_dir():
                shutil.copytree(out, kept)
            made[key] = code, kept
        code, kept = made[key]
        if kept.is_dir():
            shutil.copytree(kept, out, dirs_exist_ok=True)
        return code

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(audit_release, "tag", types.SimpleNamespace(main=main))
        yield made


def planned(kit, out, plan_file, *more) -> None:
    """The officer signs a plan of 6 notes (2 twice), then the audit is drawn from it."""
    spec, output, key, _, ledger = kit
    people = [f"--reviewer={n}={key.parent / n}.key.pub" for n in REVIEWERS]
    assert main(["plan", "--per", "tokens", "--target", "50", "--release", spec, "--release-output", str(output),
                 "--notes", "6", "--double", "2", "--sign", str(key), "--ledger", str(ledger),
                 "--out", str(plan_file), *people, *more]) == 0
    assert main(["sample", spec, "--out", str(out), "--plan", str(plan_file), "--release-output", str(output)]) == 0


def reviewed_by_people(out, spec, keys: Path | None = None, names=REVIEWERS, miss: float = 0.0,
                       seed: int = 0) -> dict:
    """The audit's notes reviewed as people review them: the simulator's decisions (from the gold
    standard, each missed identifier overlooked with chance ``miss``), signed in as people, a
    minute between events; then, given ``keys`` (the folder holding NAME.key), each reviewer
    signs their reviews with their own key. Returns the simulator's counts."""
    clock = itertools.count()
    start = datetime.now(UTC)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(store_module, "now", lambda: (start + timedelta(minutes=next(clock))).isoformat(
            timespec="milliseconds"))
        mp.setattr(audit_simulate, "SIMULATED", None)  # people, not a simulation: no sign-in recorded
        counts = audit_simulate.run(out, [spec], list(names), miss, seed)
    if keys is not None:
        for part in ("review", "double"):
            for name in names:
                assert review(["sign", str(Path(out) / part), "--name", name, "--key", str(keys / f"{name}.key")]) == 0
    return counts


def signed_audit(kit, name: str, report_json="/dev/null") -> Path:
    """An audit drawn from the officer's plan, reviewed by people who sign their reviews, and
    signed by the officer; the ledger as it was then is kept as ``ledger-NAME.jsonl``."""
    spec, _, key, _, ledger = kit
    out = key.parent / name
    planned(kit, out, key.parent / f"plan-{name}.json")
    reviewed_by_people(out, spec, key.parent)
    assert main(["report", str(out), "--sign", str(key), "--ledger", str(ledger), "--json", str(report_json)]) == 0
    shutil.copy(ledger, key.parent / f"ledger-{name}.jsonl")
    return out


def rechain(folder, part="review"):
    """What the issue's forger did: drop the triggers, recompute every scope's digest, every
    event's state and hash, and the head, with the ledger's own functions."""
    con = sqlite3.connect(Path(folder) / part / "review.sqlite")
    con.row_factory = sqlite3.Row

    def query(sql, params=()):
        return [dict(r) for r in con.execute(sql, params).fetchall()]

    with con:
        con.execute("DROP TRIGGER IF EXISTS audit_append_only")
        con.execute("DROP TRIGGER IF EXISTS audit_no_delete")
        prev = ledger.GENESIS
        for r in query("SELECT * FROM audit ORDER BY id"):
            states = json.loads(r["state"]) if r["state"] else {}
            states = {s: ledger.state(query, r["note_id"], s) for s in states}
            r["state"] = json.dumps(states, sort_keys=True) if states else None
            for s, d in states.items():
                con.execute("UPDATE log_state SET digest = ? WHERE note_id = ? AND scope = ?", (d, r["note_id"], s))
            h = ledger.event_hash(prev, r)
            con.execute("UPDATE audit SET state = ?, prev = ?, hash = ?, detail = ? WHERE id = ?",
                        (r["state"], prev, h, r["detail"], r["id"]))
            prev = h
        con.execute("UPDATE log_head SET hash = ? WHERE id = 1", (prev,))
    con.close()


def unreview(store, nid: int, who: str) -> None:
    """What a forger does to a review through the library: reopen it, delete every span, finish."""
    store.reopen(nid, who)
    for sp in store.spans(nid, who):
        store.update_span(sp["id"], who, status="deleted")
    store.finish(nid, who)
