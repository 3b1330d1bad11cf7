"""``crf.v1``: a trained crfdeid model as a committee member (:mod:`crfdeid.recognizers`).

Registered here, in the layer of the models, and imported by name when a config asks for it
(:data:`crfdeid.recognizers.base.PROVIDERS`).
"""

from __future__ import annotations

from typing import Any

from ..recognizers.base import Detection, Recognizer, register
from .model import Model


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
            self._model = Model.load(self.model_path)

    def find(self, text: str) -> list[Detection]:
        self.prepare()
        doc = self._model.tag_text(text, o_threshold=self.o_threshold)
        return [Detection(sp, c) for sp, c in zip(doc.spans, doc.meta["confidence"])]
