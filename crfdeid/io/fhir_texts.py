"""The texts of a FHIR resource the reader reads, and where a de-identified text is written back.

The notes (:data:`crfdeid.io.fhir.NOTES`): ``DocumentReference.content[].attachment`` and
``DiagnosticReport.presentedForm[]`` attachments given inline (base64 ``data``, a ``text/*`` or
unstated content type, decoded with its ``charset``) and ``Observation.valueString``; and the free
texts of any resource (:data:`crfdeid.io.fhir_policy.FREE_TEXTS`: annotations, a message's
payload, descriptions, conclusions). Each text has a locator (the keys and indexes that lead to it)
by which :func:`put` writes it back; a free text is written as a
:class:`~crfdeid.io.fhir_walk.ReadText`, which the policy walk keeps where the policy says ``text``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re

from ..errors import ReaderError
from .fhir_policy import FREE_TEXTS
from .files import decode


def _attachment_text(att: dict, where: str, path) -> str | None:
    """An inline text attachment's text; None when it is not text (raises when it cannot be read)."""
    ctype = str(att.get("contentType") or "text/plain").lower()
    if not ctype.startswith("text/"):
        return None
    m = re.search(r"charset=([\w\-]+)", ctype)
    try:
        data = base64.b64decode(att["data"], validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise ReaderError(f"{where}: attachment data is not base64; the record is not read", path=path) from None
    errors: list = []
    try:
        text = decode(data, errors.append, encoding=m.group(1) if m else None)
    except LookupError:  # a charset Python does not know: this record only
        charset = (m.group(1) if m else "")[:40]
        raise ReaderError(f"{where}: attachment charset {charset!r} is not one crfdeid knows; the record is not read",
                          path=path) from None
    if text is None:
        raise ReaderError(f"{where}: attachment is not text in its charset; the record is not read",
                          path=path) from None
    return text


def pieces(res: dict, where: str, path) -> list[tuple[tuple, str]]:
    """``(locator, text)`` of each text of a resource (raises for an attachment that cannot be read)."""
    kind = res.get("resourceType")
    out: list[tuple[tuple, str]] = []
    atts = _attachments(res)
    if kind == "Observation" and isinstance(res.get("valueString"), str):
        out.append((("valueString",), res["valueString"]))
    for loc, att in atts:
        if "data" in att:
            text = _attachment_text(att, f"{where} {kind} attachment {loc[1] + 1}", path)
            if text is not None:
                out.append((loc, text))
    for resource, steps in FREE_TEXTS:
        if resource in (None, kind):
            out += [((FREE, *at), text) for at, text in _strings(res, steps, ())]
    return out


#: The first step of a free text's locator (:data:`crfdeid.io.fhir_policy.FREE_TEXTS`).
FREE = "free"


def _strings(value, steps: tuple[str, ...], at: tuple):
    """``(keys and indexes, string)`` of the strings at element names ``steps`` under ``value``."""
    if isinstance(value, list):
        for n, v in enumerate(value):
            yield from _strings(v, steps, at + (n,))
    elif not steps:
        if isinstance(value, str):
            yield at, value
    elif isinstance(value, dict) and steps[0] in value:
        yield from _strings(value[steps[0]], steps[1:], at + (steps[0],))


def _attachments(res: dict) -> list[tuple[tuple, dict]]:
    kind = res.get("resourceType")
    if kind == "DocumentReference":
        return [(("content", i, "attachment"), c["attachment"]) for i, c in enumerate(res.get("content") or [])
                if isinstance(c, dict) and isinstance(c.get("attachment"), dict)]
    if kind == "DiagnosticReport":
        return [(("presentedForm", i), a) for i, a in enumerate(res.get("presentedForm") or []) if isinstance(a, dict)]
    return []


def at(res: dict, loc: tuple):
    """The attachment a text was read from (the resource itself for ``valueString``)."""
    for step in loc if loc != ("valueString",) else ():
        res = res[step]
    return res


def put(res: dict, loc: tuple, text: str) -> None:
    """Write a de-identified text back where it was read (an attachment re-encoded, its size and
    hash those of the new text)."""
    if loc == ("valueString",):
        res["valueString"] = text
        return
    if loc[0] == FREE:
        for step in loc[1:-1]:
            res = res[step]
        res[loc[-1]] = text
        return
    att = res
    for step in loc:
        att = att[step]
    ctype = str(att.get("contentType") or "")
    m = re.search(r"charset=([\w\-]+)", ctype.lower())
    data = text.encode(m.group(1) if m else "utf-8")
    att["data"] = base64.b64encode(data).decode("ascii")
    if "size" in att:
        att["size"] = len(data)
    if "hash" in att:
        att["hash"] = base64.b64encode(hashlib.sha1(data).digest()).decode("ascii")
