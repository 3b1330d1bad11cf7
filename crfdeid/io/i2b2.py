"""i2b2 2014 de-identification XML: one ``NNN-NN.xml`` file per note.

Format::

    <?xml version="1.0" encoding="UTF-8" ?>
    <deIdi2b2>
    <TEXT><![CDATA[
    ...note text...
    ]]></TEXT>
    <TAGS>
    <DATE id="P0" start="16" end="26" text="2069-04-07" TYPE="DATE" comment="" />
    </TAGS>
    </deIdi2b2>

The element name is the parent category and ``TYPE`` the subtype; offsets are
0-based, end exclusive, counted in the TEXT content. Labels are checked against
the reader's ``scheme`` option (``i2b2``, a declared scheme; ``any`` takes element names
and ``TYPE`` as written, an element without ``TYPE`` being its own label). Files are parsed with
``defusedxml`` (no DTD, no entity expansion). The note is the character data of
the one ``TEXT`` element; a file whose note could lose characters on the way in
is refused, never cut: an element inside ``TEXT``, a second ``TEXT``, an element
beside ``TEXT`` and ``TAGS``, or character data outside them. A byte-order mark
starting the file names its encoding, not a character of the note; one inside ``TEXT``
is text. Text that XML would alter on the way back is written so that it survives:
``]]>`` splits the CDATA section and carriage returns are written as ``&#13;`` between
sections.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree.ElementTree import ParseError

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from .. import schema
from ..document import Document, Span
from ..errors import InputError, LocatedError, ReaderError, SchemaError, described
from .encoding import read_input_bytes
from .files import check_encoding, decode, foreign, list_files, sniff
from .outputs import FolderWriter
from .registry import READERS, WRITERS

_WS = re.compile(r"\s+")
# An element id shown in messages only when it looks like i2b2's (P0, P12): it is not text then.
_ID = re.compile(r"[A-Za-z]{0,4}\d{1,9}")
# Characters XML 1.0 cannot carry at all, not even as character references.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def parse(data: bytes | str, path=None, doc_id=None, check_text: bool = True, scheme=None) -> Document:
    """Parse one i2b2 XML document; raise :class:`ReaderError` naming file, document, offset."""
    scheme = schema.get(scheme)
    doc_id = doc_id if doc_id is not None else (Path(path).stem if path else "-")
    try:
        root = SafeET.fromstring(data, forbid_dtd=True)
    except ParseError as exc:
        line, col = getattr(exc, "position", (None, None))
        raise ReaderError(f"malformed XML (line {line}, column {col})", path=path,
                          doc_id=doc_id) from None
    except DefusedXmlException as exc:
        raise ReaderError(f"refused XML construct ({type(exc).__name__}): DTDs and entities "
                          "are not allowed", path=path, doc_id=doc_id) from None
    text_el = _note_element(root, path, doc_id)
    text = text_el.text or ""
    spans = []
    tags = root.find("TAGS")
    for i, el in enumerate(tags if tags is not None else (), 1):
        spans.append(_span(i, el, text, path, doc_id, check_text, scheme))
    meta = {"source": str(path)} if path else {}
    return Document(doc_id, text, spans, meta).validate(path=path, scheme=scheme)


def _note_element(root, path, doc_id):
    """The one ``TEXT`` element, after checking that no character of the note is elsewhere."""
    where = {"path": path, "doc_id": doc_id}
    texts = root.findall("TEXT")
    if not texts:
        raise ReaderError("no <TEXT> element", **where)
    if len(texts) > 1:
        raise ReaderError(f"{len(texts)} <TEXT> elements; an i2b2 file holds one note", **where)
    text_el = texts[0]
    if len(text_el):
        at = len(text_el.text or "")
        raise ReaderError("<TEXT> holds an element; the note must be character data (write '<' "
                          "as &lt; or use CDATA)", offset=at, **where)
    for i, child in enumerate(root, 1):
        if child.tag not in ("TEXT", "TAGS"):
            raise ReaderError(f"element {i} of the root is neither <TEXT> nor <TAGS>; it could "
                              "hold note text and is not read", **where)
    loose = [root.text or ""] + [child.tail or "" for child in root]
    if any(part.strip() for part in loose):
        raise ReaderError("character data outside <TEXT> (it could be note text and would be "
                          "lost)", **where)
    return text_el


def _element_name(el) -> str:
    """``(<NAME>, id P2)``: the tag when it is a category, the id when it looks like i2b2's."""
    parts = []
    if isinstance(el.tag, str) and el.tag.upper() in schema.CATEGORIES:
        parts.append(f"<{el.tag}>")
    if el.get("id") and _ID.fullmatch(el.get("id")):
        parts.append(f"id {el.get('id')}")
    return f"({', '.join(parts)})" if parts else ""


