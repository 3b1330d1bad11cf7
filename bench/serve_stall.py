"""Stalled uploads against ``python -m crfdeid serve`` on a free loopback port: how long each is
held before its 408, and whether the server answers others meanwhile.

Opens ``--uploads`` connections that send their headers (``Content-Length: 1000``) and 10
bytes of body, then nothing; asks ``GET /health`` while they stall; reads every stalled
connection until the server closes it (at most ``--max-seconds``); prints what each got and
when, and stops the server.

    python bench/serve_stall.py --uploads 100 --body-timeout 2
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--uploads", type=int, default=100)
    p.add_argument("--body-timeout", type=float, default=2.0)
    p.add_argument("--max-seconds", type=float, default=60.0, help="longest wait for all answers")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from crfdeid.serve import read_until_closed, wait_ready
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "crfdeid", "serve", "--port", str(port), "--quiet",
                               "--body-timeout", str(args.body_timeout)],
                              env=dict(os.environ, PYTHONPATH=str(ROOT)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socks = []
    try:
        if not wait_ready(f"http://127.0.0.1:{port}", server, timeout=120):
            print("the server did not start", file=sys.stderr)
            return 1
        head = (b"POST /v1/deidentify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000\r\n\r\n")
        t0 = time.monotonic()
        for _ in range(args.uploads):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(head + b'{"text": "')
            socks.append(sock)
        opened = time.monotonic() - t0
        h0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as other:
            other.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            health, _ = read_until_closed(other, h0 + 10)
        health_ms = 1000 * (time.monotonic() - h0)
        deadline = t0 + args.max_seconds
        answers = [read_until_closed(sock, deadline) for sock in socks]
    finally:
        for sock in socks:
            sock.close()
        server.terminate()
        server.wait(timeout=60)
    got = [a.split(b"\r\n", 1)[0].decode(errors="replace") or "(nothing)" for a, _ in answers]
    closed = sorted(when - t0 for _, when in answers)
    counts = {line: got.count(line) for line in sorted(set(got))}
    print(f"{args.uploads} stalled uploads opened in {opened:.2f} s, --body-timeout {args.body_timeout:g}")
    print(f"GET /health while they stalled: {health.split(b' ', 2)[1].decode() if health else 'none'} "
          f"in {health_ms:.0f} ms")
    print(f"answers: {counts}")
    print(f"closed by the server after {closed[0]:.2f} s (first) to {closed[-1]:.2f} s (last) from the "
          f"first upload; load averages {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if counts == {"HTTP/1.1 408 Request Timeout": args.uploads} else 1


if __name__ == "__main__":
    sys.exit(main())
