"""Format-specific behaviour: BRAT policies, label maps, stdin/stdout, CSV options, plugins."""

from __future__ import annotations

import io
import json
import sys

import pytest

from crfdeid.document import Document, Span, make_span
from crfdeid.errors import ConfigError, InputError, OutputError, ReaderError, RegistryError, SchemaError
from crfdeid.io import parse_spec, read, write, writer, writer_names


def _stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_i2b2_fixture(data_dir):
    docs = list(read(f"i2b2:{data_dir / 'i2b2'}"))
    assert [d.doc_id for d in docs] == ["110-01", "110-02"]
    assert [docs[1].surface(s) for s in docs[1].spans] == ["01/26/2098", "6/95", "3041023"]
    assert docs[0].group == "110"


def test_brat_labels_fragments_and_ignored_lines(data_dir):
    (doc,) = read(f"brat:{data_dir / 'brat'}")
    assert [(doc.surface(s), s.subtype) for s in doc.spans] == [
        ("2097-07-22", "DATE"), ("Fulton Quill", "PATIENT"), ("91", "AGE"), ("Ivy", "DOCTOR"),
        ("Brandt", "DOCTOR"), ("Norwood General", "HOSPITAL"), ("(784)032-8966", "PHONE")]
    assert doc.meta["brat_fragments"] == 1
    assert doc.meta["brat_ignored"] == {"A": 1, "R": 1, "#": 1, "N": 1}


def test_brat_single_ann_file_path(data_dir):
    assert [d.doc_id for d in read(f"brat:{data_dir / 'brat' / 'note1.ann'}")] == ["note1"]


def _brat(tmp_path, ann, text="Seen by Ivy Brandt."):
    (tmp_path / "n.txt").write_text(text, encoding="utf-8")
    (tmp_path / "n.ann").write_text(ann, encoding="utf-8")
    return f"brat:{tmp_path}"


def test_brat_unknown_label_names_file_doc_line_offset_not_the_label(tmp_path):
    # A damaged line can carry note text where the label belongs: its length is shown, not it.
    spec = _brat(tmp_path, "T1\tDOCTOR 8 11\tIvy\nT2\tBrandt 12 18\tBrandt\n")
    with pytest.raises(SchemaError) as exc:
        list(read(spec, scheme="i2b2"))  # checked against the i2b2 scheme when asked
    msg = str(exc.value)
    assert "n.ann" in msg and "'n'" in msg and "offset 12" in msg and "line 2" in msg
    assert "of 6 characters" in msg and "Brandt" not in msg and "Ivy" not in msg


def test_brat_label_map_dict_yaml_and_null(tmp_path):
    spec = _brat(tmp_path, "T1\tNurse 8 11\tIvy\nT2\tSurname 12 18\tBrandt\n")
    (doc,) = read(spec, label_map={"Nurse": "DOCTOR", "surname": None})
    assert doc.spans == [make_span(8, 11, "DOCTOR")] and doc.meta["brat_dropped"] == 1
    mapfile = tmp_path / "map.yaml"
    mapfile.write_text("Nurse: NAME/DOCTOR\nSurname: NAME-DOCTOR\n")
    (doc,) = read(spec, label_map=str(mapfile))
    assert [s.subtype for s in doc.spans] == ["DOCTOR", "DOCTOR"]
    with pytest.raises(ConfigError, match="NURSE_PRACTITIONER"):
        list(read(spec, label_map={"Nurse": "NURSE_PRACTITIONER"}, scheme="i2b2"))


@pytest.mark.parametrize("ann, reason", [
    ("T1\tDOCTOR 8\tIvy\n", "offsets do not parse"),
    ("T1 DOCTOR 8 11 Ivy\n", "does not parse"),
    ("X1\tfoo\n", "unknown line kind"),
    ("T1\tDOCTOR 8 99\tIvy\n", "outside the text"),
    ("T1\tDOCTOR 11 8\tIvy\n", "reversed"),
    ("T1\tDOCTOR 8 11\tAnn\n", "text field differs"),
])
def test_brat_bad_lines(tmp_path, ann, reason):
    errors = []
    assert list(read(_brat(tmp_path, ann), errors=errors)) == []
    assert len(errors) == 1 and reason in str(errors[0]) and "line 1" in str(errors[0])


