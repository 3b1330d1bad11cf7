"""FHIR R4 JSON: the notes of a Bundle or of NDJSON resources in, the same resources out.

Reader ``fhir:PATH``: a ``.json`` file (a Bundle or one resource), an ``.ndjson`` file (one
resource a line, as a bulk export writes them), a folder of both, or ``-`` (standard input: a
JSON document, else NDJSON). Texts read: each ``DocumentReference.content[].attachment`` and
``DiagnosticReport.presentedForm[]`` attachment given inline (``data``, base64; a ``text/*``
or unstated content type, decoded with its ``charset``, UTF-8 by default; an attachment
given by ``url`` only is not fetched) and each ``Observation.valueString``. A text's patient
(the surrogates' group) is its resource's ``subject``; the ``Patient`` and ``RelatedPerson``
resources of the whole input give ``meta["known"]`` (names, identifiers, birth date,
address, telecom), so that ``site.v1`` finds them in the text. JSON that does not parse, a
line or file that is not a resource, bad base64 or text in another encoding is reported by
file and line (never its content) and that record is not read.

Writer ``fhir`` (:class:`FhirWriter`, ``-o text=redacted|masked|surrogate``): see
:mod:`crfdeid.io.records` and docs/fhir.md.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import json
import re
from pathlib import Path

from ..errors import ReaderError
from .files import check_encoding, decode
from .record_dates import fhir_dates
from .records import Record, RecordWriter, as_date, input_files, known_fields, piece
from .registry import READERS, WRITERS

#: Resources whose structured identifiers are de-identified, and the subtype of their names.
PEOPLE = {"Patient": "PATIENT", "RelatedPerson": "PATIENT", "Practitioner": "DOCTOR"}
#: Resources whose texts are read (and whose narrative and dates are de-identified).
NOTES = ("DocumentReference", "DiagnosticReport", "Observation")
#: References that say whose a resource is (its dates are then the patient's, moved with the notes').
_OWNERS = ("subject", "patient", "beneficiary")
_TELECOM = {"phone": "PHONE", "sms": "PHONE", "pager": "PHONE", "fax": "FAX", "email": "EMAIL", "url": "URL"}
_SSN = "http://hl7.org/fhir/sid/us-ssn"
_REF = re.compile(r"(?:^|/)([A-Za-z]+/[A-Za-z0-9\-.]{1,64})(?:/_history/[^/]*)?$")


def resources(payload) -> list[tuple[str | None, dict]]:
    """``(fullUrl, resource)`` of a record: a Bundle's entries, or the resource itself."""
    if payload.get("resourceType") == "Bundle":
        return [(e.get("fullUrl"), e["resource"]) for e in payload.get("entry") or []
                if isinstance(e, dict) and isinstance(e.get("resource"), dict)]
    return [(None, payload)]


def _ref(reference, urls: dict) -> str | None:
    """A reference as ``Type/id`` (``urn:uuid:`` and absolute URLs through the Bundle's fullUrls)."""
    if not isinstance(reference, dict) or not isinstance(reference.get("reference"), str):
        return None
    ref = reference["reference"]
    if ref in urls:
        return urls[ref]
    m = _REF.search(ref)
    return m.group(1) if m else ref


def _key(fullurl, res: dict) -> str | None:
    rid = res.get("id")
    return f"{res.get('resourceType')}/{rid}" if isinstance(rid, str) else fullurl


def _names(res: dict) -> list[str]:
    out = []
    for n in res.get("name") or [] if isinstance(res.get("name"), list) else []:
        if isinstance(n, dict):
            words = [*(n.get("given") or []), n.get("family") or ""]
            out.append(" ".join(w for w in words if isinstance(w, str)).strip() or str(n.get("text") or ""))
    return out


