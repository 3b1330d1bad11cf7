"""Two models and a union in development CV: a model's spans plus a context model's names and places.

    python bench/union_cv.py --config configs/physionet.yaml --context-config CONTEXT.yaml \\
        --train physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --folds 5 --jobs 2 \\
        --cache /tmp/folds-base --context-cache /tmp/folds-context \\
        --stress unknown=i2b2:/tmp/stress-unknown --stress ambiguous=i2b2:/tmp/stress-ambiguous \\
        --context-thresholds none,0.5,0.9 --out /tmp/union

Each patient-grouped fold has two models trained on the same training notes (reused from
the caches of ``bench/dev_cv.py``): the base model (``--config``) and a context model
(``--context-config``, e.g. ``features: full_oov`` with ``training: {unknown_share: 1.0,
unknown_mode: add}``, docs/stress.md). The union keeps every span of the base model as
configured and adds the context model's spans of ``--categories`` (NAME and LOCATION) that
overlap none of them, the context model tagging at each ``--context-thresholds`` value
(``none``: Viterbi). With ``--weights``, the
fold's two CRFs also vote together: one model whose companion has that weight in the averaged
marginals its decoding reads (``companion.weight``), at each ``--mean-thresholds`` value. Scored
pooled over the held-out folds on the real notes and on each
stress copy: binary token P/R, gold tokens missed, PHI fully removed, NAME / LOCATION
covered. Aggregate figures only; writes union.json and union.md to ``--out``.

The ``chain`` rows are what a user gets from one model file: the fold's base model with the
context model as its companion CRF (config ``companion``, as ``train_model`` writes it from the
same two trainings) and ``context_union.v1`` first in its post-CRF chain, so that the
companion's spans go through the same filters, rules and Safe Harbor layer as the base CRF's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dev_cv import fold_models  # noqa: E402

from crfdeid import cli  # noqa: E402
from crfdeid.cli.locked import parse_also  # noqa: E402
from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import Model  # noqa: E402
from crfdeid.experiments.crossval import fold_splits  # noqa: E402
from crfdeid.experiments.locked import figures  # noqa: E402
from crfdeid.experiments.results import markdown_table, provenance, to_json, write_files  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402
from crfdeid.recognizers.chain import legacy_entries  # noqa: E402


def union(base_doc, extra_doc, categories) -> object:
    """``base_doc`` with the spans of ``extra_doc`` in ``categories`` that overlap none of its own."""
    add = [sp for sp in extra_doc.spans if sp.category in categories
           and not any(sp.overlaps(b) for b in base_doc.spans)]
    return base_doc.with_spans(list(base_doc.spans) + add)


def joined(base, ctx, overrides: dict, weight: float = 0.0) -> Model:
    """One model of ``base`` with ``ctx`` as its companion CRF (``weight``: its vote in the decoding),
    the base's config with ``overrides``, as ``train_model`` would write the two trainings."""
    companion = {**{k: ctx.config[k] for k in ("features", "training", "crf")}, "weight": weight}
    cfg = load_config({**base.config, **overrides, "companion": companion})
    manifest = {**base.manifest, "companion": {"labels": ctx.labels, "o_words": sorted(ctx.o_words),
                                               "training": ctx.manifest["training"]}}
    return Model(base._crf, cfg, manifest, companion=ctx._crf, prior=base._prior_crf)


def with_companion(base, ctx, threshold, categories) -> Model:
    """``base`` with ``ctx`` as its companion CRF and ``context_union.v1`` (at ``threshold``) first in its chain."""
    entries = legacy_entries(base.config["rules"])
    entries.insert(0, {"name": "context_union.v1", "categories": sorted(categories), "o_threshold": threshold})
    return joined(base, ctx, {"rules": {**base.config["rules"], "enabled": False}, "postprocess": entries})


def averaged(base, ctx, weight) -> Model:
    """``base`` with ``ctx`` as its companion CRF voting with ``weight`` in the decoding (the
    averaged marginals of :class:`crfdeid.tagging.decoding.AveragedBackend`), the base's own chain."""
    return joined(base, ctx, {}, weight)


def slim(gold, pred) -> dict:
    f = figures(gold, pred)
    b = f["binary_token"]
    return {"precision": b["precision"], "recall": b["recall"], "fn": b["fn"], "fp": b["fp"],
            "fully_removed": f["leak"]["fully_removed"],
            "covered": {c: v["covered"] for c, v in f["categories"].items()}}


