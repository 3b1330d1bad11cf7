"""Drive the review page without a person: a live server on a free loopback port and a
headless Chromium (Debian's ``chromium`` and ``chromium-driver``) through Selenium.

Used by the browser tests, the screenshot script and the timing bench. Selenium is
pointed at ``/usr/bin/chromedriver`` so that it never downloads a driver or a browser,
and Chromium runs with a fresh profile and its background networking off.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from contextlib import contextmanager

from ..document import Document
from ..synth import iter_documents
from .guard import LOG_CONFIG

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--disable-extensions", "--disable-default-apps")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(app, port: int | None = None, certfile: str | None = None, keyfile: str | None = None):
    """Serve ``app`` with uvicorn on 127.0.0.1 in a thread (HTTPS with ``certfile``); yields
    the base URL."""
    import uvicorn

    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=LOG_CONFIG,
                                           server_header=False, lifespan="off", ssl_certfile=certfile,
                                           ssl_keyfile=keyfile))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the review server did not start")
        time.sleep(0.02)
    try:
        yield f"{'https' if certfile else 'http'}://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def available() -> str | None:
    """Why no headless browser can run here (``None``: it can)."""
    try:
        import selenium  # noqa: F401
    except ModuleNotFoundError:
        return "selenium is not installed (pip install selenium)"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            return f"{path} not found (apt-get install -y chromium chromium-driver)"
    return None


@contextmanager
def chromium(width: int = 1280, height: int = 800):
    """A headless Chromium driven by Selenium, with a fresh profile removed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="crfdeid-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def long_document(words: int = 5000, seed: int = 13, doc_id: str = "900-01"):
    """One synthetic note of at least ``words`` words (synthetic notes joined, spans shifted)."""
    text = ""
    spans: list = []
    for doc in iter_documents(10_000, seed):
        if len(text.split()) >= words:
            break
        sep = "\n\n" if text else ""
        spans.extend(sp.shifted(len(text) + len(sep)) for sp in doc.spans)
        text += sep + doc.text
    return Document(doc_id, text, spans)
