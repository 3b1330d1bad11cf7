"""Files on disk: reading inputs (their encoding), atomic writes, temporary files that never outlive a run.

Inputs are read as UTF-8 unless a byte-order mark names UTF-8, UTF-16 or UTF-32 (little or
big endian), or the reader's ``encoding`` option (``--encoding`` on the commands) names
another encoding for the files without a mark, e.g. ``cp1252`` (Windows-1252) or
``latin-1``. Outputs are always written as UTF-8.

Every temporary file (``.tmp-NAME-PID``, private, next to its target) holds note text and
is removed on every way out: an exception, ``KeyboardInterrupt``,
``SIGTERM``/``SIGHUP`` (a handler is installed while the default one is in place;
the process still dies of the signal) and interpreter exit. Only ``SIGKILL`` or a
power cut can leave one behind; the next writer into that folder removes it
(:func:`clear_stale_temps`: its process is gone) and names any other.
"""

from __future__ import annotations

import atexit
import codecs
import errno
import io
import os
import re
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


def new_temp_file(path: Path) -> tuple[int, str]:
    """``(fd, name)`` of a new private file beside ``path`` (a cheap name, ``mkstemp``'s if taken)."""
    tmp = os.path.join(os.path.dirname(path), f".tmp-{os.path.basename(path)}-{os.getpid()}")
    try:
        return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), tmp
    except FileExistsError:  # left by a killed run that had the same process id
        pass
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:  # a missing folder is the caller's to make
            raise
    return tempfile.mkstemp(prefix=".tmp-", suffix=f"-{os.getpid()}", dir=path.parent)


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
    try:
        os.link(f"/proc/self/fd/{fd}", tmp, follow_symlinks=True)
        return tmp
    except OSError:
        pass
    out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
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

    A ``.tmp-NAME-PID`` file whose process no longer runs is removed (it holds note text and
    nobody will ever finish it); any other ``.tmp-*`` file (a running process's, or one
    whose process id was given again) is named, to be deleted once no run writes there.
    """
    try:
        names = sorted(n for n in os.listdir(folder) if n.startswith(".tmp-"))
    except OSError:
        return []
    removed, left = [], []
    for name in names:
        m = _TEMP.fullmatch(name)
        pid = int(m.group(1)) if m else None
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


#: Byte-order marks and the encodings they name; UTF-32's first: its little-endian mark starts
#: with UTF-16's.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
ENCODING_HINT = ("if the file is in another encoding, name it: --encoding cp1252 (Windows-1252), "
                 "or the reader option encoding=cp1252")


#: Signatures of encodings that are not read without being named (UTF-7's is ASCII: it would
#: pass for UTF-8 text and hide the note's non-ASCII letters in ``+AOs-`` runs).
_SIGNATURES = ((b"+/v8", "UTF-7"), (b"+/v9", "UTF-7"), (b"+/v+", "UTF-7"), (b"+/v/", "UTF-7"),
               (b"\xf7\x64\x4c", "UTF-1"), (b"\xdd\x73\x66\x73", "UTF-EBCDIC"), (b"\x0e\xfe\xff", "SCSU"),
               (b"\xfb\xee\x28", "BOCU-1"), (b"\x84\x31\x95\x33", "GB18030"))


def foreign(data: bytes) -> str | None:
    """Why bytes to be read as UTF-8 (no byte-order mark, no encoding named) are in another
    encoding though they may decode as UTF-8: NUL bytes in their first 4 KiB, a quarter of
    them or more (UTF-16 or UTF-32 without a mark: an ASCII note in UTF-16 is valid UTF-8 with
    a NUL after every letter), or another encoding's signature; None for text that may be
    UTF-8 (a stray NUL is refused once decoded). The reason names how to read it, never the text.

    >>> foreign("Note".encode("utf-16-le")).split("? ")[0]
    'NUL bytes: UTF-16-LE without a byte-order mark'
    >>> foreign(b"Note") is None
    True
    """
    for sig, name in _SIGNATURES:
        if data.startswith(sig):
            return (f"starts with the signature of {name}: name the encoding (--encoding, or the reader "
                    "option encoding=) or convert the file to UTF-8")
    head = data[:4096]
    if b"\x00" not in head:
        return None
    odd, even = head[1::2].count(0), head[0::2].count(0)
    quads = [head[i::4].count(0) for i in range(4)]
    n = max(1, len(head) // 4)
    if min(quads[1:]) > n // 2 and quads[0] < n // 2:
        guess = "utf-32-le"
    elif min(quads[:3]) > n // 2 and quads[3] < n // 2:
        guess = "utf-32-be"
    else:
        guess = "utf-16-le" if odd >= even else "utf-16-be"
    if max(odd, even) < len(head) // 4:  # a few NULs, not every other byte: the decoded text's check
        return None
    return (f"NUL bytes: {guess.upper()} without a byte-order mark? name the encoding: "
            f"--encoding {guess}, or the reader option encoding={guess}")


def nul_line(text: str) -> int | None:
    """The line (from 1) of the first NUL character of ``text``, None without one."""
    at = text.find("\x00")
    return None if at < 0 else text.count("\n", 0, at) + 1


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
    why = foreign(data) if encoding is None and not bom else None
    if why:
        report(ReaderError(f"not read as UTF-8: {why}", path=path, doc_id=doc_id))
        return None
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
    line = nul_line(text)
    if line is not None:  # read in the wrong encoding (latin-1 for UTF-16, say), or not a note
        report(ReaderError(f"a NUL character at line {line} as {_named(enc)}, which no note holds; "
                           f"{ENCODING_HINT}", path=path, doc_id=doc_id))
        return None
    return "\ufeff" + text if bom and keep_bom else text


def text_lines(stream, encoding=None, path=None):
    """``(line, error)`` for each line of a binary stream, split after ``\n`` only, the mark dropped.

    Each line is decoded alone, so a bad byte costs its line: ``error`` is then the
    :class:`UnicodeDecodeError` and ``line`` the line decoded with replacement characters (for
    its shape only), as for a line holding a NUL character. UTF-16 and UTF-32, whose ``\n`` is
    more than one byte, are decoded as one stream: a bad byte there ends the lines with that error.

    Raises
    ------
    InputError
        Read as UTF-8 (no mark, no ``encoding``), the stream is in another encoding (:func:`foreign`).
    """
    if not hasattr(stream, "peek"):
        stream = io.BufferedReader(stream)
    start = stream.peek(4096)[:4096]
    enc, bom = sniff(start[:4], encoding)
    why = foreign(start) if encoding is None and not bom else None
    if why:  # the whole stream is in another encoding: no line of it is read
        raise InputError(f"not read as UTF-8: {why}", path=path)
    stream.read(bom)
    if codecs.lookup(enc).name.startswith(("utf-16", "utf-32")):
        wrapper = io.TextIOWrapper(stream, encoding=enc, newline="\n")
        try:
            for line in wrapper:
                yield line, _nul(line, enc)
        except UnicodeDecodeError as exc:
            yield "", exc
        finally:
            wrapper.detach()  # the caller closes its stream
        return
    for raw in stream:
        try:
            line = raw.decode(enc)
        except UnicodeDecodeError as exc:
            yield raw.decode(enc, "replace"), exc
        else:
            yield line, _nul(line, enc)


def _nul(line: str, enc: str) -> UnicodeDecodeError | None:
    """The error of a line holding a NUL character (read in the wrong encoding), None for others."""
    at = line.find("\x00")
    if at < 0:
        return None
    raw = line.encode(enc, "replace")
    byte = len(line[:at].encode(enc, "replace"))
    return UnicodeDecodeError(enc, raw, byte, byte + 1, "a NUL character, which no note holds")


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
