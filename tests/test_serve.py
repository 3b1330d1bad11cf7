"""The HTTP service: FastAPI's test client for the API, one real uvicorn on loopback.

Privacy is tested with planted markers: a note text that must never reach a log line or
an error response, whatever goes wrong.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # Starlette's advice to move to httpx2 is not about this project
    warnings.filterwarnings("ignore", message=".*httpx2.*")
    from fastapi.testclient import TestClient

from crfdeid.adapters.records import Deidentifier
from crfdeid.cli.serve import main
from crfdeid.document import Document
from crfdeid.serve import wait_ready
from crfdeid.serve.app import Settings, create_app

KEY = b"serve-test-key-0123456789"
TOKEN = "t0ken-for-tests-0123456789"
MARKER = "Qzxmarkerword"
NOTE = "Seen by Dr. Lee on 7/22/2098. Call John Smith at 555-123-4567."


@pytest.fixture(scope="module")
def secrets(tmp_path_factory):
    d = tmp_path_factory.mktemp("secrets")
    (d / "key").write_bytes(KEY + b"\n")
    (d / "token").write_text(TOKEN + "\n")
    return d


@pytest.fixture(scope="module")
def client(secrets):
    app = create_app(Settings(key_file=str(secrets / "key"), max_bytes=4000, max_documents=3))
    with TestClient(app) as c:
        yield c


def _post(client, **body):
    return client.post("/v1/deidentify", json=body)


@pytest.mark.parametrize("fmt", ["redacted", "masked", "surrogate", "spans"])
def test_one_text_gives_the_records_text_and_spans(client, fmt):
    r = _post(client, text=NOTE, patient="p0", output_format=fmt)
    assert r.status_code == 200
    [want] = Deidentifier(None, fmt, key=KEY if fmt == "surrogate" else None).run(
        [Document("0", NOTE, meta={"patient": "p0"})])
    got = r.json()
    assert got["output_format"] == fmt and got.get("text") == want.text and got["spans"] == want.spans
    assert {"type", "start", "end", "confidence"} <= set(got["spans"][0])


def test_numbers_are_ids_too(client):
    r = _post(client, documents=[{"id": 7, "text": NOTE, "patient": 70}], output_format="spans")
    assert r.status_code == 200 and r.json()["documents"][0]["id"] == "7"
    assert _post(client, id=8, text=NOTE).json()["id"] == "8"


def test_documents_share_surrogates_per_patient_and_requests_agree(client):
    docs = [{"id": "a", "text": "John Smith was admitted.", "patient": "p1"},
            {"id": "b", "text": "John Smith was seen today.", "patient": "p1"},  # a patient here, not a place
            {"id": "c", "text": "John Smith was admitted.", "patient": "p2"}]
    r = _post(client, documents=docs, output_format="surrogate")
    assert r.status_code == 200 and r.json()["failed"] == 0
    out = {d["id"]: d for d in r.json()["documents"]}

    def name(d):
        return d["text"][d["spans"][0]["start"]:d["spans"][0]["end"]]
    assert name(out["a"]) == name(out["b"]) != "John Smith"
    assert name(out["c"]) != name(out["a"])  # another patient, another surrogate
    again = _post(client, documents=docs[:1], output_format="surrogate").json()["documents"][0]
    assert again["text"] == out["a"]["text"]  # the server's key: same surrogate in any request


@pytest.mark.parametrize("body, status, message", [
    ({"documents": [{"text": "x"}] * 4}, 413, "at most 3 per request"),
    ({"text": "x" * 5000}, 413, "over 4000 bytes"),
    ({"text": "x", "key": "mine"}, 422, "extra_forbidden"),
    ({"text": "x", "documents": [{"text": "y"}]}, 422, "either 'text' or 'documents'"),
    ({"text": "x", "output_format": "i2b2"}, 422, "literal_error"),
])
def test_limits_and_refusals(client, body, status, message):
    r = client.post("/v1/deidentify", json=body)
    assert r.status_code == status and message in r.text


@pytest.mark.parametrize("body", [
    {"text": NOTE, "known": {MARKER: "x"}},  # issue 36: was 500 with the key in its message
    {"documents": [{"text": NOTE, "known": {"name": "Ann Lee", MARKER: ["x"]}}]},
    {"text": NOTE, "known": {MARKER: 5}},  # a value of the wrong type under that key
    {"text": NOTE, MARKER: "x"},  # a field of the request nobody declared
    {"text": NOTE, "known": {"birth_date": MARKER}},
])
def test_a_bad_known_record_is_422_and_never_echoed(client, body):
    r = _post(client, **body)
    assert r.status_code == 422 and MARKER not in r.text and MARKER.lower() not in r.text.lower()


@pytest.mark.parametrize("body, loc", [
    ({"text": "Seen \ud800 by Dr. Lee."}, ["body", "text"]),
    ({"text": NOTE, "id": "n\udc00"}, ["body", "id"]),
    ({"text": NOTE, "patient": "\ud800"}, ["body", "patient"]),
    ({"documents": [{"text": NOTE}, {"text": "x \udfff"}]}, ["body", "documents", 1, "text"]),
    ({"documents": [{"text": NOTE, "id": "\ud800"}]}, ["body", "documents", 0, "id"]),
])
def test_a_lone_surrogate_code_point_is_refused_at_validation(client, body, loc):
    import json
    r = client.post("/v1/deidentify", content=json.dumps(body).encode(),  # "\ud800" escapes
                    headers={"content-type": "application/json"})
    assert r.status_code == 422
    [error] = [e for e in r.json()["detail"] if e["type"] == "lone_surrogate"]
    assert error["loc"][:len(loc)] == loc and "character" in error["msg"]


def test_a_note_whose_answer_fails_is_that_notes_error_only(client, monkeypatch):
    import dataclasses
    real = Deidentifier.run

    def run(self, docs, writer=None):  # a writer that yields text JSON cannot carry
        for rec in real(self, docs, writer):
            yield dataclasses.replace(rec, text=rec.text + "\ud800") if rec.id == "bad" else rec
    monkeypatch.setattr(Deidentifier, "run", run)
    r = _post(client, documents=[{"id": "bad", "text": NOTE}, {"id": "good", "text": NOTE}])
    assert r.status_code == 200 and r.json()["failed"] == 1
    bad, good = r.json()["documents"]
    assert "text" not in bad and "'bad'" in bad["error"] and "UnicodeEncodeError" in bad["error"]
    assert good["text"].startswith("Seen by Dr. [**") and "error" not in good


def test_a_note_without_patient_or_id_is_a_patient_of_its_own(client):
    note = "John Smith seen on 7/22/2098 and 8/01/2098."
    alone = [_post(client, text=note, output_format="surrogate").json()["text"] for _ in range(2)]
    assert alone[0] != alone[1]  # another request, another patient: no shared date offset or names
    batch = _post(client, documents=[{"text": note}] * 2, output_format="surrogate").json()
    assert batch["documents"][0]["text"] != batch["documents"][1]["text"]
    same = [_post(client, text=note, patient="p9", output_format="surrogate").json()["text"]
            for _ in range(2)]
    assert same[0] == same[1]  # a patient given: the same surrogates in every request


def test_a_chunked_body_over_the_limit_is_refused(client):
    chunks = (b'{"text": "' + b"x" * 1000 for _ in range(5))
    r = client.post("/v1/deidentify", content=chunks, headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_surrogates_need_a_server_key():
    with TestClient(create_app(Settings())) as c:
        r = _post(c, text=NOTE, output_format="surrogate")
        assert r.status_code == 400 and "--key-file" in r.json()["detail"]
        assert c.get("/health").json()["surrogates"] is False


def test_the_request_timeout_bounds_the_models_work_and_never_a_health_probe():
    # a timeout no answer can meet: the model's work gets 503, the probe (and the API's schema) its 200
    with TestClient(create_app(Settings(request_timeout=1e-6))) as c:
        assert c.get("/health").status_code == 200 and c.get("/openapi.json").status_code == 200
        r = _post(c, text=NOTE)
        assert r.status_code == 503 and "request timeout" in r.json()["detail"]


def test_token_is_required_when_configured(secrets):
    with TestClient(create_app(Settings(token_file=str(secrets / "token")))) as c:
        assert c.get("/health").status_code == 200
        assert _post(c, text=NOTE).status_code == 401
        bad = c.post("/v1/deidentify", json={"text": NOTE}, headers={"Authorization": "Bearer wrong"})
        assert bad.status_code == 401
        good = c.post("/v1/deidentify", json={"text": NOTE}, headers={"Authorization": f"Bearer {TOKEN}"})
        assert good.status_code == 200


def test_openapi_docs(client):
    assert "/v1/deidentify" in client.get("/openapi.json").json()["paths"]
    pytest.importorskip("swagger_ui_bundle")  # the serve extra's; CI installs it
    page = client.get("/docs")
    assert page.status_code == 200
    # every script and style of the page comes from this server: no CDN, no other host
    assets = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]|url: ?['"]([^'"]+)['"]""", page.text)
    urls = [u for pair in assets for u in pair if u]
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    assert "http" not in page.text.lower() and '"validatorUrl": null' in page.text
    for u in urls:
        assert client.get(u).status_code == 200, u
    assert client.get("/redoc").status_code == 404


