"""The rule ledger (docs/rules.md): each post-CRF rule's figures with and without it, by one switch at a time.

``python -m crfdeid experiments rule-ledger`` loads the model once, tags every note once (the CRF's
labels of a note are computed once and reused: only the post-CRF chain runs again) and then, for
the baseline and for each named unit switched off, scores

* every set of made-up notes named (:mod:`.madeup_outputs`, redacted output, site mining off):
  identifiers left, identifier tokens left, phrases changed, false spans;
* an annotated corpus (the PhysioNet development notes less the locked patients): binary token
  recall and precision and each category's recall (:mod:`.zeroshot`).

A unit is switched off for the measurement only (restored after): a chain step left out, a rule of
the rule table or a form of a Safe Harbor module's table taken out, a pattern of :mod:`.phrases`
that matches nothing, or a function of the chain replaced by one that finds nothing, keeps the
span as it is or gives no reason. :data:`UNITS` names them. Counts and figures only, no note text.
The units of :data:`HELD_BACK` rest on other evidence too: the leak regression tests need them (their
lines say so), whatever the figures here.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..document import Document
from ..recognizers import chain as chain_module
from ..recognizers import phrases, rules, values
from ..tagging.session import SPANS, Session
from . import casings, madeup, madeup_outputs, zeroshot

_NEVER = re.compile(r"(?!)")


def _no_reason(*_a, **_k):
    return None


def _no(*_a, **_k):
    return False


def _nothing(*_a, **_k):
    return []


def _spans_as_given(_text, spans, *_a, **_k):
    return list(spans)


def _span_alone(_text, sp):
    return [sp]


def _span_as_given(_text, sp):
    return sp


#: What a patched function becomes.
REPLACEMENTS: dict[str, Callable] = {"none": _no_reason, "false": _no, "empty": _nothing, "spans": _spans_as_given,
                "alone": _span_alone, "same": _span_as_given}

_M = "crfdeid.recognizers."


#: Units kept whatever the sets and the corpus above say: the leak regression tests (identifiers found in
#: earlier held-back rounds: clinician queries, newcomer notes, planted PHI) need them, held-back evidence
#: too (issue 58: no regression). Unit -> the case that needs it (docs/rules.md, tests/test_rule_ledger.py).
HELD_BACK = {
    "rule title_doctor": "'Seen by Dr. Lee' with a model of few notes (tests/test_bench.py, .ci/run step 1)",
    "rule date_numeric": "a full numeric date (tests/test_provenance.py, tests/test_locked.py rules-only DATE)",
    "rule sign_off": "'-- ann, front desk' (tests/test_first_run_notes.py)",
    "rule street_named": "'walgreens on main st' (tests/test_first_run_notes.py)",
    "rule name_particle": "'Pt Abdulrahman bin Khalid Al-Qahtani' (tests/test_site.py)",
    "rule hospital_acronym": "'dr o'brien @ mgh' (tests/test_site.py)",
    "rule title_doctor_lower": "'pcp dr o'brien @ mgh' (tests/test_rules.py, issue 26's leaks; diet15)",
    "rule state_name": "'moved from ohio', 'NEW YORK native' (tests/test_leaks.py)",
    "rules states after cities": "'Springfield, Mass.', 'keene, nh' (tests/test_leaks.py)",
    "names plain name words": "'Pt Jane Doe', 'Margaret O'Connell' (tests/test_first_run_notes.py)",
}


def _units() -> dict[str, tuple]:
    """Unit name -> ``(kind, *target)``: ``("step", name)``, ``("rule", name)``, ``("form", module,
    table, key)``, ``("phrase", key)`` or ``("patch", module, function, replacement)``."""
    units: dict[str, tuple] = {}
    for step in ("clinical_filter.v1", "rules.v1", "name_extension.v1", "junk_spans.v1", "young_ages.v1",
                 "trim_punctuation.v1"):
        units[f"step {step}"] = ("step", step)
    for name in rules.RULES:
        units[f"rule {name}"] = ("rule", name)
    patches = {
        # rules.v1 and name_extension.v1 beyond the rule table
        "rules date check": ("rules", "impossible_date", "false"),
        "rules states after cities": ("rules", "states_after_cities", "spans"),
        "names plain name words": ("rules", "_plain_name_words", "empty"),
        "names extension (all)": ("rules", "extend_names", "spans"),
        "names joints": ("joints", "join_names", "spans"),
        # the clinical filter's reasons
        "clinical terms (all but values)": ("clinical", "why_clinical", "values"),
        "values (all reasons)": ("values", "why_value", "none"),
        "values score": ("values", "_score", "false"),
        "values grade": ("values", "_grade", "false"),
        "values setting": ("values", "_setting", "false"),
        "values clock": ("values", "_clock", "false"),
        "values age": ("values", "_age", "false"),
        "values duration": ("values", "_duration", "false"),
        "values heading": ("values", "_heading", "false"),
        "values role": ("values", "_role", "false"),
        "values label cut": ("values", "without_label", "same"),
        "fields parts": ("fields", "parts", "alone"),
        "fields narrowed": ("fields", "narrowed", "same"),
        "fields heading line": ("fields", "heading_line", "false"),
        "fields caps heading": ("fields", "caps_heading", "false"),
        "fields label before colon": ("fields", "label_before_colon", "false"),
        "fields service role": ("fields", "service_role", "false"),
        "fields specialty": ("fields", "specialty", "false"),
        "fields clock after heading": ("fields", "clock_after_heading", "false"),
        "bedside words": ("bedside", "why_words", "none"),
        # the Safe Harbor layer's modules beside its own forms, and the places after it
        "fixedforms (all)": ("fixedforms", "matches", "empty"),
        "contextforms (all)": ("contextforms", "matches", "empty"),
        "dateforms (all)": ("dateforms", "matches", "empty"),
        "postcodes (all)": ("postcodes", "matches", "empty"),
        "phones libphonenumber": ("phones", "matches", "empty"),
        "phones cued": ("phones", "cued", "empty"),
        "phrases (all found)": ("phrases", "find", "empty"),
        "phrases grow": ("phrases", "_grow", "same"),
        "phrases join adjacent": ("phrases", "join_adjacent", "spans"),
        "phrases foreign streets": ("phrases", "_foreign_streets", "empty"),
        "phrases cues": ("phrases", "_after_cues", "empty"),
        "addresses (all)": ("addresses", "apply", "spans"),
    }
    for name, (module, func, how) in patches.items():
        if hasattr(importlib.import_module(_M + module), func):  # a removed rule leaves the ledger
            units[name] = ("patch", module, func, how)
    for module in ("fixedforms", "contextforms"):
        for key in importlib.import_module(_M + module).FORMS:
            units[f"{module} {key}"] = ("form", module, "FORMS", key)
    for key in phrases._patterns():
        if key not in ("before", "hyphen", "grow", "grow_low"):  # helpers of _grow and join_adjacent
            units[f"phrases {key}"] = ("phrase", key)
    return units


@contextlib.contextmanager
def switched_off(unit: tuple) -> Iterator[None]:
    """The chain without ``unit`` (a value of :func:`_units`) while the block runs."""
    kind, *target = unit
    if kind == "step":
        run = chain_module.Chain.run

        def without(self, note, spans, trace=None):
            return run(chain_module.Chain([s for s in self.steps if s[0] != target[0]]), note, spans, trace)
        chain_module.Chain.run = without  # type: ignore[method-assign]
        try:
            yield
        finally:
            chain_module.Chain.run = run  # type: ignore[method-assign]
        return
    if kind == "rule":
        saved = dict(rules.RULES)
        del rules.RULES[target[0]]
        rules._plan.cache_clear()
        try:
            yield
        finally:
            rules.RULES.clear()
            rules.RULES.update(saved)
            rules._plan.cache_clear()
        return
    if kind == "form":
        table = getattr(importlib.import_module(_M + target[0]), target[1])
        saved = dict(table)
        del table[target[2]]
        try:
            yield
        finally:
            table.clear()
            table.update(saved)
        return
    if kind == "phrase":
        p = phrases._patterns()
        was = p[target[0]]
        p[target[0]] = _NEVER  # type: ignore[assignment]
        try:
            yield
        finally:
            p[target[0]] = was
        return
    module = importlib.import_module(_M + target[0])
    was = getattr(module, target[1])
    if target[2] == "values":
        setattr(module, target[1], values.why_value)
    else:
        setattr(module, target[1], REPLACEMENTS[target[2]])
    try:
        yield
    finally:
        setattr(module, target[1], was)


def _remember_labels(model) -> None:
    """The model's CRF labels of a note computed once (keyed by the note's text and the threshold)."""
    label, item = model._label, model._item
    memo: dict = {}

    def remembered(items, o_threshold, want_marginals=False):
        key = (tuple(it[0] for it in items), repr(o_threshold), want_marginals)
        if key not in memo:
            memo[key] = label(items, o_threshold, want_marginals)
        return memo[key]
    model._label = remembered
    model._item = functools.lru_cache(maxsize=None)(item)


def _sets_figures(sets: dict[str, list[Document]], model, casing_names=("as-written",),
                  outputs=("redacted",)) -> dict:
    """Each set's figures per casing and output, keyed ``SET`` (as written, redacted) or ``SET CASING OUTPUT``."""
    out = {}
    for name, gold in sets.items():
        for casing in casing_names:
            runs = madeup_outputs.run(casings.recased(gold, casing), model, mining=[False],
                                      outputs=list(outputs))["runs"]["mining off"]
            for fmt, r in runs.items():
                key = name if (casing, fmt) == ("as-written", "redacted") else f"{name} {casing} {fmt}"
                out[key] = {k: r[k] for k in ("identifiers_left", "identifier_tokens_left", "identifiers_left_in_spans",
                                              "phrases_changed", "falsified", "values_changed", "false_spans")}
                out[key]["identifiers_left_by_subtype"] = r["identifiers_left_by_subtype"]
    return out


