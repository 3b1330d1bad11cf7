"""Serve crfdeid over HTTP: POST /v1/deidentify, GET /health, OpenAPI at /docs.

Examples::

    python -m crfdeid serve                               # http://127.0.0.1:8000/docs
    python -m crfdeid serve --key-file secret.key --workers 2
    python -m crfdeid serve --host 0.0.0.0 --token-file token.txt   # anywhere but loopback: a token
    curl -s localhost:8000/v1/deidentify -H 'content-type: application/json' \\
        -d '{"text": "Seen by Dr. Lee on 7/22/2098.", "output_format": "redacted"}'

The model loads once per worker process at start-up. Surrogate output needs
``--key-file`` (the key never comes from a request). Binding to an address other than
loopback needs ``--token-file``: requests then carry ``Authorization: Bearer TOKEN``
(checked before the body is read). A body must arrive within ``--body-timeout`` seconds
(408) and the answer within ``--request-timeout`` seconds after it (503). The access log
has no bodies and no query strings; no log line holds note text.

Exit code 0 after a normal stop, 2 on a usage or configuration error (a bad model, key
or token file), 3 when the server cannot start (the port is in use or cannot be bound).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import signal
import socket
import sys
from dataclasses import asdict

from .. import cli
from ..errors import CrfdeidError

#: Where the settings travel to worker processes (``--workers`` > 1): paths, never secrets.
ENV = "CRFDEID_SERVE_SETTINGS"
#: Exit code when the server cannot start (uvicorn's own code for a failed start-up).
CANNOT_START = 3


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("serve", __doc__, "python -m crfdeid serve --port 8000")
    p.epilog = (p.epilog or "") + (
        "\n\nexit codes: 0 stopped, 2 usage or configuration error (model, key, token), "
        f"{CANNOT_START} the server cannot start (port in use)")
    p.add_argument("--model", help="model file (default: the model shipped with crfdeid)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=cli.port_number, default=8000, help="default: 8000")
    p.add_argument("--key-file", help="secret key for surrogate output (HMAC)")
    p.add_argument("--fhir-policy", metavar="FILE",
                   help="POST /v1/fhir: the de-identification policy (default: the shipped safe-harbor; docs/fhir.md)")
    p.add_argument("--token-file", help="bearer token the requests must carry (needed off loopback)")
    p.add_argument("--max-bytes", type=int, default=1_000_000,
                   help="largest request body in bytes (default: 1000000); larger: 413")
    p.add_argument("--max-documents", type=int, default=100,
                   help="most documents per request (default: 100); more: 413")
    p.add_argument("--body-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="seconds a client has to send its body once its headers are in (default: 30); later: 408")
    p.add_argument("--request-timeout", type=float, default=60.0, metavar="SECONDS",
                   help="time to answer a /v1/ request once the body is in, waiting for the model included "
                        "(default: 60); later: 503 (GET /health is not held to it)")
    p.add_argument("--workers", type=int, default=1, help="worker processes, each with the model "
                                                          "(default: 1)")
    p.add_argument("--site", metavar="FILE", help="site file (YAML): patients' identifiers, staff, "
                                                  "institutions, safe terms found in every note (docs/site.md); "
                                                  "a table's rows keyed by patient apply to the notes whose "
                                                  "request gives that 'patient'")
    p.add_argument("--quiet", action="store_true", help="no access log")
    return p


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0"), is_loopback("example.org")
    (True, True, False, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _logging(quiet: bool) -> None:
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def app_from_env():
    """The application of a worker process, from the settings in :data:`ENV`."""
    from ..serve.app import Settings, create_app  # FastAPI: the optional extra [serve], checked first
    given = json.loads(os.environ[ENV])
    _logging(given.pop("quiet"))
    return create_app(Settings(**given))


def _check(settings) -> str | None:
    """Build the application once, only to check the model, key and token files: the reason
    it cannot start, or None (run in a child process, whose memory goes when it ends)."""
    from ..serve.app import create_app  # FastAPI: the optional extra [serve]
    try:
        create_app(settings)
    except CrfdeidError as exc:
        return str(exc)
    return None


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    missing = cli.missing_extra("serve", "fastapi", "uvicorn")
    if missing:  # before anything long
        print(f"error: python -m crfdeid serve {missing}", file=sys.stderr)
        return 2
    problem = None
    if not is_loopback(args.host) and not args.token_file:
        problem = f"--host {args.host} is not loopback: give --token-file (requests must carry the token)"
    elif min(args.max_bytes, args.max_documents, args.workers) < 1:
        problem = "--max-bytes, --max-documents and --workers must be at least 1"
    elif min(args.body_timeout, args.request_timeout) <= 0:
        problem = "--body-timeout and --request-timeout must be positive"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    taken = _cannot_bind(args.host, args.port)
    if taken:  # before the model loads; uvicorn's own failure below covers a race
        print(f"error: cannot listen on {args.host}:{args.port}: {taken} (another server? choose "
              f"--port); exit code {CANNOT_START}", file=sys.stderr)
        return CANNOT_START
    import uvicorn

    from ..serve.app import Settings, create_app  # FastAPI: the optional extra [serve], checked first
    settings = Settings(args.model, args.key_file, args.token_file, args.max_bytes, args.max_documents,
                        args.body_timeout, args.request_timeout, args.site, args.fhir_policy)
    common = {"host": args.host, "port": args.port, "access_log": False, "log_config": None,
              "server_header": False}
    if args.workers == 1:
        _logging(args.quiet)  # before the app is made: it logs what it loaded (the site tables' rows)
        try:
            app = create_app(settings)  # load and check everything before binding
        except CrfdeidError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return _run(uvicorn, app, args, common)
    else:  # each worker loads its own model; the supervisor only checks, in a child process
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            problem = pool.submit(_check, settings).result()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        _logging(args.quiet)
        os.environ[ENV] = json.dumps({**asdict(settings), "quiet": args.quiet})
        return _run(uvicorn, "crfdeid.cli.serve:app_from_env", args, dict(common, factory=True,
                                                                          workers=args.workers))


def _run(uvicorn, app, args, options) -> int:
    """Serve until stopped: 0 (SIGTERM included), or :data:`CANNOT_START` when uvicorn could not start.

    uvicorn shuts down gracefully on SIGTERM and then sends the signal to itself again with
    the handler it found in place, which by default kills the process (exit 143 where the
    docs promise 0). The handler in place here ends the process with exit 0 instead: after
    uvicorn's shutdown, or at once when the signal comes before it has started.
    """
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        uvicorn.run(app, **options)
    except SystemExit as exc:  # uvicorn exits 3 when it cannot bind or start
        if exc.code in (0, None):
            return 0
        print(f"error: the server did not start on {args.host}:{args.port} (see the log above); "
              f"exit code {CANNOT_START}", file=sys.stderr)
        return CANNOT_START
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


def _stop(signum, frame) -> None:
    raise SystemExit(0)


def _cannot_bind(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be bound now (as uvicorn binds it), or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return str(exc.strerror or exc)
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            return exc.strerror or str(exc)
    return None
