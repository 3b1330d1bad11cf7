"""Long work: its progress (a bar on a terminal, a line per step in a log) and its deadline.

A :class:`Progress` draws a tqdm bar on standard error when it is a terminal (never with a
command's ``--quiet``, never into a file or a pipe) and writes lines to the ``crfdeid``
logger: when a step starts, about every tenth of it (or every :data:`LOG_EVERY` seconds
when its size is unknown) and when it ends, with counts and times. ``--log FILE``
(:func:`log_to`) writes that logger to a file; a program that imports crfdeid attaches its
own handler. No line ever holds note text: a step's name, counts and seconds only.

>>> with Progress("featurize", total=3, enabled=False) as p:
...     for _ in range(3):
...         p.update()
>>> p.n
3

Stopping work nobody waits for: a deadline for the current thread's work, checked between pieces.

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

import gc
import logging
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .errors import CrfdeidError

#: The logger every step line goes to.
LOG = logging.getLogger("crfdeid")
LOG.addHandler(logging.NullHandler())
#: Seconds between two lines of a step whose size is unknown.
LOG_EVERY = 30.0

_handler: logging.Handler | None = None


def log_to(path) -> logging.Handler | None:
    """Write the step lines to ``path`` (appended, one a line with a UTC time stamp), instead
    of the file an earlier call named; ``None`` stops writing them."""
    global _handler
    if _handler is not None:
        LOG.removeHandler(_handler)
        _handler.close()
        _handler = None
    if path is None:
        return None
    try:
        _handler = _LogFile(Path(path), encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise CrfdeidError(f"cannot write the log {str(path)[:200]!r} "
                           f"({getattr(exc, 'strerror', None) or type(exc).__name__})") from None
    fmt = logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
    fmt.converter = time.gmtime
    _handler.setFormatter(fmt)
    LOG.addHandler(_handler)
    LOG.setLevel(logging.INFO)
    return _handler


class _LogFile(logging.FileHandler):
    """``--log FILE``: a write that fails (a full disk, ``/dev/full``) stops the log with one
    warning on standard error, never a traceback per line; :func:`log_failed` tells the program."""

    failed: str | None = None

    def handleError(self, record) -> None:
        exc = sys.exc_info()[1]
        _LogFile.failed = f"cannot write the log {self.baseFilename[:200]!r} ({getattr(exc, 'strerror', None) or exc})"
        LOG.removeHandler(self)
        stream, self.stream = self.stream, None
        if stream is None:
            return
        try:  # what it buffers is dropped (into the null device): closing would fail the same way
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
            stream.close()
        except (OSError, ValueError, AttributeError):
            pass
        print(f"warning: {_LogFile.failed}: no more step lines are written to it", file=sys.stderr)


def log_failed() -> str | None:
    """Why the ``--log`` file of this process could not be written, None when it could (or none)."""
    return _LogFile.failed


def warn(message: str) -> None:
    """``warning: MESSAGE`` on standard error (around a bar) and in the log; never note text."""
    LOG.warning("warning: %s", message)
    Progress.write(f"warning: {message}")


def step(message: str, *args) -> None:
    """One line in the log (``%``-style arguments: counts, names of steps, never note text)."""
    LOG.info(message, *args)


class Progress:
    """A step of a long command: its bar (when ``enabled`` and standard error is a terminal)
    and its lines in the log (module docstring)."""

    def __init__(self, desc: str, total: int | None = None, unit: str = "doc", enabled: bool = True,
                 always: bool = False):
        self.desc, self.total, self.unit = desc, total, unit
        self.n = 0
        self._phase: str | None = None
        self._closed = False
        self._t0 = time.monotonic()
        self._next_time = self._t0 + LOG_EVERY
        self._next_share = 1
        self._bar = _NoBar()
        if enabled and (always or _terminal()):  # tqdm (and what it imports) only where a bar is drawn
            from tqdm import tqdm
            self._bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)
        step("%s: started%s", desc, f" ({total} {unit}s)" if total is not None else "")

    def update(self, n: int = 1) -> None:
        self.n += n
        self._bar.update(n)
        if self.total:
            share = self.n * 10 // self.total
            if share >= self._next_share and self.n < self.total:
                step("%s: %d of %d %ss (%d%%), %.1fs", self._name(), self.n, self.total, self.unit,
                     self.n * 100 // self.total, time.monotonic() - self._t0)
                self._next_share = share + 1
        elif time.monotonic() >= self._next_time:
            step("%s: %d %ss, %.1fs", self._name(), self.n, self.unit, time.monotonic() - self._t0)
            self._next_time = time.monotonic() + LOG_EVERY

    def _name(self) -> str:
        return self.desc if self._phase is None else f"{self.desc} ({self._phase})"

    def phase(self, name: str, total: int | None = None) -> None:
        """Start the next phase of the step (``reading``, ``tagging``, ``site mining``...): the
        bar starts again from 0 of ``total`` with the phase in its description (so its rate
        and time left are the phase's), and the log gets a line as the last phase ends and
        one as this one starts.

        >>> p = Progress("tag", 2, enabled=False)
        >>> p.update(2)
        >>> p.phase("writing", 2)
        >>> p.n, p.total
        (0, 2)
        """
        now = time.monotonic()
        if self._phase is not None:
            self._done(now)
        self._phase, self.n, self.total, self._t0 = name, 0, total, now
        self._next_time, self._next_share = now + LOG_EVERY, 1
        self._bar.set_description(f"{self.desc} ({name})", refresh=False)
        self._bar.total = total  # before the reset, which keeps the last total for None and draws
        self._bar.reset(total)
        step("%s: %s started%s", self.desc, name, f" ({total} {self.unit}s)" if total is not None else "")

    @staticmethod
    def write(message: str) -> None:
        """A message on standard error that does not break the bar."""
        tq = sys.modules.get("tqdm")
        if tq is not None:  # a bar may be drawn: tqdm writes around it
            tq.tqdm.write(message, file=sys.stderr)
        elif sys.stderr is not None:  # no bar without tqdm: what tqdm.write does then
            sys.stderr.write(message)
            sys.stderr.write("\n")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._bar.close()
        self._done(time.monotonic())

    def _done(self, now: float) -> None:
        what = "done" if self._phase is None else f"{self._phase} done"
        if self.n or self._phase is None:
            step("%s: %s, %d %ss in %.1fs", self.desc, what, self.n, self.unit, now - self._t0)
        else:  # a phase that counts nothing (site mining learns from the whole batch at once)
            step("%s: %s in %.1fs", self.desc, what, now - self._t0)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _NoBar:
    """The bar of a :class:`Progress` that draws none (what a disabled tqdm bar does)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_description(self, desc: str, refresh: bool = True) -> None:
        pass

    def reset(self, total: int | None = None) -> None:
        self.total = total

    def close(self) -> None:
        pass


def track(iterable: Iterable, desc: str, total: int | None = None, unit: str = "doc",
          enabled: bool = True) -> Iterator:
    """The items of ``iterable``, counted by a :class:`Progress`."""
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    with Progress(desc, total, unit, enabled) as p:
        for item in iterable:
            yield item
            p.update()


def _terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


# -- the deadline of the current work ------------------------------------------------------------

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


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector (if it runs) for the block.

    Tagging makes millions of small objects (tokens, attribute tuples) that live
    until their batch is done and hold no reference cycles: the collector's passes
    over them free nothing (``gc.get_stats()``: 0 collected on the PhysioNet
    corpus) but cost about a tenth of the tagging time. Reference counting still
    frees everything; the collector resumes after the block.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
