"""HL7 v2 by the standard's types in any segment, codes as written, what cannot be read refused
by name (issue 59; the reliability breaks of issue 61 in the HL7 reader). Messages made up."""

from __future__ import annotations

import pytest

from crfdeid.cli import tag
from crfdeid.io import hl7_std
from crfdeid.io.hl7_types import field_type, role
from crfdeid.io.records import RecordWriter

MSH = "MSH|^~\\&|LAB|HOSP|||20980722||ADT^A01|1|P|2.5.1\r"
PID = "PID|1||77310452^^^HOSP^MR||Quillon^Ardith^J||20400202|F|||12 Birchwood Ln^^Tallowford^OH^43017\r"
#: Segments the old table did not name, each with a person, place or identifier of a made-up patient.
OTHER = ("IAM|1|DA|^Penicillin^L|SV|Rash|U|E1^^HOSP|||||||Quaresma^Ilsabet\r"
         "CTD|C|Brannoc^Harlan|8 Mill Race^^Dunmere^OH^43020\r"
         "ACC|20980701|MV|||||Finch^Marlow^^^^^^^^^^^^^^^^^^^|||9 Keystone Rd^^Harrowgate^OH^43018\r"
         "DB1|1|PT|DB55102377\r"
         "OBX|1|NM|2093-3^CHOLESTEROL (SERUM)^LN||212|mg/dL^^ISO+|||||F|||||||||||||"
         "4 Lab Row^^Ferrow^OH^43019^^^OH055\r"
         "PRD|RP|Okonkwo^Teodora|5 Elm Ct^^Vashti^OH^43021\r"
         "STF||DOC77001^^^HOSP|Rennick^Lucasta||||||||6 Oak Way^^Dunmere^OH^43020\r"
         "FT1|1|||20980701|20980702|CG|99213^Office visit^CPT|||1||||||||||Pemberton^Odalys\r"
         "SPM|1|SP88120&HOSP||119364003^Serum^SCT|||||||||||||||||||||||||||||SPX55120^^^HOSP\r"
         "ZPI|1|ZA8812093|Y|Ardith lives at Birchwood\r"
         "KGC|1|Quillon^Ardith|ABC|Y\r")  # a name no version defines: as a Z-segment
ORIGINALS = ["Quillon", "Ardith", "77310452", "Birchwood", "Tallowford", "43017", "Quaresma", "Ilsabet", "Brannoc",
             "Harlan", "Mill Race", "Dunmere", "Finch", "Marlow", "Keystone", "Harrowgate", "DB55102377", "Lab Row",
             "Ferrow", "OH055", "Okonkwo", "Teodora", "Vashti", "Rennick", "Lucasta", "Oak Way", "Pemberton", "Odalys",
             "SPX55120", "ZA8812093"]
#: Values that are no identifier: codes, coding systems, a code's text, units, numbers.
KEPT = ["^Penicillin^L", "2093-3^CHOLESTEROL (SERUM)^LN", "|212|mg/dL^^ISO+|", "99213^Office visit^CPT",
        "119364003^Serum^SCT", "ADT^A01", "|DA|", "|CG|", "^OH^", "|Y|", "KGC|1|^|ABC|Y"]


def _run(tmp_path, style: str, files: dict[str, bytes]):
    src, out = tmp_path / "in", tmp_path / style
    src.mkdir(exist_ok=True)
    for name, data in files.items():
        (src / name).write_bytes(data)
    opts = ["-o", f"text={style}"] + (["--seed", "5"] if style == "surrogate" else [])
    code = tag.main(["--quiet", "--input-format", "hl7", "--output-format", "hl7", "--output-dir", str(out),
                     *opts, str(src)])
    return code, {p.name: p.read_bytes().decode("utf-8") for p in out.glob("*.hl7")}


@pytest.mark.parametrize("style", ["redacted", "surrogate"])
def test_every_segment_is_de_identified_by_its_types_and_codes_are_kept(tmp_path, style):
    code, got = _run(tmp_path, style, {"a.hl7": (MSH + PID + OTHER).encode()})
    assert code == 0
    out = got["a.hl7"]
    for original in ORIGINALS:
        assert original.lower() not in out.lower(), (style, original)
    for value in KEPT:
        assert value in out, (style, value)
    before, after = (MSH + PID + OTHER).split("\r"), out.split("\r")
    assert [s[:3] for s in after] == [s[:3] for s in before]  # segment names never change
    assert [s.count("|") for s in after] == [s.count("|") for s in before]


