"""``synth:N,SEED,STYLE,CASE:PCT``: a share of a style's notes lower- or upper-cased, gold offsets kept."""

from __future__ import annotations

import pytest

from crfdeid.errors import ReaderError
from crfdeid.io import read
from crfdeid.labels import encode
from crfdeid.synth import generate, parse_recase, parse_source
from crfdeid.text.tokenize import tokenize


@pytest.fixture(scope="module")
def pair():
    """The same 120 specialty notes as drawn and with 30 % of them lower-cased."""
    return generate(120, seed=13, style="specialty"), list(read("synth:120,13,specialty,lower:30"))


def test_the_casing_field_is_parsed_and_checked():
    assert parse_source("5,2,specialty,lower:30") == (5, 2, "specialty")
    assert parse_recase("5,2,specialty,lower:30") == ("lower", 30)
    assert parse_recase("5,2,mix,upper") == ("upper", 100)
    assert parse_recase("5,2,mix") == ("", 0)
    for bad in ("5,2,mix,title", "5,2,mix,lower:101", "5,2,mix,lower:x", "5,2,mix,lower:"):
        with pytest.raises(ReaderError, match="synth casing must be lower or upper"):
            parse_source(bad)


def test_the_same_notes_some_lower_cased(pair):
    drawn, cased = pair
    assert [d.doc_id for d in cased] == [d.doc_id for d in drawn]
    assert all(c.text.lower() == d.text.lower() and c.spans == d.spans for c, d in zip(cased, drawn))
    lowered = [c for c, d in zip(cased, drawn) if c.text != d.text]
    assert 0.2 * len(drawn) <= len(lowered) <= 0.4 * len(drawn)  # 30 % of 120, drawn by note id
    assert all(c.text == c.text.lower() and c.meta["casing"] == "lower" for c in lowered)
    assert all(c.text == d.text for c, d in zip(cased, drawn) if c not in lowered)


def test_deterministic_and_offsets_aligned(pair):
    _, cased = pair
    assert list(read("synth:120,13,specialty,lower:30")) == cased
    assert list(read("synth:120,14,specialty,lower:30")) != cased
    assert list(read("synth:40,13,specialty,lower:30")) == cased[:40]  # a prefix, as without the casing
    for doc in cased:
        doc.validate(allow_overlap=False)
        assert encode(tokenize(doc.text), doc.spans).problems == []
        assert all(doc.text[s.start:s.end] == doc.text[s.start:s.end].strip() for s in doc.spans)


@pytest.mark.parametrize(("spec", "recased"), [("lower:0", str), ("lower", str.lower), ("upper:100", str.upper)])
def test_share_bounds(spec, recased):
    drawn = generate(40, seed=13, style="operative")
    cased = list(read(f"synth:40,13,operative,{spec}"))
    assert [c.text for c in cased] == [recased(d.text) for d in drawn]  # ASCII notes: lengths kept


def test_a_bad_casing_is_reported_not_read():
    errors: list = []
    assert list(read("synth:5,13,mix,sentence", errors=errors)) == []
    assert len(errors) == 1 and "synth casing" in str(errors[0])
    with pytest.raises(ReaderError, match="synth casing"):
        list(read("synth:5,13,mix,sentence"))
