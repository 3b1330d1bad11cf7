"""A de-identified FHIR resource kept valid: every element the specification requires
(:mod:`crfdeid.io.fhir_std`, R4B) that the input held and the policy walk removed is written
back, as the original where it is a code or a number (codes are not PHI: ``Goal.lifecycleStatus``,
``AdverseEvent.actuality``, ``Group.type``), else as a valid value that tells nothing:

* a ``code``, ``boolean``, number, ``uri``/``canonical`` of a URL or OID form, ``id``: as written
  (a request URL: its resource type, or its ``Type/id`` with the id hashed, never its query);
* a ``string`` or ``markdown``: as written when it has the form of a name of the specification's
  own (``linkId``, ``Composition.section``, ``1.1``, ``*``), else :data:`PLACEHOLDER`;
* a date or ``dateTime``: moved by the patient's offset (surrogates), else its year; an
  ``instant`` moved, else the first moment of its year (an instant has no year alone);
* a ``CodeableConcept`` or ``Coding``: its codes and their display (a concept of text alone: a
  text of :data:`PLACEHOLDER`, as the walk does not keep free text); a ``Reference``: its hashed
  reference, else a display of :data:`PLACEHOLDER`; a quantity: its value and unit;
* any other element: its own required elements, so restored.

An element a policy's rule redacts is never written back: a required one gets a value that holds
nothing of it (:data:`PLACEHOLDER` as a string, a concept's text, a reference's display; a
required choice its string form), where the type has one. Each is counted (``required elements
written back``).
"""

from __future__ import annotations

import re
from typing import Any

from . import fhir_std
from .record_dates import FHIR_DATE

#: The text of a required string whose value is not written.
PLACEHOLDER = "[**REDACTED**]"
#: The div of a narrative kept without its text (a narrative must have one).
NARRATIVE = f'<div xmlns="http://www.w3.org/1999/xhtml">{PLACEHOLDER}</div>'
_KEEP = frozenset({"code", "boolean", "bool", "integer", "positiveInt", "unsignedInt", "decimal", "time", "id",
                   "integer64"})
_URIS = frozenset({"uri", "url", "canonical", "oid", "uuid"})
_URI = re.compile(r"[a-z][a-z0-9+.\-]*:[^\s]*|[A-Z][A-Za-z]+(?:/[A-Za-z0-9\-.]+)?|[A-Za-z0-9\-.]+")
#: A name of the specification's own: a path, an id, a lower-case word or camelCase, a cardinality.
_SPEC_NAME = re.compile(r"[a-z][A-Za-z0-9]*(?:[._\-:/\[\]][A-Za-z0-9\[\]]+)*|[A-Z][A-Za-z]+(?:\.[a-z][A-Za-z0-9\[\]]*)+"
                        r"|[0-9][0-9.]*|\*")
_CODING = ("system", "version", "code", "display", "userSelected")
_QUANTITY = ("value", "comparator", "unit", "system", "code", "currency")


def repair(walk, original: dict, out: dict, kind: str, ctx) -> dict:
    """``out`` (the walk's output of ``original``, a resource of type ``kind``) with the required
    elements ``original`` held written back (module docstring)."""
    _node(walk, original, out, kind, ctx, ())
    return out


def _node(walk, orig: dict, out: dict, cls: str, ctx, path: tuple) -> None:
    fields = fhir_std.table().get(cls)
    if not fields:
        return
    for key, (typ, many, required) in fields.items():
        value = orig.get(key)
        if value is None or typ == "choice":
            continue
        if key in out:
            if typ == "Narrative" and isinstance(out[key], dict) and "div" not in out[key]:
                out[key] = {"status": out[key].get("status", "empty"), "div": NARRATIVE}
                walk.w.count("required elements written back")
            _inner(walk, value, out[key], typ, ctx, path + (key,))
        elif required:
            new = _blank(typ, many) if _redacted(walk, ctx, path + (key,)) else \
                _restore(walk, value, typ, many, key, ctx, path + (key,))
            if new is not None:
                out[key] = new
                walk.w.count("required elements written back")
    for key, (typ, _, required) in fields.items():
        if typ != "choice" or not required:
            continue
        stem = key[:-3]
        choices = [k for k in fields if k.startswith(stem) and k != key and k[len(stem):len(stem) + 1].isupper()]
        if any(k in out for k in choices):
            continue
        given = next((k for k in choices if k in orig), None)
        if given is not None and _redacted(walk, ctx, path + (stem,)):  # a policy's rule: no value of it
            given = next((k for k in choices if _blank(fields[k][0], False) is not None), None)
            new = _blank(fields[given][0], False) if given else None
        elif given is not None:
            new = _restore(walk, orig[given], fields[given][0], False, given, ctx, path + (given,))
        if given is not None:
            if new is not None:
                out[given] = new
                walk.w.count("required elements written back")


