"""Active learning: how uncertain the model is about a note, and which notes to review next.

A note's score comes from the model's per-token P(PHI) = 1 - P(O), the marginals of
a forward-backward pass (:meth:`crfdeid.crf.Model.token_p_outside`):

- ``uncertainty`` (default): the expected number of tokens a 0.5 cut gets wrong,
  ``sum(min(p, 1 - p))``. Long notes full of doubtful words come first; a note the
  model is sure of (every p near 0 or 1) scores about 0.
- ``least-confident``: the single most doubtful token, ``max(min(p, 1 - p))``.
- ``expected-phi``: the expected number of PHI tokens, ``sum(p)``.
- ``random``: a seeded shuffle (the baseline of the simulation).

>>> round(score([0.5, 0.01, 0.99], "uncertainty"), 2), score([0.5, 0.01], "least-confident")
(0.52, 0.5)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..document import Document

#: Ways of ordering unreviewed notes.
STRATEGIES = ("uncertainty", "least-confident", "expected-phi", "random")


def score(p_phi: Sequence[float], strategy: str = "uncertainty") -> float:
    """The priority of one note given its tokens' P(PHI) (higher: review sooner)."""
    if strategy == "uncertainty":
        return float(sum(min(p, 1.0 - p) for p in p_phi))
    if strategy == "least-confident":
        return float(max((min(p, 1.0 - p) for p in p_phi), default=0.0))
    if strategy == "expected-phi":
        return float(sum(p_phi))
    raise ValueError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")


def scores(model, docs: Sequence[Document], strategy: str = "uncertainty", seed: int = 0) -> list[float]:
    """The priority of every document (``random``: seeded random numbers, no model needed)."""
    if strategy == "random":
        rng = random.Random(seed)
        return [rng.random() for _ in docs]
    return [score([1.0 - p for p in model.token_p_outside(d)[1]], strategy) for d in docs]


def pick(priorities: Sequence[float], n: int) -> list[int]:
    """Indices of the ``n`` highest priorities (ties: lower index first)."""
    order = sorted(range(len(priorities)), key=lambda i: (-priorities[i], i))
    return order[:n]
