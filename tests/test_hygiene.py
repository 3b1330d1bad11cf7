"""Spans that cannot be PHI are dropped: punctuation, one letter, stop words, ages under 90."""

from __future__ import annotations

import pytest

from crfdeid.document import make_span
from crfdeid.recognizers.hygiene import drop_junk, drop_young_ages


def _spans(text, *surfaces, subtype="PATIENT"):
    out, at = [], 0
    for s in surfaces:
        start = text.index(s, at)
        out.append(make_span(start, start + len(s), subtype))
        at = start + len(s)
    return out


def _kept(text, spans):
    return [text[s.start:s.end] for s in drop_junk(text, spans)]


@pytest.mark.parametrize("text, surface", [
    ("S: pt slept", "S:"),              # a SOAP heading
    ("S: pt slept", "S"),
    ("Smith's wife called", "s"),        # a possessive, alone
    ("pt and wife", "and"),
    ("given the meds", "the"),
    ("a walker", "a"),
    ("BP 120/70, HR 80", ","),
    ("to the ICU", "to the"),
    ("-- . --", "--"),
    ("\U0001F600\u0301 Smith", "\u0301"),   # a lone combining mark (after an emoji): no letter, no crash
])
def test_a_span_of_nothing_but_punctuation_a_letter_or_stop_words_goes(text, surface):
    assert _kept(text, _spans(text, surface)) == []


@pytest.mark.parametrize("text, surfaces, kept", [
    ("per J. Smith today", ("J.", "Smith"), ["J.", "Smith"]),              # an initial before a name
    ("per J Smith today", ("J", "Smith"), ["J", "Smith"]),
    ("c/w d ross", ("d", "ross"), ["d", "ross"]),                          # lower case, no full stop
    ("Smith, J. aware", ("Smith", "J."), ["Smith", "J."]),                 # after the name
    ("ROBERT V. DEGIORGIO, RRT", ("ROBERT", "V.", "DEGIORGIO"), ["ROBERT", "V.", "DEGIORGIO"]),
    ("spoke with MS S. about it", ("S.",), ["S."]),                        # after a title
    ("mr I remained", ("I",), ["I"]),
    ("U OF MD MED CENTER", ("U", "OF", "MD MED CENTER"), ["U", "OF", "MD MED CENTER"]),  # a joint
    ("Smith's wife", ("Smith", "s"), ["Smith"]),                           # never the possessive s
    ("with a Smith", ("a", "Smith"), ["Smith"]),                           # nor the article
    ("Smith, a nurse", ("Smith", "a"), ["Smith"]),
    ("seen 7/22\nand 7/23", ("7/22", "and", "7/23"), ["7/22", "7/23"]),   # a joint lies on one line
])
def test_initials_and_joints_of_a_name_stay(text, surfaces, kept):
    assert _kept(text, _spans(text, *surfaces)) == kept


def test_digits_and_words_are_never_junk():
    text = "bed 4 at St A. Hospital, 5"
    spans = _spans(text, "4", "A.", "Hospital", "5")
    assert _kept(text, spans) == ["4", "A.", "Hospital", "5"]


@pytest.mark.parametrize("text, surface, kept", [
    ("78M with CHF", "78M", False),
    ("78M with CHF", "78", False),
    ("a 78 y/o man", "78 y/o", False),
    ("a 94 y/o man", "94 y/o", True),        # 90 and over: a Safe Harbor identifier
    ("aged ninety", "ninety", True),         # no digits: kept
])
def test_ages_under_90_are_no_phi(text, surface, kept):
    spans = _spans(text, surface, subtype="AGE")
    assert (drop_young_ages(text, spans) == spans) is kept
    other = _spans(text, surface, subtype="DATE")
    assert drop_young_ages(text, other) == other


@pytest.mark.parametrize("row, surface, subtype", [
    ("HGT mg/dL | 168 | 183 | 210 | 228", "168 | 183 | 210 | 228", "FAX"),
    ("Spiro ml | 1023 | 808 | 1288 | 889 | 1283", "| 1288 | 889 | 1283", "PHONE"),
    ("Balance\t1250\t1320\t1410", "1250\t1320\t1410", "HEALTHPLAN"),
    ("BP | 112/64 | 114/66 | 118/70", "112/64 | 114/66 | 118/70", "IDNUM"),
])
def test_a_table_row_s_values_are_no_identifier(row, surface, subtype):
    spans = _spans(row, surface, subtype=subtype)
    assert _kept(row, spans) == []
    assert drop_junk(row, spans, letters=False) == spans  # a model of its own labels keeps them


@pytest.mark.parametrize("row, surface, subtype", [
    ("Dates | 24.11 | 25.11 | 26.11", "24.11 | 25.11 | 26.11", "DATE"),   # dates as column heads
    ("Years | 2019 | 2020", "2019 | 2020", "DATE"),                       # a date's type keeps its span
    ("MRN | 4471 | 552019", "4471 | 552019", "MEDICALRECORD"),            # a cell of five digits or more
    ("Tel | 0161 | 496 0199", "0161 | 496 0199", "PHONE"),                # a cell with a blank: no plain number
    ("Bed | 2 | Waiata Tane | 61", "2 | Waiata Tane | 61", "STREET"),     # a name among the cells
    ("Mobile | 0917 555 0826 |", "0917 555 0826 |", "PHONE"),             # one cell and its border
    ("Dates | 12/11 | 13/11", "12/11 | 13/11", "FAX"),                    # a day and month: no blood pressure
])
def test_a_row_with_a_date_a_long_number_or_a_word_stays(row, surface, subtype):
    assert _kept(row, _spans(row, surface, subtype=subtype)) == [surface]
