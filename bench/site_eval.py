"""What site knowledge and span hygiene change: held-out tagging with and without them.

    # the PhysioNet model in patient-grouped CV (fold models from bench/dev_cv.py's --cache)
    python bench/site_eval.py --config configs/physionet.yaml \\
        --corpus physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --folds 5 --cache /tmp/folds \\
        --site-table ../shared/corpora/physionet-dev/pid_patientname.txt --out /tmp/site-cv
    # the shipped model zero-shot on the same notes
    python bench/site_eval.py --model default --corpus physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt \\
        --site-table ../shared/corpora/physionet-dev/pid_patientname.txt --out /tmp/site-zs

Tags every held-out note with ``Model.tag_many`` (the code path of ``python -m crfdeid tag``),
at the configured decoding, four ways: the rules and chain as before issue 26 (the leak
fixes switched off by :func:`leak_fixes_off`, no ``junk_spans.v1``/``young_ages.v1``), then
with the leak fixes, then with the two processors too (the chain every model now has), then
with the site's knowledge as well (``options={"site": ...}``). Scores binary
token P/R, PHI fully removed, and counts the predicted spans that overlap no gold span;
``--sweep`` compares the first two chains (before, and with everything but the site) at
other O thresholds.
``--spans FILE`` writes each variant's spans (offsets and subtypes only, no text) for
:func:`added_false` comparisons between two code versions (``--compare OLD.json``).
Prints counts and figures only, never note text.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

import regex

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid import cli  # noqa: E402
from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import Model  # noqa: E402
from crfdeid.experiments.crossval import fold_splits  # noqa: E402
from crfdeid.experiments.results import markdown_table, provenance, to_json, write_files  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402
from crfdeid.recognizers import clinical, rules  # noqa: E402
from crfdeid.recognizers.chain import build_chain  # noqa: E402
from crfdeid.scoring import evaluate  # noqa: E402
from crfdeid.site import Site  # noqa: E402

#: The processors this measurement switches off for the "before" chain.
NEW = ("junk_spans.v1", "young_ages.v1")


def figures(gold, pred) -> dict:
    r = evaluate(gold, pred)
    b = r.micro["binary_token"]
    false = sum(1 for g, p in zip(gold, pred) for sp in p.spans if not any(sp.overlaps(x) for x in g.spans))
    return {"precision": b.precision, "recall": b.recall, "f1": b.f1, "tp": b.tp, "fp": b.fp, "fn": b.fn,
            "fully_removed": r.leak.as_dict()["fully_removed"], "spans": sum(len(p.spans) for p in pred),
            "spans_no_gold": false}


def added_false(gold, old: dict, new: dict) -> dict:
    """Spans in ``new`` but not in ``old`` (per document, by offsets) and how many overlap no gold span."""
    added = false = 0
    for g in gold:
        before = {tuple(s) for s in old.get(g.doc_id, [])}
        for s in new.get(g.doc_id, []):
            if tuple(s) in before:
                continue
            added += 1
            false += not any(x.start < s[1] and s[0] < x.end for x in g.spans)
    return {"added": added, "added_no_gold": false}


@contextlib.contextmanager
def leak_fixes_off():
    """The rules and clinical filter as they were before the three leaks and the scores were
    fixed: no address unit, hospital acronym or name particle rule, the old street rule, no particles or
    prefixed surnames in the name extension, hyphen parts of any word, no scores."""
    saved = (dict(rules.RULES), rules._PREFIXED_NEXT, rules._PARTICLE_AFTER, rules._PARTICLE_BEFORE,
             rules._not_names, clinical._scales)
    never = regex.compile(r"(?!)")
    for name in ("address_unit", "hospital_acronym", "name_particle"):
        rules.RULES.pop(name)
    sub, rx = rules.RULES["street"]
    rules.RULES["street"] = (sub, regex.compile(rx.pattern.split("(?:,?[ \\t]+")[0]))
    rules._PREFIXED_NEXT = rules._PARTICLE_AFTER = rules._PARTICLE_BEFORE = never
    rules._not_names = clinical._scales = frozenset
    rules._plan.cache_clear()
    try:
        yield
    finally:
        rules.RULES.clear()
        rules.RULES.update(saved[0])
        (rules._PREFIXED_NEXT, rules._PARTICLE_AFTER, rules._PARTICLE_BEFORE, rules._not_names,
         clinical._scales) = saved[1:]
        rules._plan.cache_clear()


def tag(models, tests, chains, options, old_rules=False, threshold=...):
    out = []
    with leak_fixes_off() if old_rules else contextlib.nullcontext():
        for model, docs in zip(models, tests):
            model.chain = chains(model)
            out += list(model.tag_many(docs, o_threshold=threshold, options=options))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--config", help="patient-grouped CV of this config (fold models from --cache)")
    what.add_argument("--model", help="one model, zero-shot ('default': the shipped model)")
    p.add_argument("--corpus", required=True, help="FORMAT:PATH")
    p.add_argument("--exclude-groups")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--seed", type=int)
    p.add_argument("--cache", help="folder of the fold models (bench/dev_cv.py --cache)")
    p.add_argument("--site", help="site file (YAML)")
    p.add_argument("--site-table", action="append", default=[])
    p.add_argument("--spans", help="write each variant's spans (offsets, subtypes) here as JSON")
    p.add_argument("--compare", help="spans JSON of another code version: spans added, overlapping no gold")
    p.add_argument("--sweep", type=cli.parse_thresholds, default=(),
                   help="also these O thresholds (none: Viterbi), before and after the span hygiene")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    docs = read_all([args.corpus])
    if args.exclude_groups:
        docs = select_groups(docs, read_groups(args.exclude_groups), keep=False)
    if args.config:
        config = load_config(args.config)
        splits = fold_splits(docs, args.folds, args.seed if args.seed is not None else config["seed"])
        missing = [f.index for f in splits if not (Path(args.cache) / f"fold{f.index}.model").exists()]
        if missing:
            p.error(f"fold models {missing} are not in --cache: train them with bench/dev_cv.py first")
        models = [Model.load(Path(args.cache) / f"fold{f.index}.model") for f in splits]
        tests = [[docs[i] for i in f.test] for f in splits]
    else:
        models, tests = [Model.load(args.model)], [docs]
    gold = [d for t in tests for d in t]
    blank = [[d.with_spans([]) for d in t] for t in tests]
    site = Site.load(args.site) if args.site else Site()
    if args.site_table:
        site = site.merged(Site.from_files(args.site_table))

    def without_new(model):
        return build_chain([e for e in model.chain.entries() if (e if isinstance(e, str) else e["name"]) not in NEW])

    full = {id(m): m.chain for m in models}
    variants = {"before (rules as on main, no span hygiene, no age filter)": (without_new, None, True),
                "+ leak fixes and scores (rules, name extension, clinical filter)": (without_new, None, False),
                "+ span hygiene and the age filter": (lambda m: full[id(m)], None, False),
                "+ the site's knowledge": (lambda m: full[id(m)], {"site": site}, False)}
    res = {**provenance(), "corpus": args.corpus, "documents": len(gold), "mode": args.config or args.model,
           "patients_known": len(site.patients), "variants": {}}
    spans = {}
    for name, (chains, options, old_rules) in variants.items():
        pred = tag(models, blank, chains, options, old_rules)
        res["variants"][name] = figures(gold, pred)
        spans[name] = {d.doc_id: [[s.start, s.end, s.subtype] for s in d.spans] for d in pred}
    res["sweep"] = []
    for t in args.sweep:
        before = figures(gold, tag(models, blank, without_new, None, True, t))
        after = figures(gold, tag(models, blank, lambda m: full[id(m)], None, False, t))
        res["sweep"].append({"o_threshold": t, "before": before, "after": after})
    if args.compare:
        old = json.loads(Path(args.compare).read_text())
        res["compare"] = {name: added_false(gold, old.get(name, {}), spans[name]) for name in spans}
    if args.spans:
        Path(args.spans).write_text(json.dumps(spans))
    res["seconds"] = round(time.perf_counter() - t0, 1)
    f3 = "{:.3f}".format
    rows = [[n, f3(v["precision"]), f3(v["recall"]), f3(v["fully_removed"]), v["tp"], v["fp"], v["fn"],
             v["spans"], v["spans_no_gold"]] for n, v in res["variants"].items()]
    text = "\n".join([f"{res['documents']} notes ({res['mode']}), commit {res.get('commit')}", "",
                      markdown_table(["chain", "bin-token P", "bin-token R", "PHI fully removed", "TP", "FP",
                                      "FN", "spans", "spans overlapping no gold"], rows)]) + "\n"
    if res["sweep"]:
        rows = [[x["o_threshold"], *(f"{x[k]['precision']:.3f} / {x[k]['recall']:.3f}" for k in ("before", "after")),
                 x["before"]["fp"] - x["after"]["fp"], x["before"]["tp"] - x["after"]["tp"]] for x in res["sweep"]]
        text += "\n" + markdown_table(["O threshold", "before: P / R", "with the leak fixes, hygiene, ages: P / R",
                                       "false tokens removed", "gold tokens lost"], rows) + "\n"
    if "compare" in res:
        text += "\nAgainst --compare: " + json.dumps(res["compare"]) + "\n"
    sys.stdout.write(text)
    write_files(args.out, {"site_eval.md": text, "site_eval.json": to_json(res)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
