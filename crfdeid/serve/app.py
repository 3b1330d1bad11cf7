"""The FastAPI application: ``POST /v1/deidentify``, ``GET /health``, OpenAPI at ``/docs``.

Privacy rules, each enforced here and tested with planted markers: no note text in any
log line (the access log names method, path without query, status, time, sizes and
document counts; a failure logs its exception type only), no request content echoed in
an error response (validation errors keep location and reason, not the input), surrogate
keys only from the server's configuration (a request field ``key`` is refused).
"""

from __future__ import annotations

import hmac
import logging
import threading
import time
from dataclasses import dataclass
from typing import Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from .. import __version__
from ..adapters.records import Deidentifier
from ..document import Document
from ..errors import ConfigError

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
    site: str | None = None


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DocumentIn(_In):
    id: str | int | None = Field(None, description="your id for the note (default: its position)")
    text: str
    patient: str | int | None = Field(None, description="patient key: a patient's notes share surrogates")
    known: dict[str, str | list[str]] | None = Field(
        None, description="the note's own identifiers from the record (docs/site.md fields: name, "
                          "first_name, last_name, relative, mrn, phone, birth_date, address...)")


def _meta(d) -> dict:
    """A request document's metadata: its patient key and known identifiers."""
    meta: dict = {} if d.patient is None else {"patient": str(d.patient)}
    if d.known is not None:
        meta["known"] = d.known
    return meta


class DeidentifyRequest(_In):
    """One note (``text``) or several (``documents``), and the output style."""

    text: str | None = None
    id: str | int | None = None
    patient: str | int | None = None
    known: dict[str, str | list[str]] | None = None
    documents: list[DocumentIn] | None = None
    output_format: Format = "redacted"

    @model_validator(mode="after")
    def _one_kind(self):
        if (self.text is None) == (self.documents is None):
            raise ValueError("give either 'text' or 'documents'")
        if self.documents is not None and (self.id is not None or self.patient is not None
                                           or self.known is not None):
            raise ValueError("'id', 'patient' and 'known' go inside each of 'documents'")
        return self


class SpanOut(BaseModel):
    type: str = Field(description="PHI subtype, e.g. DOCTOR")
    category: str = Field(description="parent category, e.g. NAME")
    start: int = Field(description="first character (offsets into the original text)")
    end: int = Field(description="one past the last character")
    confidence: float


class DocumentOut(BaseModel):
    id: str | None = None
    text: str | None = Field(None, description="de-identified text (none for output_format spans)")
    spans: list[SpanOut] | None = None
    error: str | None = Field(None, description="why the note failed (never its text)")


class DeidentifyResponse(BaseModel):
    output_format: Format
    id: str | None = None
    text: str | None = None
    spans: list[SpanOut] | None = None
    documents: list[DocumentOut] | None = None
    failed: int | None = Field(None, description="documents that failed (documents requests)")


