r"""HL7 v2 messages taken apart on the separators each declares, and put back byte for byte.

A file is cut into lines, each kept with its own terminator (``\r``, ``\n``, ``\r\n``, mixed;
the last line with none when the file has none), and into messages (from each ``MSH``; batch
headers ``FHS``/``BHS`` and blank lines before the first go with it, trailers and blank lines
after a message with that message). A segment is split on its field, repetition, component and
subcomponent separators (MSH-1, MSH-2; ``FHS`` and ``BHS`` declare their own) into *leaves*,
addressed ``(line, field, repetition, component, subcomponent)``; :func:`rebuild` joins them
back on the same separators, so a leaf not replaced keeps its bytes (its escape sequences
too). A leaf's text is read with its escape sequences (:meth:`Delims.read`), which also tells
where each character was written, so that a text is changed only where a span is replaced.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from functools import lru_cache

from .encoding import decode, nul_line, sniff
from .hl7_std import is_segment
from .hl7_types import HEADERS

LINE = re.compile(r"\r\n|\r|\n")
#: A byte the file's encoding does not read, kept by :func:`file_text` as a lone surrogate.
BAD_BYTE = re.compile("[\udc80-\udcff]")
#: A segment's name and field separator after a space, inside a segment: segments joined.
_JOINED = re.compile(r"\s([A-Z][A-Z0-9]{2})(?=[^A-Za-z0-9\s])")
_CORE = frozenset("MSH PID PV1 PV2 EVN NK1 ORC OBR OBX NTE IN1 GT1 DG1 AL1 TXA".split())
SEGMENT = re.compile(r"[A-Z][A-Z0-9]{2}$")
#: Escape sequences that stand for no character (highlighting, formatting, character sets);
#: any other (``\Z...\``, a site's own) is read as the characters it is written with.
FORMATTING = re.compile(r"H|N|\.(?:sp|sk)\d*|\.(?:in|ti)[+-]?\d*|\.(?:ce|fi|nf)|[CM][0-9A-Fa-f]+")


class Delims:
    """A message's separators (MSH-1, MSH-2): field, component, repetition, escape, subcomponent."""

    def __init__(self, header: str):
        self.field = header[3]
        enc = header[4:].split(self.field, 1)[0]
        padded = enc + "\x00" * 4
        self.comp, self.rep, self.esc, self.sub = padded[0], padded[1], padded[2], padded[3]
        self.seps = frozenset(c for c in (self.field, self.comp, self.rep, self.esc, self.sub) if c != "\x00")
        self._blanks = {ord(c): " " for c in (*self.seps, "\r", "\n")}

    def read(self, raw: str) -> tuple[str, list[int]]:
        r"""The text of a leaf, escape sequences read (``\F\`` is the field separator, ``\.br\``
        and ``\X0A\`` line breaks, ``\H\`` nothing), and for each character of it (and its end)
        where it starts in ``raw``.

        >>> Delims("MSH|^~\\&").read("a\\T\\b\\H\\c")
        ('a&bc', [0, 1, 4, 5, 9])
        """
        if self.esc not in raw or self.esc == "\x00":
            return raw, list(range(len(raw) + 1))
        text: list[str] = []
        starts: list[int] = []
        e, i, pending = self.esc, 0, None
        table = {"F": self.field, "S": self.comp, "R": self.rep, "E": self.esc, "T": self.sub, ".br": "\n"}
        while i < len(raw):
            j = raw.find(e, i + 1) if raw[i] == e else -1
            if j < 0:
                starts.append(i if pending is None else pending)
                text.append(raw[i])
                pending, i = None, i + 1
                continue
            code = raw[i + 1:j]
            if code in table:
                chars = table[code]
            elif re.fullmatch(r"X(?:[0-9A-Fa-f]{2})+", code):
                chars = bytes.fromhex(code[1:]).decode("latin-1")
            elif FORMATTING.fullmatch(code):
                chars = ""  # highlighting and formatting (\H\, \N\, \.sp\...): no text
            else:  # not a sequence crfdeid reads: its characters are text (the model reads them)
                starts.append(i if pending is None else pending)
                text.append(raw[i])
                pending, i = None, i + 1
                continue
            at = i if pending is None else pending
            if not chars:
                pending = at
            for ch in chars:
                starts.append(at)
                text.append(ch)
            if chars:
                pending = None
            i = j + 1
        starts.append(len(raw) if pending is None else pending)
        return "".join(text), starts

    def formatting(self, raw: str, pos: int) -> int:
        """Where the formatting escape sequences (no text) that start at ``pos`` end."""
        while pos < len(raw) and raw[pos] == self.esc:
            j = raw.find(self.esc, pos + 1)
            if j < 0 or not FORMATTING.fullmatch(raw[pos + 1:j]):
                break
            pos = j + 1
        return pos

    def escape(self, text: str) -> str:
        """``text`` written with its separators escaped, line breaks as ``\\.br\\``."""
        e = self.esc
        out = text.replace(e, f"{e}E{e}") if e != "\x00" else text
        for ch, code in ((self.field, "F"), (self.comp, "S"), (self.rep, "R"), (self.sub, "T")):
            if ch != "\x00":
                out = out.replace(ch, f"{e}{code}{e}")
        return out.replace("\r\n", "\n").replace("\n", f"{e}.br{e}").replace("\r", f"{e}X0D{e}")

    def clean(self, value: str) -> str:
        """A surrogate of a structured value with no separator in it (a space instead): a
        surrogate never adds a separator nor an escape sequence."""
        return value.translate(self._blanks)


def lines_of(text: str) -> list[tuple[str, str]]:
    """``(content, terminator)`` of each line; the last has ``""`` when the text ends without one."""
    out, pos = [], 0
    for m in LINE.finditer(text):
        out.append((text[pos:m.start()], m.group()))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], ""))
    return out


