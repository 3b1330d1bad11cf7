"""The built-in recognizers: ``rules.v1`` (the rule overlay's regexes) and ``crf.v1`` (a crfdeid model).

Importing this module registers every built-in recognizer, including the lexicon matcher
(:mod:`.lexicon`) and the outside ones (:mod:`.outside`, whose packages are imported only
when one is built).
"""

from __future__ import annotations

from typing import Any

from . import lexicon, outside  # noqa: F401  (register lexicon.v1, presidio.v1, spacy.v1)
from .base import Detection, Recognizer, register


@register("rules.v1")
class RulesRecognizer(Recognizer):
    """The regex rules of :mod:`crfdeid.recognizers.rules` alone (no CRF spans to merge with).

    Every rule is high-precision by design: confidence 1.0.
    """

    name = "rules.v1"

    def prepare(self) -> None:
        from .rules import prepare
        prepare()

    def find(self, text: str) -> list[Detection]:
        from .rules import find
        return [Detection(sp, 1.0) for sp in find(text)]


@register("crf.v1")
class CrfRecognizer(Recognizer):
    """A trained crfdeid model as a recognizer (e.g. the shipped synthetic model beside a local one).

    Parameters
    ----------
    model : str, optional
        A model file (default: the model shipped in the package).
    o_threshold : float, None or "default"
        Its decoding: ``"default"`` (its config's), ``None`` (Viterbi) or a P(O) threshold.

    A detection's confidence is the span's lowest token probability of being PHI.
    """

    name = "crf.v1"

    def __init__(self, model: str | None = None, o_threshold="default"):
        self.model_path = model
        self.o_threshold = ... if o_threshold == "default" else o_threshold
        self._model: Any = None

    def prepare(self) -> None:
        if self._model is None:
            from ..crf.model import Model
            self._model = Model.load(self.model_path)

    def find(self, text: str) -> list[Detection]:
        self.prepare()
        doc = self._model.tag_text(text, o_threshold=self.o_threshold)
        return [Detection(sp, c) for sp, c in zip(doc.spans, doc.meta["confidence"])]
