"""Feature extraction: registered templates -> windowed CRFsuite attribute strings.

Two kinds of registered templates, both pure functions:

* **word templates** (:data:`WORD_TEMPLATES`): ``word -> dict`` in
  python-crfsuite's item format (string value ``{"k": "v"}`` -> attribute
  ``k:v``; ``True`` -> attribute ``k``). They see only the token text, so their
  output is cached per word type.
* **token templates** (:data:`TOKEN_TEMPLATES`): ``(text, tokens) -> list`` with
  one **tuple** of attribute strings per token (hashable: the tagger caches
  scores per tuple), for what depends on the surrounding text (glued flags,
  line and section context, regex matches over the raw text).

The ``+-window`` is applied in one place, :class:`~crfdeid.features.window.Featurizer`,
with offset-prefixed attribute names (``-1:shape:Xx``). Feature sets are plain
data (``features/*.yaml``) naming templates; see :func:`resolve_feature_set`.

>>> from crfdeid.features import Featurizer
>>> fz = Featurizer({"word": ["lower.v1"], "window": 1, "token_window": 0, "bigrams": False})
>>> fz.featurize_text("Dr Lee")[1]
['lower:lee', '-1:lower:dr', '+1:EOS']
"""

from __future__ import annotations

from . import context, identity, initials, surface, wordclass  # noqa: F401  (they register the built-in templates)
from .window import FEATURE_SET_KEYS, TOKEN_TEMPLATES, WORD_TEMPLATES, Featurizer, resolve_feature_set, to_attributes

__all__ = ["FEATURE_SET_KEYS", "TOKEN_TEMPLATES", "WORD_TEMPLATES", "Featurizer", "resolve_feature_set",
           "to_attributes"]
