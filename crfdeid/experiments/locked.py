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

from ..document import Span
from ..recognizers.rules import overlay, prepare
from ..scoring import evaluate
from .crossval import CATEGORIES, summarize, threshold_label
from .results import markdown_table

#: What the locked command can score: a config trained here, a saved model, the rules alone.
SYSTEMS = ("trained", "model", "rules")


class RulesOnly:
    """The rule overlay without a CRF (``overlay`` of no CRF span): a baseline 'system'."""

    def tag_many(self, docs, o_threshold=None):
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
