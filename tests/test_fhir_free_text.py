"""FHIR free texts other than the notes (annotations, a message's payload, descriptions) read
through the model with the patient's surrogates, not removed; one that cannot be de-identified is
removed and counted (fail closed). Made-up resources of one patient, a UK-style note in lower case
among them: no real person."""

from __future__ import annotations

import json

import pytest

from crfdeid.cli import tag
from crfdeid.errors import ConfigError, LeakError
from crfdeid.io.fhir import FhirWriter
from crfdeid.io.fhir_policy import load_policy
from crfdeid.io.runmanifest import notes_only

PATIENT = {"resourceType": "Patient", "id": "pt-7731", "name": [{"given": ["Orlaith"], "family": "Quennell"}],
           "telecom": [{"system": "phone", "value": "555-0139"}]}
REF = {"reference": "Patient/pt-7731"}
RESOURCES = [
    {"resourceType": "Condition", "id": "c1", "subject": REF, "note": [
        {"authorString": "Bexley Marwood", "time": "2098-03-02T10:00:00Z",
         "text": "Orlaith Quennell reports wheeze at night, worse after exercise."}]},
    {"resourceType": "Communication", "id": "m1", "status": "completed", "subject": REF, "payload": [
        {"contentString": "orlaith quennell rang the ward, call back on 555-0139 about her inhaler."},
        {"contentAttachment": {"contentType": "text/plain", "title": "Quennell letter"}}]},
    {"resourceType": "AllergyIntolerance", "id": "a1", "patient": REF, "reaction": [
        {"description": "Hives after penicillin, noticed by Orlaith Quennell at home."}]},
    {"resourceType": "DocumentReference", "id": "d1", "status": "current", "subject": REF,
     "description": "Discharge letter for Orlaith Quennell", "content": [{"attachment": {"url": "Binary/b1"}}]},
]
PHI = ["Orlaith", "Quennell", "orlaith", "quennell", "555-0139", "Bexley", "Marwood", "2098-03-02", "pt-7731"]


@pytest.fixture
def export(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "Patient.ndjson").write_text(json.dumps(PATIENT) + "\n", encoding="utf-8")
    (src / "Other.ndjson").write_text("".join(json.dumps(r) + "\n" for r in RESOURCES), encoding="utf-8")
    return src


def _run(src, out, *opts) -> dict:
    assert tag.main(["--quiet", "--input-format", "fhir", "--output-format", "fhir", "--output-dir", str(out),
                     *opts, str(src)]) == 0
    files = notes_only(sorted(out.iterdir()))  # tag also writes its run manifest
    found = [json.loads(x) for p in files for x in p.read_text(encoding="utf-8").splitlines()]
    return {r["resourceType"]: r for r in found}


@pytest.mark.parametrize("style", ["redacted", "surrogate"])
def test_free_texts_are_read_not_removed(tmp_path, export, style):
    got = _run(export, tmp_path / "out", "-o", f"text={style}", "--seed", "4")
    text = json.dumps(got)
    for value in PHI:
        assert value not in text, value
    note = got["Condition"]["note"][0]
    assert set(note) == {"text"} and "worse after exercise" in note["text"]  # author and time removed
    assert [set(p) for p in got["Communication"]["payload"]] == [{"contentString"}]  # the attachment removed
    assert "inhaler" in got["Communication"]["payload"][0]["contentString"]
    assert "penicillin" in got["AllergyIntolerance"]["reaction"][0]["description"]
    assert got["DocumentReference"]["description"].startswith("Discharge letter for")
    if style == "surrogate":  # the patient's surrogate name, the same in the texts as in Patient.name
        family = got["Patient"]["name"][0]["family"]
        assert family in got["AllergyIntolerance"]["reaction"][0]["description"]
        # The model's span here runs over "reports wheeze": not confidently a name, so it is a
        # placeholder, never the surrogate name with made-up words for the clinical ones.
        assert note["text"] == "[**PATIENT**] at night, worse after exercise." or note["text"].startswith(
            f"{got['Patient']['name'][0]['given'][0]} {family} reports wheeze")


def test_a_free_text_that_cannot_be_de_identified_is_removed_and_counted(tmp_path, export, monkeypatch, capsys):
    real = FhirWriter.text

    def text(self, doc):
        if "inhaler" in doc.text:
            raise LeakError("a surrogate would keep a run of the original", doc_id=doc.doc_id)
        return real(self, doc)
    monkeypatch.setattr(FhirWriter, "text", text)
    assert tag.main(["--input-format", "fhir", "--output-format", "fhir", "--output-dir", str(tmp_path / "out"),
                     "-o", "text=surrogate", "--seed", "4", str(export)]) == 0
    lines = (tmp_path / "out" / "Other.ndjson").read_text(encoding="utf-8").splitlines()
    communication = json.loads(lines[1])
    assert "payload" not in communication and "quennell" not in lines[1].lower()
    assert "1 free texts removed (could not be de-identified)" in capsys.readouterr().err
    assert "after exercise" in json.loads(lines[0])["note"][0]["text"]  # the others are read


def test_a_policy_may_remove_a_free_text_or_read_one_it_names(tmp_path, export):
    policy = tmp_path / "p.yaml"
    policy.write_text("extends: safe-harbor\nrules:\n  - {path: Condition.note, method: redact}\n"
                      "  - {path: Procedure.note.text, method: text}\n", encoding="utf-8")
    got = _run(export, tmp_path / "out", "--fhir-policy", str(policy))
    assert "note" not in got["Condition"] and "inhaler" in got["Communication"]["payload"][0]["contentString"]


@pytest.mark.parametrize("path", ["Patient.name.text", "Condition.code.text", "nodesByType('Annotation')"])
def test_text_is_refused_where_no_text_is_read(tmp_path, path):
    policy = tmp_path / "p.yaml"
    policy.write_text(f'rules:\n  - {{path: "{path}", method: text}}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="method text only where the reader reads"):
        load_policy(str(policy))
