"""The run manifest ``tag --output-dir`` writes into its output folder (unless ``--no-run-manifest``): how
the output was made and each file's digest, so that an audit can tell it is auditing this output
and re-make it.

``crfdeid-run.manifest`` (JSON, under a suffix no reader takes for a note, and marked as
crfdeid's own: :mod:`crfdeid.io.ownfiles`, so a folder read never takes it for a note) holds
the command's arguments (a ``--key`` value withheld), the working folder, the SHA-256 of every
file the arguments name (model, site files, inputs given as files; not a key file) and of
every file of the output folder. No note text, no PHI: file names are the notes' own names, as
in the output folder itself.

A run writes it twice: marked ``"complete": false`` before the first note is tagged (a run
killed part way leaves that), and once the run ends, ``"complete": true`` only when every
document was written. :func:`read` refuses an incomplete one by name.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from ..errors import ConfigError, OutputError
from .files import atomic_write
from .ownfiles import FORMAT, RUN_MANIFEST, is_own, mark_own

__all__ = ["FORMAT", "RUN_MANIFEST", "compare", "notes_only", "output_files", "read", "start", "write"]
#: Options whose value is a secret (withheld) or names a secret's file (no digest).
SECRET, SECRET_FILE = ("--key",), ("--key-file",)
WITHHELD = "(withheld)"


def sha256_file(path: str | Path) -> str:
    """The SHA-256 of a file, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def output_files(folder) -> dict[str, str]:
    """``{path relative to the folder: SHA-256}`` of every file of an output folder (the run
    manifest itself left out)."""
    folder = Path(folder)
    out = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            rel = path.relative_to(folder).as_posix()
            if rel != RUN_MANIFEST:
                out[rel] = sha256_file(path)
    return dict(sorted(out.items()))


def withheld(argv: list[str]) -> list[str]:
    """``argv`` with the value of every secret option replaced by :data:`WITHHELD`.

    >>> withheld(["--key", "s3cret", "--key=s3cret", "--seed", "1"])
    ['--key', '(withheld)', '--key=(withheld)', '--seed', '1']
    """
    out: list[str] = []
    hide = False
    for a in argv:
        if hide:
            out.append(WITHHELD)
            hide = False
        elif a in SECRET:
            out.append(a)
            hide = True
        elif a.split("=", 1)[0] in SECRET and "=" in a:
            out.append(a.split("=", 1)[0] + "=" + WITHHELD)
        else:
            out.append(a)
    return out


def named_files(argv: list[str]) -> dict[str, str]:
    """``{argument: SHA-256}`` of every argument that names a file (``KIND=FILE`` and
    ``FORMAT:FILE`` read as the file), except a key file."""
    out = {}
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in SECRET_FILE or a in SECRET:
            skip = True
            continue
        if a.startswith("-"):
            continue
        for candidate in (a, a.partition("=")[2], a.partition(":")[2]):
            if candidate and Path(candidate).is_file():
                out[a] = sha256_file(Path(candidate))
                break
    return out


def notes_only(names) -> list:
    """``names`` (file names or paths of an output folder) without crfdeid's own files: what
    the run wrote of the notes.

    >>> notes_only(["a.txt", "crfdeid-run.manifest", "sub/b.txt"])
    ['a.txt', 'sub/b.txt']
    """
    return [n for n in names if Path(n).name != RUN_MANIFEST]


def start(folder, argv: list[str], model_path, output_format: str) -> dict:
    """Write the run manifest of a run about to tag into ``folder``, marked incomplete (what a
    run killed part way leaves). A file of the manifest's name that is not crfdeid's own
    (:func:`crfdeid.io.ownfiles.is_own`) is never replaced.

    Raises
    ------
    OutputError
        ``folder`` holds a file named like the run manifest that crfdeid did not write.
    """
    path = Path(folder) / RUN_MANIFEST
    if os.path.lexists(path) and not is_own(path):
        raise OutputError("a file of this name that crfdeid did not write is in the output folder; not replaced "
                          "(move it, or tag with --no-run-manifest)", path=path)
    return write(folder, argv, model_path, output_format, complete=False)


def write(folder, argv: list[str], model_path, output_format: str, complete: bool = True, failed: int = 0) -> dict:
    """Write the run manifest of a run into its output ``folder`` (``complete``: every
    document was written; else ``failed`` documents failed or the run did not finish); returns it."""
    model_sha256 = sha256_file(Path(model_path))
    folder = Path(folder)
    manifest = {"format": FORMAT, "complete": complete, "failed": failed,
                "written": datetime.now(UTC).isoformat(timespec="seconds"),
                "argv": withheld(list(argv)), "cwd": os.getcwd(), "output_format": output_format,
                "model_sha256": model_sha256, "named_files": named_files(list(argv)),
                "files": output_files(folder)}
    atomic_write(folder / RUN_MANIFEST, json.dumps(manifest, indent=1) + "\n")
    mark_own(folder / RUN_MANIFEST)
    return manifest


def read_manifest(folder, name: str, fmt: str, missing: str, what: str) -> dict:
    """The JSON object of the file ``name`` in ``folder`` whose ``format`` is ``fmt`` (a run's, an audit's
    manifest). :class:`ConfigError` naming ``folder`` with the message ``missing`` when the file cannot be
    read, naming the file when it is no valid JSON (``what`` is its name in the message) or no object of
    that format."""
    path = Path(folder) / name
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise ConfigError(missing, path=folder) from None
    except ValueError:
        raise ConfigError(f"{what} is not valid JSON", path=path) from None
    if not isinstance(manifest, dict) or manifest.get("format") != fmt:
        raise ConfigError(f"not a {fmt} manifest", path=path)
    return manifest


def read(folder) -> dict:
    """The run manifest of an output folder."""
    manifest = read_manifest(folder, RUN_MANIFEST, FORMAT, f"no run manifest ({RUN_MANIFEST}): write the output "
                             "with `crfdeid tag --output-dir DIR` (without --no-run-manifest)", "the run manifest")
    path = Path(folder) / RUN_MANIFEST
    if manifest.get("complete") is not True:  # a manifest of before 2026-11-25 has no key: a finished run's
        if "complete" in manifest:
            why = (f"{manifest.get('failed')} document(s) failed" if manifest.get("failed") else
                   "the run did not finish (killed or stopped)")
            raise ConfigError(f"the run manifest is marked incomplete: {why}; the output is partial, not a "
                              "release (tag again until every document is written)", path=path)
    return manifest


def compare(recorded: dict[str, str], now: dict[str, str]) -> list[tuple[str, str]]:
    """``[(file, what)]``: files of ``now`` that differ from, lack in or add to ``recorded``.

    >>> compare({"a.txt": "1", "b.txt": "2"}, {"a.txt": "1", "b.txt": "3", "c.txt": "4"})
    [('b.txt', 'differs'), ('c.txt', 'is not in the run manifest')]
    """
    out = [(f, "differs") for f in sorted(set(recorded) & set(now)) if recorded[f] != now[f]]
    out += [(f, "is missing") for f in sorted(set(recorded) - set(now))]
    out += [(f, "is not in the run manifest") for f in sorted(set(now) - set(recorded))]
    return out