def _person_fields(res: dict, fields: dict, as_relative: bool) -> None:
    fields["relative" if as_relative else "name"] += _names(res)
    for t in res.get("telecom") or []:
        kind = {"PHONE": "phone", "FAX": "fax", "EMAIL": "email"}.get(_TELECOM.get(t.get("system"), ""), "")
        if kind and isinstance(t.get("value"), str):
            fields[kind].append(t["value"])
    for a in res.get("address") or []:
        parts = [*(a.get("line") or []), a.get("city"), a.get("state"), a.get("postalCode")]
        fields["address"].append(", ".join(p for p in parts if isinstance(p, str) and p.strip()))
    if as_relative:
        return
    for ident in res.get("identifier") or []:
        if isinstance(ident, dict) and isinstance(ident.get("value"), str):
            fields["ssn" if ident.get("system") == _SSN else "mrn"].append(ident["value"])
    born = res.get("birthDate")
    if isinstance(born, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", born) and as_date(born):
        fields["birth_date"].append(born)
    for c in res.get("contact") or []:
        if isinstance(c, dict) and isinstance(c.get("name"), dict):
            fields["relative"] += _names({"name": [c["name"]]})


def _known(records: list[Record]) -> dict[str, dict]:
    """What the input's Patient and RelatedPerson resources say of each patient (``Type/id``)."""
    people: dict[str, dict] = {}

    def of(key):
        return people.setdefault(key, {k: [] for k in ("name", "relative", "mrn", "ssn", "phone", "fax",
                                                       "email", "address", "birth_date")})
    for rec in records:
        urls = rec.extra["urls"]
        for url, res in resources(rec.payload):
            kind = res.get("resourceType")
            if kind == "Patient":
                _person_fields(res, of(_key(url, res)), False)
            elif kind == "RelatedPerson" and _ref(res.get("patient"), urls):
                _person_fields(res, of(_ref(res.get("patient"), urls)), True)
    return {k: known_fields(v) for k, v in people.items()}


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
    text = decode(data, errors.append, encoding=m.group(1) if m else None)
    if text is None:
        raise ReaderError(f"{where}: attachment is not text in its charset; the record is not read",
                          path=path) from None
    return text


def _pieces(res: dict, where: str, path) -> list[tuple[tuple, str]]:
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
    return out


def _records(files, report, encoding) -> list[Record]:
    """The records of the files: a JSON file's one, an NDJSON file's lines (bad ones reported)."""
    out: list[Record] = []
    for source, data, name in files:
        text = decode(data, report, source, encoding=encoding)
        if text is None:
            continue
        whole = None
        if not name.lower().endswith(".ndjson"):
            try:
                whole = json.loads(text)
            except json.JSONDecodeError as exc:
                if source != "-":
                    report(ReaderError(f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})",
                                       path=source))
                    continue
            except RecursionError:
                report(ReaderError("JSON nested too deeply to read", path=source))
                continue
        if whole is not None:
            _add(out, whole, source, name, f"file {source!r}", None, report, ndjson=False)
            continue
        name = name if name.lower().endswith(".ndjson") else "stdin.ndjson"
        for n, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                report(ReaderError(f"line {n}: not valid JSON", path=source))
                continue
            _add(out, obj, source, name, f"file {source!r} line {n}", n, report, ndjson=True)
    return out


def _add(out: list, obj, source: str, name: str, where: str, line, report, ndjson: bool) -> None:
    if not isinstance(obj, dict) or not isinstance(obj.get("resourceType"), str):
        report(ReaderError(f"{where.partition(' line ')[2] and 'line ' + str(line) + ': ' or ''}not a FHIR "
                           "resource (a JSON object with a resourceType)", path=source))
        return
    urls = {u: _key(u, r) for u, r in resources(obj) if u}
    out.append(Record(source, name, where, obj, extra={"ndjson": ndjson, "line": line, "urls": urls}))


@READERS.register("fhir")
def read_fhir(path, report, encoding: str | None = None):
    """The texts of FHIR resources (module docstring); ``encoding`` for files without a mark."""
    encoding = check_encoding(encoding)
    yield from documents(input_files(path, report, (".json", ".ndjson"), "stdin.json"), report, encoding)


def documents(files, report, encoding: str | None = None):
    """The documents of ``(source, bytes, name)`` files (:func:`read_fhir`; the service's body)."""
    records = _records(files, report, encoding)
    known = _known(records)
    for rec in records:
        stem = Path(rec.name).stem
        number = rec.extra["line"]
        texts, groups = [], []
        try:
            for i, (_, res) in enumerate(resources(rec.payload)):
                group = _ref(res.get("subject"), rec.extra["urls"]) or f"{stem}#{number or 1}"
                groups.append(group)
                texts += [(i, loc, text, group) for loc, text in _pieces(res, rec.where, rec.source)]
        except ReaderError as exc:  # the record is not read: its other texts would go out alone
            report(exc)
            continue
        rec.extra.update(pieces=[(i, loc) for i, loc, _, _ in texts], groups=groups)
        patients = {g for g in groups if g.startswith("Patient/")} | {
            _key(u, r) for u, r in resources(rec.payload) if r.get("resourceType") == "Patient"}
        rec.extra["patient"] = next(iter(patients)) if len(patients) == 1 else None
        rec.pieces = max(1, len(texts))
        prefix = f"{stem}-{number}" if number is not None else stem
        unit = "line"
        if not texts:
            group = rec.extra["patient"] or f"{stem}#{number or 1}"
            yield piece(rec, 0, f"{prefix}-0", "", group, known.get(group), number, unit)
        for k, (_, _, text, group) in enumerate(texts):
            yield piece(rec, k, f"{prefix}-{k + 1}", text, group, known.get(group), number, unit)


