"""The shipped model as a voter in a site model's decoding, in development CV (issue 34, item 1).

    python bench/prior_cv.py --config configs/physionet.yaml \\
        --train physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt --folds 5 --jobs 2 \\
        --cache build/folds-physionet --stress unknown=i2b2:build/stress-unknown \\
        --weights 0.1,0.2,0.3 --thresholds 0.99,0.995 --out build/prior-cv \\
        [--o-words-lists common_words,... --o-words-except first_male,...]

Each patient-grouped fold's model (``--config`` as configured, its companion CRF included, its prior off) is
trained once and cached (``bench/dev_cv.py``'s ``fold_models``); the prior (``--prior``, the
shipped default model) is trained on synthetic notes only, so it never saw a development note.
Every token's marginals of the three CRFs are computed once per fold; then each vote is only
a re-decoding of them. The votes:

- ``labels``: ``(1 - w) * site + w * prior``, the prior's marginals mapped onto the site
  model's labels by name (a label the site lacks: its probability dropped; one the prior
  lacks: 0), where ``site`` is the site model's own averaged marginals (its CRF and
  companion, as configured); PHI where that P(O) is below the threshold;
- ``outside``: only P(O) is averaged, ``(1 - w) * site P(O) + w * prior P(O)``; the PHI
  labels keep the site model's proportions (works for any label scheme);
- ``or``: PHI where the site's P(O) is below the threshold or the prior's P(O) is below
  ``w`` (read as a threshold of its own), labels as ``outside``;
- ``union``: the site model as configured plus the prior's spans (as it is configured) of
  confidence >= 0.5 that overlap none of them (the issue's "both" row);
- ``--union-categories DATE --union-confidence 0,0.5``: every vote above plus the prior's spans
  of those parent categories (and at least that confidence) that overlap none of its spans.

Scored pooled over the held-out folds on the real notes and on each stress copy: binary token
P/R, gold tokens missed, false tokens, PHI fully removed, NAME / LOCATION covered. Aggregate
figures only; writes prior.json and prior.md to ``--out``. ``--o-words-lists`` and
``--o-words-except`` add public words to every fold model's ``o_words`` as those config keys
would at training (the CRFs are the same), to measure them without training again.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dev_cv import dev_docs, fold_models  # noqa: E402
from union_cv import slim, table, union  # noqa: E402

from crfdeid import cli  # noqa: E402
from crfdeid.cli.locked import parse_also  # noqa: E402
from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import Model  # noqa: E402
from crfdeid.experiments.crossval import fold_splits  # noqa: E402
from crfdeid.experiments.results import provenance, to_json, write_files  # noqa: E402
from crfdeid.io import read_all  # noqa: E402
from crfdeid.labels import OUTSIDE  # noqa: E402
from crfdeid.tagging.decoding import AveragedBackend, plain_words, threshold_labels  # noqa: E402


class Cached:
    """A backend's ``probabilities`` remembered per note text (float32), computed once."""

    def __init__(self, backend):
        self.backend, self.labels, self.memo = backend, list(backend.labels), {}

    def probabilities(self, items):
        todo = [it for it in items if it[0] not in self.memo]
        if todo:
            for it, (lab, p) in zip(todo, self.backend.probabilities(todo)):
                self.memo[it[0]] = (lab, p.astype(np.float32))
        return [(list(self.memo[it[0]][0]), self.memo[it[0]][1].astype(np.float64)) for it in items]


class Either:
    """The ``or`` vote: PHI where the site's P(O) is below the threshold or the prior's below ``prior_threshold``."""

    def __init__(self, site, prior, prior_threshold):
        self.site, self.prior, self.prior_threshold = site, prior, prior_threshold
        self.labels = list(site.labels)
        self.o, self.prior_o = self.labels.index(OUTSIDE), prior.labels.index(OUTSIDE)
        self.others = [lab for lab in self.labels if lab != OUTSIDE]
        self.col = {lab: j for j, lab in enumerate(self.labels)}

    def run(self, items, o_threshold, want_marginals=False, o_words=frozenset()):
        out = []
        for (_, toks, _), (labels, p), (_, pb) in zip(items, self.site.probabilities(items),
                                                       self.prior.probabilities(items)):
            p_o = p[:, self.o].tolist()
            prior_low = (pb[:, self.prior_o] < self.prior_threshold).tolist()
            low = [t for t, lab in enumerate(labels) if lab == OUTSIDE and (p_o[t] < o_threshold or prior_low[t])]
            if low:
                threshold_labels(labels, low, lambda lab, t, p=p: p[t, self.col[lab]], self.others, toks, o_words)
            out.append((labels, p_o, []))
        return out


def with_prior_spans(doc, prior_doc, categories, least: float):
    """``doc`` with ``prior_doc``'s spans of ``categories`` and confidence >= ``least`` that overlap none of its own."""
    add = [sp for sp, c in zip(prior_doc.spans, prior_doc.meta["confidence"])
           if sp.category in categories and c >= least and not any(sp.overlaps(x) for x in doc.spans)]
    return doc.with_spans(list(doc.spans) + add)


