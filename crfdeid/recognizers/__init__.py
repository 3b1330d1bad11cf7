"""Recognizers beside the CRF, one interface for all, and the committee that combines them.

* :mod:`.base`: ``Recognizer.find(text) -> [Detection(span, confidence)]``, the registry of
  recognizers by versioned name and :func:`build_recognizer`;
* :mod:`.rules`: the rule overlay (Safe-Harbor forms, titles, trigger words), and its
  regexes as the ``rules.v1`` recognizer (``crf.v1``, another model, is
  :mod:`crfdeid.crf.recognizer`);
* :mod:`.chain`: the post-CRF chain every tagger's spans go through, registered span
  processors named in the config's ``postprocess``: :mod:`.clinical` (the clinical-term
  filter), the rule overlay, and :mod:`.safeharbor` (the Safe Harbor layer), always last;
* :mod:`.lexicon`: ``lexicon.v1``, public name and place lists;
* :mod:`.outside`: ``presidio.v1`` and ``spacy.v1`` (optional extras);
* :mod:`.committee` and :mod:`.stacking`: their decisions as CRF attributes (``mega.v1``)
  or stacked by a cross-fitted regression (``multi.v1``). See docs/committee.md.
"""

from __future__ import annotations

# importing them registers the built-in recognizers: rules.v1, lexicon.v1, presidio.v1 and spacy.v1 (their
# packages are imported only when one is built)
from . import lexicon, outside, rules  # noqa: F401
from .base import RECOGNIZERS, Detection, Recognizer, build_recognizer

__all__ = ["Recognizer", "Detection", "RECOGNIZERS", "build_recognizer"]

