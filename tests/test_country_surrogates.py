"""Surrogates in the shape of the note's country (crfdeid/deid/country.py): a UK postcode, phone
or town of a UK note gets a UK one, never a US shape; the same for other countries."""

import random
import re

import phonenumbers
import pytest

from crfdeid.deid import country
from crfdeid.deid.surrogate import Surrogator
from crfdeid.document import Document, make_span


def _doc(text, items):
    spans = []
    for value, sub in items:
        i = text.index(value)
        spans.append(make_span(i, i + len(value), sub))
    return Document("7-1", text, spans)


@pytest.mark.parametrize("value,shape", [
    ("SE15 4QJ", "GB"), ("se15 4qj", "GB"), ("LS62QB", "GB"), ("D02 X285", "IE"), ("f26 y2k5", "IE"),
    ("M5H 2N2", "CA"), ("m5h 2n2", "CA"), ("1012 AB", "NL"), ("2150", "4"), ("400 001", "6"), ("400001", "6"),
])
def test_postcode_keeps_its_form_and_case(value, shape):
    for seed in range(20):
        new = country.postcode(value, random.Random(seed), "AU")
        assert country.shape_of(new) == shape
        assert new != value
        assert (" " in new) == (" " in value)
        assert new.islower() == value.islower()


def test_us_and_unknown_forms_left_to_the_caller():
    assert country.postcode("02139", random.Random(1)) is None
    assert country.postcode("53-320", random.Random(1)) is None


NOTES = {
    "GB": ("Mrs Ann Hale lives at 14 Bellenden Road, Leeds LS6 2QB. Mob 07912 345678, tel 020 7946 0958. "
           "Colour good, oedema improving.",
           [("Leeds", "CITY"), ("LS6 2QB", "ZIP"), ("07912 345678", "PHONE"), ("020 7946 0958", "PHONE")]),
    "AU": ("Lives at 12 Smith St, Parramatta NSW 2150, mob 0412 345 678.",
           [("Parramatta", "CITY"), ("2150", "ZIP"), ("0412 345 678", "PHONE")]),
    "IE": ("Lives at 3 Main St, Ballina, Co Mayo, F26 Y2K5. Phone +353 1 234 5678.",
           [("Ballina", "CITY"), ("F26 Y2K5", "ZIP"), ("+353 1 234 5678", "PHONE")]),
    "CA": ("123 queen st w, toronto on m5h 2n2; cell (416) 555-0134.",
           [("toronto", "CITY"), ("m5h 2n2", "ZIP"), ("(416) 555-0134", "PHONE")]),
}


@pytest.mark.parametrize("cc", sorted(NOTES))
def test_a_note_gets_surrogates_of_its_country(cc):
    text, items = NOTES[cc]
    doc = _doc(text, items)
    out = Surrogator(seed=5).surrogate(doc)
    towns = {t.lower() for t in country.towns_by_country()[cc]}
    for (value, sub), sp in zip(sorted(items, key=lambda it: text.index(it[0])), out.spans):
        new = out.surface(sp)
        assert new != value
        if sub == "ZIP":
            assert country.shape_of(new) == country.shape_of(value)
            assert not re.fullmatch(r"[0-9]{5}(-[0-9]{4})?", new)  # never a US ZIP
        elif sub == "CITY":
            assert new.lower() in towns
        elif sub == "PHONE":
            region = "US" if cc == "CA" else cc
            number = phonenumbers.parse(new, region)
            assert phonenumbers.region_code_for_country_code(number.country_code) == region
            assert phonenumbers.is_possible_number(number), new


def test_uk_numbers_get_the_fictional_ranges():
    out = Surrogator(seed=2).surrogate(_doc("Mob +44 7912 345678 (NHS).", [("+44 7912 345678", "PHONE")]))
    assert out.surface(out.spans[0]).startswith("+44 7700 900")


def test_country_surrogates_are_deterministic_under_the_key():
    text, items = NOTES["GB"]
    a = Surrogator(key=b"k" * 32).surrogate(_doc(text, items)).text
    b = Surrogator(key=b"k" * 32).surrogate(_doc(text, items)).text
    c = Surrogator(key=b"j" * 32).surrogate(_doc(text, items)).text
    assert a == b != c


def test_a_us_note_keeps_us_shapes():
    doc = _doc("Lives in Boston, MA 02139, cell 617-555-0199.",
               [("Boston", "CITY"), ("MA", "STATE"), ("02139", "ZIP"), ("617-555-0199", "PHONE")])
    out = Surrogator(seed=3).surrogate(doc)
    zip_ = out.surface(out.spans[2])
    assert re.fullmatch(r"[0-9]{5}", zip_)
    assert re.fullmatch(r"[0-9]{3}-[0-9]{3}-[0-9]{4}", out.surface(out.spans[3]))
