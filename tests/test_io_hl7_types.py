r"""HL7 v2 by data type (issue 51): every field de-identified by its type, unknown segments and
fields as text, the message written back byte for byte but the replaced values. The messages
of tests/data/hl7 (full.hl7: every segment the table covers, mixed terminators, escapes, a
Z-segment; batch.hl7: a byte-order mark, batch headers, \r\n, no final terminator... ;
custom.hl7: other separators, \n) are made up."""

from __future__ import annotations

import datetime as dt

import pytest

from crfdeid.cli import tag
from crfdeid.io.hl7 import plan, rewrite
from crfdeid.io.hl7_parse import Delims, delims_for, fields_of, lines_of, split_messages
from crfdeid.io.hl7_types import COMPONENTS, field_type, number_runs, parse_table, role, table
from crfdeid.io.runmanifest import notes_only

#: Every made-up identifier of each message (names, numbers, addresses, facilities, dates).
ORIGINALS = {
    "full.hl7": ["Quillon", "Ardith", "Ardy", "77310452", "512550187", "512-55-0187", "Birchwood", "Tallowford",
                 "43017", "617-555-0143", "6175550143", "ardith.quillon", "aquillon", "617-555-0177", "AC55190827",
                 "QL9930418", "Brannoc", "617-555-0144", "617-555-0188", "617-555-0189", "Harrowgate", "Ferrow",
                 "Dunmere", "43020", "NK771044", "512-55-0190", "Pemberton", "Lucasta", "60311", "Okonkwo", "Teodora",
                 "70422", "Vashti", "Rennick", "70533", "Quaresma", "Ilsabet", "90812", "VN40021877", "GT55102",
                 "Mill Race", "43018", "617-555-0155", "Keystone", "Marlow", "Finch", "617-555-0101", "GRP55821",
                 "POL66120934", "MBR88120377", "EMP44102", "CERT77012", "PLC10001", "FIL20002", "DOC77001",
                 "SP88120", "QRY55123", "QRY55124", "QRY55125", "RXN4410291", "APT7701", "77310400", "ZA8812093",
                 "QLAB", "QEHR", "TGH", "2.16.840.1.113883.19.4", "Lab Row", "43019", "QXJkaXRoIFF1aWxsb24",
                 "209807", "209808", "20310314", "19990101", "07/22/2098", "20991231"],
    "batch.hl7": ["TALLOWFORD", "QLAB", "TGH", "66120991", "Marrowby", "Esdras", "20400202", "Kiln", "Dunmere",
                  "43020", "617-555-0166", "66120992", "Fennick", "Odalys", "20420303", "617-555-0167",
                  "ACCT88120455", "209807", "batch77"],
    "custom.hl7": ["QLAB", "TGH", "55019877", "Thistlewood", "Corvina", "20390505", "Osier", "Dunmere", "43020",
                   "617-555-0171", "ZQ66120011", "209807"],
}
STYLES = ["redacted", "masked", "surrogate"]


def _run(tmp_path, style, src):
    out = tmp_path / style
    opts = ["-o", f"text={style}"] + (["--seed", "5"] if style == "surrogate" else [])
    code = tag.main(["--quiet", "--input-format", "hl7", "--output-format", "hl7", "--output-dir", str(out),
                     *opts, str(src)])
    return code, out


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, data_dir):
    """Each style's output of the folder of messages: {style: {file name: text}}."""
    tmp = tmp_path_factory.mktemp("hl7")
    got = {}
    for style in STYLES:
        code, out = _run(tmp, style, data_dir / "hl7")
        assert code == 0
        got[style] = {p.name: p.read_bytes().decode("utf-8") for p in notes_only(out.iterdir())}
    return got


def _segments(text: str) -> list[tuple[str, str]]:
    return lines_of(text.lstrip("\ufeff"))


def _leaves(text: str) -> dict[tuple, tuple[str, str]]:
    """{(line, field, rep, comp, sub): (raw, role)} of every message of a file."""
    lines = _segments(text)
    out = {}
    for numbers in split_messages(lines)[0]:
        mine = [lines[n] for n in numbers]
        d = Delims(next(c for c, _ in mine if c.startswith("MSH")))
        for k, n, r, c, s, raw, what, _ in plan(mine, d):
            out[(numbers[k], n, r, c, s)] = (raw, what)
    return out


