r"""What each part of an HL7 v2 message is, from the data type of its field.

The type of a field is the standard's (:mod:`crfdeid.io.hl7_std`: every segment of versions
2.1 to 2.8.2, in the version MSH-12 declares, else the latest that defines it), with the
roles of ``crfdeid/_data/hl7_fields.tsv`` on top (``ST/link``, ``TS/dob``...: an ST or TS field
that holds an identifier, a link or a birth date). :func:`role` says, for one leaf of a field
(a component or subcomponent of a repetition), how the writer de-identifies it, from
:data:`COMPONENTS` for the types that hold identifiers and from the standard's component
types for every other composite:

* ``text``: read by the model with the message's other texts (and with what the record says
  of the patient, ``meta["known"]``); the spans found are replaced, the rest written as read;
* ``varies``: text as well (OBX-5 of no or an unknown OBX-2 type); on top of the model, a run
  that holds four digits or more is taken as an identifier (:func:`number_runs`);
* ``unknown``: a field no version of the standard defines (Z-segments, fields out of place), a
  component past its type's definition: kept when it has the shape of a code
  (:func:`plain_code`), else removed whole;
* ``ctext``: the text of a coded entry (CE-2, CWE-5...: ``CHOLESTEROL (SERUM)``), clinical text,
  written as read (a value that is a date by its form is moved as a date);
* ``code``, ``ceid`` (the identifier or coding system of a coded entry: ``HL70005``, LOINC
  ``11492-6``), ``num``, ``time``: kept when the value has the shape (:func:`kept`), else
  ``text``; ``state`` (XAD-4): kept when it is the code of a state or province, else a place;
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

OBX-5 takes the type OBX-2 names (case folded for the look-up only). The explicit null ``""``
(``keep``) and empty leaves are always kept.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from . import hl7_std

#: The roles whose value is replaced by a surrogate of this subtype (or removed).
SUBTYPES = {"id": "IDNUM", "ssn": "SSN", "street": "STREET", "city": "CITY", "zip": "ZIP",
            "geo": "LOCATION-OTHER", "phone": "PHONE", "email": "EMAIL", "org": "HOSPITAL",
            "room": "ROOM", "place": "LOCATION-OTHER", "surname": "PATIENT"}
#: The parts of a person's name, replaced together (:meth:`RecordWriter.name`).
NAME_PARTS = ("family", "given", "middle")

_HD = {0: "org", 1: "id", 2: "code"}
_EI = {0: "link", 1: "org", 2: "id", 3: "code"}
_CE = {0: "ceid", 1: "ctext", 2: "ceid", 3: "ceid", 4: "ctext", 5: "ceid", 6: "code", 7: "code", 8: "ctext",
       9: "ceid", 10: "ctext", 11: "ceid", 12: "code", 13: "code", 14: "code", 15: "date", 16: "ctext", 17: "ctext",
       18: "date", 19: "ctext", 20: "ctext", 21: "date"}
#: Data type -> {component (from 0): role}; a role given as a dict is a composite held in
#: subcomponents. Components not listed are ``text``.
COMPONENTS: dict[str, dict] = {
    "XPN": {0: "FN", 1: "given", 2: "middle", 6: "code", 7: "code", 8: _CE, 9: "date", 10: "code", 11: "date",
            12: "date"},
    "XCN": {0: "id", 1: "FN", 2: "given", 3: "middle", 7: "code", 8: _HD, 9: "code", 10: "check", 11: "code",
            12: "code", 13: _HD, 14: "code", 16: "date", 17: "code", 18: "date", 19: "date"},
    "XAD": {0: "street", 1: "street", 2: "city", 3: "state", 4: "zip", 5: "code", 6: "code", 7: "geo", 8: "geo",
            9: "geo", 10: "code", 12: "date", 13: "date"},
    "XTN": {0: "phone", 1: "code", 2: "code", 3: "email", 4: "num", 5: "phone", 6: "phone", 7: "phone",
            10: "phone", 11: "phone", 12: "date", 13: "date", 16: "id"},
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
    "ST": {}, "TX": {}, "FT": {}, "TM": {0: "time"}, "TN": {0: "phone"},
    # the older versions' types (2.1-2.4) that hold identifiers
    "FN": {0: "family", 1: "text", 2: "surname", 3: "text", 4: "surname"},
    "PN": {0: "FN", 1: "given", 2: "middle", 5: "code"},
    "AD": {0: "street", 1: "street", 2: "city", 3: "state", 4: "zip", 5: "code", 6: "code", 7: "geo"},
    "CK": {0: "id", 1: "check", 2: "code", 3: _HD}, "CK_ACCOUNT_NO": {0: "id", 1: "check", 2: "code", 3: "code"},
    "CM_PAT_ID": {0: "id", 1: "check", 2: "code", 3: "code"}, "CM_PAT_ID_0192": {0: "id", 1: "check", 2: "code",
                                                                                  3: "code", 4: "code"},
    "PI": {0: "id", 1: "code", 2: "code"}, "CM_LICENSE_NO": {0: "id", 1: "code"},
    "CNN": {0: "id", 1: "family", 2: "given", 3: "middle", 6: "code", 7: "code", 8: "org", 9: "id", 10: "code"},
    "LA1": {0: "room", 1: "room", 2: "room", 3: _HD, 4: "code", 5: "code", 6: "room", 7: "room", 8: "room",
            9: "street", 10: "street", 11: "city", 12: "state", 13: "zip", 14: "code", 15: "geo"},
    "LA2": {0: "room", 1: "room", 2: "room", 3: _HD, 4: "code", 5: "code", 6: "room", 7: "room", 8: "street",
            9: "street", 10: "city", 11: "state", 12: "zip", 13: "code", 14: "code", 15: "geo"},
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
COMPONENTS["CN"] = {k: v for k, v in COMPONENTS["XCN"].items() if k < 9}
#: The roles given to a field type written with a role (``ST/id``) in the table.
_ROLES = {"ST/link": "LINK", "ST/id": "IDST", "ST/ssn": "SSN", "ST/place": "PLACE", "IS/place": "PLACE",
          "TS/dob": "DOB", "DTM/dob": "DOB"}
#: The text types: read by the model (not the number rule of unknown fields).
TEXT_TYPES = frozenset({"ST", "TX", "FT"})
#: The role of a primitive type of the standard (a field's or a component's).
PRIMITIVES = {"ST": "text", "TX": "text", "FT": "text", "GTS": "text", "ID": "code", "IS": "code", "NM": "num",
              "SI": "num", "DT": "date", "DTM": "date", "TS": "date", "TM": "time", "TN": "phone",
              "VARIES": "varies"}
#: The table's roles, given where the standard types the field as one of these.
_OVERLAYS = {"LINK": {"ST"}, "IDST": {"ST"}, "SSN": {"ST"}, "PLACE": {"ST", "IS", "CE", "CWE"},
             "DOB": {"TS", "DTM"}}
#: Segments whose first field is the field separator itself (MSH-1, FHS-1, BHS-1).
HEADERS = ("MSH", "FHS", "BHS")

CODE = re.compile(r"[A-Z0-9][A-Z0-9_.:+\-/]{0,19}|[A-Za-z]{1,3}")
#: The identifier or coding system of a coded entry: a token of letters, digits and ``._-:+/``.
CODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:+\-/]{0,63}")
#: A phone number or a social security number (never a code).
PERSONAL = re.compile(r"\d{3}[-. /]\d{3}[-. ]\d{4}|\d{3}-\d{2}-\d{4}|@")
PLAIN_CODE = re.compile(r"[A-Z0-9][A-Z0-9_.:+\-/]{0,19}|[a-z]{1,3}|[+-]?\d*\.\d+")
TIME = re.compile(r"\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?(?:[+-]\d{4})?")
#: A state or province (XAD-4): a code of two or three letters, or an ISO 3166-2 subdivision.
STATE = re.compile(r"[A-Za-z]{2,3}|[A-Z]{2}-[A-Z0-9]{1,3}")
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


@lru_cache(maxsize=8192)
def field_type(segment: str, number: int, obx_type: str = "", version: str | None = None) -> str | None:
    """The data type of field ``number`` of ``segment`` in ``version`` (None: no version of the
    standard nor the table defines it); OBX-5 by OBX-2 (``VARIES`` when OBX-2 names no type)."""
    std = hl7_std.field_type(segment, number, version)
    hand = table().get(segment, {}).get(number)
    typ = hand if hand in _OVERLAYS and (std is None or std in _OVERLAYS[hand]) else std or hand
    if typ == "VARIES" and segment == "OBX" and number == 5:
        folded = obx_type.strip().upper()
        known = folded in PRIMITIVES or (folded in COMPONENTS and folded not in _OVERLAYS) or \
            hl7_std.components(folded) is not None
        return folded if known else "VARIES"
    return typ


@lru_cache(maxsize=8192)
def role(typ: str | None, comp: int, sub: int, n_subs: int) -> str:
    """The role of subcomponent ``sub`` (of ``n_subs``) of component ``comp`` of a field of type
    ``typ`` (module docstring)."""
    if typ is None:
        return "unknown"
    if typ in TEXT_TYPES or typ == "VARIES":
        return "text" if typ != "VARIES" else "varies"
    hand = COMPONENTS.get(typ)
    r = hand.get(comp) if hand is not None else None
    if r is None:
        parts = hl7_std.components(typ)
        if parts is None:  # a primitive: its one component; anything past it is out of place
            return PRIMITIVES.get(typ, "unknown") if comp == 0 and sub == 0 else "unknown"
        if comp >= len(parts):
            return "unknown"
        return _component_role(parts[comp], sub)
    if isinstance(r, dict):
        r = r.get(sub, "text")
    elif r == "FN":  # a family name: surname & own surname prefix & own surname & partner's...
        r = "family" if sub == 0 else ("text" if sub in (1, 3) else "surname")
    elif sub and r in NAME_PARTS:
        r = "surname"
    elif sub and r not in SUBTYPES and r not in ("code", "link", "ctext", "ceid"):
        parts = hl7_std.components(typ) or ()
        r = _component_role(parts[comp], sub) if comp < len(parts) and parts[comp] not in PRIMITIVES else "text"
    return r


def _component_role(ctype: str, sub: int) -> str:
    """The role of subcomponent ``sub`` of a component of type ``ctype``."""
    if ctype in PRIMITIVES:
        return PRIMITIVES[ctype] if sub == 0 else "unknown"
    if ctype in COMPONENTS or hl7_std.components(ctype) is not None:
        r = role(ctype, sub, 0, 1)
        return "text" if r == "FN" else r
    return "unknown"


def kept(r: str, value: str) -> str:
    """``r`` for a value of a ``code``, ``ceid``, ``num``, ``time`` or ``state`` role that has the
    shape, else ``text`` (a state: ``city``). A code of a coded field (ID, IS) holds no run of four
    digits or more (a phone or record number in a code field is text); the identifier or coding
    system of a coded entry (CE-1, CE-3: LOINC ``11492-6``, ``HL70005``, ``ICD9CM``) may, but for
    the shape of a phone or social security number.

    >>> kept("code", "SEL"), kept("code", "617-555-0189"), kept("ceid", "HL70005"), kept("num", "Lee")
    ('code', 'text', 'code', 'text')
    >>> kept("state", "MA"), kept("state", "Springfield")
    ('code', 'city')
    """
    if r == "encoding":  # ED-4, HL7 table 0299 (A, Hex, Base64: mixed case)
        r = "code" if value.upper() in ("A", "HEX", "BASE64") else "text"
    elif r == "ceid":
        r = "code" if CODE_ID.fullmatch(value) and not PERSONAL.search(value) else "text"
    elif r == "code":
        r = "code" if CODE.fullmatch(value) and (_digits(value) < 4 or not number_runs(value)) else "text"
    elif r == "num":
        r = "num" if NUMBER.fullmatch(value) or SN_SIGN.fullmatch(value) else "text"
    elif r == "time":
        r = "code" if TIME.fullmatch(value) else "text"
    elif r == "state":
        r = "code" if STATE.fullmatch(value) else "city"
    return r


def plain_code(value: str) -> bool:
    """Whether a value of a field no definition names has the shape of a code (kept): 1-3
    upper or lower case letters, or upper case letters and digits with fewer than four digits (``Y``, ``ABC``,
    ``A12``, ``3.5``); a word of four letters or more may be a name, a longer number an identifier.

    >>> [plain_code(v) for v in ("Y", "A12", "12.5", "SMITH", "4410291", "Lee")]
    [True, True, True, False, False, False]
    """
    return bool(PLAIN_CODE.fullmatch(value)) and _digits(value) < 4 and \
        (len(value) <= 3 or any(c.isdigit() for c in value))


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
