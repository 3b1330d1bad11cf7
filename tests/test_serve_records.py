"""``POST /v1/fhir`` and ``POST /v1/hl7``: the body back de-identified through a real HTTP client
(made-up records); an unreadable record fails the request by position, never echoing it."""

from __future__ import annotations

import base64
import json
import logging
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402
from test_io_hl7_types import ORIGINALS as HL7_ORIGINALS  # noqa: E402

from crfdeid.serve.app import Settings, create_app  # noqa: E402

ORIGINALS = ["Kevin", "Dorsey", "00482913", "2031-03-14", "20310314", "Maple", "617-555-0143", "Mindy", "Malloy"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    key = tmp_path_factory.mktemp("k") / "key"
    key.write_bytes(b"records-test-key-0123456789\n")
    with TestClient(create_app(Settings(key_file=str(key), max_bytes=100_000))) as c:
        yield c


@pytest.mark.parametrize("text", ["redacted", "surrogate"])
def test_bundle_and_message_come_back_de_identified(client, data_dir, text):
    bundle = (data_dir / "fhir" / "bundle.json").read_bytes()
    r = client.post(f"/v1/fhir?text={text}", content=bundle, headers={"content-type": "application/fhir+json"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/fhir+json")
    out = r.json()
    ids = [e["resource"]["id"] for e in out["entry"]]
    assert not set(ids) & {e["resource"]["id"] for e in json.loads(bundle)["entry"]}  # hashed with the server's key
    again = client.post(f"/v1/fhir?text={text}", content=bundle).json()
    assert [e["resource"]["id"] for e in again["entry"]] == ids  # the same key: the same pseudonymous ids
    note = base64.b64decode(out["entry"][2]["resource"]["content"][0]["attachment"]["data"]).decode()
    r2 = client.post(f"/v1/hl7?text={text}", content=(data_dir / "hl7" / "oru.hl7").read_bytes())
    assert r2.status_code == 200 and r2.text.startswith("MSH|")
    for original in ORIGINALS:
        assert original not in r.text and original not in note and original not in r2.text, original


@pytest.mark.parametrize("text", ["redacted", "surrogate"])
def test_every_field_of_a_message_is_de_identified_by_its_type(client, data_dir, text):
    src = (data_dir / "hl7" / "full.hl7").read_bytes()
    r = client.post(f"/v1/hl7?text={text}", content=src)
    assert r.status_code == 200
    assert [line[:3] for line in r.text.splitlines()] == [line[:3] for line in src.decode().splitlines()]
    for original in HL7_ORIGINALS["full.hl7"]:
        assert original.lower() not in r.text.lower(), original
    control = r.text.split("\r", 1)[0].split("|")[9]  # MSH-10: hashed with the server's key, in every request
    assert re.fullmatch(r"[0-9A-F]{16}", control) and f"MSA|AA|{control}" in r.text
    assert client.post(f"/v1/hl7?text={text}", content=src).text.split("\r", 1)[0].split("|")[9] == control


def test_unreadable_record_fails_by_position(client):
    r = client.post("/v1/hl7", content=b"Zorba Quinlan\rMSH\rOBX|1|TX|X||Zorba Quinlan||||||F\r")
    assert r.status_code == 422 and "message 1 (line 2)" in r.text and "Zorba" not in r.text
    r = client.post("/v1/fhir", content=b'{"resourceType": "Observation", "valueString": "Zorba Quinlan"')
    assert r.status_code == 422 and "Zorba" not in r.text
    assert client.post("/v1/fhir?text=plain", content=b"{}").status_code == 400


def test_no_record_text_in_logs_or_errors(client, caplog, tagging_fails_on):
    marker = "Qzxmarkerword"
    caplog.set_level(logging.DEBUG)
    msg = f"MSH|^~\\&|A|B|||||ORU^R01|1|P|2.5\rOBX|1|TX|X||{marker} seen.||||||F\r".encode()
    answers = [client.post("/v1/hl7", content=msg.replace(b"MSH|", b"MSX|")),
               client.post("/v1/fhir", content=f'{{"resourceType": "Observation", "valueString": "{marker}'.encode())]
    tagging_fails_on(marker)
    answers.append(client.post("/v1/hl7", content=msg))
    assert [a.status_code for a in answers] == [422, 422, 500]
    for a in answers:
        assert marker not in a.text
    assert all(marker not in r.getMessage() for r in caplog.records)
