"""The Spark job reads JSON Lines as ``tag`` does: UTF-16 and UTF-32 with a byte-order mark
(before, every line failed as invalid JSON, with one phantom line more), and a file in another
encoding without a mark fails once, with the hint to name it (``--encoding``); Spark in local mode."""

from __future__ import annotations

import json

import pytest

from crfdeid.cli import spark as cli

pytestmark = pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning")

LINES = [{"id": "n1", "text": "Seen by Dr. Quillonard Vexby on 03/14/2098.", "patient": "p1"},
         {"id": "n2", "text": "Señora Zoë Brontë, 617-555-0199.", "patient": "p2"},
         {"id": "n3", "text": "Stable; no visitors.", "patient": "p2"}]
BODY = "\n".join(json.dumps(x, ensure_ascii=False) for x in LINES) + "\n"


def _run(tmp_path, data: bytes, *extra: str) -> tuple[int, list[dict]]:
    src, dest = tmp_path / "in.jsonl", tmp_path / "out"
    tmp_path.mkdir(exist_ok=True)
    src.write_bytes(data)
    rc = cli.main(["--input", str(src), "--output", str(dest), "--write-format", "jsonl", "--quiet", *extra])
    return rc, [json.loads(line) for f in sorted(dest.glob("part-*")) for line in f.read_text().splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be-bom", "utf-32", "utf-32-be-bom"])
def test_jsonl_with_a_byte_order_mark_is_read_as_tag_reads_it(spark, tmp_path, encoding):
    if encoding.endswith("-bom"):  # Python writes the big-endian codecs without a mark
        codec = encoding[:-4]
        data = "\ufeff".encode(codec) + BODY.encode(codec)
    else:
        data = BODY.encode(encoding)
    rc, rows = _run(tmp_path, data)
    assert rc == 0
    assert sorted(r["id"] for r in rows) == ["n1", "n2", "n3"] and not any(r.get("error") for r in rows)
    text = " ".join(r["deid_text"] for r in rows)
    assert "Quillonard" not in text and "0199" not in text and "Stable; no visitors." in text


@pytest.mark.slow
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-32-be"])
def test_jsonl_in_another_encoding_without_a_mark_fails_once_naming_the_option(spark, tmp_path, capsys, codec):
    rc, rows = _run(tmp_path, BODY.encode(codec))
    assert rc == 1 and len(rows) == 1  # one failure for the file; no line read, no phantom line
    assert f"--encoding {codec}" in rows[0]["error"] and "in.jsonl" in rows[0]["error"]
    assert "Quillonard" not in capsys.readouterr().err
    rc, rows = _run(tmp_path / "again", BODY.encode(codec), "--encoding", codec)
    assert rc == 0 and sorted(r["id"] for r in rows) == ["n1", "n2", "n3"]


def test_an_unknown_encoding_is_a_usage_error_before_spark(tmp_path, capsys):
    pytest.importorskip("pyspark")  # without the extra the command stops at that first
    src = tmp_path / "in.jsonl"
    src.write_text(BODY, encoding="utf-8")
    assert cli.main(["--input", str(src), "--output", str(tmp_path / "out"), "--encoding", "klingon"]) == 2
    assert "unknown text encoding" in capsys.readouterr().err
