"""The review app for a hospital network: personal tokens that decide who acts, sessions that
end when a token is rotated, HTTPS, and the small API mistakes a reliability probe found
(a failed login with no message, huge ids, reads that wrote). Notes are synthetic."""

from __future__ import annotations

import json
import ssl
import subprocess
import urllib.request

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
pytest.importorskip("httpx", reason="httpx is needed by FastAPI's test client")

from fastapi.testclient import TestClient  # noqa: E402

from crfdeid.cli.review import main as review_main  # noqa: E402
from crfdeid.document import Document, make_span  # noqa: E402
from crfdeid.errors import ConfigError  # noqa: E402
from crfdeid.review import headless  # noqa: E402
from crfdeid.review.credentials import Credentials, parse, set_token  # noqa: E402
from crfdeid.review.project import Project  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402

TEXT = "Seen by Dr. Ada Quill on 3/4."
NAME = make_span(TEXT.index("Ada"), TEXT.index(" on"), "DOCTOR")


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "proj", per_note=2)
    nid = p.store.add_note(Document("501-01", TEXT, [], {"patient": "501"}))
    p.store.set_suggestions(nid, [NAME], [0.9], 0, 1.0)
    yield p
    p.close()


@pytest.fixture
def tokens(tmp_path):
    path = tmp_path / "tokens"
    return path, {who: set_token(path, who) for who in ("alice", "bob")}


def test_token_files_are_checked_and_written_owner_only(tmp_path, tokens):
    path, given = tokens
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert parse(path.read_text()) == given
    with pytest.raises(ConfigError, match="has a token already"):
        set_token(path, "alice")
    with pytest.raises(ConfigError, match="line 2: expected 'NAME TOKEN'"):
        parse("alice 0123456789abcdef0\nbob\n")
    with pytest.raises(ConfigError, match="share one token"):
        parse("alice 0123456789abcdef0\nbob 0123456789abcdef0\n")
    with pytest.raises(ConfigError, match="at least 16") as err:
        parse("alice short-token\n")
    assert "short-token" not in str(err.value)  # a message never quotes a token


def test_a_personal_token_decides_who_acts_and_is_audited(project, tokens):
    path, given = tokens
    c = TestClient(create_app(project, hosts=("testserver",), credentials=Credentials.from_file(path)))
    alice = {"Authorization": f"Bearer {given['alice']}"}
    assert c.get("/api/project", headers=alice).json()["you"] == "alice"
    nid = project.store.notes()[0]["id"]
    # alice's token cannot act as bob
    r = c.post(f"/api/notes/{nid}/open", headers={**alice, "X-Annotator": "bob"}, json={})
    assert r.status_code == 403
    note = c.post(f"/api/notes/{nid}/open", headers=alice, json={}).json()
    c.patch(f"/api/spans/{note['spans'][0]['id']}", headers={**alice, "X-Annotator": "alice"},
            json={"subtype": "PATIENT"})
    actions = [(a["who"], a["action"]) for a in reversed(project.store.audit_log(nid))]
    assert actions[-3:] == [("alice", "open"), ("alice", "shown"), ("alice", "update_span")]
    assert project.store.review_state(nid, "bob") is None


def test_rotating_a_token_ends_that_persons_sessions(project, tokens):
    path, given = tokens
    app = create_app(project, hosts=("testserver",), credentials=Credentials.from_file(path))
    alice, bob = TestClient(app), TestClient(app)
    for c, who in ((alice, "alice"), (bob, "bob")):
        r = c.post("/login", data={"token": given[who]}, follow_redirects=False)
        assert r.status_code == 303 and given[who] not in r.headers["set-cookie"]
        assert c.get("/api/project").json()["you"] == who
    new = set_token(path, "alice", rotate=True)
    assert alice.get("/api/project").status_code == 401                  # her cookie is void
    assert alice.get("/api/project", headers={"Authorization": f"Bearer {given['alice']}"}).status_code == 401
    assert alice.get("/api/project", headers={"Authorization": f"Bearer {new}"}).json()["you"] == "alice"
    assert bob.get("/api/project").json()["you"] == "bob"                # others keep theirs


def test_a_failed_login_says_so(project):
    c = TestClient(create_app(project, hosts=("testserver",), token="s3cret-token-for-tests-only"))
    r = c.post("/login", data={"token": "wrong"})
    assert r.status_code == 200 and "That token is not valid" in r.text
    assert "not valid" not in c.get("/login").text


