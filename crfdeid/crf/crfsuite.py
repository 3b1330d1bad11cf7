"""The reference tagging backend: attribute strings handed to ``pycrfsuite.Tagger``.

Slower than the numpy backend (:mod:`crfdeid.crf.numpy`) and giving the same
labels; kept as the reference the numpy backend is tested against.
"""

from __future__ import annotations

import numpy as np
import pycrfsuite

from ..errors import ModelError
from ..labels import OUTSIDE
from ..tagging.decoding import below, threshold_labels


def open_tagger(crf_bytes: bytes, path=None) -> pycrfsuite.Tagger:
    """A CRFsuite tagger on a model's CRFsuite part (checked by :mod:`crfdeid.tagging.modelfile`)."""
    tagger = pycrfsuite.Tagger()
    try:
        tagger.open_inmemory(crf_bytes)
    except Exception as exc:
        raise ModelError(f"CRFsuite refused the model ({exc})", path=path) from None
    return tagger


class CrfsuiteBackend:
    """Label tokenized documents with ``pycrfsuite.Tagger`` (same interface as ``NumpyTagger``)."""

    def __init__(self, tagger: pycrfsuite.Tagger, featurizer):
        self.tagger = tagger
        self.featurizer = featurizer
        self.labels = list(tagger.labels())
        self._others = [lab for lab in self.labels if lab != OUTSIDE]

    def run(self, items, o_threshold, want_marginals=False, o_words=frozenset()) -> list[tuple]:
        """``(labels, p_outside, marginals)`` of each ``(text, tokens, segments)``; see ``NumpyTagger.run``."""
        return [self._one(text, toks, segs, o_threshold, want_marginals, o_words) for text, toks, segs in items]

    def probabilities(self, items) -> list[tuple[list[str], np.ndarray]]:
        """Per document: its Viterbi labels and every token's marginals (rows in ``labels`` order)."""
        out = []
        for text, toks, segs in items:
            y, _, margs = self._one(text, toks, segs, None, True, frozenset())
            out.append((y, np.array([[m[lab] for lab in self.labels] for m in margs]).reshape(-1, len(self.labels))))
        return out

    def _one(self, text: str, toks: list, segs: list, o_threshold: float | None, want_marginals: bool,
             o_words: frozenset) -> tuple[list, list, list]:
        tagger, labels = self.tagger, self.labels
        feats = self.featurizer.featurize(text, toks)
        y: list = []
        p_out: list = []
        margs: list = []
        for a, b in segs:
            seg = tagger.tag(feats[a:b])
            for t in range(b - a):
                if want_marginals or o_threshold is not None:
                    margs.append({lab: tagger.marginal(lab, t) for lab in labels})
                    p_o = margs[-1].get(OUTSIDE, 0.0)
                else:
                    p_o = tagger.marginal(OUTSIDE, t) if seg[t] != OUTSIDE else None
                # Without a threshold, P(O) is reported for PHI tokens only (their confidence).
                p_out.append(p_o if o_threshold is not None or seg[t] != OUTSIDE else None)
            y.extend(seg)
        if o_threshold is not None:
            low = below(p_out, [lab == OUTSIDE for lab in y], o_threshold, toks)
            threshold_labels(y, low, lambda lab, t: margs[t][lab], self._others,
                             toks, o_words)
        return y, p_out, margs if want_marginals else []
