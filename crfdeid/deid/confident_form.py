r"""Evidence against a fixed Safe Harbor form's span before a made-up value (branch ``proof24``, 2026-11-27;
docs/deid.md, "Fixed forms against a made-up value").

The writer trusts a span over a fixed form of the Safe Harbor layer (a phone, an e-mail, a labelled identifier, a
postcode after its state: :func:`crfdeid.recognizers.safeharbor.matches`) without asking evidence of its type: the
form is its own evidence (:meth:`crfdeid.deid.policies.Policies._doubt`). A form's own match can still say that the
span is not the identifier the form claims, as a made-up value would rewrite it; then the span gets a placeholder
of its type (the redacted output reads none of this):

* **letters beside the form** (``beside``): a phone's, a fax's or an identifier's span that holds a single letter
  outside every form's match (``T 0161 555 0199``, ``0161 555 0199  M``: a letterhead's or a field's letter the
  tagger took in), or an e-mail's span with any word outside its address (``correo ana@example.org``: a label); a
  made-up value over the whole span would rewrite the letter or the label too. Digits beside a form are the
  ``wider`` rule's (:meth:`~crfdeid.deid.policies.Policies._doubt`);
* **a state's postcode out of its range** (``range``): four digits after an Australian state's code are its postcode
  only inside the ranges Australia Post gives the state (:data:`AU_RANGES`); ``ACT 1989`` in a note written in
  capitals is an Act's year, not Canberra's postcode;
* **a labelled identifier of two digits or fewer** (``short``): a record, plan or account number that tells one
  person from others holds more (``plan: cd-12`` is a level or a grade).
* **an extension alone** (``extension``): the span's forms are all a phone's extension (``ext. 3120``).
* **initials alone in a table's cell** (``initials``): the span's forms are all the layer's ``table_initials``
  (``| S.R. |``, ``Firma | C.S.``), ``sign_row`` (``Sign. | HØ | HØ``) or ``sign_column`` (a table's column of
  ``MJS``, ``AFR``). The form cannot tell a nurse's initials from another language's abbreviation of the same shape
  (German ``o.B.``, *ohne Befund*, in a skin chart's cells): both are taken, and neither is written as made-up
  initials.
* **a terminology's code** (``code``): a span that is all a dbSNP variant (``rs80357906``, in any case) or a letter
  with four digits, HCPCS level II's shape (``Medicare A5500``, a diabetic shoe), over the layer's generic forms only
  (``id_label``, ``id_far_label``, ``letters_digits``): a payer's or a database's label before a code, not before a
  person's number (check47's two falsified values, 2026-11-29). The layer still finds it; its output is a
  placeholder.
* **a lot or serial number** (``lot``): the span's forms are all the layer's ``lot_label`` (``lot X4C921Q``,
  ``batch NX24K0318``, ``SN 47001``): the record of the batch given or the device implanted, which the made-up sets
  keep as a value as often as they mark it (a vaccine's lot); a made-up one would state another batch.

Measured on the twenty-eight development sets (shipped model, three casings, each part left out in turn; docs/deid.md):
``beside`` mends 7 falsified values at 10 more real identifiers written as placeholders (the 7 spans held a real
phone, e-mail or accession beside the label; 3 more real phones and faxes after a letterhead's letter), ``range`` 3
at none, ``short`` 3 at 3 (and one real plan number of the PhysioNet development notes); 87 -> 74 in all, none new.
A written day and month (``12 Jun``) that falsifies a value has the shape of the real ones there, so it keeps its
trust. A phone's extension alone (``extension``, branch ``cells31``, 2026-11-28) does not: ``ext. 3120`` of a
ward's nurse is a desk's number the made-up sets keep as a value, and four digits alone dial no one, so a span
that holds only an extension form's match gets a placeholder (a real extension is still replaced; a full number
with its extension is a ``phone`` form too and keeps its trust).

>>> from crfdeid.document import make_span
>>> against("Ph 0161 555 0199  M", make_span(3, 19, "PHONE"), [("phone", make_span(3, 16, "PHONE"))])
'beside'
>>> against("MENTAL HEALTH ACT 1989", make_span(18, 22, "ZIP"), [("postal_au", make_span(18, 22, "ZIP"))])
'range'
>>> against("Canberra ACT 2601", make_span(13, 17, "ZIP"), [("postal_au", make_span(13, 17, "ZIP"))]) is None
True
"""

from __future__ import annotations

import re

from ..document import Span

