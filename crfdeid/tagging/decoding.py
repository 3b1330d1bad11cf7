"""Decoding: from a backend's Viterbi labels and marginals to the labels crfdeid reports.

Both tagging backends call :func:`threshold_labels`, the one place where the
recall-oriented decoding (``decoding.o_threshold``) is written.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from .. import gazetteers
from ..errors import ConfigError, RegistryError
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


class Threshold(float):
    """A P(O) threshold that carries the higher one of month/day shapes (``decoding.month_day_threshold``):
    a backend's candidates are the ``O`` tokens below the first, and the tokens of a month/day shape
    below the second (:func:`below`). Compares as the first."""

    month_day: float

    def __new__(cls, value: float, month_day: float) -> Threshold:
        obj = super().__new__(cls, value)
        obj.month_day = month_day
        return obj

    def __reduce__(self):
        return Threshold, (float(self), self.month_day)


def with_month_day(o_threshold, config: dict):
    """``o_threshold`` as a model of ``config`` applies it: a :class:`Threshold` when its
    ``decoding.month_day_threshold`` is set and above it, else unchanged (None: Viterbi, no exception)."""
    md = (config.get("decoding") or {}).get("month_day_threshold")
    if o_threshold is None or md is None or md <= o_threshold:
        return o_threshold
    return Threshold(o_threshold, md)


def _month_day_number(text: str, top: int) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 2 and 1 <= int(text) <= top


def month_day_tokens(tokens: Sequence) -> np.ndarray:
    """A mask of the tokens of a month/day shape: ``m/d`` with month 1-12 and day 1-31 written
    together, not inside a longer run of numbers and slashes (``7.35/66/55``, ``1/2/3``, ``10/5/81``).

    >>> from crfdeid.text.tokenize import tokenize
    >>> [t.text for t, m in zip(tokenize("hd 8/9 or 8/10, abg 7.35/6/5, gcs 1/2/3, 13/2"),
    ...  month_day_tokens(tokenize("hd 8/9 or 8/10, abg 7.35/6/5, gcs 1/2/3, 13/2"))) if m]
    ['8', '/', '9', '8', '/', '10']
    """
    out = np.zeros(len(tokens), dtype=bool)
    for i in range(1, len(tokens) - 1):
        a, s, b = tokens[i - 1], tokens[i], tokens[i + 1]
        if (s.text != "/" or a.end != s.start or s.end != b.start or not _month_day_number(a.text, 12)
                or not _month_day_number(b.text, 31)):
            continue
        before = i > 1 and tokens[i - 2].end == a.start and tokens[i - 2].text in ("/", ".")
        after = i + 2 < len(tokens) and tokens[i + 2].start == b.end and (
            tokens[i + 2].text == "/" or tokens[i + 2].text[:1].isdigit())
        if not before and not after:
            out[i - 1:i + 2] = True
    return out


def below(p_outside, outside, o_threshold, tokens: Sequence) -> list[int]:
    """The candidates of :func:`threshold_labels`: indices of the tokens labelled ``O`` (``outside``,
    a mask) whose P(O) (``p_outside``) is below ``o_threshold``, or, with a :class:`Threshold`, of a
    month/day shape (:func:`month_day_tokens`) below its ``month_day``."""
    p = np.asarray(p_outside, dtype=float)
    low = np.asarray(outside, dtype=bool) & (p < o_threshold)
    md = getattr(o_threshold, "month_day", None)
    if md is not None and len(p):
        low |= np.asarray(outside, dtype=bool) & (p < md) & month_day_tokens(tokens)
    return np.flatnonzero(low).tolist()


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


def _mean(arrays: list) -> np.ndarray:
    """The element-wise mean of the votes' arrays (one: itself, as a single vote was read before ``prior.also``)."""
    return arrays[0] if len(arrays) == 1 else sum(arrays[1:], arrays[0]) / len(arrays)


