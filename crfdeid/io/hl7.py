r"""HL7 v2 messages: every field de-identified by its data type, the message written back byte
for byte but the values replaced.

Reader ``hl7:PATH``: an ``.hl7`` file (or any file named), a folder of ``*.hl7`` files, or
``-``; one or several messages a file (:mod:`crfdeid.io.hl7_parse`: each from its ``MSH``,
batch headers and trailers with it). One document per message: the text of every leaf whose
role is text (:mod:`crfdeid.io.hl7_types`: the text types ST, TX, FT, the text components of
CE/CWE/CNE, OBX-5 by OBX-2, and every field of a type or segment the table does not know), one
leaf a line, escape sequences read (``\F\`` is ``|``, ``\.br\`` a line break). The patient (the
surrogates' group) is the first identifier of PID-3; PID-5 names, PID-3 identifiers, PID-7
birth date, PID-11 addresses, PID-13/14 phones, PID-18 account, PID-19 SSN and the NK1 names,
addresses and phones give ``meta["known"]``. Text before the first ``MSH`` that is no batch
header, a message whose ``MSH`` does not declare its separators, or a segment that is not
``XYZ|...`` is reported by file, message number and line (never its content), and that message
is not read.

Writer ``hl7`` (:class:`Hl7Writer`, ``-o text=redacted|masked|surrogate``): the texts
de-identified where the spans are (the rest of a text keeps its bytes, escape sequences too;
a replacement is escaped); names, identifiers, addresses, phones, places and facility names
(HD) removed (redacted, masked) or replaced by the patient's surrogates, a surrogate cleaned
of separators; dates moved by the patient's offset (surrogate) or cut to their year (a birth
date removed); codes and numbers kept when they have the shape of one. The separators, escape
sequences, terminators, byte-order mark and explicit nulls (``""``) are written as read.
"""

from __future__ import annotations

import difflib
import hashlib
import hmac
import re
from pathlib import Path

from ..document import Document, Span, make_span
from ..errors import OutputError, ReaderError
from . import hl7_attach
from .files import check_encoding
from .hl7_parse import (
    Delims,
    check_message,
    delims_for,
    fields_of,
    file_text,
    leaves,
    lines_of,
    rebuild,
    split_messages,
)
from .hl7_std import version_of
from .hl7_types import NAME_PARTS, SUBTYPES, field_type, kept, number_runs, plain_code, role
from .record_dates import HL7_DATE, as_date
from .records import Record, RecordWriter, input_files, known_fields, link_key, piece
from .registry import READERS, WRITERS

#: What the model reads: text leaves, those of a type or segment crfdeid does not know, and
#: text attachments (:mod:`crfdeid.io.hl7_attach`).
TEXT_ROLES = ("text", "varies", "attached")
#: Between two leaves while the writer de-identifies the texts (a character no text holds).
_BOUNDARY = "\ue000"
_DOCTOR_TYPES = ("XCN", "NDL", "PPN")
#: The roles the writer replaces or removes by their type (not read by the model).
_TYPED = frozenset({"date", "dob", "check", "data", "pointer", "baddate", "link", "unknown", *SUBTYPES, *NAME_PARTS})
#: An HL7 DT, DTM or TS value (a year alone to fractions of a second, a time zone).
_DATE_FORM = re.compile(r"\d{4}(?:\d{2}(?:\d{2}(?:\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?)?)?)?(?:[+-]\d{4})?")


