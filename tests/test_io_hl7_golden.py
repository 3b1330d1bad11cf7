"""The hl7 reader and writer give, for fixed spans, the bytes they gave before (issue 51: the
speed-up changed no output). Spans and expected outputs: tests/hl7_golden.py."""

from __future__ import annotations

import pytest
from hl7_golden import EXPECTED, STYLES, render


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_writer_gives_the_expected_bytes(style):
    got = render(style)
    assert got, "no message file read"
    for name, data in got.items():
        want = (EXPECTED / name.replace(".hl7", f".{style}.hl7")).read_bytes()
        assert data == want, f"{name} ({style}) differs from its expected output"
