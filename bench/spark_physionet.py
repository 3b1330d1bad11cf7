"""Spark job against ``python -m crfdeid tag`` on the PhysioNet dev corpus: same output? how fast?

    python bench/spark_physionet.py [--corpus ../shared/corpora/physionet-dev] [--cores 1,2]
                                    [--repeat 2] [--json results.json]

1. Reads the corpus (``crfdeid.io.read("physionet:...")``) and writes it as Parquet
   (id, text, patient) to a private temporary folder (``/dev/shm`` where it exists),
   with a random surrogate key beside it; the folder is deleted at the end.
2. Runs ``python -m crfdeid tag physionet:DIR`` (surrogate output with the key, and jsonl
   for the spans) and ``python -m crfdeid spark`` (surrogate output, same key) on the
   Parquet file, and checks every note: same surrogate text, same spans (type, offsets,
   confidence). Prints identical/total and the ids of any note that differs (never text).
3. Times, for each core count: the two commands end to end (wall clock, start-up
   included: ``tag --jobs N``, ``spark --master local[N]``), and the Spark job alone in a
   running session (``deidentify(...).write.parquet``, ``--repeat`` times; the first run
   starts the Python workers and loads the model), with the peak RSS of the Python workers
   sampled every 0.2 s.
4. Counts CPU seconds (user + system) besides wall seconds: of the tag command (its reaped
   processes) and of each Spark job (the JVM and the Python workers of this session), so
   that a planning figure (notes per CPU-second) survives a machine shared with other work.

Wall-clock figures depend on what else the machine runs: the load averages before and
after are printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, all reaped descendants) of a command."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=False, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def spark_cpu() -> float:
    """CPU seconds so far of this process's JVM and its Python workers (live and reaped)."""
    import psutil
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            t = child.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


class WorkerRss:
    """Peak resident memory of each PySpark Python worker process, sampled in a thread."""

    def __init__(self):
        import psutil
        self.psutil, self.peak, self.stop = psutil, {}, threading.Event()

    def _sample(self):
        while not self.stop.wait(0.2):
            for p in self.psutil.process_iter(["pid", "cmdline", "memory_info"]):
                cmd = " ".join(p.info["cmdline"] or ())
                if "pyspark.daemon" in cmd or "pyspark.worker" in cmd:
                    rss = p.info["memory_info"].rss if p.info["memory_info"] else 0
                    self.peak[p.info["pid"]] = max(self.peak.get(p.info["pid"], 0), rss)

    def __enter__(self):
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def compare(notes, tag_dir: Path, tag_jsonl: Path, spark_out: Path) -> dict:
    import pyarrow.parquet as pq
    rows = {r["id"]: r for r in pq.read_table(spark_out).to_pylist()}
    spans = {}
    for line in tag_jsonl.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        spans[obj["id"]] = [{"type": s["subtype"], "category": s["category"], "start": s["start"],
                             "end": s["end"], "confidence": c}
                            for s, c in zip(obj["spans"], obj["meta"]["confidence"])]
    same_text = same_spans = both_failed = 0
    differ = []
    for doc in notes:
        row = rows.get(doc.doc_id)
        path = tag_dir / f"{doc.doc_id}.txt"
        if not path.exists():  # the command failed on this note: Spark must report it, with no text
            ok = row is not None and row["deid_text"] is None and row["error"] is not None
            both_failed += ok
            same_text += ok
            same_spans += ok
            if not ok:
                differ.append(doc.doc_id)
            continue
        text_ok = row is not None and row["deid_text"] == path.read_text(encoding="utf-8")
        spans_ok = row is not None and row["spans"] == spans.get(doc.doc_id)
        same_text += text_ok
        same_spans += spans_ok
        if not (text_ok and spans_ok):
            differ.append(doc.doc_id)
    return {"notes": len(notes), "spark_rows": len(rows), "same_text": same_text,
            "same_spans": same_spans, "spans": sum(map(len, spans.values())),
            "failed": sum(r["error"] is not None for r in rows.values()), "both_failed": both_failed,
            "differ": differ[:20]}


