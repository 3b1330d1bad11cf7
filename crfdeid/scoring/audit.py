"""The release audit's statistics: exact binomial bounds, sample sizes and capture-recapture.

Pure functions of counts (no notes, no spans): what :mod:`crfdeid.audit` and ``python -m
crfdeid audit`` compute a privacy officer's figures with. docs/audit.md gives the
references and what the bounds do and do not cover.

* :func:`clopper_pearson`: the exact binomial interval of a proportion (Clopper & Pearson
  1934), and :func:`upper_bound`, its one-sided upper bound; :func:`rule_of_three`, the
  approximation ``3 / n`` when nothing was found (Hanley & Lippman-Hand 1983).
* :func:`sample_size`: how many trials (notes, tokens) a review needs for the upper bound to
  fall below a target when the true rate is the expected one, and :func:`chance_to_meet`,
  the probability that it does.
* :func:`chapman`: the capture-recapture estimate of identifiers that two reviewers both
  missed (Lincoln-Petersen, Chapman 1951, its variance by Seber 1970 and a log-normal
  interval by Chao 1987).

>>> round(upper_bound(0, 100), 4), round(rule_of_three(100), 4)
(0.0295, 0.03)
>>> [round(p, 4) for p in clopper_pearson(5, 20)]
[0.0866, 0.491]
>>> round(chapman(40, 30, 20).total, 2)
59.52
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist

#: Per 10,000 (tokens, PHI tokens): the unit rates are quoted in.
PER = 10_000


def _check(x: int, n: int) -> None:
    if n < 0 or not 0 <= x <= n:
        raise ValueError(f"want 0 <= found <= trials, got {x} of {n}")


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise ValueError(f"a confidence level lies in (0, 1), got {level}")


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; Press et al.,
    Numerical Recipes, 6.4)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b).

    >>> round(betainc(2, 3, 0.4), 6)   # 1 - (1 - x)^3 (1 + 3x) at x = 0.4: 0.5248
    0.5248
    """
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1 - x) / b


def binom_cdf(x: int, n: int, p: float) -> float:
    """P(X <= x) for X ~ Binomial(n, p): ``I_{1-p}(n - x, x + 1)``.

    >>> round(binom_cdf(1, 10, 0.1), 6)
    0.736099
    """
    if x < 0:
        return 0.0
    if x >= n or p <= 0:
        return 1.0
    if p >= 1:
        return 0.0
    return betainc(n - x, x + 1, 1 - p)


def binom_sf(x: int, n: int, p: float) -> float:
    """P(X > x) for X ~ Binomial(n, p): ``I_p(x + 1, n - x)``."""
    if x < 0:
        return 1.0
    if x >= n or p <= 0:
        return 0.0
    if p >= 1:
        return 1.0
    return betainc(x + 1, n - x, p)


def _solve(f, target: float) -> float:
    """The p in (0, 1) where the decreasing function ``f`` equals ``target`` (bisection)."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2


def upper_bound(x: int, n: int, level: float = 0.95) -> float:
    """The exact one-sided upper confidence bound of a proportion: ``x`` found in ``n`` trials.

    The largest p with P(X <= x | n, p) >= 1 - level (Clopper-Pearson). With none found it
    is ``1 - (1 - level) ** (1 / n)``; with no trials, 1.

    >>> round(upper_bound(0, 10), 4) == round(1 - 0.05 ** 0.1, 4)
    True
    """
    _check(x, n)
    _check_level(level)
    if n == 0 or x == n:
        return 1.0
    if x == 0:
        return 1.0 - (1.0 - level) ** (1.0 / n)
    return _solve(lambda p: binom_cdf(x, n, p), 1.0 - level)


def lower_bound(x: int, n: int, level: float = 0.95) -> float:
    """The exact one-sided lower confidence bound (0 when none was found)."""
    _check(x, n)
    _check_level(level)
    if x == 0 or n == 0:
        return 0.0
    if x == n:
        return (1.0 - level) ** (1.0 / n)
    return _solve(lambda p: -binom_sf(x - 1, n, p), -(1.0 - level))  # the tail grows with p


def clopper_pearson(x: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact two-sided ``level`` interval of a proportion (each tail ``(1 - level) / 2``)."""
    tail = 1 - (1 - level) / 2
    return lower_bound(x, n, tail), upper_bound(x, n, tail)


