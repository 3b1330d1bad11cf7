"""Surrogate output, evidence of type (issue 58 item 3, docs/deid.md "Evidence of type before a made-up value";
:mod:`crfdeid.deid.confident_type`): a span the tagger is sure of gets a made-up name, hospital, street or
identifier only where the note says what it is besides the tagger (a listed name, a title, a person's label, a
place-type word, an address, an identifier's label or shape), a placeholder of its type otherwise. Every note is
made up; the words with no evidence are invented words no list holds."""

from __future__ import annotations

import pytest
from deid_kit import tagged

from crfdeid import schema
from crfdeid.deid import confident_type
from crfdeid.deid.redact import redact
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span, make_span


def written(doc) -> tuple[list[str], int]:
    """What each span became in surrogate output, and the spans counted as not confidently an identifier."""
    s = Surrogator(seed=7)
    out = s.surrogate(doc)
    return [out.surface(sp) for sp in out.spans], s.summary()["not_confident_spans"]


_SHOUT = "PATIENT COMFORTABLE OVERNIGHT, NO NEW COMPLAINTS. OBSERVATIONS STABLE THROUGHOUT THE SHIFT. " * 3
HELD = [  # made-up values on the code before this module, the tagger 0.999 sure of each
    pytest.param("Plan: start Dorvane Kelix tonight.", ("Dorvane Kelix", "DOCTOR"), id="two unlisted words alone"),
    pytest.param("Plan: start Grace tonight.", ("Grace", "PATIENT"), id="a listed name that is an English word"),
    pytest.param("Referred from: Brevik Oslen\nReason: pain", ("Brevik Oslen", "HOSPITAL"),
                 id="a hospital with no type word or listed word"),
    pytest.param("Lives at Quarrow with family.", ("Quarrow", "STREET"), id="a street with no type or number"),
    pytest.param("Cycle 42 given today.", ("42", "IDNUM"), id="two digits, no label"),
    pytest.param("PLAN: START DORVANE KELIX TONIGHT. " + _SHOUT, ("DORVANE KELIX", "DOCTOR"), id="a note in capitals"),
    pytest.param("plan: start dorvane kelix tonight.", ("dorvane kelix", "DOCTOR"), id="lower case"),
]


@pytest.mark.parametrize("text, phi", HELD)
def test_a_sure_span_without_evidence_of_its_type_gets_a_placeholder(text, phi):
    assert written(tagged(text, (*phi, 0.999))) == ([f"[**{phi[1]}**]"], 1)


@pytest.mark.parametrize("text, phi", HELD)
def test_without_the_bar_the_same_span_took_a_made_up_value(text, phi, monkeypatch):
    monkeypatch.setattr(confident_type, "KINDS", frozenset())
    [new], doubted = written(tagged(text, (*phi, 0.999)))
    assert "[**" not in new and new != phi[0] and doubted == 0


KEPT = [  # real identifiers with evidence of their type keep their surrogates
    pytest.param("Seen by Dr Quenby Vantrell.", [("Quenby Vantrell", "DOCTOR")], id="a title"),
    pytest.param("Patient: Tamsin Oakhurst", [("Tamsin Oakhurst", "PATIENT")], id="a person's label"),
    pytest.param("Discussed with Vantrell, RN.", [("Vantrell", "DOCTOR")], id="a credential after it"),
    pytest.param("Plan: call John Smith tonight.", [("John Smith", "PATIENT")],
                 id="a first name and a surname, common words both"),
    pytest.param("Plan per Ildiko Vantrell. Later Dr Vantrell agreed.",
                 [("Ildiko Vantrell", "DOCTOR"), ("Vantrell", "DOCTOR")], id="another mention with a title"),
    pytest.param("Admitted to Larkfield Hospital.", [("Larkfield Hospital", "HOSPITAL")], id="a hospital's type word"),
    pytest.param("Ingresa en Ospedale Brevik.", [("Ospedale Brevik", "HOSPITAL")], id="another language's type word"),
    pytest.param("Home: 14 Quarrow, Leeds", [("Quarrow", "STREET"), ("Leeds", "CITY")],
                 id="a house number and a town beside it"),
    pytest.param("Home: Quarrow Lane", [("Quarrow Lane", "STREET")], id="a street's type word"),
    pytest.param("MRN 48213 on file.", [("48213", "MEDICALRECORD")], id="an identifier's label"),
    pytest.param("Kept under 4821377 on file.", [("4821377", "MEDICALRECORD")], id="seven digits"),
    pytest.param("Kept under QX4821 on file.", [("QX4821", "IDNUM")], id="a code of letters and digits"),
]


@pytest.mark.parametrize("text, phi", KEPT)
def test_identifiers_with_evidence_of_their_type_keep_their_surrogates(text, phi):
    new, doubted = written(tagged(text, *[(*p, 0.999) for p in phi]))
    assert all("[**" not in n for n in new) and doubted == 0


def test_the_names_of_the_notes_record_are_evidence():
    doc = tagged("Plan: start Dorvane Kelix tonight.", ("Dorvane Kelix", "PATIENT", 0.999))
    doc.meta["known"] = {"name": ["Dorvane Kelix"]}
    [new], doubted = written(doc)
    assert "[**" not in new and doubted == 0


@pytest.mark.parametrize("text, start, end, sub", [
    ("Plan: start Dorvane Kelix tonight.", 12, 25, "AGE"),  # ages, dates, phones, towns: their own rules
    ("Plan: start 3/4 tonight.", 12, 15, "DATE"),
    ("Plan: start Brevik tonight.", 12, 18, "CITY"),
    ("Plan: start Brevik tonight.", 12, 18, "ORGANIZATION"),
])
def test_types_not_judged_here(text, start, end, sub):
    assert confident_type.untyped(text, make_span(start, end, sub)) is None


def test_the_summary_counts_them_and_redacted_output_is_unchanged(tmp_path):
    text = "Seen by Dr Quenby Vantrell. Plan: start Dorvane Kelix tonight."
    doc = tagged(text, ("Quenby Vantrell", "DOCTOR", 0.999), ("Dorvane Kelix", "DOCTOR", 0.999))
    w = SurrogateWriter(tmp_path, seed=7)
    out = w.transform(doc)
    assert out.text.endswith("Plan: start [**DOCTOR**] tonight.") and out.text.count("[**") == 1
    assert "1 span(s) not confidently an identifier of their type" in w.summary()
    assert redact(doc).text == "Seen by Dr [**DOCTOR**]. Plan: start [**DOCTOR**] tonight."


def test_a_scheme_of_its_own_is_not_judged():
    """Names and places are judged under the i2b2 labels only (the lists are English): a name of a Spanish scheme
    with no evidence in the lists keeps its made-up value."""
    own = schema.get({"labels": {"Nombre": {"parent": "Persona", "surrogate": "name"}}})
    text = "Plan: iniciar Dorvane Kelix hoy."
    doc = Document("n1", text, [Span(14, 27, "Persona", "Nombre", confidence=0.999, crf_confidence=0.999)])
    s = Surrogator(seed=7, scheme=own)
    out = s.surrogate(doc)
    assert "[**" not in out.surface(out.spans[0]) and s.summary()["not_confident_spans"] == 0
