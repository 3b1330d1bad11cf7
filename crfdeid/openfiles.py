"""Opening a user's file for reading: regular files only, every read bounded.

Every file crfdeid reads on a user's word comes through :func:`open_regular` (readers of
notes through :func:`crfdeid.io.encoding.open_input`, side files - keys, tokens, site files,
tables, lists - through :func:`read_regular`). A FIFO is opened without waiting for a writer
and then refused, never read (it would block the run forever); a device (``/dev/zero``,
``/dev/urandom``), a socket or a folder likewise, so no read goes on until memory is gone.
The error's type is the caller's: :class:`~crfdeid.errors.InputError` for an input,
:class:`~crfdeid.errors.ConfigError` for a side file.
"""

from __future__ import annotations

import os
import stat

from .errors import LocatedError

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))

#: The most bytes a side file (a site file, table, list, group table, token file) may hold.
MAX_SIDE_BYTES = 256 * 1024 * 1024


def kind(mode: int) -> str:
    """What a file of mode ``mode`` is, as messages name it (``a FIFO (named pipe)``...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path, error: type[LocatedError], what: str = "file"):
    """``path`` opened for reading as a binary stream, or ``error`` naming why not: no such
    file, a folder, a FIFO, device or socket (opened without blocking, never read), or the
    system's reason (permission, a name too long)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise error("no such file", path=path) from None
    except IsADirectoryError:
        raise error(f"a folder; this takes one {what}", path=path) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise error(f"cannot read: {getattr(exc, 'strerror', None) or type(exc).__name__}", path=path) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise error(f"{kind(mode)}, not a file: not read ({what} must be a regular file)", path=path)
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_regular(path, error: type[LocatedError], what: str = "file", limit: int = MAX_SIDE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (:func:`open_regular`), at most ``limit``; a larger
    one is ``error``, read no further."""
    with open_regular(path, error, what) as stream:
        try:
            data = stream.read(limit + 1)
        except OSError as exc:
            raise error(f"cannot read: {exc.strerror}", path=path) from None
    if len(data) > limit:
        raise error(f"larger than {limit:,} bytes, the most {what} may hold: not read", path=path)
    return data


def read_regular_text(path, error: type[LocatedError], what: str = "file", limit: int = MAX_SIDE_BYTES) -> str:
    """:func:`read_regular` decoded as UTF-8 (a byte-order mark dropped); a bad byte is ``error``
    naming its line, never the text."""
    data = read_regular(path, error, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise error(f"{what} is not valid UTF-8 at line {line}", path=path) from None