def test_reads_write_nothing_and_huge_ids_are_not_errors(project):
    c = TestClient(create_app(project, hosts=("testserver",)))
    before = [a["name"] for a in project.store.annotators()]
    assert c.get("/api/queue", headers={"X-Annotator": "mallory"}).status_code == 200
    nid = project.store.notes()[0]["id"]
    view = c.get(f"/api/notes/{nid}", headers={"X-Annotator": "carol"}).json()
    assert view["review"] is None and [(s["start"], s["end"]) for s in view["spans"]] == [(NAME.start, NAME.end)]
    assert [a["name"] for a in project.store.annotators()] == before   # no record for mallory or carol
    assert project.store.review_state(nid, "carol") is None             # a look opens nothing
    for path in ("/api/notes/{}/open", "/api/aggregate/{}", "/api/surrogates/{}"):
        for big in (10 ** 19, 10 ** 20):
            url = path.format(big)
            r = c.post(url, json={}, headers={"X-Annotator": "alice"}) if "open" in url else c.get(url)
            assert r.status_code == 422, (url, r.status_code)
    assert c.patch(f"/api/spans/{10 ** 19}", json={}, headers={"X-Annotator": "alice"}).status_code == 422


def test_serve_over_https_with_a_given_certificate(project, tmp_path, tokens):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True, timeout=60)
    path, given = tokens
    app = create_app(project, hosts=None, credentials=Credentials.from_file(path))
    ctx = ssl.create_default_context(cafile=str(cert))
    with headless.live_server(app, certfile=str(cert), keyfile=str(key)) as url:
        assert url.startswith("https://")
        req = urllib.request.Request(f"{url}/api/project", headers={"Authorization": f"Bearer {given['bob']}"})
        with urllib.request.urlopen(req, context=ctx, timeout=10) as resp:
            assert json.loads(resp.read())["you"] == "bob"
        req = urllib.request.Request(f"{url}/login", data=f"token={given['bob']}".encode(), method="POST")
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=ctx),
                                             _NoRedirect())
        with pytest.raises(urllib.error.HTTPError) as redirect:
            opener.open(req, timeout=10)
        assert "secure" in redirect.value.headers["set-cookie"].lower()  # the cookie never travels in clear


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_serve_warns_off_loopback_without_tls_or_personal_tokens(project, tmp_path, capsys, monkeypatch):
    import crfdeid.review.server as server
    seen = {}
    monkeypatch.setattr(server, "serve", lambda *a, **kw: seen.update(kw))
    shared = tmp_path / "shared"
    shared.write_text("s3cret-token-for-tests-only\n")
    shared.chmod(0o600)
    project.close()
    assert review_main(["serve", str(project.path), "--host", "0.0.0.0", "--token-file", str(shared)]) == 0
    err = capsys.readouterr().err
    assert "plain HTTP" in err and "act as any annotator" in err and "s3cret" not in err
    assert review_main(["serve", str(project.path), "--keyfile", "k.pem"]) == 2
    assert "--keyfile goes with --certfile" in capsys.readouterr().err


def test_token_command_prints_a_new_token_once(tmp_path, capsys):
    path = tmp_path / "tokens"
    assert review_main(["token", "alice", "--token-file", str(path)]) == 0
    first = capsys.readouterr().out.strip()
    assert parse(path.read_text()) == {"alice": first}
    assert review_main(["token", "alice", "--token-file", str(path)]) == 2
    assert review_main(["token", "alice", "--token-file", str(path), "--rotate"]) == 0
    assert capsys.readouterr().out.strip() not in (first, "")


@pytest.mark.parametrize("headers", [
    {"Origin": "http://testserver:8766"},                      # another local port: same site, other origin
    {"Origin": "http://evil.example"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
    {"Origin": "null"},
])
def test_a_login_posted_from_another_origin_is_refused(project, tokens, headers):
    path, given = tokens
    c = TestClient(create_app(project, hosts=("testserver",), credentials=Credentials.from_file(path)))
    r = c.post("/login", data={"token": given["bob"]}, headers=headers, follow_redirects=False)
    assert r.status_code == 403 and "set-cookie" not in r.headers
    assert c.get("/api/project").status_code == 401                   # the browser is nobody, not bob
    own = c.post("/login", data={"token": given["bob"]}, follow_redirects=False,
                 headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 303 and c.get("/api/project").json()["you"] == "bob"
