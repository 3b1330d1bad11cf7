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

from ..registry import Registry

WORD_TEMPLATES = Registry("word feature template")
TOKEN_TEMPLATES = Registry("token feature template")


def to_attributes(feats: dict, prefix: str = "") -> list[str]:
    """python-crfsuite's item format as a list of attribute strings.

    >>> to_attributes({"shape": "Xx", "title": True, "off": False})
    ['shape:Xx', 'title']
    """
    out = []
    for k, v in feats.items():
        if v is True:
            out.append(prefix + k)
        elif v is False or v is None:
            continue
        elif isinstance(v, dict):
            out.extend(to_attributes(v, f"{prefix}{k}:"))
        else:
            out.append(f"{prefix}{k}:{v}")
    return out


# Register the built-in templates (import order is irrelevant).
from . import lexical, orthographic, pattern, dictionary, context  # noqa: E402,F401
from .window import Featurizer, resolve_feature_set, FEATURE_SET_KEYS  # noqa: E402,F401
