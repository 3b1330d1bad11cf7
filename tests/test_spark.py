"""The Spark job, in local mode: same spans and text as ``crfdeid tag``, in any partitioning.

One SparkSession (conftest.py) serves the whole run (starting one takes seconds); every test that
runs a Spark job is marked slow.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from crfdeid._data import install_hint
from crfdeid.adapters.records import Deidentifier
from crfdeid.cli import spark as cli
from crfdeid.cli import tag
from crfdeid.io import read, write

KEY = "spark-test-key"
# pyspark 4.3 warns that it does not fully support pandas 3 (what it uses of pandas works here)
pytestmark = pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning")


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
               for r in deidentify(df, "surrogate", key=KEY, partitions=partitions, site_mining=True).collect()}
        runs.append(got)
    assert runs[0] == runs[1]  # other partitions, another run: the same surrogates
    got = runs[0]
    no_id = got.pop(None)
    assert no_id["deid_text"] is None and "null id" in no_id["error"]
    assert "text" not in next(iter(got.values()))  # the original text is not in the result
    failed = got.pop("999-01")
    assert failed["deid_text"] is None and failed["spans"] is None and "999-01" in failed["error"]
    want_spans = {r.id: r.spans for r in Deidentifier(None, "spans", site_mining=True).run(notes)}
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
    assert install_hint("spark") in capsys.readouterr().err


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


#: JSON Lines where lines 2-5, 7 and 8 are not notes to tag (line 6 is blank, and skipped).
BAD_LINES = [b'{"id": "n1", "text": "John Smith seen on 7/22/2098.", "patient": "p1"}',
             b'{"id": "n2", "text": 12345}', b'{"id": "n3", "text": {"note": "John Smith"}}',
             b'{"id": "n4", "text": ["John Smith"]}', b'{"id": "n5", "text": "Seen by Dr. Lee',
             b"", b'{"id": "n6", "text": "Qzx caf\xe9 John Smith"}', b'{"id": "n7", "text": "x \\ud800"}',
             b'{"text": "John Smith, no id"}']


@pytest.mark.slow
def test_jsonl_lines_that_are_not_notes_are_named_by_line_and_cause(spark, tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"\n".join(BAD_LINES) + b"\n")
    dest = tmp_path / "out"
    assert cli.main(["--input", str(src), "--output", str(dest), "--write-format", "jsonl"]) == 1
    rows = [json.loads(line) for f in sorted(dest.glob("part-*")) for line in f.read_text().splitlines()]
    failed = [r for r in rows if r.get("error")]
    assert len(failed) == 7
    for line, cause in [(2, "(document 'n2'): text is a number, not a string"),
                        (3, "(document 'n3'): text is an object, not a string"),
                        (4, "(document 'n4'): text is a list, not a string"),
                        (5, ", column 22: not valid JSON"), (7, ": not valid UTF-8 (byte 30)"),
                        (8, "(document 'n7'): text holds a lone surrogate code point at character 2"),
                        (9, ": no 'id' (a note with a null id)")]:
        [row] = [r for r in failed if r["error"].startswith(f"line {line} of in.jsonl")]
        assert cause in row["error"] and "deid_text" not in row and "spans" not in row
    [good] = [r for r in rows if not r.get("error")]
    assert good["id"] == "n1" and good["patient"] == "p1" and "John" not in good["deid_text"]
    err = capsys.readouterr().err
    assert "de-identified 1 document(s), 7 failed" in err
    assert "John" not in err and "12345" not in err and "Qzx" not in err  # causes, never content
    assert not Path(f"{dest}.incomplete").exists()


@pytest.mark.slow
def test_an_incomplete_output_is_refused_then_replaced_on_request(spark, tmp_path, notes, capsys):
    src = tmp_path / "in.jsonl"
    write(notes[:3], "jsonl", src)
    dest, stage = tmp_path / "out", tmp_path / "out.incomplete"
    (stage / "_temporary").mkdir(parents=True)  # as a killed run leaves it
    (stage / "_temporary" / "part-00000").write_text("half")
    assert cli.main(["--input", str(src), "--output", str(dest)]) == 2
    assert "--replace-incomplete" in capsys.readouterr().err and not dest.exists()
    assert cli.main(["--input", str(src), "--output", str(dest), "--replace-incomplete", "--quiet"]) == 0
    assert not stage.exists() and (dest / "_SUCCESS").exists()


@pytest.mark.slow
def test_a_site_table_keyed_by_the_patient_column_is_used(spark, tmp_path):
    from crfdeid.site import Site
    from crfdeid.spark import deidentify
    (tmp_path / "p.csv").write_text("patient,relative\np9,Vexlan Zorbek\n", encoding="utf-8")
    site = Site.from_files([tmp_path / "p.csv"])
    text = "spoke w/ vexlan re plan"  # made up; the model alone leaves "vexlan"
    df = spark.createDataFrame([("n1", text, "p9"), ("n2", text, "p8")], "id string, text string, patient string")
    got = {r["id"]: r["deid_text"] for r in deidentify(df, "redacted", patient_col="patient", site=site).collect()}
    assert "vexlan" not in got["n1"] and "vexlan" in got["n2"]


@pytest.mark.slow
def test_explain_adds_a_json_column_of_each_notes_steps_and_dropped_spans(spark, tmp_path):
    from crfdeid.site import Site
    from crfdeid.spark import deidentify
    text = "Seen by Dr. Lee on 7/22/2098."  # made up; "Lee" is a safe term of the site: dropped
    df = spark.createDataFrame([("n1", text), ("n2", None)], "id string, text string")
    site = Site(allow=["Lee"])
    plain = deidentify(df, "redacted", site=site, partitions=1)
    assert "explanation" not in plain.columns
    got = deidentify(df, "redacted", site=site, partitions=1, explain=True)
    assert got.columns == [*plain.columns, "explanation"] and got.schema["spans"] == plain.schema["spans"]
    rows = {r["id"]: r.asDict(recursive=True) for r in got.collect()}
    assert {k: rows["n1"][k] for k in plain.columns} == plain.where("id = 'n1'").first().asDict(recursive=True)
    assert rows["n2"]["explanation"] is None and rows["n2"]["error"]
    data = json.loads(rows["n1"]["explanation"])
    [date] = data["spans"]
    assert text[date["start"]:date["end"]] == "7/22/2098" and date["steps"][0]["step"] == "crf"
    [lee] = data["dropped"]
    assert text[lee["start"]:lee["end"]] == "Lee" and lee["steps"][-1]["step"] == "site.v1"
    # the command: --explain adds the column to what it writes
    src, dest = tmp_path / "in.jsonl", tmp_path / "out"
    src.write_text(json.dumps({"id": "n1", "text": text}) + "\n", encoding="utf-8")
    (tmp_path / "allow.txt").write_text("Lee\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("allow: allow.txt\n", encoding="utf-8")
    assert cli.main(["--input", str(src), "--output", str(dest), "--write-format", "jsonl", "--site",
                     str(tmp_path / "site.yaml"), "--explain", "--quiet"]) == 0
    [line] = [json.loads(x) for f in sorted(dest.glob("part-*")) for x in f.read_text(encoding="utf-8").splitlines()]
    assert json.loads(line["explanation"]) == data


def test_command_site_file_errors_come_before_spark(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyspark")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.jsonl").write_text("{}\n")
    (tmp_path / "site.yaml").write_text("roster: x.txt\n")
    assert cli.main(["--input", "in.jsonl", "--output", "out", "--site", "site.yaml"]) == 2
    assert "unknown key" in capsys.readouterr().err


@pytest.mark.slow
def test_command_warns_when_a_patient_table_meets_no_patient_column(spark, tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq
    (tmp_path / "p.csv").write_text("patient,relative\np9,Vexlan Zorbek\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("tables: [p.csv]\n", encoding="utf-8")
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"id": ["n1"], "text": ["spoke w/ vexlan re plan"]}), src)
    assert cli.main(["--input", str(src), "--output", str(tmp_path / "out.parquet"), "--quiet",
                     "--site", str(tmp_path / "site.yaml")]) == 0
    err = capsys.readouterr().err
    assert "no patient column" in err and "--patient-col" in err and "vexlan" not in err.lower()


@pytest.mark.slow
def test_a_parquet_row_without_an_id_is_named_by_file_and_row(spark, tmp_path, capsys):
    """Issue 36: such a row was "a note with a null id" with nothing to find it by. One file
    here is read in several partitions (row groups of 2 rows, small splits)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    src = tmp_path / "in"
    src.mkdir()
    ids = ["a1", None, "a3", "a4", "a5", "a6", None, "a8", None]
    pq.write_table(pa.table({"id": ids, "text": [f"Seen by Dr. Lee, note {i}." for i in range(9)]}),
                   src / "one.parquet", row_group_size=2)
    pq.write_table(pa.table({"id": [None, "b2"], "text": ["Qzxmarker seen.", "x"]}), src / "two.parquet")
    conf = spark.conf
    old = conf.get("spark.sql.files.maxPartitionBytes")
    conf.set("spark.sql.files.maxPartitionBytes", "400")
    try:
        rc = cli.main(["--input", str(src), "--output", str(tmp_path / "out.parquet"), "--quiet"])
    finally:
        conf.set("spark.sql.files.maxPartitionBytes", old)
    err = capsys.readouterr().err
    assert rc == 1 and "4 failed" in err and "Qzxmarker" not in err
    named = sorted(r["error"].split(": ")[0] for r in pq.read_table(tmp_path / "out.parquet").to_pylist()
                   if r["error"])
    assert named == sorted([f"row {n} of {(src / 'one.parquet').as_uri()}" for n in (2, 7, 9)]
                           + [f"row 1 of {(src / 'two.parquet').as_uri()}"])