def _span(i: int, el, text: str, path, doc_id, check_text: bool, scheme=schema.I2B2) -> Span:
    where = {"path": path, "doc_id": doc_id}
    name = f"TAGS element {i} {_element_name(el)}".rstrip()
    try:
        start, end = int(el.get("start")), int(el.get("end"))
    except (TypeError, ValueError):
        raise ReaderError(f"{name} lacks integer start/end", **where) from None
    category = el.tag.upper() if isinstance(el.tag, str) else ""
    subtype = (el.get("TYPE") or "").upper()
    if scheme.open and isinstance(el.tag, str):
        category, subtype = el.tag, el.get("TYPE") or el.tag
    got = scheme.resolve(subtype, category) if subtype else None
    if got is None:
        cat = category if scheme.category(category) else f"an element name of {described(category)}"
        sub = (subtype if scheme.label(subtype) else
               "no TYPE" if not subtype else f"a TYPE of {described(subtype)}")
        raise SchemaError(f"{name}: unknown PHI category/subtype ({cat}, {sub}); known: "
                          f"{', '.join(f'{p}/{s}' for s, p in scheme.subtype_to_parent.items())}",
                          offset=start, **where)
    if not (0 <= start < end <= len(text)):
        raise ReaderError(f"span [{start}, {end}) is empty, reversed or outside the text "
                          f"(length {len(text)})", offset=start, **where)
    attr = el.get("text")
    # Attribute values have their white space normalised by XML parsers: compare folded.
    if check_text and attr is not None and _WS.sub(" ", attr) != _WS.sub(" ", text[start:end]):
        raise ReaderError(f"{name}: text attribute does not match TEXT[{start}:{end}] (pass "
                          "check_text=False to ignore)", offset=start, **where)
    return Span(start, end, *got)


def render(doc: Document) -> str:
    """The i2b2 XML for ``doc``; raises :class:`ReaderError` for text XML cannot carry."""
    bad = _XML_ILLEGAL.search(doc.text)
    if bad:
        raise ReaderError(f"character U+{ord(bad.group()):04X} cannot be written in XML",
                          doc_id=doc.doc_id, offset=bad.start())
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', "<deIdi2b2>",
             f"<TEXT>{_cdata(doc.text)}</TEXT>", "<TAGS>"]
    for i, sp in enumerate(doc.spans):
        lines.append(
            f'<{sp.category} id="P{i}" start="{sp.start}" end="{sp.end}" '
            f'text="{_attr(doc.surface(sp))}" TYPE="{sp.subtype}" comment="" />')
    lines += ["</TAGS>", "</deIdi2b2>", ""]
    return "\n".join(lines)


def _cdata(text: str) -> str:
    parts = text.replace("]]>", "]]]]><![CDATA[>").split("\r")
    return "&#13;".join(f"<![CDATA[{p}]]>" if p else "" for p in parts)


def _attr(value: str) -> str:
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")
            .replace("\t", "&#9;"))


@READERS.register("i2b2")
def read_i2b2(path, report, check_text: bool = True, scheme=None, encoding: str | None = None):
    """Read a folder of i2b2 XML files (sorted by name), or one file; ``scheme``: the labels
    allowed (module docstring). A byte-order mark (UTF-8, UTF-16, UTF-32) or the ``encoding``
    option decides a file's encoding over its XML declaration (exports often declare UTF-8
    whatever they hold); without either, XML's own rules apply.
    """
    scheme = schema.get(scheme)
    encoding = check_encoding(encoding)
    for f in list_files(path, ".xml"):
        data: bytes | str | None = None
        try:
            data = read_input_bytes(f)
            if encoding is not None or sniff(data)[1] or foreign(data):
                data = decode(data, report, f, f.stem, encoding=encoding)
            if data is not None:
                doc = parse(data, path=f, check_text=check_text, scheme=scheme)
                doc.meta["file"] = f.name  # writers keep the name as read
                yield doc
        except InputError as exc:  # a FIFO or device refused, a file over the limit
            report(ReaderError(exc.reason, path=f, doc_id=f.stem))
        except OSError as exc:
            report(ReaderError(f"cannot read: {exc.strerror}", path=f, doc_id=f.stem))
        except LocatedError as exc:
            report(_not_utf8(data, f) or exc)
        except Exception as exc:  # a parser bug must still name the file
            report(ReaderError(f"unexpected {type(exc).__name__}", path=f, doc_id=f.stem))


def _not_utf8(data, path) -> ReaderError | None:
    """Why bytes that did not parse are not UTF-8 (with the hint to name their encoding), if they are not."""
    found: list = []
    if isinstance(data, bytes):
        decode(data, found.append, path, path.stem)
    return found[0] if found else None


@WRITERS.register("i2b2")
class I2b2Writer(FolderWriter):
    """Write each document as ``<doc_id>.xml``."""

    suffix = ".xml"

    def render(self, doc: Document) -> str:
        return render(doc)
