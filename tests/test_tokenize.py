"""Tokenizer: He et al. 2015 run-together forms, glued flags, rebuild invariant, ablation switch."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.text import tokenize as tk
from crfdeid.text.tokenize import token_offsets, tokenize

CASES = [
    ("PEND01/26/2098", ["PEND", "01", "/", "26", "/", "2098"]),
    ("CABG6/95", ["CABG", "6", "/", "95"]),
    ("x76221", ["x", "76221"]),
    ("X1-1335", ["X", "1", "-", "1335"]),
    ("47798497-045-1949", ["47798497", "-", "045", "-", "1949"]),
    ("ALMarital", ["AL", "Marital"]),
    ("34712RadiologyExam", ["34712", "Radiology", "Exam"]),
    ("JaffreyMarital", ["Jaffrey", "Marital"]),
    ("Since6/03/04", ["Since", "6", "/", "03", "/", "04"]),
    ("3041023MARY", ["3041023", "MARY"]),
    ("Dr.Smith", ["Dr", ".", "Smith"]),
    ("(784)032-8966", ["(", "784", ")", "032", "-", "8966"]),
    ("2106-02-12", ["2106", "-", "02", "-", "12"]),
    ("Ms. O'Neil", ["Ms", ".", "O", "'", "Neil"]),
    ("Zoë Müller-Lüdenscheidt", ["Zoë", "Müller", "-", "Lüdenscheidt"]),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_run_together_forms_split(text, expected):
    assert [t.text for t in tokenize(text)] == expected


@pytest.mark.parametrize("text, expected", [
    ("Since6/03/04", ["Since6", "/", "03", "/", "04"]),
    ("ALMarital", ["ALMarital"]),
    ("3041023MARY x76221", ["3041023MARY", "x76221"]),
    ("(784)032-8966", ["(", "784", ")", "032", "-", "8966"]),
    ("Dr.Smith", ["Dr", ".", "Smith"]),
])
def test_split_glued_off_keeps_letter_digit_runs(text, expected):
    assert [t.text for t in tokenize(text, split_glued=False)] == expected


def test_glued_flags_around_date_dashes():
    toks = tokenize("on 2106-02-12.")
    assert [(t.text, t.glued_left, t.glued_right) for t in toks] == [
        ("on", False, False), ("2106", False, True), ("-", True, True), ("02", True, True),
        ("-", True, True), ("12", True, True), (".", True, False)]


def test_glued_flags_distinguish_spacing():
    glued = tokenize("Since6/03/04")
    spaced = tokenize("Since 6 / 03 / 04")
    assert [t.text for t in glued] == [t.text for t in spaced]
    assert glued[1].glued_left and not spaced[1].glued_left


def test_token_offsets_match_tokens():
    text = "BP 120/80, HR 7O\u00e9 \u4e2d\u6587"
    assert token_offsets(text) == [(t.start, t.end) for t in tokenize(text)]


def _check_invariants(text, toks):
    prev_end = 0
    for t in toks:
        assert text[t.start:t.end] == t.text and t.start < t.end
        assert t.start >= prev_end  # no overlap, in order
        assert text[prev_end:t.start].isspace() or prev_end == t.start
        prev_end = t.end
    assert text[prev_end:].isspace() or prev_end == len(text)
    assert "".join(t.text for t in toks) == "".join(c for c in text if not c.isspace())


@settings(max_examples=300, deadline=None)
@given(st.text(), st.booleans())
def test_tokens_rebuild_non_space_text(text, split_glued):
    _check_invariants(text, tokenize(text, split_glued=split_glued))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)), st.booleans())
def test_ascii_fast_path_equals_unicode_pattern(text, split_glued):
    fast = tk._SPLIT_ASCII if split_glued else tk._GLUED_ASCII
    full = tk._SPLIT if split_glued else tk._GLUED
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in full.finditer(text)]


@pytest.mark.parametrize("text", ["", "   \n\t", "\x1c\x1f\u3000"])
def test_blank_text_has_no_tokens(text):
    assert tokenize(text) == []


def test_combining_marks_stay_on_their_letter():
    text = "AE\u0301a"  # upper run whose last letter carries a combining accent, then lower
    toks = tokenize(text)
    _check_invariants(text, toks)
    assert all(not t.text[0] == "\u0301" for t in toks)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet="aB1 .-\n")), st.booleans())
def test_tokens_equal_the_pattern_matches(text, split_glued):
    # tokenize() builds tokens from one split(); the reference is the pattern's finditer().
    spans = token_offsets(text, split_glued)
    glued = [a[1] == b[0] for a, b in zip(spans, spans[1:])]
    expected = [tk.Token(text[s:e], s, e, i > 0 and glued[i - 1], i < len(glued) and glued[i])
                for i, (s, e) in enumerate(spans)]
    got = tokenize(text, split_glued)
    assert got == expected and all(type(t) is tk.Token for t in got)
    assert [tuple(t) for t in tk.iter_tokens(text, split_glued)] == [tuple(t) for t in got]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet="aB1 .-\u00e9\u0301\n")), st.booleans())
def test_token_strings_are_the_texts_of_the_token_offsets(text, split_glued):
    assert tk.token_strings(text, split_glued) == [text[s:e] for s, e in token_offsets(text, split_glued)]
