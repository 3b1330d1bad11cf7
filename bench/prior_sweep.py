"""The PhysioNet model's prior weight and threshold swept in dev CV, as ``tag`` runs it (docs/prior.md).

    python bench/prior_sweep.py --cache build/pn-folds --weights 0,0.05,0.1,0.15,0.2 \\
        --thresholds 0.95,0.96,0.97,0.98,0.985,0.99 --stress i2b2:build/stress-unknown --out build/pn-grid.json
    python bench/prior_sweep.py --cache build/pn-folds --misses 0.1/0.97,0.05/0.985

The five patient-grouped fold models of ``--config`` (the development patients, the locked ones
left out, the config's seed: the folds and cache names of ``crfdeid figures``) are trained once
into ``--cache`` (reused when there). Each note's marginals of the three CRFs (the site CRF, its
companion, the prior) are computed once; every weight and threshold is a re-decoding of them
through the model's own chain (``tag_many``), then site mining over each fold's held-out notes
as one batch (:func:`crfdeid.experiments.figures.mine`, what a ``tag`` session does), pooled.
Prints binary token P / R, gold tokens missed and false tokens with mining off and on; the JSON
holds every category's share covered (and the stress copy's). ``--misses W/T,...``: at those
points the gold tokens missed (mining on) by category, subtype and shape (``Xx``, ``dd``), whether
the shipped model (zero-shot, mining over all the development notes) covers them, the false
tokens by category and shape class, and the union of both models' spans. Counts and shapes only,
never note text.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import Model  # noqa: E402
from crfdeid.experiments import figures as fig  # noqa: E402
from crfdeid.experiments import sitemining  # noqa: E402
from crfdeid.experiments.crossval import fold_splits  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402
from crfdeid.tagging.decoding import AveragedBackend  # noqa: E402
from crfdeid.text.tokenize import tokenize  # noqa: E402


class Cached:
    """A backend's ``probabilities`` remembered per note text (float32), computed once."""

    def __init__(self, backend):
        self.backend, self.labels, self.memo = backend, list(backend.labels), {}

    def probabilities(self, items):
        todo = [it for it in items if it[0] not in self.memo]
        if todo:
            for it, (lab, p) in zip(todo, self.backend.probabilities(todo)):
                self.memo[it[0]] = (list(lab), p.astype(np.float32))
        return [(list(self.memo[it[0]][0]), self.memo[it[0]][1].astype(np.float64)) for it in items]


class Voter:
    """A fold model whose prior weight is set per decoding, its three CRFs' marginals cached."""

    def __init__(self, model):
        outer = model._backend  # the prior's vote around the companion's
        self.model, self.site = model, AveragedBackend(Cached(outer.main.main), Cached(outer.main.other),
                                                       outer.main.weight)
        self.prior = Cached(outer.other)

    def set(self, weight: float):
        self.model._backend_impl = (AveragedBackend(self.site, self.prior, weight, outside_only=True)
                                    if weight else self.site)
        return self.model


def shape(s: str) -> str:
    """The token's shape, a run of three or more shortened to two (``Smith`` -> ``Xxx``, ``2019`` -> ``dd``)."""
    s = re.sub(r"[0-9]", "d", re.sub(r"[a-z]", "x", re.sub(r"[A-Z]", "X", s)))
    return re.sub(r"(.)\1{2,}", r"\1\1", s)


def kind(s: str) -> str:
    if s.isdigit():
        return "number"
    if any(c.isdigit() for c in s):
        return "letters+digits"
    return "UPPER" if s.isupper() else "Capitalised" if s[:1].isupper() else "lower"


def _tokens(doc, spans):
    for sp in spans:
        for t in tokenize(doc.text[sp.start:sp.end]):
            a, b = sp.start + t.start, sp.start + t.end
            if any(c.isalnum() for c in doc.text[a:b]):
                yield sp, a, b


def _covered(a, b, spans) -> bool:
    return any(sp.start < b and a < sp.end for sp in spans)


