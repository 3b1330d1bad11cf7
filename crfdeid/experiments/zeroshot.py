"""A model (or one recognizer) scored zero-shot on an annotated corpus, over a threshold sweep.

``python -m crfdeid experiments zero-shot`` tags every note once per O threshold (``none`` =
Viterbi; ``default`` = the model's configured decoding) with ``Model.tag_many`` (the code path
of ``python -m crfdeid tag``) and scores with :func:`crfdeid.scoring.evaluate`: binary token
precision and recall, per parent category the share of its gold tokens inside any predicted
span (``covered``), the false-positive tokens by predicted subtype (tokens of predicted spans
that overlap no gold span), and the tagging speed. Counts and figures only, never note text.
"""

from __future__ import annotations

import os
import time
from collections import Counter

from ..document import Document
from ..scoring import evaluate
from ..text.tokenize import tokenize


def fp_by_subtype(gold, pred) -> dict:
    """False-positive tokens by predicted subtype: tokens of predicted spans overlapping no gold span."""
    out: Counter = Counter()
    for g, p in zip(gold, pred):
        for sp in p.spans:
            if not any(sp.overlaps(x) for x in g.spans):
                out[sp.subtype] += len(tokenize(g.text[sp.start:sp.end]))
    return dict(out.most_common())


def covered(gold, pred) -> dict:
    """Per parent category: the share of its gold tokens inside any predicted span (its binary token recall)."""
    out = {}
    for cat in sorted({sp.category for d in gold for sp in d.spans}):
        only = [d.with_spans([sp for sp in d.spans if sp.category == cat]) for d in gold]
        out[cat] = round(evaluate(only, pred).micro["binary_token"].recall, 4)
    return out


def figures(gold, pred) -> dict:
    """Binary token P/R/F1 with counts, ``covered`` per category and ``fp_by_subtype``."""
    s = evaluate(gold, pred).micro["binary_token"]
    return {"precision": round(s.precision, 4), "recall": round(s.recall, 4), "f1": round(s.f1, 4),
            "tp": s.tp, "fp": s.fp, "fn": s.fn, "covered": covered(gold, pred),
            "fp_by_subtype": fp_by_subtype(gold, pred)}


def _timed(tag, gold, tokens: int) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    pred = tag()
    sec, cpu = time.perf_counter() - t0, time.process_time() - c0
    return dict(figures(gold, pred), seconds=round(sec, 2), cpu_seconds=round(cpu, 2),
                tokens_per_s=round(tokens / max(sec, 1e-9)), tokens_per_cpu_s=round(tokens / max(cpu, 1e-9)))


def run(docs, *, model=None, recognizer=None, thresholds=("default",), options=None) -> dict:
    """``{"documents", "tokens", "load", "runs": {name: figures}}`` for ``model`` at each
    threshold (``"default"``, ``"none"`` or a float as text), or for ``recognizer``, a
    ``(name, recognizer)`` pair, alone."""
    blank = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in docs]
    tokens = sum(len(tokenize(d.text)) for d in docs)
    runs: dict[str, dict] = {}
    result = {"documents": len(docs), "tokens": tokens, "load": os.getloadavg(), "runs": runs}
    if recognizer is not None:
        name, rec = recognizer
        runs[name] = _timed(lambda: [d.with_spans(rec.spans(d.text)) for d in blank], docs, tokens)
        return result
    for t in thresholds:
        thr = ... if t == "default" else None if t == "none" else float(t)
        runs[t] = _timed(lambda thr=thr: list(model.tag_many(blank, o_threshold=thr, options=options)),
                                   docs, tokens)
    return result


def summary(name: str, fig: dict) -> str:
    """One line of figures (no text)."""
    top = ", ".join(f"{k} {v}" for k, v in list(fig["fp_by_subtype"].items())[:6])
    cov = ", ".join(f"{k} {v:.3f}" for k, v in fig["covered"].items())
    return (f"{name:>10}  P {fig['precision']:.3f}  R {fig['recall']:.3f}  F1 {fig['f1']:.3f}  "
            f"tp {fig['tp']} fp {fig['fp']} fn {fig['fn']}  {fig['tokens_per_s']} tok/s wall, "
            f"{fig['tokens_per_cpu_s']} per CPU s  covered: {cov}  FP: {top}")