def test_brat_txt_without_ann_is_unannotated_ann_without_txt_is_an_error(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    (tmp_path / "b.ann").write_text("T1\tDATE 0 1\tx\n")
    errors = []
    (doc,) = read(f"brat:{tmp_path}", errors=errors)
    assert doc.spans == [] and doc.meta["annotated"] is False
    assert [(e.doc_id, "without their .txt" in str(e)) for e in errors] == [("b", True)]


def test_text_reader_folder_file_and_stdin(data_dir, monkeypatch):
    docs = list(read(f"text:{data_dir / 'text'}"))
    assert [d.doc_id for d in docs] == ["110-01", "110-02"] and docs[1].text.startswith("\nPEND")
    assert [d.doc_id for d in read(f"text:{data_dir / 'text' / '110-02.txt'}")] == ["110-02"]
    _stdin(monkeypatch, "Zoë\r\nline".encode())
    (doc,) = read("text:-")
    assert (doc.doc_id, doc.text) == ("stdin", "Zoë\r\nline")


def test_text_reader_suffix_option(tmp_path):
    (tmp_path / "a.note").write_text("x")
    (tmp_path / "b.txt").write_text("y")
    assert [d.doc_id for d in read(f"text:{tmp_path}", suffix=".note")] == ["a"]


def test_jsonl_stdin_to_stdout(monkeypatch, capsys):
    line = {"id": "a", "text": "Dr. Lee\r\n", "spans": [{"start": 4, "end": 7, "subtype": "DOCTOR"}]}
    _stdin(monkeypatch, (json.dumps(line) + "\n\n").encode())
    docs = list(read("jsonl:-"))
    assert docs[0].spans == [Span(4, 7, "NAME", "DOCTOR")]
    write(docs, "jsonl", "-")
    out = json.loads(capsys.readouterr().out)
    assert (out["id"], out["text"], out["spans"][0]["category"]) == ("a", "Dr. Lee\r\n", "NAME")


@pytest.mark.parametrize("fmt", ["i2b2", "brat", "text", "csv", "jsonl"])
def test_every_writer_accepts_stdout(fmt, capsys):
    doc = Document("d1", "Dr. Lee", [make_span(4, 7, "DOCTOR")])
    write([doc], fmt, "-")
    assert "Dr. Lee" in capsys.readouterr().out


def test_csv_options_and_string_cells(tmp_path):
    path = tmp_path / "notes.csv"
    path.write_text("note_id,body,other\n007,NA,x\n008,\"a,\nb\",y\n", encoding="utf-8")
    docs = list(read(f"csv:{path}", text_column="body", id_column="note_id"))
    assert [(d.doc_id, d.text) for d in docs] == [("007", "NA"), ("008", "a,\nb")]
    assert [d.doc_id for d in read(f"csv:{path}", text_column="body", id_column=None)] == ["row-1", "row-2"]
    with pytest.raises(InputError) as exc:  # before any row is read, even with errors=[]
        read(f"csv:{path}", errors=[])
    assert "no column 'text' or 'id'" in str(exc.value) and "3 columns" in str(exc.value)
    assert "note_id" not in str(exc.value)  # a header-less file has a note where names would be


def test_unknown_writer_lists_known_writers(tmp_path):
    with pytest.raises(RegistryError) as exc:
        writer("nosuch", tmp_path)
    for name in ("i2b2", "brat", "jsonl", "csv", "text"):
        assert name in str(exc.value)
    assert set(writer_names()) >= {"i2b2", "brat", "jsonl", "csv", "text"}


def test_writer_failure_leaves_no_partial_file(tmp_path):
    out = tmp_path / "out.jsonl"
    bad = Document("x", "ok", [])
    with pytest.raises(RuntimeError):
        with writer("jsonl", out) as w:
            w.write(bad)
            raise RuntimeError("interrupted")
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_i2b2_refuses_text_xml_cannot_carry(tmp_path):
    with pytest.raises(ReaderError, match="U\\+0001.*|offset 3"):
        write([Document("d", "abc\x01", [])], "i2b2", tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_parse_spec():
    assert parse_spec("brat:/x:y") == ("brat", "/x:y")
    assert parse_spec("C:\\notes", default="text") == ("text", "C:\\notes")
    with pytest.raises(ReaderError, match="FORMAT:PATH"):
        parse_spec("/no/format")


def test_missing_plugin_module_still_lists_known_writers(monkeypatch, tmp_path):
    import crfdeid.io as cio
    monkeypatch.setitem(cio.PLUGINS, "writer", ("crfdeid.not_written_yet",))
    with pytest.raises(RegistryError) as exc:
        writer("redacted-v9", tmp_path)
    assert "unknown writer 'redacted-v9'" in str(exc.value) and "jsonl" in str(exc.value)


def test_atomic_write_makes_folders_and_private_files(tmp_path):
    import os

    from crfdeid.io import atomic_write
    target = tmp_path / "new" / "a.xml"
    atomic_write(target, "é<x/>")
    assert target.read_bytes() == "é<x/>".encode()
    assert os.stat(target).st_mode & 0o777 == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["a.xml"]


def test_atomic_write_steps_around_a_stale_temporary_file(tmp_path):
    import os

    from crfdeid.io import atomic_write
    stale = tmp_path / f".tmp-a.xml-{os.getpid()}"
    stale.write_text("left by a killed run")
    atomic_write(tmp_path / "a.xml", b"new")
    assert (tmp_path / "a.xml").read_bytes() == b"new" and stale.read_text() == "left by a killed run"


def test_atomic_write_leaves_nothing_when_writing_fails(tmp_path, monkeypatch):
    from crfdeid.io import files
    (tmp_path / "a.xml").write_text("old")

    def broken(fd, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(files.os, "write", broken)
    with pytest.raises(OutputError, match="No space left"):
        files.atomic_write(tmp_path / "a.xml", "new")
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.xml"] and (tmp_path / "a.xml").read_text() == "old"


def test_atomic_write_takes_a_name_as_long_as_the_file_system_allows(tmp_path):
    from crfdeid.io import atomic_write
    target = tmp_path / ("n" * 250 + ".xml")  # 254 bytes: no room for the cheap temporary name
    atomic_write(target, "ok")
    assert target.read_text() == "ok" and [p.name for p in tmp_path.iterdir()] == [target.name]
