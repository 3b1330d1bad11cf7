"""``name_initials.v1``: initials that are those of a name the note writes (sign39)."""

from __future__ import annotations

import pytest

from crfdeid.config import load_feature_set
from crfdeid.features.initials import name_initials
from crfdeid.features.window import Featurizer
from crfdeid.text.tokenize import tokenize


def _marked(text: str) -> list[str]:
    tokens = tokenize(text)
    return [t.text for t, attrs in zip(tokens, name_initials(text, tokens)) if attrs]


@pytest.mark.parametrize("text, marked", [
    ("RN Anna Berg (AB); 02:00 turned - AB", ["AB", "AB"]),
    ("Zdzisława Gołąbek (ZG) ... keine Fixierung. – ZG", ["ZG", "ZG"]),  # no list holds her: no plain word either
    ("Key: A.B. = Anna Berg", ["A", ".", "B", "."]),  # dotted initials, every token of them
    ("Maria Pia Cabrera | MPC | MC", ["MPC", "MC"]),  # three words: all three letters, or the first and the last
    ("Anna Berg signed. KT at 02:00", []),  # initials of no name in the note
])
def test_initials_of_a_name_in_the_note(text, marked):
    assert _marked(text) == marked


@pytest.mark.parametrize("text", [
    "Lung Sounds clear. LS coarse, BS present",  # clinical words in title case are no name
    "PT TOLERATING OXYGEN. TO BE SEEN AT 1400",  # capitals: only listed names count, and TO is a word
    "LG OB stool x1, LG",  # two capitals are no name
    "Peter Turner in bed; PT to mobilise",  # a clinical abbreviation, unless written with dots
    "Agnieszka Sołtysik (AS)",  # a stop word too: lost to the feature (PhysioNet writes TO, AT, AS as words)
    "anna berg (ab)",  # lower case: no name is found
])
def test_clinical_words_and_plain_words_are_no_initials(text):
    assert _marked(text) == []


def test_no_initials_no_work():
    text = "BP 120/80, HR 72. Settled overnight."
    assert name_initials(text, tokenize(text)) == [()] * len(tokenize(text))


def test_the_feature_sets_that_carry_it():
    """``full_initials`` and ``full_caseless_initials`` are ``full`` and ``full_caseless`` with the template; the
    sets of the models shipped before sign39 do not have it."""
    for name, base in (("full_initials", "full"), ("full_caseless_initials", "full_caseless")):
        with_it, without = load_feature_set(name), load_feature_set(base)
        assert with_it["token"] == [*without["token"], "name_initials.v1"]
        assert with_it["word"] == without["word"]
        assert with_it.get("caseless") == without.get("caseless")
    assert "name_initials.v1" not in load_feature_set("full")["token"]
    text = "Anna Berg (AB)"
    attrs = Featurizer(load_feature_set("full_initials")).featurize(text, tokenize(text))
    assert "ini:name" in attrs[3] and not any("ini:name" in a for a in attrs[:3])
