"""Surrogate output never falsifies a clinical fact, the sixth round (issue 58 item 3, docs/deid.md "Sixth
round"): a value before its unit, a range of time, a street of compass points only and a name word built on a
clinical suffix get placeholders; real dates, streets and names beside them keep realistic surrogates; the
model's word per token is computed only for output that may reach a surrogate writer. Every note is made up."""

from __future__ import annotations

import pytest

from crfdeid.deid import confident, facts
from crfdeid.deid.confident_terms import clinical_morphology, time_range
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span, make_span
from crfdeid.experiments import madeup_outputs as mo


def tagged(text: str, *phi, doc_id: str = "n1") -> Document:
    """A note as a tagger gives it: ``(surface, subtype, confidence)`` spans, in order (``confidence`` None:
    a user's span)."""
    spans, pos = [], 0
    for surface, sub, conf in phi:
        i = text.index(surface, pos)
        sp = make_span(i, i + len(surface), sub)
        spans.append(Span(sp.start, sp.end, sp.category, sp.subtype, confidence=conf, crf_confidence=conf))
        pos = sp.end
    return Document(doc_id, text, spans, {"patient": "p1"})


def written(doc: Document) -> list[str]:
    out = Surrogator(seed=7).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]


# Each made up again around the shape of a falsified phrase of the development sets.
FALSE = [
    ("Suture removal in 10-14 days at the practice.", "10-14", "DATE", 0.84),
    ("Review again in 2 to 3 weeks.", "2 to 3", "DATE", 0.9),
    ("- 11/13 Fr 36 cm access sheath placed.", "11/13", "DATE", 0.9997),
    ("Cholecalciferol 100 000 UI once.", "100 000", "ZIP", 1.0),
    ("Vitamin D 50 000 IE weekly.", "50 000", "ZIP", None),
    ("Admitted to Lakeside Hospital, 5 West, Room 12.", "5 West", "STREET", 1.0),
    ("C. Excision.\nD. Cryotherapy with liquid nitrogen.", "Cryotherapy", "DOCTOR", 1.0),
    ("Plan: Pericardiectomy Friday.", "Pericardiectomy", "PATIENT", 0.95),
]


@pytest.mark.parametrize("text, surface, sub, conf", FALSE)
def test_a_clinical_value_range_ward_or_procedure_gets_a_placeholder(text, surface, sub, conf):
    [new] = written(tagged(text, (surface, sub, conf)))
    assert new == f"[**{sub}**]"


REAL = [
    ("Seen in clinic on 10/14 with her daughter.", "10/14", "DATE"),
    ("Next visit 3-4 for the dressing.", "3-4", "DATE"),
    ("Lives at 12 West Larkspur Road with her son.", "12 West Larkspur Road", "STREET"),
    ("Discussed with Dr. Ann Ferrara today.", "Ann Ferrara", "DOCTOR"),
    ("Postcode 75011 Paris.", "75011", "ZIP"),
]


@pytest.mark.parametrize("text, surface, sub", REAL)
def test_a_real_date_street_name_or_postcode_keeps_a_realistic_surrogate(text, surface, sub):
    [new] = written(tagged(text, (surface, sub, 0.999)))
    assert "[**" not in new and new != surface


def test_the_new_doubts_are_counted_in_the_tag_summary(tmp_path):
    w = SurrogateWriter(tmp_path, seed=7)
    w.transform(tagged("Suture removal in 10-14 days. Admitted to 5 West.", ("10-14", "DATE", 0.84),
                       ("5 West", "STREET", 1.0)))
    w.transform(tagged("D. Cryotherapy with liquid nitrogen.", ("Cryotherapy", "DOCTOR", 1.0), doc_id="n2"))
    summary = w.summary()
    assert "3 span(s) not confidently an identifier of their type" in summary
    assert "[by type: DATE 1, DOCTOR 1, STREET 1]" in summary
    w.transform(tagged("Sheath 11/13 Fr used.", ("11/13", "DATE", 0.99), doc_id="n3"))
    assert "1 clinical value(s)" in w.summary()  # a value before its unit: counted as a clinical value


@pytest.mark.parametrize("text, want", [
    ("Uvedose 100 000 UI", True), ("sheath 11/13 Fr", True), ("given 10 mL", True), ("x 12 mmHg", True),
    ("seen 11/13 fr the clinic", False),  # a unit is matched as written: fr is no gauge
    ("visited 11/13 Fr Murphy", False),   # Fr before a name: a chaplain's title, no gauge
    ("seen 11/13 in clinic", False),      # in: an English word, no unit here
    ("call 555 123 today", False),
])
def test_a_value_before_a_listed_unit(text, want):
    import re
    m = re.search(r"\d[\d /]*\d", text)
    assert facts.clinical_value(text, m.start(), m.end()) is want


def test_a_range_needs_the_smaller_number_first_and_a_stretch_of_time_after():
    text = "in 10-14 days; on 14-10 days; 10-14 by post; 3/4 days"
    assert time_range(text, 3, 8)
    assert not time_range(text, 18, 23)  # 14-10: no range
    assert not time_range(text, 30, 35)  # no stretch of time after
    assert not time_range(text, 45, 48)  # a slash: a date with a shift (3/4 days), no range


