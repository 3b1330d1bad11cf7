"""Clinical terms as negative evidence: eponyms, doses, clock times and devices are not PHI."""

from __future__ import annotations

import pytest

import crfdeid
from crfdeid.document import make_span
from crfdeid.recognizers.clinical import drop_clinical, why_clinical


def _span(text, surface, subtype="DOCTOR"):
    start = text.index(surface)
    return make_span(start, start + len(surface), subtype)


@pytest.mark.parametrize("text, surface, reason", [
    ("Vitamin D 2000 IU daily", "2000", "dose"),
    ("heparin 5000 units sc", "5000", "dose"),
    ("KCl 40 mEq given", "40", "dose"),
    ("GCS: Glasgow Coma Scale 15", "Glasgow", "eponym"),
    ("Murphy sign negative", "Murphy", "eponym"),
    ("Murphy's sign negative", "Murphy", "eponym"),
    ("h/o Parkinson's disease", "Parkinson's", "eponym"),
    ("Foley catheter in place", "Foley", "eponym"),
    ("Crohn disease flare", "Crohn", "eponym"),
    ("meds given at 0200 tonight", "0200", "time"),
    ("turned @2330", "2330", "time"),
    ("next dose 1400 hrs", "1400", "time"),
    ("ambulates with a walker.", "walker", "device"),
    ("ambulates with a walker.", "walker.", "device"),
])
def test_clinical_terms_are_dropped(text, surface, reason):
    sp = _span(text, surface)
    assert why_clinical(text, sp) == reason
    assert drop_clinical(text, [sp]) == []


@pytest.mark.parametrize("text, surface", [
    ("Mr. Foley called his wife", "Foley"),        # a surname, no clinical head after it
    ("seen by Dr. Murphy today", "Murphy"),
    ("Spoke with Walker at home", "Walker"),
    ("transferred from Glasgow last week", "Glasgow"),
    ("CABG in 2000 at another hospital", "2000"),   # a year: no unit, no clock context
    ("seen 03/14/2098 with 2 units", "03/14/2098"),
    ("Murphy Smith sign", "Murphy Smith"),          # not every word a clinical word
    ("pt son walker visited", "walker"),            # no article before it
])
def test_names_places_and_dates_are_kept(text, surface):
    sp = _span(text, surface)
    assert why_clinical(text, sp) is None
    assert drop_clinical(text, [sp]) == [sp]


def test_the_shipped_model_keeps_clinical_words_and_still_finds_phi():
    model = crfdeid.load()
    for text in ("Vitamin D 2000 IU daily.", "GCS: Glasgow Coma Scale 15.",
                 "Positive Babinski sign, Murphy sign negative.", "Hodgkin lymphoma, Crohn disease, Addison disease."):
        assert model.tag_text(text).spans == [], text
    tagged = model.tag_text("Seen by Dr. Murphy on 7/22/2098; Age: 94, 40 units.")
    assert {tagged.text[s.start:s.end] for s in tagged.spans} >= {"Murphy", "7/22/2098", "94"}
