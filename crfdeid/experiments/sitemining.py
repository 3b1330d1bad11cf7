"""Site mining measured: a model's binary token figures on an annotated corpus with mining off
and on, per category, and the time of mining against one tagging pass (docs/site.md).

``python -m crfdeid experiments site-mining`` tags the corpus once through
:class:`crfdeid.tagging.session.Session` (the path of ``python -m crfdeid tag``) with mining
off; mining then runs on those results exactly as a session with ``site_mining`` does after its
pass (:func:`crfdeid.site.mining.mine_results`), so the ratio is (pass + mining) / pass in CPU
seconds of this process. ``full`` also tags once more with a mining session and checks that it
gives the same spans. A model mining does not apply to (labels of its own, another language:
:func:`crfdeid.site.mining.mines`) is scored with mining off both times, as the session would
tag. With ``made_up`` the made-up notes' misses and false spans are counted too. Counts and
figures only, never note text.
"""

from __future__ import annotations

import time
from collections import Counter

from ..document import Document
from ..scoring import evaluate
from ..site import mining
from ..tagging.session import SPANS, Session
from ..text.tokenize import tokenize
from . import madeup


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
    out["precision_by_category"] = {}  # of the predicted spans of each category, against all gold
    for cat in sorted({sp.category for d in pred for sp in d.spans}):
        only = [d.with_spans([sp for sp in d.spans if sp.category == cat]) for d in pred]
        c = evaluate(gold, only).micro["binary_token"]
        out["precision_by_category"][cat] = [round(c.precision, 4), c.tp, c.fp]
    return out


def by_scope(gold: list[Document], off: list[Document], lessons: mining.Lessons) -> dict:
    """Tokens mining added outside the pass's spans, by scope, subtype and truth (counts only)."""
    out: Counter = Counter()
    for g, d in zip(gold, off):
        for sp, ls in lessons.found(d):
            for t in tokenize(d.text[sp.start:sp.end]):
                a, b = sp.start + t.start, sp.start + t.end
                if not any(p.start < b and a < p.end for p in d.spans):
                    truth = "gold" if any(x.start < b and a < x.end for x in g.spans) else "false"
                    out[f"{ls.scope} {ls.subtype} {truth}"] += 1
    return dict(sorted(out.items()))


def run(gold: list[Document], model=None, *, made_up: bool = False, full: bool = False) -> dict:
    """Figures with mining off and on, the mining summary, CPU times and (``made_up``) the
    made-up notes' counts; ``model``: a model file (None: the shipped model)."""
    blank = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in gold]
    session = Session(model, SPANS)
    c0 = time.process_time()
    results = list(session.tag(blank))
    tag_cpu = time.process_time() - c0
    c0 = time.process_time()
    lessons = mining.Lessons()
    applies = mining.mines(session.model)
    mined = list(mining.mine_results(results, lessons=lessons)) if applies else results
    mine_cpu = time.process_time() - c0
    off = [t for _, t, _ in results]
    on = [t for _, t, _ in mined]
    out: dict = {"notes": len(gold), "patients": len({d.group for d in gold}),
           "off": figures(gold, off), "on": figures(gold, on), "applies": applies,
           "summary": lessons.summary() if applies else "site mining does not apply to this model",
           "tag_cpu_s": round(tag_cpu, 2), "mining_cpu_s": round(mine_cpu, 2),
           "ratio": round((tag_cpu + mine_cpu) / max(tag_cpu, 1e-9), 3)}
    if applies:
        out["added_by_scope"] = by_scope(gold, off, lessons)
    if made_up:
        for name, pred in (("off", off), ("on", on)):
            r = madeup.score(gold, pred)
            out[name]["made_up"] = {k: r[k] for k in ("missed", "missed_safe_harbor", "false_spans", "gold_tokens")}
    if full:
        again = Session(model, SPANS, site_mining=True)
        out["full_same"] = [t.spans for _, t, _ in again.tag(blank)] == [t.spans for t in on]
    return out


def report(out: dict) -> list[str]:
    """The lines the command prints (figures and counts, no text)."""
    lines = []
    if "added_by_scope" in out:
        lines.append("tokens added outside the pass's spans (scope, subtype, gold or false): "
                     + ", ".join(f"{k} {v}" for k, v in out["added_by_scope"].items()))
    for name in ("off", "on"):
        if "made_up" in out[name]:
            r = out[name]["made_up"]
            lines.append(f"made-up notes, mining {name}: missed {r['missed']} "
                         f"(Safe Harbor {r['missed_safe_harbor']}) of {r['gold_tokens']} gold tokens, "
                         f"false spans (placeholders on non-PHI) {r['false_spans']}")
    for name in ("off", "on"):
        f = out[name]
        cats = ", ".join(f"{k} {v:.3f} ({f['missed_by_category'][k]} missed)"
                         for k, v in f["recall_by_category"].items())
        prec = ", ".join(f"{k} {v[0]:.3f} (fp {v[2]})" for k, v in f["precision_by_category"].items())
        lines.append(f"mining {name:>3}: P {f['precision']:.3f}  R {f['recall']:.3f}  tp {f['tp']} fp {f['fp']} "
                     f"fn {f['fn']}  recall by category: {cats}; precision by predicted category: {prec}")
    lines.append(out["summary"])
    lines.append(f"time (CPU s): tagging pass {out['tag_cpu_s']}, mining {out['mining_cpu_s']}, ratio {out['ratio']}"
                 + (f"; a mining session gives the same spans: {out['full_same']}" if "full_same" in out else ""))
    return lines
