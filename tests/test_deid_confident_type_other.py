"""Surrogate output, evidence of type refined (issue 58 item 3, branch proof21; docs/deid.md, "Evidence against a
made-up value"; :mod:`crfdeid.deid.confident_type`, :mod:`crfdeid.deid.otherlang`): a listed name that is a frequent
word of another language, a person's mark that is a preposition or a credential before a name, a name before a
clinical head, a place beside another of its own type or three blanks away, a postcode that reads as a count or a
year are no evidence of their type; other languages' titles, person words and hospital words are. Every note is
made up; the names are invented words no list holds, or listed words used as the rule says."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.deid import confident_type, facts, otherlang
from crfdeid.deid.redact import redact

_TABLE = "Events      Supine    Lateral\nArousals             64        23\n"
HELD = [  # (text, spans, the span held, the refinement that holds it), the tagger 0.999 sure of each
    pytest.param("Terapia alla dimissione invariata.", [("Terapia alla", "DOCTOR")], 0, "other",
                 id="a listed name that is another language's frequent word"),
    pytest.param('Dolor hoy: "casi nada".', [("casi nada", "PATIENT")], 0, "other",
                 id="two words of another language, one a listed name"),
    pytest.param("Classified per Dorvane 2013.", [("Dorvane", "DOCTOR")], 0, "strict",
                 id="per alone is no person's mark"),
    pytest.param("Conclusão: síndrome do Dorvane Kelix à direita.", [("Dorvane Kelix", "DOCTOR")], 0, "strict",
                 id="a credential before a name is another language's word"),
    pytest.param("Swallow therapy: Masako manoeuvre daily.", [("Masako manoeuvre", "DOCTOR")], 0, "head",
                 id="a listed name ending in a clinical head"),
    pytest.param("AZ Quarrow - Dienst Cardiologie, 12 maart", [("AZ Quarrow", "HOSPITAL"),
                                                            ("Dienst Cardiologie", "HOSPITAL")], 1,
                 "same",
                 id="a department beside its hospital"),
]


@pytest.mark.parametrize("text, phi, i, refinement", HELD)
def test_no_evidence_of_type_gets_a_placeholder(text, phi, i, refinement):
    assert written(tagged(text, *[(*p, 0.999) for p in phi]))[i] == f"[**{phi[i][1]}**]"


@pytest.mark.parametrize("text, phi, i, refinement", HELD)
def test_without_the_refinement_the_span_took_a_made_up_value(text, phi, i, refinement, monkeypatch):
    monkeypatch.setattr(confident_type, "REFINED", confident_type.REFINED - {refinement})
    new = written(tagged(text, *[(*p, 0.999) for p in phi]))[i]
    assert "[**" not in new and new != phi[i][0]


@pytest.mark.parametrize("text, phi", [
    pytest.param(_TABLE, [("Arousals", "CITY"), ("64", "ZIP"), ("23", "ZIP")], id="a table's counts"),
    pytest.param("Assessed under the Children Act 1989.", [("1989", "ZIP")], id="a year"),
])
def test_a_postcode_that_reads_as_another_number_needs_a_place_beside_it(text, phi, monkeypatch):
    new = written(tagged(text, *[(*p, 0.999) for p in phi]))
    assert [n for n, p in zip(new, phi) if p[1] == "ZIP"] == ["[**ZIP**]"] * sum(p[1] == "ZIP" for p in phi)
    monkeypatch.setattr(confident_type, "KINDS", confident_type.KINDS - {"postcode"})
    assert not any(n.startswith("[**") for n, p in zip(written(tagged(text, *[(*p, 0.999) for p in phi])), phi)
                   if p[1] == "ZIP")


@pytest.mark.parametrize("text, town, held", [
    ("Clinic, Larkfield 604112   Reception 6555 0418", "Reception", True),  # a label read as a town
    ("Moved from Larkfield last year.", "Larkfield", False),  # no English word: a town as far as lists tell
    ("Moved from Reading last year.", "Reading", False),  # an English word, and a listed town
])
def test_a_town_that_is_an_english_word_and_no_listed_place_gets_a_placeholder(text, town, held, monkeypatch):
    assert written(tagged(text, (town, "CITY", 0.999)))[0].startswith("[**") is held
    monkeypatch.setattr(confident_type, "KINDS", confident_type.KINDS - {"town"})
    assert not written(tagged(text, (town, "CITY", 0.999)))[0].startswith("[**")


KEPT = [  # real identifiers with evidence of their type keep their surrogates
    pytest.param("Referred by MUDr. Dorvane Kelix.", [("Dorvane Kelix", "DOCTOR")], id="another language's title"),
    pytest.param("Paciente: Dorvane Kelix", [("Dorvane Kelix", "PATIENT")], id="another language's label"),
    pytest.param("Dott.ssa Alla Quarrow in reparto.", [("Alla Quarrow", "DOCTOR")],
                 id="a frequent word of another language with a title"),
    pytest.param("Seen by Dorvane Kelix today.", [("Dorvane Kelix", "DOCTOR")], id="seen by, strict"),
    pytest.param("Discussed with Quarrow, MD.", [("Quarrow", "DOCTOR")], id="a credential after a name"),
    pytest.param("Operated at Nordvik Universitetssjukehus.", [("Nordvik Universitetssjukehus", "HOSPITAL")],
                 id="a compound ending in a hospital's word"),
    pytest.param("Seen at Centro Quarrow Brevik.", [("Centro Quarrow Brevik", "HOSPITAL")],
                 id="an institution's word of another language"),
    pytest.param("Address: 4 Brevik Road, Larkfield 20", [("Brevik Road", "STREET"), ("Larkfield", "CITY"),
                                                          ("20", "ZIP")], id="a short postcode beside its town"),
    pytest.param("Home: Quarrow Lane, Larkfield 94110", [("Quarrow Lane", "STREET"), ("Larkfield", "CITY"),
                                                         ("94110", "ZIP")], id="a postcode of five digits"),
]


@pytest.mark.parametrize("text, phi", KEPT)
def test_identifiers_with_evidence_of_their_type_keep_their_surrogates(text, phi):
    assert not any("[**" in n for n in written(tagged(text, *[(*p, 0.999) for p in phi])))


def test_other_languages_titles_are_evidence_only_with_the_refinement(monkeypatch):
    doc = tagged("Referred by MUDr. Dorvane Kelix.", ("Dorvane Kelix", "DOCTOR", 0.999))
    monkeypatch.setattr(confident_type, "REFINED", confident_type.REFINED - {"other"})
    assert written(doc) == ["[**DOCTOR**]"]


def test_redacted_output_does_not_read_the_refinements(monkeypatch):
    doc = tagged("Terapia alla dimissione invariata; Children Act 1989.",
                 ("Terapia alla", "DOCTOR", 0.999), ("1989", "ZIP", 0.999))
    before = redact(doc).text
    monkeypatch.setattr(confident_type, "REFINED", frozenset())
    assert redact(doc).text == before == "[**DOCTOR**] dimissione invariata; Children Act [**ZIP**]."


@pytest.mark.parametrize("text, number, value", [
    ("Colecalciférol 200 000 UI par mois", "200 000", True),  # thousands grouped by a blank, the unit UI
    ("Vitamin D 50 000 IU weekly", "50 000", True),
    ("Tel 021 555 918   Unit: Brevik", "021 555 918", False),  # a unit word three blanks away is another cell
])
def test_a_number_before_a_unit_is_a_clinical_value(text, number, value):
    i = text.index(number)
    assert facts.clinical_value(text, i, i + len(number)) is value


def test_the_data_files_read_once_with_their_kinds():
    assert {"dra", "sig.ra", "hr", "fru", "mudr"} <= otherlang.titles()
    assert {"paciente", "manzelka", "tecnico"} <= otherlang.person_words()
    assert {"ospedale", "szpital", "calle", "strasse", "centro"} <= otherlang.place_heads()
    assert {"sjukehus", "klinika"} <= otherlang.compound_heads()
    words = otherlang.frequent_name_words()
    assert {"alla", "nada"} <= words and not {"smith", "grace", "maria"} & words  # English's are read elsewhere
