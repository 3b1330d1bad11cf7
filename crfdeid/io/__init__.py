"""Readers and writers, registered by format name; every CLI takes ``FORMAT:PATH``.

A reader is a function ``reader(path, report, **options)`` yielding
:class:`~crfdeid.document.Document` objects. When one document cannot be read
it calls ``report(error)`` and goes on with the next: :func:`read` decides
whether that raises (the default) or collects the error, so a bad file never
silently disappears and never stops the others.

A writer is a class ``Writer(out, **options)`` with ``write(doc)`` and
``close()`` (a context manager). :class:`FolderWriter` writes one file per
document atomically (temporary file, then rename), so a failed document leaves
no partial file; :class:`StreamWriter` writes every document to one file that
appears only on a clean close. Both take ``out='-'`` for standard output.

Built-in formats: ``i2b2``, ``physionet`` (read only), ``brat``, ``text``,
``jsonl``, ``csv``. Modules listed in :data:`PLUGINS` (``crfdeid.synth``,
``crfdeid.deid.writers``) are imported the first time an unknown name is asked
for, so their formats need no import by the caller.

>>> parse_spec("i2b2:/data/test")
('i2b2', '/data/test')
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..document import Document
from ..errors import CrfdeidError, ReaderError
from ..registry import Registry

READERS = Registry("reader")
WRITERS = Registry("writer")

#: Modules that register more readers/writers, imported on first need so that
#: ``crfdeid.io`` does not depend on them (they may also be absent).
PLUGINS = {"reader": ("crfdeid.synth",), "writer": ("crfdeid.deid.writers",)}


def _load_plugins(kind: str) -> None:
    for name in PLUGINS[kind]:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only the plugin itself may be missing; a broken plugin must say so.
            if exc.name is None or not name.startswith(exc.name):
                raise


def reader_names() -> list[str]:
    """Names of every reader, plugins included."""
    _load_plugins("reader")
    return READERS.names()


def writer_names() -> list[str]:
    """Names of every writer, plugins included (``redacted``... once :mod:`crfdeid.deid` exists)."""
    _load_plugins("writer")
    return WRITERS.names()


def parse_spec(spec: str, default: str | None = None) -> tuple[str, str]:
    """Split ``FORMAT:PATH`` into its parts; a bare path takes ``default``.

    A one-letter prefix (``C:\\notes``) is read as a Windows drive, not a format.
    """
    fmt, sep, path = spec.partition(":")
    if sep and len(fmt) > 1 and fmt.isidentifier():
        return fmt, path
    if default is None:
        raise ReaderError(f"input {spec!r} has no format; write FORMAT:PATH with FORMAT one of "
                          f"{', '.join(READERS.names())}")
    return default, spec


def read(spec: str, *, errors: list | None = None, default_format: str | None = None,
         **options) -> Iterator[Document]:
    """Yield the documents named by ``FORMAT:PATH``.

    Parameters
    ----------
    spec : str
        ``FORMAT:PATH``, e.g. ``physionet:../shared/corpora/physionet-dev``.
    errors : list, optional
        Where to collect per-document :class:`~crfdeid.errors.CrfdeidError`\\ s
        and go on; when omitted the first error is raised.
    **options
        Passed to the reader (e.g. ``label_map`` for ``brat``).
    """
    fmt, path = parse_spec(spec, default_format)
    if fmt not in READERS:
        _load_plugins("reader")
    reader = READERS.get(fmt)
    yield from reader(path, _reporter(errors), **options)


def read_all(specs: Iterable[str], **kwargs) -> list[Document]:
    """All documents of several ``FORMAT:PATH`` inputs, as a list."""
    return [doc for spec in specs for doc in read(spec, **kwargs)]


def _reporter(errors: list | None) -> Callable[[Exception], None]:
    def report(err: Exception) -> None:
        if errors is None or not isinstance(err, CrfdeidError):
            raise err
        errors.append(err)
    return report


def writer(fmt: str, out, **options):
    """Open the writer registered as ``fmt`` on ``out`` (a folder, a file or ``'-'``).

    A name not registered yet makes :data:`PLUGINS` load (``redacted``, ``masked``,
    ``surrogate`` live in :mod:`crfdeid.deid.writers`); an unknown name raises
    :class:`~crfdeid.errors.RegistryError` listing the known writers.
    """
    if fmt not in WRITERS:
        _load_plugins("writer")
    return WRITERS.get(fmt)(out, **options)


def write(docs: Iterable[Document], fmt: str, out, **options) -> int:
    """Write ``docs`` with the writer ``fmt``; return how many were written."""
    n = 0
    with writer(fmt, out, **options) as w:
        for doc in docs:
            w.write(doc)
            n += 1
    return n


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write ``data`` (``str``: as UTF-8) to ``path`` through a temporary file and a rename.

    The temporary file is new (``O_EXCL``), private (mode 0600) and next to ``path``;
    folders are made when missing. Nothing is left behind when the write fails.
    """
    path = Path(path)
    data = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = _new_temp_file(path)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _new_temp_file(path)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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


