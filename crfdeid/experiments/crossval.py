"""Patient-grouped cross-validation of a CRF configuration.

For each fold a model is trained (:func:`crfdeid.crf.train.train_model`) on the
other folds and tags the held-out one; :func:`crfdeid.scoring.evaluate` scores
every fold and the pooled held-out predictions (all folds together, which is
what the targets refer to). With ``--o-thresholds`` each held-out fold is
tagged once more per threshold of recall-oriented decoding (a token is PHI
when the marginal probability of ``O`` falls below the threshold), showing the
precision/recall trade-off.

Only document ids, counts and scores are printed, never note text.

Example::

    python -m crfdeid crossval --config configs/physionet.yaml --folds 10 \\
        --jobs 2 --o-thresholds 0.5,0.7,0.9 --json crossval.json
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import partial

from .. import schema
from ..crf import train_model
from ..document import Document
from ..io.splits import kfold, subsample
from ..progress import Progress
from ..scoring import evaluate
from .results import markdown_table

#: Figures shown in tables, as (column, metric) pairs of :mod:`crfdeid.scoring`.
HEADLINE = (("binary token", "binary_token"), ("strict", "strict"))
#: Parent categories of the i2b2 scheme (a run reports the categories of its scheme).
CATEGORIES = tuple(schema.CATEGORIES)


@dataclass
class Task:
    """One training + tagging job: train on ``train``, tag ``test`` (at each threshold)."""

    key: tuple
    config: dict
    train: list
    test: list
    thresholds: tuple = ()


@dataclass
class Outcome:
    """Predicted spans of a task's test documents, per threshold (``"default"`` = as configured)."""

    key: tuple
    spans: dict = field(default_factory=dict)
    seconds: float = 0.0


def run_task(task: Task) -> Outcome:
    """Train on the task's training documents and tag its test documents."""

    t0 = time.perf_counter()
    model = train_model(task.train, task.config, progress=False)
    out = Outcome(task.key)
    out.spans["default"] = [list(doc.spans) for doc in model.tag_many(task.test)]
    for t in task.thresholds:
        out.spans[t] = [list(model.tag(doc, o_threshold=t).spans) for doc in task.test]
    out.seconds = time.perf_counter() - t0
    return out


def run_tasks(tasks: Sequence[Task], jobs: int = 1, progress: bool = False,
              desc: str = "folds") -> dict:
    """Run tasks, in ``jobs`` worker processes when above 1; ``{key: Outcome}``."""
    bar = _bar(len(tasks), desc, progress)
    results = {}
    try:
        if jobs <= 1 or len(tasks) <= 1:
            for task in tasks:
                results[task.key] = run_task(task)
                bar.update(1)
        else:
            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
                futures = [pool.submit(run_task, task) for task in tasks]
                for fut in as_completed(futures):
                    out = fut.result()
                    results[out.key] = out
                    bar.update(1)
    finally:
        bar.close()
    return results


def _bar(total: int, desc: str, progress: bool) -> Progress:
    return Progress(desc, total, "run", progress)


def summarize(report) -> dict:
    """The headline figures of a scoring report as a flat, JSON-able dict."""
    out = {}
    for metric in ("binary_token", "strict", "relaxed", "token", "binary_strict", "parent_strict"):
        s = report.micro[metric]
        out[metric] = {"precision": s.precision, "recall": s.recall, "f1": s.f1,
                       "tp": s.tp, "fp": s.fp, "fn": s.fn}
    for key, metric in (("category_strict_f1", "strict"), ("category_parent_strict_f1", "parent_strict")):
        out[key] = {}
        for cat, block in report.by_category.items():
            s = block[metric]
            if s.tp + s.fp + s.fn:
                out[key][cat] = s.f1
    return out


