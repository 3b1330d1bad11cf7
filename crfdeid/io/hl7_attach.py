r"""Text attachments of HL7 v2 messages: an ED value (OBX-5 of type ED) whose data (ED-5) is
base64, read as text when it is text, and written back in the same character set and layout.

An attachment is text when its subtype (ED-3) is ``PLAIN``, ``RTF`` (read as the text it is
written in, control words too) or a ``text/plain``/``text/rtf`` MIME type, or when it has no
subtype and its type (ED-2) is ``TEXT``, ``TX``, ``FT``. Its characters are in the message's
character set (MSH-18, HL7 table 0211: ``UNICODE UTF-8``, ``8859/1``...; none named: UTF-8).
Anything else (a PDF, an image, HTML or XML, hexadecimal data, a character set crfdeid does not
know, data that is not base64, that does not decode in its character set or holds control
characters) is not text: the writer removes it (fail closed), it is never kept.
"""

from __future__ import annotations

import base64
import binascii
import re

#: ED-3 subtypes of text, and ED-2 types of text when ED-3 is empty.
TEXT_SUBTYPES = frozenset({"PLAIN", "RTF", "TEXT", "TEXT/PLAIN", "TEXT/RTF", "APPLICATION/RTF"})
TEXT_KINDS = frozenset({"TEXT", "TX", "FT", "TEXT/PLAIN", "TEXT/RTF"})
#: HL7 table 0211 (MSH-18) -> Python codec, for the character sets crfdeid reads.
CHARSETS = {"": "utf-8", "ASCII": "ascii", "ISO IR6": "ascii", "UNICODE UTF-8": "utf-8", "UNICODE UTF-16": "utf-16",
            "UNICODE UTF-32": "utf-32", "8859/1": "latin-1", "8859/2": "iso8859-2", "8859/3": "iso8859-3",
            "8859/4": "iso8859-4", "8859/5": "iso8859-5", "8859/6": "iso8859-6", "8859/7": "iso8859-7",
            "8859/8": "iso8859-8", "8859/9": "iso8859-9", "8859/15": "iso8859-15", "GB 18030-2000": "gb18030",
            "BIG-5": "big5", "KS X 1001": "euc-kr"}
BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def charset(msh18: str) -> str | None:
    """The codec of a message's character set (the first of MSH-18), None when crfdeid does not
    know it.

    >>> charset(""), charset("8859/1"), charset("unicode utf-8"), charset("ISO IR87")
    ('utf-8', 'latin-1', 'utf-8', None)
    """
    return CHARSETS.get(msh18.strip().upper())


def is_text(kind: str, subtype: str, encoding: str) -> bool:
    """Whether an ED value (its ED-2, ED-3, ED-4) is a text attachment in base64."""
    sub = subtype.strip().upper()
    return encoding.strip().upper() == "BASE64" and (sub in TEXT_SUBTYPES or (not sub and kind.strip().upper()
                                                                                 in TEXT_KINDS))


def decode(data: str, codec: str | None) -> str | None:
    """The text of base64 ``data`` (as read: line breaks between its lines are its layout) in
    ``codec``; None when it is not base64, not in that character set, or not text.

    >>> decode("S2V2aW4gc2Vlbi4=", "utf-8"), decode("AAEC", "utf-8")
    ('Kevin seen.', None)
    """
    if codec is None:
        return None
    try:
        text = base64.b64decode(BREAK.sub("", data), validate=True).decode(codec)
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    return None if _CONTROL.search(text) else text


def encode(text: str, like: str, codec: str) -> str:
    """``text`` in base64 in ``codec``, laid out as the data ``like`` (lines of its first line's
    width, its line break, one at the end when it has one). Raises UnicodeEncodeError when the
    text has a character the character set lacks.

    >>> encode("Kevin seen.", "S2V2\\r\\naW4g\\r\\nc2Vl\\r\\nbi4=", "utf-8")
    'S2V2\\r\\naW4g\\r\\nc2Vl\\r\\nbi4='
    """
    data = base64.b64encode(text.encode(codec)).decode("ascii")
    m = BREAK.search(like)
    if m is None or m.start() == 0:
        return data
    width, brk = m.start(), m.group()
    out = brk.join(data[i:i + width] for i in range(0, len(data), width))
    return out + brk if BREAK.fullmatch(like[-len(brk):]) else out
