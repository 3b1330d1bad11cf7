"""Named scoring strategies, the metrics built from them, and micro/macro averaging.

A *strategy* (registered under a versioned name in :data:`STRATEGIES`) turns
the gold and system spans of one document into :class:`Counts`. A *metric*
(:data:`METRICS`) is a strategy plus a view: binary (offsets only) and/or
restricted to the HIPAA subtypes.

Relaxed matching is many-to-many, as in the official script whose fuzzy
equality (same parent, start and subtype, ends at most 2 apart) drives set
operations: a gold key counts as found when *some* system key matches it
(recall), a system key counts as correct when it matches *some* gold key
(precision). So ``tp`` (gold side) and ``tp_sys`` (system side) may differ
for relaxed scores; they are equal for strict and token scores.

>>> c = Counts(tp=3, fp=1, fn=2)
>>> s = Scores.micro([c])
>>> round(s.precision, 4), round(s.recall, 4), round(s.f1, 4)
(0.75, 0.6, 0.6667)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ..registry import Registry
from .keys import TOKEN_RUN_ANY, span_key, token_keys

STRATEGIES = Registry("scoring strategy")

#: End offsets may differ by at most this many characters in relaxed matching.
RELAXED_END_SLACK = 2


@dataclass(frozen=True, slots=True)
class Counts:
    """Match counts of one document (or pooled): ``tp`` gold side, ``tp_sys`` system side."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tp_sys: int | None = None

    def __post_init__(self):
        if self.tp_sys is None:
            object.__setattr__(self, "tp_sys", self.tp)

    def __add__(self, other: Counts) -> Counts:
        assert self.tp_sys is not None and other.tp_sys is not None  # set by __post_init__
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn,
                      self.tp_sys + other.tp_sys)

    @property
    def gold(self) -> int:
        """Distinct gold items."""
        return self.tp + self.fn

    @property
    def system(self) -> int:
        """Distinct system items."""
        assert self.tp_sys is not None
        return self.tp_sys + self.fp

    @property
    def precision(self) -> float:
        assert self.tp_sys is not None
        return _ratio(self.tp_sys, self.system)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.gold)


def _ratio(num: int, den: int) -> float:
    # The official script answers 0.0 to a zero division (no gold, or no system items).
    return num / den if den else 0.0


def f_measure(precision: float, recall: float, beta: float = 1.0) -> float:
    """F-beta of a precision and a recall; 0.0 when both are 0."""
    b2 = beta * beta
    den = b2 * precision + recall
    return (1 + b2) * precision * recall / den if den else 0.0


@dataclass(frozen=True, slots=True)
class Scores:
    """Precision, recall and F1 with the pooled counts behind them.

    For macro scores ``precision_sd``/``recall_sd`` hold the (population)
    standard deviations of the per-document values and ``docs`` their number.
    """

    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    tp_sys: int
    precision_sd: float | None = None
    recall_sd: float | None = None
    docs: int | None = None

    @classmethod
    def micro(cls, per_doc: Iterable[Counts]) -> Scores:
        """Scores of the pooled counts (the official "primary" figures)."""
        return Accumulator(per_doc).micro()

    @classmethod
    def macro(cls, per_doc: Iterable[Counts]) -> Scores:
        """Mean per-document precision and recall; F1 from those means.

        A document with neither gold nor system items counts 0 for both, as
        in the official script.
        """
        return Accumulator(per_doc).macro()

    def as_dict(self) -> dict:
        d: dict[str, float | None] = {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                                      "tp": self.tp, "fp": self.fp, "fn": self.fn, "tp_sys": self.tp_sys}
        if self.docs is not None:
            d.update(precision_sd=self.precision_sd, recall_sd=self.recall_sd, docs=self.docs)
        return d


class Accumulator:
    """Running totals of per-document counts: micro and macro scores in constant memory."""

    __slots__ = ("total", "docs", "_p", "_p2", "_r", "_r2")

    def __init__(self, per_doc: Iterable[Counts] = ()):
        self.total = Counts()
        self.docs = 0
        self._p = self._p2 = self._r = self._r2 = 0.0
        for c in per_doc:
            self.add(c)

    def add(self, c: Counts) -> None:
        """Add one document's counts."""
        p, r = c.precision, c.recall
        self.total += c
        self.docs += 1
        self._p += p
        self._p2 += p * p
        self._r += r
        self._r2 += r * r

    def micro(self) -> Scores:
        t = self.total
        p, r = t.precision, t.recall
        assert t.tp_sys is not None
        return Scores(p, r, f_measure(p, r), t.tp, t.fp, t.fn, t.tp_sys)

    def macro(self) -> Scores:
        t, n = self.total, self.docs or 1
        p, r = self._p / n, self._r / n
        # population standard deviation; clamp tiny negative rounding
        p_sd = math.sqrt(max(0.0, self._p2 / n - p * p))
        r_sd = math.sqrt(max(0.0, self._r2 / n - r * r))
        assert t.tp_sys is not None
        return Scores(p, r, f_measure(p, r), t.tp, t.fp, t.fn, t.tp_sys, p_sd, r_sd, self.docs)


