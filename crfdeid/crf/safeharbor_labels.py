"""What the Safe Harbor layer's finds are called in a corpus of the user's own labels (issue 58).

Training on a scheme other than i2b2 2014 counts, for each kind the layer finds (``PHONE``,
``EMAIL``...), which label of the corpus' own scheme its finds carry in the training notes; the
model's manifest keeps the answer as ``safe_harbor_labels`` and the layer writes a find the CRF
missed in that label (:func:`crfdeid.recognizers.safeharbor.apply`'s ``relabel``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..recognizers.safeharbor import find


class LabelCounts:
    """Which label of a corpus' own scheme each Safe Harbor subtype's finds carry in its training
    notes, so that a find the CRF missed is written in the user's label and not in an i2b2 one.

    Evidence: a layer subtype maps to the label of most of its finds that overlap an
    annotated span, when that label holds at least ``min_count`` of them and more than
    half; a subtype with less evidence keeps the layer's label (its find is still removed).
    On the made-up Spanish BRAT proxy (``tests/es_brat_corpus.py``, docs/languages.md) the
    phones the layer finds alone were scored as false ``PHONE`` spans before.

    >>> from crfdeid.document import Span
    >>> counts = LabelCounts()
    >>> for text in ("Correo: ana@ejemplo.es", "Correo: luis@ejemplo.es"):
    ...     counts.add(text, [Span(8, len(text), "CORREO", "CORREO")])
    >>> counts.labels({"CORREO": "CORREO"})
    {'EMAIL': ['CORREO', 'CORREO']}
    """

    def __init__(self, min_count: int = 2) -> None:
        self.min_count = min_count
        self.counts: dict[str, Counter] = {}

    def add(self, text: str, gold) -> None:
        """Count the finds of ``text`` (a note as the tagger reads it) against its ``gold`` spans."""
        gold = sorted(gold)
        for sp in find(text):
            over = [g for g in gold if g.start < sp.end and sp.start < g.end]
            if over:
                best = max(over, key=lambda g: min(g.end, sp.end) - max(g.start, sp.start))
                self.counts.setdefault(sp.subtype, Counter())[best.subtype] += 1

    def labels(self, parents: Mapping[str, str]) -> dict[str, list[str]]:
        """``{layer subtype: [category, label]}`` (``parents``: a label's category, the scheme's)."""
        out = {}
        for sub, counts in sorted(self.counts.items()):
            label, n = counts.most_common(1)[0]
            if n >= self.min_count and 2 * n > sum(counts.values()):
                out[sub] = [parents[label], label]
        return out
