"""Dates moved in an HL7 message keep their form (issue 51): a zero-padded day or month stays
padded in the fields and the notes, an unpadded one unpadded, by the same offset. Made up."""

from __future__ import annotations

import datetime as dt
import re

from crfdeid.cli import tag

MSG = ("MSH|^~\\&|LAB|MERCY|||20980702103000||ORU^R01|C1|P|2.5\r"
       "PID|1||77310452^^^MERCY^MR||Quillon^Ardith||20310304|F\r"
       "PV1|1|I" + "|" * 42 + "20980701|20980709\r"
       "OBX|1|TX|N^Note||Seen 07/02/2098 and 7/2/2098, on 2098-07-02, next 07/09/98.||||||F\r")
NOTE = re.compile(r"Seen (\d\d)/(\d\d)/(\d{4}) and ([1-9]\d?)/([1-9]\d?)/(\d{4}), on (\d{4})-(\d\d)-(\d\d), "
                  r"next (\d\d)/(\d\d)/(\d\d)\.")


def _moved(tmp_path, seed):
    (tmp_path / "m.hl7").write_bytes(MSG.encode())
    out = tmp_path / f"out{seed}"
    assert tag.main(["--quiet", "--input-format", "hl7", "--output-format", "hl7", "-o", "text=surrogate",
                     "--seed", str(seed), "--output-dir", str(out), str(tmp_path / "m.hl7")]) == 0
    return {s[:3]: s.split("|") for s in (out / "m.hl7").read_bytes().decode().strip("\r").split("\r")}


def test_a_moved_date_keeps_its_zero_padding_in_fields_and_notes(tmp_path):
    one_digit = 0
    for seed in range(1, 7):
        segs = _moved(tmp_path, seed)
        admit, discharge = segs["PV1"][44], segs["PV1"][45]
        assert re.fullmatch(r"\d{8}", admit) and re.fullmatch(r"\d{8}", discharge)
        shift = dt.date(int(admit[:4]), int(admit[4:6]), int(admit[6:])) - dt.date(2098, 7, 1)
        m = NOTE.fullmatch(segs["OBX"][5])
        assert m, segs["OBX"][5]  # the padded forms padded, the unpadded one without a leading zero
        day, later = dt.date(2098, 7, 2) + shift, dt.date(2098, 7, 9) + shift
        got = [int(g) for g in m.groups()]
        assert got == [day.month, day.day, day.year] * 2 + [day.year, day.month, day.day] + \
            [later.month, later.day, later.year % 100]
        assert discharge == f"{later.year:04d}{later.month:02d}{later.day:02d}"
        one_digit += day.month < 10 or day.day < 10
    assert one_digit  # the padding was put to the test (a month or day of one digit)
