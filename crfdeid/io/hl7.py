r"""HL7 v2 messages: the text of OBX and NTE segments in, the same messages out.

Reader ``hl7:PATH``: an ``.hl7`` file (or any file named), a folder of ``*.hl7`` files, or
``-``; one or several messages a file, each starting with ``MSH``, segments ended by ``\r``,
``\n`` or ``\r\n`` (kept as found for the output). One document per message: its OBX values
of type ``TX``, ``FT`` or ``ST`` (OBX-5; repetitions and ``\.br\`` are line breaks) and its
NTE comments (NTE-3), one a line, escape sequences read (``\F\`` is ``|``...). The patient
(the surrogates' group) is the first identifier of PID-3; PID-5 names, PID-3 identifiers,
PID-7 birth date, PID-11 addresses, PID-13/14 phones, PID-19 SSN and the NK1 names, addresses
and phones give ``meta["known"]``. Text before the first ``MSH``, a message whose ``MSH``
does not declare its separators, or a segment that is not ``XYZ|...`` is reported by file,
message number and line (never its content), and that message is not read.

The segments are split by hand on the separators each message declares in MSH-1 and MSH-2, so
that every field the writer does not change is written back byte for byte (a parser's
containers re-join fields and re-escape text; python-hl7 escapes a line break as ``\X0A\``).

Writer ``hl7`` (:class:`Hl7Writer`, ``-o text=redacted|masked|surrogate``): the texts
de-identified; PID, PD1's none, PV1, NK1 identifiers removed (redacted, masked) or replaced
by the patient's surrogates; dates of MSH, EVN, PID, PV1, NK1, ORC, OBR, OBX and TXA moved by
the patient's offset (surrogate) or cut to their year (a birth date removed), and so is every
other field, component or subcomponent of any segment that is a date of day precision or
finer (:mod:`crfdeid.io.record_dates`). Other segments and fields are written as read.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..document import Document, Span
from ..errors import ReaderError
from .files import check_encoding, decode
from .record_dates import hl7_dates
from .records import Record, RecordWriter, as_date, input_files, known_fields, piece
from .registry import READERS, WRITERS

TEXT_TYPES = ("TX", "FT", "ST")
#: Identifier fields by segment: field number -> what it holds.
#: name: a person's name (XPN; XCN from the 2nd component), id: an identifier (CX), address:
#: XAD, phone: XTN, place: a free-text place or organisation, dob/date: TS or DT.
FIELDS = {
    "PID": {2: "id", 3: "id", 4: "id", 5: "name", 6: "name", 7: "dob", 9: "name", 11: "address", 13: "phone",
            14: "phone", 18: "id", 19: "ssn", 20: "id", 21: "id", 23: "place", 29: "date"},
    "PV1": {3: "location", 7: "doctor", 8: "doctor", 9: "doctor", 17: "doctor", 19: "id", 44: "date",
            45: "date", 50: "id"},
    "NK1": {2: "name", 4: "address", 5: "phone", 6: "phone", 8: "date", 9: "date", 13: "place",
            16: "dob", 30: "name", 31: "phone", 32: "address", 33: "id", 37: "ssn"},
    "PD1": {3: "place", 4: "doctor"},
    "MRG": {1: "id", 2: "id", 3: "id", 4: "id", 5: "id", 6: "id", 7: "name"},
    "GT1": {2: "id", 3: "name", 4: "name", 5: "address", 6: "phone", 7: "phone", 8: "dob", 12: "ssn"},
    "IN1": {16: "name", 18: "dob", 19: "address", 36: "id", 49: "id"},
    "MSH": {7: "date"}, "EVN": {2: "date", 6: "date"},
    "ORC": {2: "id", 3: "id", 9: "date", 12: "doctor", 15: "date"},
    "OBR": {2: "id", 3: "id", 6: "date", 7: "date", 8: "date", 14: "date", 16: "doctor", 22: "date"},
    "OBX": {12: "date", 14: "date", 16: "doctor", 19: "date"},
    "TXA": {4: "date", 5: "doctor", 6: "date", 7: "date", 8: "date", 9: "doctor", 10: "doctor", 12: "id"},
}
#: The components (from 0) each kind of field de-identifies itself; dates in the others are
#: found by their form (an identifier's effective date CX-7, an address's XAD-13...).
_OWN_COMPONENTS = {"id": frozenset({0}), "ssn": frozenset({0}), "name": frozenset({0, 1, 2}),
                   "doctor": frozenset({0, 1, 2, 3}), "address": frozenset({0, 1, 2, 4}),
                   "phone": frozenset({0, 3, 5, 6, 11}), "place": frozenset({0}), "location": frozenset({1, 2, 3})}
_SEGMENT = re.compile(r"[A-Z][A-Z0-9]{2}$")
_LINE = re.compile(r"\r\n|\r|\n")


class Delims:
    """A message's separators (MSH-1, MSH-2): field, component, repetition, escape, subcomponent."""

    def __init__(self, msh: str):
        self.field = msh[3]
        enc = msh[4:].split(self.field, 1)[0]
        padded = enc + "\x00" * 4
        self.comp, self.rep, self.esc, self.sub = padded[0], padded[1], padded[2], padded[3]

    def unescape(self, value: str) -> str:
        """Escape sequences read: separators, ``\\.br\\`` (a line break), ``\\Xhh\\``."""
        if self.esc not in value:
            return value
        table = {"F": self.field, "S": self.comp, "R": self.rep, "E": self.esc, "T": self.sub, ".br": "\n"}
        e = re.escape(self.esc)

        def one(m):
            code = m.group(1)
            if code in table:
                return table[code]
            if code.startswith("X") and re.fullmatch(r"X(?:[0-9A-Fa-f]{2})+", code):
                return bytes.fromhex(code[1:]).decode("latin-1")
            return ""  # formatting (\H\, \N\, \.sp\...): no text
        return re.sub(f"{e}([^{e}]*){e}", one, value)

    def escape(self, value: str, breaks: str) -> str:
        """``value`` with its separators escaped, line breaks written as ``breaks``."""
        out = value.replace(self.esc, f"{self.esc}E{self.esc}")
        for ch, code in ((self.field, "F"), (self.comp, "S"), (self.rep, "R"), (self.sub, "T")):
            out = out.replace(ch, f"{self.esc}{code}{self.esc}")
        return out.replace("\n", breaks)


