"""How a label reaches one of the surrogate generators a declared label scheme can name
(:data:`crfdeid.schema.SURROGATE_KINDS`).

Each kind is registered under a name and stands for the i2b2 2014 label whose
generator, date shifting, age policy and leak checks :class:`~crfdeid.deid.Surrogator`
applies (``date`` shifts by the patient's offset, ``name`` draws consistent names,
``age`` keeps ages of 89 or less...). ``random`` is the shape-keeping random
replacement (letters to letters, digits to digits, consistent per patient): the
kind of every label a scheme gives no generator, and of every label of a scheme
read from a corpus.

>>> SURROGATE_KINDS.get("date"), SURROGATE_KINDS.get("random")
(('DATE', 'DATE'), ('ID', 'IDNUM'))
>>> from crfdeid.document import Span
>>> from crfdeid.schema import Scheme
>>> s = Scheme.from_dict({"labels": {"Fecha": {"surrogate": "date"}, "Codigo": {}}})
>>> stand_in(Span(0, 4, "Fecha", "Fecha"), s), stand_in(Span(0, 4, "Codigo", "Codigo"), s)
(Span(start=0, end=4, category='DATE', subtype='DATE'), Span(start=0, end=4, category='ID', subtype='IDNUM'))
"""

from __future__ import annotations

from ..document import Span
from ..schema import DEFAULT_KIND, I2B2, SURROGATE_KINDS

__all__ = ["DEFAULT_KIND", "SURROGATE_KINDS", "stand_in"]



def stand_in(span: Span, scheme) -> Span:
    """The i2b2-labelled span whose surrogate rules ``span`` follows under ``scheme``.

    Spans of the i2b2 scheme (``scheme`` ``None`` or with i2b2 labels) are their own stand-ins.
    """
    if scheme is None or scheme is I2B2:
        return span
    lab = scheme.label(span.subtype)
    kind = (lab.surrogate if lab is not None else None) or DEFAULT_KIND
    return Span(span.start, span.end, *SURROGATE_KINDS.get(kind))