def split_messages(lines: list[tuple[str, str]]) -> tuple[list[list[int]], list[int]]:
    """The line numbers (from 0) of each message, and those of lines before the first ``MSH``
    that are neither blank nor a batch header (not read)."""
    messages: list[list[int]] = []
    before: list[int] = []
    bad: list[int] = []
    for n, (content, _) in enumerate(lines):
        if content.startswith("MSH"):
            messages.append(before + [n])
            before = []
        elif messages:
            messages[-1].append(n)
        elif not content.strip() or content[:3] in HEADERS[1:]:
            before.append(n)
        else:
            bad.append(n)
    if not messages:  # batch headers without a message: reported, not dropped unsaid
        bad.extend(n for n in before if lines[n][0].strip())
    return messages, sorted(bad)


def header_ok(content: str) -> bool:
    return len(content) >= 8 and not content[3].isalnum() and content[3] not in " \t"


def file_text(data: bytes, report, source: str, encoding: str | None) -> str | None:
    """The text of a file of messages (a byte-order mark kept), None after reporting why not. A
    byte the encoding does not read costs only its message: it is kept as a lone surrogate,
    which :func:`check_message` refuses."""
    errors: list = []
    text = decode(data, errors.append, source, encoding=encoding, keep_bom=True)
    if text is not None:
        return text
    enc, bom = sniff(data, encoding)
    if not errors or not errors[0].reason.startswith("not valid") or \
            codecs.lookup(enc).name.startswith(("utf-16", "utf-32")):
        for err in errors:
            report(err)
        return None
    text = data[bom:].decode(enc, "surrogateescape")
    if nul_line(text) is not None:
        for err in errors:
            report(err)
        return None
    return ("\ufeff" if bom else "") + text


def check_message(contents: list[str]) -> str | None:
    """Why a message cannot be read (None when it can): separators, segment names, segments
    joined on one line, a byte its file's encoding does not read. A segment whose name no
    version defines (a Z-segment, a site's ``DST``) is read: its fields are of no known type."""
    msh = next(c for c in contents if c.startswith("MSH"))
    if not header_ok(msh):
        return "its MSH segment does not declare the separators"
    d = Delims(msh)
    for k, seg in enumerate(contents):
        if not seg.strip():
            continue
        if seg[:3] in HEADERS and not header_ok(seg):
            return f"segment {k + 1} does not declare its separators"
        sep = seg[3] if seg[:3] in HEADERS else d.field
        if not SEGMENT.match(seg.split(sep, 1)[0]) or (len(seg) > 3 and seg[3] != sep):
            return f"segment {k + 1} is not a segment (three letters or digits and a {sep!r})"
        if BAD_BYTE.search(seg):
            return f"segment {k + 1} holds a byte its file's encoding does not read"
        joined = [m[1] for m in _JOINED.finditer(seg, 4) if is_segment(m[1]) and seg.startswith(sep, m.end(1))]
        if len(set(joined)) > 1 or set(joined) & _CORE:  # one other word before a separator may be text's
            return f"segment {k + 1} holds segment {joined[0]!r} on its line: its segments cannot be separated"
    return None


def delims_for(content: str, d: Delims) -> Delims:
    """The separators of one segment: a header's own, else the message's."""
    if content[:3] not in HEADERS:
        return d
    end = content.find(content[3], 4) if len(content) > 4 else -1
    return _header_delims(content if end < 0 else content[:end])


@lru_cache(maxsize=256)
def _header_delims(head: str) -> Delims:
    """The separators a header declares (its name, MSH-1 and MSH-2: all a :class:`Delims` reads)."""
    return Delims(head)


def fields_of(segment: str, d: Delims) -> list[str]:
    """A segment's fields, numbered as HL7 numbers them (MSH-1 is the field separator)."""
    parts = segment.split(d.field)
    return [parts[0], d.field, *parts[1:]] if parts[0] in HEADERS else parts


def leaves(segment: str, d: Delims, f: list[str] | None = None) -> Iterator[tuple[int, int, int, int, int, str]]:
    """``(field, repetition, component, subcomponent, number of subcomponents, raw)`` of every
    non-empty leaf of a segment (MSH-1 and MSH-2 are none); ``f``: its fields, when split already."""
    f = fields_of(segment, d) if f is None else f
    first = 3 if f[0] in HEADERS else 1
    for n in range(first, len(f)):
        if not f[n]:
            continue
        for r, rep in enumerate(f[n].split(d.rep)):
            for c, comp in enumerate(rep.split(d.comp)):
                subs = comp.split(d.sub) if d.sub != "\x00" else [comp]
                for s, value in enumerate(subs):
                    if value:
                        yield n, r, c, s, len(subs), value


def rebuild(segment: str, d: Delims, changes: dict[tuple[int, int, int, int], str]) -> str:
    """The segment with the leaves ``changes`` names replaced (raw values), every other byte kept."""
    if not changes:
        return segment
    f = fields_of(segment, d)
    by_field: dict[int, list[tuple[int, int, int, str]]] = {}
    for (fn, r, c, s), value in changes.items():
        by_field.setdefault(fn, []).append((r, c, s, value))
    for n, values in by_field.items():
        reps = [[comp.split(d.sub) if d.sub != "\x00" else [comp] for comp in rep.split(d.comp)]
                for rep in f[n].split(d.rep)]
        for r, c, s, value in values:
            reps[r][c][s] = value
        f[n] = d.rep.join(d.comp.join(d.sub.join(subs) for subs in rep) for rep in reps)
    return d.field.join([f[0], *f[2:]] if f[0] in HEADERS else f)
