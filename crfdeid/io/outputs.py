"""Writing documents: output checks and the two bases every writer builds on.

Nothing a user gives crfdeid is overwritten, and nothing is written twice:

* :func:`check_output` refuses an output that is, lies inside or contains an input
  (symbolic links resolved), or that cannot be made, before anything is written;
* a writer writes each document once: a second document whose file name folds to
  the same name (``a.TXT``/``a.txt``, ``x/y``/``x_y``) or that repeats a document id
  is refused with an :class:`~crfdeid.errors.OutputError` naming both documents;
* a file that exists before the run is replaced only with ``overwrite=True``;
* files go through :func:`~crfdeid.io.files.atomic_write` and private temporary
  files that are removed on every way out.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from pathlib import Path, PurePosixPath

from ..document import Document
from ..errors import CrfdeidError, OutputError, describe
from .files import (
    EXISTS,
    anonymous_temp_file,
    atomic_write,
    is_stdio,
    name_temp_file,
    new_temp_file,
    publish,
    track_temp,
    untrack_temp,
    write_all,
)
from .outchecks import check_apart as check_apart
from .outchecks import check_output as check_output
from .outchecks import make_folder


def source_of(doc: Document) -> str:
    """Where a document was read from, for messages: ``file 'a.jsonl' line 3``, never text."""
    meta = doc.meta
    parts = [f"file {str(meta['source'])!r}"] if meta.get("source") else []
    for key in ("record", "row", "line"):
        if meta.get(key) is not None:
            parts.append(f"{key} {meta[key]}")
    return " ".join(parts) or "its input"


def file_key(name: str) -> str:
    """A file name as a case-insensitive, normalising file system sees it (``A.TXT`` = ``a.txt``)."""
    return unicodedata.normalize("NFC", name).casefold()


def file_name(doc_id: str) -> str:
    """The file stem of a document id: path separators and control characters become ``_``."""
    if not doc_id:
        raise OutputError("an empty document id cannot name a file", doc_id=doc_id)
    return "".join("_" if c in "/\\" or ord(c) < 32 else c for c in doc_id)


def given_file(doc: Document) -> str | None:
    """The path relative to its input folder a document was read from (``meta["file"]``, set by
    the folder readers: ``sub/P4.TXT``), when it is a safe relative path; else None.

    >>> given_file(Document("n", "", meta={"file": "sub/P4.TXT"})), given_file(Document("n", "", meta={"file": "../x"}))
    ('sub/P4.TXT', None)
    """
    name = doc.meta.get("file")
    if not isinstance(name, str) or not name or "\\" in name or any(ord(c) < 32 for c in name):
        return None
    parts = PurePosixPath(name).parts
    if name.startswith("/") or any(p in ("", ".", "..") or p.startswith(".tmp-") for p in parts):
        return None
    return name


def stdout_header(doc: Document) -> str:
    """The line before each note when several go to standard output: ``==> ID <==`` (as
    ``head`` and ``tail`` name their files), control characters of the id as ``_``."""
    return "==> " + "".join("_" if ord(c) < 32 else c for c in doc.doc_id) + " <==\n"


class _Once:
    """The document ids and file names a writer has used, so that none is used twice."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.names: dict[str, tuple[str, str]] = {}

    def check(self, doc: Document, names=()) -> None:
        if doc.doc_id in self.ids:
            raise OutputError(f"document id repeated ({source_of(doc)}); the document of "
                              f"{self.ids[doc.doc_id]} was written under it and is kept",
                              doc_id=doc.doc_id)
        for name in names:
            other = self.names.get(file_key(name))
            if other is not None:
                raise OutputError(f"its file name {name!r} is taken by document {other[0]!r} "
                                  f"({other[1]}) in this run; not written ({source_of(doc)})",
                                  doc_id=doc.doc_id)

    def add(self, doc: Document, names=()) -> None:
        self.ids[doc.doc_id] = source_of(doc)
        for name in names:
            self.names[file_key(name)] = (doc.doc_id, source_of(doc))


