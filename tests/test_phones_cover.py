"""The phone forms' check that another form already covers a digit run: a bisection, equal to
the scan of every span it replaced (which was quadratic on a long note)."""

from __future__ import annotations

import random
import re

import pytest

from crfdeid.document import make_span
from crfdeid.recognizers.phones import _inside


@pytest.mark.parametrize("seed", range(5))
def test_inside_is_the_scan_of_every_span(seed):
    rng = random.Random(seed)
    for _ in range(200):
        known = []
        for _ in range(rng.randint(0, 12)):
            a = rng.randint(0, 60)
            known.append(make_span(a, a + rng.randint(1, 15), "PHONE"))
        inside = _inside(known)
        for _ in range(30):
            a = rng.randint(0, 70)
            b = a + rng.randint(1, 10)
            assert inside(a, b) == any(sp.start <= a and b <= sp.end for sp in known)


def test_nested_and_disjoint_spans():
    inside = _inside([make_span(0, 20, "PHONE"), make_span(5, 8, "DATE"), make_span(30, 35, "PHONE")])
    assert inside(6, 19) and inside(30, 35) and not inside(18, 22) and not inside(29, 31)
    assert not _inside([])(0, 1)


def test_cue_look_ahead_holds_every_cue_word_first_letter():
    """The cue pattern's look-ahead (a speed-up) must let every cue word through: a word added to
    the alternation with another first letter would otherwise never be found (a phone left)."""
    from crfdeid.recognizers.phones import _R  # the cue pattern is a row of crfdeid/_data/rules/phones.tsv
    _CUE = _R.CUE
    ahead, words = re.match(r"\(\?i\)\\b\(\?=\[([a-z]+)\]\)\(\?:([^)]*)\)", _CUE.pattern).groups()
    firsts = {w[0] for w in words.split("|")}
    assert firsts <= set(ahead), firsts - set(ahead)
    for word in ("Phone", "TEL", "whatsapp", "call", "Fax", "reach", "ring", "sms", "handy", "mobile"):
        assert _CUE.search(f"{word} 0121 4960334") is not None
