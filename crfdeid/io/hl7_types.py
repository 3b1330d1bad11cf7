r"""What each part of an HL7 v2 message is, from the data type of its field.

The shipped table ``crfdeid/_data/hl7_fields.tsv`` gives the data type of each field of the
segments crfdeid knows (v2.3-v2.8); :func:`role` says, for one leaf of a field (a component or
subcomponent of a repetition), how the writer de-identifies it:

* ``text``: read by the model with the message's other texts (and with what the record says
  of the patient, ``meta["known"]``); the spans found are replaced, the rest written as read;
* ``unknown``: text as well, for a field whose type crfdeid does not know, a field the table
  does not list or a segment it does not know (Z-segments): never passed as it came. On top
  of the model, a run that holds four digits or more is taken as an identifier
  (:func:`number_runs`);
* ``code`` and ``num``: kept when the value has the shape of a code (upper case, digits and
  ``._-:+/``, at most 20 characters, or 1-3 letters; no run of four digits but in the
  identifier of a coded entry, ``ceid``) or parses as a number; else ``text``;
* ``date``, ``dob``: a date, moved by the patient's offset (cut to its year when redacting);
  a value of a date field that is no date is removed (``baddate``, set by the reader);
* a kind of identifier (``family``, ``given``, ``middle``, ``surname``, ``id``, ``ssn``,
  ``check``, ``street``, ``city``, ``zip``, ``geo``, ``phone``, ``email``, ``org``,
  ``room``, ``place``) replaced by a surrogate or removed; ``data``: an encapsulated
  document (ED-5) that is not text, removed (a text attachment in base64 is ``attached``,
  read by the model: :mod:`crfdeid.io.hl7_attach`); ``pointer``: a reference pointer (RP-1,
  a document's address), removed;
* ``link``: an identifier that links messages or segments (MSH-10 and the MSA-2 that
  acknowledges it, the query tags QPD-2, QAK-1, QRD-4, ERQ-1, every EI identifier: the placer
  and filler numbers of ORC-2/OBR-2, ORC-3/OBR-3, a parent's in ORC-8/OBR-29...), replaced by a
  keyed hash of it (the same value gives the same hash in every message and style), so that
  the links hold.

OBX-5 takes the type OBX-2 names (case folded for the look-up only; an empty or unknown type
is text). The explicit null ``""`` (``keep``) and empty leaves are always kept.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

#: The roles whose value is replaced by a surrogate of this subtype (or removed).
SUBTYPES = {"id": "IDNUM", "ssn": "SSN", "street": "STREET", "city": "CITY", "zip": "ZIP",
            "geo": "LOCATION-OTHER", "phone": "PHONE", "email": "EMAIL", "org": "HOSPITAL",
            "room": "ROOM", "place": "LOCATION-OTHER", "surname": "PATIENT"}
#: The parts of a person's name, replaced together (:meth:`RecordWriter.name`).
NAME_PARTS = ("family", "given", "middle")

_HD = {0: "org", 1: "id", 2: "code"}
_EI = {0: "link", 1: "org", 2: "id", 3: "code"}
_CE = {0: "ceid", 1: "text", 2: "code", 3: "ceid", 4: "text", 5: "code", 6: "code", 7: "code", 8: "text"}
#: Data type -> {component (from 0): role}; a role given as a dict is a composite held in
#: subcomponents. Components not listed are ``text``.
COMPONENTS: dict[str, dict] = {
    "XPN": {0: "FN", 1: "given", 2: "middle", 6: "code", 7: "code", 8: _CE, 9: "date", 10: "code", 11: "date",
            12: "date"},
    "XCN": {0: "id", 1: "FN", 2: "given", 3: "middle", 7: "code", 8: _HD, 9: "code", 10: "check", 11: "code",
            12: "code", 13: _HD, 14: "code", 16: "date", 17: "code", 18: "date", 19: "date"},
    "XAD": {0: "street", 1: "street", 2: "city", 3: "code", 4: "zip", 5: "code", 6: "code", 7: "geo", 8: "geo",
            9: "geo", 10: "code", 12: "date", 13: "date"},
    "XTN": {0: "phone", 1: "code", 2: "code", 3: "email", 4: "num", 5: "phone", 6: "phone", 7: "phone",
            10: "phone", 11: "phone"},
    "CX": {0: "id", 1: "check", 2: "code", 3: _HD, 4: "code", 5: _HD, 6: "date", 7: "date"},
    "HD": _HD, "EI": _EI, "EIP": {0: _EI, 1: _EI},
    "XON": {0: "org", 1: "code", 2: "id", 3: "check", 4: "code", 5: _HD, 6: "code", 7: _HD, 8: "code", 9: "id"},
    "PL": {0: "room", 1: "room", 2: "room", 3: _HD, 4: "code", 5: "code", 6: "room", 7: "room", 9: _EI, 10: _HD},
    "CE": _CE, "CWE": _CE, "CNE": _CE, "CF": _CE,
    "TS": {0: "date", 1: "code"}, "DTM": {0: "date"}, "DT": {0: "date"}, "DR": {0: {0: "date"}, 1: {0: "date"}},
    "DOB": {0: "dob", 1: "code"},
    "ID": {0: "code"}, "IS": {0: "code"}, "MSG": {0: "code", 1: "code", 2: "code"}, "PT": {0: "code", 1: "code"},
    "VID": {0: "code", 1: _CE, 2: _CE}, "JCC": {0: "code", 1: "code"}, "DLD": {0: "code", 1: "date"},
    "NM": {0: "num"}, "SI": {0: "num"}, "SN": {0: "code", 1: "num", 2: "code", 3: "num"},
    "ST": {}, "TX": {}, "FT": {},
    "SSN": {0: "ssn"}, "IDST": {0: "id"}, "PLACE": {0: "place"}, "AUI": {0: "id", 1: "date", 2: "text"},
    "DLN": {0: "id", 1: "code", 2: "date"},
    "ED": {0: _HD, 1: "code", 2: "code", 3: "encoding", 4: "data"},
    "LINK": {0: "link"},
    "RP": {0: "pointer", 1: _HD, 2: "code", 3: "code"},
}
# A name in an NDL (OBR-32..35: CNN in subcomponents) or a PPN (TXA-22, an XCN and a time).
COMPONENTS["NDL"] = {0: {**{k: v for k, v in COMPONENTS["XCN"].items() if k < 8}, 1: "family", 8: "org", 9: "id",
                         10: "code"}, 1: "date", 2: "date", 3: "room", 4: "room", 5: "room", 6: _HD, 9: "room",
                     10: "room"}
COMPONENTS["PPN"] = {**COMPONENTS["XCN"], 14: "date"}
#: The roles given to a field type written with a role (``ST/id``) in the table.
_ROLES = {"ST/link": "LINK", "ST/id": "IDST", "ST/ssn": "SSN", "ST/place": "PLACE", "IS/place": "PLACE",
          "TS/dob": "DOB", "DTM/dob": "DOB"}
#: The text types: read by the model (not the number rule of unknown fields).
TEXT_TYPES = frozenset({"ST", "TX", "FT"})
#: OBX-2 value types OBX-5 is read as; any other (empty, unknown) is unknown text.
OBX_TYPES = frozenset(COMPONENTS) - {"DOB", "SSN", "IDST", "PLACE", "LINK"} | {"TM"}
#: Segments whose first field is the field separator itself (MSH-1, FHS-1, BHS-1).
HEADERS = ("MSH", "FHS", "BHS")

CODE = re.compile(r"[A-Z0-9][A-Z0-9_.:+\-/]{0,19}|[A-Za-z]{1,3}")
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[Ee][+-]?\d+)?")
SN_SIGN = re.compile(r"(?:[<>=]|<=|>=|<>)|[-+/.:]")
#: A run that holds four digits or more (with letters, ``-./`` between, a space between digits:
#: ``943 476 5919``): an identifier in a field of unknown type.
NUMBER_RUN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|[-./](?=[A-Za-z0-9])|(?<=\d) (?=\d))*")


@lru_cache(maxsize=1)
def table() -> dict[str, dict[int, str]]:
    """The shipped table: segment -> {field number: data type}."""
    text = resources.files("crfdeid._data").joinpath("hl7_fields.tsv").read_text(encoding="utf-8")
    return parse_table(text)


def parse_table(text: str) -> dict[str, dict[int, str]]:
    """``segment <TAB> n:TYPE n:TYPE...`` lines (``#`` comments) as a mapping."""
    out: dict[str, dict[int, str]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        seg, _, fields = line.partition("\t")
        types = {}
        for item in fields.split():
            num, _, typ = item.partition(":")
            if not num.isdigit() or not typ:
                raise ValueError(f"hl7_fields.tsv line {n}: {item!r} is not field:TYPE")
            types[int(num)] = _ROLES.get(typ, typ)
        out[seg.strip()] = types
    return out


@lru_cache(maxsize=4096)
def field_type(segment: str, number: int, obx_type: str = "") -> str | None:
    """The data type of field ``number`` of ``segment`` (None: unknown); OBX-5 by OBX-2."""
    typ = table().get(segment, {}).get(number)
    if typ == "VARIES" and segment == "OBX" and number == 5:
        folded = obx_type.strip().upper()
        return folded if folded in OBX_TYPES else None
    return typ if typ in COMPONENTS else None


@lru_cache(maxsize=4096)
def role(typ: str | None, comp: int, sub: int, n_subs: int) -> str:
    """The role of subcomponent ``sub`` (of ``n_subs``) of component ``comp`` of a field of type
    ``typ`` (module docstring)."""
    if typ is None:
        return "unknown"
    if typ in TEXT_TYPES:
        return "text"
    r = COMPONENTS[typ].get(comp, "text")
    if isinstance(r, dict):
        r = r.get(sub, "text")
    elif r == "FN":  # a family name: surname & own surname prefix & own surname & partner's...
        r = "family" if sub == 0 else ("text" if sub in (1, 3) else "surname")
    elif sub and r in NAME_PARTS:
        r = "surname"
    elif sub and r not in SUBTYPES and r not in ("code", "link"):
        r = "text"
    return r


def kept(r: str, value: str) -> str:
    """``r`` for a value of a ``code`` or ``num`` role that has the shape, else ``text``. A code
    of a coded field (ID, IS) holds no run of four digits or more (a phone or record number in
    a code field is text); the identifier of a coded entry (CE-1, CE-4: LOINC ``11492-6``) may.

    >>> kept("code", "SEL"), kept("code", "617-555-0189"), kept("ceid", "11492-6"), kept("num", "Lee")
    ('code', 'text', 'code', 'text')
    """
    if r == "encoding":  # ED-4, HL7 table 0299 (A, Hex, Base64: mixed case)
        r = "code" if value.upper() in ("A", "HEX", "BASE64") else "text"
    elif r == "ceid":
        r = "code" if CODE.fullmatch(value) else "text"
    elif r == "code":
        r = "code" if CODE.fullmatch(value) and (_digits(value) < 4 or not number_runs(value)) else "text"
    elif r == "num":
        r = "num" if NUMBER.fullmatch(value) or SN_SIGN.fullmatch(value) else "text"
    return r


def _digits(text: str) -> int:
    return sum(map(str.isdigit, text))


def number_runs(text: str) -> list[tuple[int, int]]:
    """The runs of ``text`` that hold four digits or more: taken as identifiers in a field of
    unknown type. Evidence: such a field (a Z-segment's account number, an insurance segment's
    member number the table does not list) is written by a site for its own use, where a run
    of digits names an account, a person or a place far more often than a quantity; the model
    reads such a field on a line alone, without the context it learned identifiers in.

    >>> number_runs("acct ACC-0099812 qty 12")
    [(5, 16)]
    """
    return [m.span() for m in NUMBER_RUN.finditer(text) if sum(c.isdigit() for c in m.group()) >= 4]
