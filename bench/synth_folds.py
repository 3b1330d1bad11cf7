"""Fold models of a config trained on each fold's notes plus synthetic ones (issue 34, item 1: the
other way to carry the shipped model's knowledge), for ``bench/prior_cv.py --cache``.

    python bench/synth_folds.py --config configs/physionet.yaml --train physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --folds 5 --jobs 2 --synth synth:400,13,mix \\
        --cache build/folds-synth

The same patient-grouped folds as ``bench/dev_cv.py`` (the config's seed); each fold's model is
trained on its training notes and the ``--synth`` notes (the generator of the shipped model's
corpus, ``configs/default.yaml``), the prior off, and saved as ``fold{i}.model`` in ``--cache``.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dev_cv import dev_docs  # noqa: E402

from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import train_model  # noqa: E402
from crfdeid.experiments.crossval import fold_splits  # noqa: E402
from crfdeid.io import read  # noqa: E402


def _train(job) -> None:
    docs, config, path = job
    train_model(docs, config).save(path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True)
    p.add_argument("--train", action="append", metavar="FORMAT:PATH")
    p.add_argument("--exclude-groups", metavar="FILE")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--synth", default="synth:400,13,mix")
    p.add_argument("--cache", required=True)
    args = p.parse_args(argv)
    config = load_config(args.config)
    config["prior"] = None
    docs = dev_docs(args.train, config, args.exclude_groups)
    synth = list(read(args.synth))
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    jobs = [([docs[i] for i in f.train] + synth, config, cache / f"fold{f.index}.model")
            for f in fold_splits(docs, args.folds, config["seed"]) if not (cache / f"fold{f.index}.model").exists()]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(_train, jobs))
    print(f"{len(jobs)} fold models trained in {cache}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
