"""Redaction by placeholders and masking with same-length characters.

Placeholder styles are registered templates (``str.format`` fields
``{subtype}``, ``{category}``, ``{length}``), or a template string given
directly:

>>> from crfdeid.document import Document, make_span
>>> doc = Document("1", "Seen by Smith on 7/22.", [make_span(8, 13, "DOCTOR"), make_span(17, 21, "DATE")])
>>> redact(doc).text
'Seen by [**DOCTOR**] on [**DATE**].'
>>> redact(doc, "xyz").text
'Seen by XYZ_DOCTOR on 00.00.DATE.'
>>> redact(doc, "category").text
'Seen by [NAME] on [DATE].'
>>> redact(doc, "<{category}:{subtype}>").text
'Seen by <NAME:DOCTOR> on <DATE:DATE>.'
>>> mask(doc).text
'Seen by XXXXX on XXXX.'
"""

from __future__ import annotations

from ..document import Document
from ..errors import ConfigError
from ..registry import Registry
from ..schema import check_template
from .spans import has_line_break, replace_spans

#: Placeholder styles: name -> ``{subtype or "*": template}``.
STYLES = Registry("redaction style")
STYLES.register("mimic", {"*": "[**{subtype}**]"})
# Shweta et al.: XYZ_<TYPE> placeholders, dates as 00.00.DATE.
STYLES.register("xyz", {"*": "XYZ_{subtype}", "DATE": "00.00.DATE"})
STYLES.register("category", {"*": "[{category}]"})


def templates(style: str) -> dict:
    """The templates of a registered style, or ``{"*": style}`` for a template string."""
    if "{" in style or has_line_break(style):
        return {"*": check_template(style)}
    return STYLES.get(style)


def scheme_templates(scheme, style: str = "mimic") -> dict:
    """``style``'s templates with the placeholders a scheme declares for its labels on top."""
    table = dict(templates(style))
    table.update({lab.name: lab.placeholder for lab in scheme.labels if lab.placeholder})
    return table


def redact(doc: Document, style: str | dict = "mimic") -> Document:
    """Replace every PHI span by a placeholder; returns a new document with new spans.

    A span across a line break gets one placeholder per line, so the output has
    the input's lines.

    Parameters
    ----------
    style : str
        A registered style (``mimic`` ``[**DOCTOR**]``, ``xyz`` ``XYZ_DOCTOR`` /
        ``00.00.DATE``, ``category`` ``[NAME]``) or a template string with
        ``{subtype}``, ``{category}`` and ``{length}`` fields; or a table
        ``{label or "*": template}`` (:func:`scheme_templates`).
    """
    table = style if isinstance(style, dict) else templates(style)

    def placeholder(sp, surface):
        tpl = table.get(sp.subtype, table["*"])
        return tpl.format(subtype=sp.subtype, category=sp.category, length=len(surface))
    return replace_spans(doc, placeholder)


def mask(doc: Document, char: str = "X", keep_space: bool = True) -> Document:
    """Replace every PHI character by ``char``: text length and every offset stay the same.

    White space inside a span (line breaks of a multi-line address) is kept
    when ``keep_space`` so the layout does not move.
    """
    if len(char) != 1:
        raise ConfigError(f"mask character must be one character, not {char!r}")

    def masked(sp, surface):
        return "".join(c if keep_space and c.isspace() else char for c in surface)
    return replace_spans(doc, masked)
