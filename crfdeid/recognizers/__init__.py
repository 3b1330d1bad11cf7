"""Recognizers beside the CRF, one interface for all, and the committee that combines them.

* :mod:`.base`: ``Recognizer.find(text) -> [Detection(span, confidence)]``, the registry of
  recognizers by versioned name and :func:`build_recognizer`;
* :mod:`.rules`: the rule overlay (Safe-Harbor forms, titles, trigger words), and its
  regexes as the ``rules.v1`` member (:mod:`.members`; ``crf.v1``, another model, is
  :mod:`crfdeid.crf.recognizer`);
* :mod:`.clinical` (the clinical-term filter) and :mod:`.safeharbor` (the Safe Harbor
  layer), applied to every tagger's spans by :func:`final_spans`;
* :mod:`.lexicon`: ``lexicon.v1``, public name and place lists;
* :mod:`.outside`: ``presidio.v1`` and ``spacy.v1`` (optional extras);
* :mod:`.committee` and :mod:`.stacking`: their decisions as CRF attributes (``mega.v1``)
  or stacked by a cross-fitted regression (``multi.v1``). See docs/committee.md.
"""

from __future__ import annotations

from ..text.align import to_token_bounds
from . import members as _members  # noqa: F401  (importing it registers the built-in recognizers)
from . import safeharbor
from .base import RECOGNIZERS, Detection, Recognizer, build_recognizer
from .clinical import drop_clinical

__all__ = ["Recognizer", "Detection", "RECOGNIZERS", "build_recognizer", "final_spans"]


def final_spans(text: str, spans, split_glued: bool = True, own_labels: bool = False,
                english: bool = True) -> list:
    """What every tagger returns for predicted ``spans`` of ``text`` (as
    :func:`crfdeid.text.clean.for_tagging` reads it): clinical terms dropped, then the Safe
    Harbor layer, then every span widened to token bounds.

    A model with labels of its own (``own_labels``: a scheme other than i2b2 2014) keeps its
    label wherever the layer's span joins a predicted one (the layer's i2b2 label stays on what
    only the layer found); a model of another language (``english`` false) keeps the spans the
    English clinical-term list would drop.

    >>> [(s.start, s.end, s.subtype) for s in final_spans("Age: 94", [])]
    [(5, 7, 'AGE')]
    """
    kept = drop_clinical(text, spans) if english else list(spans)
    return to_token_bounds(text, safeharbor.apply(text, kept, keep_predicted=own_labels), split_glued)
