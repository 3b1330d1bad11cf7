"""A place a rule made (the tagger's confidence 1.0) to which the model itself gives P(PHI) < 0.5 gets a
placeholder, not a made-up place (issue 58 item 3; docs/deid.md, "The lead, implemented"). The span is
still replaced, the redacted output is the same, and a place the CRF found is not judged so. What this
gate lets through is tested with ``surrogates: proven`` off (its bar of 0.95 would hold a span the model gives
0.5 or the tagger 0.6; tests/test_deid_proven.py). Every note here is made up."""

from __future__ import annotations

import pytest

from crfdeid.deid.redact import redact
from crfdeid.deid.spans import propagate
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span

_CATEGORY = {"HOSPITAL": "LOCATION", "CITY": "LOCATION", "STREET": "LOCATION", "ORGANIZATION": "LOCATION",
             "DOCTOR": "NAME", "PATIENT": "NAME", "DATE": "DATE"}
NOTE = "Transferred from Riverside General Hospital to the ward on arrival."
PLACE = "Riverside General Hospital"


def tagged(text: str, *phi, doc_id: str = "n1", patient: str = "p1") -> Document:
    """A note as the tagger gives it: ``(surface, subtype, confidence, crf_confidence)`` spans, in order."""
    spans, pos = [], 0
    for surface, sub, conf, crf in phi:
        i = text.index(surface, pos)
        spans.append(Span(i, i + len(surface), _CATEGORY[sub], sub, confidence=conf, crf_confidence=crf))
        pos = i + len(surface)
    return Document(doc_id, text, spans, {"patient": patient})


#: The rule gate alone: ``surrogates: proven`` (on by default) off.
GATE_ONLY = {"proven": "off"}


def written(doc: Document, s: Surrogator | None = None) -> list[str]:
    """The text each span became in surrogate output."""
    out = (s or Surrogator(seed=7)).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]


@pytest.mark.parametrize("text, surface, sub", [
    (NOTE, PLACE, "HOSPITAL"),
    ("Lives in Springfield with her son.", "Springfield", "CITY"),
    ("Lives at 35 Yorke Street with her son.", "35 Yorke Street", "STREET"),
])
def test_a_place_a_rule_made_that_the_model_doubts_gets_a_placeholder(text, surface, sub):
    s = Surrogator(seed=7)
    assert written(tagged(text, (surface, sub, 1.0, 0.12)), s) == [f"[**{sub}**]"]
    summary = s.summary()  # counted with the spans not confidently an identifier, by type
    assert summary["not_confident_spans"] == 1 and summary["not_confident_by_type"] == {sub: 1}


@pytest.mark.parametrize("text, surface, sub", [
    (NOTE, PLACE, "HOSPITAL"),
    ("Lives in Springfield with her son.", "Springfield", "CITY"),
    ("Lives at 35 Yorke Street with her son.", "35 Yorke Street", "STREET"),
])
@pytest.mark.parametrize("crf", [0.5, 0.97, None])  # the model agrees (0.5 is enough), or no model scored it
def test_a_place_a_rule_made_that_the_model_agrees_with_keeps_its_surrogate(text, surface, sub, crf):
    s = Surrogator(seed=7, **GATE_ONLY)
    [new] = written(tagged(text, (surface, sub, 1.0, crf)), s)
    assert "[**" not in new and new != surface
    assert s.summary()["not_confident_spans"] == 0


@pytest.mark.parametrize("conf", [0.97, 0.6])
def test_a_place_the_crf_found_or_a_repeat_of_one_is_not_judged_by_the_rule_gate(conf):
    # a CRF span's confidence is the model's own word; a repeat carries its original's (below 1.0)
    [new] = written(tagged(NOTE, (PLACE, "HOSPITAL", conf, 0.2)), Surrogator(seed=7, **GATE_ONLY))
    assert "[**" not in new and new != PLACE


def test_names_and_dates_a_rule_made_are_not_judged_by_the_place_gate():
    text = "Reviewed with Alice Mercer on 14 March 2024 today."
    new = written(tagged(text, ("Alice Mercer", "PATIENT", 1.0, 0.1), ("14 March 2024", "DATE", 1.0, 0.1)))
    assert all("[**" not in w for w in new) and new[0] != "Alice Mercer"


def test_a_repeat_the_writer_adds_keeps_its_originals_word():
    text = "From Riverside General Hospital. Back to Riverside General Hospital later."
    doc = propagate(tagged(text, (PLACE, "HOSPITAL", 1.0, 0.12)))
    assert [sp.crf_confidence for sp in doc.spans] == [0.12, 0.12]
    assert written(doc) == ["[**HOSPITAL**]", "[**HOSPITAL**]"]


def test_the_same_place_keeps_one_surrogate_beside_a_doubted_mention():
    s = Surrogator(seed=9)
    sure = tagged(NOTE, (PLACE, "HOSPITAL", 0.98, 0.98))
    doubted = tagged("Seen at Lakeside Clinic before.", ("Lakeside Clinic", "HOSPITAL", 1.0, 0.2), doc_id="n2")
    again = tagged(NOTE, (PLACE, "HOSPITAL", 1.0, 0.97), doc_id="n3")  # a rule's, the model agrees
    [first] = written(sure, s)
    assert written(doubted, s) == ["[**HOSPITAL**]"]
    assert written(again, s) == [first] and first != PLACE


def test_the_redacted_output_is_the_same_whatever_the_model_says():
    outs = {redact(tagged(NOTE, (PLACE, "HOSPITAL", 1.0, crf))).text for crf in (0.12, 0.97, None)}
    assert outs == {"Transferred from [**HOSPITAL**] to the ward on arrival."}


def test_the_tag_summary_counts_them_as_not_confidently_an_identifier(tmp_path):
    w = SurrogateWriter(tmp_path, seed=7)
    w.transform(tagged(NOTE, (PLACE, "HOSPITAL", 1.0, 0.12)))
    assert "1 span(s) not confidently an identifier of their type" in w.summary()
    assert "HOSPITAL 1" in w.summary()


def test_the_shipped_model_gives_every_span_the_crfs_word(shipped_model):
    text = "Transferred from Riverside General Hospital, Springfield. Plan per Dr. Rao, renal, 14/03/2024."
    doc = shipped_model.tag_text(text)
    toks, p_out = shipped_model.token_p_outside(doc)
    assert doc.spans
    for sp in doc.spans:  # the lowest P(PHI) of the tokens it overlaps, whatever step made it
        want = min(round(1.0 - p, 4) for t, p in zip(toks, p_out) if t.start < sp.end and sp.start < t.end)
        assert sp.crf_confidence == pytest.approx(want, abs=1e-4)


def test_a_long_note_tagged_a_piece_at_a_time_gives_every_span_the_crfs_word(shipped_model):
    import copy

    from crfdeid.tagging.pieces import Pieces
    text = "Transferred from Riverside General Hospital. Plan per Dr. Rao, renal.\n" * 12
    member = copy.copy(getattr(shipped_model, "default", shipped_model))  # a routed model's member tags the note
    member.pieces = Pieces(400)                         # cut every 400 characters
    [doc] = member.tag_many([Document("long", text)])
    assert len(Pieces(400).cuts(text)) > 2 and doc.spans
    assert all(sp.crf_confidence is not None and 0.0 <= sp.crf_confidence <= 1.0 for sp in doc.spans)
