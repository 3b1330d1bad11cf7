"""The service's outermost layer (:class:`Guard`): the token, the body's size and time, the time
to answer, an access log without bodies or note text, and a last catch that logs a failure by
its exception type only."""

from __future__ import annotations

import asyncio
import hmac
import logging
import threading
import time

from .models import Settings

log = logging.getLogger("crfdeid.serve")

LATE = "no answer within the request timeout: try again later, or send fewer or shorter notes"


def acquire(lock: threading.Lock, deadline: float, gone: threading.Event) -> bool:
    """Take the model's lock before ``deadline``, unless the client goes (``gone``) first."""
    while not gone.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if lock.acquire(timeout=min(left, 0.05)):
            return True
    return False


DOCS_ASSETS = "/docs/assets"
#: Swagger UI's script, style and icon, as the docs page names them.
DOCS_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png")

#: Paths the access log names as they are; any other path is logged as ``(other)``: a path a
#: client made up could hold anything.
KNOWN_PATHS = frozenset({"/v1/deidentify", "/v1/fhir", "/v1/hl7", "/health", "/docs", "/openapi.json",
                          *(f"{DOCS_ASSETS}/{name}" for name in DOCS_FILES)})


class Guard:
    """Outermost layer: the token, the body (size, time, completeness), the time to answer, an
    access log without bodies, and a last catch that logs a failure by exception type only
    and answers 500 without any detail.

    Everything a client can hold up is bounded here, before FastAPI parses anything: a
    request without the token gets 401 before its body is read; a body larger than
    ``max_bytes`` 413 as soon as that is known; a body not in within ``body_timeout`` seconds
    408; a client that closes before its body is complete is dropped (never tagged); an
    answer of ``/v1/`` (the model's work) not ready ``request_timeout`` seconds after the body
    is in gets 503. The answers that leave a body unread close the connection.

    ``GET /health`` and the docs page wait for no model and are not held to the request timeout:
    a probe beside stalled uploads, on a loaded machine, gets its 200 when it is answered, never
    a 503 because a timeout meant for tagging passed first.
    """

    def __init__(self, app, settings: Settings, token: bytes | None):
        self.app, self.settings, self.token = app, settings, token
        self.pending: set = set()  # answers given up on: kept until they end (see _late)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        path = scope["path"] if scope["path"] in KNOWN_PATHS else "(other)"
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
                if scope["path"].startswith("/v1/"):  # the model's work (the class docstring)
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
        """Run the application on ``body``; past its deadline (``/v1/`` only) answer 503 and let it
        end unheard. A client that closes its connection meanwhile sets ``state.gone``: the work
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
        deadline = scope["state"].get("deadline")
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        done, _ = await asyncio.wait({task}, timeout=left)
        if task in done or state["status"]:
            await task
            return
        # a tagging thread cannot be stopped from outside: it stops itself at its next
        # checkpoint (crfdeid.progress: between notes, a long note's pieces, its spans), and
        # this task ends then; its answer is dropped
        await _json(send, 503, {"detail": LATE}, [(b"retry-after", b"5")])
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
