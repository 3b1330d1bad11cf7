"""The FastAPI application: ``POST /v1/deidentify``, ``GET /health``, OpenAPI at ``/docs``.

Privacy rules, each enforced here and tested with planted markers: no note text in any
log line (the access log names method, path without query, status, time, sizes and
document counts; a failure logs its exception type only), no request content echoed in
an error response (validation errors keep location and reason, not the input), surrogate
keys only from the server's configuration (a request field ``key`` is refused).

FHIR and HL7 v2 bodies: ``POST /v1/fhir`` and ``POST /v1/hl7`` (:mod:`crfdeid.serve.records`).

Limits, in the outermost layer (:class:`~crfdeid.serve.guard.Guard`), before any body is parsed: the token
(401 before the body is read), the body size (413), the time to receive the body (408),
a client that closes before its ``Content-Length`` is in (dropped, never tagged), and the
time to answer a ``/v1/`` request once the body is in (503; ``/health`` is not held to it).
"""

from __future__ import annotations

import logging
import threading
import uuid

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..adapters.records import Deidentifier
from ..deid.key import read_key_file, read_secret
from ..document import Document
from ..errors import ConfigError
from ..io.fhir_policy import load_policy
from ..progress import Cancelled
from ..progress import deadline as until
from ..site import Site, TableUse
from ..tagging import modelfile
from ..tagging.model import TaggingModel
from ..tagging.session import Session
from ..version import __version__
from . import records
from .guard import DOCS_ASSETS, DOCS_FILES, LATE, Guard, acquire
from .models import FIELD_NAMES, DeidentifyRequest, DeidentifyResponse, Format, Settings

__all__ = ["Format", "Settings", "create_app"]

log = logging.getLogger("crfdeid.serve")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, with the model loaded and the key and token read (once, here).

    Raises
    ------
    ConfigError, ModelError
        An unreadable key or token file, a token under 16 characters, a bad model, a limit
        that is not positive.
    """
    settings = settings if settings is not None else Settings()
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

    def locked(request: Request, work):
        """``work()`` with the model to itself, stopped at the request's deadline (the guard has
        answered 503 by then) or when the client has closed its connection, between documents
        and between the pieces of one (a long note's parts, its spans): the model is free again."""
        deadline, gone = request.state.deadline, request.state.gone
        if not acquire(lock, deadline, gone):
            raise HTTPException(503, LATE)
        try:
            with until(deadline, gone):
                return work()
        except Cancelled:
            raise HTTPException(503, LATE) from None
        finally:
            lock.release()

    app = FastAPI(title="crfdeid", version=__version__, docs_url=None, redoc_url=None,
                  description="De-identification of clinical notes (PHI spans, redaction, masking, "
                              "surrogates). Note text never appears in logs or error messages.")
    _add_docs_page(app)

    @app.get("/health")
    def health() -> dict:
        """Liveness and what is loaded (no secret, no note)."""
        return {"status": "ok", "crfdeid_version": __version__,
                "model_sha256": modelfile.part_sha256(model.manifest)[:12],
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
        for doc in docs:
            table_use.see(doc)
        records = locked(request, lambda: [_encodable(rec) for rec in engine.run(docs)])
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

    records.add_routes(app, Session(model, "spans", site=site), key, locked,
                       load_policy(settings.fhir_policy))  # checked at start: a bad policy never serves

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input: keep where and why only, and of where only
        # positions and the API's own field names (a key a client made up could be a name)
        detail = [{"loc": [p if isinstance(p, int) or p in FIELD_NAMES else "(key)" for p in e.get("loc", ())],
                   "type": e.get("type"), "msg": e.get("msg")} for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    app.add_middleware(Guard, settings=settings, token=token)
    return app



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
    extra); without it there is no page (``/openapi.json`` stays) and the log says why.
    """
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        log.warning("no /docs page: swagger-ui-bundle is not installed (pip install 'crfdeid[serve]'); "
                    "/openapi.json is served")
        return
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.staticfiles import StaticFiles

    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs():
        js, css, icon = (f"{DOCS_ASSETS}/{name}" for name in DOCS_FILES)
        return get_swagger_ui_html(openapi_url="/openapi.json", title="crfdeid API",
                                   swagger_js_url=js, swagger_css_url=css, swagger_favicon_url=icon,
                                   # no badge fetched from validator.swagger.io either
                                   swagger_ui_parameters={"validatorUrl": None})
