"""``python -m crfdeid experiments``: measurements a maintainer or a site reruns on annotated notes.

* ``zero-shot``: a model (the shipped one by default) or one recognizer scored on an annotated
  corpus it never trained on, over a sweep of P(O) thresholds, per category
  (:mod:`crfdeid.experiments.zeroshot`);
* ``made-up``: a model on the fifteen made-up notes shipped with crfdeid: Safe Harbor
  identifiers missed and placeholders on non-PHI (:mod:`crfdeid.experiments.madeup`); with
  ``--notes dev..dev11|short|check..checkN|forms9|legacy|PATH``, a set of made-up notes
  of other countries and styles in redacted and surrogate output, site mining off and on:
  identifiers left, phrases that must survive changed, falsified (written with a made-up
  value), clinical values changed, false spans (:mod:`crfdeid.experiments.madeup_outputs`); sets
  comma-separated, and with ``--casing as-written,lower,upper`` the same notes in each casing, with the
  gold identifiers left in the tagged spans (:mod:`crfdeid.experiments.casings`);
* ``site-mining``: a model's figures with site mining off and on, per category, and the time
  of mining against one tagging pass (:mod:`crfdeid.experiments.sitemining`, docs/site.md);
* ``safeharbor``: the Safe Harbor layer's spans on annotated notes, how many overlap gold PHI,
  by form and subtype (:mod:`crfdeid.experiments.safeharbor`, docs/safeharbor.md);
* ``rule-ledger``: the post-CRF rules one at a time switched off, on made-up sets and annotated
  notes: identifiers left, phrases changed, recall per category (:mod:`crfdeid.experiments.ledger`,
  docs/rules.md);
* ``dev-cv``: development CV that trains the fold models once (cached) and re-decodes them
  cheaply: a decoding sweep, rule ablation, stress copies (:mod:`crfdeid.experiments.devcv`).

All print counts and figures only (``made-up --show`` prints the made-up notes' own words).

Example (the PhysioNet folder is the project's development corpus; use your own annotated notes)::

    python -m crfdeid experiments zero-shot --corpus brat:annotated/ --json zero-shot.json
    python -m crfdeid experiments made-up
    python -m crfdeid experiments made-up --notes dev --json made-up-dev.json
    python -m crfdeid experiments site-mining --corpus brat:annotated/ --json mining.json
    python -m crfdeid experiments safeharbor brat:annotated/
    python -m crfdeid experiments dev-cv --config icu --train brat:annotated/ --folds 5 \\
        --o-thresholds none,0.9,0.98 --rules --cache folds/ --out dev-cv/
    python -m crfdeid experiments rule-ledger --notes dev4,dev5 --corpus brat:annotated/ --json ledger.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import cli
from ..config import load_config
from ..crf import Model
from ..errors import CrfdeidError
from ..experiments import casings, devcv, fppaths, ledger, madeup, madeup_outputs, safeharbor, sitemining, zeroshot
from ..experiments.results import to_json, write_files
from ..io import read
from ..io.splits import read_groups, select_groups
from ..recognizers import build_recognizer
from ..site import Site
from ..tagging.decoding import plain_words
from ..tagging.model import TaggingModel
from .locked import parse_also


def _parser() -> argparse.ArgumentParser:
    p = cli.Parser(prog="python -m crfdeid experiments", description=__doc__.split("\n\n")[0],
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
    z.add_argument("--fp-paths", action="store_true",
                   help="also count the false positives by decoding path, step and word class (configured decoding)")
    z.add_argument("--json", metavar="OUT", help="write the figures as JSON here")
    _made_up_parser(sub)
    _site_mining_parser(sub)
    _safeharbor_parser(sub)
    _dev_cv_parser(sub)
    _ledger_parser(sub)
    return p


def _sub(sub, name: str, help: str, examples: str) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help, description=help, epilog="examples:\n" + examples,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def _made_up_parser(sub) -> None:
    m = _sub(sub, "made-up", "made-up notes: identifiers left, clinical phrases changed, false spans",
             "  python -m crfdeid experiments made-up          # the legacy notes: misses, false placeholders\n"
             "  python -m crfdeid experiments made-up --notes dev --json dev.json   # redacted and surrogate\n"
             "  python -m crfdeid experiments made-up --notes my_notes.txt --mining off --by-note\n"
             "  python -m crfdeid experiments made-up --notes dev --session-option o_words=false\n"
             "  python -m crfdeid experiments made-up --notes dev,dev2 --casing as-written,lower,upper \\\n"
             "      --mining off --outputs redacted   # the same notes in three casings\n"
             "  python -m crfdeid experiments made-up --corpus physionet:../shared/corpora/physionet-dev \\\n"
             "      --exclude-groups configs/splits/physionet-locked.txt --mining off --outputs surrogate")
    m.add_argument("--model", help="model file (default: the shipped model)")
    m.add_argument("--o-threshold", type=float, help="P(O) threshold instead of the configured decoding")
    m.add_argument("--notes", metavar="SET[,SET...]",
                   help=f"shipped sets ({madeup.set_names()}) or notes "
                        "files, comma-separated: tag them with mining off and on, score redacted and surrogate output "
                        "(identifiers left, phrases changed, values changed, false spans)")
    m.add_argument("--casing", default="as-written", metavar="CASING[,CASING...]",
                   help="with --notes: the notes' text as-written, lower or upper case, each measured in turn "
                        "(offsets kept: crfdeid.experiments.casings)")
    m.add_argument("--corpus", metavar="FORMAT:PATH", help="annotated notes instead of --notes, measured the same "
                   "way (identifiers left, false spans, placeholders written; no phrases marked)")
    m.add_argument("--exclude-groups", metavar="FILE",
                   help="with --corpus: leave out these patients (the locked quarter)")
    m.add_argument("--outputs", default=",".join(madeup_outputs.OUTPUTS), help="with --notes: output styles")
    m.add_argument("--mining", default="off,on", help="with --notes: site mining settings, e.g. off or off,on")
    m.add_argument("--seed", default=madeup_outputs.SEED, help="with --notes: the surrogates' public seed")
    m.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                   help="with --notes: a writer option, as tag -o takes it")
    m.add_argument("--session-option", action="append", default=[], metavar="KEY=VALUE",
                   help="with --notes: a keyword of crfdeid.Session (how tag options reach tagging: "
                        "o_threshold, o_words, backend..., and any a later tag option adds, e.g. a date order)")
    m.add_argument("--by-note", action="store_true", help="with --notes: counts per note id too")
    m.add_argument("--show", action="store_true", help="without --notes: print the made-up surfaces of "
                   "misses and false spans")
    m.add_argument("--json", metavar="OUT", help="write the counts as JSON here")


def _site_mining_parser(sub) -> None:
    s = _sub(sub, "site-mining", "a model's figures with site mining off and on, and mining's time",
             "  python -m crfdeid experiments site-mining --corpus brat:annotated/ --json mining.json\n"
             "  python -m crfdeid experiments site-mining --made-up   # the made-up notes: misses, false spans")
    what = s.add_mutually_exclusive_group(required=True)
    what.add_argument("--corpus", metavar="FORMAT:PATH", help="annotated notes")
    what.add_argument("--made-up", action="store_true", help="the made-up notes (experiments made-up)")
    s.add_argument("--model", help="model file (default: the shipped model)")
    s.add_argument("--exclude-groups", metavar="FILE",
                   help="leave out these groups (patients), e.g. the locked quarter")
    s.add_argument("--only-groups", metavar="FILE", help="keep only these groups (patients)")
    s.add_argument("--json", metavar="OUT", help="write the figures here")
    s.add_argument("--full", action="store_true", help="also tag with a mining session and compare")


def _safeharbor_parser(sub) -> None:
    s = _sub(sub, "safeharbor", "the Safe Harbor layer's spans on annotated notes: hits and false positives",
             "  python -m crfdeid experiments safeharbor brat:annotated/ --exclude-groups locked.txt\n"
             "  python -m crfdeid experiments safeharbor synth:1000,13\n"
             "  python -m crfdeid experiments safeharbor piiforms:900,7 --by-group  # made-up PII sentences\n"
             "  python -m crfdeid experiments safeharbor fakerpii:2000,5 --by-group --pred jsonl:pred.jsonl"
             "  # pred.jsonl: tag fakerpii:2000,5 --output-format jsonl")
    s.add_argument("source", metavar="FORMAT:PATH", help="an annotated corpus")
    s.add_argument("--pred", metavar="FORMAT:PATH", help="with --by-group: score these spans (tag's output, "
                   "same document ids) instead of the layer's")
    s.add_argument("--exclude-groups", metavar="FILE", help="patients (doc.group) to leave out, one a line")
    s.add_argument("--by-group", action="store_true", help="recall and precision per group (piiforms: per form)")
    s.add_argument("--json", metavar="OUT", help="write the counts here too")


def _dev_cv_parser(sub) -> None:
    s = _sub(sub, "dev-cv", "development CV, fold models cached: decoding sweep, rule ablation, stress copies",
             "  python -m crfdeid experiments dev-cv --config icu --train brat:annotated/ --folds 5 \\\n"
             "      --o-thresholds none,0.9,0.98 --o-words 1,2,3 --rules --cache folds/ --out dev-cv/\n"
             "  python -m crfdeid experiments dev-cv --config icu --train brat:annotated/ \\\n"
             "      --stress unknown=i2b2:stress-unknown/ --cache folds/ --out dev-cv/  # corpus stress copies")
    s.add_argument("--config", required=True, help="a config file or a shipped config's name")
    s.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="the development notes (default: the config's train)")
    s.add_argument("--exclude-groups", metavar="FILE", help="leave out these patients (the locked quarter)")
    s.add_argument("--folds", type=int, default=5)
    s.add_argument("--seed", type=int, help="fold seed (default: the config's)")
    s.add_argument("--jobs", type=int, default=2, help="fold models trained at once")
    s.add_argument("--o-thresholds", type=cli.parse_thresholds, default=(),
                   help="P(O) thresholds to sweep, e.g. none,0.9,0.98 (the configured one is always in)")
    s.add_argument("--o-words", default="", help="o_words_min_count values to sweep, e.g. 0,1,2,3 (0: off)")
    s.add_argument("--o-words-thresholds", type=cli.parse_thresholds, default=(0.98, 0.99, 0.995),
                   help="the thresholds at which the other o_words_min_count values are tried")
    s.add_argument("--o-words-spare", default="", metavar="LIST,LIST",
                   help="leave the words of these gazetteers out of the o-words list (e.g. "
                        "first_male,first_female,surnames,cities): the threshold may then make them PHI")
    s.add_argument("--rules", action="store_true", help="rule matches and per-rule ablation")
    s.add_argument("--stress", type=parse_also, action="append", default=[], metavar="NAME=FORMAT:PATH",
                   help="the same notes changed (corpus stress), tagged by the same fold models")
    s.add_argument("--cache", required=True, help="folder of the fold models (reused when present)")
    s.add_argument("--out", required=True, help="folder for dev_cv.json and dev_cv.md")


def _ledger_parser(sub) -> None:
    s = _sub(sub, "rule-ledger", "each post-CRF rule switched off in turn: made-up sets and annotated notes",
             "  python -m crfdeid experiments rule-ledger --notes dev4,dev5 --without 'rule phone,step rules.v1'\n"
             "  python -m crfdeid experiments rule-ledger --notes dev,dev2,check --corpus physionet:notes/ \\\n"
             "      --exclude-groups locked.txt --without all --json ledger.json\n"
             "  python -m crfdeid experiments rule-ledger --notes check12 --casing as-written,lower,upper \\\n"
             "      --outputs redacted,surrogate --without all   # three casings, two outputs\n"
             "  python -m crfdeid experiments rule-ledger --list")
    s.add_argument("--model", help="model file (default: the shipped model)")
    s.add_argument("--notes", default="", metavar="SET,SET", help="made-up sets or notes files, comma-separated")
    s.add_argument("--corpus", metavar="FORMAT:PATH", help="annotated notes (recall per category)")
    s.add_argument("--exclude-groups", metavar="FILE", help="leave out these patients (the locked quarter)")
    s.add_argument("--without", default="", metavar="UNIT,UNIT|all", help="units switched off one at a time")
    s.add_argument("--casing", default="as-written", metavar="CASING,CASING",
                   help="score every set in these casings (as-written, lower, upper)")
    s.add_argument("--outputs", default="redacted", metavar="OUT,OUT", help="outputs scored (redacted, surrogate)")
    s.add_argument("--list", action="store_true", help="print the units and stop")
    s.add_argument("--json", metavar="OUT", help="write the figures as JSON here")


def _ledger(args) -> int:
    if args.list:
        print("\n".join(ledger.known_units()))
        return 0
    names = ledger.known_units() if args.without == "all" else [u.strip() for u in args.without.split(",") if u.strip()]
    sets: dict[str, str | Path] = {n.strip(): madeup.note_set(n.strip()) for n in args.notes.split(",") if n.strip()}
    corpus = None
    if args.corpus:
        corpus = list(read(args.corpus))
        if args.exclude_groups:
            corpus = select_groups(corpus, read_groups(args.exclude_groups), keep=False)
    base: dict = {}

    def progress(name, fig):
        base.setdefault("fig", fig)
        print(ledger.line(name, fig, None if name == "baseline" else base["fig"]), flush=True)
    res = ledger.run(names, sets, corpus, args.model, progress=progress,
                     casing_names=casings.parse_casings(args.casing),
                     outputs=[o.strip() for o in args.outputs.split(",") if o.strip()])
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1), encoding="utf-8")
    return 0


def _zero_shot(args) -> int:
    if args.fp_paths and args.recognizer:
        raise ValueError("--fp-paths wants a model (the decoding paths are a model's), not --recognizer")
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
        if args.fp_paths:
            result["fp_paths"] = fppaths.run(docs, model)
    result["corpus"] = args.corpus
    for name, fig in result["runs"].items():
        print(zeroshot.summary(name, fig))
    if "fp_paths" in result:
        print("\n".join(fppaths.report(result["fp_paths"])))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


def _made_up_outputs(args) -> int:
    mining = {"off": False, "on": True}
    settings = [w.strip() for w in args.mining.split(",") if w.strip()]
    if not settings or any(w not in mining for w in settings):
        raise ValueError("--mining wants off, on or off,on")
    session_options = cli.reader_options(args.session_option, "--session-option")
    if args.o_threshold is not None:
        session_options["o_threshold"] = args.o_threshold
    if args.corpus:
        gold = list(read(args.corpus))
        if args.exclude_groups:
            gold = select_groups(gold, read_groups(args.exclude_groups), keep=False)
    else:
        gold = madeup.read_sets(args.notes)
    names = casings.parse_casings(args.casing)
    model = args.model
    if len(names) > 1:  # loaded once for every casing
        model = TaggingModel.load(args.model, **{k: v for k, v in session_options.items() if k == "backend"})
    by_casing = {}
    for casing in names:
        res = madeup_outputs.run(casings.recased(gold, casing), model, mining=[mining[w] for w in settings],
                                 outputs=[f.strip() for f in args.outputs.split(",") if f.strip()], seed=args.seed,
                                 writer_options=cli.reader_options(args.option, "--option"),
                                 session_options=session_options)
        res["notes"], res["casing"] = args.notes or args.corpus, casing
        if len(names) > 1:
            print(f"casing {casing}:")
        print("\n".join(madeup_outputs.report(res)))
        if args.by_note:
            for run, outs in res["runs"].items():
                for fmt in outs:
                    print(f"per note, {run}, {fmt}:")
                    print("\n".join(madeup_outputs.note_lines(res, run, fmt)))
        by_casing[casing] = res
    if args.json:
        out = by_casing[names[0]] if len(names) == 1 else {"casings": by_casing}
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


def _made_up(args) -> int:
    if args.notes is not None or args.corpus:
        return _made_up_outputs(args)
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


def _site_mining(args) -> int:
    gold = madeup.read_notes() if args.made_up else list(read(args.corpus))
    if args.exclude_groups:
        gold = select_groups(gold, read_groups(args.exclude_groups), keep=False)
    if args.only_groups:
        gold = select_groups(gold, read_groups(args.only_groups), keep=True)
    out = sitemining.run(gold, args.model, made_up=args.made_up, full=args.full)
    print("\n".join(sitemining.report(out)))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


def _safeharbor(args) -> int:
    excluded = read_groups(args.exclude_groups) if args.exclude_groups else frozenset()
    docs = list(read(args.source))
    figures = {"source": args.source.split(":")[0], **safeharbor.count(docs, excluded)}
    if args.by_group:
        predicted = {d.doc_id: d.spans for d in read(args.pred)} if args.pred else None
        figures["by_group"] = safeharbor.by_group((d for d in docs if d.group not in excluded), predicted)
    out = json.dumps(figures, indent=1)
    print(out)
    if args.json:
        Path(args.json).write_text(out + "\n", encoding="utf-8")
    return 0


def _dev_cv(args) -> int:
    config = load_config(args.config)
    docs = devcv.dev_docs(args.train, config, args.exclude_groups)
    res = devcv.run(config, args.config, docs, folds=args.folds, seed=args.seed, jobs=args.jobs,
                    cache=Path(args.cache), o_thresholds=args.o_thresholds,
                    o_words_counts=[int(k) for k in args.o_words.split(",") if k.strip()],
                    o_words_thresholds=args.o_words_thresholds, o_words_spare=args.o_words_spare,
                    with_rule_ablation=args.rules, stress=args.stress)
    text = devcv.render(res)
    sys.stdout.write(text)
    write_files(args.out, {"dev_cv.md": text, "dev_cv.json": to_json(res)})
    return 0


RUN = {"zero-shot": _zero_shot, "made-up": _made_up, "site-mining": _site_mining, "safeharbor": _safeharbor,
       "dev-cv": _dev_cv, "rule-ledger": _ledger}


def main(argv=None) -> int:
    """Run ``python -m crfdeid experiments``; returns the exit code."""
    args = _parser().parse_args(argv)
    cli.cap_jobs(args)
    try:
        return RUN[args.experiment](args)
    except (CrfdeidError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
