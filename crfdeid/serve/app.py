"""The FastAPI application: ``POST /v1/deidentify``, ``GET /health``, OpenAPI at ``/docs``.

Privacy rules, each enforced here and tested with planted markers: no note text in any
log line (the access log names method, path without query, status, time, sizes and
document counts; a failure logs its exception type only), no request content echoed in
an error response (validation errors keep location and reason, not the input), surrogate
keys only from the server's configuration (a request field ``key`` is refused).

Limits, in the outermost layer (:class:`_Guard`), before any body is parsed: the token
(401 before the body is read), the body size (413), the time to receive the body (408),
a client that closes before its ``Content-Length`` is in (dropped, never tagged), and the
time to answer once the body is in (503).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, model_validator
from pydantic_core import PydanticCustomError

from ..adapters.records import Deidentifier
from ..deid.key import read_key_file, read_secret
from ..document import Document
from ..errors import ConfigError
from ..progress import Cancelled
from ..progress import deadline as until
from ..site import Site, TableUse
from ..site.tables import as_record
from ..tagging.model import TaggingModel
from ..version import __version__

log = logging.getLogger("crfdeid.serve")

Format = Literal["redacted", "masked", "surrogate", "spans"]


@dataclass(frozen=True)
class Settings:
    """What the server is started with (``python -m crfdeid serve`` options)."""

    model: str | None = None
    key_file: str | None = None
    token_file: str | None = None
    max_bytes: int = 1_000_000
    max_documents: int = 100
    body_timeout: float = 30.0
    request_timeout: float = 60.0
    site: str | None = None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unicode(value: str) -> str:
    """Refuse a lone surrogate code point (JSON's ``"\\ud800"``): not text, and not encodable."""
    found = _SURROGATE.search(value)
    if found is not None:
        raise PydanticCustomError("lone_surrogate", "a lone surrogate code point at character "
                                  "{offset}: not valid Unicode text", {"offset": found.start()})
    return value


#: A string field of a request: any Unicode text, no lone surrogate (422).
Text = Annotated[str, AfterValidator(_unicode)]


def _known_fields(value: dict) -> dict:
    """Refuse a field of ``known`` that is not an identifier field (docs/site.md), naming it by
    its length only: a key can be anything, a patient's name included (422, never echoed)."""
    try:
        as_record(value, "known", echo=False)
    except ConfigError as exc:
        raise PydanticCustomError("known_field", "{reason}", {"reason": exc.reason}) from None
    return value


#: A note's own identifiers: fields of docs/site.md, each a string or a list of strings.
Known = Annotated[dict[str, str | list[str]], AfterValidator(_known_fields)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DocumentIn(_In):
    id: Text | int | None = Field(None, description="your id for the note (default: its position)")
    text: Text
    patient: Text | int | None = Field(
        None, description="patient key: a patient's notes share surrogates; without it (and without "
                          "an id) a note is a patient of its own")
    known: Known | None = Field(
        None, description="the note's own identifiers from the record (docs/site.md fields: name, "
                          "first_name, last_name, relative, mrn, phone, birth_date, address...)")


class DeidentifyRequest(_In):
    """One note (``text``) or several (``documents``), and the output style."""

    text: Text | None = None
    id: Text | int | None = None
    patient: Text | int | None = None
    known: Known | None = None
    documents: list[DocumentIn] | None = None
    output_format: Format = "redacted"
    explain: StrictBool = Field(
        False, description="add each span's steps (which step found, widened, retyped it) and the "
                           "dropped spans with their steps and reasons (offsets and types, no text)")

    @model_validator(mode="after")
    def _one_kind(self):
        if (self.text is None) == (self.documents is None):
            raise ValueError("give either 'text' or 'documents'")
        if self.documents is not None and (self.id is not None or self.patient is not None
                                           or self.known is not None):
            raise ValueError("'id', 'patient' and 'known' go inside each of 'documents'")
        return self


class WasOut(BaseModel):
    start: int
    end: int
    type: str


class StepOut(BaseModel):
    step: str = Field(description="the step, e.g. crf, rules.v1, junk_spans.v1")
    action: str = Field(description="found, widened, narrowed, moved, retyped, merged or dropped")
    reason: str = Field(description="the step's fixed phrase, never the note's words")
    was: WasOut | None = Field(None, description="the span it changed")


class SpanOut(BaseModel):
    type: str = Field(description="PHI subtype, e.g. DOCTOR")
    category: str = Field(description="parent category, e.g. NAME")
    start: int = Field(description="first character (offsets into the original text)")
    end: int = Field(description="one past the last character")
    confidence: float
    steps: list[StepOut] | None = Field(None, description="what each step did to it (explain only)")


class DroppedOut(BaseModel):
    type: str
    category: str
    start: int
    end: int
    steps: list[StepOut] = Field(description="the steps that made it, the last one dropping it")


class DocumentOut(BaseModel):
    id: str | None = None
    text: str | None = Field(None, description="de-identified text (none for output_format spans)")
    spans: list[SpanOut] | None = None
    dropped: list[DroppedOut] | None = Field(None, description="spans a step dropped (explain only)")
    error: str | None = Field(None, description="why the note failed (never its text)")


class DeidentifyResponse(BaseModel):
    output_format: Format
    id: str | None = None
    text: str | None = None
    spans: list[SpanOut] | None = None
    dropped: list[DroppedOut] | None = Field(None, description="spans a step dropped (explain only)")
    documents: list[DocumentOut] | None = None
    failed: int | None = Field(None, description="documents that failed (documents requests)")


#: What a validation error's location may name: the request's parts and the API's fields.
_FIELD_NAMES = frozenset({"body", "query", "path", "header", *DeidentifyRequest.model_fields,
                          *DocumentIn.model_fields})


def create_app(settings: Settings = Settings()) -> FastAPI:
    """The application, with the model loaded and the key and token read (once, here).

    Raises
    ------
    ConfigError, ModelError
        An unreadable key or token file, a token under 16 characters, a bad model, a limit
        that is not positive.
    """
    if min(settings.max_bytes, settings.max_documents, settings.body_timeout, settings.request_timeout) <= 0:
        raise ConfigError("max_bytes, max_documents, body_timeout and request_timeout must be positive")
    model = TaggingModel.load(settings.model)
    key = read_key_file(settings.key_file) if settings.key_file else None  # as crfdeid tag reads it
    token = read_secret(settings.token_file, "the token file") if settings.token_file else None
    if token is not None and len(token) < 16:
        raise ConfigError("the token must have at least 16 characters", path=settings.token_file)
    site = Site.load(settings.site) if settings.site else None
    engines = {(fmt, explain): Deidentifier(model, fmt, key=key if fmt == "surrogate" else None, site=site,
                                            explain=explain)
               for fmt in ("redacted", "masked", "spans") + (("surrogate",) if key else ())
               for explain in (False, True)}
    lock = threading.Lock()  # one model, tagged by one request at a time (CPU-bound anyway)
    table_use = TableUse(site)  # how many site-table rows any request's notes matched (issue 36)
    rows = table_use.counts()
    if rows is not None:
        log.info("site tables: %d patient row(s), %d note row(s); GET /health counts how many matched a "
                 "request's note (a note's patient is its \"patient\" field)", rows["patients"], rows["notes"])

    app = FastAPI(title="crfdeid", version=__version__, docs_url=None, redoc_url=None,
                  description="De-identification of clinical notes (PHI spans, redaction, masking, "
                              "surrogates). Note text never appears in logs or error messages.")
    _add_docs_page(app)

    @app.get("/health")
    def health() -> dict:
        """Liveness and what is loaded (no secret, no note)."""
        return {"status": "ok", "crfdeid_version": __version__,
                "model_sha256": model.manifest.get("crf_sha256", "")[:12],
                "surrogates": key is not None, "max_bytes": settings.max_bytes,
                "max_documents": settings.max_documents, "body_timeout": settings.body_timeout,
                "request_timeout": settings.request_timeout,
                # counts only (a patient key may be a record number); absent without site tables
                **({"site_tables": table_use.counts()} if table_use.rows else {})}

    @app.post("/v1/deidentify", response_model=DeidentifyResponse, response_model_exclude_none=True,
              responses={401: {"description": "token required (checked before the body is read)"},
                         408: {"description": "the body took longer than the body timeout"},
                         413: {"description": "request too large"},
                         503: {"description": "no answer within the request timeout"}})
    def deidentify(body: DeidentifyRequest, request: Request) -> dict:
        """Tag one note or a batch and return spans and de-identified text in ``output_format``.

        Surrogates are consistent per patient within a request (give a patient's notes
        together with the same ``patient``); across requests the keyed draws agree for the
        same original string and patient, but name parts and initials are linked only within
        a request.
        """
        engine = engines.get((body.output_format, body.explain))
        if engine is None:
            raise HTTPException(400, "surrogate output needs a key: start the server with --key-file")
        if body.documents is not None and len(body.documents) > settings.max_documents:
            raise HTTPException(413, f"{len(body.documents)} documents: at most "
                                     f"{settings.max_documents} per request")
        items: list = body.documents if body.documents is not None else [body]
        docs = [Document(str(d.id) if d.id is not None else str(i), d.text, meta=_meta(d))
                for i, d in enumerate(items)]
        request.state.documents = len(docs)
        deadline, gone = request.state.deadline, request.state.gone
        if not _acquire(lock, deadline, gone):
            raise HTTPException(503, _LATE)
        # stop at the deadline (the guard has answered 503 by then) or when the client has
        # closed its connection, between documents and between the pieces of one (a long
        # note's parts, its spans): the model is free again
        try:
            for doc in docs:
                table_use.see(doc)
            with until(deadline, gone):
                records = [_encodable(rec) for rec in engine.run(docs)]
        except Cancelled:
            raise HTTPException(503, _LATE) from None
        finally:
            lock.release()
        if body.documents is None:
            [rec] = records
            if rec.error is not None:
                raise HTTPException(500, rec.error)
            return {"output_format": body.output_format, "id": rec.id if body.id is not None else None,
                    "text": rec.text, "spans": rec.spans, "dropped": _dropped(rec)}
        out = [{"id": r.id, "text": r.text, "spans": r.spans, "error": r.error, "dropped": _dropped(r)}
               for r in records]
        return {"output_format": body.output_format, "documents": out,
                "failed": sum(r.error is not None for r in records)}

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input: keep where and why only, and of where only
        # positions and the API's own field names (a key a client made up could be a name)
        detail = [{"loc": [p if isinstance(p, int) or p in _FIELD_NAMES else "(key)" for p in e.get("loc", ())],
                   "type": e.get("type"), "msg": e.get("msg")} for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    app.add_middleware(_Guard, settings=settings, token=token)
    return app


_LATE = "no answer within the request timeout: try again later, or send fewer or shorter notes"


def _acquire(lock: threading.Lock, deadline: float, gone: threading.Event) -> bool:
    """Take the model's lock before ``deadline``, unless the client goes (``gone``) first."""
    while not gone.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if lock.acquire(timeout=min(left, 0.05)):
            return True
    return False


def _patient(doc) -> dict:
    """A note's meta: its patient; a note with neither patient nor id is a patient of its own
    (a random key: its surrogates and date offset agree with no other note's)."""
    if doc.patient is not None:
        return {"patient": str(doc.patient)}
    return {} if doc.id is not None else {"patient": f"request-{uuid.uuid4().hex}"}


def _meta(doc) -> dict:
    """A request document's metadata: its patient (:func:`_patient`) and known identifiers."""
    meta = _patient(doc)
    if doc.known is not None:
        meta["known"] = doc.known
    return meta


def _dropped(rec) -> list | None:
    """The spans a step dropped from a note tagged with ``explain`` (None otherwise: not in the answer)."""
    return None if rec.explanation is None else rec.explanation["dropped"]


def _encodable(rec):
    """``rec``, or the failure of that note alone when its answer cannot be sent as UTF-8 JSON."""
    try:
        for value in (rec.id, rec.text):
            if value is not None:
                value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return type(rec)(rec.id.encode("utf-8", "replace").decode(), None, None,
                         f"document {rec.id!r}: the answer is not valid Unicode ({type(exc).__name__})")
    return rec


def _add_docs_page(app: FastAPI) -> None:
    """``GET /docs``: the OpenAPI page with Swagger UI served by this server, not a CDN.

    FastAPI's own page makes the browser fetch Swagger UI from a public CDN: a blank page on
    a hospital network without internet access, and a request that tells the CDN who runs
    the service. The assets come from the ``swagger-ui-bundle`` package (the ``serve``
    extra); without it there is no page (``/openapi.json`` stays).
    """
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        return
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.staticfiles import StaticFiles

    app.mount(_DOCS_ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs():
        js, css, icon = (f"{_DOCS_ASSETS}/{name}" for name in _DOCS_FILES)
        return get_swagger_ui_html(openapi_url="/openapi.json", title="crfdeid API",
                                   swagger_js_url=js, swagger_css_url=css, swagger_favicon_url=icon,
                                   # no badge fetched from validator.swagger.io either
                                   swagger_ui_parameters={"validatorUrl": None})


_DOCS_ASSETS = "/docs/assets"
#: Swagger UI's script, style and icon, as the docs page names them.
_DOCS_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png")

#: Paths the access log names as they are; any other path is logged as ``(other)``: a path a
#: client made up could hold anything.
_KNOWN_PATHS = frozenset({"/v1/deidentify", "/health", "/docs", "/openapi.json",
                          *(f"{_DOCS_ASSETS}/{name}" for name in _DOCS_FILES)})


class _Guard:
    """Outermost layer: the token, the body (size, time, completeness), the time to answer, an
    access log without bodies, and a last catch that logs a failure by exception type only
    and answers 500 without any detail.

    Everything a client can hold up is bounded here, before FastAPI parses anything: a
    request without the token gets 401 before its body is read; a body larger than
    ``max_bytes`` 413 as soon as that is known; a body not in within ``body_timeout`` seconds
    408; a client that closes before its body is complete is dropped (never tagged); an
    answer not ready ``request_timeout`` seconds after the body is in gets 503. The answers
    that leave a body unread close the connection.
    """

    def __init__(self, app, settings: Settings, token: bytes | None):
        self.app, self.settings, self.token = app, settings, token
        self.pending: set = set()  # answers given up on: kept until they end (see _late)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        path = scope["path"] if scope["path"] in _KNOWN_PATHS else "(other)"
        state = {"status": 0, "out": 0, "in": 0, "given_up": False}
        scope.setdefault("state", {})

        async def send_logged(message):
            if state["given_up"]:  # the client has had its 503: a late answer goes nowhere
                return
            if message["type"] == "http.response.start":
                state["status"] = message["status"]
            elif message["type"] == "http.response.body":
                state["out"] += len(message.get("body", b""))
            await send(message)

        try:
            refused, body = await self._admit(scope, receive, state)
            if refused is not None:
                if refused:  # else: the client has gone, nobody to answer
                    await _json(send_logged, *refused)
            else:
                scope["state"]["deadline"] = time.monotonic() + self.settings.request_timeout
                await self._answer(scope, body, receive, send_logged, state)
        except Exception as exc:  # noqa: BLE001 - never let the server print a traceback with data
            log.error("%s %s failed (%s)", scope["method"], path, type(exc).__name__)
            if state["status"] == 0:
                await _json(send_logged, 500, {"detail": "internal error"})
        status = state["status"] or "- (client closed before its body was complete)"
        log.info("%s %s %s %.1fms in=%dB out=%dB docs=%s", scope["method"], path, status,
                 1000 * (time.perf_counter() - t0), state["in"], state["out"],
                 scope["state"].get("documents", "-"))

    async def _admit(self, scope, receive, state) -> tuple:
        """``(None, body)`` for a request to answer, else ``(refusal, b"")``: a refusal is
        ``(status, detail, headers)``, or ``()`` when the client has gone."""
        headers = dict(scope.get("headers") or ())
        close = [(b"connection", b"close")]
        if self.token is not None and scope["path"].startswith("/v1/"):
            scheme, _, value = headers.get(b"authorization", b"").partition(b" ")
            # compare_digest: the time taken does not tell how much of the token was right
            if not (scheme.lower() == b"bearer" and hmac.compare_digest(value.strip(), self.token)):
                return (401, {"detail": "missing or wrong bearer token"},
                        [(b"www-authenticate", b"Bearer"), *close]), b""
        length = headers.get(b"content-length")
        limit = self.settings.max_bytes
        if length is not None and (not length.isdigit() or int(length) > limit):
            detail = f"request body over {limit} bytes" if length.isdigit() else "bad Content-Length"
            return (413 if length.isdigit() else 400, {"detail": detail}, close), b""
        if scope["method"] in ("GET", "HEAD"):
            return None, b""
        chunks: list[bytes] = []
        deadline = time.monotonic() + self.settings.body_timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return (408, {"detail": f"the body took over {self.settings.body_timeout:g} s"}, close), b""
            if message["type"] != "http.request":  # http.disconnect: the body will never be complete
                return (), b""
            chunks.append(message.get("body", b""))
            state["in"] += len(chunks[-1])
            if state["in"] > limit:
                return (413, {"detail": f"request body over {limit} bytes"}, close), b""
            if not message.get("more_body"):
                break
        if length is not None and state["in"] != int(length):
            return (400, {"detail": "the body does not have its Content-Length"}, close), b""
        return None, b"".join(chunks)

    async def _answer(self, scope, body: bytes, receive, send, state) -> None:
        """Run the application on ``body``; past ``request_timeout`` answer 503 and let it end
        unheard. A client that closes its connection meanwhile sets ``state.gone``: the work
        stops at its next checkpoint (nobody is left to answer)."""
        gone = threading.Event()
        scope["state"]["gone"] = gone
        disconnected = asyncio.Event()

        async def watch() -> None:  # after the body, the client's next message is its going
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            disconnected.set()

        async def after_body():
            await disconnected.wait()
            return {"type": "http.disconnect"}

        watcher = asyncio.ensure_future(watch())
        task = asyncio.ensure_future(self.app(scope, _replay(body, after_body), send))
        task.add_done_callback(lambda _task: watcher.cancel())
        remaining = scope["state"]["deadline"] - time.monotonic()
        done, _ = await asyncio.wait({task}, timeout=max(0.0, remaining))
        if task in done or state["status"]:
            await task
            return
        # a tagging thread cannot be stopped from outside: it stops itself at its next
        # checkpoint (crfdeid.progress: between notes, a long note's pieces, its spans), and
        # this task ends then; its answer is dropped
        await _json(send, 503, {"detail": _LATE}, [(b"retry-after", b"5")])
        state["given_up"] = True
        self.pending.add(task)
        task.add_done_callback(self._late)

    def _late(self, task) -> None:
        self.pending.discard(task)
        if not task.cancelled() and task.exception() is not None:  # its type only, as above
            log.error("an answer given up on failed (%s)", type(task.exception()).__name__)


def _replay(body: bytes, receive):
    """A ``receive`` that gives the buffered body once, then the client's next messages."""
    sent = False

    async def again():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return again


async def _json(send, status: int, obj: dict, headers=()) -> None:
    import json
    data = json.dumps(obj).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()), *headers]})
    await send({"type": "http.response.body", "body": data})