# --- strategies -------------------------------------------------------------

def _exact(gold: set, system: set) -> Counts:
    tp = len(gold & system)
    return Counts(tp, len(system) - tp, len(gold) - tp)


@STRATEGIES.register("strict.v1")
def strict(gold_spans, sys_spans, text: str, binary: bool = False, parent: bool = False) -> Counts:
    """All key parts equal (offsets only when ``binary``; no subtype when ``parent``)."""
    return _exact({span_key(s, binary, parent) for s in gold_spans},
                  {span_key(s, binary, parent) for s in sys_spans})


@STRATEGIES.register("token.v1")
def token(gold_spans, sys_spans, text: str, binary: bool = False, parent: bool = False) -> Counts:
    """Items are the ``[A-Za-z0-9]+`` runs inside each annotation, keyed with its type."""
    return _exact({k for s in gold_spans for k in token_keys(s, text, binary, parent)},
                  {k for s in sys_spans for k in token_keys(s, text, binary, parent)})


@STRATEGIES.register("token.v2")
def token_any_script(gold_spans, sys_spans, text: str, binary: bool = False, parent: bool = False) -> Counts:
    """``token.v1`` with runs of letters and digits of any script (:data:`~.keys.TOKEN_RUN_ANY`)."""
    return _exact({k for s in gold_spans for k in token_keys(s, text, binary, parent, TOKEN_RUN_ANY)},
                  {k for s in sys_spans for k in token_keys(s, text, binary, parent, TOKEN_RUN_ANY)})


@STRATEGIES.register("relaxed.v1")
def relaxed(gold_spans, sys_spans, text: str, binary: bool = False, parent: bool = False) -> Counts:
    """Parent, subtype and start equal; ends at most :data:`RELAXED_END_SLACK` apart."""
    gold = {span_key(s, binary, parent) for s in gold_spans}
    system = {span_key(s, binary, parent) for s in sys_spans}
    found = _fuzzy_hits(gold, system)
    correct = _fuzzy_hits(system, gold)
    return Counts(found, len(system) - correct, len(gold) - found, correct)


def _fuzzy_hits(keys: set, others: set) -> int:
    """How many of ``keys`` have a relaxed match among ``others``."""
    ends = defaultdict(list)
    for k in others:
        ends[k[:-1]].append(k[-1])
    return sum(1 for k in keys
               if any(abs(e - k[-1]) <= RELAXED_END_SLACK for e in ends.get(k[:-1], ())))


# --- metrics ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Metric:
    """A named way of scoring: a strategy, optionally binary, parent-category-only and/or HIPAA-only."""

    name: str
    strategy: str
    binary: bool = False
    hipaa: bool = False
    parent: bool = False

    def count(self, gold_spans, sys_spans, text: str) -> Counts:
        """Counts of one document; spans must already be restricted to this metric's view."""
        fn = STRATEGIES.get(self.strategy)
        if self.parent:  # strategies registered elsewhere need not know this view
            return fn(gold_spans, sys_spans, text, binary=self.binary, parent=True)
        return fn(gold_spans, sys_spans, text, binary=self.binary)


#: Every metric of a report, in the order of the official tables.
METRICS = {m.name: m for m in (
    Metric("strict", "strict.v1"),
    Metric("relaxed", "relaxed.v1"),
    Metric("token", "token.v1"),
    Metric("hipaa_strict", "strict.v1", hipaa=True),
    Metric("hipaa_relaxed", "relaxed.v1", hipaa=True),
    Metric("hipaa_token", "token.v1", hipaa=True),
    Metric("binary_strict", "strict.v1", binary=True),
    Metric("binary_token", "token.v1", binary=True),
    Metric("binary_hipaa_strict", "strict.v1", binary=True, hipaa=True),
    Metric("binary_hipaa_token", "token.v1", binary=True, hipaa=True),
    # Parent category, offsets, no subtype: for corpora whose gold has no subtypes within a
    # category (PhysioNet: every place is LOCATION-OTHER) and the "parent-category strict" figure.
    Metric("parent_strict", "strict.v1", parent=True),
)}

#: Metrics of the per-subtype blocks (typed, not HIPAA-restricted).
TYPED_METRICS = ("strict", "relaxed", "token")
#: Metrics of the per-category blocks: the typed ones and the parent-category strict one.
CATEGORY_METRICS = TYPED_METRICS + ("parent_strict",)
#: HIPAA metrics of the per-category blocks, for categories with HIPAA labels: what the official
#: script prints when it scores one category (``--filter``), HIPAA view included.
CATEGORY_HIPAA_METRICS = ("hipaa_token", "hipaa_strict")
