"""``evaluate(gold_docs, pred_docs)``: every figure of the official i2b2 2014 tables in one report."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .. import schema
from .keys import restrict
from .leak import Leak
from .metrics import CATEGORY_HIPAA_METRICS, CATEGORY_METRICS, METRICS, TYPED_METRICS, Accumulator, Counts
from .pairing import ScoringError, pair


@dataclass
class Report:
    """Scores of a system against gold, over the documents both sides have.

    Attributes
    ----------
    micro, macro : dict
        Metric name (see :data:`~crfdeid.scoring.metrics.METRICS`) -> :class:`Scores`; the
        HIPAA metrics only when the scheme has HIPAA labels.
    by_category, by_category_macro : dict
        Parent category -> ``{"strict"|"relaxed"|"token"|"parent_strict": Scores}`` (micro, macro),
        plus ``"hipaa_token"`` and ``"hipaa_strict"`` for a category with HIPAA labels.
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
    scheme: str = "i2b2-2014"

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
            "scheme": self.scheme,
            "include_idnum": self.include_idnum,
            "filter": self.filter,
            "micro": block(self.micro),
            "macro": block(self.macro),
            "by_category": {c: {"micro": block(v), "macro": block(self.by_category_macro[c])}
                            for c, v in self.by_category.items()},
            "by_subtype": {s: block(v) for s, v in self.by_subtype.items()},
            "leak": self.leak.as_dict(),
        }


def check_filter(names: Iterable[str] | None, scheme=None) -> frozenset | None:
    """Upper-cased category/subtype names to keep; :class:`ScoringError` lists the known ones."""
    if not names:
        return None
    scheme = scheme or schema.DEFAULT
    wanted = frozenset(n.upper() for n in names)
    known = list(scheme.categories) + list(scheme.subtypes)
    unknown = sorted(wanted - {k.upper() for k in known})
    if unknown:
        raise ScoringError(f"unknown category or subtype in filter: {', '.join(unknown)}; known: "
                           f"{', '.join(known)}")
    return wanted


