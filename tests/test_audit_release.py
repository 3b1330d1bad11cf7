"""The audit is of the release that leaves (issue 52 item 3): ``tag --run-manifest`` writes a run manifest into
its output folder; ``audit sample --release-output`` records it; ``verify`` names each output
file edited after tag wrote it and each file a run made again with the manifest's arguments
does not reproduce (another model or options). Synthetic notes only."""

from __future__ import annotations

import json
import shutil

import pytest
from audit_kit import tag_once

from crfdeid.cli.audit import main
from crfdeid.cli.tag import main as tag
from crfdeid.io import runmanifest, write
from crfdeid.synth import iter_documents


@pytest.fixture(scope="module", autouse=True)
def release_runs(tmp_path_factory):
    """``verify``'s runs of the release made once for each of their arguments and inputs: every test's
    release output was written by the same run of the same notes (audit_kit.tag_once)."""
    with tag_once(tmp_path_factory.mktemp("runs")) as made:
        yield made


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("release")
    docs = list(iter_documents(8, 53))
    for d in docs:
        d.meta.clear()
    write(docs, "jsonl", folder / "notes.jsonl")
    for name, extra in (("out", []), ("other", ["-o", "template=<{subtype}>"])):
        assert tag(["--input-format", "jsonl", str(folder / "notes.jsonl"), "--output-format", "redacted",
                    "--output-dir", str(folder / name), "--quiet", "--run-manifest", *extra]) == 0
    return folder


@pytest.fixture
def release(written, tmp_path):
    shutil.copytree(written, tmp_path / "r")
    return tmp_path / "r"


def _audit(release, capsys) -> tuple[int, dict, str]:
    spec = f"jsonl:{release / 'notes.jsonl'}"
    assert main(["sample", spec, "--out", str(release / "a"), "--notes", "3", "--seed", "5",
                 "--release-output", str(release / "out")]) == 0
    capsys.readouterr()
    code = main(["verify", str(release / "a"), "--evidence-only"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_tag_writes_a_run_manifest_without_note_text(written):
    run = runmanifest.read(written / "out")
    notes = [json.loads(line) for line in (written / "notes.jsonl").read_text().splitlines()]
    assert set(run["files"]) == set(p.name for p in (written / "out").iterdir()) - {runmanifest.RUN_MANIFEST}
    assert len(run["files"]) == len(notes) and run["output_format"] == "redacted"
    text = (written / "out" / runmanifest.RUN_MANIFEST).read_text()
    assert all(n["text"][:30] not in text for n in notes)


def test_an_untouched_release_output_verifies(release, capsys):
    code, result, err = _audit(release, capsys)
    assert code == 0 and result["checks"]["release_output"], err
    m = json.loads((release / "a" / "audit.json").read_text())
    assert m["output_run"]["files"] == 8


def test_a_release_edited_after_the_audit_is_named_by_file(release, capsys):
    edited = sorted((release / "out").glob("*.txt"))[2]
    edited.write_text(edited.read_text() + "\nadded afterwards\n")
    code, result, err = _audit(release, capsys)
    named = {d["doc_id"] for d in result["differences"]}
    assert code == 1 and edited.name in named and "edited after tag wrote it" in err


def test_a_release_written_with_other_options_is_named_by_file(release, capsys):
    run = runmanifest.read(release / "out")
    for f in (release / "other").glob("*.txt"):
        shutil.copy(f, release / "out" / f.name)
    run["files"] = runmanifest.output_files(release / "out")  # the forger mends the file digests too
    (release / "out" / runmanifest.RUN_MANIFEST).write_text(json.dumps(run))
    code, result, err = _audit(release, capsys)
    made_again = [d for d in result["differences"] if "made again" in d["what"]]
    assert code == 1 and len(made_again) == 8 and not result["checks"]["release_output"]


def test_an_output_of_another_model_is_refused_at_the_sample(release, capsys):
    run = runmanifest.read(release / "out")
    run["model_sha256"] = "0" * 64
    (release / "out" / runmanifest.RUN_MANIFEST).write_text(json.dumps(run))
    spec = f"jsonl:{release / 'notes.jsonl'}"
    assert main(["sample", spec, "--out", str(release / "a"), "--notes", "3", "--seed", "5",
                 "--release-output", str(release / "out")]) == 2
    assert "written by another model" in capsys.readouterr().err