class AveragedBackend:
    """CRFs' votes on the same tokens: ``(1 - weight) * main + weight * other`` marginals (``other`` a backend,
    or a list of backends whose marginals are averaged first, each an equal share: ``prior.also``).

    The labels start from the main CRF's Viterbi labels; with a threshold, an ``O`` token whose
    averaged P(O) is below it becomes PHI (:func:`threshold_labels` on the averaged marginals),
    so the other CRF (a companion trained on unseen name and place words, docs/stress.md, or a
    prior: the shipped model, docs/prior.md) can raise a token the main CRF doubts, and a word
    both find plain stays ``O``. Without a threshold the labels are the main CRF's (Viterbi),
    with the averaged P(O) as confidences. Same interface as the backends (``run``,
    ``probabilities``, so that votes nest); a label the other CRF lacks has its probability 0.
    ``outside_only``: only P(O) is averaged, the main CRF's PHI labels keep their proportions
    (the other CRF's labels may be of another scheme).

    >>> class Fixed:  # a stand-in backend: one document, two tokens, fixed marginals
    ...     def __init__(self, p, labels=("O", "B-CITY")): self.labels, self.p = list(labels), np.array(p)
    ...     def probabilities(self, items): return [(["O", "O"], self.p)]
    >>> both = AveragedBackend(Fixed([[0.99, 0.01], [0.9, 0.1]]), Fixed([[0.99, 0.01], [0.2, 0.8]]), 0.5)
    >>> both.run([("", [None, None], [])], 0.9)[0][0]
    ['O', 'B-CITY']
    >>> other = Fixed([[0.99, 0.01], [0.2, 0.8]], ("O", "B-PER"))  # labels of another scheme
    >>> AveragedBackend(Fixed([[0.99, 0.01], [0.9, 0.1]]), other, 0.5, outside_only=True).run(
    ...     [("", [None, None], [])], 0.9)[0][0]
    ['O', 'B-CITY']
    """

    def __init__(self, main, other, weight: float, outside_only: bool = False):
        self.main, self.weight, self.outside_only = main, weight, outside_only
        #: The voting backends (one, or ``prior.also``'s several with equal shares).
        self.votes = list(other) if isinstance(other, (list, tuple)) else [other]
        self.labels = list(main.labels)
        self._outside = self.labels.index(OUTSIDE)
        self._others = [lab for lab in self.labels if lab != OUTSIDE]
        self._column = {lab: j for j, lab in enumerate(self.labels)}
        # Each vote's column of each main label (a label it lacks: the zero column appended), and its O column.
        self._takes = [np.array([v.labels.index(lab) if lab in v.labels else len(v.labels) for lab in self.labels],
                                dtype=np.intp) for v in self.votes]
        self._vote_outsides = [list(v.labels).index(OUTSIDE) for v in self.votes]

    @property
    def other(self):
        """The first voting backend (the only one without ``prior.also``)."""
        return self.votes[0]

    def _marginal(self, p: np.ndarray, label: str, t: int) -> float:
        return p[t, self._column[label]]

    def _average(self, pa: np.ndarray, *pbs: np.ndarray) -> np.ndarray:
        """The main CRF's marginals ``pa`` and the votes' ``pbs`` (one per vote, in :attr:`votes` order) averaged."""
        w = self.weight
        if not self.outside_only:
            mapped = [np.concatenate([pb, np.zeros((len(pb), 1))], axis=1)[:, take]
                      for pb, take in zip(pbs, self._takes)]
            return (1.0 - w) * pa + w * _mean(mapped)
        o = self._outside
        p_o = (1.0 - w) * pa[:, o] + w * _mean([pb[:, j] for pb, j in zip(pbs, self._vote_outsides)])
        p = pa * ((1.0 - p_o) / np.maximum(1.0 - pa[:, o], 1e-12))[:, None]  # PHI labels: the main's shares
        p[:, o] = p_o
        return p

    def probabilities(self, items) -> list[tuple[list[str], np.ndarray]]:
        """Per document: the main CRF's Viterbi labels and the averaged marginals (``labels`` order).

        Backends that read one featurizer compute its features once (``probabilities_beside``)."""
        beside = getattr(self.main, "probabilities_beside", None)
        got = beside(self.votes[0], items, self.votes[1:]) if beside is not None else None
        if got is None:
            got = (self.main.probabilities(items), *(v.probabilities(items) for v in self.votes))
        mine, *theirs = got
        return [(labels, self._average(pa, *(p for _, p in votes))) for (labels, pa), *votes in zip(mine, *theirs)]

    def run(self, items, o_threshold, want_marginals=False, o_words=frozenset()) -> list[tuple]:
        """``(labels, p_outside, marginals)`` of each ``(text, tokens, segments)`` (``NumpyTagger.run``)."""
        out = []
        for (_, toks, _), (labels, p) in zip(items, self.probabilities(items)):
            p_o = p[:, self._outside].tolist()
            if o_threshold is None:
                p_out = [po if lab != OUTSIDE else None for lab, po in zip(labels, p_o)]
            else:
                p_out = p_o
                low = below(p_o, [lab == OUTSIDE for lab in labels], o_threshold, toks)
                if low:
                    threshold_labels(labels, low, functools.partial(self._marginal, p), self._others, toks, o_words)
            margs = [dict(zip(self.labels, row)) for row in p.tolist()] if want_marginals else []
            out.append((labels, p_out, margs))
        return out


