"""The files a folder of inputs holds: those a reader reads, and every other one named with why.

Nothing that could be a note is skipped in silence (issue 61): entries that are not readable
files, files of subfolders not read and, for a reader that asks (``others=True``: the text
reader), every other file of the folder are counted and named by their path relative to the
folder, in one warning each on standard error and in the log; never their content.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..progress import warn
from .ownfiles import is_own


def list_files(path, suffix: str | tuple[str, ...], recursive: bool | None = None,
               others: Callable[[str], str] | None = None) -> list[Path]:
    """Files ending in ``suffix`` (any case; or one of several) in a folder, sorted by relative path,
    or the one file named.

    With ``recursive`` the folder's subfolders are read too, a link to a folder followed once (a
    link back to a folder already read, a loop, is named and not followed). Nothing that could
    be a note is skipped in silence: the files of subfolders not read, and the entries ending in
    ``suffix`` that are not readable files (a dangling link, a link loop, a FIFO, a socket, a
    device, a link to a folder) are counted and named by their
    path relative to ``path`` in one warning on standard error and in the log (never their
    content). ``recursive=None``: a reader that cannot read subfolders (the hint says so).
    ``others``: the reason a file of another suffix is not read (from its name), for a reader
    that names every other file of the folder too, counted by reason.

    Raises
    ------
    InputError
        ``path`` does not exist, or is a folder without such files.
    """
    path = Path(path)
    if not path.is_dir():
        if path.exists():
            return [path]
        why = "a dangling link" if path.is_symlink() else "no such file or folder"
        raise InputError(why, path=path)
    suffixes = tuple(s.lower() for s in ((suffix,) if isinstance(suffix, str) else suffix))
    shown = " or ".join(filter(None, [", ".join(f"*{s}" for s in suffixes[:-1]), f"*{suffixes[-1]}"]))
    files: list[Path] = []
    odd: list[tuple[str, str]] = []
    below: list[str] = []
    unread: list[str] | None = [] if others else None
    _walk(path, path, suffixes, bool(recursive), files, odd, below, unread)
    if unread and others:
        by_why: dict[str, list[str]] = {}
        for name in unread:
            by_why.setdefault(others(name), []).append(repr(name))
        _warn_once(f"{str(path)!r}: {len(unread)} file(s) not read: " + "; ".join(
            f"{len(names)} {why}: {_some(names)}" for why, names in sorted(by_why.items())))
    if odd:
        named = shown.replace("*", "")
        _warn_once(f"{str(path)!r}: {len(odd)} entr{'y' if len(odd) == 1 else 'ies'} ending in {named} "
                   f"not read, not a readable file: {_some([f'{name!r} ({why})' for name, why in odd])}")
    if below:
        hint = ("give each subfolder as an input of its own" if recursive is None else
                "--recursive (tag) or the reader option recursive=true reads them")
        _warn_once(f"{str(path)!r}: {len(below)} {shown} file(s) in subfolders not read "
                   f"({_some(sorted({repr(b.partition('/')[0] + '/') for b in below}))}); {hint}")
    NOT_READ[str(path)] = len(unread or ()) + len(odd) + len(below)
    if not files:
        more = f" ({len(unread)} other file(s), named above)" if unread else ""
        raise InputError(f"no {shown} files in this folder{more}", path=path)
    return sorted(files, key=lambda f: f.relative_to(path).parts)


def _walk(root: Path, folder: Path, suffix: tuple[str, ...], recursive: bool, files: list, odd: list,
          below: list, unread: list | None = None, seen: set | None = None) -> None:
    """Fill ``files`` (readable files ending in ``suffix``), ``odd`` (entries so named that are
    not, and links to folders not followed, as ``relative path (why)``) and ``below`` (files of
    subfolders not read), ``unread`` (other files of the folders read, when a list). ``seen``:
    the folders read so far (device and inode): a link to a folder is followed once, a link back
    to one already read (a loop) is named."""
    if seen is None:
        seen = set()
    try:
        st_folder = os.stat(folder)
        seen.add((st_folder.st_dev, st_folder.st_ino))
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        odd.append((f"{_rel(root, folder)}/", f"a folder that cannot be listed: {exc.strerror}"))
        return
    for entry in entries:
        p = Path(entry.path)
        st: os.stat_result | OSError | None = None
        try:
            is_dir, is_file = entry.is_dir(), entry.is_file()
            st = None if is_dir or is_file else os.stat(entry.path)
        except OSError as exc:  # ELOOP: a link loop; ENOENT: a dangling link
            st, is_dir, is_file = exc, False, False
        if is_dir:
            if entry.is_symlink() and recursive:
                target = os.stat(entry.path)
                if (target.st_dev, target.st_ino) in seen:
                    odd.append((f"{_rel(root, p)}/", "a link to a folder already read (a loop or a second "
                                                      "way to it), not followed again"))
                else:
                    _walk(root, p, suffix, recursive, files, odd, below, unread, seen)
            elif entry.is_symlink():
                if p.suffix.lower() in suffix:
                    odd.append((_rel(root, p), "a link to a folder, not followed"))
                else:
                    _below(root, p, suffix, below, unread)
            elif recursive:
                _walk(root, p, suffix, recursive, files, odd, below, unread, seen)
            else:
                _below(root, p, suffix, below, unread)
        elif p.suffix.lower() not in suffix:
            if unread is not None and (is_file or st is not None) and not is_own(p):
                unread.append(_rel(root, p))
            continue
        elif is_file:
            if not is_own(p):  # crfdeid's run manifest (its name and marker) is no note
                files.append(p)
        else:
            odd.append((_rel(root, p), _kind(st)))


def _below(root: Path, folder: Path, suffix: tuple[str, ...], below: list, unread: list | None) -> None:
    """The files of a subfolder not read: those so named in ``below`` (``--recursive`` reads them),
    the others in ``unread`` when it is a list (no option would read them)."""
    for d, _, names in os.walk(folder):
        for n in names:
            if n.lower().endswith(suffix):
                below.append(_rel(root, Path(d, n)))
            elif unread is not None and not is_own(Path(d, n)):
                unread.append(_rel(root, Path(d, n)))


def _kind(st) -> str:
    """What an entry that is not a readable file is (from its ``stat`` result or error)."""
    if isinstance(st, OSError):
        return {errno.ELOOP: "a link loop", errno.ENOENT: "a dangling link"}.get(
            st.errno or 0, f"cannot be read: {st.strerror}")
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device")):
        if test(st.st_mode):
            return name
    return "not a regular file"


def _rel(root: Path, p: Path) -> str:
    return p.relative_to(root).as_posix()


def _some(names: list[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


#: Files and entries of each folder listed in this process that are not read (named in warnings).
NOT_READ: dict[str, int] = {}


def new_run() -> None:
    """Forget the folders listed and the warnings said so far: a command that runs again in the
    same process (``cli.main`` called twice) names its own files again."""
    NOT_READ.clear()
    _WARNED.clear()


def not_read_summary() -> str | None:
    """One line for a run's summary: how many files of the folders listed were not read, or None.

    >>> NOT_READ.clear(); NOT_READ.update({"notes": 2, "more": 0}); not_read_summary()
    "2 file(s) of the input folders not read: named above, with why ('notes' 2)"
    >>> NOT_READ.clear()
    """
    folders = {k: n for k, n in NOT_READ.items() if n}
    if not folders:
        return None
    return (f"{sum(folders.values())} file(s) of the input folders not read: named above, with why ("
            + ", ".join(f"{k!r} {n}" for k, n in sorted(folders.items())) + ")")


#: The warnings said in this process (an input is listed twice when a run checks its outputs first).
_WARNED: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        warn(message)
