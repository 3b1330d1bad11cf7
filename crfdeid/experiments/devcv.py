"""Development cross-validation that re-decodes cheaply: thresholds, o-words, rule ablation, stress copies.

``python -m crfdeid experiments dev-cv`` trains one model per patient-grouped fold of the
development patients (or reuses the ones saved in ``--cache``), then, without training again:

* the decoding sweep: binary token P/R, PHI fully removed, parent-strict F1 for each
  O threshold and each ``o_words_min_count`` (the words list recomputed from each fold's
  training notes), rules on;
* with ``--rules``: every rule's matches on the development notes (spans overlapping a gold
  span or not; counts only) and its contribution in CV: the pooled figures at the
  configured decoding with that rule (or the name extension, or the date check) left out;
* with ``--stress NAME=FORMAT:PATH``: the held-out folds' copies in that corpus (matched by
  document id; e.g. ``corpus stress --kind unknown`` of the whole corpus) tagged by the
  same fold models: per category typed token P/R/F and gold tokens covered.

Aggregate figures only (no note text); :func:`render` gives dev_cv.md, :func:`run` the figures
of dev_cv.json.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .. import gazetteers
from ..crf import Model, train_model
from ..io import read_all
from ..io.splits import read_groups, select_groups
from ..labels import encode
from ..recognizers import rules
from ..recognizers.chain import build_chain
from ..scoring import evaluate
from ..tagging.decoding import OWords
from ..tagging.model import tokens_for
from .crossval import fold_splits
from .locked import figures, render_categories
from .results import markdown_table, provenance


def _train_one(args):
    docs, config, path = args
    train_model(docs, config).save(path)
    return path


def dev_docs(train, config: dict, exclude_groups=None) -> list:
    """The notes of ``train`` (FORMAT:PATH inputs; None: the config's) without the patients listed
    in the file ``exclude_groups`` (the locked ones)."""
    docs = read_all(train or config["train"])
    return select_groups(docs, read_groups(exclude_groups), keep=False) if exclude_groups else docs


def fold_models(docs, config, splits, cache: Path, jobs: int) -> list:
    """One model per fold, trained on the fold's training notes (reused from ``cache``)."""
    cache.mkdir(parents=True, exist_ok=True)
    todo = [([docs[i] for i in f.train], config, cache / f"fold{f.index}.model")
            for f in splits if not (cache / f"fold{f.index}.model").exists()]
    if todo:
        with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo)))) as pool:
            list(pool.map(_train_one, todo))
    return [Model.load(cache / f"fold{f.index}.model") for f in splits]


def o_words(train_docs, config, min_count):
    """The words list of ``decoding.o_words_min_count = min_count`` for these training notes."""
    if not min_count:
        return frozenset()
    ow = OWords()
    for d in train_docs:
        toks = tokens_for(d.text, config["tokenizer"]["split_glued"])
        ow.add(toks, encode(toks, d.spans).labels)
    return frozenset(ow.kept(min_count))


def crf_spans(model, docs, threshold, words):
    """Held-out CRF spans (rules off) at one threshold with one words list."""
    model.chain = build_chain(["clinical_filter.v1"])  # the chain without the rule overlay
    model.o_words = words
    return [list(d.spans) for d in model.tag_many(docs, o_threshold=threshold)]


def with_rules(docs, spans, found=None, extend=True, date_check=True):
    """Documents with the overlay applied to ``spans``; ``found``: rule spans per document."""
    found = found or [None] * len(docs)
    return [d.with_spans(rules.overlay(d.text, s, date_check=date_check, extend=extend, found=f))
            for d, s, f in zip(docs, spans, found)]


def rule_spans(docs) -> list[dict]:
    """Per document, each rule's spans (``find`` with that rule alone)."""
    return [{name: rules.find(d.text, {name: rule}) for name, rule in rules.RULES.items()} for d in docs]


