"""The digit-run prefilter of the Safe Harbor layer (crfdeid/text/digitruns.py, its use in ruledata.scan,
safeharbor, dateforms, and the phones' SEVEN gate): a form is skipped only where it cannot match, so
the layer finds the same with and without it, on every note and line of the made-up development sets."""

from __future__ import annotations

import re

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.experiments.madeup import read_sets
from crfdeid.recognizers import contextforms, dateforms, fixedforms, phones, ruledata, safeharbor
from crfdeid.text import digitruns
from crfdeid.text.digitruns import NOT_ASCII, least_run, longest_run

# the development sets only (never the held-back ones)
SETS = ("dev,dev2,dev3,dev4,dev5,dev6,dev7,dev8,dev9,short,check5,check6,check7,check9,check10,check11,"
        "check12,check13,check14,check15,check16,check17,check18,forms9,falsify13,falsify14")


@pytest.mark.parametrize(("pattern", "least"), [
    (r"[0-9]{4}", 4),
    (r"\d\d-\d{4}", 4),                    # \d: a digit in ASCII text
    (r"(?:19|20)[0-9]{2}", 4),            # every branch digits only: the run goes on
    (r"[0-9]{2}(?<=[a-z][0-9]{2})[0-9]", 3),  # a look-behind consumes nothing
    (r"\b[0-9]{3}\b", 3),
    (r"[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}", 4),
    (r"[0-9]{6}|[a-z]+[0-9]{2}", 2),      # the shortest branch
    (r"[0-9]+", 1),
    (r"[0-9]*", 0),
    (r"[0-9a-f]{8}", 0),                  # a class with letters may hold none
    (r"[^a-z]{5}", 0),                    # a negated class too
    (r"(?:[0-9]{3}-){2}", 3),             # a repeat of a step that is not digits only keeps its runs
    (r"([0-9]{2})\1", 2),                 # a back-reference counts as anything
    (r"[0-9]{2}(?:[ -]?[0-9]{2}){3}", 2),  # an optional separator may be there
    (r"\p{Lu}[0-9]{5}", 0),               # the regex module's syntax: unknown
    (r"(?<=\w+)[0-9]{5}", 5),             # a variable look-behind (regex's) parses: it consumes nothing
])
def test_least_run_reads_the_pattern(pattern, least):
    assert least_run(pattern) == least


def test_least_run_gives_nothing_for_flags_it_does_not_know():
    assert least_run("[0-9]{4}", regex.V1) == 0
    assert least_run("[0-9]{4}", re.I | re.M) == 4


def test_least_run_gives_nothing_without_the_parser(monkeypatch):
    monkeypatch.setattr(digitruns, "_p", None)  # a Python whose ``re`` moved its private parser
    assert least_run("[0-9]{4}") == 0


def test_longest_run_and_a_text_that_is_not_ascii():
    assert longest_run("") == 0
    assert longest_run("BP 120/80 on 2089-03-04, MRN 00123456") == 8
    assert longest_run("DOB ١٢٣٤٥") == NOT_ASCII  # other digits: \d holds them, so nothing is skipped
    assert longest_run("né 12") == NOT_ASCII


PATTERNS = [
    *(rx for _, rx, _, _ in safeharbor.FORMS.values()),
    *(rx for _, rx, _, _ in fixedforms.FORMS.values()),
    *(rx for _, rx, _, _ in contextforms.FORMS.values()),
    *(g for _, _, _, g in [*fixedforms.FORMS.values(), *contextforms.FORMS.values()] if isinstance(g, re.Pattern)),
    *dateforms._compiled().values(),
]


def _need(rx) -> int:
    return digitruns.needed(rx)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 -/.:()+#,abcdeilmnoprstuvyzABCDEJLMNOSTVW\n", max_size=60))
def test_every_match_of_every_form_holds_its_run(text):
    """The bound is a property of each match: the digits a match consumes, in a row, are never fewer."""
    for rx in PATTERNS:
        for m in rx.finditer(text):
            assert longest_run(m.group()) >= _need(rx), (rx.pattern if hasattr(rx, "pattern") else rx.source, text)


@pytest.fixture(scope="module")
def made_up_texts():
    docs = read_sets(SETS)
    texts = [d.text for d in docs]
    lines = [line for t in texts for line in t.splitlines() if line.strip()]
    return [v for t in texts + lines for v in (t, t.lower(), t.upper())]


def _unfiltered(monkeypatch):
    for module in (ruledata, safeharbor, dateforms):
        monkeypatch.setattr(module, "longest_run", lambda text: NOT_ASCII)
    monkeypatch.setattr(phones, "_may_hold_number", lambda text: True)


def test_the_layer_finds_the_same_without_the_prefilter(made_up_texts, monkeypatch):
    """Every note and every line of the 26 development sets, as written, lower- and upper-cased."""
    filtered = [safeharbor.matches(t) for t in made_up_texts]
    skipped = sum(longest_run(t) < 4 for t in made_up_texts)
    assert skipped > 1000  # the prefilter is exercised: many lines hold no run of four digits
    _unfiltered(monkeypatch)
    assert [safeharbor.matches(t) for t in made_up_texts] == filtered


def test_every_match_on_the_made_up_notes_holds_its_run(made_up_texts):
    for text in made_up_texts[::3]:  # as written
        for rx in PATTERNS:
            for m in rx.finditer(text):
                assert longest_run(m.group()) >= _need(rx)


def test_every_phone_candidate_holds_seven_grouped_digits(made_up_texts):
    """The SEVEN gate of phones: no CANDIDATE or RUN match without it."""
    seven = phones._R.SEVEN
    for text in made_up_texts:
        for rx in (phones._R.CANDIDATE, phones._R.RUN):
            for m in rx.finditer(text):
                assert seven.search(m.group())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 ().-+/x", max_size=40))
def test_phone_gate_never_hides_a_candidate(text):
    if phones._R.CANDIDATE.search(text) or phones._R.RUN.search(text):
        assert phones._may_hold_number(text)


def test_the_last_answer_is_for_the_same_text_only():
    a, b = "x 12345", "x 12"
    assert longest_run(a) == 5 and longest_run(b) == 2 and longest_run(a) == 5
    assert digitruns._last[0] is a
