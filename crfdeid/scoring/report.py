"""``evaluate(gold_docs, pred_docs)``: every figure of the official i2b2 2014 tables in one report."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from .. import schema
from .keys import restrict
from .leak import Leak
from .metrics import CATEGORY_METRICS, METRICS, TYPED_METRICS, Accumulator, Counts
from .pairing import ScoringError, pair


@dataclass
class Report:
    """Scores of a system against gold, over the documents both sides have.

    Attributes
    ----------
    micro, macro : dict
        Metric name (see :data:`~crfdeid.scoring.metrics.METRICS`) -> :class:`Scores`.
    by_category, by_category_macro : dict
        Parent category -> ``{"strict"|"relaxed"|"token"|"parent_strict": Scores}`` (micro, macro).
    by_subtype : dict
        Subtype -> ``{"strict"|"relaxed"|"token": Scores}`` (micro); ``tp + fn`` is the
        gold count, ``tp_sys + fp`` the system count, ``tp`` the agreements.
    leak : Leak
        Share of gold PHI fully covered by predicted spans, leaked characters.
    doc_ids, missing_in_pred, missing_in_gold : list
        Scored documents; gold documents without a prediction; predictions without gold.
    """

    micro: dict = field(default_factory=dict)
    macro: dict = field(default_factory=dict)
    by_category: dict = field(default_factory=dict)
    by_category_macro: dict = field(default_factory=dict)
    by_subtype: dict = field(default_factory=dict)
    leak: Leak = field(default_factory=Leak)
    doc_ids: list = field(default_factory=list)
    missing_in_pred: list = field(default_factory=list)
    missing_in_gold: list = field(default_factory=list)
    include_idnum: bool = False
    filter: list | None = None

    @property
    def docs(self) -> int:
        """Number of documents scored."""
        return len(self.doc_ids)

    def to_dict(self) -> dict:
        """A JSON-able dictionary of every figure (ids of unpaired documents included)."""
        def block(d):
            return {k: v.as_dict() for k, v in d.items()}
        return {
            "documents": {"scored": self.docs, "missing_in_pred": list(self.missing_in_pred),
                          "missing_in_gold": list(self.missing_in_gold)},
            "include_idnum": self.include_idnum,
            "filter": self.filter,
            "micro": block(self.micro),
            "macro": block(self.macro),
            "by_category": {c: {"micro": block(v), "macro": block(self.by_category_macro[c])}
                            for c, v in self.by_category.items()},
            "by_subtype": {s: block(v) for s, v in self.by_subtype.items()},
            "leak": self.leak.as_dict(),
        }


def check_filter(names: Iterable[str] | None) -> frozenset | None:
    """Upper-cased category/subtype names to keep; :class:`ScoringError` lists the known ones."""
    if not names:
        return None
    wanted = frozenset(n.upper() for n in names)
    unknown = sorted(wanted - set(schema.CATEGORIES) - set(schema.SUBTYPE_TO_PARENT))
    if unknown:
        raise ScoringError(f"unknown category or subtype in filter: {', '.join(unknown)}; known: "
                           f"{', '.join(list(schema.CATEGORIES) + list(schema.SUBTYPE_TO_PARENT))}")
    return wanted


def evaluate(gold_docs: Iterable, pred_docs: Iterable, include_idnum: bool = False,
             filter: Iterable[str] | None = None, check_text: bool = True) -> Report:
    """Score system documents against gold ones as the official i2b2 2014 script does.

    Parameters
    ----------
    gold_docs, pred_docs : iterable of Document
        Matched by ``doc_id``; only documents on both sides are scored, the
        others are listed in the report.
    include_idnum : bool
        Count IDNUM as HIPAA (the official script leaves it out).
    filter : iterable of str, optional
        Parent categories and/or subtypes to keep on both sides (others ignored).
    check_text : bool
        Refuse paired documents whose texts differ (offsets would not be comparable).

    Examples
    --------
    >>> from crfdeid.document import Document, make_span
    >>> gold = [Document("1", "Seen by Dr Smith on 5/6.", [make_span(11, 16, "DOCTOR")])]
    >>> pred = [Document("1", "Seen by Dr Smith on 5/6.", [make_span(11, 17, "DOCTOR")])]
    >>> r = evaluate(gold, pred)
    >>> r.micro["strict"].f1, r.micro["relaxed"].f1, r.micro["token"].f1
    (0.0, 1.0, 1.0)
    """
    keep = check_filter(filter)
    pairing = pair(gold_docs, pred_docs, check_text=check_text)
    views = [(g.doc_id, g.text, restrict(g.spans, categories=keep), restrict(p.spans, categories=keep))
             for g, p in pairing.pairs]
    # Every scored document counts in each category's macro average, even without it.
    categories = _scheme_order(
        ({sp.category.upper() for _, _, gold, system in views for sp in gold + system}
         | (set(schema.I2B2_CATEGORIES) if keep is None else set())),
        list(schema.CATEGORIES))
    per_metric = defaultdict(Accumulator)
    per_cat = defaultdict(lambda: defaultdict(Accumulator))
    per_sub = defaultdict(lambda: defaultdict(Counts))
    leak = Leak()
    for _, text, gold, system in views:
        for m in METRICS.values():
            gv = restrict(gold, hipaa=True, include_idnum=include_idnum) if m.hipaa else gold
            sv = restrict(system, hipaa=True, include_idnum=include_idnum) if m.hipaa else system
            per_metric[m.name].add(m.count(gv, sv, text))
        leak += Leak.of_document(gold, system, text)
        g_cat, s_cat = _group(gold, "category"), _group(system, "category")
        g_sub, s_sub = _group(gold, "subtype"), _group(system, "subtype")
        for name in CATEGORY_METRICS:
            m = METRICS[name]
            for cat in categories:
                per_cat[cat][name].add(m.count(g_cat.get(cat, ()), s_cat.get(cat, ()), text))
        for name in TYPED_METRICS:
            m = METRICS[name]
            for sub in set(g_sub) | set(s_sub):
                per_sub[sub][name] += m.count(g_sub.get(sub, ()), s_sub.get(sub, ()), text)
    return Report(
        micro={n: per_metric[n].micro() for n in METRICS},
        macro={n: per_metric[n].macro() for n in METRICS},
        by_category={c: {n: per_cat[c][n].micro() for n in CATEGORY_METRICS} for c in categories},
        by_category_macro={c: {n: per_cat[c][n].macro() for n in CATEGORY_METRICS} for c in categories},
        by_subtype={s: {n: Accumulator([per_sub[s][n]]).micro() for n in TYPED_METRICS}
                    for s in _scheme_order(per_sub, list(schema.SUBTYPE_TO_PARENT))},
        leak=leak,
        doc_ids=[doc_id for doc_id, *_ in views],
        missing_in_pred=pairing.missing_in_pred,
        missing_in_gold=pairing.missing_in_gold,
        include_idnum=include_idnum,
        filter=sorted(keep) if keep else None,
    )


def _group(spans, attr: str) -> dict:
    out = defaultdict(list)
    for sp in spans:
        out[getattr(sp, attr).upper()].append(sp)
    return out


def _scheme_order(names, scheme: list) -> list:
    order = {s: i for i, s in enumerate(scheme)}
    return sorted(names, key=lambda s: (order.get(s, len(order)), s))
