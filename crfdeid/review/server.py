"""The review web app: FastAPI routes over the store, the static page, and ``serve``.

Every user action is one small JSON request saved at once (no lost work on a closed
tab). The annotator's name travels in the ``X-Annotator`` header. Note text goes out
only in response bodies to the page; it is never put in a URL, a log line or an
error message (:mod:`crfdeid.review.guard`). Plain (``def``) endpoints run in
FastAPI's thread pool, each thread with its own database connection. (No
``from __future__ import annotations`` here: FastAPI reads the handlers' annotations,
which name classes imported inside :func:`create_app`.)
"""

import io
import json
from pathlib import Path
from typing import Annotated

from .. import schema as phi_schema
from .._data import install_hint
from . import agreement, surrogates
from .credentials import ADJUDICATOR, Credentials
from .guard import COOKIE, LOG_CONFIG, LOOPBACK, Guard
from .retrain import Retrainer, estimated_recall
from .store import MODEL, Conflict, Forbidden, Invalid, NotFound, Stale, StoreError, check_name

STATIC = Path(__file__).parent / "static"
STATUS = {NotFound: 404, Conflict: 409, Invalid: 422, Forbidden: 403}
#: The largest id a note or span can have (a 64-bit integer in both stores).
MAX_ID = 2 ** 63 - 1
LOGIN_FAILED = '<p class="error" role="alert">That token is not valid. Try again, or ask for a new one.</p>'