def misses(dev, pred: dict, ship: dict) -> dict:
    """Missed gold tokens by (category, subtype, shape, shipped covers), false tokens by (category, shape class)."""
    missed, false = Counter(), Counter()
    for d in dev:
        p = pred[d.doc_id].spans
        for g, a, b in _tokens(d, d.spans):
            if not _covered(a, b, p):
                hit = "hit" if _covered(a, b, ship[d.doc_id].spans) else "miss"
                missed[f"{g.category} {g.subtype} {shape(d.text[a:b])} shipped:{hit}"] += 1
        for sp, a, b in _tokens(d, p):
            if not _covered(a, b, d.spans):
                false[f"{sp.category} {kind(d.text[a:b])}"] += 1
    union = [pred[d.doc_id].with_spans(list(pred[d.doc_id].spans) + list(ship[d.doc_id].spans)) for d in dev]
    return {"missed": dict(sorted(missed.items())), "false": dict(sorted(false.items())),
            "union": sitemining.figures(dev, union)}


def fold_arguments(parser: argparse.ArgumentParser) -> None:
    """The options naming the fold models and their notes (``bench/boundaries.py`` takes them too)."""
    parser.add_argument("--config", default="configs/physionet.yaml")
    parser.add_argument("--train", default="physionet:../shared/corpora/physionet-dev")
    parser.add_argument("--exclude-groups", default="configs/splits/physionet-locked.txt")
    parser.add_argument("--cache", required=True)


def development_notes(a) -> tuple[dict, list]:
    """The config and the development notes (the locked patients left out) the options name."""
    return load_config(a.config), select_groups(read_all([a.train]), read_groups(a.exclude_groups), keep=False)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    fold_arguments(p)
    p.add_argument("--jobs", type=int, default=1, help="fold models trained at once")
    p.add_argument("--weights", default="")
    p.add_argument("--thresholds", default="")
    p.add_argument("--stress", metavar="FORMAT:PATH", help="the `unknown` copy, scored at every point")
    p.add_argument("--misses", default="", metavar="W/T,W/T")
    p.add_argument("--out", help="JSON of the sweep")
    a = p.parse_args(argv)
    config, dev = development_notes(a)
    splits = fold_splits(dev, 5, config["seed"])
    tests = [[dev[i] for i in f.test] for f in splits]
    t0 = time.time()
    models = fig.train_all([(f"fold{f.index}", [dev[i] for i in f.train], config) for f in splits], a.jobs,
                           Path(a.cache))
    print(f"fold models ready in {time.time() - t0:.0f} s", flush=True)
    voters = [Voter(m) for m in models]
    sets = {"real": tests}
    if a.stress:
        copies = {d.doc_id: d for d in read_all([a.stress])}
        sets["unknown"] = [[copies[d.doc_id] for d in t] for t in tests]
    rows = []
    for w in [float(x) for x in a.weights.split(",") if x]:
        for t in [float(x) for x in a.thresholds.split(",") if x]:
            row: dict = {"weight": w, "o_threshold": t}
            for name, folds in sets.items():
                off, on = [], []
                for v, test in zip(voters, folds):
                    model = v.set(w)
                    tagged = list(model.tag_many(test, o_threshold=t))
                    off += tagged
                    on += fig.mine(model, tagged)
                gold = [d for f in folds for d in f]
                row[name] = {"off": sitemining.figures(gold, off), "on": sitemining.figures(gold, on)}
            r = row["real"]
            print(w, t, *(f"mining {k}: P {r[k]['precision']:.3f} R {r[k]['recall']:.3f} missed {r[k]['fn']} "
                          f"false {r[k]['fp']}" for k in ("off", "on")), flush=True)
            rows.append(row)
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    if a.misses:
        shipped = Model.load("default")
        ship = {d.doc_id: d for d in fig.mine(shipped, list(shipped.tag_many(dev)))}
        for point in a.misses.split(","):
            w, t = map(float, point.split("/"))
            pred = {d.doc_id: d for v, test in zip(voters, tests)
                    for d in fig.mine(v.set(w), list(v.model.tag_many(test, o_threshold=t)))}
            print(f"weight {w} P(O) < {t}, mining on:", json.dumps(misses(dev, pred, ship), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
