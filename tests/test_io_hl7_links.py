"""HL7 identifiers that link messages keep their links (issue 51): MSH-10 and the MSA-2 of its
ACK, the placer and filler numbers of ORC and OBR, a query's tag, replaced by one keyed hash.
The messages are made up."""

from __future__ import annotations

import re

import pytest

from crfdeid.cli import tag

ORDER = ("MSH|^~\\&|LAB|MERCY|EHR|MERCY|20980722103000||ORU^R01|CTL55120|P|2.5\r"
         "PID|1||77310452^^^MERCY^MR||Quillon^Ardith||20310314|F\r"
         "ORC|RE|PLC10001^LAB|FIL20002^EHR\r"
         "OBR|1|PLC10001^LAB|FIL20002^EHR|11492-6^History and physical^LN\r"
         "OBR|2|PLC10003^LAB|FIL20004^EHR|11492-6^History and physical^LN" + "|" * 25 + "PLC10001&LAB^FIL20002&EHR\r"
         "OBX|1|TX|11492-6^H&P^LN||Seen today.||||||F\r")
ACK = "MSH|^~\\&|EHR|MERCY|LAB|MERCY|20980722103005||ACK^R01|ACK77001|P|2.5\rMSA|AA|CTL55120\r"
HASH = re.compile(r"[0-9A-F]{16}")


def _run(tmp_path, name, *opts):
    src = tmp_path / "in"
    src.mkdir(exist_ok=True)
    (src / "a-order.hl7").write_bytes(ORDER.encode())
    (src / "b-ack.hl7").write_bytes(ACK.encode())
    out = tmp_path / name
    assert tag.main(["--quiet", "--input-format", "hl7", "--output-format", "hl7", "--output-dir", str(out),
                     *opts, str(src)]) == 0
    def fields(file):
        return {s[:3] + (s.split("|")[1] if s[:3] == "OBR" else ""): s.split("|")
                for s in (out / file).read_bytes().decode().strip("\r").split("\r")}
    return fields("a-order.hl7"), fields("b-ack.hl7")


@pytest.mark.parametrize("opts", [("-o", "text=redacted"), ("-o", "text=masked", "--seed", "3"),
                                  ("-o", "text=surrogate", "--seed", "3")])
def test_an_ack_still_points_to_its_message_and_an_order_to_its_results(tmp_path, opts):
    order, ack = _run(tmp_path, "out", *opts)
    control = order["MSH"][9]
    assert HASH.fullmatch(control) and ack["MSA"][2] == control  # the ACK's MSA-2: its message's MSH-10
    assert HASH.fullmatch(ack["MSH"][9]) and ack["MSH"][9] != control
    placer, filler = order["ORC"][2].split("^")[0], order["ORC"][3].split("^")[0]
    assert HASH.fullmatch(placer) and HASH.fullmatch(filler) and placer != filler
    assert order["OBR1"][2].split("^")[0] == placer and order["OBR1"][3].split("^")[0] == filler
    parent = order["OBR2"][29].split("^")  # OBR-29: the parent's placer & filler numbers
    assert [p.split("&")[0] for p in parent] == [placer, filler]
    assert order["OBR2"][2].split("^")[0] not in (placer, filler)  # another order: another hash
    written = "|".join("|".join(f) for f in (*order.values(), *ack.values()))
    for original in ("CTL55120", "ACK77001", "PLC10001", "FIL20002", "PLC10003", "FIL20004"):
        assert original not in written


def test_the_same_key_gives_the_same_links_in_every_run(tmp_path):
    first, _ = _run(tmp_path, "one", "-o", "text=redacted", "--key", "k" * 32)
    again, _ = _run(tmp_path, "two", "-o", "text=redacted", "--key", "k" * 32)
    other, _ = _run(tmp_path, "three", "-o", "text=redacted", "--key", "j" * 32)
    assert first["MSH"][9] == again["MSH"][9] != other["MSH"][9]
    assert first["ORC"][2] == again["ORC"][2] != other["ORC"][2]