def plan(lines: list[tuple[str, str]], d: Delims) -> list[tuple]:
    """``(line, field, repetition, component, subcomponent, raw, role, type)`` of every leaf of a
    message (:func:`crfdeid.io.hl7_types.role`), a date recognized by its form in a leaf of
    text or code."""
    out = []
    codec = _charset(lines, d)
    version = _version(lines, d)
    for k, (content, _) in enumerate(lines):
        if len(content) < 4:
            continue
        dk = delims_for(content, d)
        f = fields_of(content, dk)
        seg = f[0]
        obx2 = dk.read(f[2])[0] if seg == "OBX" and len(f) > 2 else ""
        query = seg in _QUERY_SEGMENTS
        for n, r, c, s, n_subs, raw in leaves(content, dk, f):
            typ = field_type(seg, n, obx2, version)
            what = role(typ, c, s, n_subs)
            if query and (seg, n) in _QUERIES:
                typ, what = _query_role(f[n].split(dk.rep)[r].split(dk.comp)[0], dk, c, typ, what)
            if raw == '""':
                what = "keep"   # the explicit null: "delete this value" in the receiver
            elif what in _DATE_ABLE and _is_date(raw):
                what = "date"
            elif what in ("date", "dob") and not _DATE_FORM.fullmatch(raw):
                what = "baddate"  # a date field that holds no date (196203520): removed
            elif what == "data":
                comps = [*f[n].split(dk.rep)[r].split(dk.comp), "", "", ""]
                what = "text" if comps[3] == "A" else "attached" if hl7_attach.is_text(*comps[1:4]) and \
                    hl7_attach.decode(dk.read(raw)[0], codec) is not None else "data"
            elif what in _SHAPED:
                what = kept(what, dk.read(raw)[0])
            elif what == "unknown" and plain_code(dk.read(raw)[0]):
                what = "code"
            elif what == "ctext" and seg == "OBX" and n == 5:
                what = "text"  # a coded result's text may be a sentence of the report: read
            elif what == "text" and _SMALL_NUMBER.fullmatch(raw):
                what = "num"  # a count in a text field (BTS-1): no identifier, not read
            out.append((k, n, r, c, s, raw, what, typ))
    return out


#: The roles a value recognized as a date by its form is moved in; those kept by their shape.
_DATE_ABLE = frozenset({"text", "unknown", "varies", "code", "ceid", "ctext", "num", "encoding"})
_SHAPED = frozenset({"code", "ceid", "num", "encoding", "time", "state"})
_SMALL_NUMBER = re.compile(r"[+-]?\d{1,3}(?:\.\d{1,3})?")


