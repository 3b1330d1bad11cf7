"""Bad input loses nothing silently and prints no text (issue 17).

PhysioNet records without their end or with a broken header, i2b2 notes that XML
would cut, JSONL lines nested too deeply, CSV rows with bad bytes or fields:
each costs its own record, line or row, and is reported by file and line or
record, never by its text. Inputs that cannot be read at all are usage errors.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from crfdeid.cli import corpus, tag
from crfdeid.errors import InputError, ReaderError
from crfdeid.io import read
from crfdeid.io.runmanifest import notes_only

NAME = "Zebulon Quackenbush"  # stands for PHI: never in a message
TEXT = f"Patient {NAME} seen\n"


def _no_name(*texts):
    for text in texts:
        for part in NAME.split():
            assert part not in str(text)


# -- item 1: errors never print note text -------------------------------------------------

def test_csv_without_header_does_not_print_the_first_note(tmp_path, capsys):
    (tmp_path / "a.csv").write_text(f'n1,"{TEXT.strip()}"\n')
    rc = corpus.main(["stats", f"csv:{tmp_path / 'a.csv'}"])
    out, err = capsys.readouterr()
    assert rc == 2 and "no column 'text'" in err and "2 columns" in err
    _no_name(out, err)


def test_physionet_phrase_line_without_category_does_not_print_the_name(tmp_path):
    (tmp_path / "id.text").write_text(f"START_OF_RECORD=1||||1||||\n{TEXT}||||END_OF_RECORD\n")
    (tmp_path / "id-phi.phrase").write_text(f"1 1 8 26 {NAME}\n")  # the category is missing
    errors = []
    assert list(read(f"physionet:{tmp_path}", errors=errors)) == []
    [err] = errors
    assert "phrase line 1" in str(err) and "7 characters" in str(err) and err.doc_id == "1-1"
    _no_name(err)


def test_phrase_lines_for_no_note_do_not_print_their_ids_when_they_could_be_words(tmp_path):
    (tmp_path / "id.text").write_text(f"START_OF_RECORD=1||||1||||\n{TEXT}||||END_OF_RECORD\n")
    (tmp_path / "id-phi.phrase").write_text(f"{NAME} 1 2 Date x\n7 9 1 2 Date x\n")
    errors = []
    assert [d.doc_id for d in read(f"physionet:{tmp_path}", errors=errors)] == ["1-1"]
    assert sorted(str(e.doc_id) for e in errors) == ["7-9", "None"]
    _no_name(*errors)


def test_an_unexpected_reader_exception_is_reported_by_type_only(tmp_path, monkeypatch):
    import crfdeid.io.text as text_module
    (tmp_path / "a.txt").write_text("fine")
    (tmp_path / "b.txt").write_text(TEXT)

    def broken(*args, **kw):  # a bug whose message quotes the note
        real = read_text_file(*args, **kw)
        if real == TEXT:
            raise ValueError(f"cannot parse {real!r}")
        return real
    read_text_file = text_module.read_text_file
    monkeypatch.setattr(text_module, "read_text_file", broken)
    errors = []
    assert [d.doc_id for d in read(f"text:{tmp_path}", errors=errors)] == ["a"]
    [err] = errors
    assert "unexpected ValueError" in str(err) and str(tmp_path) in str(err)
    _no_name(err)
    with pytest.raises(ReaderError) as exc:  # raised, it carries no chained exception either
        list(read(f"text:{tmp_path}"))
    assert exc.value.__suppress_context__ and exc.value.__cause__ is None
    _no_name(exc.value)


# -- item 4: PhysioNet records ------------------------------------------------------------

def _record(patient, note, body, end=True):
    return f"START_OF_RECORD={patient}||||{note}||||\n{body}" + ("||||END_OF_RECORD\n" if end else "")


@pytest.mark.parametrize("case, records, kept, problem", [
    ("missing-end-middle", [("1", "1", "one\n", True), ("1", "2", TEXT, False), ("2", "1", "three\n", True)],
     {"1-1": "one\n", "2-1": "three\n"}, "record 2 (line 4)"),
    ("missing-end-last", [("1", "1", "one\n", True), ("1", "2", TEXT, False)],
     {"1-1": "one\n"}, "record 2 (line 4)"),
])
def test_physionet_record_without_its_end_is_reported_not_merged(tmp_path, case, records, kept, problem):
    (tmp_path / "id.text").write_text("".join(_record(*r) for r in records))
    errors = []
    docs = {d.doc_id: d.text for d in read(f"physionet:{tmp_path}", errors=errors)}
    assert docs == kept
    [err] = errors
    assert problem in str(err) and "END_OF_RECORD" in str(err) and "id.text" in str(err)
    _no_name(err)


def test_physionet_broken_header_and_stray_text_are_reported(tmp_path):
    raw = (_record("1", "1", "one\n") + f"START_OF_RECORD=1|||2||||\n{TEXT}||||END_OF_RECORD\n"
           + f"{NAME}\n" + _record("2", "1", "three\n"))
    (tmp_path / "id.text").write_text(raw)
    errors = []
    docs = {d.doc_id: (d.text, d.meta["record"]) for d in read(f"physionet:{tmp_path}", errors=errors)}
    assert docs == {"1-1": ("one\n", 1), "2-1": ("three\n", 3)}
    assert ["record 2 (line 4): the header does not parse" in str(errors[0]),
            "line 7: 19 characters outside any record" in str(errors[1])] == [True, True]
    _no_name(*errors)


def test_physionet_offsets_of_later_records_stay_right_after_a_broken_one(tmp_path):
    (tmp_path / "id.text").write_text(_record("1", "1", TEXT, end=False) + _record("2", "1", TEXT))
    (tmp_path / "id-phi.phrase").write_text(f"2 1 8 27 PTName {NAME}\n")
    errors = []
    [doc] = read(f"physionet:{tmp_path}", errors=errors)
    assert doc.doc_id == "2-1" and [doc.surface(s) for s in doc.spans] == [NAME] and len(errors) == 1


def test_physionet_repeated_record_is_reported_with_both_records(tmp_path):
    (tmp_path / "id.text").write_text(_record("1", "1", "one\n") + _record("1", "1", TEXT))
    errors = []
    assert [d.text for d in read(f"physionet:{tmp_path}", errors=errors)] == ["one\n"]
    assert "record 2" in str(errors[0]) and "record 1" in str(errors[0])


def test_physionet_unreadable_phrase_file_reads_no_note_without_its_annotations(tmp_path):
    (tmp_path / "id.text").write_text(_record("1", "1", TEXT))
    (tmp_path / "id-phi.phrase").write_bytes(b"1 1 8 15 PTName Zeb\xff\n")
    errors = []
    assert list(read(f"physionet:{tmp_path}", errors=errors)) == []
    assert any("phrase file cannot be read" in str(e) for e in errors)


# -- item 5: i2b2 notes XML would cut -----------------------------------------------------

def _i2b2(body: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>{body}<TAGS></TAGS>\n</deIdi2b2>\n'


@pytest.mark.parametrize("body, reason, offset", [
    (f"<TEXT>Patient <b>{NAME}</b> seen</TEXT>", "holds an element", 8),
    (f"<TEXT>Patient</TEXT><TEXT>{NAME}</TEXT>", "2 <TEXT> elements", None),
    (f"<TEXT>Patient</TEXT>{NAME}", "outside <TEXT>", None),
    (f"{NAME}<TEXT>Patient</TEXT>", "outside <TEXT>", None),
    (f"<TEXT>Patient</TEXT><NOTE>{NAME}</NOTE>", "neither <TEXT> nor <TAGS>", None),
])
def test_i2b2_note_that_would_be_cut_is_refused(tmp_path, body, reason, offset):
    (tmp_path / "cut.xml").write_text(_i2b2(body))
    (tmp_path / "good.xml").write_text(_i2b2("<TEXT>fine</TEXT>"))
    errors = []
    assert [d.doc_id for d in read(f"i2b2:{tmp_path}", errors=errors)] == ["good"]
    [err] = errors
    assert reason in str(err) and err.doc_id == "cut" and err.offset == offset
    _no_name(err)


def test_i2b2_element_and_type_names_from_the_file_are_not_shown(tmp_path):
    tags = f'<{NAME.split()[1]} id="{NAME.split()[0]}" start="0" end="3" TYPE="DOCTOR" />'
    (tmp_path / "a.xml").write_text(_i2b2("<TEXT>Ann Lee</TEXT>").replace("<TAGS></TAGS>", f"<TAGS>{tags}</TAGS>"))
    errors = []
    assert list(read(f"i2b2:{tmp_path}", errors=errors, scheme="i2b2")) == []
    assert "TAGS element 1" in str(errors[0]) and "an element name of 11 characters" in str(errors[0])
    _no_name(*errors)


# -- item 6: a bad line or row costs that line or row --------------------------------------

def test_jsonl_deeply_nested_line_costs_that_line(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n' + "[" * 200_000 + "\n" + '{"id": "b", "text": "y"}\n')
    errors = []
    assert [d.doc_id for d in read(f"jsonl:{path}", errors=errors)] == ["a", "b"]
    assert len(errors) == 1 and "line 2" in str(errors[0]) and "nested too deeply" in str(errors[0])


def test_jsonl_deep_spans_and_odd_fields_cost_their_line(tmp_path):
    lines = ['{"id": "a", "text": "x", "spans": ' + "[" * 100_000 + "]" * 100_000 + "}",
             '{"id": "b", "text": "x", "spans": 5}',
             '{"id": {"name": "' + NAME + '"}, "text": "x"}',
             '{"id": "c", "text": "x", "spans": [{"start": 0.5, "end": 1, "subtype": "DATE"}]}',
             '{"id": "d", "text": "\\ud800x"}',
             '{"id": "ok", "text": "x"}']
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    errors = []
    assert [d.doc_id for d in read(f"jsonl:{path}", errors=errors)] == ["ok"]
    assert [f"line {i}" in str(e) for i, e in enumerate(errors, 1)] == [True] * 5
    _no_name(*errors)


CSV_ROWS = [
    (b"a,good one\r\n", None),
    (b'b,"bad \xff byte"\n', "not valid UTF-8"),
    (b"c,too,many\n", "3 fields"),
    (b'd,a "quote" inside a cell\n', None),  # read as written, as Python's csv module does
    (b'e,"multi\nline, kept"\n', None),
    (b"f," + b"x" * 300_000 + b"\n", None),  # past the csv module's default field limit
    (b'g,"opened" then\nh,fine\n', "does not parse"),
    (b"i,last\n", None),
]


def test_csv_bad_rows_cost_their_row_only(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(b"\xef\xbb\xbfid,text\n" + b"".join(row for row, _ in CSV_ROWS))
    errors = []
    docs = {d.doc_id: d for d in read(f"csv:{path}", errors=errors)}
    # malformed CSV (row g) ends the file: past it, where a row starts is a guess (issue 36)
    assert sorted(docs) == ["a", "d", "e", "f"]
    assert docs["d"].text == 'a "quote" inside a cell'
    assert docs["e"].text == "multi\nline, kept" and len(docs["f"].text) == 300_000
    assert (docs["a"].text, docs["a"].meta["line"], docs["f"].meta["line"]) == ("good one", 2, 8)
    assert "the rest of the file are not read" in str(errors[-1])
    assert [e.reason.split(":")[0] for e in errors] == ["row 2 (line 3)", "row 3 (line 4)", "row 7 (line 9)"]
    for err, reason in zip(errors, [r for _, r in CSV_ROWS if r]):
        assert reason in str(err) and str(path) in str(err)


def test_csv_unterminated_quote_names_the_lines_it_swallowed(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(f'id,text\na,fine\nb,"never closed\nc,{NAME}\n')
    errors = []
    assert [d.doc_id for d in read(f"csv:{path}", errors=errors)] == ["a"]
    assert "lines 3-4" in str(errors[0]) and "unexpected end of data" in str(errors[0])
    _no_name(*errors)


STRAY = '"n0","Fine."\n"n1"x,"Seen today.\nMr. Zebulon,Quackenbush came in.\nPlan: rest."\n"n2","Fine."\n'


@pytest.mark.parametrize("header, rows", [
    ("id,text", STRAY),
    ("id,text,spans", STRAY.replace('"\n', '",\n').replace('came in.",', "came in.,[]")),
])
def test_csv_stray_character_after_a_quote_makes_no_rows_of_a_note(tmp_path, capsys, header, rows):
    # issue 36: `"n1"x,"Seen today.\nMr. ...` made a note's lines rows: a file named after the
    # patient in the output folder, the name in a message. Malformed CSV ends the reading.
    src = tmp_path / "in"
    src.mkdir()
    (src / "t.csv").write_text(f"{header}\n{rows}", encoding="utf-8")
    out = tmp_path / "out"
    rc = tag.main([f"csv:{src / 't.csv'}", "--output-format", "redacted", "--output-dir", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 1 and sorted(p.name for p in notes_only(out.iterdir())) == ["n0.txt"]
    assert "line 3" in err and "does not parse" in err
    _no_name(err)


@pytest.mark.parametrize("bad_id, reason", [
    (f"Seen today.\n{NAME} came in", "line break"),
    ("x" * 129 + NAME, "characters"),
    (f"{NAME}\t2", "control character"),
])
def test_an_id_that_is_note_text_is_refused_by_position_not_shown(tmp_path, bad_id, reason):
    import csv
    import io
    import json
    (tmp_path / "t.jsonl").write_text(json.dumps({"id": "ok", "text": "a"}) + "\n"
                                      + json.dumps({"id": bad_id, "text": "b"}) + "\n", encoding="utf-8")
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([["id", "text"], ["ok", "a"], [bad_id, "b"]])
    (tmp_path / "t.csv").write_text(buf.getvalue(), encoding="utf-8")
    for spec, where in ((f"jsonl:{tmp_path / 't.jsonl'}", "line 2"), (f"csv:{tmp_path / 't.csv'}", "row 2")):
        errors = []
        assert [d.doc_id for d in read(spec, errors=errors)] == ["ok"]
        [err] = errors
        assert where in str(err) and reason in str(err) and "not a document id" in str(err)
        _no_name(err)


# -- item 7: inputs that cannot be read at all ----------------------------------------------

@pytest.mark.parametrize("command", ["tag", "stats"])
def test_folder_without_matching_files_is_a_usage_error(tmp_path, capsys, command):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("x")
    if command == "tag":
        rc = tag.main([str(tmp_path / "notes"), "--output-dir", str(tmp_path / "o"), "--quiet"])
    else:
        rc = corpus.main(["stats", f"text:{tmp_path / 'notes'}"])
    err = capsys.readouterr().err
    assert rc == 2 and "no *.txt, *.docx or *.rtf files" in err and str(tmp_path / "notes") in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("argv", [["--input-format", "docx", "-"], ["docx:notes/"]])
def test_unknown_input_format_lists_the_known_ones(capsys, argv):
    rc = tag.main([*argv, "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and "unknown reader 'docx'" in err and "brat" in err and "jsonl" in err
    assert "Traceback" not in err


def test_unknown_reader_option_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("x")
    rc = corpus.main(["stats", f"text:{tmp_path}", "-o", "label_map=x.yaml"])
    assert rc == 2 and "reader 'text' does not take label_map; it takes: suffix" in capsys.readouterr().err


# -- item 11: the registry has its own module ------------------------------------------------

def test_registries_live_in_io_registry_and_init_imports_only_at_the_top():
    import crfdeid.io as cio
    from crfdeid.io import registry
    assert cio.READERS is registry.READERS and cio.read is registry.read and cio.write is registry.write
    assert {"i2b2", "brat", "jsonl", "csv", "text", "physionet"} <= set(registry.READERS.names())
    tree = ast.parse(Path(cio.__file__).read_text())
    body = [n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    kinds = [isinstance(n, (ast.Import, ast.ImportFrom)) for n in body]
    assert kinds == sorted(kinds, reverse=True)  # every import before any other statement


def test_read_checks_the_input_when_called_not_when_iterated(tmp_path):
    with pytest.raises(InputError):
        read(f"jsonl:{tmp_path / 'missing.jsonl'}")  # no iteration needed


# -- inputs that never hang (issue 52 item 8) ---------------------------------------------------


def test_a_json_number_too_long_fails_its_line_only(tmp_path, capsys):
    from crfdeid.cli import main
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "a", "text": "first"}\n'
                    '{"id": "b", "text": "x", "meta": {"n": ' + "9" * 5000 + '}}\n'
                    '{"id": "c", "text": "third"}\n', encoding="utf-8")
    assert main(["tag", f"jsonl:{path}", "--output-format", "redacted", "--output-dir", str(tmp_path / "o"),
                 "--quiet"]) == 1
    # the lines after it were read
    assert sorted(p.name for p in notes_only((tmp_path / "o").iterdir())) == ["a.txt", "c.txt"]
    err = capsys.readouterr().err
    assert "line 2" in err and "digits" in err and "9999" not in err


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_a_special_file_is_refused_by_name_never_read(tmp_path, capsys, special, fmt):
    import subprocess
    import sys
    if special == "fifo":
        special = str(tmp_path / "n.txt")
        os.mkfifo(special)
    done = subprocess.run([sys.executable, "-m", "crfdeid", "tag", f"{fmt}:{special}", "--output-format",
                           "redacted", "--output-dir", str(tmp_path / "o")], capture_output=True, text=True,
                          timeout=120)  # a read that waited would hang here
    assert done.returncode in (1, 2)
    assert "not read" in done.stderr and ("FIFO" in done.stderr or "device" in done.stderr)


def test_an_input_over_the_size_limit_is_refused_by_name(tmp_path, monkeypatch, capsys):
    from crfdeid.cli import main
    monkeypatch.setenv("CRFDEID_MAX_INPUT_BYTES", "100")
    (tmp_path / "n").mkdir()
    (tmp_path / "n" / "big.txt").write_text("Seen by Dr. Lee. " * 20, encoding="utf-8")
    (tmp_path / "n" / "small.txt").write_text("Seen by Dr. Lee.", encoding="utf-8")
    assert main(["tag", str(tmp_path / "n"), "--output-format", "redacted", "--output-dir", str(tmp_path / "o"),
                 "--quiet"]) == 1
    assert [p.name for p in notes_only((tmp_path / "o").iterdir())] == ["small.txt"]
    assert "larger than 100 bytes" in capsys.readouterr().err
    path = tmp_path / "long.jsonl"
    path.write_text('{"id": "a", "text": "' + "x" * 200 + '"}\n', encoding="utf-8")
    assert main(["tag", f"jsonl:{path}", "--output-format", "redacted", "--quiet"]) in (1, 2)
    assert "a line longer than 100 bytes" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["-m", "crfdeid", "tag"], ["-m", "crfdeid.tag"]])
@pytest.mark.parametrize("fmt", ["redacted", "jsonl"])
def test_a_full_standard_output_is_one_line_and_exit_3(tmp_path, command, fmt):
    import subprocess
    import sys
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    note = tmp_path / "n.txt"
    note.write_text("Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, *command, str(note), "--output-format", fmt], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 3
    assert "Traceback" not in done.stderr and "error: cannot write the output" in done.stderr
    assert "Lee" not in done.stderr


def test_recursive_follows_a_linked_folder_once_and_names_a_loop(tmp_path, capsys):
    """Issue 52: ``--recursive`` skipped a symlinked subfolder without a word."""
    from crfdeid.cli import main
    top, elsewhere = tmp_path / "top", tmp_path / "elsewhere"
    (top / "real").mkdir(parents=True)
    elsewhere.mkdir()
    (top / "a.txt").write_text("Seen by Dr. Lee.", encoding="utf-8")
    (elsewhere / "b.txt").write_text("Seen by Dr. Kim.", encoding="utf-8")
    os.symlink(elsewhere, top / "real" / "linked")
    os.symlink(top, top / "real" / "loop")  # back to the top: followed, it would never end
    out = tmp_path / "out"
    assert main(["tag", str(top), "--recursive", "--output-format", "redacted", "--output-dir", str(out),
                 "--quiet"]) == 0
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.txt")) == ["a.txt", "real/linked/b.txt"]
    err = capsys.readouterr().err
    assert "real/loop/" in err and "already read" in err
