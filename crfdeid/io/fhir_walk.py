"""The policy walk: every element of a FHIR record de-identified by its rule or its data type.

:class:`Walk` goes through a record (a Bundle and its entries, a resource, its ``contained``
resources) element by element, with the element's path from its resource and the data types
of the nodes on the way (:mod:`crfdeid.io.fhir_types`), asks the policy
(:mod:`crfdeid.io.fhir_policy`) for a method and applies it. What no rule names is
de-identified by its data type (:meth:`Walk.deidentify`): a name, identifier, telecom or
address removed or replaced by the patient's surrogates, a date cut to its year or moved by the
patient's offset, an id or reference replaced by a keyed hash, an extension or narrative
removed, a string removed; a code, a code system's URI, a number that measures and a boolean
are kept. A value of a shape its type does not allow (a ``name`` that is a string, a
``telecom`` that is a string, a ``null``) is removed and counted. A Bundle entry that cannot be
walked (no resource, or an error) is left out and named in :attr:`Walk.failures` by its
position, resource type and hashed id, never its content; the other entries are written.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import uuid
from typing import Any

from . import fhir_std
from .fhir_policy import DEIDENTIFY, TEXT_PATHS, Policy
from .fhir_repair import repair
from .fhir_types import CODE_ELEMENTS, CODE_FORM, NUMBER_ELEMENTS, URI_ELEMENTS, URI_FORM, element_type
from .hl7_types import CODE_ID as CODE_TOKEN
from .hl7_types import PERSONAL
from .record_dates import FHIR_DATE, INSTANTS

#: Removed (the walk's answer for an element that is not written).
GONE: Any = object()
_TELECOM = {"phone": "PHONE", "sms": "PHONE", "pager": "PHONE", "fax": "FAX", "email": "EMAIL", "url": "URL"}
_SSN = "http://hl7.org/fhir/sid/us-ssn"
_REF = re.compile(r"(?:^|/)([A-Z][A-Za-z]+)/([A-Za-z0-9\-.]{1,64})(?:/_history/[^/]*)?$")
_MIME = re.compile(r"[a-z]+/[a-z0-9.+\-]+(?:; ?charset=[\w\-]+)?", re.I)
#: The 3-digit ZIP areas of fewer than 20,000 people (US Census 2000, as the Safe Harbor guidance lists them).
RESTRICTED_ZIP3 = frozenset({"036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830",
                             "831", "878", "879", "884", "890", "893"})


class ReadText(str):
    """A free text the reader read and the writer de-identified through the model (the walk keeps
    it where the policy says ``text``; any other string there is removed)."""


def zip3(value: str) -> str | None:
    """A US postal code generalized as Safe Harbor allows: its first 3 digits, ``000`` for an
    area of fewer than 20,000 people; None (removed) for anything else.

    >>> zip3("01234-5678"), zip3("03601"), zip3("SW1A 1AA")
    ('012', '000', None)
    """
    m = re.fullmatch(r"\s*(\d{3})\d{2}(?:-?\d{4})?\s*", value)
    if not m:
        return None
    return "000" if m.group(1) in RESTRICTED_ZIP3 else m.group(1)


class Walk:
    """One record's walk for the ``fhir`` writer (:class:`crfdeid.io.fhir.FhirWriter`).

    Parameters
    ----------
    writer : FhirWriter
        Gives surrogates, dates, the keyed hash and the counts.
    policy : Policy
    groups : dict
        ``id(resource)`` -> the patient group of its dates and surrogates.
    read : set
        ``id()`` of the attachments and resources whose text the reader read (kept: already
        de-identified through the model).
    urls : dict
        The Bundle's ``fullUrl`` -> ``Type/id`` (to tell whose name a reference's display is).
    names : dict
        ``Type/id`` -> the name words of the people of the input: a reference's ``display`` is
        the surrogate of its resource's name (never of the display's own text), else removed.
    where : str
        The record's position, for messages.
    """

    def __init__(self, writer, policy: Policy, groups: dict, read: set, urls: dict, names: dict, where: str):
        self.w, self.policy, self.groups, self.read, self.urls, self.where = writer, policy, groups, read, urls, where
        self.names = names
        self.failures: list[str] = []

    # -- resources ----------------------------------------------------------------------------
    def resource(self, res: dict, group: str, contained: bool = False) -> dict:
        """``res`` de-identified (a new dict)."""
        kind = res["resourceType"]
        ctx = (kind, self.groups.get(id(res), group), contained)
        out: dict = {}
        for key, value in res.items():
            if kind == "Bundle" and key == "entry" and isinstance(value, list):
                new = self._entries(value, ctx)
            elif key == "contained" and isinstance(value, list):
                new = [self.resource(r, ctx[1], True) for r in value if _is_resource(r)] or GONE
            else:
                new = self.value(value, key, (key,), [], None, ctx)
            if new is not GONE:
                out[key] = new
        return repair(self, res, out, kind, ctx)  # what a valid resource needs, written back

    def _entries(self, entries: list, ctx) -> Any:
        out = []
        for n, entry in enumerate(entries, 1):
            res = entry.get("resource") if isinstance(entry, dict) else None
            try:
                if not _is_resource(res):
                    raise ValueError("no resource")
                new = {}
                for key, value in entry.items():
                    v = (self.resource(value, ctx[1]) if key == "resource" else
                         self.value(value, key, ("entry", key), [], "BackboneElement", ctx))
                    if v is not GONE:
                        new[key] = v
                out.append(new)
            except Exception as exc:  # noqa: BLE001 - one bad entry never takes its neighbours
                kind = res.get("resourceType") if isinstance(res, dict) else None
                rid = res.get("id") if isinstance(res, dict) else None
                name = f"{kind if isinstance(kind, str) and kind.isalpha() else 'no resource'}"
                if isinstance(rid, str):
                    name += f" {self.w.hash(rid)}"
                self.failures.append(f"{self.where} entry {n} ({name}): not written "
                                     f"({'no resource' if str(exc) == 'no resource' else type(exc).__name__})")
        return out or GONE

    # -- elements -----------------------------------------------------------------------------
    def value(self, value, key: str, path: tuple, types: list, parent: str | None, ctx) -> Any:
        """The element ``key`` (at ``path`` of its resource) de-identified, or :data:`GONE`."""
        if value is None:
            self.w.count("null or empty elements removed")
            return GONE
        if isinstance(value, list):
            if (ctx[0], path) in TEXT_PATHS:  # a note given as a list (valueString: [...]): its strings were not read
                return self._gone("free texts removed (not read)")
            out = [v for v in (self.value(v, key, path, types, parent, ctx) for v in value) if v is not GONE]
            return out or GONE
        kind = "Narrative" if key == "text" and len(path) == 1 else element_type(ctx[0], parent, key)
        if kind == "Reference" and not isinstance(value, dict):
            kind = None
        here = types + [(len(path), kind)] if kind and kind[0].isupper() else types
        method = self.policy.method(ctx[0], path, here) or DEIDENTIFY
        if method == "keep":
            return value
        if method == "redact":
            self.w.count("elements redacted by the policy")
            return GONE
        if method == "text":
            if isinstance(value, ReadText) or ((ctx[0], path) in TEXT_PATHS and isinstance(value, str)
                                               and not ctx[2]):
                return str(value)  # de-identified through the model before the walk
            return self._gone("free texts removed (not read)") if isinstance(value, str) else self._odd()
        if method in ("hash", "shift", "generalize"):
            return self._method(method, value, key, ctx)
        return self.deidentify(value, key, path, here, kind, ctx)

    def _method(self, method: str, value, key: str, ctx) -> Any:
        if not isinstance(value, str):  # a geolocation, a Period...: no part of it is kept
            return self._gone("elements generalized away") if method == "generalize" else self._odd()
        if method == "hash":
            return self.w.hash(value)
        if method == "shift":
            return self._date(value, key, ctx) if FHIR_DATE.fullmatch(value.strip()) else self._odd()
        if key == "postalCode":
            return zip3(value) or GONE
        if FHIR_DATE.fullmatch(value.strip()) or re.fullmatch(r"\d{4}", value.strip()):
            return value.strip()[:4]
        return self._gone("elements generalized away")

    def deidentify(self, value, key: str, path: tuple, types: list, kind: str | None, ctx) -> Any:
        """An element no rule names (or a rule says ``deidentify``), by its data type."""
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            return value if key in NUMBER_ELEMENTS else self._gone("numbers removed (not named by the policy)")
        if isinstance(value, str):
            return self._string(value, key, path, kind, ctx)
        if not isinstance(value, dict):
            return self._odd()
        if kind in ("Narrative", "Extension"):
            return self._gone("narratives removed" if kind == "Narrative" else "extensions removed")
        if kind == "HumanName":
            return self._name(value, path, types, ctx)
        handled: dict = {}
        if kind == "ContactPoint":
            handled["value"] = self._surrogate(value.get("value"), _TELECOM.get(str(value.get("system")), "PHONE"), ctx)
        elif kind == "Identifier":
            sub = "SSN" if value.get("system") == _SSN else "MEDICALRECORD" if ctx[0] == "Patient" else "IDNUM"
            handled["value"] = self._surrogate(value.get("value"), sub, ctx)
        elif kind == "Address":
            handled = self._address(value, ctx)
        elif kind == "Reference":
            handled = self._reference(value, ctx)
        elif kind == "Attachment":
            keep = id(value) in self.read
            if "data" in value and not keep:
                self.w.count("attachments that are not text removed")
            handled = {k: value.get(k) if keep else None for k in ("data", "size", "hash")}
        return self._object(value, path, types, kind, ctx, handled)

    def _object(self, value: dict, path, types, kind, ctx, handled: dict) -> Any:
        out: dict = {}
        for k, v in value.items():
            named = k in handled and self.policy.method(ctx[0], path + (k,), types) not in (None, DEIDENTIFY, "text")
            new = (handled[k] if handled[k] is not None else GONE) if k in handled and not named else \
                self.value(v, k, path + (k,), types, kind, ctx)
            if new is not GONE:
                out[k] = new
        return out or GONE

    def _string(self, value: str, key: str, path: tuple, kind, ctx) -> Any:
        if key == "id":
            return self.w.hash(value)
        if key in ("reference", "fullUrl"):
            return self.ref(value)
        if key == "resourceType" or (key == "contentType" and _MIME.fullmatch(value)):
            return value
        typ = (fhir_std.element(ctx[0], path) or ("",))[0]
        if FHIR_DATE.fullmatch(value.strip()):
            return self._date(value, key, ctx, typ == "instant")
        if (key in CODE_ELEMENTS or kind == "code") and CODE_FORM.fullmatch(value):
            return value
        if typ == "code" and CODE_TOKEN.fullmatch(value) and not PERSONAL.search(value):
            return value  # a code the specification types so (Coding.code: 39065001, 2093-3, E11.9)
        if (key in URI_ELEMENTS or kind == "uri" or typ in ("uri", "canonical")) and URI_FORM.fullmatch(value):
            return value
        return self._gone("strings removed (not named by the policy)")

    def _date(self, value: str, key: str, ctx, instant: bool = False) -> Any:
        group = ctx[1]
        if key in ("birthDate", "bornDate"):
            new = self.w.date(group, value, birth=True, own=ctx[0] == "Patient" and not ctx[2])
        elif key == "deceasedDateTime":
            new = self.w.date(group, value)
        else:
            new = self.w.date(group, value)
            if not self.w.surrogates and (instant or key in INSTANTS or
                                          (ctx[0] == "DocumentReference" and key == "date")):
                new = None
            self.w.count("date(s) " + ("moved" if self.w.surrogates else "cut to the year (instants removed)"))
        return GONE if new is None or new == "" else new

    # -- data types ---------------------------------------------------------------------------
    def _name(self, value: dict, path, types, ctx) -> Any:
        if not self.w.surrogates:
            return self._gone("names removed")
        given = [g for g in value["given"] if isinstance(g, str)] if isinstance(value.get("given"), list) else []
        family = value["family"] if isinstance(value.get("family"), str) else ""
        sub = "DOCTOR" if ctx[0] == "Practitioner" else "PATIENT"
        new = self.w.name(ctx[1], [*given, family], sub, self.where) or []
        handled: dict = {"given": new[:len(given)] or None, "family": (new[-1] if family and new else None),
                         "text": self._surrogate(value.get("text"), sub, ctx)}
        return self._object(value, path, types, "HumanName", ctx, handled)

    def _address(self, value: dict, ctx) -> dict:
        handled: dict = {"text": None}
        lines = value.get("line")
        new_lines = [self._surrogate(x, "STREET", ctx) for x in lines if isinstance(x, str)] \
            if isinstance(lines, list) else []
        handled["line"] = [x for x in new_lines if x] or None
        for key, sub in (("city", "CITY"), ("district", "CITY")):
            handled[key] = self._surrogate(value.get(key), sub, ctx)
        code = value.get("postalCode")
        handled["postalCode"] = (self._surrogate(code, "ZIP", ctx) if self.w.surrogates else zip3(code)) \
            if isinstance(code, str) else None
        return handled

    def _reference(self, value: dict, ctx) -> dict:
        ref = value.get("reference")
        target = None
        if isinstance(ref, str):
            target = self.urls.get(ref) or (lambda m: f"{m.group(1)}/{m.group(2)}" if m else None)(_REF.search(ref))
        display = value.get("display")
        new = None
        parts = self.names.get(target) if target else None
        if display is not None and self.w.surrogates and parts:  # the surrogate of the resource's own name
            kind = target.split("/")[0]  # type: ignore[union-attr]
            group = target if kind == "Patient" or not ctx[1].startswith("Patient/") else ctx[1]
            new = " ".join(self.w.name(group, parts, "DOCTOR" if kind == "Practitioner" else "PATIENT",
                                       self.where) or []) or None
        if display is not None and new is None:
            self.w.count("reference displays removed")
        return {"reference": self.ref(ref) if isinstance(ref, str) else None, "display": new}

    def _surrogate(self, value, sub: str, ctx) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self._odd()
            return None
        return self.w.value(ctx[1], value, sub, self.where) or None

    def ref(self, value: str) -> str:
        """A reference or fullUrl with its id replaced by the keyed hash: ``Patient/123``,
        ``urn:uuid:...``, ``#id``; an absolute URL becomes ``Type/hash``, anything else
        ``urn:uuid:hash``. The hash of an id is the same wherever it stands, so references
        still resolve and a patient keeps one id across files."""
        if value.startswith("#"):
            return "#" + self.w.hash(value[1:]) if len(value) > 1 else value
        if value.startswith("urn:uuid:"):
            return "urn:uuid:" + self.w.hash(value[9:])
        m = _REF.search(value)
        if m:
            return f"{m.group(1)}/{self.w.hash(m.group(2))}"
        return "urn:uuid:" + self.w.hash(value)

    def _odd(self) -> Any:
        return self._gone("elements of an unexpected shape removed")

    def _gone(self, what: str) -> Any:
        self.w.count(what)
        return GONE


def _is_resource(res) -> bool:
    return isinstance(res, dict) and isinstance(res.get("resourceType"), str) and res["resourceType"].isalpha()


def hashed_id(key: bytes, value: str) -> str:
    """The keyed hash of an id (HMAC-SHA256 under ``key``), as a UUID: a valid FHIR id of 36
    characters, the same for the same id and key in every file and run.

    >>> hashed_id(b"k" * 16, "pat1") == hashed_id(b"k" * 16, "pat1") != hashed_id(b"j" * 16, "pat1")
    True
    """
    digest = hmac.new(key, b"fhir-id\x1f" + value.encode("utf-8"), hashlib.sha256).digest()
    return str(uuid.UUID(bytes=digest[:16]))
