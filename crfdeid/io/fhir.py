"""FHIR R4 JSON: the notes of a Bundle or of NDJSON resources in, the same resources out.

Reader ``fhir:PATH``: a ``.json`` file (a Bundle or one resource), an ``.ndjson`` file (one
resource a line, as a bulk export writes them), a folder of both, or ``-`` (standard input: a
JSON document, else NDJSON). Texts read: each ``DocumentReference.content[].attachment`` and
``DiagnosticReport.presentedForm[]`` attachment given inline (``data``, base64; a ``text/*``
or unstated content type, decoded with its ``charset``, UTF-8 by default; an attachment
given by ``url`` only is not fetched), each ``Observation.valueString``, and the free texts of
any resource (annotations, a message's payload, descriptions: :mod:`crfdeid.io.fhir_texts`). A text's patient
(the surrogates' group) is its resource's ``subject``; the ``Patient`` and ``RelatedPerson``
resources of the whole input give ``meta["known"]`` (names, identifiers, birth date,
address, telecom), so that ``site.v1`` finds them in the text. JSON that does not parse, a
line or file that is not a resource, bad base64 or text in another encoding is reported by
file and line (never its content) and that record is not read.

Writer ``fhir`` (:class:`FhirWriter`, ``-o text=redacted|masked|surrogate``): see
:mod:`crfdeid.io.records` and docs/fhir.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import CrfdeidError, OutputError, ReaderError
from . import fhir_texts
from .fhir_policy import Policy, load_policy
from .fhir_walk import ReadText, Walk, hashed_id
from .files import check_encoding, decode
from .record_dates import as_date
from .records import Record, RecordWriter, input_files, known_fields, link_key, piece
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
    for n in _dicts(res.get("name")):
        given: list = n["given"] if isinstance(n.get("given"), list) else []
        words = [*given, n.get("family") or ""]
        out.append(" ".join(w for w in words if isinstance(w, str)).strip() or
                   (n["text"] if isinstance(n.get("text"), str) else ""))
    return out


def _dicts(value) -> list[dict]:
    """The objects of an element that should be a list of objects (any other shape: none; the
    writer removes it)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _person_fields(res: dict, fields: dict, as_relative: bool) -> None:
    fields["relative" if as_relative else "name"] += _names(res)
    for key, field in (("name", "relative" if as_relative else "name"), ("contact", "relative"),
                       ("identifier", "mrn"), ("telecom", "phone")):
        if isinstance(res.get(key), str):  # a shape FHIR does not allow: the writer removes it, the notes use it
            fields[field].append(res[key])
    for t in _dicts(res.get("telecom")):
        kind = {"PHONE": "phone", "FAX": "fax", "EMAIL": "email"}.get(_TELECOM.get(str(t.get("system")), ""), "")
        if kind and isinstance(t.get("value"), str):
            fields[kind].append(t["value"])
    for a in _dicts(res.get("address")):
        lines: list = a["line"] if isinstance(a.get("line"), list) else []
        parts = [*lines, a.get("city"), a.get("state"), a.get("postalCode")]
        fields["address"].append(", ".join(p for p in parts if isinstance(p, str) and p.strip()))
    if as_relative:
        return
    for ident in _dicts(res.get("identifier")):
        if isinstance(ident.get("value"), str):
            fields["ssn" if ident.get("system") == _SSN else "mrn"].append(ident["value"])
    born = res.get("birthDate")
    if isinstance(born, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", born) and as_date(born):
        fields["birth_date"].append(born)
    for c in _dicts(res.get("contact")):
        if isinstance(c.get("name"), dict):
            fields["relative"] += _names({"name": [c["name"]]})
    for ext in _dicts(res.get("extension")):  # a mother's maiden name is a relative's name in the notes
        if str(ext.get("url")).endswith("mothersMaidenName") and isinstance(ext.get("valueString"), str):
            fields["relative"].append(ext["valueString"])


def _name_parts(res: dict) -> list[str] | None:
    """The words of a person's first name (its official one if it has one), given names first."""
    names = _dicts(res.get("name"))
    name = next((n for n in names if n.get("use") == "official"), names[0] if names else None)
    if name is None:
        return None
    given: list = name["given"] if isinstance(name.get("given"), list) else []
    parts = [w for w in [*given, name.get("family")] if isinstance(w, str) and w.strip()]
    return parts or None


def _displayed(value, found: set) -> set:
    """The references of a record that carry a ``display`` (to be re-derived by the writer)."""
    if isinstance(value, dict):
        if isinstance(value.get("reference"), str) and "display" in value:
            found.add(value["reference"])
        for v in value.values():
            _displayed(v, found)
    elif isinstance(value, list):
        for v in value:
            _displayed(v, found)
    return found


def known_of(records: list[Record]) -> dict[str, dict]:
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


def people_of(records: list[Record]) -> dict[str, list[str]]:
    """``Type/id`` -> the name words of each Patient, Practitioner and RelatedPerson of the input."""
    out: dict[str, list[str]] = {}
    for rec in records:
        for url, res in resources(rec.payload):
            key = _key(url, res)
            parts = _name_parts(res) if res.get("resourceType") in PEOPLE and key else None
            if parts:
                out[key] = parts  # type: ignore[index]
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
                if source != "-" and exc.msg != "Extra data":  # extra data: NDJSON (a service's body)
                    report(ReaderError(f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})",
                                       path=source))
                    continue
            except RecursionError:
                report(ReaderError("JSON nested too deeply to read", path=source))
                continue
            except ValueError as exc:  # a number of more digits than Python reads (4,300)
                report(ReaderError(f"not read: {_value_error(exc)}", path=source))
                continue
        if whole is not None:
            if _LONE.search(text) and _unwritable(whole):
                report(ReaderError("not read: a string holds a lone surrogate (\\ud800...), which no UTF-8 "
                                   "output can hold", path=source))
                continue
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
            except ValueError as exc:  # one bad line costs itself only
                report(ReaderError(f"line {n}: not read: {_value_error(exc)}", path=source))
                continue
            if _LONE.search(line) and _unwritable(obj):
                report(ReaderError(f"line {n}: not read: a string holds a lone surrogate (\\ud800...), which "
                                   "no UTF-8 output can hold", path=source))
                continue
            _add(out, obj, source, name, f"file {source!r} line {n}", n, report, ndjson=True)
    return out


