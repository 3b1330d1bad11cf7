"""The identifiers of the finding units removed in the diet of 2026-11-26 and since (diet47: `rule street`;
docs/rules.md) are still redacted, as written, in lower case and in upper case; the units that diet lost on lower- and
upper-case notes are back.

Made-up text only. Each case is one removed unit's own example (the unit test that went with it, or one
written for the diet): with the unit gone, the shipped model and the Safe Harbor layer must still cover
every letter and digit of the identifier in every casing. A case that fails here is a leak, and its unit
comes back, as five did (casing11: ``RESTORED``), unless the rule ledger on notes written after the unit finds
no gain for it (two of the five, taken out again: ``LEFT_WITHOUT``).
"""

from __future__ import annotations

import pytest

from crfdeid.document import make_span
from crfdeid.experiments.casings import CASINGS, recase
from crfdeid.recognizers import rules
from crfdeid.recognizers.safeharbor import find


def _left(text: str, identifier: str, spans) -> list[int]:
    """Offsets of the identifier's letters and digits that no span covers."""
    start = text.index(identifier)
    return [k for k in range(start, start + len(identifier))
            if text[k].isalnum() and not any(s.start <= k < s.end for s in spans)]


# (removed unit, note, identifier)
END_TO_END = [
    ("rule ssn", "Her SSN is 078-05-1120 per registration.", "078-05-1120"),
    ("rule email", "Email the daughter at mkowalski88@gmail.com with results.", "mkowalski88@gmail.com"),
    ("rule url", "Portal link https://mychart.valleyhealth.org/p/88213 sent.", "https://mychart.valleyhealth.org/p/88213"),
    ("rule ip", "Login from IP 192.168.14.201 flagged.", "192.168.14.201"),
    ("rule pager", "reached at beeper number 40917 for", "40917"),
    ("rule phone_spaced", "call 617 555 0142 x12.", "617 555 0142 x12"),
    ("rule relative_name", "family: dtr marisol phoned", "marisol"),
    ("rule name_before_relative", "CALLED IRENE KLINE (DAUGHTER) AT HOME", "IRENE KLINE"),
    ("rule name_md", "today. Oksana Vell-Dorn MD will", "Oksana Vell-Dorn"),
    ("rule name_aware", "SHORT RUN OF VT. JOZEF TURAK AWARE", "JOZEF TURAK"),
    ("rule per_name", "extubate per carol kowalski today", "carol kowalski"),
    ("rule signature_lower", "note.\n\nirene k. dobson bsn/rn\n", "irene k. dobson"),
    ("rule year_apostrophe", "hx: htn, s/p cabg '97(3v", "97"),
    ("rule date_numeric_day", "blood cx from 11/15-11/16 neg", "11/15-11/16"),
    ("rule date_text", "on March 14, 2098.", "March 14, 2098"),
    ("phones labelled", "Tel: 9123 4567 (mobile of son)", "9123 4567"),
    ("fixedforms postal_uk", "lives at 4 Elm Row, London SW1A 1AA", "SW1A 1AA"),
    ("fixedforms postal_dash", "ul. Polna 5, 53-320 Wrocław", "53-320"),
    ("phrases town", "Whitley Bay NE26 1NA", "Whitley Bay"),
    ("phrases named_low", "review on rowan ward with the team", "rowan ward"),
    ("phrases named_low", "rx to thornbury family pharmacy, collected", "thornbury family pharmacy"),
    ("phrases named_low", "transferred to willow ward at 14:00", "willow ward"),
    ("phrases street_prefix", "Cartref, Heol y Garth, Aberaeron", "Heol y Garth"),
    ("trim clock", "Mon 24 Nov 2025 09:20, Dr Thorne rang", "Mon 24 Nov 2025"),  # diet13b
    ("trim clock", "rang 3 oct 2025 7:45 re bloods", "3 oct 2025"),
    ("phrases street_named", "she lives on Harrowgate Terrace near the park", "Harrowgate Terrace"),
    ("phrases street_named", "moved to Old Quarry Boulevard last year", "Old Quarry Boulevard"),
    ("phrases street_named", "home is Penhallow Crescent, Truro", "Penhallow Crescent"),
    ("rule street", "lives at 42 Juniper St. in town", "42 Juniper St."),  # diet47: the model's now
    ("rule street", "moved to 45 Maple Ridge Road, Suite 210 last May", "45 Maple Ridge Road, Suite 210"),
]


# The Safe Harbor forms the rule overlay and the layer held twice: the layer alone (every model) finds them.
LAYER = [
    ("rule ssn", "Her SSN is 078-05-1120 per registration.", "078-05-1120"),
    ("rule email", "contact: j.reyes@stmarys-health.org", "j.reyes@stmarys-health.org"),
    ("rule url", "see www.reyesfamilyblog.com for updates", "www.reyesfamilyblog.com"),
    ("rule ip", "device at 10.22.4.17 offline", "10.22.4.17"),
    ("rule pager", "Call Dr. Lund, Pager #40917, with results.", "40917"),
    ("rule phone_spaced", "home phone 303 5550142", "303 5550142"),
    ("phones labelled", "Phone: 0412 345 678", "0412 345 678"),
    ("fixedforms postal_uk", "Address: 12 Kings Rd, EH3 9JN Edinburgh", "EH3 9JN"),
    ("fixedforms postal_dash", "Rua Direita 4, 3610-114 Tarouca", "3610-114"),
]

