"""Serve crfdeid over HTTP: POST /v1/deidentify, GET /health, OpenAPI at /docs.

Examples::

    python -m crfdeid serve                               # http://127.0.0.1:8000/docs
    python -m crfdeid serve --key-file secret.key --workers 2
    python -m crfdeid serve --host 0.0.0.0 --token-file token.txt   # anywhere but loopback: a token
    curl -s localhost:8000/v1/deidentify -H 'content-type: application/json' \\
        -d '{"text": "Seen by Dr. Lee on 7/22/2098.", "output_format": "redacted"}'

The model loads once per worker process at start-up. Surrogate output needs
``--key-file`` (the key never comes from a request). Binding to an address other than
loopback needs ``--token-file``: requests then carry ``Authorization: Bearer TOKEN``.
The access log has no bodies and no query strings; no log line holds note text.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import sys
from dataclasses import asdict

from .. import cli
from ..errors import CrfdeidError

#: Where the settings travel to worker processes (``--workers`` > 1): paths, never secrets.
ENV = "CRFDEID_SERVE_SETTINGS"


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("serve", __doc__, "python -m crfdeid serve --port 8000")
    p.add_argument("--model", help="model file (default: the model shipped with crfdeid)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="default: 8000")
    p.add_argument("--key-file", help="secret key for surrogate output (HMAC)")
    p.add_argument("--token-file", help="bearer token the requests must carry (needed off loopback)")
    p.add_argument("--max-bytes", type=int, default=1_000_000,
                   help="largest request body in bytes (default: 1000000); larger: 413")
    p.add_argument("--max-documents", type=int, default=100,
                   help="most documents per request (default: 100); more: 413")
    p.add_argument("--workers", type=int, default=1, help="worker processes, each with the model "
                                                          "(default: 1)")
    p.add_argument("--site", metavar="FILE", help="site file (YAML): patients' identifiers, staff, "
                                                  "institutions, safe terms found in every note (docs/site.md)")
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
    from ..serve.app import Settings, create_app
    given = json.loads(os.environ[ENV])
    _logging(given.pop("quiet"))
    return create_app(Settings(**given))


def _check(settings) -> str | None:
    """Build the application once, only to check the model, key and token files: the reason
    it cannot start, or None (run in a child process, whose memory goes when it ends)."""
    from ..serve.app import create_app
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
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    import uvicorn

    from ..serve.app import Settings, create_app
    settings = Settings(args.model, args.key_file, args.token_file, args.max_bytes, args.max_documents,
                        args.site)
    common = {"host": args.host, "port": args.port, "access_log": False, "log_config": None,
              "server_header": False}
    if args.workers == 1:
        try:
            app = create_app(settings)  # load and check everything before binding
        except CrfdeidError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        _logging(args.quiet)
        uvicorn.run(app, **common)
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
        uvicorn.run("crfdeid.cli.serve:app_from_env", factory=True, workers=args.workers, **common)
    return 0
