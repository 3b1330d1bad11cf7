"""A CSV row that cannot be read is named by its row and line numbers, never by its cells: the
id column of a malformed row may hold a name (a shifted column, a table exported by hand)."""

from __future__ import annotations

import csv
import json

import pytest

from crfdeid.io import read

NAME = "Anacleta Quenderby"  # a made-up name in the id column


@pytest.mark.parametrize("spans", [
    "not json",                                                      # not a JSON list
    json.dumps({"start": 0}),                                        # JSON, not a list
    json.dumps([{"start": 0, "end": 99, "label": "NAME"}]),          # a span past the text
    json.dumps([{"start": 5, "end": 2, "label": "NAME"}]),           # a span that ends before it starts
    json.dumps([{"start": 0, "end": 4, "label": "NOT-A-LABEL"}]),    # a label no scheme has
])
def test_a_failed_row_is_named_by_its_number_never_its_id(tmp_path, spans):
    path = tmp_path / "notes.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "text", "spans"])
        w.writerow(["ok-1", "Seen today.", "[]"])
        w.writerow([NAME, "Seen today.", spans])
    errors: list = []
    docs = list(read(f"csv:{path}", errors=errors))
    assert [d.doc_id for d in docs] == ["ok-1"] and len(errors) == 1
    message = str(errors[0])
    assert "row 2" in message and "notes.csv" in message
    assert not any(part in message for part in NAME.split()), message
    assert getattr(errors[0], "doc_id", None) is None


def test_two_text_columns_are_a_named_error(tmp_path):
    """Issue 61: the second ``text`` column was ignored in silence (its note never tagged)."""
    from crfdeid.errors import InputError
    path = tmp_path / "two.csv"
    path.write_text("id,text,text\na,Seen by Dr. Lee.,Phone 555-0143\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"names the column 'text' more than once \(columns 2, 3\)"):
        list(read(f"csv:{path}"))
