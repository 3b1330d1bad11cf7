"""Reading text files: their encoding (a byte-order mark, UTF-8, or the one named), bad bytes named.

Inputs are read as UTF-8 unless a byte-order mark names UTF-8, UTF-16 or UTF-32 (little or
big endian), or the reader's ``encoding`` option (``--encoding`` on the commands) names
another encoding for the files without a mark, e.g. ``cp1252`` (Windows-1252) or
``latin-1``. A file that cannot be read is reported by line (and offset), never by its text.
"""

from __future__ import annotations

import codecs
import io
import os

from ..errors import ConfigError, InputError, ReaderError
from ..openfiles import open_regular

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


#: The most bytes one input file (a note, an annotation file) or one line of a stream input
#: (JSONL, CSV) may hold: past it the file or stream is refused by name, never read without end
#: (``/dev/zero`` renamed, a log file given by mistake). ``CRFDEID_MAX_INPUT_BYTES`` sets another.
MAX_INPUT_BYTES = 512 * 1024 * 1024


def max_input_bytes() -> int:
    """:data:`MAX_INPUT_BYTES`, or the ``CRFDEID_MAX_INPUT_BYTES`` of the environment.

    Raises
    ------
    ConfigError
        The variable is not a positive whole number.
    """
    value = os.environ.get("CRFDEID_MAX_INPUT_BYTES")
    if value is None:
        return MAX_INPUT_BYTES
    if not value.strip().isdecimal() or int(value) < 1:
        raise ConfigError(f"CRFDEID_MAX_INPUT_BYTES must be a positive number of bytes, not {value!r}")
    return int(value)


def open_input(path, what: str = "file"):
    """``path`` opened for reading as a binary stream, refused by name when it is not a regular
    file: a FIFO is opened without waiting for a writer and then refused, never read (it could
    hang the run); a device or socket likewise (:func:`crfdeid.openfiles.open_regular`).

    Raises
    ------
    InputError
        No such file, a folder, a special file, or the system refused (the message names it).
    """
    return open_regular(path, InputError, what)


def read_input_bytes(path, what: str = "file") -> bytes:
    """The bytes of the regular file ``path`` (:func:`open_input`), at most :func:`max_input_bytes`.

    Raises
    ------
    InputError
        As :func:`open_input`, or the file is larger than the limit.
    """
    limit = max_input_bytes()
    with open_input(path, what) as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"larger than {limit:,} bytes, the most one input file may hold: not read "
                         "(CRFDEID_MAX_INPUT_BYTES sets another limit)", path=path)
    return data


def read_text_file(path, report, doc_id=None, keep_bom: bool = False, encoding=None) -> str | None:
    """A file's text, or ``None`` after reporting why it cannot be read (:func:`decode`; a special
    file or one over the size limit: :func:`read_input_bytes`)."""
    try:
        data = read_input_bytes(path)
    except InputError as exc:
        report(ReaderError(exc.reason, path=path, doc_id=doc_id))
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
    limit = max_input_bytes()
    while raw := stream.readline(limit + 1):
        if len(raw) > limit and not raw.endswith(b"\n"):
            raise InputError(f"a line longer than {limit:,} bytes, the most one line may hold: the rest of the "
                             "input is not read (CRFDEID_MAX_INPUT_BYTES sets another limit)", path=path)
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
