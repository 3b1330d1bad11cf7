"""High-precision regex rules and their overlay on CRF spans."""

from __future__ import annotations

import pytest

from crfdeid.document import make_span
from crfdeid.rules import find, overlay


@pytest.mark.parametrize("text, subtype, surface", [
    ("call (617) 555-0199 now", "PHONE", "(617) 555-0199"),
    ("call 617-555-0199 now", "PHONE", "617-555-0199"),
    ("mail jo.lee@example.org today", "EMAIL", "jo.lee@example.org"),
    ("see https://example.org/x.", "URL", "https://example.org/x"),
    ("host 10.0.12.7 down", "IPADDR", "10.0.12.7"),
    ("ssn 123-45-6789.", "SSN", "123-45-6789"),
    ("on 03/14/2098.", "DATE", "03/14/2098"),
    ("on 2098-03-14,", "DATE", "2098-03-14"),
    ("on March 14, 2098.", "DATE", "March 14, 2098"),
])
def test_rules_find_rigid_forms(text, subtype, surface):
    spans = find(text)
    assert [(s.subtype, text[s.start:s.end]) for s in spans] == [(subtype, surface)]


@pytest.mark.parametrize("text", [
    "BP 120/80 HR 72", "Na 140 K 4.2 dose 0.5 mg", "ratio 1:2", "version 3.2.1", "temp 98.6",
])
def test_rules_leave_clinical_numbers_alone(text):
    assert find(text) == []


def test_overlay_joins_overlaps_keeps_crf_subtype_and_adds_new():
    text = "Dr Lee 03/14/2098 ssn 123-45-6789"
    crf = [make_span(3, 6, "DOCTOR"), make_span(7, 12, "DATE")]
    out = overlay(text, crf)
    assert (out[0].start, out[0].end, out[0].subtype) == (3, 6, "DOCTOR")
    assert (out[1].start, out[1].end, out[1].subtype) == (7, 17, "DATE")
    assert out[2].subtype == "SSN"


def test_overlay_never_removes_crf_spans():
    crf = [make_span(0, 3, "PATIENT")]
    assert overlay("Ann is fine", crf) == crf


@pytest.mark.parametrize("text, subtype, surface", [
    ("seen by Dr. Okafor today", "DOCTOR", "Okafor"),
    ("DR SMITH AWARE", "DOCTOR", "SMITH"),
    ("Mrs. Reyes called", "PATIENT", "Reyes"),
])
def test_title_rules(text, subtype, surface):
    spans = find(text)
    assert [(s.subtype, text[s.start:s.end]) for s in spans] == [(subtype, surface)]


@pytest.mark.parametrize("text", ["dr aware", "MS stable", "Dr. 5 mg"])
def test_title_rules_need_a_capitalised_word(text):
    assert find(text) == []
