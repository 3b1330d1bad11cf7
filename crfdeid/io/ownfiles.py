"""crfdeid's own files in a folder of notes: the run manifest ``tag`` writes into its output
folder (:mod:`crfdeid.io.runmanifest`), told apart from a note by its marker, not its name alone.

A file is crfdeid's own when it has the run manifest's name *and* crfdeid's marker: an
extended attribute set when it was written (:data:`OWN_MARK`) or, where the file system keeps
none (or a copy dropped it), a first line that opens a run manifest (``{"format":
"crfdeid-run/...``). A user's file that merely has the name is no such file: it is read as any
other input and never replaced.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: The run manifest's file name in an output folder.
RUN_MANIFEST = "crfdeid-run.manifest"
#: Its format, the first key of its JSON.
FORMAT = "crfdeid-run/1"
#: The extended attribute that marks a file as crfdeid's own (its value: what the file is).
OWN_MARK = "user.crfdeid.own"
_HEAD = re.compile(rb'\A\{\s*"format":\s*"crfdeid-run/')


def mark_own(path, what: str = "run-manifest") -> None:
    """Mark ``path`` as crfdeid's own file (where the file system keeps extended attributes)."""
    try:
        os.setxattr(path, OWN_MARK, what.encode(), follow_symlinks=False)
    except (OSError, AttributeError):  # no xattrs here (or not Linux): the first line still tells
        pass


def is_own(path) -> bool:
    """Whether ``path`` is crfdeid's own file (a run manifest: its name and its marker).

    >>> is_own("notes/crfdeid-run.manifest.txt")
    False
    """
    path = Path(path)
    if path.name != RUN_MANIFEST or path.is_symlink() or not path.is_file():
        return False
    try:
        if os.getxattr(path, OWN_MARK, follow_symlinks=False) == b"run-manifest":
            return True
    except (OSError, AttributeError):
        pass
    try:
        with open(path, "rb") as f:
            return bool(_HEAD.match(f.read(64)))
    except OSError:
        return False
