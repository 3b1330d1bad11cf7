"""Time the review page on one big synthetic note in headless Chromium: opening it, and each key.

    python bench/review_big_note.py [--words 10500] [--keys jjajajxjajj]

Builds a throw-away project holding one note of at least ``--words`` words (synthetic notes
joined, ``crfdeid.review.headless.long_document``) whose gold spans are the model's
suggestions, serves it on a free loopback port and opens the page in headless Chromium. Prints
the time from the page load to the first frame painted with the note (request included), then,
for each key, the time from the key to the next painted frame (``performance.now()`` in the
page, requests included for ``a`` and ``x``), with what Chromium's own counters give for
layout, style and the whole renderer task. About 10,500 words give 1,231 spans, 93,000 words
10,271. The figures move with the machine's load (printed at the end).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PAINT = """const done = arguments[arguments.length - 1], key = arguments[0];
const t0 = performance.now();
document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
state.chain.then(() => requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0)));"""
METRICS = ("LayoutDuration", "RecalcStyleDuration", "TaskDuration")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--words", type=int, default=10_500)
    p.add_argument("--keys", default="jjajajxjajj")
    args = p.parse_args(argv)
    from selenium.webdriver.support.ui import WebDriverWait

    from crfdeid.review import headless
    from crfdeid.review.project import Project
    from crfdeid.review.server import create_app
    with tempfile.TemporaryDirectory() as tmp:
        project = Project.create(Path(tmp) / "proj")
        doc = headless.long_document(args.words)
        nid = project.store.add_note(doc.__class__(doc.doc_id, doc.text, [], doc.meta))
        project.store.set_suggestions(nid, doc.spans, [0.9] * len(doc.spans), 0, 1.0)
        print(f"note: {len(doc.text.split())} words, {len(doc.text)} characters, {len(doc.spans)} spans")
        with headless.live_server(create_app(project)) as url, headless.chromium(1280, 800) as d:
            d.set_script_timeout(300)
            d.get(url + "/")
            d.execute_script("localStorage.setItem('crfdeid-review-who', 'bench')")
            t0 = time.perf_counter()
            d.get(url + "/")
            WebDriverWait(d, 300, poll_frequency=0.05).until(
                lambda d: d.execute_script("return typeof state !== 'undefined' && state.review.note !== null"))
            d.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => setTimeout(done, 0))")
            opened = time.perf_counter() - t0
            drawn = d.execute_script("return document.querySelectorAll('#review-text mark').length")
            print(f"open: {opened:.2f} s; {drawn} marks drawn")
            d.execute_cdp_cmd("Performance.enable", {})

            def counters():
                got = {m["name"]: m["value"] for m in d.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
                return [got[k] * 1000 for k in METRICS]

            for key in args.keys:
                before = counters()
                ms = d.execute_async_script(PAINT, key)
                spent = [b - a for a, b in zip(before, counters())]
                parts = "   ".join(f"{k[:-8].lower()} {v:5.1f}" for k, v in zip(METRICS, spent))
                print(f"{key}: {ms:6.1f} ms   {parts}")
        project.close()
    print(f"load averages: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
