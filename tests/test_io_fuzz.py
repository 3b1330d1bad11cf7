"""The fuzz corpus (tests/data/fuzz) through ``corpus stats``, ``corpus convert`` and ``tag``.

For every input: each bad document gets one message naming its file, its
document when one can be named, and its line, record or offset; the good
documents are read and written; the exit code says something failed; no marker
(the made-up PHI planted in bad documents) appears in any message or output
file; no temporary file is left.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from crfdeid.cli import corpus, tag

FUZZ = Path(__file__).parent / "data" / "fuzz"
MANIFEST = json.loads((FUZZ / "MANIFEST.json").read_text())
MARKERS = MANIFEST["markers"]
CASES = {case["spec"]: case for case in MANIFEST["inputs"]}


def _spec(case) -> str:
    fmt, _, path = case["spec"].partition(":")
    return f"{fmt}:{FUZZ / path}"


def _no_marker(text: str) -> None:
    for marker in MARKERS:
        assert marker not in text


def _check_messages(err: str, case) -> None:
    _no_marker(err)
    lines = [line for line in err.splitlines() if line.startswith(("error:", "failed:"))]
    assert len(lines) == len(case["failures"]), "\n".join(lines)
    for fail in case["failures"]:
        found = [line for line in lines if f"{fail['file']}'" in line and fail["where"] in line
                 and (fail["doc"] is None or f"document {fail['doc']!r}" in line)]
        assert found, f"no message for {fail} in:\n" + "\n".join(lines)


def _output_files(folder: Path) -> dict:
    files = {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()} if folder.exists() else {}
    assert not [n for n in files if n.startswith(".tmp-")]
    for data in files.values():
        _no_marker(data.decode("utf-8", "replace"))
    return files


def test_committed_corpus_is_what_make_fuzz_writes(tmp_path):
    spec = importlib.util.spec_from_file_location("make_fuzz", FUZZ / "make_fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path)
    made = {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    committed = {str(p.relative_to(FUZZ)): p.read_bytes() for p in FUZZ.rglob("*")
                 if p.is_file() and p.name != "make_fuzz.py"}
    assert made == committed


@pytest.mark.parametrize("name", sorted(CASES))
def test_stats_reports_each_bad_document(name, capsys):
    case = CASES[name]
    rc = corpus.main(["stats", _spec(case), "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert rc == case["code"]
    _check_messages(err, case)
    _no_marker(out)
    if rc != 2:
        assert json.loads(out)["documents"] == len(case["good"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_convert_writes_the_good_documents_only(name, tmp_path, capsys):
    case = CASES[name]
    rc = corpus.main(["convert", _spec(case), "--to", "jsonl", "--out", str(tmp_path / "o.jsonl"), "--quiet"])
    _, err = capsys.readouterr()
    assert rc == case["code"]
    _check_messages(err, case)
    files = _output_files(tmp_path)
    written = [json.loads(line)["id"] for line in files.get("o.jsonl", b"").decode().splitlines()]
    assert sorted(written) == sorted(case["good"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_tag_writes_the_good_documents_only_and_no_text_of_the_bad(name, tmp_path, capsys):
    case = CASES[name]
    rc = tag.main(["--output-format", "redacted", "--output-dir", str(tmp_path / "out"), "--quiet",
                   _spec(case)])
    _, err = capsys.readouterr()
    assert rc == case["code"]
    _check_messages(err, case)
    files = _output_files(tmp_path)
    assert sorted(files) == sorted(f"{doc}.txt" for doc in case["good"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_reader_exceptions_and_their_tracebacks_carry_no_marker(name):
    """What a library caller sees: collected errors, and the first error raised with its traceback."""
    import traceback

    from crfdeid.errors import CrfdeidError
    from crfdeid.io import read
    case = CASES[name]
    errors = []
    try:
        docs = list(read(_spec(case), errors=errors))
    except CrfdeidError as exc:  # an input that cannot be read at all
        errors.append(exc)
        docs = []
    assert sorted(d.doc_id for d in docs) == sorted(case["good"])
    assert len(errors) == len(case["failures"])
    for err in errors:
        _no_marker(repr(err) + str(err) + repr(err.__dict__))
    with pytest.raises(CrfdeidError) as raised:
        list(read(_spec(case)))
    _no_marker("".join(traceback.format_exception(raised.value)))
