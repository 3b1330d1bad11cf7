"""Base against adapted model (``crfdeid adapt``), the unlabeled pool being the notes scored (text only).

    # the PhysioNet model in patient-grouped CV: each fold's model (trained on the other
    # folds; reused from dev_cv's --cache) adapted to the held-out fold's text, then scored on it
    python bench/adapt_cv.py --config configs/physionet.yaml \\
        --train physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --folds 5 --jobs 2 \\
        --cache /tmp/folds-base --out /tmp/adapt-physionet
    # a fixed model (the shipped default, zero-shot): adapted once to the text of every
    # development note (its source: the config's train inputs, synthetic notes), scored on them
    python bench/adapt_cv.py --model crfdeid/_data/default-model \\
        --train physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --cache /tmp/adapt-default \\
        --out /tmp/adapt-default

The gold annotations of the pool are never given to ``adapt`` (its notes are copied
without spans). Both models are scored as configured (the model's O threshold, rules on)
and with Viterbi: binary token P/R, gold tokens missed, PHI fully removed, and per category
the share of gold tokens covered. Prints aggregate figures only (no note text); writes
adapt_cv.json and adapt_cv.md to ``--out``.
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
from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import Model  # noqa: E402
from crfdeid.crf.adapt import AdaptSettings, adapt  # noqa: E402
from crfdeid.document import Document  # noqa: E402
from crfdeid.experiments.crossval import fold_splits  # noqa: E402
from crfdeid.experiments.locked import figures  # noqa: E402
from crfdeid.experiments.results import markdown_table, provenance, to_json, write_files  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402

DECODINGS = {"as configured": ..., "Viterbi": None}


def text_only(docs) -> list[Document]:
    """The pool ``adapt`` sees: id, text and meta (the patient), no spans."""
    return [Document(d.doc_id, d.text, [], dict(d.meta)) for d in docs]


def settings_key(s: AdaptSettings) -> str:
    return f"o{s.o_min}-p{s.phi_min}-c{int(s.consistency)}-n{s.max_notes}-s{s.seed}"


def adapted_model(base: Model, pool, source, settings, path: Path) -> tuple[Model, dict]:
    """``base`` adapted to ``pool`` (reused from ``path`` when present) and its ``adapted`` record."""
    if not path.exists():
        adapt(base, text_only(pool), source, settings).save(path)
    model = Model.load(path)
    return model, model.manifest["adapted"]


def score(models_and_tests, thresholds=()) -> dict:
    """Pooled figures of each decoding (and O threshold): ``[(model, test docs), ...]`` tagged and scored together."""
    out = {}
    decodings = dict(DECODINGS, **{f"P(O) < {t}": t for t in thresholds if t is not None})
    for name, t in decodings.items():
        gold, pred = [], []
        for model, test in models_and_tests:
            gold += test
            pred += list(model.tag_many(test, o_threshold=t))
        f = figures(gold, pred)
        out[name] = {"binary_token": f["binary_token"], "leak": f["leak"],
                     "parent_strict_f1": f["parent_strict"]["f1"],
                     "covered": {c: v["covered"] for c, v in f["categories"].items()}}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", help="config of the fold models (patient-grouped CV)")
    p.add_argument("--model", help="a fixed model instead (adapted once to every scored note)")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH", help="the annotated notes scored")
    p.add_argument("--source", action="append", metavar="FORMAT:PATH",
                   help="with --model: its annotated source documents (default: its config's train inputs)")
    p.add_argument("--exclude-groups", metavar="FILE")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--seed", type=int)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only-folds", metavar="I,J", help="score only these folds (e.g. 0,1 while the others train)")
    p.add_argument("--o-thresholds", type=cli.parse_thresholds, default=(),
                   help="also score both models at these O thresholds, e.g. 0.95,0.98,0.995")
    p.add_argument("--o-min", type=float, default=AdaptSettings.o_min)
    p.add_argument("--phi-min", type=float, default=AdaptSettings.phi_min)
    p.add_argument("--no-consistency", action="store_true")
    p.add_argument("--max-notes", type=int, default=AdaptSettings.max_notes)
    p.add_argument("--cache", required=True, help="folder of the base fold models (dev_cv's) and adapted ones")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    if bool(args.config) == bool(args.model):
        p.error("give --config (CV of fold models) or --model (a fixed model)")
    t0 = time.perf_counter()
    settings = AdaptSettings(o_min=args.o_min, phi_min=args.phi_min, consistency=not args.no_consistency,
                             max_notes=args.max_notes)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    res: dict = {**provenance(), "settings": settings.__dict__, "adapted": []}
    if args.config:
        config = load_config(args.config)
        docs = read_all(args.train or config["train"])
        if args.exclude_groups:
            docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
        seed = args.seed if args.seed is not None else config["seed"]
        splits = fold_splits(docs, args.folds, seed)
        if args.only_folds:
            splits = [f for f in splits if f.index in {int(i) for i in args.only_folds.split(",")}]
        bases = fold_models(docs, config, splits, cache, args.jobs)
        pairs_base, pairs_adapted = [], []
        for f, base in zip(splits, bases):
            test = [docs[i] for i in f.test]
            model, record = adapted_model(base, test, [docs[i] for i in f.train], settings,
                                          cache / f"fold{f.index}.adapted-{settings_key(settings)}.model")
            res["adapted"].append(record)
            pairs_base.append((base, test))
            pairs_adapted.append((model, test))
        scored = [docs[i] for f in splits for i in f.test]
        res.update(what=f"config {args.config}, folds {', '.join(str(f.index) for f in splits)} of {args.folds} "
                        f"patient-grouped folds (seed {seed}), held-out notes",
                   documents=len(scored), patients=len({d.group for d in scored}))
    else:
        base = Model.load(args.model)
        docs = read_all(args.train)
        if args.exclude_groups:
            docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
        source = read_all(args.source) if args.source else None
        model, record = adapted_model(base, docs, source, settings,
                                      cache / f"adapted-{settings_key(settings)}.model")
        res["adapted"].append(record)
        pairs_base, pairs_adapted = [(base, docs)], [(model, docs)]
        res.update(what=f"model {args.model}, adapted once to the text of all scored notes",
                   documents=len(docs), patients=len({d.group for d in docs}))
    res["base"] = score(pairs_base, args.o_thresholds)
    res["adapted_scores"] = score(pairs_adapted, args.o_thresholds)
    res["seconds"] = round(time.perf_counter() - t0, 1)
    text = render(res)
    sys.stdout.write(text)
    write_files(args.out, {"adapt_cv.md": text, "adapt_cv.json": to_json(res)})
    return 0


def render(res: dict) -> str:
    f3 = "{:.3f}".format
    cats = sorted({c for s in ("base", "adapted_scores") for d in res[s].values() for c in d["covered"]})
    rows = []
    for label, key in (("base", "base"), ("adapted", "adapted_scores")):
        for dec, f in res[key].items():
            b = f["binary_token"]
            rows.append([label, dec, f3(b["precision"]), f3(b["recall"]), b["fn"], b["fp"],
                         f3(f["leak"]["fully_removed"]), f3(f["parent_strict_f1"])]
                        + [f3(f["covered"][c]) if c in f["covered"] else "" for c in cats])
    kept = [a["unlabeled"] for a in res["adapted"]]
    spans = sum(sum(a["pseudo_spans"].values()) for a in res["adapted"])
    s = res["settings"]
    lines = [f"{res['what']}: {res['documents']} notes, {res['patients']} patients, commit {res.get('commit')}",
             f"adapt settings: o_min {s['o_min']}, phi_min {s['phi_min']}, consistency {s['consistency']}, "
             f"max_notes {s['max_notes']}; pseudo-labelled: {sum(k.get('segments_kept', 0) for k in kept)} of "
             f"{sum(k.get('segments', 0) for k in kept)} segments, {spans} PHI spans, "
             f"{sum(k.get('consistency_tokens', 0) for k in kept)} tokens by consistency", "",
             markdown_table(["model", "decoding", "bin-token P", "bin-token R", "missed gold tokens",
                             "false tokens", "PHI fully removed", "parent strict F1"]
                            + [f"{c} covered" for c in cats], rows)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
