"""Stopping work nobody waits for: a deadline for the current thread's work, checked between pieces.

The HTTP service answers 503 when a request's time is up; without a way to stop, the
thread tagging that request would go on for as long as the note takes and hold the model
meanwhile. Within :func:`deadline`, the long loops of tagging and rendering call
:func:`checkpoint` between pieces (a piece of a long note, a document, a slice of the
spans), which raises :class:`Cancelled` once the deadline has passed. Outside it,
:func:`checkpoint` costs one look-up and does nothing.

>>> import time
>>> with deadline(time.monotonic() - 1):
...     try:
...         checkpoint()
...     except Cancelled as exc:
...         print(exc)
the work's deadline has passed: stopped
>>> checkpoint()  # no deadline: nothing happens

A ``stop`` event stops the work before its deadline (the service sets it when the client
closes its connection: nobody is left to answer):

>>> import threading
>>> gone = threading.Event()
>>> gone.set()
>>> with deadline(None, gone):
...     try:
...         checkpoint()
...     except Cancelled as exc:
...         print(exc)
the work's client has gone: stopped
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import CrfdeidError

_DEADLINE: ContextVar[tuple[float | None, threading.Event | None]] = ContextVar("crfdeid_deadline",
                                                                                default=(None, None))


class Cancelled(CrfdeidError):
    """The work's deadline (:func:`deadline`) passed, or its stop event was set, before it was
    done; nothing of it is kept."""


@contextmanager
def deadline(at: float | None, stop: threading.Event | None = None) -> Iterator[None]:
    """Within the block, :func:`checkpoint` raises :class:`Cancelled` after ``at``
    (a :func:`time.monotonic` time; None: no deadline) or once ``stop`` is set."""
    token = _DEADLINE.set((at, stop))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def checkpoint() -> None:
    """Raise :class:`Cancelled` when the current deadline has passed or its stop event is set."""
    at, stop = _DEADLINE.get()
    if stop is not None and stop.is_set():
        raise Cancelled("the work's client has gone: stopped")
    if at is not None and time.monotonic() > at:
        raise Cancelled("the work's deadline has passed: stopped")