def _corpus_figures(docs: list[Document], model) -> dict:
    blank = [Document(d.doc_id, d.text, [], dict(d.meta)) for d in docs]
    pred = list(model.tag_many(blank))
    f = zeroshot.figures(docs, pred)
    return {k: f[k] for k in ("precision", "recall", "tp", "fp", "fn", "covered")}


def run(unit_names: list[str], sets: dict[str, str | Path], corpus: list[Document] | None, model=None,
        progress=None, casing_names=("as-written",), outputs=("redacted",)) -> dict:
    """``{"units": {name: spec}, "sets": {name: gold counts}, "runs": {"baseline" or unit: figures}}``.

    ``sets``: set name -> made-up notes file; ``corpus``: annotated notes (None: none);
    ``model``: a model file (None: the shipped model); ``casing_names`` and ``outputs``: each set scored
    in these casings (:mod:`.casings`) and outputs (diet14: three casings, redacted and surrogate)."""
    m = Session(model, SPANS).model
    _remember_labels(m)
    units = _units()
    unknown = [u for u in unit_names if u not in units]
    if unknown:
        raise ValueError(f"unknown unit(s) {', '.join(unknown)}; known: {', '.join(units)}")
    gold = {name: madeup.read_notes(path) for name, path in sets.items()}
    res: dict = {"units": {u: list(units[u]) for u in unit_names},
                 "sets": {k: madeup_outputs.gold_counts(v) for k, v in gold.items()}, "runs": {}}
    for name in ["baseline", *unit_names]:
        t0 = time.process_time()
        with switched_off(units[name]) if name != "baseline" else contextlib.nullcontext():
            fig: dict = {"sets": _sets_figures(gold, m, casing_names, outputs)}
            if corpus is not None:
                fig["corpus"] = _corpus_figures(corpus, m)
        fig["cpu_seconds"] = round(time.process_time() - t0, 2)
        res["runs"][name] = fig
        if progress is not None:
            progress(name, fig)
    return res


def line(name: str, fig: dict, base: dict | None = None) -> str:
    """One line of a run's figures (identifiers left per set, the corpus's recall): no text."""
    parts = []
    for s, f in fig["sets"].items():
        d = "" if base is None else f"{f['identifiers_left'] - base['sets'][s]['identifiers_left']:+d}"
        parts.append(f"{s} {f['identifiers_left']}{d}/{f['phrases_changed']}")
    if "corpus" in fig:
        c = fig["corpus"]
        parts.append(f"corpus R {c['recall']:.4f} P {c['precision']:.4f}")
    kept = "  [kept: the leak regression tests need it]" if name in HELD_BACK else ""
    return f"{name:40s} " + "  ".join(parts) + kept


def known_units() -> list[str]:
    """Every unit's name, in the ledger's order."""
    return list(_units())
