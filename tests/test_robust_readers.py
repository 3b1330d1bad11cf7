"""Bad input: each failure names file/document/offset, leaks no text, and spares the other documents."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from crfdeid import labels as bio
from crfdeid.document import Document, make_span
from crfdeid.errors import InputError, ReaderError, SchemaError
from crfdeid.io import read, write
from crfdeid.text.tokenize import iter_tokens, tokenize

SECRET = "Quillfeather"  # stands for PHI: must never show up in an error message
GOOD = Document("good", f"Seen by Dr. {SECRET}.", [make_span(12, 24, "DOCTOR")])


def _xml(tags="", text=f"\nDr. {SECRET} seen\n", head='<?xml version="1.0" encoding="UTF-8" ?>'):
    return (f'{head}\n<deIdi2b2>\n<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n{tags}\n</TAGS>\n'
            "</deIdi2b2>\n")


BILLION_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
                  '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n'
                  "<deIdi2b2><TEXT>&lol2;</TEXT></deIdi2b2>")
EXTERNAL = ('<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
            "<deIdi2b2><TEXT>&xxe;</TEXT></deIdi2b2>")

I2B2_CASES = {
    "malformed": (_xml().replace("</TAGS>", ""), ReaderError, "malformed XML", None),
    "billion-laughs": (BILLION_LAUGHS, ReaderError, "DTDs and entities", None),
    "external-entity": (EXTERNAL, ReaderError, "DTDs and entities", None),
    "no-text": ('<?xml version="1.0"?><deIdi2b2><TAGS/></deIdi2b2>', ReaderError, "no <TEXT>", None),
    "outside": (_xml(f'<NAME id="P0" start="5" end="999" text="{SECRET}" TYPE="DOCTOR" comment="" />'),
                ReaderError, "outside the text", 5),
    "reversed": (_xml(f'<NAME id="P0" start="17" end="5" text="{SECRET}" TYPE="DOCTOR" comment="" />'),
                 ReaderError, "reversed", 17),
    "unknown-type": (_xml(f'<NAME id="P0" start="5" end="17" text="{SECRET}" TYPE="NURSE" comment="" />'),
                     SchemaError, "(NAME, a TYPE of 5 characters)", 5),
    "not-integer": (_xml(f'<NAME id="P0" start="x" end="17" text="{SECRET}" TYPE="DOCTOR" comment="" />'),
                    ReaderError, "integer start/end", None),
    "empty-file": ("", ReaderError, "malformed XML", None),
    "binary-junk": (bytes(range(256)) * 4, ReaderError, "not valid UTF-8", None),
    "latin-1": (_xml(text="\nJos\xe9 seen\n", head='<?xml version="1.0" encoding="UTF-8" ?>').encode("latin-1"),
                ReaderError, "not valid UTF-8", None),  # with the hint to name its encoding
}


def _check_message(err, path: Path, doc_id: str, offset):
    msg = str(err)
    assert str(path) in msg and repr(doc_id) in msg
    if offset is not None:
        assert f"offset {offset}" in msg
    assert SECRET not in msg and "passwd" not in msg


@pytest.mark.parametrize("case", sorted(I2B2_CASES))
def test_i2b2_bad_file_is_reported_and_others_read(case, tmp_path):
    data, kind, reason, offset = I2B2_CASES[case]
    write([GOOD], "i2b2", tmp_path)
    bad = tmp_path / f"{case}.xml"
    bad.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    errors = []
    docs = list(read(f"i2b2:{tmp_path}", errors=errors, scheme="i2b2"))
    assert [d.doc_id for d in docs] == ["good"]
    assert len(errors) == 1 and isinstance(errors[0], kind) and reason in str(errors[0])
    _check_message(errors[0], bad, case, offset)


def test_i2b2_overlap_is_read_then_reported_by_bio(tmp_path):
    tags = ('<NAME id="P0" start="5" end="17" text="x" TYPE="DOCTOR" comment="" />\n'
            '<NAME id="P1" start="5" end="17" text="x" TYPE="PATIENT" comment="" />')
    (tmp_path / "ov.xml").write_text(_xml(tags), encoding="utf-8")
    (doc,) = read(f"i2b2:{tmp_path}", check_text=False)
    assert len(doc.spans) == 2
    problems = bio.encode(tokenize(doc.text), doc.spans).problems
    assert [p.reason for p in problems] == ["overlap"]


def test_brat_bad_document_spares_the_others(tmp_path):
    write([GOOD], "brat", tmp_path)
    (tmp_path / "bad.txt").write_text(f"Dr. {SECRET}", encoding="utf-8")
    (tmp_path / "bad.ann").write_text("T1\tDOCTOR four 9\tx\n", encoding="utf-8")
    (tmp_path / "junk.txt").write_bytes(b"ok \xff\xfe junk")
    errors = []
    assert [d.doc_id for d in read(f"brat:{tmp_path}", errors=errors)] == ["good"]
    assert sorted(e.doc_id for e in errors) == ["bad", "junk"]
    junk = next(e for e in errors if e.doc_id == "junk")
    assert "not valid UTF-8" in str(junk) and junk.offset == 3
    for e in errors:
        assert SECRET not in str(e)


def test_physionet_records_give_patient_note_and_body():
    from crfdeid.io.physionet import iter_records
    raw = "START_OF_RECORD=1||||2||||\nok\n||||END_OF_RECORD\n"
    assert [r[2:] for r in iter_records(raw)] == [("1", "2", "ok\n")]


def test_physionet_bad_lines_fail_only_their_note(tmp_path):
    (tmp_path / "id.text").write_text(
        f"START_OF_RECORD=1||||1||||\nDr. {SECRET} seen\n||||END_OF_RECORD\n"
        "START_OF_RECORD=1||||2||||\nNo PHI here\n||||END_OF_RECORD\n"
        f"START_OF_RECORD=2||||1||||\nMr. {SECRET}\n||||END_OF_RECORD\n", encoding="utf-8")
    (tmp_path / "id-phi.phrase").write_text(
        f"1 1 4 999 HCPName {SECRET}\n2 1 4 16 Nurse {SECRET}\n1 2 zero\n", encoding="utf-8")
    errors = []
    docs = list(read(f"physionet:{tmp_path}", errors=errors))
    assert [d.doc_id for d in docs] == []  # 1-2 has an unparseable line, so it fails too
    assert sorted(e.doc_id for e in errors) == ["1-1", "1-2", "2-1"]
    by_id = {e.doc_id: e for e in errors}
    assert "outside the note" in str(by_id["1-1"]) and by_id["1-1"].offset == 4
    assert isinstance(by_id["2-1"], SchemaError)
    for e in errors:
        assert SECRET not in str(e)


@pytest.mark.parametrize("line, reason", [
    (b"{not json", "not valid JSON"),
    (b'{"id": "x", "text": 5}', "string 'text'"),
    (b'{"id": "x", "text": "abc", "spans": [{"start": 2, "end": 1, "subtype": "DATE"}]}', "reversed"),
    (b'{"id": "x", "text": "abc", "spans": [{"start": 0, "end": 1, "subtype": "NURSE"}]}',
     "a subtype of 5 characters"),
])
def test_jsonl_bad_line_reported_next_line_read(tmp_path, line, reason):
    path = tmp_path / "in.jsonl"
    path.write_bytes(line + b"\n" + b'{"id": "ok", "text": "fine"}\n')
    errors = []
    assert [d.doc_id for d in read(f"jsonl:{path}", errors=errors, scheme="i2b2")] == ["ok"]
    assert len(errors) == 1 and reason in str(errors[0]) and str(path) in str(errors[0])


def test_jsonl_non_utf8_line_reported_with_line_number(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"id": "ok", "text": "fine"}\n\xff\xfe\x00junk\n{"id": "ok2", "text": ""}\n')
    errors = []
    assert [d.doc_id for d in read(f"jsonl:{path}", errors=errors)] == ["ok", "ok2"]
    assert len(errors) == 1 and "line 2" in str(errors[0]) and "UTF-8" in str(errors[0])


@pytest.mark.parametrize("fmt, name, data", [
    ("text", "empty.txt", b""), ("jsonl", "empty.jsonl", b""), ("csv", "empty.csv", b""),
    ("csv", "junk.csv", bytes(range(256)))])
def test_empty_and_junk_files(tmp_path, fmt, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    errors = []
    if fmt == "csv":  # no header row: the file cannot be read at all
        with pytest.raises(InputError) as exc:
            read(f"{fmt}:{path}", errors=errors)
        assert str(path) in str(exc.value) and errors == []
        return
    docs = list(read(f"{fmt}:{path}", errors=errors))
    if fmt == "text":  # an empty note is a valid (empty) document
        assert [(d.doc_id, d.text) for d in docs] == [("empty", "")] and errors == []
    else:
        assert docs == [] and errors == []


@pytest.mark.parametrize("fmt", ["i2b2", "brat", "text", "jsonl", "csv", "physionet"])
def test_missing_or_empty_input_raises_at_once(tmp_path, fmt):
    # An input that cannot be read at all is a usage error (exit 2), raised before reading.
    with pytest.raises(InputError, match="nope"):
        read(f"{fmt}:{tmp_path / 'nope'}", errors=[])
    if fmt not in ("jsonl", "csv"):  # folder readers: a folder without their files
        (tmp_path / "empty").mkdir(exist_ok=True)
        (tmp_path / "empty" / "other.doc").write_text("x")
        with pytest.raises(InputError, match="empty"):
            read(f"{fmt}:{tmp_path / 'empty'}", errors=[])


@pytest.mark.slow
def test_thousands_of_files(tmp_path):
    for i in range(3000):
        (tmp_path / f"n{i:04d}.txt").write_text(f"note {i}", encoding="utf-8")
    (tmp_path / "n0500.txt").write_bytes(b"\xff")
    errors = []
    start = time.perf_counter()
    docs = list(read(f"text:{tmp_path}", errors=errors))
    assert time.perf_counter() - start < 10
    assert len(docs) == 2999 and [e.doc_id for e in errors] == ["n0500"]
    assert docs[0].doc_id == "n0000" and docs[-1].doc_id == "n2999"


@pytest.mark.slow
def test_large_single_line_note_streams(tmp_path):
    """A 50 MB single-line note: read, tokenized and counted in seconds with bounded memory."""
    path = tmp_path / "big.txt"
    unit = "Pneumothoraxresolvedslowly 1234567 "  # 2 tokens in 35 characters
    reps = 50_000_000 // len(unit)
    path.write_text(unit * reps, encoding="utf-8")
    # Peak RSS is VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork/exec, so under
    # the full suite the child reported the size of the pytest process (510 MB for 125 MB).
    script = ("import json,sys,time\n"
              "from crfdeid.experiments.bench.child import peak_rss_mb\n"
              "from crfdeid.cli.corpus import main\n"
              "t=time.perf_counter(); rc=main(['stats', sys.argv[1], '--json', '-q'])\n"
              "print(json.dumps({'rc': rc, 's': time.perf_counter()-t,"
              " 'rss_mb': peak_rss_mb()}), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script, f"text:{path}"], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parent.parent)
    import json
    stats = json.loads(proc.stdout)
    run = json.loads(proc.stderr.strip().splitlines()[-1])
    assert run["rc"] == 0 and stats["documents"] == 1 and stats["tokens"] == 2 * reps
    assert stats["segments"] == -(-stats["tokens"] // 200)
    # measured 122 MB (the text as bytes and as str, 50 MB each); a token list would need ~600 MB
    assert run["rss_mb"] < 400, run
    assert run["s"] < 60, run


def test_iter_tokens_equals_tokenize():
    text = "PEND01/26/2098 Dr.Smith (784)032-8966\n  x76221"
    for sg in (True, False):
        assert list(iter_tokens(text, sg)) == tokenize(text, sg)


def test_a_brat_offset_of_5000_digits_costs_its_document_only(tmp_path):
    """Issue 61: int() of a 5,000-digit offset raised ValueError and the documents after it were lost."""
    (tmp_path / "a.txt").write_text(f"Seen by Dr. {SECRET}.\n", encoding="utf-8")
    (tmp_path / "a.ann").write_text(f"T1\tDOCTOR 12 {'9' * 5000}\t{SECRET}\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("Seen by Dr. Lee.\n", encoding="utf-8")
    (tmp_path / "b.ann").write_text("T1\tDOCTOR 12 15\tLee\n", encoding="utf-8")
    errors: list = []
    docs = list(read(f"brat:{tmp_path}", errors=errors))
    assert [d.doc_id for d in docs] == ["b"] and len(docs[0].spans) == 1
    [err] = errors
    assert isinstance(err, ReaderError) and err.doc_id == "a" and "more than 18 digits" in str(err)
    assert SECRET not in str(err) and "99999" not in str(err)


@pytest.mark.parametrize("encoding", [None, "cp1252"])
def test_a_bad_byte_in_one_physionet_record_costs_that_record_only(tmp_path, encoding):
    """Issue 61: one byte that is not UTF-8 in one record lost every record of the file."""
    bad = b"\xff" if encoding is None else b"\x81"  # 0x81 is undefined in cp1252
    records = []
    for i in (1, 2, 3):
        body = f"Seen by Dr. {SECRET}{i} today.\n".encode()
        records.append(b"START_OF_RECORD=7||||%d||||\n" % i + (body.replace(b"today", b"to" + bad + b"day")
                                                               if i == 2 else body) + b"||||END_OF_RECORD\n")
    (tmp_path / "id.text").write_bytes(b"".join(records))
    (tmp_path / "id-phi.phrase").write_text("".join(f"7 {i} 12 {25} HCPName {SECRET}{i}\n" for i in (1, 2, 3)),
                                            encoding="utf-8")
    errors: list = []
    options = {} if encoding is None else {"encoding": encoding}
    docs = list(read(f"physionet:{tmp_path}", errors=errors, **options))
    assert [d.doc_id for d in docs] == ["7-1", "7-3"]
    assert [d.surface(s) for d in docs for s in d.spans] == [f"{SECRET}1", f"{SECRET}3"]
    [err] = errors  # the record's annotations are not reported again as a note not in the file
    assert err.doc_id == "7-2" and "record 2 (line 4): not valid" in str(err) and "at line 5" in str(err)
    assert SECRET not in str(err)