@WRITERS.register("fhir")
class FhirWriter(RecordWriter):
    """The resources read by ``fhir:`` written back de-identified: a ``.json`` file as indented
    JSON, an ``.ndjson`` file a line a resource; on standard output one line a record."""

    def name_of(self) -> str:
        return "fhir"

    def render(self, record: Record, docs) -> str:
        payload = copy.deepcopy(record.payload)
        found = resources(payload)
        groups = record.extra["groups"]
        people = [(i, res) for i, (_, res) in enumerate(found) if res.get("resourceType") in PEOPLE]
        for i, res in people:  # a patient over 89 is known before the notes are written
            if res.get("resourceType") == "Patient" and isinstance(res.get("birthDate"), str):
                self.over_89(self._group(record, i, res), res["birthDate"])
        for i, (_, res) in enumerate(found):  # before the texts go back: a text is not a date
            owner = self._owner(record, i, res)
            kind = res.get("resourceType")
            if owner is None:
                if kind not in PEOPLE and kind != "Bundle":
                    self.count("resource(s) of no patient passed through unchanged")
                continue
            if kind not in NOTES and kind not in PEOPLE:
                self.count("resource(s) of other types: dates de-identified, texts not read")
            skip = ("birthDate", "deceasedDateTime") if kind in PEOPLE else ()
            moved = fhir_dates(res, self._mover(owner), skip, ("date",) if kind == "DocumentReference" else ())
            if moved:
                self.count("date(s) " + ("moved" if self.surrogates else "cut to the year (instants removed)"), moved)
            if kind not in PEOPLE and res.pop("text", None) is not None:
                self.count("narratives removed")
        if record.extra["pieces"]:
            for doc, (i, loc) in zip(docs, record.extra["pieces"]):
                new = self.text(doc)
                if new != doc.text:
                    _put(found[i][1], loc, new)
        for i, res in people:
            self._person(res, self._group(record, i, res), f"{record.where} {res['resourceType']}")
        for i, (_, res) in enumerate(found):
            kind = res.get("resourceType")
            if kind in NOTES:
                self._ids(res, groups[i], "IDNUM", f"{record.where} {kind}")
            if kind in NOTES or kind in PEOPLE:
                if res.pop("text", None) is not None:
                    self.count("narratives removed")
                for _, att in _attachments(res):
                    if "data" in att and not str(att.get("contentType") or "text/").lower().startswith("text/"):
                        del att["data"]
                        att.pop("hash", None)
                        att.pop("size", None)
                        self.count("attachments that are not text removed")
        payload = _pruned(payload)
        if self.to_stdout or record.extra["ndjson"]:
            return json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"

    def _group(self, record: Record, i: int, res: dict) -> str:
        kind = res.get("resourceType")
        url = resources(record.payload)[i][0]
        if kind == "Patient":
            return _key(url, res) or f"{record.where} entry {i + 1}"
        if kind == "RelatedPerson":
            ref = _ref(res.get("patient"), record.extra["urls"])
            if ref:
                return ref
        return record.extra.get("patient") or _key(url, res) or f"{record.where} entry {i + 1}"

    def _person(self, res: dict, group: str, where: str) -> None:
        sub = PEOPLE[res["resourceType"]]
        self._identity(res, group, sub, where)
        for c in res.get("contact") or []:
            if isinstance(c, dict):
                if isinstance(c.get("name"), dict):
                    c["name"] = [c["name"]]
                    self._identity(c, group, "PATIENT", where)
                    if c.get("name"):
                        c["name"] = c["name"][0]
                    else:
                        c.pop("name", None)
                else:
                    self._identity(c, group, "PATIENT", where)
        self._ids(res, group, "MEDICALRECORD" if sub == "PATIENT" else "IDNUM", where)
        for key, birth in (("birthDate", True), ("deceasedDateTime", False)):
            if isinstance(res.get(key), str):
                self._set(res, key, self.date(group, res[key], birth=birth, own=sub == "PATIENT"
                                              and res.get("resourceType") == "Patient"))
        if res.pop("photo", None) is not None:
            self.count("photos removed")

    def _ids(self, res: dict, group: str, sub: str, where: str) -> None:
        """``identifier[].value`` and ``masterIdentifier.value``: SSNs as SSNs, the others as ``sub``."""
        idents = [*(res.get("identifier") or []), res.get("masterIdentifier")]
        for ident in idents:
            if isinstance(ident, dict) and isinstance(ident.get("value"), str):
                kind = "SSN" if ident.get("system") == _SSN else sub
                self._set(ident, "value", self.value(group, ident["value"], kind, where))

    def _identity(self, res: dict, group: str, sub: str, where: str) -> None:
        """Names, telecom and addresses of a person (or of a Patient's contact)."""
        names = [n for n in res.get("name") or [] if isinstance(n, dict)]
        if names and not self.surrogates:
            res.pop("name")
        for n in names if self.surrogates else []:
            given = [g for g in n.get("given") or [] if isinstance(g, str)]
            family: str = n["family"] if isinstance(n.get("family"), str) else ""
            new = self.name(group, [*given, family], sub, where) or []
            if given:
                n["given"] = new[:len(given)]
            if family:
                n["family"] = new[-1]
            if isinstance(n.get("text"), str):
                n["text"] = self.value(group, n["text"], sub, where)
        for t in res.get("telecom") or []:
            if isinstance(t, dict) and isinstance(t.get("value"), str):
                self._set(t, "value", self.value(group, t["value"], _TELECOM.get(str(t.get("system")), "PHONE"), where))
        for a in res.get("address") or []:
            if not isinstance(a, dict):
                continue
            a.pop("text", None)
            if isinstance(a.get("line"), list):
                lines = [self.value(group, x, "STREET", where) for x in a["line"] if isinstance(x, str)]
                self._set(a, "line", [x for x in lines if x] or None)
            for key, kind in (("city", "CITY"), ("district", "CITY"), ("postalCode", "ZIP")):
                if isinstance(a.get(key), str):
                    self._set(a, key, self.value(group, a[key], kind, where))

    def _owner(self, record: Record, i: int, res: dict) -> str | None:
        """The patient a resource belongs to (the group of its dates), None for no patient."""
        kind = res.get("resourceType")
        if kind in NOTES:
            return record.extra["groups"][i]
        if kind in ("Patient", "RelatedPerson"):
            return self._group(record, i, res)
        if kind in PEOPLE:
            return None
        patients = {_key(u, r) for u, r in resources(record.payload) if r.get("resourceType") == "Patient"}
        for key in _OWNERS:
            ref = _ref(res.get(key), record.extra["urls"])
            if ref and (ref.startswith("Patient/") or ref in patients):
                return ref
        return None

    def _mover(self, group: str):
        """What :func:`~crfdeid.io.record_dates.fhir_dates` does with a date of ``group``'s resource."""
        def move(value: str, key: str, instant: bool) -> str | None:
            if key in ("birthDate", "bornDate"):  # a relative's: the over-89 rule, not the patient's
                return self.date(group, value, birth=True, own=False)
            new = self.date(group, value)
            return new if self.surrogates or not instant else None
        return move

    def _set(self, obj: dict, key: str, value) -> None:
        if value is None or value == "":
            obj.pop(key, None)
        else:
            obj[key] = value


def _pruned(value):
    """``value`` without the objects and lists that removing identifiers left empty (FHIR allows
    no empty element)."""
    if isinstance(value, dict):
        out = {k: _pruned(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v != {} and v != []}
    if isinstance(value, list):
        return [v for v in map(_pruned, value) if v != {} and v != []]
    return value


def _attachments(res: dict) -> list[tuple[tuple, dict]]:
    kind = res.get("resourceType")
    if kind == "DocumentReference":
        return [(("content", i, "attachment"), c["attachment"]) for i, c in enumerate(res.get("content") or [])
                if isinstance(c, dict) and isinstance(c.get("attachment"), dict)]
    if kind == "DiagnosticReport":
        return [(("presentedForm", i), a) for i, a in enumerate(res.get("presentedForm") or []) if isinstance(a, dict)]
    return []


def _put(res: dict, loc: tuple, text: str) -> None:
    """Write a de-identified text back where it was read (an attachment re-encoded, its size and
    hash those of the new text)."""
    if loc == ("valueString",):
        res["valueString"] = text
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