def split_messages(text: str, source: str, report) -> list[tuple[int, int, list[str], str]]:
    """``(message number, first line, segments, separator)`` of a file; text before the first
    MSH is reported."""
    m = _LINE.search(text)
    sep = m.group() if m else "\r"
    lines = _LINE.split(text)
    out: list = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line.startswith("MSH"):
            out.append([len(out) + 1, n, [line], sep])
        elif out:
            out[-1][2].append(line)
        else:
            report(ReaderError(f"line {n}: text before the first MSH segment is not read", path=source))
    return [tuple(x) for x in out]


def check_message(segments: list[str]) -> str | None:
    """Why a message cannot be read (None when it can): separators, segment names."""
    msh = segments[0]
    if len(msh) < 8 or msh[3].isalnum() or msh[3] in " \t":
        return "its MSH segment does not declare the separators"
    d = Delims(msh)
    for k, seg in enumerate(segments):
        if not _SEGMENT.match(seg.split(d.field, 1)[0]) or (len(seg) > 3 and seg[3] != d.field):
            return f"segment {k + 1} is not a segment (three letters or digits and a {d.field!r})"
    return None


def fields_of(segment: str, d: Delims) -> list[str]:
    """A segment's fields, numbered as HL7 numbers them (MSH-1 is the field separator)."""
    parts = segment.split(d.field)
    return [parts[0], d.field, *parts[1:]] if parts[0] == "MSH" else parts


def join_fields(fields: list[str], d: Delims) -> str:
    return d.field.join([fields[0], *fields[2:]] if fields[0] == "MSH" else fields)


def _texts(segments: list[str], d: Delims) -> list[tuple[int, str]]:
    """``(segment index, text)`` of the OBX text values and NTE comments."""
    out = []
    for k, seg in enumerate(segments):
        f = fields_of(seg, d)
        if f[0] == "OBX" and len(f) > 5 and f[2] in TEXT_TYPES:
            out.append((k, "\n".join(d.unescape(r) for r in f[5].split(d.rep))))
        elif f[0] == "NTE" and len(f) > 3 and f[3]:
            out.append((k, "\n".join(d.unescape(r) for r in f[3].split(d.rep))))
    return out