#: The query fields whose repetitions are ``@SEG.field[.component[.sub]]^value`` (QPD-3 of IHE
#: PDQ, ERQ-3 QIP): a value takes the role of the field it names (``@PID.5.1^Smith``: a family name).
_QUERIES = frozenset({("QPD", 3), ("ERQ", 3)})
_QUERY_SEGMENTS = frozenset(seg for seg, _ in _QUERIES)
_FIELD_NAME = re.compile(r"@?([A-Z][A-Z0-9]{2})\.(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def _query_role(name: str, d: Delims, comp: int, typ, what: str) -> tuple:
    """``(type, role)`` of component ``comp`` of a query's repetition whose first component is ``name``."""
    m = _FIELD_NAME.fullmatch(d.read(name)[0])
    if m is None:
        return typ, what
    if comp == 0:
        return typ, "keep"
    named = field_type(m[1], int(m[2]))
    return named, role(named, int(m[3] or 1) - 1, int(m[4] or 1) - 1, 1)


def _charset(lines, d: Delims) -> str | None:
    """The codec of the message's character set (MSH-18), None when crfdeid does not know it."""
    msh = next(c for c, _ in lines if c.startswith("MSH"))
    f = fields_of(msh, d)
    return hl7_attach.charset(d.read(f[18].split(d.rep)[0])[0] if len(f) > 18 else "")


def _version(lines, d: Delims) -> str | None:
    """The version of the standard the message declares (MSH-12), as :mod:`crfdeid.io.hl7_std` knows it."""
    msh = next(c for c, _ in lines if c.startswith("MSH"))
    f = fields_of(msh, d)
    return version_of(d.read(f[12].split(d.rep)[0].split(d.comp)[0])[0]) if len(f) > 12 and f[12] else None


def _is_date(value: str) -> bool:
    return bool(HL7_DATE.fullmatch(value)) and as_date(value[:8], compact=True) is not None


def _texts(lines, d: Delims, leaves_: list[tuple]) -> list[tuple[tuple, str, list[int]]]:
    """``(leaf, text, starts)`` of the leaves the model reads (an attachment: its text decoded)."""
    out = []
    for leaf in leaves_:
        if leaf[6] in TEXT_ROLES:
            text, starts = delims_for(lines[leaf[0]][0], d).read(leaf[5])
            if leaf[6] == "attached":
                text = hl7_attach.decode(text, _charset(lines, d)) or ""
            out.append((leaf, text, starts))
    return out


_KNOWN = {"PID": {3: "mrn", 5: "name", 11: "address", 13: "phone", 14: "phone", 18: "account", 19: "ssn",
                  7: "birth_date"},
          "NK1": {2: "relative", 4: "address", 5: "phone", 6: "phone"}}


def _known(lines, d: Delims) -> dict:
    fields: dict[str, list[str]] = {k: [] for k in ("name", "relative", "mrn", "account", "ssn", "phone", "address",
                                                    "birth_date")}
    for content, _ in lines:
        f = fields_of(content, d) if content[:3] in _KNOWN else [""]
        for num, kind in _KNOWN.get(f[0], {}).items():
            if len(f) <= num:
                continue
            for rep in f[num].split(d.rep):
                comps = [d.read(c)[0] for c in rep.split(d.comp)]
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


def _named(leaves_: list[tuple], known: dict, lines, d: Delims) -> list[tuple]:
    """The leaves, a code's text (``ctext``) that holds what the message says of its patient or
    relatives (their numbers, a word of a name of theirs or of anyone the message names in a
    name field) made ``text``: read by the model."""
    if not any(leaf[6] == "ctext" for leaf in leaves_):
        return leaves_
    words = {w.casefold() for k in ("name", "relative") for v in known.get(k, ()) for w in _WORD.findall(v)}
    words |= {w.casefold() for leaf in leaves_ if leaf[6] in _NAMED  # every person the message names
              for w in _WORD.findall(delims_for(lines[leaf[0]][0], d).read(leaf[5])[0])}
    numbers = [v.casefold() for k, vs in known.items() if k not in ("name", "relative", "birth_date")
               for v in vs if len(v) >= 4]
    if not words and not numbers:
        return leaves_

    def holds(text: str) -> bool:
        low = text.casefold()
        return any(w in words for w in _WORD.findall(low)) or any(n in low for n in numbers)
    return [(*leaf[:6], "text", leaf[7]) if leaf[6] == "ctext" and holds(
        delims_for(lines[leaf[0]][0], d).read(leaf[5])[0]) else leaf for leaf in leaves_]


_WORD = re.compile(r"\w{2,}")
_NAMED = frozenset({*NAME_PARTS, "surname"})


def patient_of(lines, d: Delims) -> str | None:
    for content, _ in lines:
        f = fields_of(content, d) if content.startswith("PID") else [""]
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
        text = file_text(data, report, source, encoding)
        if text is None:
            continue
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        lines = lines_of(text[len(bom):])
        stem = Path(name).stem
        messages, bad = split_messages(lines)
        if bad:  # one report a file (a file of another kind has thousands of such lines)
            more = f" and {len(bad) - 1} other line(s)" if len(bad) > 1 else ""
            report(ReaderError(f"line {bad[0] + 1}{more}: text before the first MSH segment is not read",
                               path=source))
        for number, numbers in enumerate(messages, 1):
            mine = [lines[n] for n in numbers]
            first = next(n for n in numbers if lines[n][0].startswith("MSH")) + 1
            why = check_message([c for c, _ in mine])
            if why is not None:
                report(ReaderError(f"message {number} (line {first}): {why}; it is not read", path=source))
                continue
            d = Delims(next(c for c, _ in mine if c.startswith("MSH")))
            known = _known(mine, d)
            leaves_ = _named(plan(mine, d), known, mine, d)
            texts = _texts(mine, d, leaves_)
            where = f"file {source!r} message {number}"
            rec = Record(source, name, where, mine, pieces=1,
                         extra={"bom": bom if numbers[0] == 0 else "", "plan": leaves_})
            group = patient_of(mine, d) or f"{stem}#{number}"
            body = "\n".join(t for _, t, _ in texts)
            yield piece(rec, 0, f"{stem}-{number}", body, group, known, number, "record")


def rewrite(raw: str, starts: list[int], old: str, new: str, d: Delims) -> str:
    """``raw`` (whose text is ``old``) changed so that its text reads ``new``: what did not
    change keeps its bytes (escape sequences as written), what changed is escaped."""
    if d.esc not in raw:  # raw is its text and holds no separator: the whole new text escaped
        return d.escape(new)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(raw[starts[i1]:starts[i2]])
        else:  # highlighting before the replaced text stays (it holds no text)
            out.append(raw[starts[i1]:d.formatting(raw, starts[i1])] + d.escape(new[j1:j2]))
    return "".join(out)


def hashed_link(key: bytes, value: str) -> str:
    """The keyed hash (HMAC-SHA256) of an identifier that links messages: 16 upper-case hex
    digits, which fit every version's field (MSH-10, EI-1) and hold no separator.

    >>> hashed_link(b"k" * 16, "MSG0001") == hashed_link(b"k" * 16, "MSG0001") != hashed_link(b"k" * 16, "MSG0002")
    True
    """
    return hmac.new(key, b"hl7-link\x1f" + value.encode("utf-8"), hashlib.sha256).hexdigest()[:16].upper()


@WRITERS.register("hl7")
class Hl7Writer(RecordWriter):
    """The messages read by ``hl7:`` written back de-identified, with their own separators. The
    identifiers that link messages (``link``: MSH-10 and MSA-2, EI identifiers...) are replaced
    by a keyed hash (the surrogates' key; with ``text=redacted`` or ``masked``, the ``key`` or
    ``seed`` given, else a key made for the run)."""

    def __init__(self, out, text: str = "redacted", scheme=None, seed=None, key=None, **options):
        # the keyed hash of the links takes the key or seed; the text writer only when it draws surrogates
        keyed = {"seed": seed, "key": key} if text == "surrogate" else {}
        super().__init__(out, text, scheme, **keyed, **options)
        self.link_key = link_key(self, key, seed)

    def name_of(self) -> str:
        return "hl7"

    def render(self, record: Record, docs) -> str:
        [doc] = docs
        lines = list(record.payload)
        d = Delims(next(c for c, _ in lines if c.startswith("MSH")))
        group = doc.group
        for content, _ in lines:  # a patient over 89 is known before the text is written
            f = fields_of(content, d) if content.startswith("PID") else [""]
            if f[0] == "PID" and len(f) > 7 and f[7]:
                self.over_89(group, f[7].split(d.comp)[0], compact=True)
        leaves_ = record.extra.get("plan") or plan(lines, d)  # the reader's
        texts = _texts(lines, d, leaves_)
        if doc.text != "\n".join(t for _, t, _ in texts):
            raise OutputError(f"{record.where}: its text is not the one read; not written", doc_id=doc.doc_id)
        changes: dict[int, dict] = {}
        for (leaf, old, starts), new in zip(texts, self._new_texts(doc, texts)):
            if new != old:
                dk = delims_for(lines[leaf[0]][0], d)
                if leaf[6] == "attached":  # the attachment's base64, in its character set and layout
                    raw = self._encoded(leaf[5], starts, new, _charset(lines, d), dk, record.where, doc.doc_id)
                else:
                    raw = rewrite(leaf[5], starts, old, new, dk)
                changes.setdefault(leaf[0], {})[leaf[1:5]] = raw
                self.count("text attachment(s) de-identified" if leaf[6] == "attached" else
                           "text value(s) de-identified")
        self._typed(lines, d, leaves_, group, record.where, changes)
        out = [(rebuild(c, delims_for(c, d), changes[k]) if k in changes else c) + t
               for k, (c, t) in enumerate(lines)]
        return record.extra.get("bom", "") + "".join(out)

    @staticmethod
    def _encoded(raw: str, starts: list[int], text: str, codec: str | None, d: Delims, where: str,
                 doc_id: str) -> str:
        r"""An attachment's ``raw`` data with ``text`` in its place: base64 in its character set,
        its lines as long and their breaks written as in ``raw`` (``\X0D0A\``, ``\.br\``...)."""
        data = d.read(raw)[0]
        try:
            new = hl7_attach.encode(text, data, codec or "utf-8")
        except UnicodeEncodeError:
            raise OutputError(f"{where}: a de-identified attachment does not fit its character set; "
                              "not written", doc_id=doc_id) from None
        brk = hl7_attach.BREAK.search(data)
        joint = raw[starts[brk.start()]:starts[brk.end()]] if brk else ""
        return joint.join(d.escape(line) for line in hl7_attach.BREAK.split(new))

    def _new_texts(self, doc: Document, texts) -> list[str]:
        """The texts de-identified together (one surrogate state, one document), each leaf apart:
        the spans cut at the leaves' ends, runs of 4 digits or more in unknown fields added."""
        spans, pos, bounds = [], 0, []
        for leaf, text, _ in texts:
            end = pos + len(text)
            mine = [Span(max(s.start, pos), min(s.end, end), s.category, s.subtype, s.confidence)
                    for s in doc.spans if s.start < end and s.end > pos]
            if leaf[6] == "varies":
                for a, b in number_runs(text):
                    a, b = a + pos, b + pos
                    if not any(s.start < b and a < s.end for s in mine):
                        mine.append(make_span(a, b, "IDNUM"))
                    else:  # a run a span covers in part: the span takes the whole run
                        mine = [Span(min(s.start, a), max(s.end, b), s.category, s.subtype, s.confidence)
                                if s.start < b and a < s.end else s for s in mine]
            spans += mine
            bounds.append((pos, end))
            pos = end + 1
        if not spans:
            return [t for _, t, _ in texts]
        joined = _BOUNDARY.join(t for _, t, _ in texts)
        new = self.text(Document(doc.doc_id, joined, sorted(set(spans)), dict(doc.meta))).split(_BOUNDARY)
        if len(new) != len(texts):
            raise OutputError("a replacement took a field's end; the message is not written", doc_id=doc.doc_id)
        return new

    def _typed(self, lines, d: Delims, leaves_, group: str, where: str, changes: dict) -> None:
        """The structured leaves (names, identifiers, dates...) replaced or removed, in ``changes``."""
        names: dict[tuple, dict[str, tuple]] = {}
        drawn: list[tuple] = []  # (where, separators, value, subtype, a name's parts)
        done = "replaced" if self.surrogates else "removed"
        for leaf in leaves_:
            if leaf[6] not in _TYPED:
                continue
            k, n, r, c, s, raw, what, typ = leaf
            dk = delims_for(lines[k][0], d)
            seg = lines[k][0][:3]
            if what in NAME_PARTS:
                key: tuple = (k, n, r, typ)
                if what in names.get(key, {}):  # a second name in one repetition (a query's values)
                    key = (k, n, r, typ, c, s)
                names.setdefault(key, {})[what] = leaf
                continue
            if what in ("date", "dob"):
                new = self.date(group, raw, compact=True, birth=what == "dob", own=seg == "PID" and n == 7)
                if what == "date":
                    self.count(f"date(s) {'moved' if self.surrogates else 'cut to the year'}")
                elif new:
                    self.count("birth date(s) moved")
            elif what in SUBTYPES:
                sub = "DOCTOR" if what == "surname" and typ in _DOCTOR_TYPES else SUBTYPES[what]
                drawn.append(((k, (n, r, c, s)), dk, dk.read(raw)[0], sub, None))
                self.count(f"{what} value(s) {done}")
                continue
            elif what == "link":
                new = hashed_link(self.link_key, dk.read(raw)[0])
                self.count("linking id(s) hashed")
            elif what in ("check", "data", "pointer", "baddate", "unknown"):
                new = None
                self.count({"check": "check digit(s) removed", "data": "encapsulated data removed (not text)",
                            "unknown": "value(s) of a field no definition names removed",
                            "pointer": "reference pointer(s) removed",
                            "baddate": "date field(s) holding no date removed"}[what])
            else:
                continue
            changes.setdefault(k, {})[(n, r, c, s)] = dk.clean(new or "")
        for (k, _n, _r, typ, *_), parts in names.items():
            dk = delims_for(lines[k][0], d)
            order = [p for p in ("given", "middle", "family") if p in parts]
            sub = "DOCTOR" if typ in _DOCTOR_TYPES else "PATIENT"
            words = [dk.read(parts[p][5])[0] for p in order]
            drawn.append(([(k, parts[p][1:5]) for p in order], dk, " ".join(" ".join(words).split()), sub, words))
            self.count(f"name(s) {'replaced' if self.surrogates else 'removed'}")
        # every value and name of the message drawn in one pass (the patient's surrogates)
        drawn_new = self.values(group, [(value, sub) for _, _, value, sub, _ in drawn], where)
        for (at, dk, _, _, words), got in zip(drawn, drawn_new):
            if words is None:
                changes.setdefault(at[0], {})[at[1]] = dk.clean(got or "")
            else:
                for (k, key), value in zip(at, self.name_parts(words, got) if got else [""] * len(at)):
                    changes.setdefault(k, {})[key] = dk.clean(value)