class OWords:
    """Counts of the training notes' words (alphabetic, lower-cased), and those seen inside PHI:
    a model's ``o_words`` (``decoding.o_words_min_count``), counted while it trains."""

    def __init__(self):
        self.seen = Counter()
        self.in_phi = set()

    def add(self, toks, labels) -> None:
        for tok, lab in zip(toks, labels):
            if tok.text.isalpha():
                w = tok.text.lower()
                self.seen[w] += 1
                if lab != OUTSIDE:
                    self.in_phi.add(w)

    def kept(self, min_count: int) -> list[str]:
        """Words seen at least ``min_count`` times and never inside PHI, sorted."""
        return sorted(w for w, c in self.seen.items() if c >= min_count and w not in self.in_phi)


def plain_words(counted, lists: Sequence[str] | None, names: Sequence[str] | None) -> list[str]:
    """A model's ``o_words``, sorted: the ``counted`` training words, and the words of ``lists``
    less every word of ``names`` (``decoding.o_words_lists`` and ``o_words_except``: a listed word
    that can be a name or a place stays within the threshold's reach, recall first; a counted
    word was seen in the training notes, never inside PHI, and stays, as before the lists).

    >>> words = plain_words(["aline"], ["clinical_abbrevs"], ["surnames"])
    >>> "aline" in words, "bowel" in words, "swan" in words  # Swan is a surname
    (True, True, False)
    """
    return sorted(set(counted) | (gazetteers.words(lists or ()) - gazetteers.words(names or ())))


def model_o_words(counted: OWords | None, decoding: dict) -> list[str] | None:
    """The ``o_words`` a model trained with the ``decoding`` section stores (None: none).

    ``counted``: the training notes' words (None when ``o_words_min_count`` is off).
    """
    lists, names = decoding.get("o_words_lists"), decoding.get("o_words_except")
    if counted is None and not lists:
        return None
    kept = counted.kept(decoding["o_words_min_count"]) if counted is not None else []
    return plain_words(kept, lists, names) if lists or names else kept


@section("decoding")
@dataclass
class DecodingSettings(Section):
    """The config's ``decoding`` section.

    ``o_threshold``: a token is PHI when its P(O) is below it (``null``: Viterbi labels);
    ``month_day_threshold``: a month/day shape (:func:`month_day_tokens`) is PHI when its P(O) is
    below this higher threshold (``null``: as every token; no effect without ``o_threshold``);
    ``o_words_min_count``: words seen at least this often in the training notes and never
    inside PHI are not made PHI by the threshold (``null``: off);
    ``o_words_lists``: gazetteer lists whose words join them (public English and clinical
    vocabulary: a plain word the training notes rarely hold); ``o_words_except``: lists whose
    words never do (names and places, recall first). Both are read at training and stored in
    the model's ``o_words`` (:func:`plain_words`); English models only.
    ``date_order``: how the notes write numeric dates (``auto``, ``mdy``, ``dmy``, ``ymd``;
    ``null``: ``auto``), read when dates are shifted (:mod:`crfdeid.text.dateorder`); a run's
    ``--date-order`` or site file overrides it. No date is removed for its order.
    """

    o_threshold: float | None = None
    month_day_threshold: float | None = None
    o_words_min_count: int | None = field(default=None, metadata={"min": 1})
    o_words_lists: list | None = None
    o_words_except: list | None = None
    date_order: str | None = field(default=None, metadata={"choices": ("auto", "mdy", "dmy", "ymd")})

    def check(self, config, path) -> dict:
        for key in ("o_threshold", "month_day_threshold"):
            thr = getattr(self, key)
            if thr is not None and not 0 < thr <= 1:
                raise ConfigError(f"decoding.{key} must be a probability in (0, 1] or null, not {thr!r}", path=path)
        for key in _LIST_KEYS:
            self._check_lists(key, getattr(self, key), config, path)
        out = asdict(self)
        # Left out when null, so that the config a model saves (and its file) is the same as
        # before these keys existed.
        return {k: v for k, v in out.items() if k not in _OPTIONAL_KEYS or v is not None}

    @staticmethod
    def _check_lists(key: str, value, config, path) -> None:
        if value is None:
            return
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"decoding.{key} must be a list of word list names or null, not {value!r}", path=path)
        language = (config.get("resources") or {}).get("language", "en")
        if value and language != "en":
            raise ConfigError(f"decoding.{key}: crfdeid's word lists are English; with resources.language "
                              f"{language!r} leave it out (a model of another language keeps its own o_words)",
                              path=path)
        for name in value:
            try:
                gazetteers.load(name)
            except RegistryError as e:
                raise ConfigError(f"decoding.{key}: {e}", path=path) from None


_LIST_KEYS = ("o_words_lists", "o_words_except")
_OPTIONAL_KEYS = (*_LIST_KEYS, "month_day_threshold", "date_order")
