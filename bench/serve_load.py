"""Bounded load test of ``python -m crfdeid serve`` on the loopback address.

    python bench/serve_load.py [--requests 300] [--concurrency 1,8,32] [--workers 1]
                               [--corpus synth:200,13] [--output-format surrogate] [--json FILE]

Starts the server on a free port of 127.0.0.1 (with a random surrogate key), sends each
concurrency level ``--requests`` requests of one note each (notes taken in turn from
``--corpus``, any ``FORMAT:PATH`` crfdeid reads) from that many client threads, and stops
the server. Every level is bounded by ``--requests`` and by ``--max-seconds``; nothing
leaves the machine. Prints, per level: notes/s, p50 and p99 latency, errors (any answer
but 200, or no answer); and the server's resident memory (all its processes) after the
warm-up (every note sent twice), after each level, at its peak and at the end, sampled
every 0.25 s.

The clients run on the same machine and take CPU from the server: the figures are a
lower bound of what the server does alone. Load averages before and after are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Rss:
    """Resident memory of a process and its children, sampled in a thread."""

    def __init__(self, pid: int):
        import psutil
        self.proc, self.samples, self.stop = psutil.Process(pid), [], threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def now(self) -> int:
        procs = [self.proc, *self.proc.children(recursive=True)]
        total = 0
        for p in procs:
            try:
                total += p.memory_info().rss
            except Exception:  # noqa: BLE001, S110 - a worker that just ended
                pass
        return total

    def _run(self):
        while not self.stop.wait(0.25):
            self.samples.append((time.monotonic(), self.now()))

    def close(self):
        self.stop.set()
        self.thread.join()


def level(client_factory, url: str, bodies: list, concurrency: int, requests: int, max_seconds: float):
    latencies, errors = [], 0
    lock = threading.Lock()
    deadline = time.monotonic() + max_seconds
    counter = iter(range(requests))

    def worker():
        nonlocal errors
        with client_factory() as client:
            for i in counter:
                if time.monotonic() > deadline:
                    return
                t0 = time.perf_counter()
                try:
                    ok = client.post(url, json=bodies[i % len(bodies)]).status_code == 200
                except Exception:  # noqa: BLE001 - counted, never printed (it may hold text)
                    ok = False
                dt = time.perf_counter() - t0
                with lock:
                    latencies.append(dt)
                    errors += not ok

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        for f in [pool.submit(worker) for _ in range(concurrency)]:
            f.result()
    wall = time.perf_counter() - t0
    lat = sorted(latencies)

    def pct(q):
        return round(1000 * lat[min(len(lat) - 1, int(q * len(lat)))], 1)
    return {"concurrency": concurrency, "requests": len(lat), "errors": errors, "seconds": round(wall, 2),
            "notes_per_s": round(len(lat) / wall, 1), "p50_ms": pct(0.50), "p99_ms": pct(0.99)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--requests", type=int, default=300, help="requests per concurrency level")
    p.add_argument("--concurrency", default="1,8,32")
    p.add_argument("--workers", type=int, default=1, help="server worker processes")
    p.add_argument("--corpus", default="synth:200,13", help="notes to send (FORMAT:PATH)")
    p.add_argument("--output-format", default="surrogate")
    p.add_argument("--max-seconds", type=float, default=120, help="time limit of each level")
    p.add_argument("--json")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    import httpx

    from crfdeid.io import read
    from crfdeid.serve import wait_ready
    notes = list(read(args.corpus))
    bodies = [{"text": d.text, "id": d.doc_id, "patient": d.group, "output_format": args.output_format}
              for d in notes]
    tmp = Path(tempfile.mkdtemp(prefix="crfdeid-serve-bench-"))
    (tmp / "key").write_text(secrets.token_hex(32))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    result = {"date": time.strftime("%Y-%m-%d %H:%M"), "corpus": args.corpus, "notes": len(notes),
              "mean_chars": round(sum(len(d.text) for d in notes) / len(notes)), "workers": args.workers,
              "output_format": args.output_format, "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg())}
    server = subprocess.Popen([sys.executable, "-m", "crfdeid", "serve", "--port", str(port), "--key-file",
                               str(tmp / "key"), "--workers", str(args.workers), "--quiet"],
                              env=dict(os.environ, PYTHONPATH=str(ROOT)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not wait_ready(base, server, timeout=120):
            print("the server did not start", file=sys.stderr)
            return 1
        rss = Rss(server.pid)
        url = f"{base}/v1/deidentify"

        def factory():
            return httpx.Client(timeout=60)
        # warm-up: every note twice, so that every worker's word caches have seen the corpus
        level(factory, url, bodies, 4, 2 * len(bodies), args.max_seconds)
        result["rss_after_warmup_mb"] = round(rss.now() / 2**20, 1)
        result["levels"] = []
        for c in map(int, args.concurrency.split(",")):
            result["levels"].append(level(factory, url, bodies, c, args.requests, args.max_seconds))
            result["levels"][-1]["rss_after_mb"] = round(rss.now() / 2**20, 1)
        result["rss_end_mb"] = round(rss.now() / 2**20, 1)
        rss.close()
        result["rss_peak_mb"] = round(max(v for _, v in rss.samples) / 2**20, 1)
    finally:
        server.terminate()
        server.wait(timeout=60)
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()
    result["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    for lv in result["levels"]:
        print(f"concurrency {lv['concurrency']:>2}: {lv['notes_per_s']} notes/s, p50 {lv['p50_ms']} ms, "
              f"p99 {lv['p99_ms']} ms, {lv['requests']} requests, {lv['errors']} errors, "
              f"server RSS after it {lv['rss_after_mb']} MB")
    print(f"server RSS: {result['rss_after_warmup_mb']} MB after warm-up, peak {result['rss_peak_mb']} MB, "
          f"end {result['rss_end_mb']} MB ({args.workers} worker(s))")
    print(f"{len(notes)} notes of {result['mean_chars']} characters on average ({args.corpus}), "
          f"{args.output_format}; load averages before {result['load_before']}, after {result['load_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0 if all(lv["errors"] == 0 for lv in result["levels"]) else 1


if __name__ == "__main__":
    sys.exit(main())