def without_prior(model: Model) -> Model:
    """``model`` (a site model, trained with or without a prior) with its prior turned off: its
    CRF and companion only (the prior changes no CRF, only the decoding)."""
    return Model(model._crf, load_config({**model.config, "prior": None}),
                 {k: v for k, v in model.manifest.items() if k != "prior"}, companion=model._companion_crf)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True)
    p.add_argument("--prior", default="default", help="the prior model file (default: the shipped model)")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH")
    p.add_argument("--exclude-groups", metavar="FILE")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only-folds", metavar="I,J", help="score only these folds (e.g. 0,1 while the others train)")
    p.add_argument("--modes", default="labels,outside,or")
    p.add_argument("--weights", type=lambda v: [float(x) for x in v.split(",")], default=[0.02, 0.05, 0.1])
    p.add_argument("--or-thresholds", type=lambda v: [float(x) for x in v.split(",")], default=[0.1, 0.3, 0.5],
                   help="the prior's own P(O) thresholds of the 'or' vote")
    p.add_argument("--thresholds", type=cli.parse_thresholds, default=(0.99,))
    p.add_argument("--stress", type=parse_also, action="append", default=[], metavar="NAME=FORMAT:PATH")
    p.add_argument("--o-words-lists", help="comma-separated gazetteer lists whose words join every fold "
                   "model's o_words (decoding.o_words_lists: an experiment on the decoding, no retraining)")
    p.add_argument("--o-words-except", help="comma-separated lists whose words never do (decoding.o_words_except)")
    p.add_argument("--union-categories", type=lambda v: [frozenset(c.split("+")) for c in v.split(",")],
                   default=[], help="comma-separated parent-category sets (DATE or DATE+AGE): every vote "
                   "also with the prior's spans of that set overlapping none of its own")
    p.add_argument("--union-confidence", type=lambda v: [float(x) for x in v.split(",")], default=[0.0],
                   help="the lowest confidence of a prior span those rows add")
    p.add_argument("--cache", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    config = load_config(args.config)
    docs = dev_docs(args.train, config, args.exclude_groups)
    splits = fold_splits(docs, args.folds, config["seed"])
    if args.only_folds:
        splits = [f for f in splits if f.index in {int(i) for i in args.only_folds.split(",")}]
    models = [without_prior(m) for m in fold_models(docs, config, splits, Path(args.cache), args.jobs)]
    if args.o_words_lists or args.o_words_except:
        lists = args.o_words_lists.split(",") if args.o_words_lists else None
        names = args.o_words_except.split(",") if args.o_words_except else None
        for m in models:
            m.o_words = frozenset(plain_words(m.o_words, lists, names))
    prior_model = Model.load(args.prior)
    copies = {"real": None} | {name: {d.doc_id: d for d in read_all([spec])} for name, spec in args.stress}
    modes = [m.strip() for m in args.modes.split(",")]
    systems: dict[str, list] = {}

    def add(name, docs_):
        systems.setdefault(name, []).extend(docs_)

    res: dict = {**provenance(), "config": args.config, "prior": args.prior, "rows": []}
    for copy, by_id in copies.items():
        systems = {}
        gold = []
        for f, m in zip(splits, models):
            test = [docs[i] if by_id is None else by_id[docs[i].doc_id] for i in f.test]
            gold += test
            main_b = Cached(m._backend.main if m.companion is not None and m.config["companion"]["weight"]
                            else m._backend)
            comp_b = Cached(m.companion._backend) if m.companion is not None else None
            prior_b = Cached(prior_model._backend)
            weight = (m.config.get("companion") or {}).get("weight") or 0.0
            site = main_b if comp_b is None or not weight else AveragedBackend(main_b, comp_b, weight)
            configured = m.config["decoding"]["o_threshold"]
            m._backend_impl = AveragedBackend(site, prior_b, 0.0)
            base = list(m.tag_many(test))
            add(f"site model as configured (P(O) < {configured})", base)
            for t in args.thresholds:
                if t != configured:
                    add(f"site model, P(O) < {t}", list(m.tag_many(test, o_threshold=t)))
            pri = list(prior_model.tag_many(test))
            add("prior alone, as configured", pri)
            add("union: site + prior spans (conf >= 0.5) overlapping none",
                [b.with_spans(list(b.spans) + [sp for sp, c in zip(pd.spans, pd.meta["confidence"])
                                               if c >= 0.5 and not any(sp.overlaps(x) for x in b.spans)])
                 for b, pd in zip(base, pri)])
            add("union: every span of either", [union(b, pd, {sp.category for sp in pd.spans})
                                                for b, pd in zip(base, pri)])
            for mode in modes:
                for w in (args.or_thresholds if mode == "or" else args.weights):
                    m._backend_impl = (Either(site, prior_b, w) if mode == "or"
                                       else AveragedBackend(site, prior_b, w, outside_only=mode == "outside"))
                    for t in args.thresholds:
                        name = (f"or: site P(O) < {t} or prior P(O) < {w}" if mode == "or"
                                else f"{mode}: prior weight {w}, P(O) < {t}")
                        voted = list(m.tag_many(test, o_threshold=t))
                        add(name, voted)
                        for cats in args.union_categories:
                            for least in args.union_confidence:
                                add(f"{name} + prior {'+'.join(sorted(cats))} spans (conf >= {least}) overlapping none",
                                    [with_prior_spans(v, pd, cats, least) for v, pd in zip(voted, pri)])
            m._backend_impl = None
            print(f"{copy} fold {f.index} done at {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
        for name, pred in systems.items():
            res["rows"].append({"copy": copy, "system": name, **slim(gold, pred)})
    res["seconds"] = round(time.perf_counter() - t0, 1)
    text = table(res, splits, len(docs), args.folds, f"pooled; prior {args.prior}")
    sys.stdout.write(text)
    write_files(args.out, {"prior.md": text, "prior.json": to_json(res)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
