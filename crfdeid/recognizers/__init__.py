"""Recognizers beside the CRF: the rule overlay (:mod:`~crfdeid.recognizers.rules`), the
clinical-term filter (:mod:`~crfdeid.recognizers.clinical`) and the Safe Harbor layer
(:mod:`~crfdeid.recognizers.safeharbor`).
"""

from __future__ import annotations


def final_spans(text: str, spans, split_glued: bool = True) -> list:
    """What every tagger returns for predicted ``spans`` of ``text`` (as
    :func:`crfdeid.text.clean.for_tagging` reads it): clinical terms dropped, then the Safe
    Harbor layer, then every span widened to token bounds.

    >>> [(s.start, s.end, s.subtype) for s in final_spans("Age: 94", [])]
    [(5, 7, 'AGE')]
    """
    from ..text.align import to_token_bounds
    from . import safeharbor
    from .clinical import drop_clinical
    return to_token_bounds(text, safeharbor.apply(text, drop_clinical(text, spans)), split_glued)
