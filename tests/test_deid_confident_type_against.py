"""Surrogate output, evidence against a made-up value refined again (issue 58 item 3, branch proof23; docs/deid.md,
"A table's values, a street's number and a name's label against a made-up value";
:mod:`crfdeid.deid.confident_type`): a postcode of three groups of digits is none, a town whose only neighbours are
such postcodes has no evidence from them, a street of no type's word or house number has none from a town beside it,
and a name that begins with a title, a person's word or a label took its label in. Every note is made up; the names
and places are invented words no list holds, or listed words used as the rule says."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.deid import confident, confident_type
from crfdeid.deid.redact import redact

HELD = [  # (text, spans, the span held, the refinement that holds it), the tagger 0.999 sure of each
    pytest.param("Platelets: Kelvane 12 345 678 per mL", [("Kelvane", "CITY"), ("12 345 678", "ZIP")], 1,
                 "groups", id="three groups of digits are no postcode"),
    pytest.param("Platelets: Kelvane 12 345 678 per mL", [("Kelvane", "CITY"), ("12 345 678", "ZIP")], 0,
                 "pair", id="a label before a row's values is no town"),
    pytest.param("Wound: Vostrela Dunmarra, Larkfield", [("Vostrela Dunmarra", "STREET"), ("Larkfield", "CITY")], 0,
                 "street", id="words beside a town with no street's type or number"),
    pytest.param("Enfermera Helena Quarrow aware", [("Enfermera Helena Quarrow", "PATIENT")], 0, "label",
                 id="another language's person word taken in"),
    pytest.param("Visita: Dra. Helena Quarrow", [("Dra. Helena Quarrow", "DOCTOR")], 0, "label",
                 id="another language's title taken in"),
]


@pytest.mark.parametrize("text, phi, i, refinement", HELD)
def test_evidence_against_the_type_gets_a_placeholder_a_made_up_value_without_it(text, phi, i, refinement,
                                                                                 monkeypatch):
    doc = tagged(text, *[(*p, 0.999) for p in phi])
    assert written(doc)[i] == f"[**{phi[i][1]}**]"
    monkeypatch.setattr(confident_type, "REFINED", confident_type.REFINED - {refinement})
    monkeypatch.setattr(confident, "person_label", lambda word: False)  # role41's unit holds a person word too
    assert "[**" not in written(doc)[i] != phi[i][0]


KEPT = [  # real identifiers with evidence of their type keep their surrogates
    pytest.param("Home: Vostrela 14, Larkfield", [("Vostrela 14", "STREET"), ("Larkfield", "CITY")],
                 id="a house number after a street, a town beside it"),
    pytest.param("Address: 4 Brevik Road, Larkfield 20", [("Brevik Road", "STREET"), ("Larkfield", "CITY"),
                                                          ("20", "ZIP")], id="a town after its street"),
    pytest.param("Home: Larkfield 94110", [("Larkfield", "CITY"), ("94110", "ZIP")],
                 id="a town before a postcode of five digits"),
    pytest.param("Home: Kelvane, Larkfield", [("Kelvane", "CITY"), ("Larkfield", "CITY")], id="two towns"),
    pytest.param("Enfermera Helena Quarrow aware", [("Helena Quarrow", "PATIENT")],
                 id="a person word before the name, not in it"),
    pytest.param("Seen by Dr Dorvane Kelix", [("Dorvane Kelix", "DOCTOR")], id="a title before the name"),
]


@pytest.mark.parametrize("text, phi", KEPT)
def test_identifiers_with_evidence_of_their_type_keep_their_surrogates(text, phi):
    assert not any("[**" in n for n in written(tagged(text, *[(*p, 0.999) for p in phi])))


def test_a_label_word_alone_is_no_name_that_took_its_label_in():
    assert confident_type._label_first("Midwife Quarrow") and not confident_type._label_first("Midwife")
    assert not confident_type._label_first("Quarrow Midwife")  # its first word only


def test_a_postcode_of_three_groups_held_in_capitals_too():
    phi = [("KELVANE", "CITY", 0.999), ("12 345 678", "ZIP", 0.999)]
    assert written(tagged("PLATELETS: KELVANE 12 345 678 PER ML", *phi)) == ["[**CITY**]", "[**ZIP**]"]


def test_redacted_output_does_not_read_the_refinements(monkeypatch):
    doc = tagged("Platelets: Kelvane 12 345 678 per mL; Enfermera Helena Quarrow aware",
                 ("Kelvane", "CITY", 0.999), ("12 345 678", "ZIP", 0.999),
                 ("Enfermera Helena Quarrow", "PATIENT", 0.999))
    before = redact(doc).text
    monkeypatch.setattr(confident_type, "REFINED", frozenset())
    assert redact(doc).text == before == "Platelets: [**CITY**] [**ZIP**] per mL; [**PATIENT**] aware"
