"""Score the locked test once: train on every other patient, tag the locked patients' notes.

The protocol (docs/protocol.md): the patients listed in ``--locked`` (for PhysioNet,
``configs/splits/physionet-locked.txt``) are never used to design rules, features or
thresholds; development work cross-validates the other patients (``crossval
--exclude-groups``). This command trains the config on the development patients (or
takes a trained ``--model``, or the rule overlay alone with ``--rules-only``), tags the
locked notes with the configured decoding and each ``--o-thresholds`` value, and writes
aggregate figures only: binary token P/R, "PHI fully removed" (the leak view), strict,
relaxed and parent-strict F1, and per parent category the typed token P/R/F and the
share of its gold tokens inside any predicted span. ``--also NAME=FORMAT:PATH`` scores
the same model on other copies of the locked notes (e.g. ``corpus stress`` copies),
matched by document id. Nothing here prints note text or per-note errors.

Example::

    python -m crfdeid locked --config configs/physionet.yaml \\
        --locked configs/splits/physionet-locked.txt --o-thresholds none,0.9,0.98,0.995,0.999 \\
        --out results/locked
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from .. import cli
from ..document import Span
from ..errors import ConfigError, CrfdeidError
from .crossval import CATEGORIES, summarize, threshold_label
from .results import markdown_table, provenance, to_json, write_files
from .splits import read_groups, select_groups

#: What the locked command can score: a config trained here, a saved model, the rules alone.
SYSTEMS = ("trained", "model", "rules")


class RulesOnly:
    """The rule overlay without a CRF (``overlay`` of no CRF span): a baseline 'system'."""

    def tag_many(self, docs, o_threshold=None):
        from ..recognizers.rules import overlay, prepare
        prepare()
        for doc in docs:
            yield doc.with_spans(overlay(doc.text, []))


def figures(gold, pred) -> dict:
    """Aggregate figures of predictions ``pred`` against ``gold`` (documents paired by id).

    :func:`crfdeid.experiments.crossval.summarize` plus the leak view (``leak``) and,
    per parent category present in gold, ``categories[C]``: the token P/R/F of C against
    predicted C (parent category must match, subtypes not compared: PhysioNet's gold says
    LOCATION-OTHER where a model says HOSPITAL) and ``covered``, the share of gold tokens of
    C inside any predicted span (the privacy reading of recall).
    """
    from ..scoring import evaluate
    report = evaluate(gold, pred)
    out = summarize(report)
    out["leak"] = report.leak.as_dict()
    out["categories"] = {}
    present = {sp.category for d in gold for sp in d.spans}
    for cat in CATEGORIES:
        if cat not in present:
            continue
        only = [d.with_spans([sp for sp in d.spans if sp.category == cat]) for d in gold]
        g_cat, p_cat = ([d.with_spans([Span(sp.start, sp.end, cat, cat) for sp in d.spans if sp.category == cat])
                         for d in docs] for docs in (gold, pred))
        typed = evaluate(g_cat, p_cat).micro["binary_token"]
        covered = evaluate(only, pred).micro["binary_token"]
        out["categories"][cat] = {"precision": typed.precision, "recall": typed.recall, "f1": typed.f1,
                                  "covered": covered.recall, "gold_tokens": covered.tp + covered.fn}
    return out


def score_system(system, gold, thresholds=()) -> dict:
    """Tag ``gold`` (documents) with ``system`` as configured and at each threshold; figures of each.

    Returns ``{"as configured": figures, "thresholds": [{"o_threshold": t, **figures}]}`` and,
    under ``"predictions"``, the documents tagged as configured.
    """
    pred = list(system.tag_many(gold))
    out: dict = {"as configured": figures(gold, pred), "thresholds": [], "predictions": pred}
    for t in thresholds:
        out["thresholds"].append({"o_threshold": t, **figures(gold, list(system.tag_many(gold, o_threshold=t)))})
    return out


def _pct(x: float) -> str:
    return f"{x:.3f}"


def render_sweep(run: dict) -> str:
    """The decoding sweep of one scored copy as a markdown table."""
    def row(label, f):
        b = f["binary_token"]
        return [label, _pct(b["precision"]), _pct(b["recall"]), _pct(b["f1"]),
                _pct(f["leak"]["fully_removed"]), _pct(f["strict"]["f1"]), _pct(f["relaxed"]["f1"]),
                _pct(f["parent_strict"]["f1"])]
    rows = [row("as configured", run["as configured"])]
    rows += [row(threshold_label(t["o_threshold"]), t) for t in run["thresholds"]]
    return markdown_table(["decoding", "bin-token P", "bin-token R", "bin-token F1", "PHI fully removed",
                           "strict F1", "relaxed F1", "parent strict F1"], rows)


def render_categories(run: dict) -> str:
    """Per parent category at the configured decoding: its token P/R/F and gold tokens covered."""
    cats = run["as configured"]["categories"]
    rows = [[c, v["gold_tokens"], _pct(v["precision"]), _pct(v["recall"]), _pct(v["f1"]), _pct(v["covered"])]
            for c, v in cats.items()]
    return markdown_table(["category", "gold tokens", "token P", "token R", "token F1",
                           "covered by any span"], rows)


def render(result: dict) -> str:
    """The whole result as markdown: sizes, then per scored copy the sweep and the categories."""
    s = result["sizes"]
    parts = [f"Locked test: {s['test_documents']} notes of {s['test_patients']} patients "
             f"({result['locked']}); system: {result['system']}"
             + (f", trained on {s['train_documents']} notes of {s['train_patients']} development patients"
                if result["system"] == "trained" else "") + "."]
    for name, run in result["runs"].items():
        parts += ["", f"### {name}", "", render_sweep(run), "",
                  "Per parent category (as configured):", "", render_categories(run)]
    return "\n".join(parts) + "\n"


def parse_also(text: str) -> tuple[str, str]:
    """``"unknown=i2b2:DIR"`` -> ``("unknown", "i2b2:DIR")``."""
    name, sep, spec = text.partition("=")
    if not sep or not name or not spec or name == "original":
        raise argparse.ArgumentTypeError(f"--also wants NAME=FORMAT:PATH (NAME not 'original'), got {text!r}")
    return name, spec


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("locked", __doc__,
                   "python -m crfdeid locked --config configs/physionet.yaml --locked "
                   "configs/splits/physionet-locked.txt --o-thresholds none,0.9,0.98 --out results/locked")
    p.add_argument("--config", required=True, help="config YAML (its `train` inputs hold both parts)")
    p.add_argument("--locked", required=True, metavar="FILE", help="the locked test patients, one per line")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="corpus to split instead of the config's `train` (repeatable)")
    system = p.add_mutually_exclusive_group()
    system.add_argument("--model", metavar="PATH",
                        help="score this trained model instead of training ('default': the shipped one)")
    system.add_argument("--rules-only", action="store_true", help="score the rule overlay alone")
    p.add_argument("--o-thresholds", type=cli.parse_thresholds, default=(),
                   help="O-marginal thresholds to sweep, e.g. none,0.9,0.98 (none = plain Viterbi)")
    p.add_argument("--also", type=parse_also, action="append", default=[], metavar="NAME=FORMAT:PATH",
                   help="also score another copy of the locked notes (matched by document id), "
                        "e.g. unknown=i2b2:stress/unknown (repeatable)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="write locked.md, locked.json and the predictions (i2b2) here")
    p.add_argument("--save-model", metavar="PATH", help="also save the model trained here")
    cli.add_reader_options(p, inputs="the corpus and --also copies")
    p.add_argument("--quiet", action="store_true", help="no table on stdout")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from ..config import load_config
    from ..io import read_all, write

    started = provenance()
    t0 = time.perf_counter()
    try:
        config = load_config(args.config)
        specs = args.train or config.get("train") or []
        if not specs:
            raise ConfigError("no `train` inputs; give --train FORMAT:PATH", path=args.config)
        locked = read_groups(args.locked)
        options = cli.reader_options(args.reader_option)
        docs = read_all(specs, **options)
        dev, test = select_groups(docs, locked, keep=False), select_groups(docs, locked, keep=True)
        if not test:
            raise ConfigError("no document of the corpus belongs to a locked patient", path=args.locked)
        copies = {"original": test}
        for name, spec in args.also:
            ids = {d.doc_id for d in test}
            got = [d for d in read_all([spec], **options) if d.doc_id in ids]
            if len(got) != len(test):
                raise ConfigError(f"--also {name}: {len(got)} of the {len(test)} locked notes found", path=spec)
            copies[name] = got
        system: Any
        if args.rules_only:
            system, kind = RulesOnly(), "rules"
        elif args.model:
            from ..crf import Model
            system, kind = Model.load(args.model), "model"
        else:
            from ..crf import train_model
            if not args.quiet:
                print(f"training on {len(dev)} development notes ({len({d.group for d in dev})} patients)",
                      file=sys.stderr)
            system, kind = train_model(dev, config), "trained"
            if args.save_model:
                system.save(args.save_model)
        thresholds = () if args.rules_only else args.o_thresholds
        runs = {name: score_system(system, gold, thresholds) for name, gold in copies.items()}
    except CrfdeidError as exc:
        print(f"locked: error: {exc}", file=sys.stderr)
        return 1
    predictions = {name: run.pop("predictions") for name, run in runs.items()}
    result = {"config": args.config, "locked": args.locked, "inputs": list(specs), "system": kind,
              "model": args.model, **started, "seconds": round(time.perf_counter() - t0, 1),
              "sizes": {"train_documents": len(dev), "train_patients": len({d.group for d in dev}),
                        "test_documents": len(test), "test_patients": len({d.group for d in test})},
              "runs": runs, "resolved_config": config if kind == "trained" else None}
    text = render(result)
    if not args.quiet:
        sys.stdout.write(text)
    write_files(args.out, {"locked.md": text, "locked.json": to_json(result)})
    for name, pred in predictions.items():
        write(pred, "i2b2", Path(args.out) / "predictions" / name, overwrite=True)  # its own results
    return 0


if __name__ == "__main__":
    from crfdeid.experiments.locked import main as _main
    sys.exit(_main())
