"""A model (or a recognizer) scored zero-shot on an annotated corpus: a threshold sweep.

    python bench/zero_shot.py --model crfdeid/_data/default-model \
        --corpus physionet:../shared/corpora/physionet-dev \
        --exclude-groups configs/splits/physionet-locked.txt --json /tmp/zs.json

Tags every note once per O threshold (``none`` = Viterbi; ``default`` = the model's
configured decoding) with ``Model.tag_many`` (the code path of ``python -m crfdeid tag``)
and scores with :func:`crfdeid.scoring.evaluate`: binary token precision and recall, per
parent category the share of its gold tokens inside any predicted span (``covered``), and
the false-positive tokens by predicted subtype (tokens of predicted spans that overlap no
gold span), and the tagging speed (tokens per wall second and per CPU second of this
process: on a loaded machine the second is the steadier). ``--recognizer NAME`` scores a
committee member alone instead of a model (``rules.v1``, ``lexicon.v1``, ``presidio.v1``...).
Prints counts and figures only, never note text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.document import Document  # noqa: E402
from crfdeid.io import read  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402
from crfdeid.scoring import evaluate  # noqa: E402
from crfdeid.text.tokenize import tokenize  # noqa: E402


def _fp_by_subtype(gold, pred) -> dict:
    """False-positive tokens by predicted subtype: tokens of predicted spans overlapping no gold span."""
    out: Counter = Counter()
    for g, p in zip(gold, pred):
        for sp in p.spans:
            if not any(sp.overlaps(x) for x in g.spans):
                out[sp.subtype] += len(tokenize(g.text[sp.start:sp.end]))
    return dict(out.most_common())


def _covered(gold, pred) -> dict:
    """Per parent category: the share of its gold tokens inside any predicted span (its binary token recall)."""
    out = {}
    for cat in sorted({sp.category for d in gold for sp in d.spans}):
        only = [d.with_spans([sp for sp in d.spans if sp.category == cat]) for d in gold]
        out[cat] = round(evaluate(only, pred).micro["binary_token"].recall, 4)
    return out


def _figures(gold, pred) -> dict:
    s = evaluate(gold, pred).micro["binary_token"]
    return {"precision": round(s.precision, 4), "recall": round(s.recall, 4), "f1": round(s.f1, 4),
            "tp": s.tp, "fp": s.fp, "fn": s.fn, "covered": _covered(gold, pred),
            "fp_by_subtype": _fp_by_subtype(gold, pred)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = p.add_mutually_exclusive_group()
    what.add_argument("--model", help="model file (default: the shipped model)")
    what.add_argument("--recognizer", help="a registered recognizer name, scored alone")
    p.add_argument("--corpus", default="physionet:../shared/corpora/physionet-dev", help="FORMAT:PATH")
    p.add_argument("--exclude-groups", help="leave out these groups (patients), e.g. the locked test")
    p.add_argument("--only-groups", help="keep only these groups (patients)")
    p.add_argument("--options", default="{}",
                   help="recognizer options as JSON (e.g. '{\"pipeline\": \"DIR\"}')")
    p.add_argument("--max-docs", type=int, help="only the first N notes (after the group filters)")
    p.add_argument("--o-thresholds", default="default,none,0.5,0.9,0.95,0.98,0.99",
                   help="comma-separated: default (configured), none (Viterbi) or P(O) thresholds")
    p.add_argument("--o-words-lists", help="comma-separated gazetteer lists whose words the threshold "
                   "leaves alone too (an experiment on the model's o_words, decoding.o_words_lists)")
    p.add_argument("--o-words-except", help="comma-separated gazetteer lists whose words the threshold "
                   "leaves to it after all (decoding.o_words_except: names and places)")
    p.add_argument("--site-table", action="append", default=[],
                   help="what the site knows (docs/site.md), given to every note, e.g. "
                        "../shared/corpora/physionet-dev/pid_patientname.txt")
    p.add_argument("--json", help="write the figures as JSON here")
    args = p.parse_args(argv)
    docs = list(read(args.corpus))
    if args.exclude_groups:
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    if args.only_groups:
        docs = select_groups(docs, read_groups(args.only_groups), keep=True)
    if args.max_docs is not None:
        docs = docs[:args.max_docs]
    blank = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in docs]
    tokens = sum(len(tokenize(d.text)) for d in docs)
    result = {"corpus": args.corpus, "documents": len(docs), "tokens": tokens,
              "load": os.getloadavg(), "runs": {}}
    if args.recognizer:
        from crfdeid.recognizers import build_recognizer
        rec = build_recognizer({"name": args.recognizer, **json.loads(args.options)})
        rec.prepare()
        t0, c0 = time.perf_counter(), time.process_time()
        pred = [d.with_spans(rec.spans(d.text)) for d in blank]
        sec, cpu = time.perf_counter() - t0, time.process_time() - c0
        result["runs"][args.recognizer] = dict(_figures(docs, pred), seconds=round(sec, 2), cpu_seconds=round(cpu, 2),
                                               tokens_per_s=round(tokens / sec), tokens_per_cpu_s=round(tokens / cpu))
    else:
        from crfdeid.crf.model import Model
        model = Model.load(args.model)
        from crfdeid.site import Site
        options = {"site": Site.from_files(args.site_table)} if args.site_table else None
        if args.o_words_lists or args.o_words_except:
            from crfdeid.tagging.decoding import plain_words
            split = lambda names: names.split(",") if names else None  # noqa: E731
            model.o_words = frozenset(plain_words(model.o_words, split(args.o_words_lists),
                                                  split(args.o_words_except)))
        for t in args.o_thresholds.split(","):
            thr = ... if t == "default" else None if t == "none" else float(t)
            t0, c0 = time.perf_counter(), time.process_time()
            pred = list(model.tag_many(blank, o_threshold=thr, options=options))
            sec, cpu = time.perf_counter() - t0, time.process_time() - c0
            result["runs"][t] = dict(_figures(docs, pred), seconds=round(sec, 2), cpu_seconds=round(cpu, 2),
                                     tokens_per_s=round(tokens / sec), tokens_per_cpu_s=round(tokens / cpu))
    for name, fig in result["runs"].items():
        top = ", ".join(f"{k} {v}" for k, v in list(fig["fp_by_subtype"].items())[:6])
        covered = ", ".join(f"{k} {v:.3f}" for k, v in fig["covered"].items())
        print(f"{name:>10}  P {fig['precision']:.3f}  R {fig['recall']:.3f}  F1 {fig['f1']:.3f}  "
              f"tp {fig['tp']} fp {fig['fp']} fn {fig['fn']}  {fig['tokens_per_s']} tok/s wall, "
              f"{fig['tokens_per_cpu_s']} per CPU s  covered: {covered}  FP: {top}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
