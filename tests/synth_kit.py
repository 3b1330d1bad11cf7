"""Checks every synthetic style's notes must pass: deterministic by seed, gold offsets right."""

from __future__ import annotations

import re

from crfdeid.io import read
from crfdeid.labels import encode
from crfdeid.synth import generate
from crfdeid.text.tokenize import tokenize


def check_deterministic_and_aligned(style: str, notes, ascii_only: bool = True,
                                    unfilled: str = r"[{}<>]") -> None:
    """``notes`` (``generate(N, seed=13, style=style)``): the same for the seed, through ``synth:`` too,
    other for another seed; spans valid, token-aligned, trimmed; ASCII unless ``ascii_only`` is false
    (a style of other languages' names); every alternative and slot drawn (no match of ``unfilled``)."""
    assert generate(30, seed=13, style=style) == notes[:30]
    assert list(read(f"synth:30,13,{style}")) == notes[:30]
    assert generate(30, seed=14, style=style) != notes[:30]
    for doc in notes:
        doc.validate(allow_overlap=False)
        assert encode(tokenize(doc.text), doc.spans).problems == []
        assert all(doc.text[s.start:s.end] == doc.text[s.start:s.end].strip() for s in doc.spans)
        assert doc.text.isascii() or not ascii_only
        assert not re.search(unfilled, doc.text), doc.doc_id


def check_templates(templates, known: set[str]) -> None:
    """Every template line draws one level of ``{a|b}`` (a nested brace would be written out) and
    names only ``known`` slots."""
    for line in templates:
        depth = 0
        for c in line:
            depth += (c == "{") - (c == "}")
            assert depth in (0, 1), line
        for slot in re.findall(r"<([A-Za-z_0-9]+)>", line):
            assert slot in known, (line, slot)
