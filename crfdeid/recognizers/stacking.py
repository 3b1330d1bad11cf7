"""``multi.v1``: a logistic regression over the CRF's and the members' per-token decisions.

Training (:func:`crfdeid.crf.train.train_multi`) cross-fits: the training notes are split by patient into
``committee.folds`` folds; each fold's notes are tagged by a CRF trained on the other
folds, so the regression learns how far to trust CRF probabilities on notes the CRF
never saw (as it will be used), never its over-confident training predictions. The
members are not trained, so their decisions are the same everywhere. Then the CRF is
trained on all the notes, and the regression's weights go into the model file's manifest.

Per token the regression sees (:func:`features`): the CRF's P(O) and its probability of
each parent category (B- and I- labels summed), and each member's confidence that the
token, the one before and the one after belong to each parent category. It predicts the
parent category; the subtype is the CRF's most probable one within it (else the member's,
else the category's first). The decoding threshold applies to the regression's P(O).
"""

from __future__ import annotations

import numpy as np

from ..labels import OUTSIDE
from ..schema import CATEGORIES, SUBTYPE_TO_PARENT

#: Parent categories in feature and class order (class 0 is O).
CATS = tuple(CATEGORIES)
_CAT_INDEX = {c: i for i, c in enumerate(CATS)}
#: Token offsets at which the members' decisions are seen.
OFFSETS = (-1, 0, 1)


def features(committee, text: str, tokens, marginals: list[dict]) -> np.ndarray:
    """The regression's inputs for one note: one row per token."""
    n, k = len(tokens), len(CATS)
    crf = np.zeros((n, 1 + k))
    for t, m in enumerate(marginals):
        for lab, p in m.items():
            if lab == OUTSIDE:
                crf[t, 0] += p
            else:
                crf[t, 1 + _CAT_INDEX[SUBTYPE_TO_PARENT[lab[2:]]]] += p
    blocks = [crf]
    for row in committee.token_decisions(text, tokens):
        own = np.zeros((n, k))
        for t, d in enumerate(row):
            if d is not None:
                own[t, _CAT_INDEX[SUBTYPE_TO_PARENT[d[1]]]] = d[2]
        for o in OFFSETS:
            shifted = np.zeros((n, k))
            if o < 0:
                shifted[-o:] = own[:n + o]
            elif o > 0:
                shifted[:n - o] = own[o:]
            else:
                shifted = own
            blocks.append(shifted)
    return np.hstack(blocks)


def targets(labels: list[str]) -> np.ndarray:
    """Class per token: 0 for O, else 1 + the parent category's index."""
    return np.array([0 if lab == OUTSIDE else 1 + _CAT_INDEX[SUBTYPE_TO_PARENT[lab[2:]]] for lab in labels],
                    dtype=np.intp)


def fit(x: np.ndarray, y: np.ndarray) -> dict:
    """A multinomial logistic regression (deterministic lbfgs) as plain lists for the manifest."""
    from sklearn.linear_model import LogisticRegression
    reg = LogisticRegression(C=1.0, max_iter=1000)
    reg.fit(x, y)
    coef = np.zeros((1 + len(CATS), x.shape[1]))
    intercept = np.full(1 + len(CATS), -1e4)  # a class never seen in training is never predicted
    coef[reg.classes_] = reg.coef_ if len(reg.classes_) > 2 else np.vstack([-reg.coef_, reg.coef_]) / 2
    intercept[reg.classes_] = (reg.intercept_ if len(reg.classes_) > 2
                               else np.array([-reg.intercept_[0], reg.intercept_[0]]) / 2)
    return {"classes": ["O", *CATS], "coef": np.round(coef, 8).tolist(),
            "intercept": np.round(intercept, 8).tolist()}


class Stacker:
    """The trained regression (from the manifest) applied to a tagged note."""

    def __init__(self, weights: dict, committee):
        self.coef = np.asarray(weights["coef"], dtype=float)
        self.intercept = np.asarray(weights["intercept"], dtype=float)
        self.committee = committee

    def proba(self, x: np.ndarray) -> np.ndarray:
        z = x @ self.coef.T + self.intercept
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def relabel(self, text, tokens, marginals, o_threshold, o_words=frozenset()) -> tuple[list, list]:
        """``(labels, p_outside)`` of a note from the CRF's marginals and the members."""
        n = len(tokens)
        if not n:
            return [], []
        p = self.proba(features(self.committee, text, tokens, marginals))
        p_out = p[:, 0]
        cat = p[:, 1:].argmax(axis=1)
        phi = p.argmax(axis=1) != 0
        if o_threshold is not None:
            low = p_out < o_threshold
            plain = np.array([bool(o_words) and t.text.lower() in o_words for t in tokens])
            phi |= low & ~plain
        member = self.committee.token_decisions(text, tokens)
        labels, prev = [], OUTSIDE
        for t in range(n):
            if not phi[t]:
                labels.append(OUTSIDE)
                prev = OUTSIDE
                continue
            c = CATS[cat[t]]
            sub = self._subtype(c, marginals[t], [row[t] for row in member])
            m = marginals[t]
            cont = prev != OUTSIDE and prev[2:] == sub and m.get("B-" + sub, 0.0) <= 0.5
            prev = ("I-" if cont else "B-") + sub
            labels.append(prev)
        return labels, p_out.tolist()

    @staticmethod
    def _subtype(cat: str, marginal: dict, decisions) -> str:
        score: dict = {}
        for lab, p in marginal.items():
            if lab != OUTSIDE and SUBTYPE_TO_PARENT[lab[2:]] == cat:
                score[lab[2:]] = score.get(lab[2:], 0.0) + p
        if score and max(score.values()) > 1e-3:
            return max(sorted(score), key=score.__getitem__)
        for d in decisions:
            if d is not None and SUBTYPE_TO_PARENT[d[1]] == cat:
                return d[1]
        return CATEGORIES[cat][0]
