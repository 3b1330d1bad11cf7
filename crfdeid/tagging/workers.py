"""The lives of ``--jobs`` worker processes: how many, and that none outlives its parent.

A worker holds the notes of its batches in memory; adopted by ``init`` after its parent was
killed (``SIGKILL``, ``SIGTERM``, an out-of-memory kill) it would keep them there, and a pool
of more workers than cores only costs memory. So ``--jobs`` is clamped to the cores this
process may run on (:func:`bound_jobs`, with a warning naming both numbers), and each worker
(:func:`end_with_parent`, from the pool's initializer) asks Linux to kill it when its parent
dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``) and, on every system, watches its parent's
process id once a second and ends when it changes. A worker ignores ``SIGINT``: Ctrl-C reaches
every process of the terminal's group, and the parent alone stops the run (exit 130).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

from ..progress import warn

#: ``prctl``'s option that sends a signal to a process when its parent thread ends (Linux).
PR_SET_PDEATHSIG = 1
#: How often (seconds) a worker looks whether its parent still lives, where ``prctl`` is missing.
WATCH_SECONDS = 1.0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def bound_jobs(jobs: int) -> int:
    """``jobs`` clamped to :func:`usable_cores`, with a warning when it was more."""
    cores = usable_cores()
    if jobs > cores:
        warn(f"--jobs {jobs} is more than the {cores} core(s) this process may use: {cores} process(es) run "
             "(more would each hold a model and notes in memory and go no faster)")
        return cores
    return jobs


def end_with_parent(parent: int) -> None:
    """Make this worker end when process ``parent`` does (module docstring); ignore ``SIGINT``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watch below still ends it
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="crfdeid-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)  # adopted: the run is over, nothing of this worker is wanted