def evaluate(gold_docs: Iterable, pred_docs: Iterable, include_idnum: bool = False,
             filter: Iterable[str] | None = None, check_text: bool = True, scheme=None) -> Report:
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
    scheme : Scheme, optional
        The label scheme: its categories and labels make the tables (in its order), its HIPAA
        labels the HIPAA view, which is left out when it has none. By default the scheme of the
        labels of gold and system together, as the ``evaluate`` and ``pipeline`` commands score
        (:func:`crfdeid.schema.settle`): i2b2 2014 when every label is an i2b2 label, else the
        documents' own labels.
        Token metrics count ASCII letter/digit runs under i2b2 (the official script) and
        runs in any script under another scheme (``token.v2``).

    Examples
    --------
    >>> from crfdeid.document import Document, make_span
    >>> gold = [Document("1", "Seen by Dr Smith on 5/6.", [make_span(11, 16, "DOCTOR")])]
    >>> pred = [Document("1", "Seen by Dr Smith on 5/6.", [make_span(11, 17, "DOCTOR")])]
    >>> r = evaluate(gold, pred)
    >>> r.micro["strict"].f1, r.micro["relaxed"].f1, r.micro["token"].f1
    (0.0, 1.0, 1.0)
    """
    if scheme is None:
        (gold_docs, pred_docs), scheme = schema.settle([gold_docs, pred_docs])
    keep = check_filter(filter, scheme)
    pairing = pair(gold_docs, pred_docs, check_text=check_text)
    views = [(g.doc_id, g.text, restrict(g.spans, categories=keep), restrict(p.spans, categories=keep))
             for g, p in pairing.pairs]
    cat_name, sub_name = _namers(scheme)
    # Every scored document counts in each category's macro average, even without it.
    categories = _scheme_order(
        ({cat_name(sp.category) for _, _, gold, system in views for sp in gold + system}
         | (set(_main_categories(scheme)) if keep is None else set())),
        list(scheme.categories))
    # i2b2: the official script's ASCII token runs; another scheme: runs in any script (token.v2).
    named = {n: replace(m, strategy="token.v2") if scheme is not schema.I2B2 and m.strategy == "token.v1"
             else m for n, m in METRICS.items()}
    metrics = [m for m in named.values() if scheme.has_hipaa or not m.hipaa]
    # The HIPAA view of a category, where it has HIPAA labels (the official script's --filter blocks).
    hipaa = {sub.upper() for sub in scheme.hipaa_subtypes(include_idnum)}
    hipaa_cats = {c for c in categories if any(s.upper() in hipaa for s in scheme.categories.get(c, ()))}
    per_metric: defaultdict[str, Accumulator] = defaultdict(Accumulator)
    per_cat: defaultdict[str, defaultdict[str, Accumulator]] = defaultdict(lambda: defaultdict(Accumulator))
    per_sub: defaultdict[str, defaultdict[str, Counts]] = defaultdict(lambda: defaultdict(Counts))
    leak = Leak()
    for _, text, gold, system in views:
        for m in metrics:
            gv = restrict(gold, True, include_idnum, scheme=scheme) if m.hipaa else gold
            sv = restrict(system, True, include_idnum, scheme=scheme) if m.hipaa else system
            per_metric[m.name].add(m.count(gv, sv, text))
        leak += Leak.of_document(gold, system, text)
        g_cat, s_cat = _group(gold, "category", cat_name), _group(system, "category", cat_name)
        g_sub, s_sub = _group(gold, "subtype", sub_name), _group(system, "subtype", sub_name)
        for cat in categories:
            gc, sc = g_cat.get(cat, ()), s_cat.get(cat, ())
            for name in CATEGORY_METRICS:
                per_cat[cat][name].add(named[name].count(gc, sc, text))
            if cat in hipaa_cats:
                gh = restrict(gc, True, include_idnum, scheme=scheme)
                sh = restrict(sc, True, include_idnum, scheme=scheme)
                for name in CATEGORY_HIPAA_METRICS:
                    per_cat[cat][name].add(named[name].count(gh, sh, text))
        for name in TYPED_METRICS:
            m = named[name]
            for sub in set(g_sub) | set(s_sub):
                per_sub[sub][name] += m.count(g_sub.get(sub, ()), s_sub.get(sub, ()), text)

    def cat_metrics(c):
        return CATEGORY_METRICS + (CATEGORY_HIPAA_METRICS if c in hipaa_cats else ())
    return Report(
        micro={m.name: per_metric[m.name].micro() for m in metrics},
        macro={m.name: per_metric[m.name].macro() for m in metrics},
        by_category={c: {n: per_cat[c][n].micro() for n in cat_metrics(c)} for c in categories},
        by_category_macro={c: {n: per_cat[c][n].macro() for n in cat_metrics(c)} for c in categories},
        by_subtype={s: {n: Accumulator([per_sub[s][n]]).micro() for n in TYPED_METRICS}
                    for s in _scheme_order(per_sub, list(scheme.subtypes))},
        leak=leak,
        doc_ids=[doc_id for doc_id, *_ in views],
        missing_in_pred=pairing.missing_in_pred,
        missing_in_gold=pairing.missing_in_gold,
        include_idnum=include_idnum,
        filter=sorted(keep) if keep else None,
        scheme=scheme.name,
    )


def _main_categories(scheme) -> list:
    """The categories every report lists: i2b2's without its extension (``OTHER``), a declared
    scheme's all."""
    return list(schema.I2B2_CATEGORIES) if scheme is schema.I2B2 else list(scheme.categories)


def _namers(scheme):
    """How categories and labels are named in the report: the scheme's spelling, else upper case."""
    def cat_name(name: str) -> str:
        return scheme.category(name) or name.upper()

    def sub_name(name: str) -> str:
        lab = scheme.label(name)
        return lab.name if lab is not None else name.upper()
    return cat_name, sub_name


def _group(spans, attr: str, name) -> dict:
    out = defaultdict(list)
    for sp in spans:
        out[name(getattr(sp, attr))].append(sp)
    return out


def _scheme_order(names, scheme: list) -> list:
    order = {s: i for i, s in enumerate(scheme)}
    return sorted(names, key=lambda s: (order.get(s, len(order)), s))
