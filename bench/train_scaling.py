"""How training time grows with tokens and with labels: synthetic corpora, one grid, a fit.

    python bench/train_scaling.py --json build/train_scaling.json

Each point trains :func:`crfdeid.crf.train_model` (``byo`` feature set, L-BFGS, a fixed
``--iterations`` so runs compare; CRFsuite may stop earlier on convergence, which is why
the figures are per iteration) on a made-up corpus with a given number of tokens and of
PHI label types (``k`` types are ``2k + 1`` BIO labels). Words are drawn from made-up
vocabularies, one per label, with a trigger word before each PHI, so every label is
learnable. Nothing is read from disk.

The tokens series keeps 10 label types; the labels series keeps 50,000 tokens. Each
series is fitted on log-log axes (time per iteration ~ tokens^a, ~ labels^b), and the
whole grid to ``seconds/iteration = c * tokens * bio_labels`` for the constant the
docs quote. ``uptime`` is recorded before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.crf import train_model  # noqa: E402
from crfdeid.document import Document, Span  # noqa: E402

SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "du", "ga", "zi"]


def _word(rng: random.Random, n: int = 2) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(n))


def corpus(tokens: int, labels: int, seed: int = 0) -> list[Document]:
    """Documents of about ``tokens`` tokens with PHI of ``labels`` types (one in ~8 tokens)."""
    rng = random.Random(seed)
    filler = [_word(rng, 3) for _ in range(2000)]
    vocab = {f"L{k}": [_word(rng, 2).capitalize() for _ in range(200)] for k in range(labels)}
    trigger = {f"L{k}": _word(rng, 4) for k in range(labels)}
    docs, count = [], 0
    while count < tokens:
        parts, spans, pos = [], [], 0
        for _ in range(40):  # a line of ~8 tokens, one PHI of 1-2 words after its trigger
            words = [rng.choice(filler) for _ in range(rng.randint(3, 6))]
            lab = f"L{rng.randrange(labels)}"
            phi = " ".join(rng.choice(vocab[lab]) for _ in range(rng.randint(1, 2)))
            line = " ".join(words + [trigger[lab]]) + " "
            spans.append(Span(pos + len(line), pos + len(line) + len(phi), lab, lab))
            line += phi + " .\n"
            parts.append(line)
            pos += len(line)
            count += len(line.split())
        docs.append(Document(f"d{len(docs)}", "".join(parts), spans))
    return docs


def run(tokens: int, labels: int, iterations: int, transitions: bool = True, repeat: int = 1) -> dict:
    """One point; with ``repeat`` the fastest of that many trainings (the least disturbed by
    other work on a shared machine)."""
    return min((_run(tokens, labels, iterations, transitions) for _ in range(repeat)),
               key=lambda p: p["seconds_per_iteration"])


def _run(tokens: int, labels: int, iterations: int, transitions: bool) -> dict:
    docs = corpus(tokens, labels)
    cfg = {"features": "byo", "scheme": {"labels": [f"L{k}" for k in range(labels)]},
           "crf": {"algorithm": "lbfgs", "c1": 0.05, "c2": 0.01, "max_iterations": iterations,
                   "feature.possible_transitions": transitions}}
    t0 = time.perf_counter()
    model = train_model(docs, cfg)
    s = model.stats
    its = max(1, s["iterations"])
    return {"tokens": s["tokens"], "label_types": labels, "bio_labels": 2 * labels + 1,
            "possible_transitions": transitions, "iterations": s["iterations"],
            "featurize_seconds": s["featurize_seconds"], "crfsuite_seconds": s["train_seconds"],
            "seconds_per_iteration": round(s["train_seconds"] / its, 4),
            "features": s["features"], "wall_seconds": round(time.perf_counter() - t0, 2)}


def slope(points, x: str, y: str = "seconds_per_iteration") -> float:
    """Least-squares slope of log y against log x."""
    xs = [math.log(p[x]) for p in points]
    ys = [math.log(p[y]) for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / sum((a - mx) ** 2 for a in xs)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", default="25000,50000,100000,200000", help="tokens series (10 label types)")
    p.add_argument("--labels", default="2,5,10,20,40", help="label-type series (50,000 tokens)")
    p.add_argument("--iterations", type=int, default=30, help="L-BFGS iterations per run (default 30)")
    p.add_argument("--repeat", type=int, default=1, help="trainings per point, the fastest kept (default 1)")
    p.add_argument("--json", help="write every point and the fit here")
    args = p.parse_args(argv)
    before = uptime()
    by_tokens = [run(int(t), 10, args.iterations, repeat=args.repeat) for t in args.tokens.split(",")]
    by_labels = [run(50_000, int(k), args.iterations, repeat=args.repeat) for k in args.labels.split(",")]
    largest = int(args.labels.split(",")[-1])
    no_transitions = run(50_000, largest, args.iterations, transitions=False, repeat=args.repeat)
    grid = by_tokens + by_labels
    per = [p["seconds_per_iteration"] / (p["tokens"] * p["bio_labels"]) for p in grid]
    fit = {"tokens_exponent": round(slope(by_tokens, "tokens"), 3),
           "bio_labels_exponent": round(slope(by_labels, "bio_labels"), 3),
           "seconds_per_iteration_per_million_tokens_per_bio_label": round(1e6 * sum(per) / len(per), 5),
           "range_per_million_tokens_per_bio_label": [round(1e6 * min(per), 5), round(1e6 * max(per), 5)]}
    out = {"date": time.strftime("%Y-%m-%d"), "iterations": args.iterations, "repeat": args.repeat,
           "uptime_before": before,
           "uptime_after": uptime(), "by_tokens": by_tokens, "by_labels": by_labels,
           "no_possible_transitions": no_transitions, "fit": fit}
    text = json.dumps(out, indent=2)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
