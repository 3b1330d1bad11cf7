"""Plain text, unannotated: one document per ``.txt`` file.

The reader takes a folder (every ``*.txt`` in it, and the Word ``.docx`` and ``.rtf`` letters
beside them, sorted by name; every other file named in a warning with why it is not read), a
single file, or ``-`` for standard input (document id ``stdin``). A letter is read as text
(:mod:`crfdeid.io.letters`) and written back as ``NAME.txt``. The document id is
the file stem. Files are read as UTF-8, as the encoding their byte-order mark names
(UTF-16, UTF-32), or as the ``encoding`` option says (:mod:`crfdeid.io.files`), with line
endings kept as they are; a byte-order mark at the start is part of the text (U+FEFF), as
BRAT counts it, so offsets agree with the file, and the writer writes it back (in UTF-8).

The writer writes ``<doc_id>.txt`` into a folder; with ``out='-'`` it writes
each document's text to standard output, adding a newline after a text that
does not end with one so that consecutive documents do not run together (use
``jsonl`` for a stream that reads back exactly).
"""

from __future__ import annotations

import sys

from ..document import Document
from ..errors import InputError, ReaderError
from .encoding import max_input_bytes
from .files import check_encoding, decode, file_id, is_stdio, list_files, read_text_file
from .letters import LETTERS, read_letter, refused, why_not_read
from .outputs import FolderWriter
from .registry import READERS, WRITERS

STDIN_ID = "stdin"


def read_stdin(report, doc_id: str = STDIN_ID, encoding=None) -> str | None:
    """Standard input as text (a BOM kept; :func:`~crfdeid.io.files.decode`), or ``None`` after
    reporting why it cannot be."""
    try:
        data = sys.stdin.buffer.read(max_input_bytes() + 1)
    except (OSError, AttributeError) as exc:
        raise InputError(f"cannot read standard input ({type(exc).__name__})", path="-") from None
    if len(data) > max_input_bytes():  # /dev/zero given as standard input
        raise InputError(f"standard input holds more than {max_input_bytes():,} bytes, the most one input may "
                         "hold: not read (CRFDEID_MAX_INPUT_BYTES sets another limit)", path="-")
    return decode(data, report, "-", doc_id, keep_bom=True, encoding=encoding)


@READERS.register("text")
def read_text(path, report, suffix: str = ".txt", encoding: str | None = None, recursive: bool = False):
    """Read ``.txt`` files (a folder or one file) or standard input (``-``) without spans.

    ``suffix`` picks other files in a folder (e.g. ``".note"``); ``encoding`` reads the files
    without a byte-order mark (default UTF-8); ``recursive`` reads the folder's subfolders too
    (document id ``sub/name``; without it their files are counted in a warning). Each document's
    ``meta["file"]`` is its path relative to the folder as given (``sub/P4.TXT``), which
    folder writers keep.
    """
    encoding = check_encoding(encoding)
    if is_stdio(path):
        text = read_stdin(report, encoding=encoding)
        if text is not None:
            yield Document(STDIN_ID, text, [], {"source": "-", "annotated": False})
        return
    for f in note_files(path, suffix, recursive):
        doc_id, name = file_id(f, path)
        if f.suffix.lower() in LETTERS and suffix.lower() not in LETTERS:
            text = read_letter(f, report, doc_id)
            name = name[:-len(f.suffix)] + ".txt"  # its output is text
        elif (why := refused(f)) is not None and f.suffix.lower() != suffix.lower():
            report(ReaderError(why, path=f, doc_id=doc_id))
            continue
        else:
            text = read_text_file(f, report, doc_id, keep_bom=True, encoding=encoding)
        if text is not None:
            yield Document(doc_id, text, [], {"source": str(f), "file": name, "annotated": False})


def note_files(path, suffix: str = ".txt", recursive: bool | None = False) -> list:
    """The files the text reader reads from ``path`` (a folder, or one file): those ending in
    ``suffix``, and Word and RTF letters beside ``.txt`` notes; every other file of the folder is
    named in a warning with why it is not read (:func:`crfdeid.io.letters.why_not_read`)."""
    suffix = suffix.lower()
    suffixes = (suffix, *LETTERS) if suffix == ".txt" else suffix
    return list_files(path, suffixes, recursive, others=why_not_read)


@WRITERS.register("text")
class TextWriter(FolderWriter):
    """Write each document's text as ``<doc_id>.txt`` (spans are not written)."""

    suffix = ".txt"

    def render(self, doc: Document) -> str:
        if self.to_stdout and not doc.text.endswith("\n"):
            return doc.text + "\n"
        return doc.text
