"""Segmenter: line breaks, sentence ends, abbreviations, headings, bullets, max length."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.segment import segments
from crfdeid.tokenize import tokenize


def _segs(text, **kw):
    toks = tokenize(text)
    return [" ".join(t.text for t in toks[a:b]) for a, b in segments(text, toks, **kw)]


@pytest.mark.parametrize("text, expected", [
    ("HISTORY OF PRESENT ILLNESS:\nPt is a 91 yo man.", ["HISTORY OF PRESENT ILLNESS :", "Pt is a 91 yo man ."]),
    ("- Lasix 40\n- Heparin 20", ["- Lasix 40", "- Heparin 20"]),
    ("Seen by Dr. Lee today. Stable.", ["Seen by Dr . Lee today .", "Stable ."]),
    ("Mr. F. Quill seen.", ["Mr . F . Quill seen ."]),
    ("Line one\r\nLine two", ["Line one", "Line two"]),
    ("BP 120/80. HR 88", ["BP 120 / 80 .", "HR 88"]),
    ("", []),
])
def test_segments(text, expected):
    assert _segs(text) == expected


def test_max_len_caps_a_single_line_note():
    text = " ".join(["word"] * 1000)
    segs = segments(text, tokenize(text), max_len=200)
    assert [b - a for a, b in segs] == [200] * 5


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .\n-:Dr1")), st.integers(1, 20))
def test_segments_partition_the_tokens(text, max_len):
    toks = tokenize(text)
    segs = segments(text, toks, max_len=max_len)
    flat = [i for a, b in segs for i in range(a, b)]
    assert flat == list(range(len(toks)))
    assert all(0 < b - a <= max_len for a, b in segs)