def _shape(content: str, d: Delims) -> list:
    f = fields_of(content, d)
    return [f[0]] + [[[len(c.split(d.sub)) for c in rep.split(d.comp)] for rep in x.split(d.rep)] for x in f[1:]]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", sorted(ORIGINALS))
def test_no_identifier_of_the_message_survives(outputs, name, style):
    out = outputs[style][name].lower()
    for original in ORIGINALS[name]:
        assert original.lower() not in out, (name, style, original)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", sorted(ORIGINALS))
def test_every_separator_terminator_and_code_is_written_as_read(outputs, data_dir, name, style):
    src = (data_dir / "hl7" / name).read_bytes().decode("utf-8")
    out = outputs[style][name]
    assert out.startswith("\ufeff") == src.startswith("\ufeff")
    ins, outs = _segments(src), _segments(out)
    assert [t for _, t in outs] == [t for _, t in ins]  # \r, \n, \r\n, none at the end: as given
    d = Delims(next(c for c, _ in ins if c.startswith("MSH")))
    for (a, _), (b, _) in zip(ins, outs):
        if a:  # the same fields, repetitions, components, subcomponents: no separator added or escaped
            assert _shape(b, delims_for(b, d)) == _shape(a, delims_for(a, d))
    before, after = _leaves(src), _leaves(out)
    kept = [k for k, (_, what) in before.items() if what in ("code", "ceid", "num", "keep")]
    assert kept and all(after[k][0] == before[k][0] for k in kept)


@pytest.mark.parametrize("style", ["redacted", "surrogate"])
def test_escapes_of_text_are_kept_as_written(outputs, style):
    obx = next(s for s in outputs[style]["full.hl7"].split("\r") if s.startswith("OBX|1|"))
    value = obx.split("|")[5]
    assert "\\.br\\" in value and "\\T\\" in value and value.endswith("\\X0D\\Lab \\H\\stable\\N\\.")
    assert "\n" not in obx and "Quillon" not in value
    seven = outputs[style]["custom.hl7"].split("\n")[2].split("!")[5]  # custom escape character $
    assert "$F$" in seven and seven.endswith("plan$.br$home") and "Corvina" not in seven


def test_batch_headers_null_and_byte_order_mark_are_kept(outputs, data_dir):
    out = outputs["surrogate"]["batch.hl7"]
    assert out.startswith("\ufeffFHS|^~\\&|") and "\r\nBHS|^~\\&|" in out and out.endswith("\r\nBTS|2\r\nFTS|1\r\n")
    assert "\r\n\r\nMSH|" in out  # the blank line between two messages
    for style in STYLES:  # the explicit null
        assert outputs[style]["full.hl7"].rsplit("|", 1)[1] == '""' and '|||""\r' in outputs[style]["full.hl7"]


def _field(text: str, segment: str, number: int, sep: str = "|") -> str:
    line = next(s for s in text.replace("\r\n", "\r").split("\r") if s.startswith(segment + sep))
    return fields_of(line, Delims("MSH|^~\\&"))[number]


@pytest.mark.parametrize("style", STYLES)
def test_a_z_segments_account_number_is_de_identified(outputs, style):
    assert _field(outputs[style]["full.hl7"], "ZPI", 2) == ""  # a field no definition names: removed whole
    assert "ACCT88120455" not in _field(outputs[style]["batch.hl7"], "ZAC", 1)


def test_a_doctor_gets_one_surrogate_in_every_field_and_in_the_notes(outputs):
    out = outputs["surrogate"]["full.hl7"]
    pv17 = _field(out, "PV1", 7).split("^")
    assert pv17[1:3] != ["Pemberton", "Lucasta"] and pv17[0] != "60311" and pv17[5] == "Dr."
    for seg, num in (("EVN", 5), ("ROL", 4), ("PRT", 5), ("OBR", 16), ("TXA", 5), ("NTE", 5), ("AIP", 3),
                     ("PDA", 5), ("PD1", 4), ("IN3", 3), ("ORC", 12)):
        assert _field(out, seg, num).split("^")[:3] == pv17[:3], (seg, num)
    assert _field(out, "TXA", 22).split("^")[:3] == pv17[:3]
    assert pv17[1] in _field(out, "NTE", 3) and pv17[1] in _field(out, "OBX|3", 5)
    assert _field(out, "OBR", 35).split("&") == _field(out, "PV1", 17).split("^")[:3]
    assert _field(out, "OBR", 32).split("&") == _field(out, "PV1", 9).split("^")[:3]


