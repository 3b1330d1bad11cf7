"""Surrogate output never rewrites a clinical form (issue 58 item 3, the scores round): a tagged span that is,
holds or sits inside a score, grade, stage, class, code, bed or a phrase or heading in capitals of clinical
words gets a placeholder (:mod:`crfdeid.deid.forms`); a real name beside such a form keeps its surrogate;
what redaction replaces does not change. Every note here is made up."""

from __future__ import annotations

import pytest

from crfdeid.deid import confident, forms
from crfdeid.deid.redact import redact
from crfdeid.deid.spans import deid_spans
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span

_CATEGORY = {"PATIENT": "NAME", "DOCTOR": "NAME", "HOSPITAL": "LOCATION", "CITY": "LOCATION", "ROOM": "LOCATION",
             "LOCATION-OTHER": "LOCATION", "DATE": "DATE", "VEHICLE": "ID", "IDNUM": "ID", "PHONE": "CONTACT"}


def span(text: str, surface: str, sub: str, conf: float | None = 0.99) -> Span:
    i = text.index(surface)
    return Span(i, i + len(surface), _CATEGORY[sub], sub, confidence=conf)


FORMS = [
    # a class after a capitalised word, with the words between clinical
    ("Duodenal ulcer with a visible vessel, Forrest IIa; clipped.", "Forrest", "PATIENT", "form"),
    ("Periprosthetic fracture, Vancouver B2, stem loose.", "Vancouver", "CITY", "form"),
    ("Head CT: Marshall diffuse injury II, no shift.", "Marshall", "PATIENT", "form"),
    # a scale's word and its value, the scale's name before it
    ("Pancreatic fistula drained: Clavien-Dindo grade IIIa.", "Clavien-Dindo", "PATIENT", "form"),
    ("Cirrhosis, Child-Pugh Class B, MELD 17.", "Child-Pugh Class B", "PATIENT", "form"),
    ("Biopsy: Grade Group 3 in 6 of 12 cores.", "Grade Group 3", "PATIENT", "form"),
    ("Angina on exertion, Class B2 by the old chart.", "Class B2", "DOCTOR", "form"),
    ("Fistula ISGPS grade B, drained.", "ISGPS grade B", "HOSPITAL", "form"),
    # a listed scale and its value, a name too (Apgar)
    ("Live girl 3420 g, Apgar 9/9 at one and five minutes.", "9/9", "DATE", "form"),
    ("Airway: Mallampati 2, mouth opening 4 cm.", "Mallampati", "DOCTOR", "form"),
    # sums, stages, the Glasgow Coma Scale by its parts
    ("TRUS biopsy: Gleason 4+3=7 in six cores.", "4+3", "DATE", "form"),
    ("Primary survey: GCS E3V4M6 on arrival.", "3V4M6", "VEHICLE", "form"),
    ("Pathology: ypT2 N1 (2/19) R0, margins clear.", "2/19", "DATE", "form"),
    ("Stage T3N1M0 at diagnosis.", "T3N1M0", "IDNUM", "form"),
    # codes and a murmur's grade out of six, a ward's and a bed's number
    ("Type 2 diabetes with hypoglycaemia, E11.649, on gliclazide.", "E11.649", "IDNUM", "form"),
    ("Coded CPT 99205 for the visit.", "99205", "IDNUM", "form"),
    ("Echo: 2/6 pansystolic murmur at the apex.", "2/6", "DATE", "form"),
    ("Book bed 12 on Ward 64 overnight.", "12 on Ward 64", "ROOM", "form"),
    # an eponymous scale of two names joined by a hyphen and its score; a terminology's or a policy's code
    ("Sinus CT: Lund-Mackay 14, polyps both sides.", "Lund-Mackay", "DOCTOR", "form"),
    ("CT sinus 09/30/2025: Lund-Mackay 14.\nSkin prick testing done.", "Lund-Mackay", "DOCTOR", "form"),
    ("Meets LCD L33822 criteria for the device.", "L33822", "IDNUM", "form"),
    ("Problem list: SNOMED CT 44054006 (type 2 diabetes).", "44054006", "IDNUM", "form"),
    # an eponym before a term's head the clinical heads lack
    ("Cell of origin non-GCB by the Hans algorithm.", "Hans", "PATIENT", "form"),
    # a phrase in capitals of clinical words; a heading in capitals
    ("Impression: POSTERIOR DUODENAL ULCER, FORREST IIA, clipped.", "FORREST", "PATIENT", "form"),
    ("Microscopy: INVASIVE DUCTAL CARCINOMA (NST), grade 2 of 3, see below.", "INVASIVE DUCTAL", "PATIENT",
     "capitals"),
    ("Seen in clinic today.\nDUODENUM:\nUlcer in the bulb.", "DUODENUM", "HOSPITAL", "heading"),
    ("Referral letter.\nOPHTHALMOLOGY Brantwood Eye Hospital 20/10/2025\nVA 6/12.",
     "OPHTHALMOLOGY Brantwood Eye Hospital", "HOSPITAL", "heading"),
]


@pytest.mark.parametrize("text, surface, sub, why", FORMS)
def test_a_span_of_a_clinical_form_is_doubted_for_its_reason(text, surface, sub, why):
    sp = span(text, surface, sub)
    assert forms.form_doubt(text, sp) == why
    assert confident.doubt(text, sp, 0.99, order="dmy") in (why, "name", "place", "date", "id")


