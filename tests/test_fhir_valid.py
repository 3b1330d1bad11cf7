"""FHIR output that validates (issue 59): every made-up resource below validates as input
(fhir.resources, R4B) and, de-identified in either mode, as output: required codes kept,
instants valid, request urls valid, required elements a rule removes given a blank; and one bad
record costs only itself (issue 61)."""

from __future__ import annotations

import json

import pytest

from crfdeid.cli import tag
from crfdeid.io import fhir_std

R4B = pytest.importorskip("fhir.resources.R4B")

PAT = {"reference": "Patient/p1", "display": "Ardith Quillon"}
RESOURCES = [
    {"resourceType": "Patient", "id": "p1", "name": [{"family": "Quillon", "given": ["Ardith"]}],
     "birthDate": "2040-02-02",
     "address": [{"line": ["12 Birchwood Ln"], "city": "Tallowford", "postalCode": "43017"}]},
    {"resourceType": "Goal", "id": "g1", "lifecycleStatus": "active", "subject": PAT,
     "description": {"text": "Ardith Quillon to walk to Tallowford"}},
    {"resourceType": "AdverseEvent", "id": "a1", "actuality": "actual", "subject": PAT, "date": "2098-07-22T10:00:00Z"},
    {"resourceType": "Group", "id": "gr1", "type": "person", "actual": True,
     "characteristic": [{"code": {"text": "owner"}, "valueCodeableConcept": {"text": "Ardith Quillon"},
                         "exclude": False}]},
    {"resourceType": "Appointment", "id": "ap1", "status": "booked", "start": "2098-07-22T09:00:00Z",
     "end": "2098-07-22T09:30:00Z", "participant": [{"actor": PAT, "status": "accepted"}]},
    {"resourceType": "Slot", "id": "s1", "schedule": {"reference": "Schedule/x"}, "status": "free",
     "start": "2098-07-22T09:00:00Z", "end": "2098-07-22T09:30:00Z"},
    {"resourceType": "AuditEvent", "id": "ae1", "type": {"code": "rest"}, "recorded": "2098-07-22T09:00:00.123Z",
     "agent": [{"requestor": True, "who": {"display": "Dr Lucasta Rennick"}}],
     "source": {"observer": {"display": "Tallowford General"}}},
    {"resourceType": "ExplanationOfBenefit", "id": "e1", "status": "active", "use": "claim", "outcome": "complete",
     "type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/claim-type", "code": "oral"}]},
     "patient": PAT, "created": "2098-07-22", "insurer": {"display": "Quillon Mutual"},
     "provider": {"display": "Dr Lucasta Rennick"}, "insurance": [{"focal": True, "coverage": {"display": "Plan 9"}}]},
    {"resourceType": "Observation", "id": "o1", "status": "final", "subject": PAT,
     "code": {"coding": [{"system": "http://loinc.org", "code": "2093-3", "display": "Cholesterol"}]},
     "valueString": "Ardith Quillon seen on 2098-07-12, call 617-555-0143."},
    {"resourceType": "Immunization", "id": "i1", "status": "completed", "patient": PAT,
     "vaccineCode": {"coding": [{"system": "http://hl7.org/fhir/sid/cvx", "code": "140"}]},
     "occurrenceDateTime": "2098-07-22"},
]
NAMES = ["Quillon", "Ardith", "Birchwood", "Tallowford", "Lucasta", "Rennick", "617-555-0143", "07-12", "43017"]


def _bundle() -> dict:
    return {"resourceType": "Bundle", "type": "transaction", "entry": [
        {"fullUrl": f"urn:uuid:{r['resourceType']}-{r['id']}", "resource": r,
         "request": {"method": "PUT", "url": f"{r['resourceType']}/{r['id']}"}} for r in RESOURCES]}


def _valid(obj: dict) -> None:
    R4B.get_fhir_model_class(obj["resourceType"]).model_validate(obj)


def _tag(src, out, style: str) -> int:
    return tag.main(["--quiet", "--input-format", "fhir", "--output-format", "fhir", "-o", f"text={style}",
                     "--seed", "3", "--output-dir", str(out), str(src)])


@pytest.mark.parametrize("style", ["redacted", "surrogate"])
def test_resources_valid_as_input_are_valid_as_output(tmp_path, style):
    bundle = _bundle()
    _valid(bundle)
    (tmp_path / "b.json").write_text(json.dumps(bundle))
    assert _tag(tmp_path / "b.json", tmp_path / "o", style) == 0
    text = (tmp_path / "o" / "b.json").read_text()
    out = json.loads(text)
    _valid(out)
    for entry in out["entry"]:
        _valid(entry["resource"])
    for name in NAMES:
        assert name not in text, (style, name)
    by_type = {e["resource"]["resourceType"]: e["resource"] for e in out["entry"]}
    assert by_type["Goal"]["lifecycleStatus"] == "active" and by_type["AdverseEvent"]["actuality"] == "actual"
    assert by_type["Group"]["type"] == "person" and by_type["ExplanationOfBenefit"]["outcome"] == "complete"
    assert by_type["Observation"]["code"]["coding"][0]["code"] == "2093-3"
    start, recorded = by_type["Appointment"].get("start"), by_type["AuditEvent"]["recorded"]
    if style == "surrogate":  # moved by the patient's offset, as instants
        assert len(start) == 20 and start.endswith("Z") and start != "2098-07-22T09:00:00Z"
    else:  # an optional instant removed, a required one the first moment of its year (never "2098")
        assert start is None and recorded == "2098-01-01T00:00:00Z"
    assert all(e["request"]["url"] == f"{e['resource']['resourceType']}/{e['resource']['id']}" for e in out["entry"])


def test_one_bad_record_costs_itself_only(tmp_path):
    good = json.dumps(RESOURCES[8])
    lines = [good, '{"resourceType": "Observation", "id": "x", "status": "final", "code": {"text": "a"}, '
             '"valueQuantity": {"value": ' + "9" * 5000 + "}}",
             '{"resourceType": "Observation", "id": "y", "status": "final", "code": {"text": "a"}, '
             '"valueString": "Quillon \\ud800"}',
             json.dumps({"resourceType": "DocumentReference", "id": "d", "status": "current", "content": [
                 {"attachment": {"contentType": "text/plain; charset=klingon", "data": "UXVpbGxvbg=="}}]}),
             json.dumps(dict(RESOURCES[8], id="o2", valueString=["Ardith Quillon", "call 617-555-0143"])),
             good.replace('"o1"', '"o3"')]
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.ndjson").write_text("\n".join(lines) + "\n")
    (src / "x.xml").write_text("<Patient/>")
    assert _tag(src, tmp_path / "o", "redacted") == 1  # the bad ones are failures, named
    out = [json.loads(x) for x in (tmp_path / "o" / "a.ndjson").read_text().splitlines()]
    assert len(out) == 3  # the two good ones and the list, whose strings are removed
    assert not any(name in json.dumps(out) for name in NAMES)


def test_the_shipped_elements_are_what_fhir_resources_gives():
    from importlib import resources
    shipped = resources.files("crfdeid._data").joinpath("fhir_elements.tsv").read_text(encoding="utf-8")
    assert fhir_std.build().splitlines()[3:] == shipped.splitlines()[3:]
    assert fhir_std.element("Bundle", ("entry", "request", "url")) == ("uri", False, True)
    assert ("lifecycleStatus", "code") in fhir_std.required("Goal")
