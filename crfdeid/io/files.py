"""Files on disk: the inputs a folder holds, atomic writes, temporary files that never outlive a run.

How inputs are decoded is :mod:`crfdeid.io.encoding`'s (its names are importable from here
too). Outputs are always written as UTF-8.

Every temporary file (``.tmp-NAME-PID``, private, next to its target) holds note text and
is removed on every way out: an exception, ``KeyboardInterrupt``,
``SIGTERM``/``SIGHUP`` (a handler is installed while the default one is in place;
the process still dies of the signal) and interpreter exit. Only ``SIGKILL`` or a
power cut can leave one behind; the next writer into that folder removes it
(:func:`clear_stale_temps`: its process is gone) and names any other.
"""

from __future__ import annotations

import atexit
import errno
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from pathlib import Path

from ..errors import OutputError
from .encoding import ENCODING_HINT as ENCODING_HINT
from .encoding import check_encoding as check_encoding
from .encoding import decode as decode
from .encoding import foreign as foreign
from .encoding import nul_line as nul_line
from .encoding import read_text_file as read_text_file
from .encoding import sniff as sniff
from .encoding import text_lines as text_lines
from .walk import list_files as list_files

BOM = "\ufeff"
# A file of the user is never replaced unasked; the message says how to ask (command and API).
EXISTS = "exists and was not replaced (to replace it: --overwrite, or overwrite=True in Python)"

# Temporary files of this process that hold data, with the process that made them (a forked
# worker inherits the table and must not remove its parent's files).
_TEMPS: dict[str, int] = {}
_CLEANUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_handlers_installed = False


def _remove_temps() -> None:
    for tmp, owner in list(_TEMPS.items()):
        if owner == os.getpid():
            try:
                os.unlink(tmp)
            except OSError:
                pass
            _TEMPS.pop(tmp, None)


def _on_signal(signum, frame) -> None:
    _remove_temps()
    signal.signal(signum, signal.SIG_DFL)  # then die of the signal as if no handler were here
    os.kill(os.getpid(), signum)


def track_temp(tmp: str) -> None:
    """Remember ``tmp`` for removal on any exit; install the signal handlers once."""
    global _handlers_installed
    _TEMPS[tmp] = os.getpid()
    if not _handlers_installed and threading.current_thread() is threading.main_thread():
        _handlers_installed = True
        atexit.register(_remove_temps)
        for sig in _CLEANUP_SIGNALS:
            if signal.getsignal(sig) is signal.SIG_DFL:  # never replace an application's handler
                signal.signal(sig, _on_signal)


def untrack_temp(tmp: str) -> None:
    _TEMPS.pop(tmp, None)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def atomic_write(path, data: str | bytes, overwrite: bool = True) -> None:
    """Write ``data`` (``str``: as UTF-8) to ``path`` through a temporary file and a rename.

    The temporary file is new (``O_EXCL``), private (mode 0600) and next to ``path``;
    folders are made when missing. Nothing is left behind when the write fails.
    With ``overwrite=False`` an existing ``path`` is never replaced (the final step is
    a hard link, which fails atomically when the name is taken).

    Raises
    ------
    OutputError
        The file exists (without ``overwrite``), or the system refused (a folder
        that is a file, no permission, disk full): the message names the path and
        the system's reason.
    """
    path = Path(path)
    data = data.encode("utf-8") if isinstance(data, str) else data
    try:
        try:
            fd, tmp = new_temp_file(path)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = new_temp_file(path)
    except OSError as exc:
        raise OutputError(f"cannot write ({exc.strerror})", path=path) from None
    track_temp(tmp)
    try:
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
        publish(tmp, path, overwrite)
    except OSError as exc:
        raise OutputError(f"cannot write ({exc.strerror})", path=path) from None
    finally:
        untrack_temp(tmp)
        if os.path.lexists(tmp):
            os.unlink(tmp)


