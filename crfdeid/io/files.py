"""Files on disk: reading inputs (their encoding), atomic writes, temporary files that never outlive a run.

Inputs are read as UTF-8 unless a byte-order mark names UTF-8, UTF-16 or UTF-32 (little or
big endian), or the reader's ``encoding`` option (``--encoding`` on the commands) names
another encoding for the files without a mark, e.g. ``cp1252`` (Windows-1252) or
``latin-1``. Outputs are always written as UTF-8.

Every temporary file (``.tmp-*``, private, next to its target) holds note text and
is removed on every way out: an exception, ``KeyboardInterrupt``,
``SIGTERM``/``SIGHUP`` (a handler is installed while the default one is in place;
the process still dies of the signal) and interpreter exit. Only ``SIGKILL`` or a
power cut can leave one behind.
"""

from __future__ import annotations

import atexit
import codecs
import errno
import io
import os
import signal
import tempfile
import threading
from pathlib import Path

from ..errors import ConfigError, InputError, OutputError, ReaderError

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


#: Byte-order marks and the encodings they name; UTF-32's first: its little-endian mark starts
#: with UTF-16's.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
ENCODING_HINT = ("if the file is in another encoding, name it: --encoding cp1252 (Windows-1252), "
                 "or the reader option encoding=cp1252")


def check_encoding(encoding) -> str | None:
    """The codec name of a reader's ``encoding`` option (``None``: UTF-8).

    Raises
    ------
    ConfigError
        Not a text encoding Python knows.
    """
    if encoding is None:
        return None
    try:
        info = codecs.lookup(str(encoding))
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise ConfigError(f"unknown text encoding {encoding!r} (e.g. utf-8, utf-16, cp1252, latin-1)")
    return info.name


def sniff(data: bytes, encoding: str | None = None) -> tuple[str, int]:
    """``(encoding, length of the byte-order mark)``: the mark's encoding, else ``encoding`` or UTF-8.

    >>> sniff("\ufeffNote".encode("utf-16-le")), sniff(b"Note", "cp1252")
    (('utf-16-le', 2), ('cp1252', 0))
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom)
    return encoding or "utf-8", 0


def _named(encoding: str) -> str:
    """How messages name an encoding (``UTF-8``, ``UTF-16-LE``, ``CP1252``)."""
    return codecs.lookup(encoding).name.upper()


def read_text_file(path, report, doc_id=None, keep_bom: bool = False, encoding=None) -> str | None:
    """A file's text, or ``None`` after reporting why it cannot be read (:func:`decode`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        report(ReaderError(f"cannot read: {exc.strerror}", path=path, doc_id=doc_id))
        return None
    return decode(data, report, path, doc_id, keep_bom, encoding)


def decode(data: bytes, report, path=None, doc_id=None, keep_bom: bool = False, encoding=None) -> str | None:
    """``data`` as text (:func:`sniff` picks the encoding), or ``None`` after reporting the first bad byte.

    A byte-order mark starts the text as U+FEFF with ``keep_bom`` (a note file: BRAT counts it
    in offsets), whatever the encoding it marks, and is dropped without (a file holding many
    notes or annotations). A bad byte is reported by line, and in a note by character offset;
    a file read as UTF-8 by default is told how to name another encoding.
    """
    enc, bom = sniff(data, encoding)
    try:
        text = data[bom:].decode(enc)
    except UnicodeDecodeError as exc:
        # The bytes before the bad one decode: they give its line and character offset.
        before = data[bom:bom + exc.start].decode(enc, "replace")
        offset = len(before) + (1 if bom else 0) if keep_bom else None
        hint = f"; {ENCODING_HINT}" if encoding is None and not bom else ""
        report(ReaderError(f"not valid {_named(enc)} at line {before.count(chr(10)) + 1} ({exc.reason}){hint}",
                           path=path, doc_id=doc_id, offset=offset))
        return None
    return "\ufeff" + text if bom and keep_bom else text


def text_lines(stream, encoding=None):
    """``(line, error)`` for each line of a binary stream, split after ``\n`` only, the mark dropped.

    Each line is decoded alone, so a bad byte costs its line: ``error`` is then the
    :class:`UnicodeDecodeError` and ``line`` the line decoded with replacement characters (for
    its shape only). UTF-16 and UTF-32, whose ``\n`` is more than one byte, are decoded as one
    stream: a bad byte there ends the lines with that error.
    """
    if not hasattr(stream, "peek"):
        stream = io.BufferedReader(stream)
    enc, bom = sniff(stream.peek(4)[:4], encoding)
    stream.read(bom)
    if codecs.lookup(enc).name.startswith(("utf-16", "utf-32")):
        wrapper = io.TextIOWrapper(stream, encoding=enc, newline="\n")
        try:
            for line in wrapper:
                yield line, None
        except UnicodeDecodeError as exc:
            yield "", exc
        finally:
            wrapper.detach()  # the caller closes its stream
        return
    for raw in stream:
        try:
            yield raw.decode(enc), None
        except UnicodeDecodeError as exc:
            yield raw.decode(enc, "replace"), exc


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
