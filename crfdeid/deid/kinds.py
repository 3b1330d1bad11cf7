"""The surrogate generators a declared label scheme can name, and how a label reaches one.

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
from ..registry import Registry
from ..schema import I2B2

#: Kind name -> ``(category, subtype)`` of the i2b2 label whose generator it uses.
SURROGATE_KINDS = Registry("surrogate generator")
for _name, _proxy in {
    "name": ("NAME", "PATIENT"), "username": ("NAME", "USERNAME"),
    "profession": ("PROFESSION", "PROFESSION"),
    "room": ("LOCATION", "ROOM"), "department": ("LOCATION", "DEPARTMENT"),
    "hospital": ("LOCATION", "HOSPITAL"), "organization": ("LOCATION", "ORGANIZATION"),
    "street": ("LOCATION", "STREET"), "city": ("LOCATION", "CITY"), "state": ("LOCATION", "STATE"),
    "country": ("LOCATION", "COUNTRY"), "zip": ("LOCATION", "ZIP"),
    "location": ("LOCATION", "LOCATION-OTHER"),
    "age": ("AGE", "AGE"), "date": ("DATE", "DATE"),
    "phone": ("CONTACT", "PHONE"), "fax": ("CONTACT", "FAX"), "email": ("CONTACT", "EMAIL"),
    "url": ("CONTACT", "URL"), "ipaddr": ("CONTACT", "IPADDR"),
    "ssn": ("ID", "SSN"), "id": ("ID", "IDNUM"),
    "random": ("ID", "IDNUM"),
}.items():
    SURROGATE_KINDS.register(_name, _proxy)
#: The kind of a label whose scheme names none.
DEFAULT_KIND = "random"


def stand_in(span: Span, scheme) -> Span:
    """The i2b2-labelled span whose surrogate rules ``span`` follows under ``scheme``.

    Spans of the i2b2 scheme (``scheme`` ``None`` or with i2b2 labels) are their own stand-ins.
    """
    if scheme is None or scheme is I2B2:
        return span
    lab = scheme.label(span.subtype)
    kind = (lab.surrogate if lab is not None else None) or DEFAULT_KIND
    return Span(span.start, span.end, *SURROGATE_KINDS.get(kind))
