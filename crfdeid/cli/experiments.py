"""``python -m crfdeid experiments``: measurements a maintainer or a site reruns on annotated notes.

* ``zero-shot``: a model (the shipped one by default) or one recognizer scored on an annotated
  corpus it never trained on, over a sweep of P(O) thresholds, per category
  (:mod:`crfdeid.experiments.zeroshot`);
* ``made-up``: a model on the fifteen made-up notes shipped with crfdeid: Safe Harbor
  identifiers missed and placeholders on non-PHI (:mod:`crfdeid.experiments.madeup`).

Both print counts and figures only (``made-up --show`` prints the made-up notes' own words).

Example (the PhysioNet folder is the project's development corpus; use your own annotated notes)::

    python -m crfdeid experiments zero-shot --corpus brat:annotated/ --json zero-shot.json
    python -m crfdeid experiments made-up
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..crf import Model
from ..errors import CrfdeidError
from ..experiments import madeup, zeroshot
from ..io import read
from ..io.splits import read_groups, select_groups
from ..recognizers import build_recognizer
from ..site import Site
from ..tagging.decoding import plain_words


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m crfdeid experiments", description=__doc__.split("\n\n")[0],
                                epilog="examples:\n" + __doc__.split("Example")[1].split("::", 1)[1].strip("\n"),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="experiment", required=True)
    z = sub.add_parser("zero-shot", help="a model or recognizer on annotated notes it never saw, per category")
    what = z.add_mutually_exclusive_group()
    what.add_argument("--model", help="model file (default: the shipped model)")
    what.add_argument("--recognizer", help="a registered recognizer name, scored alone (rules.v1, lexicon.v1...)")
    z.add_argument("--corpus", required=True, metavar="FORMAT:PATH", help="annotated notes")
    z.add_argument("--exclude-groups", metavar="FILE", help="leave out these patients (e.g. the locked test)")
    z.add_argument("--only-groups", metavar="FILE", help="keep only these patients")
    z.add_argument("--options", default="{}", help="recognizer options as JSON")
    z.add_argument("--max-docs", type=int, help="only the first N notes (after the group filters)")
    z.add_argument("--o-thresholds", default="default,none,0.5,0.9,0.95,0.98,0.99",
                   help="comma-separated: default (configured), none (Viterbi) or P(O) thresholds")
    z.add_argument("--o-words-lists", help="comma-separated word lists the threshold leaves alone too")
    z.add_argument("--o-words-except", help="comma-separated word lists left to the threshold after all")
    z.add_argument("--site-table", action="append", default=[], metavar="FILE",
                   help="what the site knows (docs/site.md), given to every note")
    z.add_argument("--json", metavar="OUT", help="write the figures as JSON here")
    m = sub.add_parser("made-up", help="the shipped made-up notes: Safe Harbor misses, false placeholders")
    m.add_argument("--model", help="model file (default: the shipped model)")
    m.add_argument("--o-threshold", type=float, help="P(O) threshold instead of the configured decoding")
    m.add_argument("--show", action="store_true", help="print the made-up surfaces of misses and false spans")
    m.add_argument("--json", metavar="OUT", help="write the counts as JSON here")
    return p


def _zero_shot(args) -> int:
    docs = list(read(args.corpus))
    if args.exclude_groups:
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    if args.only_groups:
        docs = select_groups(docs, read_groups(args.only_groups), keep=True)
    if args.max_docs is not None:
        docs = docs[:args.max_docs]
    if args.recognizer:
        rec = build_recognizer({"name": args.recognizer, **json.loads(args.options)})
        rec.prepare()
        result = zeroshot.run(docs, recognizer=(args.recognizer, rec))
    else:
        model = Model.load(args.model)
        if args.o_words_lists or args.o_words_except:
            split = lambda names: names.split(",") if names else None  # noqa: E731
            model.o_words = frozenset(plain_words(model.o_words, split(args.o_words_lists),
                                                  split(args.o_words_except)))
        options = {"site": Site.from_files(args.site_table)} if args.site_table else None
        result = zeroshot.run(docs, model=model, thresholds=args.o_thresholds.split(","), options=options)
    result["corpus"] = args.corpus
    for name, fig in result["runs"].items():
        print(zeroshot.summary(name, fig))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


def _made_up(args) -> int:
    gold = madeup.read_notes()
    model = Model.load(args.model)
    thr = ... if args.o_threshold is None else args.o_threshold
    res = madeup.score(gold, list(model.tag_many([d.with_spans([]) for d in gold], o_threshold=thr)))
    for name, r in res["notes"].items():
        line = (f"{name:14s} missed {len(r['missed']):2d} (Safe Harbor {r['missed_safe_harbor']})  "
                f"false spans {len(r['false']):2d}")
        print(line + (f"  missed={r['missed']} false={r['false']}" if args.show else ""))
    print(f"{len(gold)} notes, {res['gold_tokens']} gold PHI tokens: missed {res['missed']} "
          f"(Safe Harbor identifiers {res['missed_safe_harbor']}), false spans (placeholders on non-PHI) "
          f"{res['false_spans']}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1), encoding="utf-8")
    return 0


def main(argv=None) -> int:
    """Run ``python -m crfdeid experiments``; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return _zero_shot(args) if args.experiment == "zero-shot" else _made_up(args)
    except (CrfdeidError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