def publish(tmp: str, path: Path, overwrite: bool) -> None:
    """Give ``tmp`` its final name ``path``; without ``overwrite`` never replace a file. A
    ``path`` that is a device or a pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is written
    into, never renamed over: a rename would put a plain file in the device's place."""
    try:  # an output is no temporary file any more
        os.removexattr(tmp, TEMP_MARK, follow_symlinks=False)
    except (OSError, AttributeError):
        pass
    if overwrite and _special(path):
        with open(tmp, "rb") as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.unlink(tmp)
        return
    if overwrite:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise OutputError(EXISTS, path=path) from None
    except OSError as exc:  # no hard links here (some network or FAT file systems)
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        if os.path.lexists(path):
            raise OutputError(EXISTS, path=path) from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def _special(path: Path) -> bool:
    """Whether ``path`` (its link followed) is something other than a file or a folder."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def new_temp_file(path: Path) -> tuple[int, str]:
    """``(fd, name)`` of a new private file beside ``path`` (a cheap name, ``mkstemp``'s if taken),
    marked as crfdeid's (:func:`mark_temp`)."""
    tmp = os.path.join(os.path.dirname(path), f".tmp-{os.path.basename(path)}-{os.getpid()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    except FileExistsError:  # left by a killed run that had the same process id
        pass
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:  # a missing folder is the caller's to make
            raise
    else:
        mark_temp(fd)
        return fd, tmp
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=f"-{os.getpid()}", dir=path.parent)
    mark_temp(fd)
    return fd, tmp


#: The extended attribute that marks a temporary file as crfdeid's (its value: the process id).
TEMP_MARK = "user.crfdeid.temp"


def mark_temp(fd: int) -> None:
    """Mark the open file ``fd`` as a temporary file of this crfdeid process: an extended
    attribute, so that only files crfdeid made are ever removed as stale, never a user's file
    that merely has such a name. Where the file system keeps no extended attributes the file
    stays unmarked: a stale one is then named, never removed."""
    try:
        os.setxattr(fd, TEMP_MARK, str(os.getpid()).encode())
    except (OSError, AttributeError):  # no xattrs here (or no os.setxattr: not Linux)
        pass


def _marked_pid(path: str) -> int | None:
    """The process id a crfdeid temporary file was marked with, or None (not crfdeid's)."""
    try:
        value = os.getxattr(path, TEMP_MARK, follow_symlinks=False)
    except (OSError, AttributeError):
        return None
    return int(value) if value.isdigit() else None


def anonymous_temp_file(path: Path) -> int | None:
    """A descriptor of a new private file without a name in ``path``'s folder (Linux
    ``O_TMPFILE``), or None where the system or file system has none. A killed process leaves
    nothing of it on disk; :func:`name_temp_file` gives it a name when it is complete."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(os.path.dirname(path) or ".", flag | os.O_RDWR, 0o600)
    except OSError:  # EOPNOTSUPP, EISDIR (an old kernel), a file system without it
        return None


def name_temp_file(fd: int, path: Path) -> str:
    """Give the nameless file ``fd`` (:func:`anonymous_temp_file`) a temporary name beside
    ``path`` (``.tmp-NAME-PID``, tracked like any other) and return it; where no link can be
    made, its content is copied to a new temporary file of that name."""
    fd_tmp, tmp = new_temp_file(path)
    os.close(fd_tmp)
    os.unlink(tmp)  # the name only: linkat wants it free
    track_temp(tmp)
    mark_temp(fd)
    try:
        os.link(f"/proc/self/fd/{fd}", tmp, follow_symlinks=True)
        return tmp
    except OSError:
        pass
    out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    mark_temp(out)
    try:
        offset = 0
        while chunk := os.pread(fd, 1 << 20, offset):
            write_all(out, chunk)
            offset += len(chunk)
        os.fsync(out)
    finally:
        os.close(out)
    return tmp


#: A temporary file of :func:`atomic_write` and the stream writers: ``.tmp-NAME-PID``.
_TEMP = re.compile(r"\.tmp-.*-(\d+)")


def clear_stale_temps(folder) -> list[str]:
    """Remove the temporary files a killed run (``SIGKILL``, a power cut) left in ``folder``
    and say what is left: a warning per finding, naming files, never their content.

    A ``.tmp-NAME-PID`` file that crfdeid marked as its own (:func:`mark_temp`) and whose
    process no longer runs is removed (it holds note text and nobody will ever finish it); any
    other ``.tmp-*`` file (a running process's, one whose process id was given again, or a file
    of the user's that merely has such a name) is named, never removed.
    """
    try:
        names = sorted(n for n in os.listdir(folder) if n.startswith(".tmp-"))
    except OSError:
        return []
    removed, left = [], []
    for name in names:
        m = _TEMP.fullmatch(name)
        pid = int(m.group(1)) if m else None
        if pid is not None and _marked_pid(os.path.join(folder, name)) != pid:
            pid = None  # named like a temporary file of crfdeid's, but not marked so: never removed
        if pid is not None and pid != os.getpid() and not running(pid):
            try:
                os.unlink(os.path.join(folder, name))
                removed.append(name)
                continue
            except OSError:
                pass
        if os.path.join(str(folder), name) not in _TEMPS:
            left.append(name)
    out = []
    if removed:
        out.append(f"removed {len(removed)} temporary file(s) an interrupted run left in {str(folder)!r} "
                   f"(they held note text): {', '.join(removed)}")
    if left:
        out.append(f"{len(left)} temporary file(s) of a running or interrupted run in {str(folder)!r}: "
                   f"{', '.join(left)}; they can hold note text: delete them once no run writes there")
    return out


def running(pid: int) -> bool:
    """Whether process ``pid`` exists (another user's process of that number counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def file_id(f: Path, root) -> tuple[str, str]:
    """``(document id, file)`` of a file read from ``root`` (a folder, or the file itself): the
    file is its path relative to the folder as given (``sub/P4.TXT``), the id the same without
    its suffix (``sub/P4``: a file directly in the folder has its stem as before).

    >>> file_id(Path("notes/sub/P4.TXT"), "notes"), file_id(Path("notes/n1.txt"), "notes/n1.txt")
    (('sub/P4', 'sub/P4.TXT'), ('n1', 'n1.txt'))
    """
    root = Path(root)
    name = f.relative_to(root).as_posix() if root in f.parents else f.name
    return (name[:-len(f.suffix)] if f.suffix else name), name


def is_stdio(path) -> bool:
    """Whether ``path`` names standard input/output (``'-'``)."""
    return str(path) == "-"


def relative_to(spec: str, base_dir: Path | None) -> str:
    """``spec`` (a path) made relative to ``base_dir`` if it is relative; unchanged without one
    (a config's paths are relative to the config file)."""
    if base_dir is None or Path(spec).is_absolute() or spec == "-":
        return spec
    return os.path.normpath(base_dir / spec)
