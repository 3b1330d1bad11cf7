"""Ablation runs: a base config plus named overrides, each evaluated the same way.

An ablation file (YAML) names a base config, an evaluation and the runs::

    base: ../physionet.yaml          # relative to this file, as every path in it
    evaluation:
      folds: 5                       # patient-grouped cross-validation...
      seed: 0
    # evaluation: {test: "i2b2:data/test"}   # ...or train on `train`, score on a test set
    common: {crf: {max_iterations: 50}}   # optional: merged into every run first
    runs:                            # name -> override, deep-merged into the base
      lexical: {features: features/lexical.yaml}
      full, no glued split: {tokenizer: {split_glued: false}}

Each run's config is ``crfdeid.config.load_config(base, common + override)``, so an
unknown key or component in an override is a :class:`~crfdeid.errors.ConfigError`
naming the run. Every run uses the same folds. All (run, fold) trainings go
to one pool of ``--jobs`` processes. The output folder gets ``results.md``
(table), ``results.csv``, ``results.json`` and ``results.png`` (F1 per
category and overall across runs).

Example::

    python -m crfdeid ablate configs/ablation/physionet.yaml --jobs 2 --out results/ablation
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import yaml

from .. import schema
from ..config import deep_merge, load_config, resolve_entry, resolve_paths
from ..errors import ConfigError
from ..io.labelled import as_setting, read_corpus, read_labelled, settle
from ..io.splits import WEIGHTS
from ..scoring import evaluate
from .crossval import CATEGORIES, Task, collect, fold_splits, fold_tasks, run_tasks, summarize
from .results import markdown_table, provenance, to_json, write_files

TOP_KEYS = {"base", "common", "evaluation", "runs", "description"}
EVAL_KEYS = {"folds", "seed", "by", "test"}


def load_ablation(path) -> dict:
    """Read and check an ablation file; resolve every run's config.

    Returns
    -------
    dict
        ``name``, ``base`` (path), ``evaluation`` (dict), ``description`` and
        ``runs``: ``{run name: fully resolved config}`` in file order.

    Raises
    ------
    ConfigError
        Unknown or missing keys, a bad evaluation, or a run whose override
        :func:`crfdeid.config.load_config` refuses (the message names the run).
    """

    path = Path(path)
    try:
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read ablation file: {exc}", path=path) from None
    if not isinstance(spec, dict):
        raise ConfigError("an ablation file is a mapping with keys base, evaluation, runs",
                          path=path)
    _check_keys(spec, TOP_KEYS, "ablation file", path, required={"base", "runs"})
    evaluation = spec.get("evaluation") or {"folds": 5}
    if not isinstance(evaluation, dict):
        raise ConfigError("`evaluation` must be a mapping (folds/seed/by or test)", path=path)
    _check_keys(evaluation, EVAL_KEYS, "evaluation", path)
    if ("folds" in evaluation) == ("test" in evaluation):
        raise ConfigError("`evaluation` needs exactly one of `folds: K` or `test: FORMAT:PATH`",
                          path=path)
    if evaluation.get("by", "documents") not in WEIGHTS:
        raise ConfigError(f"evaluation.by must be one of {', '.join(WEIGHTS)}", path=path)
    runs = spec["runs"]
    if not isinstance(runs, dict) or not runs:
        raise ConfigError("`runs` must be a non-empty mapping: run name -> override", path=path)
    common = spec.get("common") or {}
    if not isinstance(common, dict):
        raise ConfigError("`common` must be a mapping (an override applied to every run)",
                          path=path)
    # One rule for paths: relative to the file that names them (here, the ablation file).
    here = path.resolve().parent
    base = here / spec["base"]
    if "test" in evaluation:
        test = evaluation["test"]
        evaluation = dict(evaluation, test=resolve_entry(test if isinstance(test, dict) else str(test), here))
    resolved = {}
    for name, override in runs.items():
        if override is not None and not isinstance(override, dict):
            raise ConfigError(f"run {name!r}: the override must be a mapping", path=path)
        try:
            resolved[str(name)] = load_config(str(base), resolve_paths(deep_merge(common, override or {}), here))
        except ConfigError as exc:
            raise ConfigError(f"run {name!r}: {exc}", path=path) from None
    return {"name": path.stem, "base": str(base), "evaluation": evaluation,
            "description": spec.get("description", ""), "runs": resolved}


def _check_keys(d: dict, allowed: set, what: str, path, required=frozenset()):
    unknown = sorted(set(map(str, d)) - allowed)
    if unknown:
        raise ConfigError(f"unknown key(s) {', '.join(unknown)} in {what}; "
                          f"allowed: {', '.join(sorted(allowed))}", path=path)
    missing = sorted(set(required) - set(d))
    if missing:
        raise ConfigError(f"missing key(s) {', '.join(missing)} in {what}", path=path)


def run_ablation(ablation: dict, jobs: int = 1, progress: bool = False,
                 reader_options: dict | None = None) -> list[dict]:
    """Evaluate every run; one result dict per run (file order) with :func:`summarize` figures.

    ``reader_options`` go to every reader (an input mapping's own options win)."""
    reader_options = reader_options or {}
    import json


    ev = ablation["evaluation"]
    corpora: dict[str, tuple] = {}
    tasks: list[Task] = []
    plans: dict[str, tuple | None] = {}
    for name, config in ablation["runs"].items():
        specs = list(config.get("train") or ())
        if not specs:
            raise ConfigError(f"run {name!r} has no `train` inputs")
        key = json.dumps([specs, config["scheme"]], sort_keys=True)  # inputs may be mappings
        if key not in corpora:
            corpora[key] = read_corpus(specs, config["scheme"], **reader_options)
        docs, scheme = corpora[key]
        config["scheme"] = as_setting(scheme)  # every fold and the test set score in one scheme
        if "folds" in ev:
            splits = fold_splits(docs, int(ev["folds"]), seed=int(ev.get("seed", 0)),
                                 by=ev.get("by", "documents"))
            tasks += fold_tasks(docs, splits, config, key=(name,))
            plans[name] = (docs, splits)
        else:
            test_key = json.dumps(ev["test"], sort_keys=True)
            if test_key not in corpora:
                corpora[test_key] = (read_labelled([ev["test"]], None, **reader_options), None)
            tasks.append(Task((name,), config, docs, corpora[test_key][0]))
            plans[name] = None
    outcomes = run_tasks(tasks, jobs=jobs, progress=progress, desc="trainings")
    results = []
    for name in ablation["runs"]:
        plan = plans[name]
        if plan is not None:
            docs, splits = plan
            res = collect(docs, splits, outcomes, key=(name,),
                          scheme=schema.get(ablation["runs"][name]["scheme"]))
            figures = res["pooled"]
            seconds = sum(f["seconds"] for f in res["per_fold"])
        else:
            gold = corpora[json.dumps(ev["test"], sort_keys=True)][0]
            out = outcomes[(name,)]
            pred = [g.with_spans(s) for g, s in zip(gold, out.spans["default"])]
            (g, p), scheme = settle([gold, pred], None)  # the test set's labels as written, or i2b2
            figures = summarize(evaluate(g, p, scheme=scheme))
            seconds = round(out.seconds, 1)
        results.append({"run": name, "seconds": seconds, **figures})
    return results


def _row(r: dict, cats) -> list:
    f1 = r["category_strict_f1"]
    parent = r.get("parent_strict")  # absent from results written before it existed
    return ([r["run"]] + [f"{r[m][k]:.3f}" for m in ("binary_token", "strict")
                          for k in ("precision", "recall", "f1")]
            + [f"{parent['f1']:.3f}" if parent else ""]
            + [f"{f1[c]:.3f}" if c in f1 else "" for c in cats])


def _categories(results) -> list[str]:
    """Categories that occur in any run, in scheme order."""
    seen = {c for r in results for c in r["category_strict_f1"]}
    return [c for c in CATEGORIES if c in seen]


def _header(results) -> list[str]:
    return (["run", "bin-token P", "bin-token R", "bin-token F1", "strict P", "strict R",
             "strict F1", "parent strict F1"] + [f"{c} F1" for c in _categories(results)])


def to_markdown(results, ablation: dict) -> str:
    """The results table with a short heading saying how it was evaluated."""
    ev = ablation["evaluation"]
    how = (f"{ev['folds']}-fold patient-grouped cross-validation (seed {ev.get('seed', 0)}), "
           "pooled held-out predictions" if "folds" in ev else f"trained on `train`, tested on "
           f"`{ev['test']}`")
    cats = _categories(results)
    rows = [_row(r, cats) for r in results]
    info = ablation.get("provenance") or provenance()
    return (f"# Ablation `{ablation['name']}`\n\n{ablation.get('description') or ''}\n\n"
            f"Base config `{ablation['base']}`; {how}. Per-category columns are strict micro F1. "
            f"crfdeid {info.get('crfdeid')}, commit {info.get('commit', 'unknown')}.\n\n"
            + markdown_table(_header(results), rows) + "\n")


def to_csv(results) -> str:
    """One row per run: headline figures with full precision and per-category strict F1."""
    cats = _categories(results)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    metrics = ("binary_token", "strict", "relaxed", "token", "parent_strict")
    w.writerow(["run", "seconds"] + [f"{m}_{k}" for m in metrics for k in ("precision", "recall", "f1")]
               + [f"strict_f1_{c}" for c in cats])
    for r in results:
        w.writerow([r["run"], r["seconds"]]
                   + [round(r[m][k], 4) if m in r else "" for m in metrics
                      for k in ("precision", "recall", "f1")]
                   + [round(r["category_strict_f1"][c], 4) if c in r["category_strict_f1"]
                      else "" for c in cats])
    return buf.getvalue()


def plot(results, path, title: str = "") -> None:
    """PNG: strict F1 per category, strict micro F1 and binary token F1 across runs."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = list(range(len(results)))
    fig, ax = plt.subplots(figsize=(max(7.0, 1.1 * len(results) + 4), 4.5))
    for cat in _categories(results):
        ys = [r["category_strict_f1"].get(cat, float("nan")) for r in results]
        ax.plot(x, ys, marker="o", linewidth=1, label=f"{cat} (strict)")
    ax.plot(x, [r["strict"]["f1"] for r in results], marker="s", linewidth=2.5, color="black",
            label="overall strict micro")
    ax.plot(x, [r["binary_token"]["f1"] for r in results], marker="D", linewidth=2.5,
            color="grey", linestyle="--", label="overall binary token")
    ax.set_xticks(x, [r["run"] for r in results], rotation=25, ha="right")
    ax.set_ylabel("F1")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(title)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_results(results, ablation: dict, out) -> list[Path]:
    """Write results.md, results.csv, results.json and results.png into ``out``."""
    info = {"ablation": ablation["name"], "base": ablation["base"], "evaluation": ablation["evaluation"],
            **(ablation.get("provenance") or provenance())}
    paths = write_files(out, {"results.md": to_markdown(results, ablation), "results.csv": to_csv(results),
                              "results.json": to_json({**info, "runs": results})})
    plot(results, Path(out) / "results.png", title=f"Ablation {ablation['name']}")
    return paths + [Path(out) / "results.png"]
