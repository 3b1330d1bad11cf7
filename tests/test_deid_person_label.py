"""Surrogate output (issue 58 item 3, branch role41; :func:`crfdeid.deid.otherlang.person_label`): a role, a relation or
a label of another language, a compound ending in one, or a national number's one-word label taken into a name or a
place span is no part of a name or a place: the span gets a placeholder, so the word is never written as a made-up
name. Every note is made up; the names are invented words no list holds."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.deid import confident, confident_places, otherlang

TAKEN_IN = [  # (text, the span, its type): the tagger 0.999 sure of it
    pytest.param("Kopie: Dr. Dorvane Kelix Hausarzt, Triesen.", "Dorvane Kelix Hausarzt", "DOCTOR",
                 id="a compound role"),
    pytest.param("pt jens dorvane cpr 190983-3201", "jens dorvane cpr", "PATIENT", id="a number's label, lower case"),
    pytest.param("referred by: overlæge anna quenby, hæmatologisk", "overlæge anna quenby", "DOCTOR",
                 id="a compound with a letter fold keeps"),
    pytest.param("Referrer: fastlege Anna Quenby, Hasleveien.", "fastlege Anna Quenby", "ORGANIZATION",
                 id="a role at a place's edge"),
]


def _written(text: str, surface: str, subtype: str) -> str:
    return written(tagged(text, (surface, subtype, 0.999)))[0]


@pytest.mark.parametrize("text, surface, subtype", TAKEN_IN)
def test_a_person_word_taken_in_gets_a_placeholder(text, surface, subtype):
    assert _written(text, surface, subtype) == f"[**{subtype}**]"


@pytest.mark.parametrize("text, surface, subtype", TAKEN_IN)
def test_without_person_label_the_word_was_written_as_a_made_up_value(text, surface, subtype, monkeypatch):
    monkeypatch.setattr(confident, "person_label", lambda w: False)
    monkeypatch.setattr(confident_places, "person_label", lambda w: False)
    new = _written(text, surface, subtype)
    assert "[**" not in new and new != surface


@pytest.mark.parametrize("word, expected", [
    ("Mutter", True), ("ENFERMERA", True), ("CPR", True), ("egn", True), ("Hausarzt", True), ("Szakorvos", True),
    ("Overlæge", True), ("Großmutter", True),
    ("Kumari", False),  # a name ending in a person word, too short a head: a name
    ("Arizona", False),  # a place ending in one: the place lists hold it
    ("Smith", False), ("Dorvane", False),
])
def test_person_label(word, expected):
    assert otherlang.person_label(word) is expected


def test_a_clean_name_keeps_its_made_up_value():
    new = _written("Kopie: Dr. Dorvane Kelix, Triesen.", "Dorvane Kelix", "DOCTOR")
    assert "[**" not in new and new != "Dorvane Kelix"
