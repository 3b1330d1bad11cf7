"""Server-side time of the review path on a 5,000-word note: open it, accept all, next.

    python bench/review_timing.py [--words 5000] [--runs 20] [--db URL]

Builds a throw-away project (SQLite in a temporary folder, or the PostgreSQL URL given)
holding one synthetic note of at least ``--words`` words pre-annotated by the shipped
model, then times, through FastAPI's test client (in-process: no network), the three
requests a reviewer makes: ``POST /api/notes/N/open``, ``POST .../accept-all`` and
``POST .../done`` (which answers the next note of the queue). Each run uses a new
annotator, so every open copies the suggestions afresh. Prints the median and the
slowest run in milliseconds, with the load averages (`uptime`): on a shared machine
the figure moves with the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--words", type=int, default=5000)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--db", help="PostgreSQL URL (default: SQLite in a temporary folder)")
    args = p.parse_args(argv)
    from fastapi.testclient import TestClient

    from crfdeid.crf import Model
    from crfdeid.review.headless import long_document
    from crfdeid.review.project import Project
    from crfdeid.review.server import create_app
    with tempfile.TemporaryDirectory() as tmp:
        project = Project.create(Path(tmp) / "proj", args.db)
        doc = long_document(args.words)
        nid = project.store.add_note(doc)
        project.suggest(Model.load(), [nid], 0)
        project.store.add_note(long_document(100, seed=14, doc_id="900-02"))
        client = TestClient(create_app(project, hosts=("testserver",)))
        spans = len(project.store.spans(nid, "model"))
        times = {"open": [], "accept-all": [], "done+next": [], "total": []}
        for run in range(args.runs + 2):
            h = {"X-Annotator": f"bench{run}"}
            t0 = time.perf_counter()
            r1 = client.post(f"/api/notes/{nid}/open", headers=h, json={})
            t1 = time.perf_counter()
            r2 = client.post(f"/api/notes/{nid}/accept-all", headers=h, json={})
            t2 = time.perf_counter()
            r3 = client.post(f"/api/notes/{nid}/done", headers=h, json={})
            t3 = time.perf_counter()
            assert r1.status_code == r2.status_code == r3.status_code == 200 and r3.json()["next"]
            if run >= 2:  # the first runs warm the thread pool and the connections
                for k, v in zip(times, (t1 - t0, t2 - t1, t3 - t2, t3 - t0)):
                    times[k].append(v * 1000)
        project.close()
    print(f"note: {len(doc.text.split())} words, {len(doc.text)} characters, {spans} suggested spans; "
          f"store: {'PostgreSQL' if args.db else 'SQLite'}; {args.runs} runs")
    for k, v in times.items():
        print(f"{k:<11} median {statistics.median(v):7.1f} ms   max {max(v):7.1f} ms")
    print(f"load averages: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    ok = statistics.median(times["total"]) < 100
    print(f"target (open + accept all + next under 100 ms): {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
