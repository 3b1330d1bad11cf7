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
    ("GCS: Glasgow Coma Scale", "Glasgow", "eponym"),
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
    ("GCS: Glasgow Coma Scale 15", "Glasgow Coma", "score"),    # inside the scale's name and value
    ("GCS: Glasgow Coma Scale 15", "Coma", "score"),
    ("GCS: Glasgow Coma Scale", "Glasgow Coma", "eponym"),      # a head noun in the span
    ("GCS: Glasgow Coma Scale", "Coma", "eponym"),              # the eponym before it
    ("Vitamin D 2000 IU daily", "Vitamin D 2000", "dose"),      # a drug's words, then its dose
    ("Lantus 20 units qhs", "Lantus 20", "dose"),
    ("NEURO: Glasgow Coma Scale 15, MAE", "15", "score"),       # the number after a scale
    ("NEURO: Glasgow Coma Scale 15, MAE", "Coma Scale 15", "score"),
    ("NEURO: Glasgow Coma Scale 15, MAE", "Glasgow Coma Scale 15", "score"),
    ("gcs: 15, rass -2 overnight", "15", "score"),
    ("gcs: 15, rass -2 overnight", "2", "score"),
    ("NIHSS of 4 on arrival", "4", "score"),
    ("stage 4 sacral ulcer", "4", "score"),
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
    ("seen by Dr Coma Scale", "Coma"),              # a head noun alone, no eponym before it
    ("Murphy Disease Smith", "Disease Smith"),      # not every word clinical
    ("gave Smith 20 mg", "Smith 20"),               # a surname before the dose
    ("Dr Lee 5 mg", "Dr Lee 5"),                    # a title and a surname
    ("Vitamin D 2000 daily", "Vitamin D 2000"),     # no unit after the number
    ("Seen by Dr. Scale on 3/15", "3/15"),          # a date after a name, not a score
    ("MELD score 3/15 was 22", "3/15"),             # a month/day after a score's name: a date too
    ("CABG 2015, GCS 15", "2015"),                  # a year after an event is no score
    ("Smith 15 Main St", "Smith 15"),               # words before the number that are no scale
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


def test_clinical_terms_of_a_whole_note_keep_their_words_in_surrogate_output(tmp_path):
    # The shipped model tags "Coma" and "a walker" in this note (context matters): the filter
    # drops them before the name extension can grow "a" into an initial.
    from crfdeid.cli import tag
    note = ("Vitamin D 2000 IU daily.\nGlasgow Coma Scale 15.\nGiven at 0200.\n"
            "Ambulating with a walker.\nMurphy sign negative.\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "n.txt").write_text(note, encoding="utf-8")
    key = tmp_path / "k.key"
    key.write_text("test-key-not-a-secret-0123456789", encoding="utf-8")
    assert tag.main(["--quiet", "--output-format", "surrogate", "--key-file", str(key),
                     "--output-dir", str(tmp_path / "out"), str(tmp_path / "in")]) == 0
    assert (tmp_path / "out" / "n.txt").read_text(encoding="utf-8") == note


@pytest.mark.parametrize("text, span, dropped", [
    ("Medtronic Azure XT pacemaker checked", "Medtronic Azure XT", True),   # brand + model
    ("s/p ORIF of Lisfranc injury", "Lisfranc", True),
    ("CrCl by Cockcroft-Gault 64", "Cockcroft-Gault", True),
    ("Bruce protocol stress test", "Bruce", True),                           # a name before a head noun
    ("Bruce called his daughter", "Bruce", False),                           # a name
    ("moved to Denver last year", "Denver", False),                          # a place
    ("Raleigh, NC today", "NC", False),                                      # two letters: a state's code too
    ("seen in Geriatrics Clinic", "Geriatrics Clinic", False),              # departments are PHI in i2b2 2014
    ("Ottawa ankle rules negative", "Ottawa", True),                         # inside a listed phrase
    ("OTTAWA KNEE RULES: negative", "OTTAWA", True),                         # in any case
    ("IDC, Nottingham grade 2", "Nottingham", True),
    ("Denver developmental screen passed", "Denver", True),
    ("moved from Ottawa in May", "Ottawa", False),                           # the place, no phrase
    ("Ottawa; ankle rules negative", "Ottawa", False),                       # punctuation ends a phrase
    ("lives in Ann Arbor with her son", "Ann Arbor", False),                 # a phrase that is a place too
    ("her sister Mary Joseph visited", "Mary Joseph", False),                # a phrase of names and relations
])
def test_public_clinical_vocabulary(text, span, dropped):
    start = text.index(span)
    reason = why_clinical(text, make_span(start, start + len(span), "DOCTOR"))
    assert (reason == "vocabulary") is dropped
