"""The dates of a patient's records wherever they stand: every FHIR element of a patient's
resource and every HL7 v2 field of a patient's message whose value is a date, found by its
form (the writers know the meaning of only some elements and fields; a date they do not know,
left as it was beside the moved ones, would give the patient's offset and the real dates away).

A FHIR ``date``, ``dateTime`` or ``instant`` is recognized by its form (``YYYY-MM``,
``YYYY-MM-DD``, ``YYYY-MM-DDThh:mm[:ss[.s]][Z|+hh:mm]``; a year alone is left, it is what a
redacted record keeps and what a moved one keeps too); an HL7 ``DT``/``DTM``/``TS`` component
or subcomponent by ``YYYYMMDD[hh[mm[ss[.s]]]][+-zzzz]`` that is a real date of the years
1800-2199 (a month alone, ``YYYYMM``, is not told from a number and is left). Each is given to
``move(value, ...)``, :meth:`crfdeid.io.records.RecordWriter.date` in the writers: moved by the
patient's offset (surrogate) or cut to its year, in its own precision and format: one value is
read and moved by :func:`as_date`, :func:`shift_date` and :func:`year_of`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

_ISO = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(.*)", re.S)
_COMPACT = re.compile(r"(\d{4})(?:(\d{2})(?:(\d{2}))?)?(.*)", re.S)


def shift_date(value: str, days: int, compact: bool = False) -> str | None:
    """``value`` (FHIR ``date``/``dateTime``, or HL7 ``DT``/``TS`` with ``compact``) moved by
    ``days``, the time kept, in its own precision: a year alone stays, a month moves with its
    15th. None when it is no date.

    >>> shift_date("2098-03-14T08:00:00Z", -30), shift_date("209803", 20, compact=True)
    ('2098-02-12T08:00:00Z', '209804')
    """
    m = (_COMPACT if compact else _ISO).fullmatch(value.strip())
    if not m:
        return None
    year, month, day, rest = m.groups()
    try:
        if month is None:
            return value
        base = dt.date(int(year), int(month), int(day or 15)) + dt.timedelta(days=days)
    except ValueError:
        return None
    sep = "" if compact else "-"
    out = f"{base.year:04d}{sep}{base.month:02d}"
    return out + (f"{sep}{base.day:02d}" if day is not None else "") + rest


def year_of(value: str) -> str | None:
    """The year a date starts with (what Safe Harbor lets a redacted record keep), or None."""
    m = re.match(r"\d{4}", value.strip())
    return m.group() if m else None


def as_date(value: str, compact: bool = False) -> dt.date | None:
    m = (_COMPACT if compact else _ISO).fullmatch(value.strip())
    if not m or m.group(3) is None:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


#: A FHIR date, dateTime or instant of at least month precision.
FHIR_DATE = re.compile(r"\d{4}-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01])"
                       r"(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:\.\d{1,9})?)?"
                       r"(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?)?)?")
#: An HL7 DT/DTM/TS value of at least day precision.
HL7_DATE = re.compile(r"(1[89]\d\d|2[01]\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])"
                      r"(?:(?:[01]\d|2[0-3])(?:[0-5]\d(?:[0-5]\d(?:\.\d{1,4})?)?)?)?(?:[+-]\d{4})?")
#: FHIR elements whose string is never a date (codes, references, base64, narrative...).
#: (``value``: an identifier's or a telecom's, de-identified as such where the writer knows them.)
_NOT_DATES = frozenset({"id", "reference", "system", "code", "version", "url", "data", "div", "hash",
                        "contentType", "language", "versionId", "profile", "fullUrl", "value"})
#: FHIR elements of type ``instant`` (which must be complete: removed rather than cut to a year).
INSTANTS = frozenset({"issued", "lastUpdated", "effectiveInstant", "valueInstant", "when", "timestamp"})

#: ``move(value, key, instant)`` -> the new value, or None to remove the element.
FhirMove = Callable[[str, str, bool], "str | None"]


def fhir_dates(res: dict, move: FhirMove, skip: tuple[str, ...] = (), instants: tuple[str, ...] = ()) -> int:
    """Move every date of the resource ``res`` in place (its ``contained`` resources and
    extensions too), but its top-level elements ``skip``; ``instants``: more top-level elements
    of type instant (``DocumentReference.date``). Returns how many dates were found."""
    found = 0

    def walk(obj: Any, top: bool) -> None:
        nonlocal found
        if isinstance(obj, dict):
            for key in list(obj):
                value = obj[key]
                if key in _NOT_DATES or (top and key in skip):
                    continue
                if isinstance(value, str):
                    if FHIR_DATE.fullmatch(value.strip()):
                        found += 1
                        new = move(value, key, key in INSTANTS or (top and key in instants))
                        if new is None or new == "":
                            del obj[key]
                        else:
                            obj[key] = new
                elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                    new_list = [_one(v, key, move) for v in value]
                    found += sum(v != n for v, n in zip(value, new_list))
                    obj[key] = [v for v in new_list if v is not None]
                else:
                    walk(value, False)
        elif isinstance(obj, list):
            for v in obj:
                walk(v, False)
    walk(res, True)
    return found


def _one(value: str, key: str, move: FhirMove) -> str | None:
    if not FHIR_DATE.fullmatch(value.strip()):
        return value
    return move(value, key, key in INSTANTS)


def hl7_dates(field: str, rep: str, comp: str, sub: str, move: Callable[[str], str | None],
              skip: frozenset[int] = frozenset()) -> tuple[str, int]:
    """An HL7 field with every date of its repetitions, components (but the components
    numbered ``skip`` from 0: those the writer de-identifies otherwise) and subcomponents
    moved (a date ``move`` removes is left empty); and how many there were."""
    found = 0

    def one(value: str) -> str:
        nonlocal found
        if not HL7_DATE.fullmatch(value) or not _real(value):
            return value
        found += 1
        return move(value) or ""
    out = rep.join(comp.join(c if j in skip else sub.join(one(s) for s in c.split(sub))
                             for j, c in enumerate(r.split(comp)))
                   for r in field.split(rep))
    return out, found


def _real(value: str) -> bool:
    return as_date(value[:8], compact=True) is not None
