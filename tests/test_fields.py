"""Issue 50, third round: a note's layout and look-alikes of other countries left as written, surrogates
that never write other digits, repeats that are no name, versions that are no dates.

Made-up lines of UK, Irish, Australian, Indian and lower-case notes; every name, number and place is
invented (the notes of ``data/made_up_lookalikes.txt`` too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.deid import Surrogator
from crfdeid.deid.spans import propagate
from crfdeid.document import Document, make_span
from crfdeid.recognizers.clinical import why_clinical
from crfdeid.recognizers.dateforms import matches
from crfdeid.recognizers.values import pieces
from crfdeid.site.mining import refused

LOOKALIKES = Path(__file__).parent / "data" / "made_up_lookalikes.txt"


def _span(text, surface, subtype="DOCTOR"):
    start = text.index(surface)
    return make_span(start, start + len(surface), subtype)


@pytest.mark.parametrize("text, surface, subtype, reason", [
    # labels before a colon, even where a word is a name too
    ("Dr K. Venkataiah   Ward: 5   Bed: 12", "Ward", "DOCTOR", "label"),
    ("Patient: Kieran Doherty   RiO: RIO3391027", "RiO", "PATIENT", "label"),
    ("Employer: Ridgeway Haulage Ltd   Payroll No: RH20671", "Payroll", "HOSPITAL", "label"),
    ("Mrs Chloe Pemberton   Hospital No: SW882014", "Hospital", "HOSPITAL", "label"),
    # headings of a line, in title case, in capitals inside a line, in lower case
    ("Antenatal Clinic - Severnside Women's Unit\nG2P1", "Antenatal Clinic", "HOSPITAL", "heading"),
    ("School Nursing Service - Health Plan Review\nPupil: X", "Health", "HOSPITAL", "heading"),
    ("Out of Hours GP Service - Corrib Doctors on Call", "Service", "HOSPITAL", "heading"),
    ("EMERGENCY DEPARTMENT - St Fintan's University Hospital, Galway", "EMERGENCY DEPARTMENT", "HOSPITAL", "heading"),
    ("MEDICAL ADMISSIONS UNIT CLERKING   Hartwell General Hospital", "MEDICAL ADMISSIONS UNIT CLERKING",
     "HOSPITAL", "heading"),
    ("Review on WARD ROUND tomorrow.", "WARD", "PATIENT", "heading"),
    ("district nursing visit\npt seen at home", "district nursing", "HOSPITAL", "heading"),
    # services in role phrases, roles in apposition or before a care word
    ("Dr Anjali Deshmukh, MD, Hematology/Oncology fellow", "Oncology", "DOCTOR", "specialty"),
    ("Dr Gemma Foulkes, Specialty Doctor in Old Age Psychiatry, clinic", "Old Age Psychiatry", "CITY", "specialty"),
    ("Dr Lakshmi Iyer, Consultant in General Medicine", "General Medicine", "CITY", "specialty"),
    ("Seen by ED Registrar; Orthopaedic Registrar aware.", "Orthopaedic Registrar", "HOSPITAL", "role"),
    ("Dr Niamh Kavanagh, GP Registrar", "Registrar", "STATE", "role"),
    ("d/w Medical Registrar; Ward Manager aware.", "Ward Manager", "DOCTOR", "role"),
    # values: durations, codes, ages, scores, grades, readings, times
    ("productive cough for 2/52, SOB x 3/7", "2/52", "DATE", "duration"),
    ("productive cough for 2/52, SOB x 3/7", "3/7", "DATE", "duration"),
    ("Coded: lower UTI (SNOMED 68566005).", "SNOMED 68566005", "DOCTOR", "code"),
    ("Age/Sex: 56 Y/M   UHID: SVH2511047", "56", "MEDICALRECORD", "age"),
    ("Age/Sex: 56 Y/M   UHID: SVH2511047", "Y/M", "MEDICALRECORD", "age"),
    ("lymphoma, Ann Arbor stage IIIB, IPI 3", "IIIB", "CITY", "score"),
    ("Triage: Manchester Triage orange", "Manchester Triage orange", "DOCTOR", "score"),
    ("eyes 4, verbal 5, motor 6: Glasgow Coma Scale fifteen", "Glasgow Coma Scale", "HOSPITAL", "score"),
    ("empty can test weak 4/5.", "4/5", "DATE", "grade"),
    ("SFH 33 cm, FHR 140", "SFH 33", "HOSPITAL", "vital"),
    ("ed triage 0212\n24f bib qas", "0212", "DATE", "time"),
    ("UR: UR448120   Arrived: 0342", "0342", "DATE", "time"),
    # words: a colour before its word, dressings and bedside tests
    ("advised. Rose colored urine denied.", "Rose", "DOCTOR", "compound"),
    ("skin tear dressed with Mepitel and foam", "Mepitel", "DOCTOR", "vocabulary"),
    ("skin tear dressed with Inadine, Schober's test 4 cm", "Inadine", "DOCTOR", "vocabulary"),
    ("Home health aide 3 days a week.", "Home health aide", "PROFESSION", "role"),
])
def test_layout_and_lookalikes_are_kept_as_written(text, surface, subtype, reason):
    assert why_clinical(text, _span(text, surface, subtype)) == reason


@pytest.mark.parametrize("text, surface, subtype", [
    ("Seen by Dr Ward: plan as above", "Ward", "DOCTOR"),            # a title: the name, not the label
    ("Moved to Boise, ID: 83702", "ID", "STATE"),                    # a place before a colon after a comma
    ("She works as a nurse 3 days a week.", "nurse", "PROFESSION"),  # the patient's own work
    ("Mercy Clinic - Dublin\nseen today", "Mercy Clinic", "HOSPITAL"),  # a name before a heading's noun
    ("s/p CABG in 4/52, then PCI", "4/52", "DATE"),                  # April 1952: no duration after "in"
    ("seen in our Oncology clinic on 4/6", "Oncology", "DEPARTMENT"),  # i2b2 labels a department PHI
    ("Dr Rose colored the chart", "Rose", "DOCTOR"),                 # a title before the name
    ("Patient: Kieran Doherty   RiO: RIO3391027", "Kieran Doherty", "PATIENT"),
    ("Sister Mary (Ward Sister) present", "Mary", "DOCTOR"),
    ("husband Dennis (86) and son Mark", "Mark", "PATIENT"),
])
def test_names_places_and_dates_stay_phi(text, surface, subtype):
    assert why_clinical(text, _span(text, surface, subtype)) is None


@pytest.mark.parametrize("text, surface, subtype, kept", [
    ("Patient: Kieran Doherty   RiO: RIO3391027", "Kieran Doherty   RiO", "PATIENT", ["Kieran Doherty", "RiO"]),
    ("Employer: Ridgeway Haulage Ltd   Payroll No: RH20671", "Ridgeway Haulage Ltd   Payroll", "HOSPITAL",
     ["Ridgeway Haulage Ltd", "Payroll"]),
    ("WARD ROUND NOTE - Wad 7B, Hospital Sultanah Zubaidah", "WARD ROUND NOTE - Wad 7B, Hospital Sultanah Zubaidah",
     "HOSPITAL", ["WARD ROUND NOTE", "Wad 7B, Hospital Sultanah Zubaidah"]),
    ("Name: Ravi K   Age/Sex: 56 Y/M   UHID: SVH2511047", "Y/M   UHID: SVH2511047", "MEDICALRECORD",
     ["Y/M", "SVH2511047"]),
    ("Home health aide 3 days a week", "Home health aide 3", "PROFESSION", ["Home health aide"]),
    ("24f jess hartigan bib qas", "f jess hartigan", "PATIENT", ["jess hartigan"]),
    ("Wife Aoife (61) present", "Aoife (61", "PATIENT", ["Aoife"]),
    ("seen 12 - 14 Nov 2025", "12 - 14 Nov 2025", "DATE", ["12 - 14 Nov 2025"]),  # a date is not cut at a dash
    ("Out of Hours GP Service - Corrib", "- Corrib", "HOSPITAL", ["Corrib"]),
    ("EMERGENCY DEPARTMENT - St Fintan's", "EMERGENCY DEPARTMENT -", "HOSPITAL", ["EMERGENCY DEPARTMENT"]),
])
def test_a_span_is_cut_at_field_gaps_and_narrowed_without_losing_a_word_of_phi(text, surface, subtype, kept):
    assert [text[p.start:p.end] for p in pieces(text, _span(text, surface, subtype))] == kept


def test_a_surrogate_never_writes_other_digits_for_a_value():
    """A span drawn as words that holds a digit and a date that reads as a grade or a duration get
    placeholders; a real date is still shifted and a name still replaced."""
    text = "Coded (SNOMED 68566005). Power weak 4/5. Cough for 3/7. Seen 3/14/2021 by Dr Quill Hartigan, ROOM 12"
    doc = Document("lk1", text, [_span(text, "SNOMED 68566005", "DOCTOR"), _span(text, "4/5", "DATE"),
                                 _span(text, "3/7", "DATE"), _span(text, "3/14/2021", "DATE"),
                                 _span(text, "Quill Hartigan", "DOCTOR"), _span(text, "12", "ROOM")])
    s = Surrogator(seed=5)
    out = s.surrogate(doc)
    new = [out.surface(sp) for sp in out.spans]
    assert new[:3] == ["[**DOCTOR**]", "[**DATE**]", "[**DATE**]"]
    assert new[3] != "3/14/2021" and new[3].count("/") == 2   # a date: shifted in its own format
    assert "Hartigan" not in out.text and new[5].isdigit()    # a name replaced; a room redrawn as a room
    summary = s.summary()
    assert summary["digits_in_words"] == 1 and summary["clinical_values"] == 2


def test_a_repeat_is_not_taken_where_it_is_a_heading_or_a_label():
    text = "WARD ROUND REVIEW\nPresent: Jo Whitfield (Ward Manager). Ward: Larch. Mr Ward seen; WARD called."
    doc = Document("lk2", text, [_span(text, "Ward Manager", "DOCTOR")])
    found = [(sp.start, text[sp.start:sp.end]) for sp in propagate(doc).spans]
    assert (0, "WARD") not in found                                  # the heading
    assert (text.index("Ward:"), "Ward") not in found                # the label
    assert (text.index("Mr Ward") + 3, "Ward") in found              # the name, still replaced
    assert (text.index("WARD called"), "WARD") in found


def test_a_version_after_its_word_is_no_date():
    assert matches("Pump firmware 9.6.96; software 2.1.19; firmware version 4.5.07") == []
    assert [n for n, _ in matches("DOB 04.07.1961, seen 9.6.96")] == ["dotted", "dotted"]


def test_site_mining_refuses_a_plural_of_a_frequent_word():
    assert refused(("numbers",)) and refused(("hopes",))
    assert not refused(("brooks",)) and not refused(("numbers", "dorsey"))


def test_the_lookalike_notes_keep_their_values_in_surrogate_output():
    """The made-up look-alike notes through tag's path: no value written with other digits, at most
    the two UK durations without a duration's word (``SOB 3/7``, ``review 2/7``) given placeholders
    and, since the specialty CRF learnt operative notes (2026-11-26, docs/synth.md), the Indian ward
    note's ``General Medicine`` taken for a hospital, and as many identifiers found as before these
    rules (measured: 2 of 37 left, docs/clinical-values.md)."""
    from crfdeid.experiments.madeup import read_notes
    from crfdeid.experiments.madeup_outputs import run

    res = run(read_notes(LOOKALIKES), mining=(False,), outputs=("surrogate",))
    r = res["runs"]["mining off"]["surrogate"]
    assert r["values_other"] == 0 and not r["failed"]
    assert r["phrases_changed"] <= 3
    assert r["identifiers_left"] <= 2


def test_a_long_one_line_note_costs_linear_time_in_the_field_rules():
    """Each rule looks at most a reach away from its span: a span far from a line's start and end
    (a 40,000-character line) is in no heading, whatever the words around it."""
    from crfdeid.document import make_span
    from crfdeid.recognizers import fields
    line = "ward round review " * 3000
    text = "WARD ROUND REVIEW " + line + "\nnext"
    sp = make_span(len(text) // 2 - 2, len(text) // 2 + 3, "DOCTOR")
    assert not fields.heading_line(text, sp)
    head = make_span(0, 10, "DEPARTMENT")
    assert fields.heading_line("WARD ROUND\nnext", head)


def test_uk_risk_scores_are_values_not_names():
    """A cardiovascular or fracture risk score before its value stays as written (a made-up line)."""
    from crfdeid.document import make_span
    from crfdeid.recognizers import values
    for text in ("QRISK3 24%. ECG sinus rhythm.", "FRAX 12% for a major fracture.", "QRISK2 score 11%"):
        assert values.why_value(text, make_span(0, text.index(" "), "PATIENT")) == "score", text
