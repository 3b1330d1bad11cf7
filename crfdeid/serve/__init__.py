"""The HTTP service (extra ``[serve]``): ``python -m crfdeid serve`` (:mod:`crfdeid.cli.serve`),
or :func:`crfdeid.serve.app.create_app` for an ASGI server of your own (:mod:`crfdeid.serve.app`).
"""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request


def wait_ready(base_url: str, process=None, timeout: float = 60) -> bool:
    """Wait until ``GET {base_url}/health`` answers 200 (a server just started by a script).

    Returns False when ``process`` (a ``subprocess.Popen``) ends first or ``timeout``
    seconds pass.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and (process is None or process.poll() is None):
        try:
            with urllib.request.urlopen(f"{base_url}/health", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    return False


def read_until_closed(sock: socket.socket, deadline: float) -> tuple[bytes, float]:
    """What the server sends on ``sock`` until it closes the connection or ``time.monotonic()``
    passes ``deadline``, and when that was (a client of a test or a script, bounded)."""
    data = b""
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        data += chunk
    return data, time.monotonic()

