"""HL7 v2 through Spark, in local mode: the files ``tag --output-format hl7 --site-mining off`` writes,
byte for byte, for the made-up messages of tests/data/hl7 (every job is marked slow)."""

from __future__ import annotations

import re

import pytest

from crfdeid.cli import spark as cli
from crfdeid.cli import tag
from crfdeid.io.runmanifest import notes_only

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")
pytestmark = [pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning"), pytest.mark.slow]


def _tag(tmp_path, src, *opts):
    out = tmp_path / "tag"
    assert tag.main(["--quiet", "--input-format", "hl7", "--output-format", "hl7", "--output-dir", str(out),
                     "--site-mining", "off", *opts, str(src)]) == 0
    return {p.name: p.read_bytes() for p in notes_only(out.iterdir())}  # tag also writes its run manifest


@pytest.mark.parametrize("style", ["surrogate", "redacted"])
def test_spark_writes_the_files_tag_writes(spark, tmp_path, data_dir, style):
    opts = ["-o", f"text={style}", "--seed", "5"] if style == "surrogate" else ["-o", f"text={style}"]
    expected = _tag(tmp_path, data_dir / "hl7", *opts)
    out = tmp_path / "spark"
    args = ["--input", str(data_dir / "hl7"), "--output", str(out), "--quiet", "--partitions", "3",
            "--output-format", style, *(["--seed", "5"] if style == "surrogate" else [])]
    assert cli.main(args) == 0
    got = {p.name: p.read_bytes() for p in out.iterdir()}
    if style == "redacted":  # a key made for each run hashes the links (MSH-10, MSA-2, EI): alike within a run
        assert re.search(rb"\|([0-9A-F]{16})\|P\|2\.5\.1.*\rMSA\|AA\|\1\r", got["full.hl7"], re.S)
        got, expected = ({k: re.sub(rb"[0-9A-F]{16}", b"#", v) for k, v in d.items()} for d in (got, expected))
    assert got == expected and set(got) == {"batch.hl7", "custom.hl7", "full.hl7", "oru.hl7"}
    assert b"Quillon" not in got["full.hl7"] and b"ZA8812093" not in got["full.hl7"]


def test_a_message_that_cannot_be_read_is_named_and_not_written(spark, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "m.hl7").write_bytes(b"MSH|^~\\&|A|B|||||ORU^R01|1|P|2.5\rOBX|1|TX|X||Seen today.||||||F\r"
                                b"MSH\rOBX|1|TX|X||Zorba Quinlan||||||F\r")
    assert cli.main(["--input", str(src), "--output", str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "message 2 (line 3)" in err and "Zorba" not in err and "Quinlan" not in err
    data = (tmp_path / "out" / "m.hl7").read_bytes()
    assert data.count(b"MSH") == 1 and b"Quinlan" not in data


def test_hl7_input_needs_hl7_output(tmp_path, data_dir, capsys):
    assert cli.main(["--input", str(data_dir / "hl7"), "--output", str(tmp_path / "o.parquet"),
                     "--input-format", "hl7"]) == 2
    assert "HL7 input is written as HL7 files" in capsys.readouterr().err
