"""Letters in the formats hospitals export most after plain text: Word (``.docx``) and RTF, read as
text; the other kinds a folder of notes may hold are refused by kind, with what to do.

A ``.docx`` is read with python-docx: the headers of every section first (a letterhead holds the
sender's name and address), then every paragraph of the body in order, those of tables and text
boxes included, then the footers; a paragraph a line, table cells as paragraphs. An RTF file is
read with striprtf (its ``\\'xx`` escapes as Windows-1252 unless the file names a code page).
Either is then a note like any other: its output is the de-identified text, written as
``NAME.txt`` (the layout, fonts and pictures of the letter are not kept; a picture can hold an
identifier no text reader sees). The reasons never quote the text.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from ..errors import ReaderError
from .encoding import read_input_bytes

#: The suffixes read as letters, besides the text reader's own.
LETTERS = (".docx", ".rtf")

#: What to do with a file of a kind no reader of notes reads (by suffix).
_KINDS = {
    ".doc": "Word 97-2003 document(s) (.doc), not read: save as .docx or text",
    ".docm": "Word document(s) with macros (.docm), not read: save as .docx",
    ".odt": "OpenDocument text(s), not read: save as .docx or text",
    ".pdf": "PDF(s), not read: export the text (e.g. pdftotext) or save as .docx",
    ".xml": "XML file(s), not read as notes: the i2b2, fhir or hl7 reader (i2b2:FOLDER...)",
    ".json": "JSON file(s), not read as notes: the fhir reader (fhir:FOLDER)",
    ".jsonl": "JSON Lines file(s), not read as notes: the jsonl reader (jsonl:FILE)",
    ".csv": "CSV table(s), not read as notes: the csv reader (csv:FILE)",
    ".hl7": "HL7 v2 file(s), not read as notes: the hl7 reader (hl7:FOLDER)",
    ".ann": "BRAT annotation file(s), not read as notes: the brat reader (brat:FOLDER)",
    ".html": "HTML page(s), not read: save as text", ".htm": "HTML page(s), not read: save as text",
    ".xlsx": "spreadsheet(s), not read: save as CSV (csv:FILE)", ".xls": "spreadsheet(s), not read: save as CSV",
    ".zip": "archive(s), not read: unpack them first", ".gz": "compressed file(s), not read: unpack them first",
}
_IMAGES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".heic", ".dcm"}

#: Uncompressed bytes a .docx may unpack to (a zip bomb is refused before it is unpacked).
_MAX_UNPACKED = 512 << 20


def why_not_read(name: str) -> str:
    """Why a file of a notes folder is not read, from its name (the reason of its kind).

    >>> why_not_read("scan.PDF").split(":")[0], why_not_read("x.bin")
    ('PDF(s), not read', 'file(s) of another kind, not read: notes are read from .txt, .docx and .rtf')
    """
    suffix = Path(name).suffix.lower()
    if suffix in _IMAGES:
        return "image(s), not read: a picture's text is not read (scan it to text first)"
    return _KINDS.get(suffix, "file(s) of another kind, not read: notes are read from .txt, .docx and .rtf")


def refused(path) -> str | None:
    """The reason a single file given by name is not read as a note (a kind refused), else None."""
    suffix = Path(path).suffix.lower()
    if suffix in _KINDS or suffix in _IMAGES:
        return why_not_read(str(path)).replace("(s)", "").replace("s, not", ", not")
    return None


def read_letter(path, report, doc_id=None) -> str | None:
    """The text of a ``.docx`` or ``.rtf`` file, or None after reporting why it cannot be read."""
    path = Path(path)
    try:
        data = read_input_bytes(path)
        return _docx(path, data) if path.suffix.lower() == ".docx" else _rtf(data)
    except ReaderError as exc:
        report(ReaderError(exc.reason, path=path, doc_id=doc_id))
    except Exception as exc:  # the library's own errors; its message could quote the text
        what = "Word .docx" if path.suffix.lower() == ".docx" else "RTF"
        report(ReaderError(f"not read as a {what} file ({type(exc).__name__}): a damaged file, or "
                           "another kind renamed", path=path, doc_id=doc_id))
    return None


def _docx(path: Path, data: bytes) -> str:
    import io

    import docx

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            unpacked = sum(i.file_size for i in zf.infolist())
    except zipfile.BadZipFile:
        raise ReaderError("not a Word .docx file (not a zip archive): a .doc renamed? save it as "
                          ".docx") from None
    if unpacked > _MAX_UNPACKED:
        raise ReaderError(f"unpacks to {unpacked:,} bytes, more than {_MAX_UNPACKED:,}: not read")
    document = docx.Document(io.BytesIO(data))
    parts: list[str] = []
    seen: set[int] = set()

    def paragraphs(element) -> None:
        parts.extend(_blocks(element))

    def side(kinds) -> None:
        for kind in kinds:
            for section in document.sections:
                part = getattr(section, kind)
                if not part.is_linked_to_previous and id(part._element) not in seen:
                    seen.add(id(part._element))
                    paragraphs(part._element)

    side(("first_page_header", "header", "even_page_header"))
    paragraphs(document.element.body)
    side(("first_page_footer", "footer", "even_page_footer"))
    return "\n".join(parts) + "\n"


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_BREAKS = {_W + "br", _W + "cr"}


def _blocks(element) -> list[str]:
    """The lines of a part of the document in order: a paragraph a line (then the paragraphs of its
    text boxes), a table row a line with its cells joined by tabs (as a text export writes it, so
    that a label and its value stay side by side)."""
    lines: list[str] = []
    for child in element:
        if child.tag == _W + "p":
            lines.append(_text(child))
            lines.extend(line for box in child.iter(_W + "txbxContent") for line in _blocks(box))
        elif child.tag == _W + "tbl":
            for row in child.iter(_W + "tr"):
                if row.getparent() is child:
                    lines.append("\t".join(" ".join(_blocks(cell)) for cell in row.findall(_W + "tc")))
        elif child.tag != _W + "del":
            lines.extend(_blocks(child))  # content controls, tracked insertions, custom XML...
    return lines


def _text(p) -> str:
    """A paragraph's visible text: its runs' text (tracked insertions too, deletions not), tabs and
    breaks; the paragraphs of a text box inside it are read on their own."""
    out: list[str] = []

    def walk(el) -> None:
        for child in el:
            tag = child.tag
            if tag == _W + "t":
                out.append(child.text or "")
            elif tag == _W + "tab":
                out.append("\t")
            elif tag in _BREAKS:
                out.append("\n")
            elif tag not in (_W + "p", _W + "txbxContent", _W + "del"):
                walk(child)

    walk(p)
    return "".join(out)


def _rtf(data: bytes) -> str:
    from striprtf.striprtf import rtf_to_text

    if not data.lstrip().startswith(b"{\\rtf"):
        raise ReaderError("not an RTF file (it does not start with {\\rtf)")
    # RTF is 7-bit: other bytes are read as Windows-1252, as RTF's own \'xx escapes by default
    return rtf_to_text(data.decode("cp1252", "replace"), errors="replace")
