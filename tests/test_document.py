"""Document model: surface, grouping key, validation errors that name where, trimming, a line's bounds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crfdeid.document import Document, Span, line_bounds, make_span, trim
from crfdeid.errors import SchemaError, SpanError


def test_surface_and_sorted_spans():
    doc = Document("110-01", "Dr. Lee met Ann", [make_span(12, 15, "PATIENT"), make_span(4, 7, "DOCTOR")])
    assert [doc.surface(s) for s in doc.spans] == ["Lee", "Ann"]


@pytest.mark.parametrize("doc_id, meta, group", [
    ("110-01", {}, "110"), ("note7", {}, "note7"), ("110-01", {"patient": 9}, "9")])
def test_group(doc_id, meta, group):
    assert Document(doc_id, "", [], meta).group == group


@pytest.mark.parametrize("span", [Span(3, 2, "DATE", "DATE"), Span(0, 99, "DATE", "DATE"),
                                  Span(-1, 2, "DATE", "DATE"), Span(2, 2, "DATE", "DATE")])
def test_validate_rejects_bad_offsets_naming_file_doc_offset(span):
    with pytest.raises(SpanError) as exc:
        Document("d1", "secret text", [span]).validate(path="f.xml")
    msg = str(exc.value)
    assert "f.xml" in msg and "d1" in msg and f"offset {span.start}" in msg
    assert "secret" not in msg


def test_validate_rejects_unknown_subtype():
    with pytest.raises(SchemaError, match="NAME/NURSE"):
        Document("d1", "abc", [Span(0, 1, "NAME", "NURSE")]).validate()


def test_overlap_allowed_unless_asked():
    doc = Document("d1", "abcdef", [make_span(0, 3, "DATE"), make_span(2, 5, "AGE")])
    doc.validate()
    with pytest.raises(SpanError, match="overlaps"):
        doc.validate(allow_overlap=False)


def test_trim_and_make_span():
    assert trim("  x  ", 0, 5) == (2, 3)
    assert trim("   ", 0, 3) == (3, 3)
    assert make_span(0, 1, "doctor") == Span(0, 1, "NAME", "DOCTOR")


@given(st.text(alphabet="ab \n\r", max_size=30), st.data())
def test_line_bounds_are_the_lines_around_the_offsets(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    a, b = line_bounds(text, start, end)
    assert 0 <= a <= start <= end <= b <= len(text)
    assert a == 0 or text[a - 1] == "\n"  # a line starts the text or follows a break
    assert b == len(text) or text[b] == "\n"  # and ends at a break or the text's end
    assert "\n" not in text[a:start] and "\n" not in text[end:b]  # no break between the offsets and the bounds
    assert line_bounds(text, start) == (a, line_bounds(text, start, start)[1])


@pytest.mark.parametrize("text, start, end, bounds", [
    ("ab\ncd\nef", 3, 4, (3, 5)), ("ab\ncd", 0, None, (0, 2)), ("ab\n", 3, None, (3, 3)),
    ("ab\r\ncd", 1, 1, (0, 3)), ("", 0, None, (0, 0))])
def test_line_bounds(text, start, end, bounds):
    assert line_bounds(text, start, end) == bounds