def create_app(project, token: str | None = None, hosts=LOOPBACK, retrainer: Retrainer | None = None,
               max_body: int = 1 << 20, credentials: Credentials | None = None):
    """The ASGI app of a project (wrapped in :class:`~crfdeid.review.guard.Guard`).

    ``credentials`` (per-annotator tokens, :mod:`crfdeid.review.credentials`) or ``token`` (one
    shared token) guard every request; with neither, the app is open (loopback use).
    """
    from fastapi import Body, FastAPI, Header, Request
    from fastapi import Path as PathParam
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
    from fastapi.staticfiles import StaticFiles

    Json = Annotated[dict, Body()]
    OptionalJson = Annotated[dict | None, Body()]
    Who = Annotated[str | None, Header()]  # the X-Annotator header (set by the Guard from a personal token)
    Id = Annotated[int, PathParam(ge=1, le=MAX_ID)]
    credentials = credentials or (Credentials.shared(token) if token else None)
    store = project.store
    retrainer = retrainer or Retrainer(project, every=0)
    app = FastAPI(title="crfdeid review", docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    cache: dict = {}

    @app.exception_handler(StoreError)
    def store_error(request: Request, exc: StoreError):
        code = next((STATUS[k] for k in type(exc).__mro__ if k in STATUS), 400)
        # "stale": the page missed a change (it reloads); other conflicts are the request's own
        return JSONResponse({"detail": str(exc), "stale": isinstance(exc, Stale)}, status_code=code)

    @app.exception_handler(RequestValidationError)
    def bad_request(request: Request, exc: RequestValidationError):
        # FastAPI's default echoes the input back; locations and messages are enough.
        return JSONResponse({"detail": [{"loc": e.get("loc"), "msg": e.get("msg")} for e in exc.errors()]},
                            status_code=422)

    def as_json(obj) -> Response:
        # Bypasses FastAPI's jsonable_encoder: a long note has hundreds of spans.
        return Response(json.dumps(obj, separators=(",", ":")), media_type="application/json")

    # how requests are signed in, recorded with every event they write (the audit report says it)
    signed_in = "personal" if credentials is not None and credentials.per_annotator else \
        "shared" if credentials is not None else "none"

    def who(x_annotator: str | None) -> str:
        # the guard set the name from the token: its seal key proves the event was theirs
        name = check_name(x_annotator or "")
        keys = credentials.seal_keys() if signed_in == "personal" and credentials is not None else {}
        store.signed_in(signed_in, {name: keys[name]} if name in keys else None)
        return store.ensure_annotator(name, "human")

    def reader(x_annotator: str | None) -> str:
        # a read names the person without creating a record for them
        store.signed_in(signed_in)
        return check_name(x_annotator or "")

    def role(name: str | None) -> str | None:
        # None: a shared token or none, where names are claimed and roles cannot be told apart
        return credentials.role(name) if credentials is not None and name else None

    def adjudicator(x_annotator: str | None) -> str | None:
        """The adjudicator acting (refused to a person whose token gives another role)."""
        name = check_name(x_annotator) if x_annotator else None
        if credentials is not None and credentials.per_annotator and role(name) != ADJUDICATOR:
            raise Forbidden("aggregate mode is for adjudicators (a token with the adjudicator role)")
        return name

    def surrogate_editor(x_annotator: str | None) -> str:
        """The person editing surrogates: one named by the project's ``surrogate_editors``
        setting when it is set, else (with personal tokens) an adjudicator."""
        name = who(x_annotator)
        editors = project.setting("surrogate_editors")
        if editors:
            if name not in editors:
                raise Forbidden("surrogate edits are for the people the project's surrogate_editors setting names")
        elif credentials is not None and credentials.per_annotator and role(name) != ADJUDICATOR:
            raise Forbidden("surrogate edits are for adjudicators (a token with the adjudicator role)")
        return name

    def version(body) -> int | None:
        v = (body or {}).get("version")
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            raise Invalid("version must be an integer")
        return v

    def written(write) -> dict:
        # the answer of a write with the version it gave (what the page sends with its next one)
        store.forget_written()
        return dict(write(), version=store.written_version())

    # -- page and login ------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def index():
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico")
    def favicon():
        return Response(status_code=204)

    @app.get("/login", response_class=HTMLResponse)
    def login_page(failed: int = 0):
        page = (STATIC / "login.html").read_text(encoding="utf-8")
        return HTMLResponse(page.replace("<!-- message -->", LOGIN_FAILED if failed else ""))

    @app.post("/login")
    async def login(request: Request):
        form = (await request.body()).decode("utf-8", "replace")
        from urllib.parse import parse_qs
        given = (parse_qs(form).get("token") or [""])[0]
        identity = credentials.check(given) if credentials is not None and given else None
        if credentials is None or identity is None:
            return RedirectResponse("/login?failed=1", status_code=303)
        resp = RedirectResponse("/", status_code=303)
        resp.set_cookie(COOKIE, credentials.cookie_for(identity), httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https")
        return resp

    # -- project and queue --------------------------------------------------------------
    @app.get("/api/project")
    def project_info(x_annotator: Who = None):
        personal = credentials is not None and credentials.per_annotator
        return {"name": project.path.name, "you": x_annotator if personal else None,
                "role": role(x_annotator) if personal else None,
                "per_note": project.setting("per_note"),
                "strategy": project.setting("strategy"), "model_version": project.model_version(),
                "categories": {c: list(s) for c, s in phi_schema.CATEGORIES.items()},
                "annotators": store.annotators(), "token": token is not None}

    @app.get("/api/queue")
    def queue(limit: int = 20, x_annotator: Who = None):
        name = reader(x_annotator)
        return {"ids": store.queue(name, int(project.setting("per_note") or 1), min(max(limit, 1), 500)),
                "progress": store.progress(), "conflicts": agreement.conflicts(store)}

    # -- one note ----------------------------------------------------------------------------
    def note_view(note_id: int, name: str) -> dict:
        row = store.note(note_id)
        version = store.version(note_id, name)  # read first: a change after it makes the page stale
        return {"id": note_id, "doc_id": row["doc_id"], "patient": row["patient"], "text": row["body"],
                "model_version": row["model_version"], "review": store.review_state(note_id, name),
                "version": version, "spans": store.spans(note_id, name)}

    @app.get("/api/notes/{note_id}")
    def preview_note(note_id: Id, x_annotator: Who = None):
        # what the person would see, without opening the note for them (nothing is written)
        name = reader(x_annotator)
        view = note_view(note_id, name)
        if view["review"] is None:
            view["spans"] = store.spans(note_id, MODEL)
        return as_json(view)

    @app.get("/api/notes/{note_id}/explain")
    def explain_note(note_id: Id, x_annotator: Who = None):
        # why the model suggested each span (steps and reasons, no text): asked for by the span panel
        reader(x_annotator)
        store.note(note_id)  # an unknown note is a 404 before the model is loaded
        return as_json(project.explain(note_id))

    @app.post("/api/notes/{note_id}/open")
    def open_note(note_id: Id, x_annotator: Who = None):
        name = who(x_annotator)
        store.open(note_id, name)
        store.shown(note_id, name)  # each showing: an audit counts reading time while a note is shown
        return as_json(note_view(note_id, name))

    # the page left the screen or came back (visibilitychange): the reading time stops and restarts
    @app.post("/api/notes/{note_id}/hidden")
    def hidden(note_id: Id, x_annotator: Who = None):
        store.shown(note_id, who(x_annotator), False)
        return {"hidden": True}

    @app.post("/api/notes/{note_id}/shown")
    def shown(note_id: Id, x_annotator: Who = None):
        store.shown(note_id, who(x_annotator))
        return {"shown": True}

    @app.post("/api/notes/{note_id}/release")
    def release(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        return written(lambda: {"released": store.release(note_id, reader(x_annotator), version(body))})

    # Every write may carry the version of the person's review the page last read (the page always
    # sends it): a stale page or tab gets 409 instead of overwriting a change it never showed.
    @app.post("/api/notes/{note_id}/spans")
    def add_span(note_id: Id, body: Json, x_annotator: Who = None):
        return written(lambda: store.add_span(note_id, who(x_annotator), body.get("start"), body.get("end"),
                                              body.get("subtype"), version(body)))

    @app.patch("/api/spans/{span_id}")
    def update_span(span_id: Id, body: Json, x_annotator: Who = None):
        return written(lambda: store.update_span(span_id, who(x_annotator), start=body.get("start"),
                                                 end=body.get("end"), subtype=body.get("subtype"),
                                                 status=body.get("status"), version=version(body)))

    @app.post("/api/notes/{note_id}/accept-all")
    def accept_all(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        return written(lambda: {"accepted": store.accept_all(note_id, who(x_annotator), version(body))})

    @app.post("/api/notes/{note_id}/done")
    def done(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        name = who(x_annotator)
        store.forget_written()
        n = store.finish(note_id, name, version(body))
        v = store.written_version()
        started = retrainer.maybe_start()
        nxt = store.queue(name, int(project.setting("per_note") or 1), 1)
        return {"accepted_undecided": n, "next": nxt[0] if nxt else None, "retraining": started, "version": v}

    @app.post("/api/notes/{note_id}/reopen")
    def reopen(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        def run() -> dict:
            store.reopen(note_id, who(x_annotator), version(body))
            return {"ok": True}
        return written(run)

    # -- aggregate mode ------------------------------------------------------------------------
    @app.get("/api/aggregate")
    def aggregate_notes(x_annotator: Who = None):
        viewer = adjudicator(x_annotator)
        rows = store.db.query("SELECT n.id, n.doc_id, COUNT(r.annotator) AS done, MAX(a.done_at) AS adjudicated "
                              "FROM notes n JOIN reviews r ON r.note_id = n.id AND r.state = 'done' "
                              "JOIN annotators p ON p.name = r.annotator AND p.kind = 'human' "
                              "LEFT JOIN adjudications a ON a.note_id = n.id GROUP BY n.id, n.doc_id ORDER BY n.id")
        # a note the viewer reviewed is someone else's to adjudicate (and not theirs to see)
        own = {r["note_id"] for r in store.db.query("SELECT note_id FROM reviews WHERE annotator = ?", (viewer,))} \
            if viewer else set()
        conflicted = set(agreement.conflicts(store))
        # a review changed after the note's adjudication: the adjudicator looks again (listed
        # even when that review is open again, so not done)
        changed = {c["note_id"] for c in store.changed_after_adjudication()}
        listed = {r["id"] for r in rows}
        for nid in sorted(changed - listed):
            adj = store.db.one("SELECT done_at FROM adjudications WHERE note_id = ?", (nid,))
            rows.append({"id": nid, "doc_id": store.note(nid)["doc_id"], "done": len(store.done_by(nid)),
                         "adjudicated": adj["done_at"] if adj else None})
        return {"notes": [dict(r, conflict=r["id"] in conflicted, changed_after_adjudication=r["id"] in changed)
                          for r in rows if r["id"] not in own]}

    @app.get("/api/aggregate/{note_id}")
    def aggregate_note(note_id: Id, voters: str | None = None, x_annotator: Who = None):
        viewer = adjudicator(x_annotator)
        names = [v for v in voters.split(",") if v] if voters else None
        agg = agreement.aggregate(store, note_id, names, viewer)
        row = store.note(note_id)
        return as_json(dict(agg, text=row["body"], doc_id=row["doc_id"]))

    @app.post("/api/aggregate/{note_id}/decisions")
    def decide(note_id: Id, body: Json, x_annotator: Who = None):
        try:
            item = int(body["item_start"]), int(body["item_end"])
        except (KeyError, TypeError, ValueError):
            raise Invalid("a decision needs item_start, item_end (integers) and a verdict") from None
        adjudicator(x_annotator)
        return written(lambda: agreement.decide(store, note_id, who(x_annotator), *item, body.get("verdict", ""),
                                                body.get("start"), body.get("end"), body.get("subtype"),
                                                version(body)))

    @app.post("/api/aggregate/{note_id}/done")
    def adjudicated(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        adjudicator(x_annotator)
        return written(lambda: {"ok": True, "items": len(agreement.finish(
            store, note_id, who(x_annotator), (body or {}).get("voters"), version(body))["items"])})

    @app.post("/api/aggregate/{note_id}/reopen")
    def reopen_adjudication(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        adjudicator(x_annotator)

        def run() -> dict:
            agreement.reopen(store, note_id, who(x_annotator), version(body))
            return {"ok": True}
        return written(run)

    @app.get("/api/scores")
    def scores(x_annotator: Who = None):
        adjudicator(x_annotator)
        return agreement.scores(store)

    @app.get("/api/scores.png")
    def scores_png(x_annotator: Who = None):
        adjudicator(x_annotator)
        try:
            import matplotlib  # noqa: F401
        except ModuleNotFoundError:
            return JSONResponse({"detail": f"the plot needs matplotlib: {install_hint('plot')}"}, 501)
        buf = io.BytesIO()
        agreement.plot(agreement.scores(store), buf)
        return Response(buf.getvalue(), media_type="image/png")

    # -- surrogate review -------------------------------------------------------------------------
    @app.get("/api/surrogates/{note_id}")
    def surrogate_items(note_id: Id):
        row = store.note(note_id)
        return as_json({"id": note_id, "doc_id": row["doc_id"], "patient": row["patient"], "text": row["body"],
                        "items": surrogates.note_items(project, note_id)})

    @app.put("/api/surrogates/{note_id}")
    def surrogate_edit(note_id: Id, body: Json, x_annotator: Who = None):
        try:
            start, end = int(body["start"]), int(body["end"])
        except (KeyError, TypeError, ValueError):
            raise Invalid("an edit needs start and end (integers)") from None
        return surrogates.edit(project, note_id, start, end, surrogate_editor(x_annotator), body.get("value"),
                               bool(body.get("approve", True)))

    @app.post("/api/surrogates/{note_id}/approve-all")
    def surrogate_approve_all(note_id: Id, body: OptionalJson = None, x_annotator: Who = None):
        return {"approved": surrogates.approve_all(project, note_id, surrogate_editor(x_annotator))}

    @app.get("/api/reviewed")
    def reviewed_notes():
        out, conflicts = [], []
        for r in store.notes():
            kind, spans = agreement.final_spans(store, r["id"])
            if kind in agreement.FINAL:
                out.append({"id": r["id"], "doc_id": r["doc_id"], "source": kind, "spans": len(spans)})
            elif kind == "conflict":
                conflicts.append({"id": r["id"], "doc_id": r["doc_id"]})
        return {"notes": out, "conflicts": conflicts}

    # -- progress and retraining ----------------------------------------------------------------
    @app.get("/api/progress")
    def progress():
        mark = (store.db.one("SELECT MAX(id) AS m FROM audit") or {}).get("m")
        if cache.get("mark") != mark:  # recomputed only after a change
            cache.update(mark=mark, recall=estimated_recall(store))
        conflicts = [{"id": n, "doc_id": store.note(n)["doc_id"]} for n in agreement.conflicts(store)]
        return {**store.progress(), "conflicts": conflicts, "estimated_recall": cache["recall"],
                "training": retrainer.status()}

    @app.post("/api/retrain")
    def retrain_now(body: OptionalJson = None):
        if project.frozen:
            raise Conflict("this project is frozen to the audited model: an audit's review never retrains "
                           "(the report compares the reviews with that model's spans)")
        return {"started": retrainer.maybe_start(force=True), "training": retrainer.status()}

    return Guard(app, hosts=hosts, max_body=max_body, credentials=credentials)


def serve(project, host: str = "127.0.0.1", port: int = 8765, token: str | None = None, db: str | None = None,
          retrain_every: int | None = None, credentials: Credentials | None = None,
          certfile: str | None = None, keyfile: str | None = None) -> None:
    """Run the app with uvicorn (access log without query strings, no server header); HTTPS
    when ``certfile`` (and ``keyfile``, unless the certificate file holds the key) are given."""
    import uvicorn
    hosts = LOOPBACK if host in LOOPBACK else None  # Host checks stop DNS rebinding on loopback
    app = create_app(project, token=token, hosts=hosts, retrainer=Retrainer(project, db, retrain_every),
                     credentials=credentials)
    uvicorn.run(app, host=host, port=port, log_config=LOG_CONFIG, server_header=False, access_log=True,
                proxy_headers=False, timeout_keep_alive=5, ssl_certfile=certfile, ssl_keyfile=keyfile)