def read_text_file(path: Path, report, doc_id=None) -> str | None:
    """A file's UTF-8 text (BOM removed), or ``None`` after reporting why it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        report(ReaderError(f"cannot read: {exc.strerror}", path=path, doc_id=doc_id))
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report(ReaderError(f"not valid UTF-8 ({exc.reason})", path=path, doc_id=doc_id,
                           offset=exc.start))
        return None


def list_files(path, suffix: str, report) -> list[Path]:
    """Files ending in ``suffix`` in a folder (sorted by name), or the one file named.

    Reports a :class:`~crfdeid.errors.ReaderError` (and returns ``[]``) when
    ``path`` does not exist.
    """
    path = Path(path)
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix.lower() == suffix and p.is_file())
    if path.exists():
        return [path]
    report(ReaderError("no such file or folder", path=path))
    return []


def is_stdio(path) -> bool:
    """Whether ``path`` names standard input/output (``'-'``)."""
    return str(path) == "-"


class FolderWriter:
    """Base for writers that write one file per document into a folder.

    With ``out='-'`` the rendered files of each document go to standard output
    instead, one after another in the order :meth:`render` gives them.
    """

    suffix = ".txt"

    def __init__(self, out, **options):
        self.to_stdout = is_stdio(out)
        self.out = None if self.to_stdout else Path(out)
        self.options = options
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)

    def render(self, doc: Document) -> str | dict:
        raise NotImplementedError

    def path_for(self, doc: Document, suffix: str | None = None) -> Path:
        name = doc.doc_id.replace("/", "_").replace("\\", "_")
        return self.out / f"{name}{suffix or self.suffix}"

    def write(self, doc: Document) -> None:
        rendered = self.render(doc)  # render fully before touching the disk
        files = rendered if isinstance(rendered, dict) else {self.suffix: rendered}
        if self.to_stdout:
            for data in files.values():
                _stdout_write(data)
            return
        for suffix, data in files.items():
            atomic_write(self.path_for(doc, suffix), data)

    def close(self) -> None:
        if self.to_stdout:
            sys.stdout.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _stdout_write(data: str | bytes) -> None:
    if isinstance(data, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data)


class StreamWriter:
    """Base for writers of one stream holding every document (``jsonl``, ``csv``...).

    ``out`` is a file path or ``'-'`` for standard output. A file is written to a
    temporary name and renamed on a clean :meth:`close`, so an interrupted run
    leaves no partial file; each document is rendered whole before any of it is
    written.
    """

    def __init__(self, out, **options):
        self.options = options
        self.to_stdout = is_stdio(out)
        self.path = None if self.to_stdout else Path(out)
        self._fh = self._tmp = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, self._tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.path.parent)
            self._fh = os.fdopen(fd, "w", encoding="utf-8", newline="")
        self.count = 0

    def render(self, doc: Document) -> str:
        raise NotImplementedError

    def header(self) -> str:
        return ""

    def write(self, doc: Document) -> None:
        data = self.render(doc)
        if self.count == 0:
            data = self.header() + data
        (sys.stdout if self.to_stdout else self._fh).write(data)
        self.count += 1

    def close(self, ok: bool = True) -> None:
        if self.to_stdout:
            if self.count == 0:
                sys.stdout.write(self.header())
            sys.stdout.flush()
            return
        if self._fh is None:
            return
        if ok and self.count == 0:
            self._fh.write(self.header())
        self._fh.close()
        self._fh = None
        if ok:
            os.replace(self._tmp, self.path)
        else:
            Path(self._tmp).unlink(missing_ok=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        self.close(ok=exc_type is None)
        return False


# Register the built-in formats.
from . import brat, i2b2, jsonl, physionet, table, text  # noqa: E402,F401