def table(res: dict, splits, notes: int, folds: int, note: str) -> str:
    """The markdown of ``res["rows"]`` (each a :func:`slim` with its copy and system), under one line
    naming the held-out folds, the commit and ``note``."""
    f3 = "{:.3f}".format
    rows = [[r["copy"], r["system"], f3(r["precision"]), f3(r["recall"]), r["fn"], r["fp"],
             f3(r["fully_removed"]), f3(r["covered"].get("NAME", 0)), f3(r["covered"].get("LOCATION", 0))]
            for r in res["rows"]]
    held = sum(len(f.test) for f in splits)
    return (f"{held} held-out notes of {notes} (folds {', '.join(str(f.index) for f in splits)} of "
            f"{folds}), commit {res.get('commit')}; {note}\n\n"
            + markdown_table(["copy", "system", "bin-token P", "bin-token R", "missed", "false tokens",
                              "PHI fully removed", "NAME covered", "LOCATION covered"], rows) + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True)
    p.add_argument("--context-config", required=True)
    p.add_argument("--train", action="append", metavar="FORMAT:PATH")
    p.add_argument("--exclude-groups", metavar="FILE")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only-folds", metavar="I,J", help="score only these folds (e.g. 0,1 while the others train)")
    p.add_argument("--categories", default="NAME,LOCATION")
    p.add_argument("--context-thresholds", type=cli.parse_thresholds, default=(None,))
    p.add_argument("--weights", type=lambda v: [float(x) for x in v.split(",")], default=[],
                   help="also the two CRFs' marginals averaged, the companion with each weight (e.g. 0.5)")
    p.add_argument("--mean-thresholds", type=cli.parse_thresholds, default=(0.99,),
                   help="the O thresholds of the averaged decoding (default 0.99)")
    p.add_argument("--stress", type=parse_also, action="append", default=[], metavar="NAME=FORMAT:PATH")
    p.add_argument("--cache", required=True)
    p.add_argument("--context-cache", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    config, context = load_config(args.config), load_config(args.context_config)
    docs = read_all(args.train or config["train"])
    if args.exclude_groups:
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    splits = fold_splits(docs, args.folds, config["seed"])
    if args.only_folds:
        splits = [f for f in splits if f.index in {int(i) for i in args.only_folds.split(",")}]
    bases = fold_models(docs, config, splits, Path(args.cache), args.jobs)
    contexts = fold_models(docs, context, splits, Path(args.context_cache), args.jobs)
    cats = frozenset(c.strip().upper() for c in args.categories.split(","))
    copies = {"real": None} | {name: {d.doc_id: d for d in read_all([spec])} for name, spec in args.stress}
    res: dict = {**provenance(), "config": args.config, "context_config": args.context_config,
                 "categories": sorted(cats), "rows": []}
    for copy, by_id in copies.items():
        tests = [[docs[i] if by_id is None else by_id[docs[i].doc_id] for i in f.test] for f in splits]
        gold = [d for t in tests for d in t]
        base = [d for m, t in zip(bases, tests) for d in m.tag_many(t)]
        ctx_conf = [d for m, t in zip(contexts, tests) for d in m.tag_many(t)]
        res["rows"].append({"copy": copy, "system": "base", **slim(gold, base)})
        res["rows"].append({"copy": copy, "system": "context model alone", **slim(gold, ctx_conf)})
        for t in args.context_thresholds:
            ctx = [d for m, tt in zip(contexts, tests) for d in m.tag_many(tt, o_threshold=t)]
            pred = [union(b, c, cats) for b, c in zip(base, ctx)]
            res["rows"].append({"copy": copy, "system": f"union, context at {'Viterbi' if t is None else t}",
                                **slim(gold, pred)})
        for t in args.context_thresholds:
            models = [with_companion(b, c, t, cats) for b, c in zip(bases, contexts)]
            pred = [d for m, tt in zip(models, tests) for d in m.tag_many(tt)]
            res["rows"].append({"copy": copy, "system": f"chain: context_union.v1 at {'Viterbi' if t is None else t}",
                                **slim(gold, pred)})
        for w in args.weights:
            models = [averaged(b, c, w) for b, c in zip(bases, contexts)]
            for t in args.mean_thresholds:
                pred = [d for m, tt in zip(models, tests) for d in m.tag_many(tt, o_threshold=t)]
                res["rows"].append({"copy": copy, "system": f"averaged, companion weight {w}, "
                                    f"{'Viterbi' if t is None else f'P(O) < {t}'}", **slim(gold, pred)})
    res["seconds"] = round(time.perf_counter() - t0, 1)
    text = table(res, splits, len(docs), args.folds, f"union adds the context model's {', '.join(sorted(cats))} "
                 "spans that overlap no base span")
    sys.stdout.write(text)
    write_files(args.out, {"union.md": text, "union.json": to_json(res)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
