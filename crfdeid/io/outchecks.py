"""Output checks made before anything is written: nothing a user gives crfdeid is overwritten.

:func:`check_output` refuses an output that is, lies inside or contains an input (symbolic
links resolved, links inside an input folder too), or that cannot be made; :func:`check_apart`
does the same for a log; :func:`make_folder` makes an output folder and checks it is writable.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import OutputError
from .files import EXISTS, clear_stale_temps, is_stdio


def _resolved(path) -> Path:
    return Path(path).resolve()


def check_output(out, inputs=(), overwrite: bool = True, stream: bool = False) -> None:
    """Refuse an output that would overwrite an input, before anything is written.

    Parameters
    ----------
    out : path or '-'
        The output folder (or, with ``stream``, the output file).
    inputs : iterable of paths
        Input files or folders (``'-'`` and paths that do not exist are skipped).
    overwrite : bool
        With ``stream``, whether an existing output file may be replaced.

    Raises
    ------
    OutputError
        ``out`` is an input, lies inside one or contains one (links resolved); a
        folder output is a file; a stream output is a folder, or exists without
        ``overwrite``.
    """
    if is_stdio(out):
        return
    target = _resolved(out)
    clash = _clash(target, inputs)
    if clash:
        raise OutputError(f"the output {clash}; writing there could overwrite the originals: choose "
                          "another output", path=out)
    if stream:
        if target.is_dir():
            raise OutputError("the output file is a folder", path=out)
        if target.exists() and not overwrite:
            raise OutputError(EXISTS, path=out)
    elif target.exists() and not target.is_dir():
        raise OutputError("the output folder is a file", path=out)
    _check_creatable(target.parent if stream else target, out)


def _clash(target: Path, paths, noun: str = "input") -> str | None:
    """How the resolved path ``target`` meets one of ``paths`` (``is the input 'a'``, ``lies
    inside``, ``contains``; links resolved, a link inside a folder too), else None."""
    for inp in paths:
        if is_stdio(inp) or (noun == "input" and not os.path.exists(inp)):
            continue  # an output is checked before it is made
        for source, link in _sources(inp):
            if target == source:
                why = "is"
            elif source in target.parents:
                why = "lies inside"
            elif target in source.parents:
                why = "contains"
            else:
                continue
            via = f" (through the link {str(link)!r})" if link else ""
            return f"{why} the {noun} {str(inp)!r}{via}"
    return None


def _sources(inp):
    """``(resolved path, link)`` of a path and of every link inside it when it is a folder (a
    link in an input folder to a file in the output folder is read, then overwritten)."""
    yield _resolved(inp), None
    if not os.path.isdir(inp):
        return
    for folder, dirs, files in os.walk(inp):
        for name in dirs + files:
            path = os.path.join(folder, name)
            if os.path.islink(path) and os.path.exists(path):
                yield _resolved(path), path


def check_apart(path, inputs=(), outputs=(), what: str = "log") -> None:
    """Refuse a file the run writes beside its output (``--log``) that is, lies in or contains
    an input or an output (links resolved as :func:`check_output` does): it would append to a
    note, or land among the outputs.

    Raises
    ------
    OutputError
        Naming the input or output it meets.
    """
    if path is None or is_stdio(path):
        return
    target = _resolved(path)
    clash = _clash(target, inputs) or _clash(target, [o for o in outputs if o is not None], "output")
    if clash:
        raise OutputError(f"the {what} file {clash}: choose another {what} file", path=path)


def _check_creatable(folder: Path, out) -> None:
    """Refuse a folder that cannot be made or written: its nearest existing ancestor decides."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"cannot be made: {str(existing)!r} is a file", path=out)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"cannot be written: no permission in {str(existing)!r}", path=out)


def make_folder(path: Path) -> None:
    """Make the output folder ``path`` (and its parents); :class:`OutputError` when it cannot be.

    Temporary files a killed run left there are removed, others named on stderr
    (:func:`~crfdeid.io.files.clear_stale_temps`)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError("the output folder is a file", path=path) from None
    except OSError as exc:
        raise OutputError(f"cannot make the output folder ({exc.strerror})", path=path) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError("the output folder is not writable", path=path)
    for warning in clear_stale_temps(path):
        print(f"warning: {warning}", file=sys.stderr)