def merged(per_doc: dict, leave_out=()) -> list:
    """The spans ``find`` gives with every rule but ``leave_out`` (earlier rules win overlaps)."""
    out: list = []
    for name in rules.RULES:
        if name not in leave_out:
            out = rules.merge_disjoint(out, per_doc[name])
    return out


def rule_matches(docs, per_rule) -> dict:
    """Per rule: spans found on ``docs`` overlapping a gold span or not (counts only)."""
    out = {name: {"matches": 0, "overlap_gold": 0, "no_gold": 0} for name in rules.RULES}
    for d, found in zip(docs, per_rule):
        gold = [(g.start, g.end) for g in d.spans]
        for name, spans in found.items():
            for sp in spans:
                hit = any(s < sp.end and sp.start < e for s, e in gold)
                out[name]["matches"] += 1
                out[name]["overlap_gold" if hit else "no_gold"] += 1
    return out


def light(gold, pred) -> dict:
    """Binary token figures, PHI fully removed and parent-strict F1 (one scoring pass)."""
    r = evaluate(gold, pred)
    b = r.micro["binary_token"]
    return {"binary_token": {"precision": b.precision, "recall": b.recall, "f1": b.f1, "tp": b.tp,
                             "fp": b.fp, "fn": b.fn},
            "leak": r.leak.as_dict(), "parent_strict": {"f1": r.micro["parent_strict"].f1}}


def ablation(gold, spans, per_rule) -> dict:
    """Pooled binary token figures with all rules, none, and each rule (or step) left out."""
    found = [merged(r) for r in per_rule]
    variants: dict[str, dict] = {"all rules": {"found": found},
                "no rules (CRF alone)": {"found": [[] for _ in gold], "extend": False, "date_check": False},
                "without extend_names": {"found": found, "extend": False},
                "without date_check": {"found": found, "date_check": False}}
    variants.update({f"without {n}": {"found": [merged(r, (n,)) for r in per_rule]} for n in rules.RULES})
    out = {}
    for name, kw in variants.items():
        f = light(gold, with_rules(gold, spans, **kw))
        out[name] = {**f["binary_token"], "fully_removed": f["leak"]["fully_removed"]}
    return out


def run(config: dict, config_name: str, docs: list, *, folds: int = 5, seed=None, jobs: int = 2,
        cache: Path, o_thresholds=(), o_words_counts=(), o_words_thresholds=(0.98, 0.99, 0.995),
        o_words_spare: str = "", with_rule_ablation: bool = False, stress=()) -> dict:
    """The figures of dev_cv.json: the decoding sweep, the configured point per category, and
    with ``with_rule_ablation`` / ``stress`` (``(name, FORMAT:PATH)`` pairs) the rules and
    stress copies (see the module docstring)."""
    t0 = time.perf_counter()
    seed = seed if seed is not None else config["seed"]
    splits = fold_splits(docs, folds, seed)
    models = fold_models(docs, config, splits, Path(cache), jobs)
    t_train = time.perf_counter() - t0
    tests = [[docs[i] for i in f.test] for f in splits]
    gold = [d for t in tests for d in t]
    conf_t, conf_k = config["decoding"]["o_threshold"], config["decoding"]["o_words_min_count"]
    res = {**provenance(), "config": config_name, "folds": folds, "seed": seed,
           "documents": len(docs), "patients": len({d.group for d in docs}), "sweep": [], "stress": {}}
    words = {}
    ks = sorted({conf_k or 0} | set(o_words_counts))
    spare: frozenset = frozenset()
    if o_words_spare:
        spare = frozenset(w.lower() for n in o_words_spare.split(",") for w in gazetteers.load(n.strip()))
        res["o_words_spare"] = o_words_spare
    for k in ks:
        words[k] = [o_words([docs[i] for i in f.train], config, k) - spare for f in splits]
    per_rule = rule_spans(gold)
    found = [merged(r) for r in per_rule]
    base = None
    grid = [(t, k) for k in ks for t in sorted(set(o_thresholds) | {conf_t}, key=lambda x: -1 if x is None else x)
            if k == (conf_k or 0) or t in o_words_thresholds]
    for t, k in grid:
        spans = [s for m, test, w in zip(models, tests, words[k]) for s in crf_spans(m, test, t, w)]
        if (t, k) == (conf_t, conf_k or 0):
            base = spans
        res["sweep"].append({"o_threshold": t, "o_words_min_count": k, **light(gold, with_rules(gold, spans, found))})
    res["original"] = figures(gold, with_rules(gold, base, found))
    if with_rule_ablation:
        res["rule_matches"] = rule_matches(gold, per_rule)
        res["ablation"] = ablation(gold, base, per_rule)
    for name, spec in stress:
        copies = {d.doc_id: d for d in read_all([spec])}
        s_tests = [[copies[d.doc_id] for d in test] for test in tests]
        s_gold = [d for t in s_tests for d in t]
        spans = [s for m, test, w in zip(models, s_tests, words[conf_k or 0])
                 for s in crf_spans(m, test, conf_t, w)]
        res["stress"][name] = figures(s_gold, with_rules(s_gold, spans))
        if with_rule_ablation:
            res["stress"][name]["ablation"] = ablation(s_gold, spans, rule_spans(s_gold))
    res["seconds"] = {"train": round(t_train, 1), "total": round(time.perf_counter() - t0, 1)}
    return res