def test_obx_5_is_read_by_its_value_type(outputs):
    for style in ("redacted", "surrogate"):
        out = outputs[style]["full.hl7"]
        assert _field(out, "OBX|2", 5) == "72" and _field(out, "OBX|8", 5) == "<^5.5"  # numbers kept
        assert _field(out, "OBX|5", 5).startswith("Q1^") and _field(out, "OBX|5", 5).endswith(" has asthma^L")
        assert _field(out, "OBX|6", 5) == _field(out, "OBX|6", 5).split("^Base64^")[0] + "^Base64^"  # ED removed
        for n in (3, 4, 5, 7):  # lower-case tx, no type, CE text, a name in an NM field
            assert "Quillon" not in _field(out, f"OBX|{n}", 5) and "Brannoc" not in _field(out, f"OBX|{n}", 5)


def test_dates_move_by_one_offset(outputs):
    out = outputs["surrogate"]["full.hl7"]

    def day(v):
        return dt.date(int(v[:4]), int(v[4:6]), int(v[6:8]))
    offset = (day(_field(out, "PV1", 44)) - dt.date(2098, 7, 20)).days
    assert offset and (day(_field(out, "PV1", 45)) - day(_field(out, "PV1", 44))).days == 5
    assert (day(_field(out, "PDA", 4)) - dt.date(2098, 8, 1)).days == offset
    assert (day(_field(out, "QPD", 3).split("~")[1].split("^")[1]) - dt.date(2031, 3, 14)).days == offset
    assert _field(outputs["redacted"]["full.hl7"], "PV1", 44) == "2098"


@pytest.mark.parametrize(("segment", "field", "obx2", "comp", "sub", "subs", "expected"), [
    ("PID", 5, "", 0, 0, 1, "family"), ("PID", 5, "", 0, 2, 3, "surname"), ("PID", 5, "", 1, 0, 1, "given"),
    ("PID", 5, "", 6, 0, 1, "code"), ("PID", 3, "", 0, 0, 1, "id"), ("PID", 3, "", 1, 0, 1, "check"),
    ("PID", 3, "", 3, 0, 1, "org"), ("PID", 3, "", 4, 0, 1, "code"), ("PID", 3, "", 6, 0, 1, "date"),
    ("PID", 7, "", 0, 0, 1, "dob"), ("PID", 11, "", 0, 1, 3, "street"), ("PID", 11, "", 3, 0, 1, "state"),
    ("PID", 11, "", 4, 0, 1, "zip"), ("PID", 13, "", 3, 0, 1, "email"), ("PID", 19, "", 0, 0, 1, "ssn"),
    ("MSH", 4, "", 0, 0, 1, "org"), ("MSH", 4, "", 2, 0, 1, "code"), ("MSH", 9, "", 1, 0, 1, "code"),
    ("EVN", 5, "", 1, 0, 1, "family"), ("PV1", 3, "", 1, 0, 1, "room"), ("OBR", 32, "", 0, 1, 3, "family"),
    ("OBX", 5, "NM", 0, 0, 1, "num"), ("OBX", 5, "nm", 0, 0, 1, "num"), ("OBX", 5, "tx", 0, 0, 1, "text"),
    ("OBX", 5, "", 0, 0, 1, "varies"), ("OBX", 5, "CE", 1, 0, 1, "ctext"), ("OBX", 5, "ED", 4, 0, 1, "data"),
    ("OBX", 5, "XYZ", 0, 0, 1, "varies"), ("ZPI", 2, "", 0, 0, 1, "unknown"), ("PID", 99, "", 0, 0, 1, "unknown"),
    ("NTE", 3, "", 0, 0, 1, "text"), ("GT1", 17, "", 2, 0, 1, "city"), ("IN2", 2, "", 0, 0, 1, "ssn"),
])
def test_each_leaf_has_the_role_of_its_data_type(segment, field, obx2, comp, sub, subs, expected):
    assert role(field_type(segment, field, obx2), comp, sub, subs) == expected


def test_the_table_covers_the_segments_of_the_issue():
    needed = ("MSH EVN PID PD1 NK1 PV1 PV2 GT1 IN1 IN2 IN3 ORC OBR OBX NTE TXA DG1 PR1 ROL PRT AL1 SPM MSA ERR QPD "
              "QRD ERQ RXA RXE RXO SCH AIP AIL MRG PDA FHS BHS BTS FTS").split()
    assert set(needed) <= set(table())
    # the types read as unknown text on purpose (composites of codes, quantities and text); a
    # misspelt type (XPM) would land here and fail
    unknown = {t for fields in table().values() for t in fields.values()} - set(COMPONENTS)
    assert unknown == set("CM CP CQ ELD ERL FC ICD MOC PRL QIP SPS TQ VARIES".split())
    with pytest.raises(ValueError, match="line 1"):
        parse_table("PID\t1:SI 2\n")