# Run in a fresh interpreter: a process holds one SparkContext, and the session fixture's is local.
_CLUSTER_JOB = r"""
import json, os, sys
import pandas as pd
from pyspark.sql import SparkSession
from crfdeid.spark import deidentify
src, key, dest = sys.argv[1:]
spark = (SparkSession.builder.master("local-cluster[2,1,1024]").appName("crfdeid-cluster-test")
         .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
         .config("spark.ui.enabled", "false")  # the executors' JVMs: the driver's options (conftest.py)
         .config("spark.executor.extraJavaOptions", os.environ.get("SPARK_SUBMIT_OPTS", "")).getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
open(dest + ".app", "w").write(spark.sparkContext.applicationId)  # the test removes its logs
rows = [json.loads(line) for line in open(src, encoding="utf-8")]
df = spark.createDataFrame([(r["id"], r["text"]) for r in rows], "id string, text string")
got = {fmt: {r.id: r.deid_text for r in deidentify(df, fmt, key=k, partitions=6, site_mining=True).collect()}
       for fmt, k in (("redacted", None), ("surrogate", key))}

def probe(frames):  # which Python worker of which executor, and how often it took a model
    import crfdeid.spark
    for frame in frames:
        yield pd.DataFrame({"pid": [os.getpid()] * len(frame), "daemon": [os.getppid()] * len(frame),
                            "loads": [crfdeid.spark.LOADS["count"]] * len(frame)})

workers = sorted({tuple(r) for r in spark.range(0, 8, numPartitions=8)
                  .mapInPandas(probe, "pid long, daemon long, loads long").collect()})
executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size()  # with the driver
spark.stop()
json.dump({"got": got, "workers": workers, "executors": executors}, open(dest, "w"))
"""


