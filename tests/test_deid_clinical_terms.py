"""No surrogate invented for a span of clinical vocabulary (issue 34): a tagger's false positive on
an eponym, a brand or a department becomes a placeholder, counted in the summary, never a name
inside clinical text (``Psychiatry consult`` -> ``Nevels consult``)."""

from __future__ import annotations

from test_deid_surrogate import note, surfaces

from crfdeid.deid import Surrogator
from crfdeid.deid.facts import clinical_term
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span


def test_spans_of_clinical_vocabulary_get_a_placeholder(tmp_path):
    doc = note("p34_a", "Psychiatry consult. Holter placed. Medtronic Azure XT checked. Bruce protocol today. "
               "Seen by Dr. Quackenbush with Dr. Miller.",
               ("Psychiatry", "DOCTOR"), ("Holter", "DOCTOR"), ("Medtronic Azure XT", "HOSPITAL"),
               ("Bruce", "PATIENT"), ("Quackenbush", "DOCTOR"), ("Miller", "DOCTOR"))
    from crfdeid import schema
    assert surfaces(Surrogator(seed=3, scheme=schema.I2B2).surrogate(doc))[:2] == ["[**DOCTOR**]"] * 2  # tag's
    s = Surrogator(seed=3)
    got = surfaces(s.surrogate(doc))
    assert got[:4] == ["[**DOCTOR**]", "[**DOCTOR**]", "[**HOSPITAL**]", "[**PATIENT**]"]
    assert got[4] not in ("Quackenbush", "[**DOCTOR**]") and got[5] not in ("Miller", "[**DOCTOR**]")
    assert s.summary()["clinical_terms"] == 4
    with SurrogateWriter(tmp_path / "out", seed=3) as w:
        w.write(doc)
        line = w.summary()
    assert "4 span(s) of clinical vocabulary" in line and "Holter" not in line


def test_a_part_of_a_hyphenated_term_is_judged_as_the_whole():
    text = "known Wolff-Parkinson-White; Smith-Jones seen"
    assert clinical_term(text, 6, 11) and clinical_term(text, 12, 27)
    assert not clinical_term(text, 29, 34)


def test_a_common_name_counts_only_before_a_clinical_head():
    text = "Bruce protocol; Bruce called; Miller blade; Murphy sign; Dr. Murphy aware"
    at = {w: [i for i in range(len(text)) if text.startswith(w, i)] for w in ("Bruce", "Miller", "Murphy")}
    assert clinical_term(text, at["Bruce"][0], at["Bruce"][0] + 5)
    assert not clinical_term(text, at["Bruce"][1], at["Bruce"][1] + 5)
    assert clinical_term(text, at["Murphy"][0], at["Murphy"][0] + 6)
    assert not clinical_term(text, at["Murphy"][1], at["Murphy"][1] + 6)


def test_labels_of_another_scheme_keep_their_surrogates():
    from crfdeid import schema
    own = schema.get({"labels": {"Nombre": {"parent": "Persona", "surrogate": "name"}}})
    doc = Document("p34_b", "Visto por Holter hoy.", [Span(10, 16, "Persona", "Nombre")])
    got = surfaces(Surrogator(seed=3, scheme=own).surrogate(doc))
    assert got != ["[**Nombre**]"] and got != ["Holter"]
