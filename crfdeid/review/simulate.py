"""Replay annotation with the gold standard as the annotator: does uncertainty ordering pay?

``python -m crfdeid review simulate --config C --corpus FORMAT:PATH --batch N --json OUT``
splits the corpus by patient into a pool and held-out patients, then for each
strategy starts from an initial model (the shipped one by default), and in
rounds: ranks the pool's unannotated notes by the current model
(:mod:`crfdeid.review.active`), "annotates" the next ``N`` of them (their gold
spans), retrains on every note annotated so far, and scores the held-out notes
(binary token precision and recall at the model's configured decoding,
:func:`crfdeid.scoring.evaluate`). A model trained on the whole pool gives the
reference recall. The JSON is rewritten after every round, so a stopped run
keeps its points. Progress lines give counts and figures only.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..document import Document
from ..io.splits import train_test_split
from ..scoring import evaluate
from ..text.tokenize import tokenize
from . import active
from .sitemodel import train_reviewed

#: Strategies the simulation compares by default.
DEFAULT_STRATEGIES = ("uncertainty", "random")


def split_pool(docs: Sequence[Document], held_out: float, seed: int) -> tuple[list, list]:
    """``(pool, held_out)`` documents, grouped by patient (:func:`crfdeid.splits.train_test_split`)."""
    train, test = train_test_split(docs, test_size=held_out, seed=seed)
    return [docs[i] for i in train], [docs[i] for i in test]


def binary_token(model, gold: Sequence[Document]) -> tuple[float, float]:
    """Binary token (precision, recall) of ``model`` on ``gold`` at its configured decoding."""
    sc = evaluate(gold, list(model.tag_many(gold))).micro["binary_token"]
    return round(sc.precision, 4), round(sc.recall, 4)


def _tokens(docs) -> int:
    return sum(len(tokenize(d.text)) for d in docs)


class Replay:
    """One simulation: a pool, held-out notes, a config, an initial model and a batch size."""

    def __init__(self, pool, held_out, config: dict, batch: int, initial=None, seed: int = 13,
                 max_notes: int | None = None, log=None, save=None):
        self.pool, self.held_out, self.config = list(pool), list(held_out), config
        self.batch, self.initial, self.seed = batch, initial, seed
        self.max_notes = min(max_notes or len(self.pool), len(self.pool))
        self.log = log or (lambda msg: None)
        self.save = save  # save(model, notes): called with each round's model

    def train(self, docs):
        return train_reviewed(docs, self.config)

    def reference(self) -> dict:
        """The point of a model trained on the whole pool."""
        t0 = time.perf_counter()
        p, r = binary_token(self.train(self.pool), self.held_out)
        point = {"notes": len(self.pool), "tokens": _tokens(self.pool), "precision": p, "recall": r,
                 "seconds": round(time.perf_counter() - t0, 1)}
        self.log(f"all {point['notes']} notes: P={p:.4f} R={r:.4f}")
        return point

    def run(self, strategy: str, on_point=None) -> list[dict]:
        """The points of one strategy, from the initial model to ``max_notes`` annotated notes."""
        model = self.initial
        rest = list(range(len(self.pool)))
        taken: list[int] = []
        points = []
        if model is not None:
            p, r = binary_token(model, self.held_out)
            points.append({"notes": 0, "tokens": 0, "precision": p, "recall": r, "seconds": 0.0})
        rng_seed = self.seed
        while len(taken) < self.max_notes:
            t0 = time.perf_counter()
            n = min(self.batch, self.max_notes - len(taken))
            cands = [self.pool[i] for i in rest]
            if strategy == "random" or model is None:
                prio = active.scores(None, cands, "random", seed=rng_seed)
                rng_seed += 1
            else:
                prio = active.scores(model, cands, strategy)
            chosen = {rest[j] for j in active.pick(prio, n)}
            taken.extend(sorted(chosen))
            rest = [i for i in rest if i not in chosen]
            docs = [self.pool[i] for i in taken]
            model = self.train(docs)
            if self.save is not None:
                self.save(model, len(taken))
            p, r = binary_token(model, self.held_out)
            point = {"notes": len(taken), "tokens": _tokens(docs), "precision": p, "recall": r,
                     "seconds": round(time.perf_counter() - t0, 1)}
            points.append(point)
            self.log(f"{strategy} {point['notes']} notes: P={p:.4f} R={r:.4f} ({point['seconds']}s)")
            if on_point is not None:
                on_point(points)
        return points


def target(result: dict) -> dict | None:
    """Whether uncertainty ordering reaches the all-notes recall with at most half the pool."""
    ref, curve = result.get("all"), result["strategies"].get("uncertainty")
    if not ref or not curve:
        return None
    half = ref["notes"] / 2
    first = next((pt["notes"] for pt in curve if pt["notes"] and pt["recall"] >= ref["recall"]), None)
    return {"recall_all": ref["recall"], "half_pool_notes": half, "uncertainty_notes_to_reach": first,
            "met": first is not None and first <= half}


def plot(result: dict, path) -> None:
    """Both recall curves (and precision, dashed) against annotated notes, in one PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    colours = {"uncertainty": "tab:red", "random": "tab:blue"}
    for name, pts in result["strategies"].items():
        xs = [p["notes"] for p in pts]
        c = colours.get(name)
        ax.plot(xs, [p["recall"] for p in pts], marker="o", ms=3, color=c, label=f"{name}: recall")
        ax.plot(xs, [p["precision"] for p in pts], ls="--", lw=1, color=c, label=f"{name}: precision")
    ref = result.get("all")
    if ref:
        ax.axhline(ref["recall"], color="gray", lw=1, ls=":", label=f"all {ref['notes']} notes: recall")
        ax.axvline(ref["notes"] / 2, color="gray", lw=0.8, ls="-.", label="half of the pool")
    ax.set_xlabel("notes annotated")
    ax.set_ylabel("binary token score (held-out patients)")
    ax.set_title("Active learning replay: " + result.get("corpus_name", ""))
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
