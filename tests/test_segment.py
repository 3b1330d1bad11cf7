"""Segmenter: line breaks, sentence ends, abbreviations, headings, bullets, max length."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.text.tokenize import segments, tokenize


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


def _reference(text, tokens, max_len):
    """The plain per-token loop (every gap sliced)."""
    from crfdeid.text.tokenize import _FINAL, ABBREVIATIONS
    out, begin = [], 0
    for i, cur in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        end_here = nxt is None or i + 1 - begin >= max_len
        if not end_here:
            gap = text[cur.end:nxt.start]
            if "\n" in gap or "\r" in gap:
                end_here = True
            elif cur.text in _FINAL and gap and i > begin:
                end_here = len(tokens[i - 1].text) > 1 and tokens[i - 1].text.lower() not in ABBREVIATIONS
        if end_here:
            out.append((begin, i + 1))
            begin = i + 1
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "Dr", "bb", " ", "  ", ".", "?", "\n", "\r\n", " \n ", "x.", "e.g"]),
                max_size=60).map("".join), st.integers(1, 12))
def test_segments_equal_the_plain_loop(text, max_len):
    toks = tokenize(text)
    assert segments(text, toks, max_len) == _reference(text, toks, max_len)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "Dr", "bb", " ", ".", "?", "\n", "\r", "x.", "!"]), max_size=60).map("".join),
       st.integers(1, 12))
def test_segments_of_a_list_equal_the_streaming_ones(text, max_len):
    from crfdeid.text.tokenize import iter_segments
    toks = tokenize(text)
    assert segments(text, toks, max_len) == list(iter_segments(text, iter(toks), max_len))


def test_segments_equal_the_plain_loop_on_physionet(physionet_docs):
    for doc in physionet_docs[::6]:
        toks = tokenize(doc.text)
        assert segments(doc.text, toks) == _reference(doc.text, toks, 200), doc.doc_id