def _known(segments: list[str], d: Delims) -> dict:
    fields: dict[str, list[str]] = {k: [] for k in ("name", "relative", "mrn", "ssn", "phone", "address", "birth_date")}
    for seg in segments:
        f = fields_of(seg, d)
        table = {"PID": {3: "mrn", 5: "name", 11: "address", 13: "phone", 14: "phone", 19: "ssn", 7: "birth_date"},
                 "NK1": {2: "relative", 4: "address", 5: "phone", 6: "phone"}}.get(f[0], {})
        for num, kind in table.items():
            if len(f) <= num:
                continue
            for rep in f[num].split(d.rep):
                comps = [d.unescape(c) for c in rep.split(d.comp)]
                if kind in ("name", "relative"):
                    fields[kind].append(" ".join(c for c in [*comps[1:3], comps[0]] if c))
                elif kind == "address":
                    fields[kind].append(", ".join(c for c in comps[:5] if c))
                elif kind == "birth_date":
                    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2}).*", comps[0])
                    if m and as_date(comps[0], compact=True):
                        fields[kind].append("-".join(m.groups()))
                else:
                    fields[kind].append(comps[0])
    return known_fields(fields)


def patient_of(segments: list[str], d: Delims) -> str | None:
    for seg in segments:
        f = fields_of(seg, d)
        if f[0] == "PID" and len(f) > 3 and f[3]:
            return "PID-3:" + f[3].split(d.rep)[0].split(d.comp)[0]
    return None


@READERS.register("hl7")
def read_hl7(path, report, encoding: str | None = None):
    """One document per HL7 v2 message (module docstring); ``encoding`` for files without a mark."""
    encoding = check_encoding(encoding)
    yield from documents(input_files(path, report, (".hl7",), "stdin.hl7"), report, encoding)


def documents(files, report, encoding: str | None = None):
    """The documents of ``(source, bytes, name)`` files (:func:`read_hl7`; the service's body)."""
    for source, data, name in files:
        text = decode(data, report, source, encoding=encoding)
        if text is None:
            continue
        stem = Path(name).stem
        for number, line, segments, sep in split_messages(text, source, report):
            why = check_message(segments)
            if why is not None:
                report(ReaderError(f"message {number} (line {line}): {why}; it is not read", path=source))
                continue
            d = Delims(segments[0])
            texts = _texts(segments, d)
            where = f"file {source!r} message {number}"
            rec = Record(source, name, where, segments, pieces=1, extra={"sep": sep, "texts": texts})
            group = patient_of(segments, d) or f"{stem}#{number}"
            body = "\n".join(t for _, t in texts)
            yield piece(rec, 0, f"{stem}-{number}", body, group, _known(segments, d), number, "record")


