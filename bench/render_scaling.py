"""Time to tag and to render one long made-up note, by note size: is it linear?

    python bench/render_scaling.py [--sizes 100000,300000,1000000] [--formats redacted,surrogate]
                                   [--dates 1000,4000] [--gold] [--json FILE]

For each size, one note is made of synthetic notes (``synth:N,7``: made-up patients, each
with its own names, dates and numbers, so the number of distinct PHI strings grows with
the note) cut to that many characters; the shipped model tags it once, and each output
format renders it (:class:`crfdeid.adapters.records.Deidentifier`, what the HTTP service and
the Spark job run); with ``--gold``, the synthetic notes' own PHI spans are rendered instead
(no tagging: the rendering alone, for notes of several million characters). With
``--dates``, a note of that many distinct dates (gold spans, no tagging) is rendered as
surrogates: the date half alone. Prints one JSON line per measurement (seconds of wall
time, ``cpu`` seconds of the process) and the load average; a surrogate row also gives
``fallback``, the spans given the shape-keeping random replacement (their typed generator
found no acceptable draw: the pools that one patient's thousands of PHI strings use up).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.crf import Model  # noqa: E402
from crfdeid.document import Document, make_span  # noqa: E402
from crfdeid.errors import CrfdeidError  # noqa: E402
from crfdeid.io import open_writer, read  # noqa: E402


def made_up_note(chars: int, gold: bool = False) -> Document:
    """Synthetic notes one after another, cut to ``chars`` characters (at white space), as one
    note of one patient; with ``gold``, their own PHI spans (those the cut leaves whole)."""
    parts, spans, total, n = [], [], 0, max(20, chars // 1200)
    while total < chars:
        for doc in read(f"synth:{n},{7 + len(parts)}"):
            spans += [replace(sp, start=sp.start + total, end=sp.end + total) for sp in doc.spans]
            parts.append(doc.text)
            total += len(doc.text) + 2
            if total >= chars:
                break
    text = "\n\n".join(parts)[:chars]
    text = text[:text.rfind(" ")] if " " in text[-50:] else text
    return Document("long", text, [sp for sp in spans if sp.end <= len(text)] if gold else [],
                    meta={"patient": "p1"})


def dated_note(n: int) -> Document:
    """A note of ``n`` made-up dates, each a gold DATE span, of one patient."""
    rng = random.Random(0)
    parts, spans, pos = [], [], 0
    for _ in range(n):
        date = f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/{rng.randint(2060, 2099)}"
        line = f"Seen on {date}, stable. "
        spans.append(make_span(pos + 8, pos + 8 + len(date), "DATE"))
        parts.append(line)
        pos += len(line)
    return Document("dates", "".join(parts), spans, meta={"patient": "p1"})


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100000,300000,1000000")
    p.add_argument("--formats", default="redacted,surrogate")
    p.add_argument("--dates", default="", help="also: notes of this many dates (comma-separated)")
    p.add_argument("--gold", action="store_true", help="render the notes' own PHI spans, no tagging")
    p.add_argument("--json", help="append the lines to this file too")
    args = p.parse_args(argv)
    out = []

    def emit(row):
        row["load"] = round(os.getloadavg()[0], 2)
        print(json.dumps(row), flush=True)
        out.append(row)
    model = None if args.gold else Model.load(None)
    for size in (int(s) for s in args.sizes.split(",") if s):
        doc = made_up_note(size, args.gold)
        if model is None:
            tagged = doc
            emit({"chars": len(doc.text), "step": "gold", "spans": len(doc.spans)})
        else:
            t0 = time.perf_counter()
            [(_, tagged)] = list(model.tag_each([doc]))
            emit({"chars": len(doc.text), "step": "tag", "spans": len(tagged.spans),
                  "seconds": round(time.perf_counter() - t0, 2)})
        for fmt in (f for f in args.formats.split(",") if f):
            writer = open_writer(fmt, None, {"seed": 1} if fmt == "surrogate" else {})
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                writer.transform(tagged)
                failed = None
            except CrfdeidError as exc:  # a surrogate check refusing the note (fail closed): timed too
                failed = type(exc).__name__
            row = {"chars": len(doc.text), "step": f"render {fmt}", "seconds": round(time.perf_counter() - t0, 2),
                   "cpu": round(time.process_time() - c0, 2), "failed": failed}
            if fmt == "surrogate":
                row["fallback"] = writer.surrogator.counts["fallback"]
            emit(row)
    for n in (int(s) for s in args.dates.split(",") if s):
        doc = dated_note(n)
        writer = open_writer("surrogate", None, {"seed": 1})
        t0 = time.perf_counter()
        writer.transform(doc)
        emit({"dates": n, "step": "render surrogate", "seconds": round(time.perf_counter() - t0, 2)})
    if args.json:
        with open(args.json, "a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
