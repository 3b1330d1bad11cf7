"""What the audit tests share: the officer's kit (a release, its output written by tag with a
run manifest, the officer's key pair and ledger, two reviewers' key pairs), an audit drawn from a
signed plan, and its notes reviewed as people review. Synthetic notes only."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from crfdeid.audit import simulate as audit_simulate
from crfdeid.cli.audit import main
from crfdeid.cli.review import main as review
from crfdeid.cli.tag import main as tag
from crfdeid.deid.signing import new_pair
from crfdeid.io import write
from crfdeid.review import store as store_module
from crfdeid.synth import iter_documents


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
