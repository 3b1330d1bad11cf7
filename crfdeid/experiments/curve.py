"""Learning curve: cross-validated figures against the number of annotated training notes.

Each point is a patient-grouped cross-validation (:mod:`crfdeid.experiments.crossval`) whose folds
train on a share of their training patients (:func:`crfdeid.experiments.crossval.fold_splits`);
the held-out notes are the same at every point, so the points differ only in how much
was annotated. With ``--o-thresholds`` each point also gives the best binary-token
recall at a precision of at least each ``--precision`` floor over the thresholds swept
(the as-configured decoding included), and the table shows how much that recall
gained per 100 training notes from the previous point: whether annotating more notes
still pays. All (share, fold) trainings go to one pool of ``--jobs`` processes. With
``--out`` the folder gets ``curve.md``, ``curve.csv``, ``curve.json`` and ``curve.png``.

Only counts and scores are printed, never note text.

Example::

    python -m crfdeid curve --config configs/physionet.yaml --folds 10 --jobs 2 \\
        --fractions 0.25,0.5,0.75,1 --o-thresholds none,0.5,0.8,0.9,0.95,0.98,0.99 \\
        --out results/curve
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from .. import schema
from .crossval import (
    best_recalls,
    collect,
    fold_splits,
    fold_tasks,
    run_tasks,
    threshold_label,
)
from .results import markdown_table, to_json, write_files


def learning_curve(docs, config: dict, fractions: Sequence[float], folds: int = 10, seed: int = 0,
                   by: str = "documents", thresholds: Sequence = (), floors: Sequence[float] = (),
                   jobs: int = 1, progress: bool = False) -> list[dict]:
    """One point per training share, in increasing order (repeated shares run once).

    Returns
    -------
    list of dict
        ``train_fraction``, ``train_documents`` and ``train_patients`` (means per fold),
        ``pooled`` and ``thresholds`` (as :func:`crfdeid.experiments.crossval.crossvalidate`) and
        ``recall_at_precision``: ``{floor: {"recall", "precision", "o_threshold"} or None}``.
    """
    docs = list(docs)
    plans, tasks = {}, []
    for fraction in sorted(set(fractions)):
        splits = fold_splits(docs, folds, seed, by, fraction)
        plans[fraction] = splits
        tasks += fold_tasks(docs, splits, config, thresholds, key=(fraction,))
    outcomes = run_tasks(tasks, jobs=jobs, progress=progress, desc="trainings")
    points = []
    for fraction, splits in plans.items():
        res = collect(docs, splits, outcomes, thresholds, key=(fraction,), scheme=schema.get(config["scheme"]))
        points.append({
            "train_fraction": fraction,
            "train_documents": sum(len(f.train) for f in splits) / len(splits),
            "train_patients": sum(len({docs[i].group for i in f.train}) for f in splits) / len(splits),
            "pooled": res["pooled"], "thresholds": res["thresholds"],
            "recall_at_precision": best_recalls(res, floors)})
    return points


def gains(points, floor: float) -> list[float | None]:
    """Recall at ``floor`` gained, in percentage points per 100 training notes, since the
    previous point of :func:`learning_curve` (``None`` for the first, or where either point
    misses the floor)."""
    out: list = [None]
    for before, after in zip(points, points[1:]):
        a, b = (p["recall_at_precision"].get(floor) for p in (before, after))
        notes = after["train_documents"] - before["train_documents"]
        out.append(1e4 * (b["recall"] - a["recall"]) / notes if a and b and notes else None)
    return out


def _floors(points) -> list[float]:
    return list(points[0]["recall_at_precision"]) if points else []


def _cell(value, fmt: str = ".3f") -> str:
    return "" if value is None else format(value, fmt)


def to_markdown(points, heading: str = "") -> str:
    """The curve as a markdown table (figures pooled over the held-out folds)."""
    floors = _floors(points)
    head = ["share", "training notes per fold", "training patients per fold", "bin-token P",
            "bin-token R", "strict F1", "parent strict F1"]
    for floor in floors:
        head += [f"R at P >= {floor:g} (threshold)", f"points per 100 notes at P >= {floor:g}"]
    rows = []
    per_floor = {floor: gains(points, floor) for floor in floors}
    for k, p in enumerate(points):
        pooled = p["pooled"]
        row = [f"{p['train_fraction']:g}", f"{p['train_documents']:,.0f}", f"{p['train_patients']:.1f}",
               f"{pooled['binary_token']['precision']:.3f}", f"{pooled['binary_token']['recall']:.3f}",
               f"{pooled['strict']['f1']:.3f}", f"{pooled['parent_strict']['f1']:.3f}"]
        for floor in floors:
            best = p["recall_at_precision"][floor]
            row += [f"{best['recall']:.3f} ({threshold_label(best['o_threshold'])})"
                    if best else "not reached", _cell(per_floor[floor][k], "+.2f")]
        rows.append(row)
    return ((heading + "\n\n" if heading else "") + "P, R and F1 as configured, pooled over the "
            "held-out folds (the same notes at every share).\n\n" + markdown_table(head, rows) + "\n")


def to_csv(points) -> str:
    """One row per point, full precision."""
    floors = _floors(points)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["train_fraction", "train_documents", "train_patients"]
               + [f"{m}_{k}" for m in ("binary_token", "strict", "parent_strict")
                  for k in ("precision", "recall", "f1")]
               + [f"recall_at_precision_{floor:g}" for floor in floors])
    for p in points:
        best = [p["recall_at_precision"][floor] for floor in floors]
        w.writerow([p["train_fraction"], round(p["train_documents"], 1), round(p["train_patients"], 1)]
                   + [round(p["pooled"][m][k], 4) for m in ("binary_token", "strict", "parent_strict")
                      for k in ("precision", "recall", "f1")]
                   + [round(b["recall"], 4) if b else "" for b in best])
    return buf.getvalue()


def plot(points, path, title: str = "") -> None:
    """PNG: recall (as configured and at each precision floor) and F1 against training notes."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [p["train_documents"] for p in points]
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    ax.plot(x, [p["pooled"]["binary_token"]["recall"] for p in points], marker="o", linewidth=2,
            color="black", label="binary token recall (as configured)")
    ax.plot(x, [p["pooled"]["binary_token"]["precision"] for p in points], marker="o", linewidth=1,
            color="grey", linestyle="--", label="binary token precision (as configured)")
    for floor in _floors(points):
        ys = [b["recall"] if b else float("nan") for b in (p["recall_at_precision"][floor] for p in points)]
        ax.plot(x, ys, marker="s", linewidth=1.5, label=f"binary token recall at precision >= {floor:g}")
    ax.plot(x, [p["pooled"]["parent_strict"]["f1"] for p in points], marker="D", linewidth=1,
            label="parent-category strict F1")
    ax.set_xlabel("training notes per fold (mean)")
    ax.set_ylabel("pooled held-out score")
    ax.grid(alpha=0.3)
    ax.set_title(title)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_curve(points, out, info: dict, heading: str = "") -> list[Path]:
    """Write curve.md, curve.csv, curve.json and curve.png into ``out``."""
    paths = write_files(out, {"curve.md": to_markdown(points, heading), "curve.csv": to_csv(points),
                              "curve.json": to_json({**info, "points": points})})
    plot(points, Path(out) / "curve.png", title=heading.lstrip("# "))
    return paths + [Path(out) / "curve.png"]