def crossvalidate(docs: Sequence[Document], config: dict, folds: int = 10, seed: int = 0,
                  by: str = "documents", thresholds: Sequence[float] = (), jobs: int = 1,
                  progress: bool = False, train_fraction: float = 1.0) -> dict:
    """Cross-validate ``config`` on ``docs`` with patient-grouped folds.

    Parameters
    ----------
    docs : sequence of Document
        Annotated documents; ``doc.group`` keeps a patient in one fold.
    config : dict
        A fully resolved config (:func:`crfdeid.config.load_config`).
    folds, seed, by
        See :func:`crfdeid.io.splits.kfold`.
    thresholds : sequence of float
        ``O``-marginal thresholds to sweep on the held-out folds.
    jobs : int
        Folds trained at the same time, each in its own process.
    train_fraction : float
        Train each fold on this patient-grouped share of its training notes
        (:func:`crfdeid.io.splits.subsample`, seed ``seed + fold``): a learning
        curve on the same held-out folds. 1 (default) trains on all of them.

    Returns
    -------
    dict
        ``per_fold`` (sizes, seconds, :func:`summarize` figures), ``pooled``
        (figures), ``pooled_report`` (full :meth:`to_dict`), ``thresholds``
        (pooled figures per threshold) and ``predictions`` (held-out documents
        with predicted spans; not JSON-able, :func:`main` writes them as i2b2).
    """
    docs = list(docs)
    splits = fold_splits(docs, folds, seed, by, train_fraction)
    outcomes = run_tasks(fold_tasks(docs, splits, config, thresholds), jobs=jobs, progress=progress)
    return collect(docs, splits, outcomes, thresholds, scheme=schema.get(config["scheme"]))


def fold_splits(docs: Sequence[Document], folds: int, seed: int = 0, by: str = "documents",
                train_fraction: float = 1.0) -> list:
    """Patient-grouped folds whose training side keeps a share ``train_fraction`` of its
    patients (:func:`crfdeid.io.splits.subsample`, seed ``seed + fold``); the held-out side is
    the same for every share."""
    return [f._replace(train=subsample(docs, f.train, train_fraction, seed + f.index))
            for f in kfold(docs, folds, seed=seed, by=by)]


def fold_tasks(docs: Sequence[Document], splits, config: dict, thresholds=(), key=()) -> list[Task]:
    """One :class:`Task` per fold, keyed ``key + (fold,)``."""
    return [Task(key + (f.index,), config, [docs[i] for i in f.train], [docs[i] for i in f.test],
                 tuple(thresholds)) for f in splits]


def collect(docs: Sequence[Document], splits, outcomes: dict, thresholds=(), key=(), scheme=None) -> dict:
    """Score the outcomes of one cross-validation (``outcomes[key + (fold,)]``) in ``scheme``'s tables."""
    score = partial(evaluate, scheme=scheme)

    per_fold, gold_all = [], []
    pred_all: dict[str | float | None, list[Document]] = {t: [] for t in ("default", *thresholds)}
    for f in splits:
        out = outcomes[key + (f.index,)]
        gold = [docs[i] for i in f.test]
        preds = {t: [g.with_spans(s) for g, s in zip(gold, out.spans[t])] for t in out.spans}
        per_fold.append({"fold": f.index, "documents": len(gold),
                         "patients": len({g.group for g in gold}),
                         "train_documents": len(f.train), "seconds": round(out.seconds, 1),
                         "scores": summarize(score(gold, preds["default"]))})
        gold_all += gold
        for t in pred_all:
            pred_all[t] += preds[t]
    pooled = score(gold_all, pred_all["default"])
    return {
        "per_fold": per_fold,
        "pooled": summarize(pooled),
        "pooled_report": pooled.to_dict(),
        "thresholds": [{"o_threshold": t, **summarize(score(gold_all, pred_all[t]))}
                       for t in thresholds],
        "predictions": pred_all["default"],
    }