@pytest.mark.parametrize("text, surface, sub, why", FORMS)
def test_it_is_written_as_a_placeholder_and_counted_as_a_clinical_form(text, surface, sub, why):
    doc = Document("n1", text, [span(text, surface, sub)], {"patient": "p1"})
    s = Surrogator(seed=5, date_order="dmy")
    out = s.surrogate(doc)
    assert [out.surface(sp) for sp in out.spans] == [f"[**{sub}**]"]
    assert out.text.replace(f"[**{sub}**]", surface) == text
    c = s.summary()           # counted once, under its reason; a clinical form's also as one
    placed = sum(c[k] for k in ("not_confident_spans", "clinical_values", "clinical_terms", "digits_in_words"))
    form = c["not_confident_spans"] == 1 and confident.doubt(text, span(text, surface, sub), 0.99,
                                                             order="dmy") in forms.REASONS
    assert placed == 1 and c["clinical_forms"] == form


KEPT = [
    # a title before it: a person, whatever follows
    ("Reviewed by Dr Forrest IIa list today.", "Forrest", "DOCTOR"),
    # a generation's suffix after a name of two words, a pronoun, a label, a word that is a class's shape
    ("Patient Robert Forrest III admitted for review.", "Robert Forrest", "PATIENT"),
    ("Spoke to Mercer I think twice today.", "Mercer", "PATIENT"),
    ("Patient: Nomvula Dlamini   ID: 5809145129085", "Nomvula Dlamini", "PATIENT"),
    ("Transferred Okafor VIA ambulance to theatre.", "Okafor", "PATIENT"),
    # a name in capitals beside a credential or in a passage in capitals; an identifier's code in capitals
    ("Plan agreed. JOHN MERCER MD AWARE.", "JOHN MERCER", "DOCTOR"),
    ("Seen today. NURSE: ANN OKAFOR PLEASE REVIEW THE LINE AND CALL THE FAMILY BEFORE THE EVENING ROUND.",
     "ANN OKAFOR", "DOCTOR"),
    ("Scan booked. Ref WG0043871 for the eye clinic.", "WG0043871", "IDNUM"),
    # a double-barrelled name with a title, or followed by a date; an identifier after its own label
    ("Seen by Mrs Okafor-Hale 14 days after the fall.", "Okafor-Hale", "PATIENT"),
    ("Okafor-Hale 12/03/2025 reviewed in clinic.", "Okafor-Hale", "PATIENT"),
    ("Okafor-Hale 14.5 kg today.", "Okafor-Hale", "PATIENT"),
    ("MRN L33822 on the wristband.", "L33822", "IDNUM"),
    # a real date and a real town near a form but outside it
    ("Gleason 4+3=7 on 14/03/2025 at review.", "14/03/2025", "DATE"),
    ("Moved to Wexford; NYHA III since.", "Wexford", "CITY"),
    ("Referral letter.\nBrantwood Eye Hospital OPHTHALMOLOGY\nVA 6/12.", "Brantwood Eye Hospital", "HOSPITAL"),
]


@pytest.mark.parametrize("text, surface, sub", KEPT)
def test_a_span_beside_no_form_or_a_persons_is_no_form(text, surface, sub):
    assert forms.form_doubt(text, span(text, surface, sub)) is None


def test_redaction_replaces_the_same_spans_and_surrogate_output_every_one_of_them():
    text = ("Seen by Dr. Ann Lee on 14/03/2025. Ulcer Forrest IIa; Apgar 9/9; GCS E3V4M6; bed 12 on Ward 64; "
            "INVASIVE DUCTAL CARCINOMA (NST). Call (217) 555-0143.")
    phi = [("Ann Lee", "DOCTOR"), ("14/03/2025", "DATE"), ("Forrest", "PATIENT"), ("9/9", "DATE"),
           ("3V4M6", "VEHICLE"), ("12 on Ward 64", "ROOM"), ("INVASIVE DUCTAL", "PATIENT"),
           ("(217) 555-0143", "PHONE")]
    doc = Document("n1", text, [span(text, s, t) for s, t in phi], {"patient": "p1"})
    assert [(sp.start, sp.end) for sp in deid_spans(doc)] == [(sp.start, sp.end) for sp in doc.spans]
    red = redact(doc)
    assert [red.surface(sp) for sp in red.spans] == [f"[**{t}**]" for _, t in phi]
    out = Surrogator(seed=3, date_order="dmy").surrogate(doc)
    written = [out.surface(sp) for sp in out.spans]
    assert len(written) == len(phi) and all(w != s for w, (s, _) in zip(written, phi))
    assert written[2:7] == [f"[**{t}**]" for _, t in phi[2:7]]
    assert not any("[**" in w for w in (written[0], written[1], written[7]))  # the real ones keep surrogates


def test_the_writer_summary_names_the_clinical_forms_and_never_their_text(tmp_path):
    w = SurrogateWriter(str(tmp_path), seed=3)
    text = "Ulcer Forrest IIa, clipped. Seen by Dr. Ann Lee."
    w.write(Document("n1", text, [span(text, "Forrest", "PATIENT"), span(text, "Ann Lee", "DOCTOR")],
                     {"patient": "p1"}))
    w.close()
    assert w.surrogator.summary()["clinical_forms"] == 1
    line = w.summary()
    assert "(1 of them a score, grade, stage, class, code, bed or phrase in capitals)" in line
    assert "Forrest" not in line