@pytest.mark.parametrize(("segment", "field", "version", "comp", "sub", "expected"), [
    ("IAM", 14, "2.5.1", 0, 0, "family"), ("CTD", 2, None, 1, 0, "given"), ("ACC", 11, None, 2, 0, "city"),
    ("DB1", 3, None, 0, 0, "id"), ("SPM", 30, None, 0, 0, "id"), ("OBX", 24, None, 8, 0, "geo"),
    ("OBX", 3, None, 2, 0, "ceid"), ("OBX", 3, None, 1, 0, "ctext"), ("PID", 7, "2.3", 0, 0, "dob"),
    ("FHS", 4, "2.3", 0, 0, "org"), ("ZPI", 2, None, 0, 0, "unknown"), ("PID", 99, None, 0, 0, "unknown"),
    ("FT1", 20, None, 1, 0, "family"), ("RF1", 20, None, 2, 0, "given"), ("PRD", 2, None, 0, 0, "family"),
    ("OBX", 6, None, 0, 0, "ceid"), ("PID", 11, None, 3, 0, "state"),
])
def test_each_field_takes_the_standards_type_in_its_version(segment, field, version, comp, sub, expected):
    assert role(field_type(segment, field, "", version), comp, sub, 1) == expected


def test_the_standard_is_read_by_version():
    assert hl7_std.version_of("2.5.1") == "2.5.1" and hl7_std.version_of("2.9") == "2.8.2"
    assert hl7_std.version_of("x") is None and hl7_std.version_of("1.0") is None
    assert hl7_std.field_type("PID", 7, "2.5") == "TS" and hl7_std.field_type("PID", 7) == "DTM"
    assert hl7_std.field_type("ZPI", 1) is None and hl7_std.is_segment("IAM") and not hl7_std.is_segment("KGC")


def test_the_shipped_standard_is_what_hl7apy_gives():
    pytest.importorskip("hl7apy")
    from importlib import resources
    shipped = resources.files("crfdeid._data").joinpath("hl7_std.tsv").read_text(encoding="utf-8")
    assert hl7_std.build().splitlines()[3:] == shipped.splitlines()[3:]


def test_what_cannot_be_read_is_refused_by_name_and_the_rest_written(tmp_path):
    joined = MSH.replace("\r", " ") + PID.replace("\r", " ") + "PV1|1|I\r"
    bad_name = MSH.replace("|1|P", "|2|P") + PID + "Pid|1|x\r"
    bad_byte = (MSH.replace("|1|P", "|3|P") + PID.replace("Quillon", "Quill\xe9n")).encode("latin-1")
    good = MSH.replace("|1|P", "|4|P") + PID
    files = {"a.hl7": (joined + bad_name + good).encode(), "b.hl7": bad_byte + good.encode(),
             "notes.xml": b"<x>Quillon</x>"}
    errors = []
    from crfdeid.io.hl7 import read_hl7
    docs = list(read_hl7(_write(tmp_path, files), errors.append))
    said = [str(e) for e in errors]
    assert len(docs) == 2 and len(said) == 4, said
    assert any("segments cannot be separated" in e and "a.hl7" in e and "message 1" in e for e in said)
    assert any("segment 3 is not a segment" in e and "message 2" in e for e in said)
    assert any("does not read" in e and "b.hl7" in e and "message 1" in e for e in said)
    assert any("notes.xml" in e and "not read" in e for e in said)
    assert not any("Quillon" in e or "Ardith" in e for e in said)  # no message holds the text
    code, got = _run(tmp_path, "surrogate", files)
    assert code == 1 and set(got) == {"a.hl7", "b.hl7"}
    assert all(text.count("MSH|") == 1 and "Quillon" not in text for text in got.values())


def _write(tmp_path, files: dict[str, bytes]):
    folder = tmp_path / "read"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def test_a_surrogate_equal_to_the_original_is_never_written():
    writer = RecordWriter(None, text="surrogate", seed=5)
    writer.inner.transform = lambda doc: doc  # a surrogate engine that gives the original back
    assert writer.value("p", "CYNTHIA", "PATIENT", "x") is None
    assert writer.name("p", ["CYNTHIA", "QUILLON"], "PATIENT", "x") == ["", ""]


def test_a_date_span_takes_the_pieces_of_its_date_the_model_left():
    from crfdeid.document import Document, make_span
    writer = RecordWriter(None, text="redacted")
    doc = Document("d", "seen 2098-07-12, 07/12/2098.", [make_span(5, 12, "DATE"), make_span(20, 27, "DATE")])
    assert writer.text(doc) == "seen [**DATE**], [**DATE**]."


def test_a_codes_text_is_read_only_where_it_names_someone_or_is_a_result():
    from crfdeid.io.hl7 import documents
    msg = (MSH + PID + "PV1|1|I|||||Rennick^Lucasta\r"
           "OBX|1|NM|2093-3^CHOLESTEROL (SERUM)^LN||212\r"
           "OBX|2|NM|X1^Panel for Lucasta^L||7\r"
           "OBX|3|CE|X2^Result^L||Y^Seen at the clinic^L\r")
    [doc] = documents([("m.hl7", msg.encode(), "m.hl7")], print)
    read = doc.text.split("\n")
    assert "Panel for Lucasta" in read and "Seen at the clinic" in read  # a name the message gives; a result
    assert "CHOLESTEROL (SERUM)" not in doc.text and "Result" not in read  # codes' texts: kept, not read