def test_no_docs_page_says_why(secrets, monkeypatch, caplog):
    """Without the serve extra's Swagger UI assets there is no /docs page, and the log says so."""
    monkeypatch.setitem(sys.modules, "swagger_ui_bundle", None)  # import fails as if not installed
    with caplog.at_level(logging.WARNING, logger="crfdeid.serve"):
        app = create_app(Settings(key_file=str(secrets / "key")))
    with TestClient(app) as c:
        assert c.get("/docs").status_code == 404
        assert c.get("/openapi.json").status_code == 200
    assert any("swagger-ui-bundle is not installed" in r.getMessage() for r in caplog.records)


def test_no_note_text_in_logs_or_errors(client, caplog, monkeypatch, tagging_fails_on):
    """A planted marker goes through every path: success, bad JSON, bad fields, too large,
    a failing note and a bug in the endpoint; it shows up in no log line and no error."""
    caplog.set_level(logging.DEBUG)
    note = f"{MARKER} Smith seen on 7/22/2098."
    errors = [
        client.post("/v1/deidentify", content=f'{{"text": "{note}"'.encode(),
                    headers={"content-type": "application/json"}),
        _post(client, text=note, output_format=MARKER),
        _post(client, text=note, patient=[MARKER]),
        _post(client, text=note + "x" * 5000),
        client.post(f"/v1/deidentify?text={MARKER}", json={"text": 5}),
        client.post(f"/v1/{MARKER}", json={"text": note}),
    ]
    assert _post(client, text=note).status_code == 200
    tagging_fails_on(MARKER)
    errors.append(_post(client, text=note))  # the note fails: 500 naming the document only
    batch = _post(client, documents=[{"id": "n1", "text": note}, {"id": "n2", "text": NOTE}])
    assert batch.json()["failed"] == 1 and MARKER not in batch.text
    monkeypatch.setattr(Deidentifier, "run", lambda self, docs: (_ for _ in ()).throw(RuntimeError(MARKER)))
    errors.append(_post(client, text=note))  # a bug outside the per-note guard
    assert [e.status_code for e in errors] == [422, 422, 422, 413, 422, 404, 500, 500]
    assert all(MARKER not in e.text for e in errors)
    # every server-side record (the test client's own httpx log shows the URL it sent)
    server = "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith("httpx"))
    assert MARKER not in server
    assert "POST /v1/deidentify 500" in server and "failed (RuntimeError)" in server
    assert "POST (other) 404" in server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_real_server_on_loopback(secrets, tmp_path):
    import httpx
    port = _free_port()
    log = tmp_path / "server.log"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent))
    with open(log, "wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "crfdeid.serve", "--port", str(port),
                                 "--key-file", str(secrets / "key"), "--max-documents", "2"],
                                stdout=fh, stderr=subprocess.STDOUT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        assert wait_ready(base, proc, timeout=60), log.read_text()
        note = f"{MARKER} Smith seen on 7/22/2098."
        r = httpx.post(f"{base}/v1/deidentify", json={"text": note, "output_format": "surrogate"})
        assert r.status_code == 200 and "7/22/2098" not in r.json()["text"]
        too_many = httpx.post(f"{base}/v1/deidentify", json={"documents": [{"text": note}] * 3})
        assert too_many.status_code == 413
        bad = httpx.post(f"{base}/v1/deidentify", content=note.encode(),
                         headers={"content-type": "application/json"})
        assert bad.status_code == 422 and MARKER not in bad.text
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0  # SIGTERM is a graceful stop (issue 36: it was 143)
    text = log.read_text()
    assert "POST /v1/deidentify 200" in text and "POST /v1/deidentify 413" in text
    assert MARKER not in text