@WRITERS.register("hl7")
class Hl7Writer(RecordWriter):
    """The messages read by ``hl7:`` written back de-identified, with their own separators."""

    def name_of(self) -> str:
        return "hl7"

    def render(self, record: Record, docs) -> str:
        [doc] = docs
        segments = list(record.payload)
        d = Delims(segments[0])
        group = doc.group
        texts = record.extra["texts"]
        for seg in segments:  # a patient over 89 is known before the text is written
            f = fields_of(seg, d)
            if f[0] == "PID" and len(f) > 7 and f[7]:
                self.over_89(group, f[7].split(d.comp)[0], compact=True)
        new = self.text(doc) if texts else ""
        values = new.split("\n") if texts else []
        if texts and len(values) != len(doc.text.split("\n")):
            values = self._one_by_one(doc, texts)
        i = 0
        for k, old in texts:
            n = old.count("\n") + 1
            value, i = "\n".join(values[i:i + n]), i + n
            if value != old:
                f = fields_of(segments[k], d)
                at = 5 if f[0] == "OBX" else 3
                breaks = f"{d.esc}.br{d.esc}" if f[0] == "OBX" and f[2] == "FT" else d.rep
                f[at] = d.escape(value, breaks)
                segments[k] = join_fields(f, d)
        text_at = {k for k, _ in texts}
        for k, seg in enumerate(segments):
            f = fields_of(seg, d)
            table = FIELDS.get(f[0], {})
            if not table and f[0] not in ("NTE", "MSH"):
                self.count("segment(s) of other types: dates de-identified, other fields as read")
            for num in range(1, len(f)):
                kind = table.get(num)
                if (f[0] == "MSH" and num <= 2) or (k in text_at and num == (5 if f[0] == "OBX" else 3)) \
                        or kind in ("date", "dob") or not f[num]:
                    pass  # the separators, a text read, a date field (below)
                else:  # a date anywhere else, or in a component the field's own rule leaves (CX-7, XAD-13)
                    f[num], moved = hl7_dates(f[num], d.rep, d.comp, d.sub, self._mover(group),
                                              _OWN_COMPONENTS.get(kind or "", frozenset()))
                    if moved:
                        self.count("date(s) of other fields " + ("moved" if self.surrogates else "cut to the year"),
                                   moved)
                if kind is not None and f[num]:
                    f[num] = self._field(f[num], kind, group, d, f"{record.where} {f[0]}-{num}")
            segments[k] = join_fields(f, d)
        sep = record.extra["sep"]
        return sep.join(segments) + sep

    def _mover(self, group: str):
        """What :func:`~crfdeid.io.record_dates.hl7_dates` does with a date of the message."""
        def move(value: str) -> str | None:
            return self.date(group, value, compact=True)
        return move

    def _one_by_one(self, doc, texts) -> list[str]:
        """Each value de-identified alone (a surrogate spanning a line break changed the lines)."""
        out, pos = [], 0
        for _, old in texts:
            end = pos + len(old)
            spans = [Span(max(s.start, pos) - pos, min(s.end, end) - pos, s.category, s.subtype)
                     for s in doc.spans if s.start < end and s.end > pos]
            one = Document(doc.doc_id, old, spans, dict(doc.meta))
            new = self.text(one)
            if new.count("\n") != old.count("\n"):
                new = new.replace("\n", " ")
                new = "\n".join([new] + [""] * old.count("\n"))
            out += new.split("\n")
            pos = end + 1
        return out

    def _field(self, value: str, kind: str, group: str, d: Delims, where: str) -> str:
        reps = []
        for rep in value.split(d.rep):
            comps = rep.split(d.comp)
            if kind in ("date", "dob"):
                new = self.date(group, d.unescape(comps[0]), compact=True, birth=kind == "dob",
                                own=where.endswith(" PID-7"))
                comps = [new or ""] + comps[1:] if new else []
            elif kind in ("name", "doctor"):
                at = 1 if kind == "doctor" else 0   # XCN: ID^family^given^middle
                if kind == "doctor" and len(comps) > 0 and comps[0]:
                    comps[0] = self._text(group, comps[0], "IDNUM", d, where) or ""
                parts = [d.unescape(c) for c in comps[at:at + 3]]
                sub = "DOCTOR" if kind == "doctor" else "PATIENT"
                new_parts = self.name(group, [*parts[1:], parts[0]] if parts else [], sub, where)
                if new_parts is None:
                    comps = []
                elif parts:
                    ordered = [new_parts[-1], *new_parts[:-1]]
                    comps[at:at + len(parts)] = [d.escape(p, " ") for p in ordered]
            elif kind in ("id", "ssn"):
                sub = "SSN" if kind == "ssn" else "MEDICALRECORD"
                keep = self.surrogates and comps[0]
                comps = [self._text(group, comps[0], sub, d, where) or ""] + comps[1:] if keep else []
            elif kind == "address":  # street^other^city^state^zip^country: the state and country stay
                if not self.surrogates:
                    comps = ["", "", "", *comps[3:4], "", *comps[5:6]] if len(comps) > 3 else []
                else:
                    for j, sub in ((0, "STREET"), (1, "STREET"), (2, "CITY"), (4, "ZIP")):
                        if j < len(comps) and comps[j]:
                            comps[j] = self._text(group, comps[j], sub, d, where) or ""
            elif kind == "phone":  # number first, then the parts of XTN (area code, local number, e-mail)
                for j in (0, 3, 5, 6, 11):
                    if j < len(comps) and comps[j]:
                        sub = "EMAIL" if j == 3 else "PHONE"
                        comps[j] = self._text(group, comps[j], sub, d, where) or ""
            elif kind in ("place", "location"):
                subs = {1: "ROOM", 2: "ROOM", 3: "HOSPITAL"} if kind == "location" else {0: "ORGANIZATION"}
                for j, sub in subs.items():
                    if j < len(comps) and comps[j]:
                        comps[j] = self._text(group, comps[j], sub, d, where) or ""
            reps.append(d.comp.join(comps).rstrip(d.comp) if any(comps) else "")
        if kind != "dob" and (not self.surrogates or kind == "date"):  # birth dates: counted by date()
            self.count(f"{kind} field(s) {'replaced' if self.surrogates else 'cut or removed'}")
        return d.rep.join(reps).rstrip(d.rep)

    def _text(self, group: str, raw: str, sub: str, d: Delims, where: str) -> str | None:
        """A component's surrogate (escaped), or None when redacting."""
        new = self.value(group, d.unescape(raw), sub, where)
        return None if new is None else d.escape(new, " ")
