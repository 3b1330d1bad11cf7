"""A scikit-learn estimator over documents, wrapping :func:`crfdeid.crf.train.train_model`.

Every option is a keyword argument whose default is ``None``, meaning "keep the
config's (or CRFsuite's) value"; ``__init__`` only stores them, so ``clone``,
``GridSearchCV`` and ``cross_val_score`` work. Learned attributes end in ``_``.

>>> from crfdeid.crf.estimator import CRFDeidentifier
>>> est = CRFDeidentifier(c1=0.1, max_iterations=50)
>>> est.get_params()["c1"]
0.1
"""

from __future__ import annotations

from .._data import install_hint
from ..errors import ExtraError

try:
    from sklearn.base import BaseEstimator
except ImportError:  # pragma: no cover - the base install has no scikit-learn
    raise ExtraError(f"crfdeid.crf.estimator needs scikit-learn: {install_hint('sklearn')}") from None

from ..config import load_config
from ..scoring import evaluate
from .train import train_model


class CRFDeidentifier(BaseEstimator):
    """Fit on and predict for :class:`~crfdeid.document.Document` lists.

    Parameters
    ----------
    config : str, Path or dict, optional
        Base config (default: the built-in defaults, ``features/full.yaml``).
    features : str or dict, optional
        Feature set file or mapping (overrides the config's).
    window : int, optional
    algorithm, c1, c2, max_iterations, min_freq, all_possible_transitions, all_possible_states
        CRFsuite options (``feature.minfreq``, ``feature.possible_transitions``,
        ``feature.possible_states``); ``None`` keeps the config/CRFsuite default.
    o_threshold : float, optional
        Recall-oriented decoding threshold on P(O).
    o_words_min_count : int, optional
        Words seen at least this many times in the training documents and never inside
        PHI are not made PHI by ``o_threshold`` (``decoding.o_words_min_count``).
    rules : bool, optional
        Enable the regex rule overlay.
    split_glued : bool, optional
        Tokenizer option.
    """

    def __init__(self, config=None, features=None, window=None, algorithm=None, c1=None, c2=None,
                 max_iterations=None, min_freq=None, all_possible_transitions=None,
                 all_possible_states=None, o_threshold=None, o_words_min_count=None, rules=None,
                 split_glued=None):
        self.config = config
        self.features = features
        self.window = window
        self.algorithm = algorithm
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.min_freq = min_freq
        self.all_possible_transitions = all_possible_transitions
        self.all_possible_states = all_possible_states
        self.o_threshold = o_threshold
        self.o_words_min_count = o_words_min_count
        self.rules = rules
        self.split_glued = split_glued

    def resolved_config(self) -> dict:
        """The config these parameters give (base config plus non-``None`` overrides)."""
        crf = {k: v for k, v in {
            "algorithm": self.algorithm, "c1": self.c1, "c2": self.c2,
            "max_iterations": self.max_iterations, "feature.minfreq": self.min_freq,
            "feature.possible_transitions": self.all_possible_transitions,
            "feature.possible_states": self.all_possible_states}.items() if v is not None}
        over: dict = {}
        if crf:
            over["crf"] = crf
        if self.features is not None:
            over["features"] = self.features
        if self.window is not None:
            over["window"] = self.window
        decoding = {k: v for k, v in {"o_threshold": self.o_threshold,
                                      "o_words_min_count": self.o_words_min_count}.items() if v is not None}
        if decoding:
            over["decoding"] = decoding
        if self.rules is not None:
            over["rules"] = {"enabled": bool(self.rules)}
        if self.split_glued is not None:
            over["tokenizer"] = {"split_glued": bool(self.split_glued)}
        base = self.config if self.config is not None else {}
        return load_config(base, over)

    def fit(self, X, y=None):
        """Train on documents ``X`` (their gold spans; ``y`` is ignored)."""
        self.model_ = train_model(list(X), self.resolved_config())
        self.labels_ = list(self.model_.labels)
        self.training_stats_ = dict(self.model_.stats)
        return self

    def _check(self):
        if not hasattr(self, "model_"):
            from sklearn.exceptions import NotFittedError
            raise NotFittedError("CRFDeidentifier is not fitted yet; call fit(docs) first")

    def predict(self, X) -> list[list]:
        """Predicted spans (list of :class:`~crfdeid.document.Span`) for each document."""
        self._check()
        return [self.model_.tag(doc).spans for doc in X]

    def tag(self, X) -> list:
        """Tagged copies of the documents (same id, text and meta; predicted spans)."""
        self._check()
        return [self.model_.tag(doc) for doc in X]

    def predict_marginals(self, X) -> list[list[dict]]:
        """Per-token label marginals ``[{label: p}, ...]`` for each document."""
        self._check()
        return [self.model_.marginals(doc) for doc in X]


def make_scorer(metric: str = "binary_token", measure: str = "f1", **evaluate_kwargs):
    """A scorer ``scorer(estimator, docs, y=None) -> float`` for sklearn model selection.

    Uses :func:`crfdeid.scoring.evaluate` on the documents' gold spans, e.g.
    ``cross_val_score(est, docs, cv=GroupKFold(5), groups=[d.group for d in docs],
    scoring=make_scorer("binary_token", "recall"))``.
    """
    def scorer(estimator, X, y=None):
        X = list(X)
        report = evaluate(X, estimator.tag(X), **evaluate_kwargs)
        return getattr(report.micro[metric], measure)
    return scorer
