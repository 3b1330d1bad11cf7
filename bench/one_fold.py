"""One fold of a patient-grouped cross-validation: train a config, score the held-out notes.

    python bench/one_fold.py --config configs/committee/physionet-multi.yaml \
        --train physionet:../shared/corpora/physionet-dev \
        --exclude-groups configs/splits/physionet-locked.txt --folds 5 --fold 0 --json /tmp/f0.json

The folds are those of ``python -m crfdeid crossval`` with the same ``--folds`` and seed
(``crfdeid.io.splits.kfold``, seed = the config's), so a fold's figures compare
with that fold's line (``per_fold``) of a full cross-validation; for configs too costly to
cross-validate whole on a shared machine (``multi.v1`` trains ``folds + 1`` CRFs per model).
Prints binary token figures per O threshold; no note text.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import train_model  # noqa: E402
from crfdeid.experiments.crossval import summarize  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.io.splits import kfold, read_groups, select_groups  # noqa: E402
from crfdeid.scoring import evaluate  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True)
    p.add_argument("--train", action="append", help="FORMAT:PATH instead of the config's train (repeatable)")
    p.add_argument("--exclude-groups", help="leave out these groups (patients), e.g. the locked test")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--fold", type=int, default=0)
    p.add_argument("--o-thresholds", default="none,0.9,0.98,0.995,0.999")
    p.add_argument("--json")
    args = p.parse_args(argv)
    cfg = load_config(args.config)
    docs = list(read_all(args.train or cfg["train"]))
    if args.exclude_groups:
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    fold = kfold(docs, args.folds, seed=cfg["seed"])[args.fold]
    train, test = [docs[i] for i in fold.train], [docs[i] for i in fold.test]
    t0 = time.perf_counter()
    model = train_model(train, cfg)
    out = {"config": args.config, "fold": args.fold, "folds": args.folds, "train_documents": len(train),
           "test_documents": len(test), "train_seconds": round(time.perf_counter() - t0, 1), "runs": {}}
    for t in ["default"] + args.o_thresholds.split(","):
        thr = ... if t == "default" else None if t == "none" else float(t)
        pred = list(model.tag_many(test, o_threshold=thr))
        out["runs"][t] = summarize(evaluate(test, pred))["binary_token"]
        s = out["runs"][t]
        print(f"{t:>8}  P {s['precision']:.4f}  R {s['recall']:.4f}  F1 {s['f1']:.4f}  fp {s['fp']} fn {s['fn']}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
