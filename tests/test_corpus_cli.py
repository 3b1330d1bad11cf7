"""``python -m crfdeid corpus``: stats, convert, error summary and exit codes, pluggable subcommands."""

from __future__ import annotations

import json
import sys
import types

from crfdeid.cli import corpus
from crfdeid.document import Document, make_span
from crfdeid.io import read, write


def _run(argv, capsys):
    rc = corpus.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_stats_json_on_fixture(data_dir, capsys):
    rc, out, err = _run(["stats", f"i2b2:{data_dir / 'i2b2'}", "--json"], capsys)
    st = json.loads(out)
    assert rc == 0 and "read 2 documents, 0 failed" in err
    assert (st["documents"], st["spans"], st["alignment"]) == (2, 9, 1.0)
    assert st["spans_by_subtype"]["DATE"] == 3 and st["spans_by_category"]["ID"] == 1
    assert st["tokens"] > 30 and st["failed_documents"] == 0


def test_stats_lists_misaligned_spans_without_text(tmp_path, capsys):
    doc = Document("n1", "MRN 3041023MARY seen", [make_span(4, 13, "MEDICALRECORD")])
    write([doc], "jsonl", tmp_path / "c.jsonl")
    rc, out, _ = _run(["stats", f"jsonl:{tmp_path / 'c.jsonl'}"], capsys)
    assert rc == 0 and "misaligned: document 'n1' [4, 13) MEDICALRECORD" in out
    assert "3041023" not in out and "alignment     0.0000" in out
    rc, out, _ = _run(["stats", f"jsonl:{tmp_path / 'c.jsonl'}", "--json", "--no-split-glued"], capsys)
    assert json.loads(out)["bio_problems"] == {"misaligned": 1}
    rc, out, _ = _run(["stats", f"jsonl:{tmp_path / 'c.jsonl'}", "--show-text"], capsys)
    assert "[4, 13) MEDICALRECORD '3041023MA'" in out


def test_stats_counts_overlaps_and_brat_policies(data_dir, tmp_path, capsys):
    rc, out, _ = _run(["stats", f"brat:{data_dir / 'brat'}", "--json"], capsys)
    st = json.loads(out)
    assert st["reader_counts"] == {"brat_fragments": 1, "brat_ignored_#": 1, "brat_ignored_A": 1,
                                   "brat_ignored_N": 1, "brat_ignored_R": 1}
    doc = Document("o", "Ann Lee", [make_span(0, 7, "PATIENT"), make_span(4, 7, "DOCTOR")])
    write([doc], "jsonl", tmp_path / "o.jsonl")
    rc, out, _ = _run(["stats", f"jsonl:{tmp_path / 'o.jsonl'}", "--json"], capsys)
    assert json.loads(out)["bio_problems"] == {"overlap": 1}


def test_failed_documents_reported_counted_exit_1(tmp_path, capsys):
    write([Document("good", "Dr. Lee", [make_span(4, 7, "DOCTOR")])], "i2b2", tmp_path / "in")
    (tmp_path / "in" / "bad.xml").write_text("<deIdi2b2><TEXT>Secretname", encoding="utf-8")
    rc, out, err = _run(["convert", f"i2b2:{tmp_path / 'in'}", "--to", "jsonl",
                         "--out", str(tmp_path / "o.jsonl")], capsys)
    assert rc == 1
    assert "bad.xml" in err and "'bad'" in err and "wrote 1 documents, 1 failed" in err
    assert "Secretname" not in err + out
    assert [d.doc_id for d in read(f"jsonl:{tmp_path / 'o.jsonl'}")] == ["good"]


def test_convert_options_and_stdout(data_dir, tmp_path, capsys):
    csv = tmp_path / "t.csv"
    csv.write_text("nid,body\na1,Dr. Lee\n", encoding="utf-8")
    rc, out, _ = _run(["convert", f"csv:{csv}", "-o", "text_column=body", "-o", "id_column=nid",
                       "--to", "jsonl", "--out", "-"], capsys)
    assert rc == 0 and json.loads(out)["id"] == "a1"


def test_convert_brat_to_i2b2_keeps_spans(data_dir, tmp_path, capsys):
    rc, _, _ = _run(["convert", f"brat:{data_dir / 'brat'}", "--to", "i2b2", "--out", str(tmp_path)], capsys)
    assert rc == 0
    assert list(read(f"i2b2:{tmp_path}"))[0].spans == list(read(f"brat:{data_dir / 'brat'}"))[0].spans


def test_bad_option_and_unknown_format(capsys, data_dir):
    rc, _, err = _run(["stats", f"i2b2:{data_dir}", "-o", "no-equals"], capsys)
    assert rc == 2 and "KEY=VALUE" in err
    rc, _, err = _run(["stats", "nosuch:x"], capsys)
    assert rc == 2 and "unknown reader 'nosuch'" in err and "brat" in err


def test_subcommands_from_command_modules(monkeypatch, capsys):
    plugin = types.ModuleType("crfdeid_test_plugin")

    def register(subparsers):
        p = subparsers.add_parser("hello")
        p.set_defaults(func=lambda args: 7)
    plugin.register = register
    monkeypatch.setitem(sys.modules, "crfdeid_test_plugin", plugin)
    monkeypatch.setattr(corpus, "COMMAND_MODULES",
                        corpus.COMMAND_MODULES + ("crfdeid_test_plugin", "crfdeid_absent_plugin"))
    assert corpus.main(["hello"]) == 7
    assert "crfdeid.cli.surrogate" in corpus.COMMAND_MODULES


def test_stats_physionet_shared_corpus(physionet_dir, capsys):
    rc, out, _ = _run(["stats", f"physionet:{physionet_dir}", "--json", "-q"], capsys)
    st = json.loads(out)
    assert rc == 0
    assert (st["documents"], st["spans"], st["alignment"]) == (1622, 1221, 1.0)


def test_convert_physionet_to_i2b2_same_spans(physionet_dir, physionet_docs, tmp_path, capsys):
    rc, _, err = _run(["convert", f"physionet:{physionet_dir}", "--to", "i2b2", "--out",
                       str(tmp_path), "-q"], capsys)
    assert rc == 0 and "wrote 1622 documents, 0 failed" in err
    back = {d.doc_id: d.spans for d in read(f"i2b2:{tmp_path}")}
    assert back == {d.doc_id: d.spans for d in physionet_docs}
