"""Decoding: from a backend's Viterbi labels and marginals to the labels crfdeid reports.

Both tagging backends call :func:`threshold_labels`, the one place where the
recall-oriented decoding (``decoding.o_threshold``) is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import ConfigError
from ..labels import BIO, OUTSIDE, join_label, split_label
from ..settings import Section, section


def best_phi(marginal: Callable[[str, int], float], t: int, others: Sequence[str], prev: str) -> str:
    """The PHI label whose subtype has the largest summed marginal at token ``t``.

    ``marginal(label, t)`` gives probabilities; ``prev`` is the label before
    ``t`` (an ``I-`` label continues it when the subtype is the same).

    >>> p = {("B-DATE", 0): 0.2, ("I-DATE", 0): 0.1, ("B-CITY", 0): 0.25}
    >>> best_phi(lambda lab, t: p.get((lab, t), 0.0), 0, ["B-CITY", "B-DATE", "I-DATE"], "O")
    'B-DATE'
    """
    score: Counter = Counter()
    for lab in others:
        score[split_label(lab)[1]] += marginal(lab, t)  # type: ignore[assignment]  # float sums (typeshed: int counts)
    sub = max(sorted(score), key=score.__getitem__)
    return join_label(BIO.inside if prev != OUTSIDE and split_label(prev)[1] == sub else BIO.begin, sub)


def threshold_labels(labels: list[str], candidates: Sequence[int], marginal, others: Sequence[str],
                     tokens: Sequence, o_words: frozenset = frozenset()) -> list[str]:
    """Recall-oriented decoding, in place: each candidate token becomes PHI.

    Parameters
    ----------
    labels : list of str
        Viterbi labels of one document's tokens (changed in place and returned).
    candidates : sequence of int
        Increasing indices of the ``O`` tokens whose P(O) is below the threshold.
    marginal : callable
        ``marginal(label, t)``: P(label) at token ``t``.
    others : sequence of str
        The model's labels other than ``O``.
    tokens : sequence of Token
        The document's tokens; one whose text is in ``o_words`` (compared lower-cased) stays ``O``.

    In token order, so the label before a candidate is final when it is decided:
    a candidate continues (``I-``) a PHI run of the same subtype.
    """
    for t in candidates:
        if not o_words or tokens[t].text.lower() not in o_words:
            labels[t] = best_phi(marginal, t, others, labels[t - 1] if t else OUTSIDE)
    return labels


@section("decoding")
@dataclass
class DecodingSettings(Section):
    """The config's ``decoding`` section.

    ``o_threshold``: a token is PHI when its P(O) is below it (``null``: Viterbi labels);
    ``o_words_min_count``: words seen at least this often in the training notes and never
    inside PHI are not made PHI by the threshold (``null``: off).
    """

    o_threshold: float | None = None
    o_words_min_count: int | None = field(default=None, metadata={"min": 1})

    def check(self, config, path) -> None:
        thr = self.o_threshold
        if thr is not None and not 0 < thr <= 1:
            raise ConfigError(f"decoding.o_threshold must be a probability in (0, 1] or null, not {thr!r}",
                              path=path)
