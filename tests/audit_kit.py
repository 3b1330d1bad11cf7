"""What the audit tests share: the officer's kit (a release, its output written by tag with a
run manifest, the officer's key pair and ledger) and an audit drawn from a signed plan.
Synthetic notes only."""

from __future__ import annotations

from crfdeid.cli.audit import main
from crfdeid.cli.tag import main as tag
from crfdeid.deid.signing import new_pair
from crfdeid.io import write
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
    return spec, folder / "out", key, pub, folder / "ledger.jsonl"


def planned(kit, out, plan_file, *more) -> None:
    """The officer signs a plan of 6 notes (2 twice), then the audit is drawn from it."""
    spec, output, key, _, ledger = kit
    assert main(["plan", "--per", "tokens", "--target", "50", "--release", spec, "--release-output", str(output),
                 "--notes", "6", "--double", "2", "--sign", str(key), "--ledger", str(ledger),
                 "--out", str(plan_file), *more]) == 0
    assert main(["sample", spec, "--out", str(out), "--plan", str(plan_file), "--release-output", str(output)]) == 0