#: Leaks in one casing that the removed unit did not stop either (the tree before the diet, c387985^, leaves
#: them too: the rule reads capitalised words): found at casing11's review, not mended there.
#: By unit, or by identifier where one of a unit's cases is left (diet47: `ROAD` of an upper-case address, which the
#: removed `rule street` did not read either: it reads `Road`).
BEFORE_THE_DIET = {("rule name_md", "lower"), ("phrases town", "upper"), ("45 Maple Ridge Road, Suite 210", "upper")}
#: Leaks of a unit taken out by the rule ledger (docs/rules.md, "The ledger on notes written after"): casing11 put it
#: back for this leak of an older development set, and on the sets written after it (check7, check9, forms9,
#: check10), in three casings, it found no identifier the rest did not. The model must learn it.
#: `rowan ward` in this one sentence was left from look16 (2026-11-27; docs/history/check15-rule.md) until learn45
#: (2026-11-29: the specialty member learnt the made-up development sets), which finds it in every casing.
LEFT_WITHOUT = {("thornbury family pharmacy", "as-written"), ("thornbury family pharmacy", "lower")}

# One case a row: "model" end to end with the shipped model, "layer" the Safe Harbor layer alone; each casing.
CASES = [pytest.param("model", *case, casing, id=f"model: {case[0]}, {casing}",
                      marks=[pytest.mark.xfail(strict=True, reason="left before the diet too")]
                      if {(case[0], casing), (case[2], casing)} & BEFORE_THE_DIET else
                      [pytest.mark.xfail(strict=True, reason="left without the unit the ledger took out")]
                      if (case[2], casing) in LEFT_WITHOUT else [])
         for case in END_TO_END for casing in CASINGS] + \
        [pytest.param("layer", *case, casing, id=f"layer: {case[0]}, {casing}") for case in LAYER for casing in CASINGS]


@pytest.mark.parametrize("by, unit, text, identifier, casing", CASES)
def test_a_removed_units_identifier_is_still_found(request, by, unit, text, identifier, casing):
    text, identifier = recase(text, casing), recase(identifier, casing)
    spans = request.getfixturevalue("shipped_model").tag_text(text).spans if by == "model" else find(text)
    assert _left(text, identifier, spans) == [], unit


# The units the diet lost on lower- and upper-case notes, back (docs/rules.md): each finds its made-up
# identifier in lower case by itself, and the whole chain redacts it in every casing.
RESTORED = [
    ("rule title_lower", rules.find, "course: mr quennell walked in with a frame", "quennell", "PATIENT"),
    ("rule date_month_day", rules.find, "enoxaparin 40 mg x1 oct 17. bloods stable", "oct 17", "DATE"),
]


@pytest.mark.parametrize("unit, finder, text, identifier, subtype", RESTORED, ids=[r[0] for r in RESTORED])
def test_a_restored_unit_finds_its_identifier_by_itself(unit, finder, text, identifier, subtype):
    start = text.index(identifier)
    assert [(s.start, s.end, s.subtype) for s in finder(text) if s.start < start + len(identifier)
            and start < s.end] == [(start, start + len(identifier), subtype)], unit


@pytest.mark.parametrize("casing", CASINGS)
@pytest.mark.parametrize("unit, finder, text, identifier, subtype", RESTORED, ids=[r[0] for r in RESTORED])
def test_a_restored_units_identifier_is_redacted_in_every_casing(shipped_model, unit, finder, text, identifier,
                                                                  subtype, casing):
    text, identifier = recase(text, casing), recase(identifier, casing)
    assert _left(text, identifier, shipped_model.tag_text(text).spans) == [], unit


# Names the shipped model types DOCTOR after "Pt" (as the development sets' 13 notes): the patient's again.
@pytest.mark.parametrize("text", ["Pt Tobin Achterberg, 64, seen in clinic.", "Pt Harriet Blom c/o chest pain.",
                                  "Called Pt Jonas Ekberg re results."])
def test_a_name_after_pt_is_the_patients(shipped_model, text):
    names = [s for s in shipped_model.tag_text(text).spans if s.category == "NAME"]
    assert names and all(s.subtype == "PATIENT" for s in names)


@pytest.mark.parametrize("text, names, typed", [
    ("pt tobin achterberg c/o pain", ("tobin", "achterberg"), ["PATIENT", "PATIENT"]),  # lower case, a space apart
    ("patient. jonas ekberg called", ("jonas", "ekberg"), ["PATIENT", "PATIENT"]),
    ("pt seen; tobin achterberg called", ("tobin", "achterberg"), ["DOCTOR", "DOCTOR"]),  # not right after pt
    ("PT JONAS EKBERG CALLED", ("JONAS", "EKBERG"), ["DOCTOR", "DOCTOR"]),  # in capitals PT is physical therapy
])
def test_the_pt_retyping_types_the_names_right_after_pt(text, names, typed):
    spans = [make_span(text.index(w), text.index(w) + len(w), "DOCTOR") for w in names]
    assert [s.subtype for s in rules.extend_names(text, spans)] == typed