def create_app(settings: Settings = Settings()) -> FastAPI:
    """The application, with the model loaded and the key and token read (once, here).

    Raises
    ------
    ConfigError, ModelError
        An unreadable key or token file, a token under 16 characters, a bad model.
    """
    from ..crf import Model
    model = Model.load(settings.model)
    from ..deid.key import read_key_file, read_secret
    key = read_key_file(settings.key_file) if settings.key_file else None  # as crfdeid tag reads it
    token = read_secret(settings.token_file, "token file") if settings.token_file else None
    if token is not None and len(token) < 16:
        raise ConfigError("the token must have at least 16 characters", path=settings.token_file)
    from ..site import Site
    site = Site.load(settings.site) if settings.site else None
    engines = {fmt: Deidentifier(model, fmt, key=key if fmt == "surrogate" else None, site=site)
               for fmt in ("redacted", "masked", "spans") + (("surrogate",) if key else ())}
    lock = threading.Lock()  # one model, tagged by one request at a time (CPU-bound anyway)

    app = FastAPI(title="crfdeid", version=__version__, docs_url=None, redoc_url=None,
                  description="De-identification of clinical notes (PHI spans, redaction, masking, "
                              "surrogates). Note text never appears in logs or error messages.")
    _add_docs_page(app)

    def authorized(request: Request) -> None:
        if token is None:
            return
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        # compare_digest: the time taken does not tell how much of the token was right
        if not (scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), token)):
            raise HTTPException(401, "missing or wrong bearer token",
                                headers={"WWW-Authenticate": "Bearer"})

    @app.get("/health")
    def health() -> dict:
        """Liveness and what is loaded (no secret, no note)."""
        return {"status": "ok", "crfdeid_version": __version__,
                "model_sha256": model.manifest.get("crf_sha256", "")[:12],
                "surrogates": key is not None, "max_bytes": settings.max_bytes,
                "max_documents": settings.max_documents}

    @app.post("/v1/deidentify", response_model=DeidentifyResponse, response_model_exclude_none=True,
              dependencies=[Depends(authorized)],
              responses={401: {"description": "token required"}, 413: {"description": "request too large"}})
    def deidentify(body: DeidentifyRequest, request: Request) -> dict:
        """Tag one note or a batch and return spans and de-identified text in ``output_format``.

        Surrogates are consistent per patient within a request (give a patient's notes
        together with the same ``patient``); across requests the keyed draws agree for the
        same original string and patient, but name parts and initials are linked only within
        a request.
        """
        engine = engines.get(body.output_format)
        if engine is None:
            raise HTTPException(400, "surrogate output needs a key: start the server with --key-file")
        if body.documents is not None and len(body.documents) > settings.max_documents:
            raise HTTPException(413, f"{len(body.documents)} documents: at most "
                                     f"{settings.max_documents} per request")
        items: list = body.documents if body.documents is not None else [body]
        docs = [Document(str(d.id) if d.id is not None else str(i), d.text, meta=_meta(d))
                for i, d in enumerate(items)]
        request.state.documents = len(docs)
        with lock:
            records = list(engine.run(docs))
        if body.documents is None:
            [rec] = records
            if rec.error is not None:
                raise HTTPException(500, rec.error)
            return {"output_format": body.output_format, "id": rec.id if body.id is not None else None,
                    "text": rec.text, "spans": rec.spans}
        out = [{"id": r.id, "text": r.text, "spans": r.spans, "error": r.error} for r in records]
        return {"output_format": body.output_format, "documents": out,
                "failed": sum(r.error is not None for r in records)}

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input: keep where and why only
        detail = [{"loc": list(e.get("loc", ())), "type": e.get("type"), "msg": e.get("msg")}
                  for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    app.add_middleware(_Guard, max_bytes=settings.max_bytes)
    return app


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
    """Outermost layer: body size limit (413), access log without bodies, and a last catch
    that logs a failure by exception type only and answers 500 without any detail."""

    def __init__(self, app, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        path = scope["path"] if scope["path"] in _KNOWN_PATHS else "(other)"
        state = {"status": 0, "out": 0}
        scope.setdefault("state", {})

        async def send_logged(message):
            if message["type"] == "http.response.start":
                state["status"] = message["status"]
            elif message["type"] == "http.response.body":
                state["out"] += len(message.get("body", b""))
            await send(message)

        body, too_large = await self._body(scope, receive)
        try:
            if too_large:
                await _json(send_logged, 413, {"detail": f"request body over {self.max_bytes} bytes"})
            else:
                await self.app(scope, _replay(body, receive), send_logged)
        except Exception as exc:  # noqa: BLE001 - never let the server print a traceback with data
            log.error("%s %s failed (%s)", scope["method"], path, type(exc).__name__)
            if state["status"] == 0:
                await _json(send_logged, 500, {"detail": "internal error"})
        log.info("%s %s %d %.1fms in=%dB out=%dB docs=%s", scope["method"], path,
                 state["status"], 1000 * (time.perf_counter() - t0), len(body), state["out"],
                 scope["state"].get("documents", "-"))

    async def _body(self, scope, receive) -> tuple[bytes, bool]:
        """The whole request body, or ``(b"", True)`` as soon as it passes the limit."""
        headers = dict(scope.get("headers") or ())
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            return b"", True
        if scope["method"] in ("GET", "HEAD"):
            return b"", False
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                return b"", True
            if not message.get("more_body"):
                break
        return b"".join(chunks), False


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


async def _json(send, status: int, obj: dict) -> None:
    import json
    data = json.dumps(obj).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
