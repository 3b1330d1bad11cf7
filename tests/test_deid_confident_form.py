"""Surrogate output, evidence against a fixed Safe Harbor form's span (branch proof24; docs/deid.md, "Fixed forms
against a made-up value"; :mod:`crfdeid.deid.confident_form`): a single letter beside a phone's or an identifier's
form and a word beside an e-mail's, an Australian state's postcode out of its ranges, a labelled identifier of two
digits or fewer, a phone's extension alone (branch cells31), initials alone in a table's cell (branch initials32) and
a lot or serial number after its word (branch lots36) get a placeholder. Every note is made up; the numbers,
addresses and names are invented."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.deid import confident_form
from crfdeid.deid.redact import redact
from crfdeid.document import make_span

HELD = [  # (text, the span, its type, the part that holds it), the tagger 0.999 sure of each
    pytest.param("Tel 0161 496 0199  M", "0161 496 0199  M", "PHONE", "beside", id="a field's letter after a phone"),
    pytest.param("T 0161 496 0199", "T 0161 496 0199", "PHONE", "beside", id="a letterhead's letter before a phone"),
    pytest.param("Specimen S25-004417 A", "S25-004417 A", "IDNUM", "beside", id="a letter after an accession"),
    pytest.param("correo ana.quarrow@example.org", "correo ana.quarrow@example.org", "EMAIL", "beside",
                 id="a label before an e-mail"),
    pytest.param("UNDER THE MENTAL HEALTH ACT 1989 S3", "1989", "ZIP", "range", id="an Act's year after ACT"),
    pytest.param("Member ID: cd-12", "cd-12", "HEALTHPLAN", "short", id="a labelled identifier of two digits"),
    pytest.param("Ward sister Lidwina Okoro, ext. 3120, on call.", "3120", "PHONE", "extension",
                 id="an extension alone"),
    pytest.param("Firma | C.S. | G.F.\n", "C.S.", "DOCTOR", "initials", id="a nurse's initials in a sign row"),
    pytest.param("Haut | o.B. | o.B.\n", "o.B.", "DOCTOR", "initials", id="an abbreviation of initials' shape"),
    pytest.param("Stamaril 0.5 ml sc (lot X4C921Q), left deltoid", "X4C921Q", "DEVICE", "lot", id="a vaccine's lot"),
    pytest.param("Servo-u SN 47001 PRVC", "47001", "DEVICE", "lot", id="a ventilator's serial"),
]


@pytest.mark.parametrize("text, surface, sub, part", HELD)
def test_evidence_against_the_form_gets_a_placeholder(text, surface, sub, part):
    assert written(tagged(text, (surface, sub, 0.999))) == [f"[**{sub}**]"]


@pytest.mark.parametrize("text, surface, sub, part", HELD)
def test_without_the_part_the_span_took_a_made_up_value(text, surface, sub, part, monkeypatch):
    monkeypatch.setattr(confident_form, "PARTS", confident_form.PARTS - {part})
    new = written(tagged(text, (surface, sub, 0.999)))[0]
    assert "[**" not in new and new != surface


KEPT = [  # real identifiers over their forms keep their surrogates
    pytest.param("Tel 0161 496 0199", "0161 496 0199", "PHONE", id="a phone alone"),
    pytest.param("FAX 020 7946 0958", "020 7946 0958", "FAX", id="a fax in capitals"),
    pytest.param("Specimen S25-004417", "S25-004417", "IDNUM", id="an accession alone"),
    pytest.param("correo ana.quarrow@example.org", "ana.quarrow@example.org", "EMAIL", id="an e-mail alone"),
    pytest.param("Kelvane Street, Larkfield ACT 2601", "2601", "ZIP", id="a postcode in its state's range"),
    pytest.param("Larkfield NSW 2150", "2150", "ZIP", id="a postcode of NSW"),
    pytest.param("Member ID: cd-1207", "cd-1207", "HEALTHPLAN", id="a labelled identifier of four digits"),
]


@pytest.mark.parametrize("text, surface, sub", KEPT)
def test_identifiers_over_their_forms_keep_their_surrogates(text, surface, sub):
    new = written(tagged(text, (surface, sub, 0.999)))[0]
    assert "[**" not in new and new != surface


def test_a_phone_keeps_its_surrogate_beside_its_extension_s_placeholder():
    phone, extension = written(tagged("Desk 0161 496 0199 ext. 3120", ("0161 496 0199", "PHONE", 0.999),
                                      ("3120", "PHONE", 0.999)))
    assert "[**" not in phone and phone != "0161 496 0199" and extension == "[**PHONE**]"


@pytest.mark.parametrize("state, code, inside", [("ACT", "2601", True), ("ACT", "1989", False), ("NT", "0812", True),
                                                 ("VIC", "3000", True), ("WA", "2007", False), ("QLD", "9726", True),
                                                 ("TAS", "7250", True), ("SA", "4000", False)])
def test_australian_postcode_ranges(state, code, inside):
    text = f"Larkfield {state} {code}"
    form = make_span(len(text) - 4, len(text), "ZIP")
    assert confident_form.au_in_range(text, form) is inside


def test_redacted_output_does_not_read_the_parts(monkeypatch):
    doc = tagged("T 0161 496 0199; MENTAL HEALTH ACT 1989; Member ID: cd-12",
                 ("T 0161 496 0199", "PHONE", 0.999), ("1989", "ZIP", 0.999), ("cd-12", "HEALTHPLAN", 0.999))
    before = redact(doc).text
    monkeypatch.setattr(confident_form, "PARTS", frozenset())
    assert redact(doc).text == before == "[**PHONE**]; MENTAL HEALTH ACT [**ZIP**]; Member ID: [**HEALTHPLAN**]"
