"""Surrogate output (issue 58 item 3, branches edge42 and user43): labels taken into a span, written as placeholders.

A word in capitals of two to four letters at the edge of a name whose other words are not in capitals, in a note not
written in capitals, is a label, a credential or a role's abbreviation the tagger took in (``Isla Quenby, CHI``;
:func:`crfdeid.deid.confident_terms.caps_edge`), though the name lists hold most such words as names; a user name with a
blank in it took its label in (``epr login cohagan3``). Such a span gets a placeholder, never a made-up value. Every
note is made up; the names are invented or common words."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.deid import confident
from crfdeid.deid.confident_terms import caps_edge

TAKEN_IN = [  # (text, the span, its type): the tagger 0.999 sure of it
    pytest.param("Patient: Isla Quenby, CHI 1203571482, seen in clinic today.", "Isla Quenby, CHI", "PATIENT",
                 id="a number's label after a comma"),
    pytest.param("Examined by Sophia Dorvane SANE at 02:10 with consent.", "Sophia Dorvane SANE", "DOCTOR",
                 id="a credential after the name"),
    pytest.param("Audiology: LU Kestrelby tested, right ear normal.", "LU Kestrelby", "PATIENT",
                 id="a side's abbreviation before the name"),
]


def _written(text: str, surface: str, subtype: str) -> str:
    return written(tagged(text, (surface, subtype, 0.999)))[0]


@pytest.mark.parametrize("text, surface, subtype", TAKEN_IN)
def test_a_capitals_word_taken_in_at_the_edge_gets_a_placeholder(text, surface, subtype):
    assert _written(text, surface, subtype) == f"[**{subtype}**]"


@pytest.mark.parametrize("text, surface, subtype", TAKEN_IN)
def test_without_caps_edge_the_span_was_written_as_a_made_up_name(text, surface, subtype, monkeypatch):
    monkeypatch.setattr(confident, "caps_edge", lambda words, shouting: False)
    new = _written(text, surface, subtype)
    assert "[**" not in new and new != surface


@pytest.mark.parametrize("words, shouting, expected", [
    (["Isla", "Quenby", "CHI"], False, True),
    (["SANE", "Dorvane"], False, True),
    (["Isla", "QUENBY"], False, False),  # five letters or more: a surname written in capitals (Jean DUPONT)
    (["ISLA", "QUENBY", "CHI"], False, False),  # the other words in capitals too: the name's own case
    (["Isla", "Quenby", "CHI"], True, False),  # a note in capitals
    (["CHI"], False, False),  # one word: the one-word rules judge it
    (["Isla", "Quenby"], False, False),
])
def test_caps_edge_reads_the_edges_and_the_notes_case(words, shouting, expected):
    assert caps_edge(words, shouting) is expected


@pytest.mark.parametrize("text, surface, expected", [
    ("epr login cohagan3 viewed the chart at 02:10.", "epr login cohagan3", "[**USERNAME**]"),  # its label taken in
    ("Accessed by DIPS-bruker ihat0412 on the ward.", "DIPS-bruker ihat0412", "[**USERNAME**]"),
])
def test_a_user_name_with_a_blank_took_its_label_in_and_gets_a_placeholder(text, surface, expected):
    assert written(tagged(text, (surface, "USERNAME", 0.999)))[0] == expected


def test_a_user_name_of_one_word_is_still_written_as_a_made_up_one():
    new = written(tagged("epr login: cohagan3 viewed the chart at 02:10.", ("cohagan3", "USERNAME", 0.999)))[0]
    assert "[**" not in new and new != "cohagan3"
