"""The fuzz corpus (written by tests/data/fuzz/make_fuzz.py) through ``corpus stats``,
``corpus convert`` and ``tag``.

For every input: each bad document gets one message naming its file, its
document when one can be named, and its line, record or offset; the good
documents are read and written; the exit code says something failed; no marker
(the made-up PHI planted in bad documents) appears in any message or output
file; no temporary file is left. The corpus is written to a temporary folder once
per session: none of it is committed.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from crfdeid.cli import corpus, tag
from crfdeid.io.runmanifest import notes_only

_spec_of = importlib.util.spec_from_file_location("make_fuzz", Path(__file__).parent / "data" / "fuzz" / "make_fuzz.py")
make_fuzz = importlib.util.module_from_spec(_spec_of)
_spec_of.loader.exec_module(make_fuzz)
MANIFEST = make_fuzz.cases()[1]
MARKERS = MANIFEST["markers"]
CASES = {case["spec"]: case for case in MANIFEST["inputs"]}


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    make_fuzz.build(root)
    return root


def _spec(case, root: Path) -> str:
    fmt, _, path = case["spec"].partition(":")
    return f"{fmt}:{root / path}"


def _i2b2(case) -> dict:
    """The fuzz corpus' labels are i2b2 labels: read under that scheme, an unknown one fails its
    document (without a scheme a reader takes the corpus' labels as written)."""
    from crfdeid.io.labelled import takes_scheme
    return {"scheme": "i2b2"} if takes_scheme(case["spec"]) else {}


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
    for data in files.values():  # the run manifest too: it holds no note text
        _no_marker(data.decode("utf-8", "replace"))
    return {name: files[name] for name in notes_only(files)}


def test_the_corpus_is_written_as_listed(fuzz):
    files, manifest = make_fuzz.cases()
    assert {str(p.relative_to(fuzz)) for p in fuzz.rglob("*") if p.is_file()} == {*files, "MANIFEST.json"}
    assert json.loads((fuzz / "MANIFEST.json").read_text()) == manifest


@pytest.mark.parametrize("name", sorted(CASES))
def test_stats_reports_each_bad_document(name, fuzz, capsys):
    case = CASES[name]
    rc = corpus.main(["stats", _spec(case, fuzz), "--json", "--quiet",
                      *(f"--option=scheme={v}" for v in _i2b2(case).values())])
    out, err = capsys.readouterr()
    assert rc == case["code"]
    _check_messages(err, case)
    _no_marker(out)
    if rc != 2:
        assert json.loads(out)["documents"] == len(case["good"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_convert_writes_the_good_documents_only(name, fuzz, tmp_path, capsys):
    case = CASES[name]
    rc = corpus.main(["convert", _spec(case, fuzz), "--to", "jsonl", "--out", str(tmp_path / "o.jsonl"), "--quiet",
                      *(f"--option=scheme={v}" for v in _i2b2(case).values())])
    _, err = capsys.readouterr()
    assert rc == case["code"]
    _check_messages(err, case)
    files = _output_files(tmp_path)
    written = [json.loads(line)["id"] for line in files.get("o.jsonl", b"").decode().splitlines()]
    assert sorted(written) == sorted(case["good"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_tag_writes_the_good_documents_only_and_no_text_of_the_bad(name, fuzz, tmp_path, capsys):
    case = CASES[name]
    # tag reads an input's gold labels as written (they are replaced): under a declared scheme,
    # as here, a label the scheme lacks fails its document as in the readers
    rc = tag.main(["--output-format", "redacted", "--output-dir", str(tmp_path / "out"), "--quiet",
                   *(f"--reader-option=scheme={v}" for v in _i2b2(case).values()), _spec(case, fuzz)])
    _, err = capsys.readouterr()
    assert rc == case["code"]
    _check_messages(err, case)
    files = _output_files(tmp_path)
    assert sorted(files) == sorted(f"{doc}.txt" for doc in case["good"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_reader_exceptions_and_their_tracebacks_carry_no_marker(name, fuzz):
    """What a library caller sees: collected errors, and the first error raised with its traceback."""
    import traceback

    from crfdeid.errors import CrfdeidError
    from crfdeid.io import read
    case = CASES[name]
    errors = []
    try:
        docs = list(read(_spec(case, fuzz), errors=errors, **_i2b2(case)))
    except CrfdeidError as exc:  # an input that cannot be read at all
        errors.append(exc)
        docs = []
    assert sorted(d.doc_id for d in docs) == sorted(case["good"])
    assert len(errors) == len(case["failures"])
    for err in errors:
        _no_marker(repr(err) + str(err) + repr(err.__dict__))
    with pytest.raises(CrfdeidError) as raised:
        list(read(_spec(case, fuzz)))
    _no_marker("".join(traceback.format_exception(raised.value)))