def _redacted(walk, ctx, path: tuple) -> bool:
    """Whether the policy names the element ``redact`` (its value is never written back)."""
    return walk.policy.method(ctx[0], path, []) == "redact"


def _blank(typ: str, many: bool) -> Any:
    """A required element a policy redacts: a valid value that holds nothing of it, where one exists."""
    new = {"string": PLACEHOLDER, "markdown": PLACEHOLDER, "CodeableConcept": {"text": PLACEHOLDER},
           "Coding": {"display": PLACEHOLDER}, "Reference": {"display": PLACEHOLDER}}.get(typ)
    return [new] if many and new is not None else new


def _inner(walk, value, new, typ: str, ctx, path: tuple) -> None:
    """The required elements inside an element the walk kept (lists aligned when they still are)."""
    if typ not in fhir_std.table() or typ in ("Resource", "Extension", "Narrative"):
        return
    if isinstance(value, list) and isinstance(new, list):
        if len(value) == len(new):
            for a, b in zip(value, new):
                if isinstance(a, dict) and isinstance(b, dict):
                    _node(walk, a, b, typ, ctx, path)
    elif isinstance(value, dict) and isinstance(new, dict):
        _node(walk, value, new, typ, ctx, path)


def _restore(walk, value, typ: str, many: bool, key: str, ctx, path: tuple) -> Any:
    """A valid value for a required element the walk removed (None: none can be given)."""
    if many or isinstance(value, list):
        items = value if isinstance(value, list) else [value]
        got = [v for v in (_restore(walk, v, typ, False, key, ctx, path) for v in items) if v is not None]
        return got or None
    if isinstance(value, (bool, int, float)):
        return value if typ in _KEEP else None
    if isinstance(value, str):
        return _primitive(walk, value, typ, key, ctx)
    if not isinstance(value, dict):
        return None
    if typ == "CodeableConcept":
        coding = [{k: c[k] for k in _CODING if k in c} for c in value.get("coding") or [] if isinstance(c, dict)]
        # its codes; its text is free text the policy did not keep (it may name a person)
        return {"coding": [c for c in coding if c]} if any(coding) else {"text": PLACEHOLDER}
    if typ == "Coding":
        return {k: value[k] for k in _CODING if k in value} or None
    if typ == "Reference":
        ref = value.get("reference")
        return {"reference": walk.ref(ref)} if isinstance(ref, str) else {"display": PLACEHOLDER}
    if typ in ("Quantity", "SimpleQuantity", "Duration", "Count", "Distance", "Money"):
        return {k: value[k] for k in _QUANTITY if k in value} or None
    out: dict = {}
    _node(walk, value, out, typ, ctx, path)
    return out or None


def _primitive(walk, value: str, typ: str, key: str, ctx) -> Any:
    if typ in _KEEP:
        return value
    if typ in _URIS:
        if key == "url" and "?" in value:  # a conditional request: its resource type, not its query
            return value.split("?", 1)[0] or None
        if re.fullmatch(r"[A-Z][A-Za-z]+/[A-Za-z0-9\-.]{1,64}(?:/_history/.*)?", value):
            return walk.ref(value)
        return value if _URI.fullmatch(value) else None
    if typ in ("date", "dateTime", "instant") and FHIR_DATE.fullmatch(value.strip()):
        if walk.w.surrogates:
            return walk.w.date(ctx[1], value)
        year = value.strip()[:4]
        return f"{year}-01-01T00:00:00Z" if typ == "instant" else year
    if typ in ("string", "markdown"):
        return value if _SPEC_NAME.fullmatch(value) else PLACEHOLDER
    return None