class FolderWriter:
    """Base for writers that write one file per document into a folder.

    With ``out='-'`` the rendered files of each document go to standard output
    instead, one after another in the order :meth:`render` gives them.
    ``overwrite`` (set by :func:`crfdeid.io.writer`) lets a file that existed before
    the run be replaced; a file written earlier in the same run never is.
    """

    suffix = ".txt"
    overwrite = False

    def __init__(self, out, **options):
        self.to_stdout = is_stdio(out)
        self.out = None if self.to_stdout else Path(out)
        self.options = options
        self._once = _Once()
        self._shown, self._held = 0, None  # on standard output: notes written; the first, held back
        if self.out is not None:
            make_folder(self.out)

    def render(self, doc: Document) -> str | dict:
        raise NotImplementedError

    def path_for(self, doc: Document, suffix: str | None = None) -> Path:
        """The file of ``doc``: the name it was read under (:func:`given_file`, its subfolder
        and the case of its suffix kept when it is the writer's), else its id's."""
        suffix = suffix or self.suffix
        given = given_file(doc)
        if given is None:
            return self.out / f"{file_name(doc.doc_id)}{suffix}"
        stem, dot, ext = given.rpartition(".")
        if not dot or "/" in ext:
            stem, ext = given, ""
        return self.out / (given if f".{ext}".lower() == suffix.lower() else f"{stem}{suffix}")

    def suffixes(self) -> tuple[str, ...]:
        """The suffixes of the files :meth:`render` gives each document (one file: :attr:`suffix`)."""
        return (self.suffix,)

    def existing(self, doc: Document) -> list[Path]:
        """The files :meth:`write` would make for ``doc`` that exist already and would be refused
        (none on standard output or with ``overwrite``); known before ``doc`` is tagged, so that
        a re-run into the same folder is refused before any note is tagged."""
        if self.to_stdout or self.overwrite:
            return []
        return [p for p in (self.path_for(doc, s) for s in self.suffixes()) if os.path.lexists(p)]

    def write(self, doc: Document) -> None:
        rendered = self.render(doc)  # render fully before touching the disk
        files = rendered if isinstance(rendered, dict) else {self.suffix: rendered}
        if self.to_stdout:
            self._once.check(doc)
            self._to_stdout(doc, list(files.values()))
            self._once.add(doc)
            return
        paths = [self.path_for(doc, suffix) for suffix in files]
        self._once.check(doc, [p.relative_to(self.out).as_posix() for p in paths])
        if not self.overwrite:  # all or none of a document's files
            for p in paths:
                if os.path.lexists(p):
                    raise OutputError(EXISTS, path=p, doc_id=doc.doc_id)
        written = []
        try:
            for p, data in zip(paths, files.values()):
                atomic_write(p, data, overwrite=self.overwrite)
                written.append(p)
        except BaseException:
            # Half a document is worse than none: a BRAT .txt without its .ann reads as "no PHI".
            for p in written:
                p.unlink(missing_ok=True)
            raise
        self._once.add(doc, [p.relative_to(self.out).as_posix() for p in paths])

    def _to_stdout(self, doc: Document, data: list) -> None:
        """One note alone is written as it is; with several, each starts with its
        :func:`stdout_header` line (so the first waits for the second, or the close)."""
        self._shown += 1
        if self._shown == 1:
            self._held = (doc, data)
            return
        for note, parts in ([self._held] if self._held else []) + [(doc, data)]:
            _stdout_write(stdout_header(note))
            for part in parts:
                _stdout_write(part)
            if parts and not parts[-1].endswith("\n" if isinstance(parts[-1], str) else b"\n"):
                _stdout_write("\n")
        self._held = None

    def close(self) -> None:
        if self.to_stdout:
            for part in self._held[1] if self._held else ():
                _stdout_write(part)
            self._held = None
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
    private temporary file beside it and renamed on a clean :meth:`close`: an
    exception, a signal or a failed write (disk full) removes the temporary file,
    so an interrupted run leaves neither a partial output nor note text behind. Where
    the system allows (Linux ``O_TMPFILE``) that file has no name until it is complete,
    so even ``SIGKILL`` leaves nothing on disk.
    After a failed write every later :meth:`write` fails too (the stream may hold
    half a document) and nothing is renamed. Each document is rendered whole
    before any of it is written.
    """

    overwrite = False

    def __init__(self, out, **options):
        self.options = options
        self.to_stdout = is_stdio(out)
        self.path = None if self.to_stdout else Path(out)
        self._fd = self._tmp = None
        self._failed = None
        self._closed = False
        self._once = _Once()
        if self.path is not None:
            make_folder(self.path.parent)
        self.count = 0

    def render(self, doc: Document) -> str:
        raise NotImplementedError

    def header(self) -> str:
        return ""

    def _open(self) -> None:
        # without a name where the system allows (a killed run leaves nothing on disk), else
        # named after the output and this process: two runs writing the same file never share
        # one, and the next run knows a killed run's (clear_stale_temps)
        self._fd = anonymous_temp_file(self.path)
        if self._fd is None:
            self._fd, self._tmp = new_temp_file(self.path)
            track_temp(self._tmp)

    def _emit(self, data: str) -> None:
        if self.to_stdout:
            sys.stdout.write(data)
            return
        if self._fd is None:
            self._open()
        write_all(self._fd, data.encode("utf-8"))

    def write(self, doc: Document) -> None:
        if self._failed is not None:
            raise OutputError(f"not written: writing failed earlier ({self._failed}); the output "
                              "file will not be made", path=self.path, doc_id=doc.doc_id)
        self._once.check(doc)
        data = self.render(doc)
        if self.count == 0:
            data = self.header() + data
        try:
            self._emit(data)
        except OSError as exc:
            self._failed = exc.strerror or type(exc).__name__
            self._discard()
            raise OutputError(f"cannot write ({self._failed}); the output file will not be made",
                              path=self.path, doc_id=doc.doc_id) from None
        self._once.add(doc)
        self.count += 1

    def _discard(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None
        if self._tmp is not None:
            untrack_temp(self._tmp)
            if os.path.lexists(self._tmp):
                os.unlink(self._tmp)
            self._tmp = None

    def close(self, ok: bool = True) -> None:
        if self.to_stdout:
            if self.count == 0:
                sys.stdout.write(self.header())
            sys.stdout.flush()
            return
        if self._closed:
            return
        self._closed = True
        try:
            if not ok or self._failed is not None:
                return
            if self.count == 0:
                self._emit(self.header())
            if self._fd is None:  # an empty header: still make the (empty) file
                self._open()
            os.fsync(self._fd)
            if self._tmp is None:  # complete: now it gets a name, then the output's
                self._tmp = name_temp_file(self._fd, self.path)
            os.close(self._fd)
            self._fd = None
            publish(self._tmp, self.path, self.overwrite)
        finally:
            self._discard()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        self.close(ok=exc_type is None)
        return False


def write_document(out, doc: Document) -> str | None:
    """Write ``doc`` with the open writer ``out``; on failure a message naming the document
    (a writer's own exception text could quote the note, so only its type is kept)."""
    try:
        out.write(doc)
    except CrfdeidError as exc:
        return str(exc)
    except OSError as exc:
        return f"document {doc.doc_id!r}: cannot write output ({exc.strerror})"
    except Exception as exc:  # a missing module is named: it says what to install
        return f"document {doc.doc_id!r}: writing failed ({describe(exc)})"
    return None


def write_documents(out, docs, errors: list) -> int:
    """Write ``docs`` with the writer ``out`` (entered and closed here); how many were written.

    A document that cannot be written (:func:`write_document`'s message) or a failed closing step
    (an :class:`~crfdeid.errors.OutputError`: a file's rename, a mapping) is added to ``errors``;
    after a failed close a :class:`StreamWriter`'s one file is not made, so none was written.
    """
    written = 0
    try:
        with out:
            for doc in docs:
                err = write_document(out, doc)  # e.g. a character i2b2 XML cannot carry
                if err is None:
                    written += 1
                else:
                    errors.append(err)
    except OutputError as exc:
        errors.append(exc)
        return 0 if isinstance(out, StreamWriter) else written
    return written
