"""The Safe Harbor layer's dates of other countries' forms (issue 58, dates28): dotted day and month, other languages'
months after a day (gazetteers/months_world.txt, Unicode CLDR through Babel)."""

import pytest

from crfdeid import gazetteers
from crfdeid.recognizers import dateforms, safeharbor


def _found(text: str) -> list[str]:
    return [text[sp.start:sp.end] for _, sp in dateforms.matches(text)]


@pytest.mark.parametrize("text, dates", [
    ("roj. 8. 5. 2019 (7 let)", ["8. 5. 2019"]),
    ("echo 25.11. showed a small PDA", ["25.11."]),
    ("blood culture (24.11.) no growth", ["24.11."]),
    ("Kontrola 15. ledna 2027.", ["15. ledna 2027"]),
    ("Porto, 21 de novembro de 2026", ["21 de novembro de 2026"]),
    ("vi kommer 8. januar.", ["8. januar."]),
    ("fra 1. december: ny adresse", ["1. december"]),
    ("visita il 24 novembre alle 10", ["24 novembre"]),
    # Japan's imperial eras (era22): the span starts at the era's mark
    ("MRI (R8.10.30) de fuantei-sei ari", ["R8.10.30"]),
    ("HbA1c 6.8%; H30-nen yori naifuku", ["H30-nen"]),
    ("Honnin wa Reiwa 7-nen 9-gatsu goro yori", ["Reiwa 7-nen 9-gatsu"]),
    ("shinsatsu: r6.2-gatsu", ["r6.2-gatsu"]),
    ("令和8年10月30日に受診", ["令和8年10月30日"]),
])
def test_forms_of_other_countries_are_found(text, dates):
    assert sorted(_found(text)) == sorted(dates)


@pytest.mark.parametrize("text", [
    "Hb 10.2. K 4.1. Na 138.",  # values of one dot, a one-digit part
    "firmware v3.10.12. updated",  # a version
    "3 mars",  # a day and a four-letter month word without the day's dot, de or a year
    "1 set of vitals; 2 dame; UTI 2021",  # English words and a clinical abbreviation
    "BP 120/80-130/90",  # pressures
    "pH 7.35. pCO2 4.8",
    "12.5-13.2 mmol/L",  # a range of values
    "see S1.2.3 of the guideline; T1 10.5 mm; H2 blocker",  # a section's number, a grade, a drug's class
    "R40.10.30 and H45-nen",  # years no era of Reiwa or Heisei reached
    "R8.13.30",  # no month 13
])
def test_look_alikes_are_not_dates(text):
    assert _found(text) == []


def test_the_layer_finds_them_for_every_model():
    text = "Эхо 24.11. без изменений; roj. 8. 5. 2019; Frottis du 3 octobre 2026."
    spans = {text[sp.start:sp.end] for sp in safeharbor.find(text) if sp.subtype == "DATE"}
    assert {"24.11.", "8. 5. 2019", "3 octobre 2026"} <= spans


def test_the_month_list_has_no_english_month_or_clinical_word():
    world = gazetteers.load("months_world")
    assert {"novembre", "noviembre", "listopadu", "dezember", "ledna", "oktober"} <= world
    assert not world & gazetteers.load("months")
    assert "uti" not in world and "here" not in world
    head = "\n".join(gazetteers.header("months_world"))
    assert "CLDR" in head and "# licence:" in head and "# regenerate:" in head
