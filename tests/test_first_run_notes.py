"""What a new user's first made-up notes leave with the shipped model: leaks, whole names, over-redaction.

Each case is one a new user met (issue 45's spot check): a leak must not leak, an over-redacted
word must stay, a name's pieces joined by an apostrophe or a hyphen are one span with one type,
a staff member's lone first name in a sign-off is found, and one phone number written two ways
gets one surrogate. All names, numbers and places are made up.
"""

import re

import pytest

from crfdeid.deid.surrogate import Surrogator
from crfdeid.document import Document, make_span
from crfdeid.recognizers.joints import join_names
from crfdeid.site.match import Matcher, name_forms


def _covered(doc, start: int, end: int):
    """The spans of ``doc`` that cover ``[start, end)`` wholly."""
    return [sp for sp in doc.spans if sp.start <= start and end <= sp.end]


# (note, words that must each lie wholly inside one span)
LEAKS = [
    ("Pt Mary O'Brien alert", ["Mary", "O'Brien"]),
    ("Seen with Margaret O'Connell today. Margaret O'Connell is stable.", ["Margaret", "O'Connell"]),
    ("Pt Jane Doe seen 3/4/2021.", ["Jane", "Doe", "3/4/2021"]),
    ("spoke with mary-kate o'neil about discharge", ["mary-kate", "o'neil"]),
    ("lives alone at 42 oak lane, apt 3b, portland, or 97205", ["42 oak lane", "apt 3b", "portland", "97205"]),
    ("picks up meds at walgreens on main st", ["main st"]),
    ("car plate 7ABC123 in the lot", ["7ABC123"]),
    ("will follow up.\n-- ann, front desk", ["ann"]),
]


@pytest.mark.parametrize("text,words", LEAKS)
def test_newcomer_leaks_are_caught(shipped_model, text, words):
    doc = shipped_model.tag_text(text)
    for word in words:
        for m in re.finditer(re.escape(word), text):
            assert _covered(doc, m.start(), m.end()), f"{word!r} not wholly inside one span"


@pytest.mark.parametrize("text,name", [
    ("Pt Mary O'Brien alert", "O'Brien"),
    ("Seen with Margaret O'Connell today. Margaret O'Connell is stable.", "O'Connell"),
    ("spoke with mary-kate o'neil about discharge", "mary-kate"),
    ("spoke with mary-kate o'neil about discharge", "o'neil"),
])
def test_names_with_apostrophes_and_hyphens_are_one_name_span(shipped_model, text, name):
    doc = shipped_model.tag_text(text)
    for m in re.finditer(re.escape(name), text):
        inside = [sp for sp in doc.spans if sp.start < m.end() and m.start() < sp.end]
        assert len(inside) == 1 and inside[0].category == "NAME", (name, inside)


# (note, a word that must stay outside every span)
KEPT = [
    ("Daughter at bedside; call (217) 555-0143 with questions.", "call"),
    ("Margaret O'Connell is stable. Call (217) 555-0143.", "Call"),
    ("a pleasant 92-year-old woman with CHF.", "pleasant"),
    ("HPI: a pleasant 92-year-old", "a pleasant"),
    ("vancomycin day 4/7 today", "4/7"),
    ("Abx: cefepime (day 10/14).", "10/14"),
]


@pytest.mark.parametrize("text,word", KEPT)
def test_newcomer_over_redaction_is_gone(shipped_model, text, word):
    doc = shipped_model.tag_text(text)
    start = text.index(word)
    assert not [sp for sp in doc.spans if sp.start < start + len(word) and start < sp.end]


NAME = "NAME"


@pytest.mark.parametrize("text,pieces,expected", [
    # (text, (start, end, subtype) of the predicted spans, the spans' texts and subtypes after)
    ("MARGARET O'CONNELL", [(0, 10, "DOCTOR"), (10, 18, "PATIENT")], [("MARGARET O'CONNELL", "DOCTOR")]),
    ("o'brien", [(2, 7, "PATIENT")], [("o'brien", "PATIENT")]),
    ("Zoë Müller-Øster", [(0, 3, "PATIENT"), (4, 10, "PATIENT")], [("Zoë", "PATIENT"), ("Müller-Øster", "PATIENT")]),
    ("Jean-Pierre", [(5, 11, "DOCTOR")], [("Jean-Pierre", "DOCTOR")]),
    ("D'Angelo", [(2, 8, "DATE")], [("D'Angelo", "PATIENT")]),
    # what a name does not take: a possessive, a suffix, a relation word, another apostrophe prefix
    ("O'Brien's", [(0, 7, "PATIENT")], [("O'Brien", "PATIENT")]),
    ("Smith-like", [(0, 5, "DOCTOR")], [("Smith", "DOCTOR")]),
    ("DAUGHTER-MINDY", [(9, 14, "PATIENT")], [("MINDY", "PATIENT")]),
    ("l'Hôpital", [(2, 9, "PATIENT")], [("Hôpital", "PATIENT")]),
    ("Mary-1", [(0, 4, "PATIENT")], [("Mary", "PATIENT")]),
    ("March", [(0, 5, "DATE")], [("March", "DATE")]),
])
def test_name_pieces_joined_into_one_span(text, pieces, expected):
    out = join_names(text, [make_span(*p) for p in pieces])
    assert [(text[s.start:s.end], s.subtype) for s in out] == expected


@pytest.mark.parametrize("text,found", [
    ("will follow up.\n-- ann, front desk", "ann"),
    ("thanks\n-- Ann\n", "Ann"),
    ("— ann, 3rd floor", "ann"),
    ("moved to ann arbor in may", None),      # a plain word without a cue stays
    ("the ann of the report, -- ann", None),  # a dash inside a line is no sign-off
])
def test_a_staff_members_first_name_in_a_sign_off(text, found):
    matcher = Matcher(name_forms("Ann", (), "Becker", "DOCTOR"))
    hits = [text[s.start:s.end] for s in matcher.find(text)]
    assert hits == ([found] if found else [])


def test_one_phone_number_written_two_ways_gets_one_surrogate():
    text = "Cell (217) 555-0143; also 217-555-0143 and 217.555.0143."
    spans = [make_span(m.start(), m.end(), "PHONE") for m in re.finditer(r"\(?217\)?[ .-]?555[.-]0143", text)]
    out = Surrogator(seed=5).surrogate(Document("n1", text, spans))
    news = [out.text[s.start:s.end] for s in out.spans]
    assert len(news) == 3 and len({re.sub(r"\D", "", n) for n in news}) == 1
    assert [re.sub(r"\d", "9", n) for n in news] == ["(999) 999-9999", "999-999-9999", "999.999.9999"]
    assert "555-0143" not in out.text


def test_a_hyphenated_pair_of_first_names_joins_the_name_after_it():
    """Two census first names joined by a hyphen right before a name are its first name, in any
    case; a hyphenated pair that is not two first names is left to the model."""
    from crfdeid.document import make_span
    from crfdeid.recognizers.rules import extend_names
    text = "spoke with mary-kate o'neil; post-op jones"
    spans = [make_span(21, 27, "PATIENT"), make_span(37, 42, "DOCTOR")]
    got = {text[s.start:s.end]: s.subtype for s in extend_names(text, spans)}
    assert got == {"mary-kate": "PATIENT", "o'neil": "PATIENT", "jones": "DOCTOR"}