@pytest.mark.slow
@pytest.mark.xdist_group("spark-cluster")  # its own driver and executors: not the shared JVM's worker (conftest.py)
def test_a_cluster_of_executor_processes_gives_tags_output_and_loads_the_model_once_each(tmp_path, notes):
    """``local-cluster[2,1,1024]``: two executor JVMs, each with its own Python workers."""
    pyspark = pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")
    import os
    import shutil
    import subprocess
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        pytest.skip("no Java runtime for Spark")
    src = tmp_path / "cluster-notes.jsonl"
    write(notes, "jsonl", src)
    script, dest = tmp_path / "job.py", tmp_path / "got.json"
    script.write_text(_CLUSTER_JOB, encoding="utf-8")
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    try:
        done = subprocess.run([sys.executable, str(script), str(src), KEY, str(dest)], env=env,
                              capture_output=True, text=True, timeout=300)
    finally:  # the executors' logs go to SPARK_HOME/work/APP (pip's pyspark: inside the package)
        app = tmp_path / "got.json.app"
        if app.exists() and app.read_text():
            shutil.rmtree(Path(pyspark.__file__).parent / "work" / app.read_text(), ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(dest.read_text(encoding="utf-8"))
    for fmt, extra in (("redacted", ()), ("surrogate", ("--key", KEY))):
        (tmp_path / fmt).mkdir()
        want = _tag_files(tmp_path / fmt, notes, fmt, *extra)
        assert result["got"][fmt] == \
            {d.doc_id: (want / f"{d.doc_id}.txt").read_text(encoding="utf-8") for d in notes}, fmt
    assert result["executors"] == 3  # the driver and two executors
    workers = result["workers"]
    assert workers, workers
    # 12 tasks of deidentify (6 partitions, 2 calls): a worker takes each call's model at most once
    # (a model per task gives 3 or more). A worker Spark started afresh for the probe (after its
    # idle timeout on a slow machine) took none: not a failure, so the bound, not equality.
    loads = [n for _, _, n in workers]
    assert max(loads) <= 2 and max(loads) >= 1, workers
