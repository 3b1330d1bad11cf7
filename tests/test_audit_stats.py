"""The release audit's statistics (crfdeid.scoring.audit) against hand-computed cases, and the
bound's coverage over simulated releases with a known leak rate."""

from __future__ import annotations

import math
import random

import pytest

from crfdeid.audit.report import recapture
from crfdeid.scoring import audit as st


# Clopper-Pearson: published and hand-derived values. The two-sided 95 % interval of 5 in 20 is
# the textbook (0.0866, 0.4910); with none found the one-sided upper bound is 1 - alpha^(1/n);
# with all found the lower bound is alpha^(1/n).
@pytest.mark.parametrize("x, n, level, lower, upper", [
    (5, 20, 0.95, 0.0866, 0.4910),
    (0, 10, 0.95, 0.0, 1 - 0.025 ** 0.1),
    (10, 10, 0.95, 0.025 ** 0.1, 1.0),
    (1, 2, 0.95, 0.0126, 0.9874),
    (50, 100, 0.95, 0.3983, 0.6017),
])
def test_clopper_pearson_against_hand_values(x, n, level, lower, upper):
    lo, hi = st.clopper_pearson(x, n, level)
    assert lo == pytest.approx(lower, abs=1e-4) and hi == pytest.approx(upper, abs=1e-4)


def test_one_sided_bound_is_where_the_binomial_tail_equals_alpha():
    # the defining property, with the binomial CDF written out by hand for x = 2
    for n, x in ((50, 2), (300, 2), (1000, 2)):
        p = st.upper_bound(x, n, 0.95)
        cdf = sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(x + 1))
        assert cdf == pytest.approx(0.05, abs=1e-9)


def test_agrees_with_scipy_beta_quantiles():
    beta = pytest.importorskip("scipy.stats").beta
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 20000)
        x = rng.randint(0, min(n, rng.choice([0, 1, 4, 30, 300])))
        level = rng.choice([0.9, 0.95, 0.99])
        expect_hi = 1.0 if x == n else beta.ppf(level, x + 1, n - x)
        expect_lo = 0.0 if x == 0 else beta.ppf(1 - level, x, n - x + 1)
        assert st.upper_bound(x, n, level) == pytest.approx(expect_hi, abs=1e-9)
        assert st.lower_bound(x, n, level) == pytest.approx(expect_lo, abs=1e-9)


def test_rule_of_three_and_the_exact_bound_with_none_found():
    assert st.rule_of_three(300) == pytest.approx(-math.log(0.05) / 300)
    assert st.rule_of_three(300) * 300 == pytest.approx(2.9957, abs=1e-4)
    # the exact bound is a little below the rule of three, and close for large n
    for n in (30, 300, 3000):
        assert st.upper_bound(0, n) < st.rule_of_three(n) < st.upper_bound(0, n) * 1.1
    r = st.rate(0, 300)
    assert r.rule_of_three == pytest.approx(0.009986, abs=1e-6) and st.rate(1, 300).rule_of_three is None


def test_sample_size_meets_the_target_and_one_fewer_does_not():
    # none expected: ln(0.05) / ln(0.99) = 298.07, so 299 notes bound a 1 % rate
    assert st.sample_size(0.01) == 299
    assert st.upper_bound(0, 299) <= 0.01 < st.upper_bound(0, 298)
    for target, expected in ((0.05, 0.01), (0.002, 0.0005), (0.1, 0.05)):
        n = st.sample_size(target, expected)
        assert st.upper_bound(st.expected_found(n, expected), n) <= target
        assert all(st.upper_bound(st.expected_found(m, expected), m) > target for m in range(max(1, n - 20), n))
    with pytest.raises(ValueError):
        st.sample_size(0.01, expected=0.02)


def test_plan_turns_tokens_into_notes():
    p = st.plan(1.0, 0.0, 0.95, "tokens", per_note=300)
    assert p["trials"] == math.ceil(math.log(0.05) / math.log(1 - 1e-4) - 1e-12) == 29956
    assert p["notes"] == math.ceil(29956 / 300)
    assert st.plan(0.05, 0.0, 0.95, "notes")["notes"] == 59
    with pytest.raises(ValueError):
        st.plan(1.0, unit="tokens")


def test_chance_to_meet_is_the_binomial_probability_of_a_small_enough_count():
    n, target, p = 500, 0.02, 0.005
    # the counts whose bound meets 2 % in 500 notes, by hand
    ok = [x for x in range(n + 1) if st.upper_bound(x, n) <= target]
    assert ok == list(range(len(ok))) and ok
    expect = sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in ok)
    assert st.chance_to_meet(n, target, p) == pytest.approx(expect, rel=1e-9)


