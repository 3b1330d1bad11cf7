"""The identifiers of the finding units removed in the diet of 2026-11-26 (docs/rules.md) are still redacted.

Made-up text only. Each case is one removed unit's own example (the unit test that went with it, or one
written for the diet): with the unit gone, the shipped model and the Safe Harbor layer must still cover
every letter and digit of the identifier. A case that fails here is a leak, and its unit comes back.
"""

from __future__ import annotations

import pytest

from crfdeid.crf import Model
from crfdeid.recognizers.safeharbor import find


@pytest.fixture(scope="module")
def default_model():
    return Model.load()


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
    ("rule title_lower", "told mr halvorsen today", "halvorsen"),
    ("rule date_text", "on March 14, 2098.", "March 14, 2098"),
    ("rule date_month_day", "repair on July 2nd, then", "July 2nd"),
    ("names patient after pt", "Pt Mary O'Brien seen today.", "Mary O'Brien"),
    ("phones labelled", "Tel: 9123 4567 (mobile of son)", "9123 4567"),
    ("fixedforms postal_uk", "lives at 4 Elm Row, London SW1A 1AA", "SW1A 1AA"),
    ("fixedforms postal_dash", "ul. Polna 5, 53-320 Wrocław", "53-320"),
    ("phrases named_low", "keele uni phd student, shared house", "keele uni"),
    ("phrases street_prefix", "Brother lives off Jalan Ampang Hilir.", "Jalan Ampang Hilir"),
    ("phrases town", "Whitley Bay NE26 1NA", "Whitley Bay"),
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

# One case a row: "model" end to end with the shipped model, "layer" the Safe Harbor layer alone.
CASES = [("model", *case) for case in END_TO_END] + [("layer", *case) for case in LAYER]


@pytest.mark.parametrize("by, unit, text, identifier", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_a_removed_units_identifier_is_still_found(request, by, unit, text, identifier):
    spans = request.getfixturevalue("default_model").tag_text(text).spans if by == "model" else find(text)
    assert _left(text, identifier, spans) == [], unit
