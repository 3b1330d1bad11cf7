"""The Spark job, in local mode: same spans and text as ``crfdeid tag``, in any partitioning.

One SparkSession serves the whole file (starting one takes seconds); every test that
runs a Spark job is marked slow.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from crfdeid.adapters.records import Deidentifier
from crfdeid.cli import spark as cli
from crfdeid.cli import tag
from crfdeid.io import read, write

KEY = "spark-test-key"
# pyspark 4.3 warns that it does not fully support pandas 3 (what it uses of pandas works here)
pytestmark = pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning")


@pytest.fixture(scope="session")
def spark():
    pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")
    from pyspark.sql import SparkSession
    session = (SparkSession.builder.master("local[2]").appName("crfdeid-tests")
               .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "3")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def notes():
    """Made-up notes of several patients (ids NNN-NN: patient NNN)."""
    return list(read("synth:16,13"))


def _tag_files(tmp_path, notes, fmt, *extra):
    src = tmp_path / "notes.jsonl"
    write(notes, "jsonl", src)
    out = tmp_path / f"tag-{fmt}"
    assert tag.main([str(src), "--input-format", "jsonl", "--output-format", fmt, *extra,
                     "--output-dir", str(out), "--quiet"]) == 0
    return out


@pytest.mark.slow
def test_surrogates_and_spans_are_the_tag_commands_in_any_partitioning(spark, tmp_path, notes):
    from crfdeid.spark import deidentify
    out = _tag_files(tmp_path, notes, "surrogate", "--key", KEY)
    rows = [(d.doc_id, d.text) for d in notes] + [("999-01", None), (None, "Seen by Dr. Lee.")]
    df = spark.createDataFrame(rows, "id string, text string")
    runs = []
    for partitions in (3, 2):
        got = {r["id"]: r.asDict(recursive=True)
               for r in deidentify(df, "surrogate", key=KEY, partitions=partitions).collect()}
        runs.append(got)
    assert runs[0] == runs[1]  # other partitions, another run: the same surrogates
    got = runs[0]
    no_id = got.pop(None)
    assert no_id["deid_text"] is None and "null id" in no_id["error"]
    assert "text" not in next(iter(got.values()))  # the original text is not in the result
    failed = got.pop("999-01")
    assert failed["deid_text"] is None and failed["spans"] is None and "999-01" in failed["error"]
    want_spans = {r.id: r.spans for r in Deidentifier(None, "spans").run(notes)}
    for doc in notes:
        row = got[doc.doc_id]
        assert row["error"] is None
        assert row["deid_text"] == (out / f"{doc.doc_id}.txt").read_text(encoding="utf-8")
        assert row["spans"] == want_spans[doc.doc_id]


@pytest.mark.slow
def test_command_reads_crfdeid_jsonl_and_writes_parquet(spark, tmp_path, notes, capsys):
    import pyarrow.parquet as pq
    src = tmp_path / "in.jsonl"
    lines = [json.dumps({"id": d.doc_id, "text": d.text, "meta": {"patient": d.group}}) for d in notes]
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    dest = tmp_path / "out.parquet"
    assert cli.main(["--input", str(src), "--output", str(dest), "--output-format", "masked",
                     "--partitions", "2"]) == 0
    table = pq.read_table(dest).to_pylist()
    assert set(table[0]) == {"id", "patient", "spans", "deid_text", "error"}
    want = _tag_files(tmp_path, notes, "masked")
    assert {r["id"]: r["deid_text"] for r in table} == \
        {d.doc_id: (want / f"{d.doc_id}.txt").read_text(encoding="utf-8") for d in notes}
    assert {r["patient"] for r in table} == {d.group for d in notes}
    assert f"de-identified {len(notes)} document(s), 0 failed" in capsys.readouterr().err
    # the output exists now: a second run refuses to touch it
    assert cli.main(["--input", str(src), "--output", str(dest)]) == 2
    assert "never overwrites" in capsys.readouterr().err


def test_command_without_pyspark_names_the_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "pyspark", None)
    assert cli.main(["--input", str(tmp_path / "x.parquet"), "--output", str(tmp_path / "y")]) == 2
    assert "pip install 'crfdeid[spark]'" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--input", "notes.csv"], "give --input-format"),
    (["--input", "missing.parquet"], "no such file"),
    (["--input", "in.jsonl", "--key-file", "k"], "are for --output-format surrogate"),
])
def test_command_usage_errors_come_before_spark(tmp_path, monkeypatch, capsys, args, message):
    pytest.importorskip("pyspark")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.jsonl").write_text("{}\n")
    (tmp_path / "notes.csv").write_text("id,text\n")
    assert cli.main([*args, "--output", "out"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_docs_example_runs_as_written(spark):
    from conftest import python_examples, run_example
    [(code, expected)] = python_examples(Path(__file__).parent.parent / "docs" / "spark.md")
    assert run_example(code) == expected  # the builder returns this file's running session


@pytest.mark.slow
def test_a_site_table_keyed_by_the_patient_column_is_used(spark, tmp_path):
    from crfdeid.site import Site
    from crfdeid.spark import deidentify
    (tmp_path / "p.csv").write_text("patient,last_name\np9,Zorbek\n", encoding="utf-8")
    site = Site.from_files([tmp_path / "p.csv"])
    text = "pt zorbek resting comfortably"  # made up; the model alone leaves "zorbek"
    df = spark.createDataFrame([("n1", text, "p9"), ("n2", text, "p8")], "id string, text string, patient string")
    got = {r["id"]: r["deid_text"] for r in deidentify(df, "redacted", patient_col="patient", site=site).collect()}
    assert "zorbek" not in got["n1"] and "zorbek" in got["n2"]


def test_command_site_file_errors_come_before_spark(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyspark")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.jsonl").write_text("{}\n")
    (tmp_path / "site.yaml").write_text("roster: x.txt\n")
    assert cli.main(["--input", "in.jsonl", "--output", "out", "--site", "site.yaml"]) == 2
    assert "unknown key" in capsys.readouterr().err