def test_a_changed_text_keeps_the_escapes_around_the_replacement():
    d = Delims("MSH|^~\\&")
    raw = "Seen \\H\\Quillon\\N\\ \\T\\ plan\\X0D\\home"
    old, starts = d.read(raw)
    assert old == "Seen Quillon & plan\rhome"
    new = old.replace("Quillon", "Fox|Hill")
    assert rewrite(raw, starts, old, new, d) == "Seen \\H\\Fox\\F\\Hill\\N\\ \\T\\ plan\\X0D\\home"
    assert d.clean("A&B^C") == "A B C"


@pytest.mark.parametrize("style", ["redacted", "surrogate"])
def test_a_date_field_that_holds_no_date_is_removed(tmp_path, style):
    (tmp_path / "d.hl7").write_bytes(b"MSH|^~\\&|||||||ADT^A01|1|P|2.4\rPID|1||99^^^^MR||Zed^Ann||196203520|F\r")
    code, out = _run(tmp_path, style, tmp_path / "d.hl7")
    assert code == 0
    pid = (out / "d.hl7").read_bytes().decode().split("\r")[1].split("|")
    assert pid[7] == "" and pid[8] == "F"


def test_a_querys_values_take_the_role_of_the_field_they_name():
    msg = "MSH|^~\\&|A|B|||||QBP^Q22|1|P|2.5\rQPD|Q22^Find^HL7|Q1|@PID.5.1^Smith&Jones~@PID.7^19700101~@PID.8^F\r"
    lines = lines_of(msg)
    roles = {(n, r, c, s): what for k, n, r, c, s, _, what, _ in plan(lines, Delims(lines[0][0])) if k == 1}
    assert roles[(3, 0, 0, 0)] == "keep" and roles[(3, 0, 1, 0)] == roles[(3, 0, 1, 1)] == "family"
    assert roles[(3, 1, 1, 0)] == "dob" and roles[(3, 2, 1, 0)] == "code"


def test_batch_headers_without_a_message_are_reported():
    lines = lines_of("FHS|^~\\&|A\rBHS|^~\\&|A\r\rBTS|0\r")
    assert split_messages(lines) == ([], [0, 1, 3])


@pytest.mark.parametrize(("text", "number"), [
    ("acct ZA8812093; 12 ml", "ZA8812093"), ("ref 8867-4", "8867-4"),
    ("nhs no 943 476 5919", "943 476 5919"),          # UK, lower case
    ("medicare 2123 45670 1 exp", "2123 45670 1"),    # AU
    ("ppsn 1234567TA", "1234567TA"),                  # IE
    ("aadhaar 2345 6789 0123.", "2345 6789 0123"),    # IN
    ("ohip 1234-567-890-ab", "1234-567-890-ab"),      # CA, lower case
])
def test_number_runs_of_unknown_fields(text, number):
    [(a, b)] = number_runs(text)
    assert text[a:b] == number


def test_no_number_run_in_words_and_short_numbers():
    assert number_runs("no numbers 123 here, 12 ml at 10:30") == []


@pytest.mark.parametrize("style", STYLES)
def test_a_z_segments_numbers_of_other_countries_are_removed(tmp_path, style):
    msg = ("MSH|^~\\&|||||||ADT^A01|1|P|2.5\rPID|1||77^^^^MR||Zed^Ann\r"
           "ZUK|nhs no 943 476 5919|2123 45670 1~1234567TA|aadhaar 2345 6789 0123|ohip 1234-567-890-ab\r")
    (tmp_path / "z.hl7").write_bytes(msg.encode())
    code, out = _run(tmp_path, style, tmp_path / "z.hl7")
    assert code == 0
    z = (out / "z.hl7").read_bytes().decode().split("\r")[2]
    for number in ("943 476 5919", "5919", "2123 45670", "1234567TA", "2345 6789", "1234-567-890", "0123"):
        assert number not in z, (style, number)
    assert z.startswith("ZUK|") and z.count("|") == 4 and z.count("~") == 1
