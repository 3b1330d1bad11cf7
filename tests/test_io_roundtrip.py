"""Every reader -> writer -> reader round trip is exact (text and spans), on awkward text."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.document import Document, make_span
from crfdeid.io import read, write

ANNOTATED = ["i2b2", "brat", "jsonl", "csv"]
TRICKY = "\r\nDr. Ivy ]]> Brandt & <b>\"Zoë\"</b>, 中文 ]]]]> 7/22\r\n\tNA, null\n"


def _out(tmp: Path, fmt: str) -> Path:
    return tmp / (f"out.{fmt}" if fmt in ("jsonl", "csv") else fmt)


def _roundtrip(docs, fmt, tmp: Path):
    out = _out(tmp, fmt)
    assert write(docs, fmt, out) == len(docs)
    errors = []
    back = list(read(f"{fmt}:{out}", errors=errors))
    assert errors == []
    return back


def _tricky_doc(doc_id="110-01"):
    spans = [make_span(TRICKY.index("Ivy"), TRICKY.index("Brandt") + 6, "DOCTOR"),
             make_span(TRICKY.index("Zoë"), TRICKY.index("Zoë") + 3, "PATIENT"),
             make_span(TRICKY.index("7/22"), TRICKY.index("7/22") + 4, "DATE")]
    return Document(doc_id, TRICKY, spans)


@pytest.mark.parametrize("fmt", ANNOTATED)
def test_roundtrip_tricky_text(fmt, tmp_path):
    docs = [_tricky_doc(), Document("110-02", "", []), Document("007", "NA", [])]
    back = sorted(_roundtrip(docs, fmt, tmp_path), key=lambda d: d.doc_id)
    docs = sorted(docs, key=lambda d: d.doc_id)
    assert [(d.doc_id, d.text, d.spans) for d in back] == [(d.doc_id, d.text, d.spans) for d in docs]


def test_text_roundtrip_keeps_text(tmp_path):
    back = _roundtrip([_tricky_doc()], "text", tmp_path)
    assert [(d.doc_id, d.text, d.spans) for d in back] == [("110-01", TRICKY, [])]


# Random Unicode documents, with and without a byte-order mark, for every format: test_io_bom.py.
