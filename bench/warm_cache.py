"""Tagging cost of new notes with cold and with warm per-type caches (a long stream's steady state).

    python bench/warm_cache.py --model build/physionet.model [--corpus physionet:../shared/corpora/physionet-dev]

The benchmark (``python -m crfdeid bench``) tags its corpus once after loading the model,
so it pays for every word type's and token key's first sight. A long stream of notes
mostly meets types earlier notes brought. This tags the second half of the corpus with
a freshly loaded model (cold), and again after the first half (caches warmed by other
notes, never by the measured ones), in one process, ``--repeats`` times alternating.
Prints CPU seconds (``time.process_time``) and tokens per CPU-second; no note text.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.crf.model import Model  # noqa: E402
from crfdeid.io import read  # noqa: E402
from crfdeid.text.tokenize import tokenize  # noqa: E402


def _tag(model, docs) -> float:
    t0 = time.process_time()
    for _ in model.tag_each(iter(docs)):
        pass
    return time.process_time() - t0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="model file")
    p.add_argument("--corpus", default="physionet:../shared/corpora/physionet-dev", help="FORMAT:PATH")
    p.add_argument("--repeats", type=int, default=3, help="cold/warm pairs (default 3)")
    args = p.parse_args(argv)
    docs = list(read(args.corpus))
    first, second = docs[:len(docs) // 2], docs[len(docs) // 2:]
    tokens = sum(len(tokenize(d.text)) for d in second)
    cold, warm = [], []
    for _ in range(args.repeats):
        cold.append(_tag(Model.load(args.model), second))
        model = Model.load(args.model)
        _tag(model, first)
        warm.append(_tag(model, second))
    for name, times in (("cold (model just loaded)", cold), ("warm (after the first half)", warm)):
        best = min(times)
        print(f"second half, {len(second)} notes, {tokens} tokens, {name}: best {best:.3f} CPU-s "
              f"({tokens / best:,.0f} tokens/CPU-s), median {statistics.median(times):.3f}")
    print(f"cold / warm (best): {min(cold) / min(warm):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
