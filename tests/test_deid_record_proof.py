"""The note's own record proves a name (crfdeid.deid.proven, rule (d)): a name every word of which the record
gives with the note (``meta["known"]``: a FHIR Patient's, an HL7 PID's) takes a realistic surrogate where the
model alone would leave it a placeholder; the record answers no doubt but the model's (a disease named after a
person stays a placeholder though the patient bears the name). All text made up."""

from __future__ import annotations

import pytest
from deid_kit import tagged

from crfdeid.deid.proven import record_name, record_names
from crfdeid.deid.surrogate import Surrogator
from crfdeid.document import make_span


def written(text: str, phi: tuple, known: dict | None) -> str:
    doc = tagged(text, phi)
    if known is not None:
        doc.meta["known"] = known
    out = Surrogator(seed=7).surrogate(doc)
    return out.surface(out.spans[0])


@pytest.mark.parametrize("known", [None, {"name": ["Wenna Pellow"]}, {"mrn": ["4410297"]}])
def test_a_rule_s_name_the_model_doubts_is_a_placeholder_without_its_record(known):
    assert written("Reviewed: Oakhurst seen today.", ("Oakhurst", "PATIENT", 1.0, 0.1), known) == "[**PATIENT**]"


@pytest.mark.parametrize("known", [{"name": ["Tamsin Oakhurst"]}, {"last_name": "Oakhurst"},
                                   {"relative": "Ann Lee; Tamsin Oakhurst"}])
def test_the_record_s_name_takes_a_realistic_surrogate(known):
    new = written("Reviewed: Oakhurst seen today.", ("Oakhurst", "PATIENT", 1.0, 0.1), known)
    assert "[**" not in new and new != "Oakhurst"


def test_the_record_answers_no_clinical_doubt():
    # the patient is called Graves; the note's Graves is a disease: another made-up name there would state a
    # false diagnosis, so the eponym's doubt holds
    new = written("Known Graves disease, on carbimazole.", ("Graves", "PATIENT", 0.8, 0.8), {"name": ["Ann Graves"]})
    assert new == "[**PATIENT**]"


def test_every_word_of_the_span_must_be_the_record_s():
    rec = record_names({"name": ["Tamsin Oakhurst"]})
    assert record_name("Tamsin Oakhurst", make_span(0, 15, "PATIENT"), rec)
    assert not record_name("Tamsin Whitby", make_span(0, 13, "PATIENT"), rec)
    assert not record_name("Oakhurst", make_span(0, 8, "HOSPITAL"), rec)  # names only
    assert not record_name("Oakhurst", make_span(0, 8, "PATIENT"), frozenset())
