"""What stands between the network and the review app: host check, access token, body
limit, security headers, and error handling that never lets note text reach a log.

:class:`Guard` wraps the whole ASGI app (outside FastAPI's own error middleware), so an
exception in a handler is logged as its type and route only and answered with a bare
500; the server never logs a traceback whose message might quote a note. The access
log (:data:`LOG_CONFIG`) drops query strings. Request bodies above ``max_body`` bytes
get 413 before they are read. Mutating ``/api`` requests must be JSON (a cross-site
form cannot send that without a CORS preflight this app never grants). With tokens
(:mod:`crfdeid.review.credentials`), every request needs one: ``Authorization: Bearer
TOKEN`` or the HttpOnly cookie that ``POST /login`` sets (compared in constant time). A
per-annotator token decides who acts: the ``X-Annotator`` header the handlers read is set to
that name, and a request claiming another name is refused (403).

``POST /login`` from another origin is refused (403, :func:`cross_origin`): a page on another
local port is the same *site* for a ``SameSite=Strict`` cookie, so without this check it could
sign the reviewer's browser in as someone else (login CSRF). Browsers send ``Sec-Fetch-Site``
(Chromium, Firefox 90+, Safari 16.4+) or at least ``Origin`` on every POST; a client that sends
neither (curl, a script) holds the token itself and is not a browser that can be misled.
"""

from __future__ import annotations

import json
import logging

from .credentials import SHARED, Credentials

COOKIE = "crfdeid_review"
#: Requests allowed without the token (the login page and what it needs).
OPEN_PATHS = ("/login", "/static/style.css", "/favicon.ico")
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
HEADERS = [
    (b"content-security-policy", (b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                  b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                                  b"form-action 'self'; base-uri 'none'")),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]
log = logging.getLogger("crfdeid.review")


class NoQueryString(logging.Filter):
    """Access-log filter: the request path without its query string."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = args[:2] + (args[2].split("?", 1)[0],) + args[3:]
        return True


LOG_CONFIG = {
    "version": 1, "disable_existing_loggers": False,
    "filters": {"no_query": {"()": NoQueryString}},
    "formatters": {"default": {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"},
                   "access": {"()": "uvicorn.logging.AccessFormatter",
                              "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'}},
    "handlers": {"default": {"formatter": "default", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"},
                 "access": {"formatter": "access", "class": "logging.StreamHandler", "stream": "ext://sys.stdout",
                            "filters": ["no_query"]}},
    "loggers": {"uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
                "uvicorn.error": {"level": "INFO"},
                "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
                "crfdeid.review": {"handlers": ["default"], "level": "INFO", "propagate": False}},
}


def _header(scope, name: bytes) -> str:
    for k, v in scope.get("headers", ()):
        if k == name:
            return v.decode("latin-1")
    return ""


def _cookie(scope, name: str) -> str:
    for part in _header(scope, b"cookie").split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return ""


def cross_origin(scope) -> bool:
    """Whether a request comes from a page of another origin (scheme, host and port): by its
    ``Sec-Fetch-Site`` header where the browser sends one, else by its ``Origin`` (``null``, sent
    for a page whose referrer policy hides it, is refused: it cannot be told apart)."""
    site = _header(scope, b"sec-fetch-site").lower()
    if site:  # the browser's own word (the page's no-referrer policy makes its Origin "null")
        return site not in ("same-origin", "none")
    origin = _header(scope, b"origin").lower()
    if not origin:
        return False
    own = f"{scope.get('scheme', 'http')}://{_header(scope, b'host').lower()}"
    return origin != own


class BodyTooLarge(Exception):
    pass


class Guard:
    """ASGI wrapper: see the module docstring."""

    def __init__(self, app, token: str | None = None, hosts=LOOPBACK, max_body: int = 1 << 20,
                 credentials: Credentials | None = None):
        self.app = app
        self.credentials = credentials or (Credentials.shared(token) if token else None)
        self.hosts = None if hosts is None else {h.lower() for h in hosts}
        self.max_body = max_body

    def identity(self, scope) -> str | None:
        """Who the request's token or cookie belongs to (:data:`SHARED` for a shared token,
        also when the app has none), or ``None``."""
        if self.credentials is None:
            return SHARED
        auth = _header(scope, b"authorization")
        given = auth[7:] if auth.lower().startswith("bearer ") else ""
        if given:
            return self.credentials.check(given)
        c = _cookie(scope, COOKIE)
        return self.credentials.from_cookie(c) if c else None

    def host_ok(self, scope) -> bool:
        if self.hosts is None:  # listening beyond loopback: the token guards instead
            return True
        host = _header(scope, b"host").lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name in self.hosts or host in self.hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path, method = scope["path"], scope["method"]
        if not self.host_ok(scope):
            return await _plain(send, 400, "unknown host")
        length = _header(scope, b"content-length")
        if length and (not length.isdigit() or int(length) > self.max_body):
            return await _plain(send, 413, f"request body over {self.max_body} bytes")
        if path == "/login" and method == "POST" and cross_origin(scope):
            return await _plain(send, 403, "sign in from the review app's own page (another origin posted this)")
        if not path.startswith(OPEN_PATHS):
            who = self.identity(scope)
            if who is None:
                if path.startswith("/api/"):
                    return await _plain(send, 401, "access token required")
                return await _redirect(send, "/login")
            if who != SHARED:  # the token decides who acts, never the page's own claim
                claimed = _header(scope, b"x-annotator")
                if claimed and claimed != who:
                    return await _plain(send, 403, "signed in as another annotator")
                scope = dict(scope, headers=[(k, v) for k, v in scope.get("headers", ()) if k != b"x-annotator"]
                             + [(b"x-annotator", who.encode("utf-8"))])
        if path.startswith("/api/") and method in ("POST", "PUT", "PATCH", "DELETE") \
                and not _header(scope, b"content-type").lower().startswith("application/json"):
            return await _plain(send, 415, "send JSON (Content-Type: application/json)")
        seen = 0
        started = False

        async def limited_receive():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge()
            return msg

        async def secured_send(msg):
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in msg.get("headers", [])}
                msg = dict(msg, headers=list(msg.get("headers", [])) + [h for h in HEADERS if h[0] not in names])
            await send(msg)

        try:
            await self.app(scope, limited_receive, secured_send)
        except BodyTooLarge:
            if not started:
                await _plain(send, 413, f"request body over {self.max_body} bytes")
        except Exception as exc:  # noqa: BLE001 - type and route only: the message may quote a note
            route = scope.get("route")
            log.error("error %s in %s %s", type(exc).__name__, method, getattr(route, "path", "(no route)"))
            if not started:
                await _plain(send, 500, "internal error (logged without details)")


async def _plain(send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                + HEADERS})
    await send({"type": "http.response.body", "body": body})


async def _redirect(send, location: str) -> None:
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", location.encode()), (b"content-length", b"0")] + HEADERS})
    await send({"type": "http.response.body", "body": b""})