def rule_of_three(n: int, level: float = 0.95) -> float:
    """``-ln(1 - level) / n`` (about ``3 / n`` at 95 %): the upper bound when nothing was found."""
    _check_level(level)
    return 1.0 if n <= 0 else min(1.0, -math.log(1.0 - level) / n)


@dataclass(frozen=True)
class Rate:
    """A proportion found on the sample with its exact bounds (rates, not per 10,000)."""

    found: int
    trials: int
    level: float
    estimate: float
    lower: float          #: two-sided interval at ``level``
    upper: float          #: two-sided interval at ``level``
    upper_one_sided: float  #: the bound a release is signed against
    rule_of_three: float | None  #: only when none was found

    def as_dict(self) -> dict:
        return asdict(self)


def rate(x: int, n: int, level: float = 0.95) -> Rate:
    """:class:`Rate` of ``x`` found in ``n`` trials.

    >>> r = rate(0, 300)
    >>> r.estimate, round(r.upper_one_sided, 5), r.rule_of_three
    (0.0, 0.00994, 0.009986)
    """
    lo, hi = clopper_pearson(x, n, level)
    return Rate(x, n, level, x / n if n else 0.0, lo, hi, upper_bound(x, n, level),
                round(rule_of_three(n, level), 6) if x == 0 else None)


def expected_found(n: int, p: float) -> int:
    """The count a review of ``n`` trials finds when the true rate is ``p`` (rounded up:
    planning for one more miss than the mean is the cautious side)."""
    return min(n, math.ceil(n * p - 1e-9))


def sample_size(target: float, expected: float = 0.0, level: float = 0.95, limit: int = 10**8) -> int:
    """The fewest trials for which the one-sided upper bound, at the count found when the true
    rate is ``expected`` (:func:`expected_found`), is at most ``target``.

    With ``expected`` 0 this is the exact form of the rule of three,
    ``ceil(ln(1 - level) / ln(1 - target))``.

    >>> sample_size(0.01)                     # none expected: about 3 / 0.01
    299
    >>> sample_size(0.05, expected=0.01)     # 2 expected in 124: bound 0.0499
    124
    """
    _check_level(level)
    if not 0 < target < 1:
        raise ValueError(f"the target rate lies in (0, 1), got {target}")
    if not 0 <= expected < target:
        raise ValueError(f"the expected rate must lie in [0, target), got {expected} (target {target})")
    if expected == 0:
        return math.ceil(math.log(1 - level) / math.log1p(-target) - 1e-12)

    def ok(n: int) -> bool:
        return upper_bound(expected_found(n, expected), n, level) <= target

    hi = max(1, math.ceil(-math.log(1 - level) / target))
    while not ok(hi):
        hi *= 2
        if hi > limit:
            raise ValueError(f"more than {limit} trials would be needed: the expected rate is too close "
                             "to the target")
    lo = hi // 2
    # the bound at the expected count is not monotone in n step by step (the count jumps):
    # bisect, then step down while the smaller sizes still meet the target
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    while hi > 1 and ok(hi - 1):
        hi -= 1
    return hi


def chance_to_meet(n: int, target: float, true_rate: float, level: float = 0.95) -> float:
    """The probability that a review of ``n`` trials ends with an upper bound at most
    ``target`` when the true rate is ``true_rate`` (the power of the plan).

    >>> round(chance_to_meet(299, 0.01, 0.0), 3)
    1.0
    """
    _check_level(level)
    # the bound grows with the count found: the plan meets the target up to some count
    lo, hi = -1, n + 1  # the largest count whose bound meets the target lies in [lo, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if upper_bound(mid, n, level) <= target else (lo, mid)
    return binom_cdf(lo, n, true_rate) if lo >= 0 else 0.0


