"""Recognizers beside the CRF: the rule overlay (:mod:`~crfdeid.recognizers.rules`), the
clinical-term filter (:mod:`~crfdeid.recognizers.clinical`) and the Safe Harbor layer
(:mod:`~crfdeid.recognizers.safeharbor`).
"""

from __future__ import annotations


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
    from ..text.align import to_token_bounds
    from . import safeharbor
    from .clinical import drop_clinical
    kept = drop_clinical(text, spans) if english else list(spans)
    return to_token_bounds(text, safeharbor.apply(text, kept, keep_predicted=own_labels), split_glued)