def library_cpu(notes, key: bytes, repeat: int) -> list[float]:
    """CPU seconds of the library in this process (``Deidentifier.run``, surrogate output, one
    model): the first run loads word lists and fills the word caches, as Spark's first job."""
    from crfdeid.adapters.records import Deidentifier
    deid = Deidentifier(None, "surrogate", key=key)
    out = []
    for _ in range(repeat):
        c0 = time.process_time()
        for _rec in deid.run(notes):
            pass
        out.append(round(time.process_time() - c0, 2))
    return out


def job_times(parquet: Path, key: bytes, cores: int, repeat: int, out: Path, cluster: bool = False) -> dict:
    import warnings

    from pyspark.sql import SparkSession

    from crfdeid.spark import deidentify
    warnings.filterwarnings("ignore", message=".*pandas >= 3.0.0.*", category=FutureWarning)
    master = f"local-cluster[{cores},1,1024]" if cluster else f"local[{cores}]"
    spark = (SparkSession.builder.master(master).appName("crfdeid-bench")
             .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        notes = spark.read.parquet(str(parquet)).cache()
        n = notes.count()
        times, cpus = [], []
        with WorkerRss() as rss:
            for i in range(repeat):
                c0, d0, t0 = spark_cpu(), sum(os.times()[:2]), time.perf_counter()
                deidentify(notes, "surrogate", key=key, patient_col="patient", partitions=cores * 2) \
                    .write.parquet(str(out / f"job-{cores}-{i}"))
                times.append(time.perf_counter() - t0)
                cpus.append(spark_cpu() - c0 + sum(os.times()[:2]) - d0)
        return {"master": master, "cores": cores, "notes": n, "seconds": [round(t, 2) for t in times],
                "notes_per_s": [round(n / t, 1) for t in times], "cpu_seconds": [round(c, 2) for c in cpus],
                "notes_per_cpu_s": [round(n / c, 1) for c in cpus],
                "worker_peak_rss_mb": sorted(round(v / 2**20) for v in rss.peak.values())}
    finally:
        app = spark.sparkContext.applicationId
        spark.stop()
        if cluster:  # the executors' logs: SPARK_HOME/work/APP (pip's pyspark: in the package)
            import pyspark
            shutil.rmtree(Path(pyspark.__file__).parent / "work" / app, ignore_errors=True)


def _report_cluster(result: dict, args) -> int:
    result["load_after"] = load()
    for j in result["jobs"]:
        print(f"{j['master']}, Spark job in a running session: {j['seconds']} s = {j['notes_per_s']} notes/s; "
              f"CPU {j['cpu_seconds']} s = {j['notes_per_cpu_s']} notes per CPU-second; Python worker peak RSS "
              f"{j['worker_peak_rss_mb']} MB")
    print(f"load averages before {result['load_before']}, after {result['load_after']}; "
          f"{result['notes']} notes, {result['chars']} characters")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpora" / "physionet-dev"),
                   help="default: ../shared/corpora/physionet-dev beside the repository")
    p.add_argument("--cores", default="1,2")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--json", help="write the figures here")
    p.add_argument("--identity-only", action="store_true", help="check the output, time nothing")
    p.add_argument("--cluster", action="store_true",
                   help="time only the Spark job, on local-cluster[N,1,1024] (N executor processes of one "
                        "core each) instead of local[N]")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    import pandas as pd

    from crfdeid.io import read
    notes = list(read(f"physionet:{args.corpus}"))
    chars = sum(len(d.text) for d in notes)
    base = "/dev/shm" if Path("/dev/shm").is_dir() else None
    tmp = Path(tempfile.mkdtemp(prefix="crfdeid-spark-bench-", dir=base))  # mode 0700
    result = {"date": time.strftime("%Y-%m-%d %H:%M"), "notes": len(notes), "chars": chars,
              "load_before": load(), "python": sys.version.split()[0]}
    try:
        key = secrets.token_hex(32).encode()
        (tmp / "key").write_bytes(key)
        parquet = tmp / "notes.parquet"
        pd.DataFrame({"id": [d.doc_id for d in notes], "text": [d.text for d in notes],
                      "patient": [d.group for d in notes]}).to_parquet(parquet)
        py = sys.executable
        spec = f"physionet:{args.corpus}"
        if args.cluster:
            result["jobs"] = [job_times(parquet, key, cores, args.repeat, tmp, cluster=True)
                              for cores in map(int, args.cores.split(","))]
            return _report_cluster(result, args)
        _, tag_cpu = run([py, "-m", "crfdeid", "tag", spec, "--output-format", "surrogate", "--key-file",
                          str(tmp / "key"), "--output-dir", str(tmp / "tag-surrogate"), "--quiet"])
        result["tag_cpu_seconds"] = round(tag_cpu, 2)
        run([py, "-m", "crfdeid", "tag", spec, "--output-format", "jsonl", "--output-dir", str(tmp / "tag-spans"),
             "--quiet"])
        run([py, "-m", "crfdeid", "spark", "--input", str(parquet), "--output", str(tmp / "spark.parquet"),
             "--output-format", "surrogate", "--key-file", str(tmp / "key"), "--quiet"])
        result["identity"] = compare(notes, tmp / "tag-surrogate", tmp / "tag-spans" / "tagged.jsonl",
                                     tmp / "spark.parquet")
        result["commands"] = []
        for cores in map(int, args.cores.split(",")) if not args.identity_only else ():
            t_tag, _ = run([py, "-m", "crfdeid", "tag", spec, "--output-format", "surrogate", "--key-file",
                         str(tmp / "key"), "--output-dir", str(tmp / f"tag-{cores}"), "--jobs", str(cores),
                         "--quiet"])
            t_spark, _ = run([py, "-m", "crfdeid", "spark", "--input", str(parquet), "--output",
                           str(tmp / f"spark-{cores}.parquet"), "--output-format", "surrogate", "--key-file",
                           str(tmp / "key"), "--master", f"local[{cores}]", "--partitions", str(2 * cores),
                           "--quiet"])
            result["commands"].append({"cores": cores, "tag_s": round(t_tag, 2), "spark_s": round(t_spark, 2),
                                       "tag_notes_per_s": round(len(notes) / t_tag, 1),
                                       "spark_notes_per_s": round(len(notes) / t_spark, 1)})
        if not args.identity_only:
            result["library_cpu_seconds"] = library_cpu(notes, key, args.repeat)
        result["jobs"] = [job_times(parquet, key, cores, args.repeat, tmp)
                          for cores in map(int, args.cores.split(","))] if not args.identity_only else []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # real notes: nothing stays behind
    result["load_after"] = load()
    ident = result["identity"]
    print(f"identical to python -m crfdeid tag: surrogate text {ident['same_text']}/{ident['notes']}, "
          f"spans {ident['same_spans']}/{ident['notes']} ({ident['spans']} spans); failed in Spark "
          f"{ident['failed']}, of which failed in the command too {ident['both_failed']}"
          + (f"; differ: {', '.join(ident['differ'])}" if ident["differ"] else ""))
    for c in result["commands"]:
        print(f"{c['cores']} core(s), whole commands: tag {c['tag_s']} s ({c['tag_notes_per_s']} notes/s), "
              f"spark {c['spark_s']} s ({c['spark_notes_per_s']} notes/s), {c['spark_s'] / c['tag_s']:.2f}x")
    for j in result["jobs"]:
        print(f"{j['cores']} core(s), Spark job in a running session: {j['seconds']} s = "
              f"{j['notes_per_s']} notes/s; CPU {j['cpu_seconds']} s = {j['notes_per_cpu_s']} notes per "
              f"CPU-second; Python worker peak RSS {j['worker_peak_rss_mb']} MB")
    if "library_cpu_seconds" in result:
        print(f"the library in one process (Deidentifier.run, surrogate): {result['library_cpu_seconds']} CPU "
              f"seconds = {[round(len(notes) / c, 1) for c in result['library_cpu_seconds']]} notes per "
              "CPU-second")
    print(f"python -m crfdeid tag (surrogate, --jobs 1): {result['tag_cpu_seconds']} CPU seconds = "
          f"{len(notes) / result['tag_cpu_seconds']:.1f} notes per CPU-second")
    print(f"load averages before {result['load_before']}, after {result['load_after']}; "
          f"{len(notes)} notes, {chars} characters")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0 if ident["same_text"] == ident["same_spans"] == ident["notes"] else 1


if __name__ == "__main__":
    sys.exit(main())