#: The parts (a measurement turns one off by leaving it out).
PARTS = frozenset({"beside", "range", "short", "extension", "initials", "lot", "code"})
#: The forms whose match is no evidence of the value a made-up one would state, by the part that gives their spans a
#: placeholder: a phone's extension alone dials no one; initials in a table cannot be told from an abbreviation; a
#: lot or serial number is the record of what was given or implanted (a made-up one states another).
_ALONE = {"extension": "extension", "table_initials": "initials", "sign_row": "initials", "sign_column": "initials",
          "lot_label": "lot"}
#: A terminology's code, no person's number (``code``; :func:`crfdeid.deid.confident.doubt` reads it too).
CODE = re.compile(r"(?i)rs\d{3,}|[a-z]\d{4}")
_GENERIC = frozenset({"id_label", "id_far_label", "letters_digits"})
#: The spans of one number (a phone, a fax, an identifier's types): a letter beside its form is no part of it.
_NUMBERS = frozenset({"PHONE", "FAX", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE",
                      "BIOID", "IDNUM", "SSN"})
_WORD = re.compile(r"[^\W\d_]+")
#: Australia Post's postcode ranges by state and territory (PO boxes and large users included; source: Australia
#: Post's postcode ranges, as listed in "Postcodes in Australia").
AU_RANGES = {"NSW": ((1000, 2599), (2619, 2899), (2921, 2999)), "ACT": ((200, 299), (2600, 2618), (2900, 2920)),
             "VIC": ((3000, 3999), (8000, 8999)), "QLD": ((4000, 4999), (9000, 9999)), "SA": ((5000, 5999),),
             "WA": ((6000, 6999),), "TAS": ((7000, 7999),), "NT": ((800, 999),)}
_AU_STATE = re.compile(rf"(?i)(?<![^\W\d_])({'|'.join(AU_RANGES)}),?[ \t]{{1,2}}$")  # a state's code before a form


def against(text: str, sp: Span, forms: list[tuple[str, Span]]) -> str | None:
    """Why the span ``sp``, over the fixed forms ``forms`` (``(form name, form span)``), is not the identifier its
    forms claim (module docstring: ``beside``, ``range``, ``short``, ``extension``, ``initials``, ``lot``,
    ``code``), or None."""
    if "beside" in PARTS and _beside(text, sp, [f for _, f in forms]):
        return "beside"
    if "range" in PARTS and forms and all(n == "postal_au" and not au_in_range(text, f) for n, f in forms):
        return "range"
    if "short" in PARTS and any(n == "id_label" for n, _ in forms) and all(
            n in ("id_label", "id_far_label") and sum(c.isdigit() for c in text[f.start:f.end]) <= 2
            for n, f in forms):
        return "short"
    if "code" in PARTS and sp.subtype != "ZIP" and forms and all(n in _GENERIC for n, _ in forms) and CODE.fullmatch(
            text[sp.start:sp.end]):
        return "code"
    alone = {_ALONE.get(n) for n, _ in forms}
    if len(alone) == 1 and (part := alone.pop()) in PARTS:
        return part  # its forms prove a number or a name is there, not which (an extension, initials)
    return None


def _beside(text: str, sp: Span, forms: list[Span]) -> bool:
    """Whether a word outside every form's match in ``sp`` is a single letter (a number's span) or any word (an
    e-mail's)."""
    if sp.subtype not in _NUMBERS and sp.subtype != "EMAIL":
        return False
    outside = [m for m in _WORD.finditer(text, sp.start, sp.end)
               if not any(f.start <= m.start() < f.end for f in forms)]
    return any(sp.subtype == "EMAIL" or len(m.group()) == 1 for m in outside)


def au_in_range(text: str, form: Span) -> bool:
    """Whether the four digits of an Australian postcode form (``form``) lie in a range of the state's code before
    them (:data:`AU_RANGES`); True when no state's code stands there (another form's reading)."""
    m = _AU_STATE.search(text, max(0, form.start - 8), form.start)
    digits = text[form.start:form.end]
    if m is None or not digits.isdigit():
        return True
    return any(lo <= int(digits) <= hi for lo, hi in AU_RANGES[m.group(1).upper()])


def form_names(found: list[tuple[str, Span]]) -> dict:
    """``{form span: (form name, ...)}`` of the Safe Harbor layer's matches ``found`` (one span may match several
    forms)."""
    out: dict = {}
    for name, sp in found:
        out[sp] = out.get(sp, ()) + (name,)
    return out
