"""Site mining measured: a model's binary token figures on an annotated corpus with mining off
and on, per category, and the time of mining against one tagging pass (docs/site.md).

    python bench/site_mining.py --corpus physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --json /tmp/mining.json

The corpus is tagged once through :class:`crfdeid.tagging.session.Session` (the path of
``python -m crfdeid tag``) with mining off; mining then runs on those results exactly as a
session with ``site_mining`` does after its pass (:func:`crfdeid.site.mining.mine_results`),
so the ratio is (pass + mining) / pass in CPU seconds of this process. ``--full`` also tags
once more with a mining session and checks that it gives the same spans.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.document import Document  # noqa: E402
from crfdeid.io import read  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402
from crfdeid.scoring import evaluate  # noqa: E402
from crfdeid.site import mining  # noqa: E402
from crfdeid.tagging.session import SPANS, Session  # noqa: E402


def figures(gold: list[Document], pred: list[Document]) -> dict:
    """Binary token P/R overall and recall per gold category, and the PHI tokens missed."""
    s = evaluate(gold, pred).micro["binary_token"]
    out = {"precision": round(s.precision, 4), "recall": round(s.recall, 4), "tp": s.tp, "fp": s.fp,
           "fn": s.fn, "recall_by_category": {}, "missed_by_category": {}}
    for cat in sorted({sp.category for d in gold for sp in d.spans}):
        only = [d.with_spans([sp for sp in d.spans if sp.category == cat]) for d in gold]
        c = evaluate(only, pred).micro["binary_token"]
        out["recall_by_category"][cat] = round(c.recall, 4)
        out["missed_by_category"][cat] = c.fn
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", required=True)
    p.add_argument("--model", help="model file (default: the shipped model)")
    p.add_argument("--exclude-groups", help="leave out these groups (patients), e.g. the locked quarter")
    p.add_argument("--json", help="write the figures here")
    p.add_argument("--full", action="store_true", help="also tag with a mining session and compare")
    args = p.parse_args(argv)
    gold = list(read(args.corpus))
    if args.exclude_groups:
        gold = select_groups(gold, read_groups(args.exclude_groups), keep=False)
    blank = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in gold]
    session = Session(args.model, SPANS)
    c0 = time.process_time()
    results = list(session.tag(blank))
    tag_cpu = time.process_time() - c0
    c0 = time.process_time()
    lessons = mining.Lessons()
    mined = list(mining.mine_results(results, lessons=lessons))
    mine_cpu = time.process_time() - c0
    off = [t for _, t, _ in results]
    on = [t for _, t, _ in mined]
    out = {"notes": len(gold), "patients": len({d.group for d in gold}),
           "off": figures(gold, off), "on": figures(gold, on), "summary": lessons.summary(),
           "tag_cpu_s": round(tag_cpu, 2), "mining_cpu_s": round(mine_cpu, 2),
           "ratio": round((tag_cpu + mine_cpu) / tag_cpu, 3)}
    if args.full:
        again = Session(args.model, SPANS, site_mining=True)
        out["full_same"] = [t.spans for _, t, _ in again.tag(blank)] == [t.spans for t in on]
    for name in ("off", "on"):
        f = out[name]
        cats = ", ".join(f"{k} {v:.3f} ({f['missed_by_category'][k]} missed)" for k, v in f["recall_by_category"].items())
        print(f"mining {name:>3}: P {f['precision']:.3f}  R {f['recall']:.3f}  tp {f['tp']} fp {f['fp']} "
              f"fn {f['fn']}  by category: {cats}")
    print(out["summary"])
    print(f"time (CPU s): tagging pass {out['tag_cpu_s']}, mining {out['mining_cpu_s']}, ratio {out['ratio']}"
          + (f"; a mining session gives the same spans: {out['full_same']}" if args.full else ""))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
