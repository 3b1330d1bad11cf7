"""National numbers after their scheme's name, checked by python-stdnum (``fixedforms.scheme_numbers``).

Every number here is a random draw of ``crfdeid/_data/id_schemes.tsv`` (valid by its module's own
check) or one with its check digit broken; no real person's.
"""

from __future__ import annotations

import pytest

from crfdeid.gazetteers import id_schemes
from crfdeid.recognizers import fixedforms, safeharbor


def _found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.subtype) for s in fixedforms.scheme_numbers(text)]


def _labelled(word: str) -> bool:
    """A label word a note writes before the number (the catalogue's short names: not an English description)."""
    return len(word) <= 12 and word.lower() not in fixedforms.plain_words()


@pytest.mark.parametrize("module,subtype,word,number", [
    (module, subtype, next(w for w in words if _labelled(w)), numbers[0])
    for module, subtype, words, numbers in id_schemes() if any(_labelled(w) for w in words)])
def test_every_scheme_is_found_after_its_name(module, subtype, word, number):
    text = f"Patient seen today. {word}: {number}   Ward 4"
    assert (number, subtype) in _found(text), module


@pytest.mark.parametrize("text,want", [
    ("RUT 14.582.361-7, tel. +56 9 5555 0412", [("14.582.361-7", "IDNUM")]),
    ("rut 7834219-6 edad 71 ficha 3", [("7834219-6", "IDNUM")]),           # lower case, an age after it
    ("HETU 120339-417N, ikä 87 v", [("120339-417N", "IDNUM")]),
    ("Patient: Johann Leitner, SVNR 5999 120368, geb. 12.03.1968", [("5999 120368", "SSN")]),  # two groups
    ("CPF 913.492.035-80 · Cartão SUS", [("913.492.035-80", "IDNUM")]),     # a middle dot is no group
    ("Paciente Rosa Quispe DNI 41827365-3 HC 0418", [("41827365-3", "IDNUM")]),  # a check suffix kept in the span
])
def test_forms_of_notes(text, want):
    assert _found(text) == want


@pytest.mark.parametrize("text", [
    "RUT 14.582.361-8",                    # the check digit broken
    "CPF 123.456.789-00",
    "in 2019 and in 20190411",             # "in" is a word in lower case, not Japan's IN
    "cc 13842906 0 ZX3 of saline",         # "cc" likewise
    "stuck in a rut 12 months",
    "DNI 12",                              # fewer than four digits
])
def test_no_number_without_its_check_or_its_label(text):
    assert _found(text) == []


def test_the_layer_adds_the_number():
    text = "Paciente: Ignacio Muñoz   RUT: 27.083.439-6\nFecha nac.: 02/03/1961"
    spans = safeharbor.apply(text, [])
    assert [(text[s.start:s.end], s.subtype) for s in spans if s.subtype == "IDNUM"] == [("27.083.439-6", "IDNUM")]


@pytest.mark.parametrize("text", [
    "Xəstə cı 12345 saylı palatada",       # Azerbaijani: a dotless i folds to CI's i only by Unicode case folding
    "HASTA İN 4471 NOLU ODADA",            # Turkish capitals: a dotted capital I folds to IN's i
    "ſin 4471 and \u212Aİ 12",              # a long s and a Kelvin sign fold to s and k
])
def test_a_label_matched_only_by_case_folding_finds_nothing_and_does_not_fail(text):
    assert _found(text) == []
    assert safeharbor.apply(text, []) is not None