#: A JSON escape of a surrogate code point: the only way a lone one gets into a parsed record.
_LONE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _unwritable(obj) -> bool:
    """Whether a parsed record holds a lone surrogate (no UTF-8 output can hold it)."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _value_error(exc: ValueError) -> str:
    """Why JSON was not read, without the value (never note text)."""
    return "a number of more digits than can be read" if "digits" in str(exc) else "not valid JSON"


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
    yield from record_documents(records, report, known_of(records), people_of(records))


def record_documents(records: list[Record], report, known: dict, people: dict):
    """The documents of parsed records, given what the whole input says of its people
    (``known``: :func:`known_of`, ``people``: :func:`people_of`; Spark broadcasts them)."""
    for rec in records:
        urls = rec.extra["urls"]
        targets = {t for t in (_ref({"reference": r}, urls) for r in _displayed(rec.payload, set())) if t in people}
        rec.extra["names"] = {t: people[t] for t in targets}  # the names a display is re-derived from
        stem = Path(rec.name).stem
        number = rec.extra["line"]
        texts, groups, failed = [], [], set()
        bundle = rec.payload.get("resourceType") == "Bundle"
        try:
            for i, (_, res) in enumerate(resources(rec.payload)):
                group = next((g for g in (_ref(res.get(k), rec.extra["urls"]) for k in _OWNERS) if g),
                             f"{stem}#{number or 1}")
                groups.append(group)
                try:
                    texts += [(i, loc, text, group) for loc, text in
                              fhir_texts.pieces(res, f"{rec.where}{f' entry {i + 1}' if bundle else ''}", rec.source)]
                except ReaderError as exc:
                    if not bundle:
                        raise
                    report(ReaderError(exc.reason.replace("the record is not read", "that entry is not written"),
                                       path=exc.path))
                    failed.add(i)  # that resource only: the bundle's others are written
        except ReaderError as exc:  # the record is not read: its other texts would go out alone
            report(exc)
            continue
        rec.extra.update(pieces=[(i, loc) for i, loc, _, _ in texts], groups=groups, failed=failed)
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
    """The resources read by ``fhir:`` written back de-identified by a policy
    (:mod:`crfdeid.io.fhir_policy`; ``policy``: a file, a shipped policy's name, a
    :class:`~crfdeid.io.fhir_policy.Policy`, or None for the shipped Safe Harbor one): a ``.json``
    file as indented JSON, an ``.ndjson`` file a line a resource; on standard output one line a
    record. Ids and references are replaced by a keyed hash (the surrogates' key; with
    ``text=redacted`` or ``masked``, the ``key`` or ``seed`` given, else a key made for the run)."""

    def __init__(self, out, text: str = "redacted", scheme=None, seed=None, key=None, policy=None, **options):
        # the keyed hash of the ids takes the key or seed; the text writer only when it draws surrogates
        keyed = {"seed": seed, "key": key} if text == "surrogate" else {}
        super().__init__(out, text, scheme, **keyed, **options)
        self.policy = policy if isinstance(policy, Policy) else load_policy(policy)
        self.id_key: bytes = link_key(self, key, seed)  # the surrogates' key, else the one given, else one made
        self._failures: list[str] = []

    def name_of(self) -> str:
        return "fhir"

    def hash(self, value: str) -> str:
        """The keyed hash of an id (the same wherever it stands: references stay linked)."""
        return hashed_id(self.id_key, value)

    def write(self, doc) -> None:
        self._failures = []
        super().write(doc)
        if self._failures:  # the record's other resources are written; these are named
            failures, self._failures = self._failures, []
            raise OutputError("; ".join(failures), doc_id=doc.doc_id)

    def render(self, record: Record, docs) -> str:
        payload = _copied(record.payload)
        found = resources(payload)
        groups: dict[int, str] = {}
        for i, (url, res) in enumerate(found):
            groups[id(res)] = group_of(record, i, url, res)
            if res.get("resourceType") == "Patient" and isinstance(res.get("birthDate"), str):
                self.over_89(groups[id(res)], res["birthDate"])  # before the notes are written
        read: set[int] = set()
        for doc, (i, loc) in zip(docs, record.extra["pieces"]):
            if loc[0] == fhir_texts.FREE:  # a free text: one that cannot be de-identified is removed (by the walk)
                try:
                    fhir_texts.put(found[i][1], loc, ReadText(self.text(doc)))
                except CrfdeidError:
                    self.count("free texts removed (could not be de-identified)")
                continue
            new = self.text(doc)
            if new != doc.text:
                fhir_texts.put(found[i][1], loc, new)
            read.add(id(fhir_texts.at(found[i][1], loc)))
        dropped = {id(found[i][1]) for i in record.extra.get("failed", ())}
        if dropped:  # an entry the reader could not read (reported by it): left out
            payload["entry"] = [e for e in payload["entry"]
                                if not (isinstance(e, dict) and id(e.get("resource")) in dropped)]
        walk = Walk(self, self.policy, groups, read, record.extra["urls"], record.extra.get("names", {}), record.where)
        top = record.extra.get("patient") or record.where
        try:
            payload = walk.resource(payload, top)
        except Exception as exc:  # noqa: BLE001 - named by position and type, never the content
            raise OutputError(f"{record.where}: {payload.get('resourceType')} not written "
                              f"({type(exc).__name__})") from None
        self._failures = walk.failures
        if self.to_stdout or record.extra["ndjson"]:
            return json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"

def _copied(value):
    """A parsed JSON value copied (its dicts and lists new): as ``copy.deepcopy``, faster."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def _group(record: Record, i: int, res: dict) -> str:
    kind = res.get("resourceType")
    url = resources(record.payload)[i][0]
    if kind == "Patient":
        return _key(url, res) or f"{record.where} entry {i + 1}"
    if kind == "RelatedPerson":
        ref = _ref(res.get("patient"), record.extra["urls"])
        if ref:
            return ref
    return record.extra.get("patient") or _key(url, res) or f"{record.where} entry {i + 1}"


