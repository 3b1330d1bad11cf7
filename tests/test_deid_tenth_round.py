"""Surrogate output, the tenth round (issue 58 item 3, docs/deid.md "Tenth round"; :func:`crfdeid.deid.confident_note.
rule_doubt`): against the model's word, a name a rule made is proven only by a person's word beside it, never by the
rule's own evidence (an initial before it, a listed first name, words that are all listed surnames). Such spans get a
placeholder; real names a rule found with a title, a role, a relation, a credential or a person's verb beside them, or
that the model itself reads as names, keep realistic surrogates. Every note is made up."""

from __future__ import annotations

import pytest
from deid_kit import tagged

from crfdeid.deid import confident_note
from crfdeid.deid.redact import redact
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import make_span


def written(doc, s: Surrogator | None = None) -> list[str]:
    """The text each span became in surrogate output."""
    out = (s or Surrogator(seed=7)).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]


DOUBTED = [  # a rule's name span (confidence 1.0) the model gives P(PHI) < 0.5, proven only by the rule's evidence
    pytest.param("Specimen C.\nD. Cryotherapy with liquid nitrogen, 2 cycles.", [("Cryotherapy", "DOCTOR", 1.0, 0.014)],
                 id="a list item's letter taken as an initial"),
    pytest.param("Antral biopsies positive for H. Pylori, triple therapy.", [("Pylori", "DOCTOR", 1.0, 0.0005)],
                 id="a binomial's genus as an initial"),
    pytest.param("IX: T. BILI 4.2, ALBUMIN 2.6.", [("BILI", "DOCTOR", 1.0, 0.0)], id="a lab's initial, capitals"),
    pytest.param("Fascia closed with Carter-Thomason and Vicryl 0.", [("Carter-Thomason", "DOCTOR", 1.0, 0.008)],
                 id="every word a listed surname: a closure device"),
    pytest.param("NOTA DE ALTA - MATERNIDADE\nUtente: internada 3 dias.", [("ALTA", "DOCTOR", 1.0, 0.07)],
                 id="a listed first name: a heading's word"),
]


@pytest.mark.parametrize("text, phi", DOUBTED)
def test_the_rules_own_evidence_does_not_prove_a_name_the_model_doubts(text, phi):
    s = Surrogator(seed=7)
    assert written(tagged(text, *phi), s) == [f"[**{phi[0][1]}**]"]
    assert s.summary()["not_confident_spans"] == 1 and s.summary()["not_confident_by_type"] == {phi[0][1]: 1}


KEPT = [  # real names a rule found, of the same shapes
    pytest.param("Reviewed today by Dr J. Okafor-Price in clinic.", [("J. Okafor-Price", "DOCTOR", 1.0, 0.1)],
                 id="a title"),
    pytest.param("Handed over to nurse Alice Mercer at 19:00.", [("Alice Mercer", "DOCTOR", 1.0, 0.1)],
                 id="a staff role before"),
    pytest.param("Plan agreed; J. Whitfield aware and happy.", [("Whitfield", "DOCTOR", 1.0, 0.1)],
                 id="an initial, and a person's verb after"),
    pytest.param("Bloods taken by M. Oyelaran, RN, at 06:00.", [("Oyelaran", "DOCTOR", 1.0, 0.2)],
                 id="an initial, and a credential after"),
    pytest.param("Letter copied to D. Cryer for review.", [("Cryer", "DOCTOR", 1.0, 0.97)],
                 id="an initial the model agrees with"),
]


@pytest.mark.parametrize("text, phi", KEPT)
def test_a_real_name_with_a_persons_word_or_the_models_agreement_keeps_a_surrogate(text, phi):
    s = Surrogator(seed=7)
    [new] = written(tagged(text, *phi), s)
    assert "[**" not in new and new != phi[0][0]
    assert s.summary()["not_confident_spans"] == 0


@pytest.mark.parametrize("text, start, end, initials, want", [
    ("H. Pylori", 3, 9, True, True),  # person_before still counts an initial where no model doubts (proven.py)
    ("H. Pylori", 3, 9, False, False),
    ("nurse Okafor", 6, 12, False, True),
])
def test_an_initial_is_a_persons_mark_only_when_asked(text, start, end, initials, want):
    assert confident_note.person_before(text, make_span(start, end, "DOCTOR"), initials) is want


def test_the_summary_counts_them_and_redacted_output_is_unchanged(tmp_path):
    text = "Antral biopsies positive for H. Pylori; seen by Dr Okafor."
    doubted = tagged(text, ("Pylori", "DOCTOR", 1.0, 0.0005), ("Okafor", "DOCTOR", 0.99, 0.99))
    w = SurrogateWriter(tmp_path, seed=7)
    out = w.transform(doubted)
    assert out.text.startswith("Antral biopsies positive for H. [**DOCTOR**]; seen by Dr ")
    assert "[**" not in out.text.split("seen by Dr ")[1]
    assert "1 span(s) not confidently an identifier of their type" in w.summary()
    assert redact(doubted).text == "Antral biopsies positive for H. [**DOCTOR**]; seen by Dr [**DOCTOR**]."
