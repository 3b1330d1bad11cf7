"""The Safe Harbor layer's dates of other countries' forms (issue 58, dates28): ranges of two dates, dotted day and
month, other languages' months (gazetteers/months_world.txt, Unicode CLDR through Babel), other calendars' years."""

import pytest

from crfdeid import gazetteers
from crfdeid.recognizers import dateforms, safeharbor


def _found(text: str) -> list[str]:
    return [text[sp.start:sp.end] for _, sp in dateforms.matches(text)]


@pytest.mark.parametrize("text, dates", [
    ("Datum: 24.11.2026-25.11.2026   Nr. 4", ["24.11.2026", "25.11.2026"]),
    ("Aufenthalt 24.11.-25.11.2026", ["24.11.", "25.11.2026"]),
    ("Kurs 26.-27.11.2026 in Graz", ["26.", "27.11.2026"]),
    ("admitted 11/27/2026 – 11/28/2026", ["11/27/2026", "11/28/2026"]),
    ("roj. 8. 5. 2019 (7 let)", ["8. 5. 2019"]),
    ("echo 25.11. showed a small PDA", ["25.11."]),
    ("blood culture (24.11.) no growth", ["24.11."]),
    ("Kontrola 15. ledna 2027.", ["15. ledna 2027", "ledna 2027"]),
    ("Porto, 21 de novembro de 2026", ["21 de novembro de 2026", "novembro de 2026"]),
    ("récusé pour TAVI en mars 2026 par", ["mars 2026"]),
    ("screen passed maj 2019 at", ["maj 2019"]),
    ("vi kommer 8. januar.", ["8. januar."]),
    ("fra 1. december: ny adresse", ["1. december"]),
    ("control en febrero de 2027", ["febrero de 2027"]),
    ("visita il 24 novembre alle 10", ["24 novembre"]),
    ("Date 23/11/2569 (BE)", ["23/11/2569"]),
    ("Date of surgery: 1405/09/04 (25 Nov)", ["1405/09/04"]),
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
])
def test_look_alikes_are_not_dates(text):
    assert _found(text) == []


def test_the_layer_finds_them_for_every_model():
    text = "Дата исследования: 24.11.2026-25.11.2026; Frottis octobre 2026."
    spans = {text[sp.start:sp.end] for sp in safeharbor.find(text) if sp.subtype == "DATE"}
    assert {"24.11.2026", "25.11.2026", "octobre 2026"} <= spans


def test_the_month_list_has_no_english_month_or_clinical_word():
    world = gazetteers.load("months_world")
    assert {"novembre", "noviembre", "listopadu", "dezember", "ledna", "oktober"} <= world
    assert not world & gazetteers.load("months")
    assert "uti" not in world and "here" not in world
    head = "\n".join(gazetteers.header("months_world"))
    assert "CLDR" in head and "# licence:" in head and "# regenerate:" in head
