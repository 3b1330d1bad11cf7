"""The feature-template registries and python-crfsuite's item format.

Templates register themselves here by versioned name (``shape.v1``); feature sets
(:func:`crfdeid.features.resolve_feature_set`) name them.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..registry import Registry

WORD_TEMPLATES = Registry("word feature template")
TOKEN_TEMPLATES = Registry("token feature template")


def to_attributes(feats: dict, prefix: str = "") -> list[str]:
    """python-crfsuite's item format as a list of attribute strings.

    A string value ``{"k": "v"}`` is the attribute ``k:v``; ``True`` is ``k``
    (``False``/``None``: no attribute); a nested mapping prefixes its keys. In
    python-crfsuite a number is the weight of attribute ``k``; crfdeid's attributes
    are binary, so a number is refused rather than read as a string.

    >>> to_attributes({"shape": "Xx", "title": True, "off": False, "gaz": {"city": True}})
    ['shape:Xx', 'title', 'gaz:city']
    >>> to_attributes({"len": 5})
    Traceback (most recent call last):
    ...
    crfdeid.errors.ConfigError: feature 'len' has the number 5: python-crfsuite reads numbers as weights, crfdeid's attributes are binary (give a string value, e.g. '5')
    """
    out = []
    for k, v in feats.items():
        if v is True:
            out.append(prefix + k)
        elif v is False or v is None:
            continue
        elif isinstance(v, dict):
            out.extend(to_attributes(v, f"{prefix}{k}:"))
        elif isinstance(v, str):
            out.append(f"{prefix}{k}:{v}")
        elif isinstance(v, (int, float)):
            raise ConfigError(f"feature {prefix + k!r} has the number {v!r}: python-crfsuite reads numbers "
                              f"as weights, crfdeid's attributes are binary (give a string value, e.g. '{v}')")
        else:
            raise ConfigError(f"feature {prefix + k!r} has a {type(v).__name__} value; "
                              "expected a string, true/false or a mapping")
    return out
