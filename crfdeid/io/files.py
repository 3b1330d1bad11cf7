"""Files on disk: reading inputs as UTF-8, atomic writes, temporary files that never outlive a run.

Every temporary file (``.tmp-*``, private, next to its target) holds note text and
is removed on every way out: an exception, ``KeyboardInterrupt``,
``SIGTERM``/``SIGHUP`` (a handler is installed while the default one is in place;
the process still dies of the signal) and interpreter exit. Only ``SIGKILL`` or a
power cut can leave one behind.
"""

from __future__ import annotations

import atexit
import errno
import os
import signal
import tempfile
import threading
from pathlib import Path

from ..errors import InputError, OutputError, ReaderError

BOM = "\ufeff"
EXISTS = "exists; not replaced without --overwrite (overwrite=True)"

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
            fd, tmp = _new_temp_file(path)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = _new_temp_file(path)
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
    """Give ``tmp`` its final name ``path``; without ``overwrite`` never replace a file."""
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


def _new_temp_file(path: Path) -> tuple[int, str]:
    """``(fd, name)`` of a new private file beside ``path`` (a cheap name, ``mkstemp``'s if taken)."""
    tmp = os.path.join(os.path.dirname(path), f".tmp-{os.path.basename(path)}-{os.getpid()}")
    try:
        return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), tmp
    except FileExistsError:  # left by a killed run that had the same process id
        pass
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:  # a missing folder is the caller's to make
            raise
    return tempfile.mkstemp(prefix=".tmp-", dir=path.parent)


def read_text_file(path, report, doc_id=None, keep_bom: bool = False) -> str | None:
    """A file's UTF-8 text, or ``None`` after reporting why it cannot be read (:func:`decode`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        report(ReaderError(f"cannot read: {exc.strerror}", path=path, doc_id=doc_id))
        return None
    return decode(data, report, path, doc_id, keep_bom)


def decode(data: bytes, report, path=None, doc_id=None, keep_bom: bool = False) -> str | None:
    """UTF-8 ``data`` as text, or ``None`` after reporting the first bad byte.

    A byte-order mark starts the text with ``keep_bom`` (a note file: BRAT counts it
    in offsets) and is dropped without (a file holding many notes or annotations).
    A bad byte is reported by line, and in a note by character offset.
    """
    try:
        return data.decode("utf-8" if keep_bom else "utf-8-sig")
    except UnicodeDecodeError as exc:
        # The bytes before the bad one decode: they give its line and character offset.
        line = data.count(b"\n", 0, exc.start) + 1
        offset = len(data[:exc.start].decode("utf-8")) if keep_bom else None
        report(ReaderError(f"not valid UTF-8 at line {line} ({exc.reason})", path=path,
                           doc_id=doc_id, offset=offset))
        return None


def list_files(path, suffix: str) -> list[Path]:
    """Files ending in ``suffix`` (any case) in a folder, sorted by name, or the one file named.

    Raises
    ------
    InputError
        ``path`` does not exist, or is a folder without such files.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == suffix and p.is_file())
        if not files:
            raise InputError(f"no *{suffix} files in this folder", path=path)
        return files
    if path.exists():
        return [path]
    raise InputError("no such file or folder", path=path)


def is_stdio(path) -> bool:
    """Whether ``path`` names standard input/output (``'-'``)."""
    return str(path) == "-"


def relative_to(spec: str, base_dir: Path | None) -> str:
    """``spec`` (a path) made relative to ``base_dir`` if it is relative; unchanged without one
    (a config's paths are relative to the config file)."""
    if base_dir is None or Path(spec).is_absolute() or spec == "-":
        return spec
    return os.path.normpath(base_dir / spec)
