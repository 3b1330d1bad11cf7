"""Error classes (He et al. 2015): type, short, long, short-and-long, missing, spurious."""

from __future__ import annotations

import pytest

from crfdeid.document import Document, make_span
from crfdeid.scoring import analyse_errors
from crfdeid.scoring.tables import render_errors

TEXT = "Dr Jonathan Smithers saw Mary Jones in Springfield."  # synthetic
GOLD = make_span(3, 20, "DOCTOR")  # "Jonathan Smithers"


def classes(pred, gold=(GOLD,), **kw):
    ea = analyse_errors([Document("d", TEXT, list(gold))], [Document("d", TEXT, pred)], **kw)
    return {c: n for c, n in ea.counts.items() if n}, ea


@pytest.mark.parametrize("pred,expected", [
    ([make_span(3, 20, "DOCTOR")], {}),
    ([make_span(3, 20, "PATIENT")], {"type": 1}),
    ([make_span(3, 11, "DOCTOR")], {"short": 1}),
    ([make_span(3, 11, "DOCTOR"), make_span(12, 20, "DOCTOR")], {"short": 1}),  # split in two
    ([make_span(0, 20, "DOCTOR")], {"long": 1}),
    ([make_span(0, 11, "DOCTOR")], {"short_and_long": 1}),
    ([make_span(0, 11, "PATIENT")], {"type_and_extent": 1}),
    ([], {"missing": 1}),
    ([make_span(3, 20, "DOCTOR"), make_span(39, 50, "CITY")], {"spurious": 1}),
])
def test_error_classes(pred, expected):
    assert classes(pred)[0] == expected


def test_confusion_percentages_and_examples_without_text():
    gold = (GOLD, make_span(25, 35, "PATIENT"), make_span(39, 50, "CITY"))
    pred = [make_span(3, 20, "PATIENT"), make_span(25, 35, "DOCTOR")]
    counts, ea = classes(pred, gold, examples=1)
    # two type errors (DOCTOR->PATIENT, PATIENT->DOCTOR) and Springfield missing: 3 errors
    assert counts == {"type": 2, "missing": 1}
    assert dict(ea.confusion) == {("DOCTOR", "PATIENT"): 1, ("PATIENT", "DOCTOR"): 1}
    assert round(ea.percent("type"), 2) == 66.67
    assert len(ea.examples["type"]) == 1  # capped at --examples
    assert ea.examples["missing"][0].gold == (39, 50, "CITY")
    text = render_errors(ea)
    assert "Springfield" not in text and "Jonathan" not in text  # PHI only on request
    assert "[39, 50) CITY" in text


def test_show_text_puts_surface_in_examples():
    _, ea = classes([make_span(3, 11, "DOCTOR")], show_text=True)
    ex = ea.examples["short"][0]
    assert (ex.gold_text, ex.system_text) == ("Jonathan Smithers", ("Jonathan",))
    assert "Jonathan Smithers" in render_errors(ea)