def test_clinical_morphology_spares_every_listed_name():
    from crfdeid import gazetteers
    names = [w.lower() for n in ("first_male", "first_female", "surnames", "surnames_rare")
             for w in gazetteers.entries(n)]
    assert not [w for w in names if clinical_morphology(w)]
    assert clinical_morphology("cryotherapy") and clinical_morphology("laparoscopy")


def test_a_street_of_compass_points_only_is_no_street():
    text = "Hospital, 5 West, Room 12; 40 West Street"
    assert confident.doubt(text, make_span(10, 16, "STREET"), 1.0) == "place"
    assert confident.doubt(text, make_span(27, 41, "STREET"), 1.0) is None


def test_the_measure_aligns_on_the_spans_the_writer_wrote(tmp_path):
    # the writer adds the repeat of the hospital; aligned on the tagged spans alone, the output's placeholder
    # beside a phone read as the phrase written as a phone number (counted falsified though a placeholder)
    text = "Referred to Urologic Oncology   clinic (505) 555-0163 today. Urologic Oncology   clinic will call."
    doc = tagged(text, ("Urologic Oncology   clinic", "HOSPITAL", 0.99), ("(505) 555-0163", "PHONE", 0.99))
    out = SurrogateWriter(tmp_path, seed="s").transform(doc)
    i = text.index("Urologic")
    gold = Document("n1", text, [doc.spans[1]], {"keep": [[i, i + 17, "role"]]})
    assert out.surface(out.spans[0]) == "[**HOSPITAL**]"
    assert mo.score_note(gold, out, doc.spans)["falsified"] == {"role": 1}  # the old misreading
    assert mo.score_note(gold, out, mo._written_spans("n1", doc))["falsified"] == {}


@pytest.fixture(scope="module")
def shipped():
    from crfdeid.crf import Model
    return Model.load()


def test_the_models_word_per_token_only_where_a_surrogate_writer_may_read_it(shipped):
    from crfdeid.tagging.session import Session
    text = "Seen by Dr. Rao. MRN 00482913. Address 12 Larkspur Road, Tacoma WA 98402."
    assert Session(shipped, "redacted").chain_options.get("crf_evidence") is False
    assert Session(shipped, "masked").chain_options.get("crf_evidence") is False
    for fmt in ("surrogate", "spans", "fhir"):
        assert "crf_evidence" not in Session(shipped, fmt).chain_options
    full = shipped.tag_text(text)
    lean = shipped.tag_text(text, options={"crf_evidence": False})
    assert full.spans == lean.spans and full.meta["confidence"] == lean.meta["confidence"]  # the same spans
    assert all(sp.crf_confidence is not None for sp in full.spans)
    changed = [sp for sp in lean.spans if sp.crf_confidence is None]  # a span the chain made: nobody pays
    assert changed and all(sp.confidence == 1.0 for sp in changed)


def _heading(text: str, surface: str, conf: float, crf: float | None) -> str:
    i = text.index(surface)
    doc = Document("h", text, [Span(i, i + len(surface), "LOCATION", "HOSPITAL", confidence=conf, crf_confidence=crf)],
                   {"patient": "p1"})
    [new] = written(doc)
    return new


def test_a_heading_in_capitals_the_chain_changed_gets_a_placeholder():
    text = ("RIVERSIDE DIABETES CLINIC - CLINIC LETTER\nSeen today with her son for review; her sugars are settled "
            "and she feels well in herself.")
    assert _heading(text, "RIVERSIDE DIABETES CLINIC", 1.0, 0.92) == "[**HOSPITAL**]"


@pytest.mark.parametrize("text, conf, crf", [
    ("Seen today with her son. Transferred from RIVERSIDE GENERAL HOSPITAL on Monday.", 0.98, 0.98),  # the model's
    ("Seen today with her son. Transferred from RIVERSIDE GENERAL HOSPITAL on Monday.", 1.0, None),   # a file's
    ("SEEN TODAY WITH HER SON. TRANSFERRED FROM RIVERSIDE GENERAL HOSPITAL ON MONDAY.", 1.0, 0.9),    # capitals
])
def test_a_hospital_in_capitals_keeps_its_surrogate_otherwise(text, conf, crf):
    new = _heading(text, "RIVERSIDE GENERAL HOSPITAL", conf, crf)
    assert "[**" not in new and new != "RIVERSIDE GENERAL HOSPITAL"


def test_a_spawned_worker_of_a_redacting_session_leaves_the_models_word_out_too(monkeypatch, shipped):
    from crfdeid.tagging import session as session_module
    parent = session_module.Session(shipped, "redacted")
    monkeypatch.setattr(session_module, "_WORKER", None)
    session_module._init_worker(parent._spec())
    assert session_module._WORKER.chain_options == parent.chain_options == {"crf_evidence": False}