def render(res: dict) -> str:
    """dev_cv.md: the sweep, the configured point per category, stress copies and rules."""
    f3 = "{:.3f}".format
    rows = [[s["o_threshold"], s["o_words_min_count"], f3(s["binary_token"]["precision"]),
             f3(s["binary_token"]["recall"]), f3(s["leak"]["fully_removed"]), f3(s["parent_strict"]["f1"]),
             s["binary_token"]["fn"]] for s in res["sweep"]]
    parts = [f"{res['documents']} development notes, {res['patients']} patients, {res['folds']} folds "
             f"(seed {res['seed']}), commit {res.get('commit')}", "",
             markdown_table(["o_threshold", "o_words_min_count", "bin-token P", "bin-token R",
                             "PHI fully removed", "parent strict F1", "missed gold tokens"], rows),
             "", "Per category, original (as configured):", "", render_categories({"as configured": res["original"]})]
    for name, f in res["stress"].items():
        b = f["binary_token"]
        parts += ["", f"Stress copy {name} (as configured): bin-token P {f3(b['precision'])} R {f3(b['recall'])}",
                  "", render_categories({"as configured": f})]
    if "ablation" in res:
        ab = res["ablation"]
        full = ab["all rules"]
        stress = {n: f["ablation"] for n, f in res["stress"].items() if "ablation" in f}
        rows = [[n, m["matches"], m["overlap_gold"], m["no_gold"]] + _delta(ab[f"without {n}"], full)
                + [v for sa in stress.values() for v in _delta(sa[f"without {n}"], sa["all rules"])[:2]]
                for n, m in res["rule_matches"].items()]
        rows += [[n[8:] if n.startswith("without ") else n, "", "", ""] + _delta(ab[n], full)
                 + [v for sa in stress.values() for v in _delta(sa[n], sa["all rules"])[:2]]
                 for n in ("without extend_names", "without date_check", "no rules (CRF alone)")]
        parts += ["", "Rules on the development notes (matches; spans overlapping gold or not) and in CV "
                  "(pooled, configured decoding): gold tokens lost and false tokens removed without it", "",
                  markdown_table(["rule", "matches", "overlap gold", "no gold", "gold tokens lost",
                                  "false tokens removed", "R without", "P without"]
                                 + [f"{n}: {h}" for n in stress for h in ("gold lost", "false removed")], rows)]
    return "\n".join(parts) + "\n"


def _delta(without: dict, full: dict) -> list:
    return [full["tp"] - without["tp"], full["fp"] - without["fp"], f"{without['recall']:.3f}",
            f"{without['precision']:.3f}"]