def recall_at_precision(sweep, floor: float, metric: str = "binary_token") -> dict | None:
    """The highest recall among ``(label, figures)`` points with precision >= ``floor``.

    Ties go to the higher precision; ``None`` when no point reaches the floor.

    >>> fig = lambda p, r: {"binary_token": {"precision": p, "recall": r}}
    >>> recall_at_precision([("a", fig(.97, .90)), (0.9, fig(.95, .94)), (0.99, fig(.90, .96))], .95)
    {'recall': 0.94, 'precision': 0.95, 'o_threshold': 0.9}
    >>> recall_at_precision([("a", fig(.90, .96))], .95) is None
    True
    """
    ok = [(f[metric]["recall"], f[metric]["precision"], label) for label, f in sweep
          if f[metric]["precision"] >= floor]
    if not ok:
        return None
    recall, precision, label = max(ok, key=lambda x: (x[0], x[1]))
    return {"recall": recall, "precision": precision, "o_threshold": label}


def best_recalls(result: dict, floors) -> dict:
    """:func:`recall_at_precision` at each floor over a result's sweep (``pooled`` as
    configured, then ``thresholds``); ``{floor: best or None}``."""
    sweep = [("as configured", result["pooled"])] + [(t["o_threshold"], t) for t in result["thresholds"]]
    return {floor: recall_at_precision(sweep, floor) for floor in floors}


def threshold_label(t) -> str:
    """How a swept threshold reads in tables (``None``: plain Viterbi)."""
    return "none (Viterbi)" if t is None else str(t)


def _prf(fig: dict) -> list[str]:
    return [f"{fig['precision']:.3f}", f"{fig['recall']:.3f}", f"{fig['f1']:.3f}"]


def render(result: dict) -> str:
    """Per-fold table, pooled figures and the threshold sweep, as markdown."""
    head = ["fold", "docs", "patients"] + [f"{name} {m}" for name, _ in HEADLINE for m in ("P", "R", "F1")]
    rows = [[f["fold"], f["documents"], f["patients"]]
            + [v for _, metric in HEADLINE for v in _prf(f["scores"][metric])]
            for f in result["per_fold"]]
    pooled = result["pooled"]
    parts = []
    if result.get("train_fraction", 1) != 1:
        mean = sum(f["train_documents"] for f in result["per_fold"]) / len(result["per_fold"])
        parts += [f"Each fold trained on a patient-grouped share {result['train_fraction']:g} of "
                  f"its training notes ({mean:.0f} notes on average).", ""]
    parts += ["Per fold (held-out documents):", "", markdown_table(head, rows), "",
             "Pooled over all held-out folds (micro):", "",
             markdown_table(["measure", "P", "R", "F1", "TP", "FP", "FN"],
                            [[m] + _prf(pooled[m]) + [pooled[m][k] for k in ("tp", "fp", "fn")]
                             for m in ("binary_token", "token", "strict", "relaxed",
                                       "binary_strict", "parent_strict")]),
             "", "Strict F1 per parent category (pooled; parent: subtypes not compared):", "",
             markdown_table([""] + list(pooled["category_strict_f1"]),
                            [[label] + [f"{pooled.get(key, {}).get(c, 0.0):.3f}" for c in pooled["category_strict_f1"]]
                             for label, key in (("strict", "category_strict_f1"),
                                                ("parent", "category_parent_strict_f1"))])]
    if result["thresholds"]:
        def sweep_row(label, fig):
            parent = fig.get("parent_strict")  # absent from results written before it existed
            return ([label] + _prf(fig["binary_token"]) + _prf(fig["strict"])
                    + [f"{parent['f1']:.3f}" if parent else ""])
        rows = [sweep_row(threshold_label(t["o_threshold"]), t) for t in result["thresholds"]]
        rows.insert(0, sweep_row("as configured", pooled))
        parts += ["", "Recall-oriented decoding (pooled): token is PHI when P(O) < threshold", "",
                  markdown_table(["o_threshold", "bin-token P", "bin-token R", "bin-token F1",
                                  "strict P", "strict R", "strict F1", "parent strict F1"], rows)]
        for floor, best in (result.get("recall_at_precision") or {}).items():
            found = (f"{best['recall']:.3f} (precision {best['precision']:.3f}, o_threshold "
                     f"{threshold_label(best['o_threshold'])})" if best else "not reached by the sweep")
            parts += ["", f"Best binary-token recall at precision >= {float(floor):g}: {found}"]
    return "\n".join(parts) + "\n"
