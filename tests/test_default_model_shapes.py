"""The shipped default model on the shapes of real ward notes it used to miss (made-up text, issue 26)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text, phi", [
    ("s/p cabg 4/2- doing well. bc 6/14 pending.", ["4/2", "6/14"]),  # month/day after a test
    ("3-11-06 7a to 7p\nneuro: alert.", ["3-11-06"]),                   # a date opening the note
    ("hx mi 10/05/81.", ["10/05/81"]),                                  # a two-digit year
    ("son, pete, called for update.", ["pete"]),                        # a relative, lower case, no title
    ("DAUGHTER-LENA IN TO VISIT.", ["LENA"]),
    ("nsg (k. marsh and t. olsen) aware.", ["marsh", "olsen"]),         # staff without a title
    ("RABBI KLEIN IN TO SEE PT.", ["KLEIN"]),
    ("plan transfer to Ashford Rehab in am.", ["Ashford"]),             # a local institution
])
def test_phi_in_the_shapes_of_ward_notes_is_found(shipped_model, text, phi):
    doc = shipped_model.tag_text(text)
    inside = {i for s in doc.spans for i in range(s.start, s.end)}
    for surface in phi:
        start = text.index(surface)
        assert set(range(start, start + len(surface))) <= inside, surface


@pytest.mark.parametrize("text", [
    "pt c/o sepsis, started heparin, plan to intubate. d/w renal re: lasix.",
    "pt c/o flank pain. ON WARFARIN. Cellulitis noted.",  # public words in every case (issue 26)
    "weaned to cpap 5/5, tolerated x 1 1/2 hrs.",        # numbers in clinical roles: no dates
])
def test_clinical_words_where_names_stand_are_no_phi(shipped_model, text):
    assert shipped_model.tag_text(text).spans == []
