"""The built-in recognizers: ``rules.v1`` (the rule overlay's regexes); ``crf.v1`` (a crfdeid
model) is registered by :mod:`crfdeid.crf.recognizer`.

Importing this module registers every built-in recognizer, including the lexicon matcher
(:mod:`.lexicon`) and the outside ones (:mod:`.outside`, whose packages are imported only
when one is built).
"""

from __future__ import annotations

from . import lexicon, outside, rules  # noqa: F401  (register lexicon.v1, presidio.v1, spacy.v1)
from .base import Detection, Recognizer, register


@register("rules.v1")
class RulesRecognizer(Recognizer):
    """The regex rules of :mod:`crfdeid.recognizers.rules` alone (no CRF spans to merge with).

    Every rule is high-precision by design: confidence 1.0.
    """

    name = "rules.v1"

    def prepare(self) -> None:
        rules.prepare()

    def find(self, text: str) -> list[Detection]:
        return [Detection(sp, 1.0) for sp in rules.find(text)]