# Chapman (1951) and Seber's variance, by hand: n1 = 40, n2 = 30, m = 20:
# N = 41 * 31 / 21 - 1 = 59.524; var = 41 * 31 * 20 * 10 / (21^2 * 22) = 26.200.
@pytest.mark.parametrize("n1, n2, m, total, var, lp", [
    (40, 30, 20, 41 * 31 / 21 - 1, 41 * 31 * 20 * 10 / (21 ** 2 * 22), 60.0),
    (10, 10, 10, 10.0, 0.0, 10.0),
    (5, 4, 0, 6 * 5 / 1 - 1, 6 * 5 * 5 * 4 / (1 * 2), None),
    (0, 0, 0, 0.0, 0.0, None),
])
def test_chapman_against_hand_values(n1, n2, m, total, var, lp):
    r = st.chapman(n1, n2, m)
    assert r.total == pytest.approx(total) and r.variance == pytest.approx(var)
    assert r.lincoln_petersen == (pytest.approx(lp) if lp is not None else None)
    assert r.seen == n1 + n2 - m and r.unseen == pytest.approx(max(0.0, total - r.seen))
    assert r.lower <= r.seen + r.unseen <= r.upper and r.lower >= r.seen


def test_chapman_interval_by_hand():
    # Chao's log-normal interval: C = exp(1.96 sqrt(ln(1 + var / f0^2))), [S + f0 / C, S + f0 C]
    r = st.chapman(40, 30, 20)
    f0 = r.total - 50
    c = math.exp(1.959964 * math.sqrt(math.log(1 + r.variance / f0 ** 2)))
    assert (r.lower, r.upper) == (pytest.approx(50 + f0 / c, rel=1e-6), pytest.approx(50 + f0 * c, rel=1e-6))


def _audit_once(rng: random.Random, leak: float, notes: int, tokens_per_note: int) -> tuple[int, int]:
    """One simulated audit: residual identifiers in a sample of notes, each token starting one
    with probability ``leak`` (a release with a known leak rate)."""
    tokens = notes * tokens_per_note
    found = sum(rng.random() < leak for _ in range(tokens))
    return found, tokens


@pytest.mark.parametrize("leak", [0.0005, 0.002, 0.01])
def test_the_upper_bound_covers_the_true_rate_at_least_as_often_as_promised(leak):
    rng = random.Random(11)
    draws, level = 400, 0.95
    covered = 0
    for _ in range(draws):
        found, tokens = _audit_once(rng, leak, notes=20, tokens_per_note=50)
        covered += st.upper_bound(found, tokens, level) >= leak
    # exact bounds are conservative: at least the nominal level (allowing the simulation's own
    # noise, 3 standard errors of a proportion at 0.95 over 400 draws, about 0.033)
    assert covered / draws >= level - 3 * math.sqrt(level * (1 - level) / draws)
    # and not trivially: a bound at the point estimate covers far less often
    point = sum(st.rate(*_audit_once(rng, leak, 20, 50)).estimate >= leak for _ in range(200))
    assert point / 200 < 0.8


def test_capture_recapture_estimates_a_known_number_of_misses():
    # 200 identifiers the model missed; each reviewer finds each independently with chance 0.7
    rng = random.Random(5)
    totals, covered = [], 0
    for _ in range(300):
        a = [rng.random() < 0.7 for _ in range(200)]
        b = [rng.random() < 0.7 for _ in range(200)]
        r = st.chapman(sum(a), sum(b), sum(x and y for x, y in zip(a, b)))
        totals.append(r.total)
        covered += r.lower <= 200 <= r.upper
    assert sum(totals) / len(totals) == pytest.approx(200, rel=0.02)
    assert covered / 300 >= 0.9


@pytest.mark.parametrize("first,second", [(4, 0), (0, 5), (3, 2), (0, 0)])
def test_no_find_in_common_cannot_be_estimated_and_says_so(first, second):
    r = recapture({"notes": 3, "first": first, "second": second, "both": 0}, 0.95)
    assert r["estimable"] is False and r["total"] is None and r["lower"] is None and r["upper"] is None
    assert (r["first"], r["second"]) == (first, second)  # what each found is still shown
    assert recapture({"notes": 3, "first": 4, "second": 3, "both": 2}, 0.95)["estimable"] is True