def owner(record: Record, i: int, res: dict) -> str | None:
    """The patient resource ``i`` of a record read by :func:`record_documents` belongs to (the
    group of its dates), None for no patient."""
    kind = res.get("resourceType")
    if kind in NOTES:
        return record.extra["groups"][i]
    if kind in ("Patient", "RelatedPerson"):
        return _group(record, i, res)
    if kind in PEOPLE:
        return None
    patients = {_key(u, r) for u, r in resources(record.payload) if r.get("resourceType") == "Patient"}
    for key in _OWNERS:
        ref = _ref(res.get(key), record.extra["urls"])
        if ref and (ref.startswith("Patient/") or ref in patients):
            return ref
    return None


def group_of(record: Record, i: int, url, res: dict) -> str:
    """The group (surrogates, date offset) the writer de-identifies resource ``i`` in."""
    return owner(record, i, res) or record.extra.get("patient") or _key(url, res) or f"{record.where} entry {i + 1}"


def touched(record: Record) -> set[str]:
    """Every group the writer may draw surrogates or a date offset in for ``record`` (read by
    :func:`record_documents`): its resources', its texts', the Bundle's own, and those of the
    people a ``display`` names outside a patient's resource (:class:`~crfdeid.io.fhir_walk.Walk`).
    Records that share a group must go through one writer in input order (Spark)."""
    out = {record.extra.get("patient") or record.where} if record.payload.get("resourceType") == "Bundle" else set()
    out.update(record.extra["groups"][i] for i, _ in record.extra["pieces"])
    for i, (url, res) in enumerate(resources(record.payload)):
        group = group_of(record, i, url, res)
        out.add(group)
        for ref in _displayed(res, set()):
            target = _ref({"reference": ref}, record.extra["urls"])
            if target and target.split("/")[0] in PEOPLE and (
                    target.startswith("Patient/") or not group.startswith("Patient/")):
                out.add(target)
    return out


def record_of(source: str, name: str, obj: dict, line: int | None) -> Record:
    """The record of a resource or Bundle ``obj`` read from line ``line`` of an NDJSON file, or
    from a JSON file (``line`` None), as :func:`read_fhir` makes it."""
    where = f"file {source!r}" + (f" line {line}" if line is not None else "")
    out: list[Record] = []
    _add(out, obj, source, name, where, line, _raise, ndjson=line is not None)
    return out[0]


def _raise(exc: Exception):
    raise exc


