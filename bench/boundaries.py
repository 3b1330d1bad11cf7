"""The PhysioNet model's span boundaries against the gold, pooled over dev CV (docs/prior.md).

    python bench/boundaries.py --cache build/pn-folds --pred build/pn-bounds.json

The five patient-grouped fold models of ``--config`` (the locked patients left out; trained by
``bench/prior_sweep.py`` or ``crfdeid figures`` into ``--cache``, never trained here) tag their
held-out notes as ``tag`` runs them (the decoding as configured, then site mining over each fold
as one batch). The predicted spans are saved to ``--pred`` (offsets and labels only) and reused
when there. Prints strict, relaxed, parent strict and binary token figures, each category's
parent strict F1 and token P/R, then the predicted spans that overlap a gold span of their parent
category without matching it exactly, counted by category and shape of the difference (``+title
before``, ``+punct after``, ``split``, ``joined``...). ``--without-join``: the same with the
chain's joining of adjacent name and place spans (``phrases.join_adjacent``) left out, to
measure what it costs (use another ``--pred``). Counts only, never note text.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prior_sweep import development_notes, fold_arguments  # noqa: E402

from crfdeid.document import Span  # noqa: E402
from crfdeid.experiments import figures as fig  # noqa: E402
from crfdeid.experiments.crossval import fold_splits, summarize  # noqa: E402
from crfdeid.recognizers import phrases  # noqa: E402
from crfdeid.scoring import evaluate  # noqa: E402

TITLE = re.compile(r"(?i)^(dr|drs|mr|mrs|ms|miss|prof|doctor|sr|jr|md|rn|np|pa)\.?$")
WEEKDAY = re.compile(r"(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?$")


def _piece(text: str) -> str:
    """The shape class of a stretch one side has and the other not."""
    s = text.strip()
    if not s:
        return "space"
    if not any(c.isalnum() for c in s):
        return "punct"
    words = s.split()
    if all(TITLE.match(w.strip(",.:;()")) or TITLE.match(w) for w in words):
        return "title"
    if any(WEEKDAY.match(w) for w in words):
        return "weekday"
    if s.isdigit():
        return "number"
    return "word" if len(words) == 1 else "words"


def shape(text: str, g: Span, p: Span) -> str:
    """How predicted ``p`` differs from gold ``g`` (overlapping, same parent category)."""
    out = []
    if p.start < g.start:
        out.append(f"+{_piece(text[p.start:g.start])} before")
    elif p.start > g.start:
        out.append(f"-{_piece(text[g.start:p.start])} before")
    if p.end > g.end:
        out.append(f"+{_piece(text[g.end:p.end])} after")
    elif p.end < g.end:
        out.append(f"-{_piece(text[p.end:g.end])} after")
    return ", ".join(out) or "same offsets, subtype differs"


def differences(gold, pred) -> Counter:
    """``(category, shape)`` counts of the gold spans matched only in part."""
    out: Counter = Counter()
    by_id = {d.doc_id: d for d in pred}
    for d in gold:
        ps = by_id[d.doc_id].spans
        for g in d.spans:
            over = [p for p in ps if p.start < g.end and g.start < p.end and p.category == g.category]
            if not over or any(p.start == g.start and p.end == g.end for p in over):
                continue
            if len(over) > 1:
                out[(g.category, f"split: {min(len(over), 3)} predicted spans")] += 1
                continue
            p = over[0]
            golds = [h for h in d.spans if h.start < p.end and p.start < h.end and h.category == g.category]
            if len(golds) > 1:
                out[(g.category, f"joined: one predicted over {min(len(golds), 3)} gold")] += 1
                continue
            out[(g.category, shape(d.text, g, p))] += 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    fold_arguments(ap)
    ap.add_argument("--pred", required=True, help="JSON of the predicted spans (reused when there)")
    ap.add_argument("--out", help="JSON of the figures and counts")
    ap.add_argument("--without-join", action="store_true",
                    help="measure with phrases.join_adjacent left out (adjacent spans kept apart)")
    a = ap.parse_args(argv)
    if a.without_join:
        phrases.join_adjacent = lambda text, spans: sorted(spans)
    config, dev = development_notes(a)
    pred_path = Path(a.pred)
    if pred_path.exists():
        saved = json.loads(pred_path.read_text(encoding="utf-8"))
        pred = [d.with_spans([Span(*s) for s in saved[d.doc_id]]) for d in dev]
    else:
        splits = fold_splits(dev, 5, config["seed"])
        missing = [f.index for f in splits if not (Path(a.cache) / f"fold{f.index}.model").exists()]
        if missing:
            ap.error(f"--cache has no fold model {missing}")
        models = fig.train_all([(f"fold{f.index}", [], config) for f in splits], 1, Path(a.cache))
        pred = []
        for f, m in zip(splits, models):
            pred += fig.mine(m, list(m.tag_many([dev[i] for i in f.test])))
        pred_path.parent.mkdir(parents=True, exist_ok=True)
        pred_path.write_text(json.dumps({d.doc_id: [[s.start, s.end, s.category, s.subtype] for s in d.spans]
                                         for d in pred}), encoding="utf-8")
    gold = {d.doc_id: d for d in dev}
    gold_l = [gold[d.doc_id] for d in pred]
    report = evaluate(gold_l, pred)
    figs = summarize(report)
    for m in ("strict", "relaxed", "parent_strict", "binary_token"):
        s = figs[m]
        print(f"{m:14s} P {s['precision']:.3f} R {s['recall']:.3f} F1 {s['f1']:.3f}")
    cats = {}
    for cat, block in sorted(report.by_category.items()):
        ps, tk = block["parent_strict"], block["token"]
        cats[cat] = {"parent_strict": [ps.precision, ps.recall, ps.f1], "token": [tk.precision, tk.recall, tk.f1]}
        print(f"  {cat:12s} parent strict P {ps.precision:.3f} R {ps.recall:.3f} F1 {ps.f1:.3f}"
              f"  token P {tk.precision:.3f} R {tk.recall:.3f}")
    diff = differences(gold_l, pred)
    for (cat, sh), n in sorted(diff.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"  {n:5d}  {cat:12s} {sh}")
    if a.out:
        Path(a.out).write_text(json.dumps({"figures": figs, "categories": cats,
                                           "differences": {f"{c} | {s}": n for (c, s), n in diff.items()}},
                                          indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
