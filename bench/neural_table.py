"""CRF / Elman / Jordan / BiLSTM-CRF on one train/test split: scores, training time, tagging speed.

    python bench/neural_table.py --config configs/physionet.yaml \\
        --train physionet:../shared/corpora/physionet-dev \\
        --test-groups configs/splits/physionet-locked.txt \\
        --set rules.enabled=false --set decoding.o_threshold=null --neural-set neural.epochs=8 \\
        --json build/neural-locked.json

Trains each model (the config with ``model`` set to it; ``--neural-set`` overrides only
the networks) on the training side of the split, tags the test side once as configured
(timed: tokens per second of ``Model.tag_many``, wall and CPU), then once per
``--o-thresholds`` value, and scores with :mod:`crfdeid.scoring`: strict, relaxed and
token micro-F1, and the best binary-token recall at precision >= each ``--precision``
floor over the sweep. The split is the patients listed in ``--test-groups`` (a locked
test) or a patient-grouped ``--test-size`` share (seeded). Prints a markdown table;
``uptime`` load averages are recorded before and after each model (the machine is shared).
Only counts and scores are printed, never note text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid import cli  # noqa: E402
from crfdeid.cli.train import parse_overrides  # noqa: E402
from crfdeid.config import deep_merge, load_config  # noqa: E402
from crfdeid.experiments.crossval import recall_at_precision, summarize  # noqa: E402
from crfdeid.experiments.results import markdown_table  # noqa: E402
from crfdeid.io.splits import read_groups, train_test_split  # noqa: E402

MODELS = ("crf", "elman", "jordan", "bilstm-crf")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def split(docs, args):
    if args.test_groups:
        groups = read_groups(args.test_groups)
        return [d for d in docs if d.group not in groups], [d for d in docs if d.group in groups]
    train, test = train_test_split(docs, args.test_size, seed=args.seed)
    return [docs[i] for i in train], [docs[i] for i in test]


def run_one(kind, train, test, args) -> dict:
    from crfdeid.crf import train_model
    from crfdeid.scoring import evaluate
    from crfdeid.tagging.model import tokens_for
    over = deep_merge(parse_overrides(args.set), {"model": kind})
    if kind != "crf":
        over = deep_merge(over, parse_overrides(args.neural_set))
    cfg = load_config(args.config, over)
    row = {"model": kind, "load_before": load()}
    t0, c0 = time.perf_counter(), time.process_time()
    model = train_model(train, cfg)
    row["train_seconds"] = round(time.perf_counter() - t0, 1)
    row["train_cpu_seconds"] = round(time.process_time() - c0, 1)
    n_tokens = sum(len(tokens_for(d.text, cfg["tokenizer"]["split_glued"])) for d in test)
    t0, c0 = time.perf_counter(), time.process_time()
    tagged = list(model.tag_many(test))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    row.update(tag_seconds=round(wall, 2), tag_cpu_seconds=round(cpu, 2), test_tokens=n_tokens,
               tokens_per_s=round(n_tokens / wall), tokens_per_cpu_s=round(n_tokens / cpu))
    row["scores"] = summarize(evaluate(test, tagged))
    sweep = [("as configured", row["scores"])]
    row["thresholds"] = []
    for t in args.o_thresholds:
        fig = summarize(evaluate(test, [model.tag(d, o_threshold=t) for d in test]))
        row["thresholds"].append({"o_threshold": t, **fig})
        sweep.append((t, fig))
    row["recall_at_precision"] = {str(p): recall_at_precision(sweep, p) for p in args.precision}
    row["training"] = {k: v for k, v in model.stats.items() if k != "problems"}
    row["resolved_config"] = {k: cfg[k] for k in ("model", "neural", "crf", "decoding", "rules", "seed")}
    row["load_after"] = load()
    return row


def table(rows, floors) -> str:
    head = ["model", "strict F1", "relaxed F1", "token F1", "binary token P / R"]
    head += [f"bin. token R at P>={p:g}" for p in floors]
    head += ["train s (CPU s)", "tag tokens/s (per CPU s)"]
    out = []
    for r in rows:
        s = r["scores"]
        cells = [r["model"], f"{s['strict']['f1']:.3f}", f"{s['relaxed']['f1']:.3f}",
                 f"{s['token']['f1']:.3f}",
                 f"{s['binary_token']['precision']:.3f} / {s['binary_token']['recall']:.3f}"]
        for p in floors:
            best = r["recall_at_precision"][str(p)]
            cells.append(f"{best['recall']:.3f} ({best['o_threshold']})" if best else "not reached")
        cells += [f"{r['train_seconds']:.0f} ({r['train_cpu_seconds']:.0f})",
                  f"{r['tokens_per_s']:,} ({r['tokens_per_cpu_s']:,})"]
        out.append(cells)
    return markdown_table(head, out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True)
    p.add_argument("--train", action="append", required=True, metavar="FORMAT:PATH")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--test-groups", metavar="FILE", help="test on these patients, train on the others")
    g.add_argument("--test-size", type=float, help="patient-grouped test share (seeded)")
    p.add_argument("--seed", type=int, default=0, help="seed of the --test-size split")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="every model")
    p.add_argument("--neural-set", action="append", default=[], metavar="KEY=VALUE", help="networks only")
    p.add_argument("--o-thresholds", type=cli.parse_thresholds,
                   default=cli.parse_thresholds("none,0.5,0.8,0.9,0.95,0.98,0.99,0.995"))
    p.add_argument("--precision", type=cli.parse_floors, default=(0.95, 0.9))
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    from crfdeid.io import read_all
    train, test = split(read_all(args.train), args)
    print(f"train: {len(train)} notes ({len({d.group for d in train})} patients); "
          f"test: {len(test)} notes ({len({d.group for d in test})} patients)", file=sys.stderr)
    rows = []
    for kind in args.models.split(","):
        rows.append(run_one(kind, train, test, args))
        print(f"{kind}: done, load {rows[-1]['load_after']}", file=sys.stderr)
        if args.json:  # after each model: a long run keeps what it measured
            Path(args.json).write_text(json.dumps({"argv": sys.argv, "train_notes": len(train),
                                                   "test_notes": len(test), "rows": rows}, indent=1))
    print(table(rows, args.precision))
    return 0


if __name__ == "__main__":
    sys.exit(main())