@dataclass(frozen=True)
class Recapture:
    """Two reviewers' finds: ``first``, ``second`` and ``both`` found, and the estimate of how
    many there were, seen or not (Chapman), with its variance and interval."""

    first: int
    second: int
    both: int
    seen: int                   #: found by either
    lincoln_petersen: float | None  #: ``first * second / both`` (undefined when both is 0)
    total: float                #: Chapman's estimate of all there were
    variance: float
    unseen: float               #: ``total - seen``: what both reviewers missed
    lower: float                #: interval of ``total`` at ``level`` (log-normal, Chao 1987)
    upper: float
    level: float

    def as_dict(self) -> dict:
        return asdict(self)


def _z(level: float) -> float:
    """The standard normal quantile of ``1 - (1 - level) / 2`` (two-sided)."""
    return NormalDist().inv_cdf(1 - (1 - level) / 2)


def chapman(first: int, second: int, both: int, level: float = 0.95) -> Recapture:
    """Capture-recapture from two independent reviews of the same notes.

    ``first`` and ``second``: identifiers each reviewer found; ``both``: found by both.
    Chapman's estimator ``(n1 + 1)(n2 + 1) / (m + 1) - 1`` with Seber's variance
    ``(n1 + 1)(n2 + 1)(n1 - m)(n2 - m) / ((m + 1)^2 (m + 2))``; the interval is Chao's
    log-normal one, which never falls below what was seen.

    >>> r = chapman(40, 30, 20)
    >>> r.seen, r.lincoln_petersen, round(r.unseen, 2), round(r.variance, 2)
    (50, 60.0, 9.52, 26.2)
    """
    if min(first, second, both) < 0 or both > min(first, second):
        raise ValueError(f"want 0 <= both <= each reviewer's count, got {first}, {second}, {both}")
    _check_level(level)
    seen = first + second - both
    total = (first + 1) * (second + 1) / (both + 1) - 1
    var = (first + 1) * (second + 1) * (first - both) * (second - both) / ((both + 1) ** 2 * (both + 2))
    unseen = max(0.0, total - seen)
    if unseen > 0 and var > 0:
        c = math.exp(_z(level) * math.sqrt(math.log(1 + var / unseen ** 2)))
        lower, upper = seen + unseen / c, seen + unseen * c
    else:
        lower = upper = float(seen)
    return Recapture(first, second, both, seen, first * second / both if both else None, total, var,
                     unseen, lower, upper, level)


#: What an audit's rate is counted per: ``notes`` (share of notes with a residual identifier),
#: ``tokens`` (residual identifiers per 10,000 tokens), ``phi-tokens`` (leaked PHI tokens per
#: 10,000 PHI tokens).
UNITS = ("notes", "tokens", "phi-tokens")


def plan(target: float, expected: float = 0.0, level: float = 0.95, unit: str = "tokens",
         per_note: float | None = None) -> dict:
    """How many notes a review needs so that its one-sided upper bound meets ``target``.

    ``target`` and ``expected`` are shares of notes for ``unit="notes"``, else counts per
    10,000 (tokens or PHI tokens); ``per_note`` is the mean tokens (or PHI tokens) of a note,
    which turns trials into notes. The chance to meet the target is that of the planned
    review when the true rate is ``expected``.

    >>> p = plan(1.0, unit="tokens", per_note=300)   # at most 1 per 10,000 tokens, none expected
    >>> p["trials"], p["notes"]
    (29956, 100)
    """
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; known: {', '.join(UNITS)}")
    scale = 1.0 if unit == "notes" else PER
    t, e = target / scale, expected / scale
    trials = sample_size(t, e, level)
    if unit == "notes":
        notes = trials
    else:
        if not per_note or per_note <= 0:
            raise ValueError(f"a plan per {unit} needs the mean {unit} of a note")
        notes = math.ceil(trials / per_note)
    return {"unit": unit, "target": target, "expected": expected, "level": level, "per": scale,
            "trials": trials, "notes": notes, "per_note": per_note,
            "rule_of_three_trials": math.ceil(-math.log(1 - level) / t),
            "chance_to_meet_target": chance_to_meet(trials, t, e, level)}