def test_binding_off_loopback_needs_a_token(capsys):
    assert main(["--host", "0.0.0.0"]) == 2
    assert "--token-file" in capsys.readouterr().err


def test_short_token_is_refused(tmp_path):
    from crfdeid.errors import ConfigError
    (tmp_path / "t").write_text("short")
    with pytest.raises(ConfigError, match="16 characters"):
        create_app(Settings(token_file=str(tmp_path / "t")))


def test_workers_check_the_model_before_binding(tmp_path, capsys):
    assert main(["--workers", "2", "--model", str(tmp_path / "missing.model")]) == 2
    assert "missing.model" in capsys.readouterr().err


def test_a_site_file_and_a_notes_known_identifiers_are_found(tmp_path):
    # made-up patient and staff; the model alone does not tag "quillon" or "zorbek"
    (tmp_path / "patients.csv").write_text("patient,last_name\np9,Zorbek\n", encoding="utf-8")
    (tmp_path / "staff.txt").write_text("Tamsin Quillon\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("tables: patients.csv\nstaff: staff.txt\n", encoding="utf-8")
    app = create_app(Settings(site=str(tmp_path / "site.yaml")))
    text = "zorbek resting, t. quillon aware, brother vexlan called"
    with TestClient(app) as c:
        r = _post(c, documents=[{"text": text, "patient": "p9", "known": {"relative": "Vexlan Zorbek"}}],
                  output_format="spans")
        assert r.status_code == 200
        spans = {(text[s["start"]:s["end"]], s["type"]) for s in r.json()["documents"][0]["spans"]}
        assert {("zorbek", "PATIENT"), ("t. quillon", "DOCTOR"), ("vexlan", "PATIENT")} <= spans
        r = _post(c, text=text, known={"shoe_size": "9"})
        assert r.status_code == 422 and "shoe_size" not in r.text and "zorbek" not in r.text
        assert "unknown field(s) of 9 characters" in r.text  # named by its length only


def test_health_counts_the_site_table_rows_requests_matched(tmp_path, caplog):
    """Issue 36: ``serve --site`` said nothing of whether its table rows met any note (a table
    keyed by patient needs each request's ``patient``); /health counts them, never a key."""
    (tmp_path / "patients.csv").write_text("patient,last_name\np9,Zorbek\np8,Vexlan\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("tables: patients.csv\n", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="crfdeid.serve"):
        app = create_app(Settings(site=str(tmp_path / "site.yaml")))
    assert "site tables: 2 patient row(s), 0 note row(s)" in caplog.text and "Zorbek" not in caplog.text
    with TestClient(app) as c:
        assert c.get("/health").json()["site_tables"] == {
            "patients": 2, "patients_matched": 0, "notes": 0, "notes_matched": 0, "notes_read": 0}
        assert _post(c, documents=[{"text": "zorbek resting", "id": "a"}], output_format="spans").status_code == 200
        assert c.get("/health").json()["site_tables"]["patients_matched"] == 0  # no patient: nothing met
        assert _post(c, documents=[{"text": "zorbek resting", "patient": "p9"},
                                   {"text": "seen again", "patient": "p9"}]).status_code == 200
        health = c.get("/health")
        assert health.json()["site_tables"] == {
            "patients": 2, "patients_matched": 1, "notes": 0, "notes_matched": 0, "notes_read": 3}
        assert "p9" not in health.text and "Zorbek" not in health.text
    with TestClient(create_app(Settings())) as c:
        assert "site_tables" not in c.get("/health").json()


def test_explain_adds_each_spans_steps_and_the_dropped_spans_and_is_off_by_default(tmp_path):
    # a made-up safe term of the site: the site step drops the model's span on "Lee"
    (tmp_path / "allow.txt").write_text("Lee\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("allow: allow.txt\n", encoding="utf-8")
    text = "Seen by Dr. Lee on 7/22/2098."
    with TestClient(create_app(Settings(site=str(tmp_path / "site.yaml")))) as c:
        plain = _post(c, text=text)
        assert plain.status_code == 200 and "steps" not in plain.text and "dropped" not in plain.text
        assert _post(c, text=text, explain=False).content == plain.content  # off: byte for byte the same
        r = _post(c, text=text, explain=True)
        assert r.status_code == 200
        body = r.json()
        assert body["text"] == plain.json()["text"]
        [date] = body["spans"]
        assert text[date["start"]:date["end"]] == "7/22/2098" and date["steps"][0]["step"] == "crf"
        [lee] = body["dropped"]
        assert (text[lee["start"]:lee["end"]], lee["type"]) == ("Lee", "DOCTOR") and "Lee" not in str(lee)
        assert (lee["steps"][-1]["step"], lee["steps"][-1]["action"]) == ("site.v1", "dropped")
        r = _post(c, documents=[{"text": text}, {"text": "Nothing here."}], output_format="spans", explain=True)
        assert r.status_code == 200
        assert [len(d["dropped"]) for d in r.json()["documents"]] == [1, 0]
        r = _post(c, text=text, explain="yes")
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "explain"]


def test_an_id_holding_note_text_is_refused_and_never_echoed(client):
    """Issue 52: a 335-character id (note text in the id's place) was echoed in the answer; the
    command line refuses it, and so does the service (422, its length only)."""
    long_id = "Pt Quillonard Vexby seen " * 14  # 350 characters
    for body in ({"id": long_id, "text": "Seen by Dr. Lee."},
                 {"documents": [{"id": "ok", "text": "x"}, {"id": "two\nlines", "text": "y"}]},
                 {"text": "Seen.", "patient": long_id}):
        got = client.post("/v1/deidentify", json=body)
        assert got.status_code == 422
        assert "Quillonard" not in got.text and "two\\nlines" not in got.text
    assert client.post("/v1/deidentify", json={"id": "n-1_a", "text": "Seen by Dr. Lee."}).json()["id"] == "n-1_a"
