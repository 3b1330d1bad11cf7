"""The falsified values left with the look16 model, mended by general evidence (issue 58 item 3; branch false18,
2026-11-27; docs/deid.md, "Falsified values left with look16"): each cause's look-alike is written as a placeholder
of its type, and a real identifier of that type keeps a realistic surrogate, in several casings and countries'
styles. Every note here is made up."""

from __future__ import annotations

import pytest

from crfdeid.deid.surrogate import Surrogator
from crfdeid.document import Document, Span

_CATEGORY = {"PATIENT": "NAME", "DOCTOR": "NAME", "CITY": "LOCATION", "STREET": "LOCATION", "ZIP": "LOCATION",
             "PHONE": "CONTACT", "DATE": "DATE", "IDNUM": "ID", "LICENSE": "ID", "MEDICALRECORD": "ID"}


def tagged(text: str, *phi, confidence: float = 0.99, crf: float | None = None) -> Document:
    """A note as the tagger gives it: ``(surface, subtype)`` spans in order, at the tagger's ``confidence`` and
    the model's ``crf`` word (the confidence when not given)."""
    spans, pos = [], 0
    for surface, sub in phi:
        i = text.index(surface, pos)
        spans.append(Span(i, i + len(surface), _CATEGORY[sub], sub, confidence=confidence,
                          crf_confidence=confidence if crf is None else crf))
        pos = i + len(surface)
    return Document("n1", text, spans, {"patient": "p1"})


def cased(doc: Document, casing: str) -> Document:
    text = {"as written": doc.text, "lower": doc.text.lower(), "upper": doc.text.upper()}[casing]
    return Document(doc.doc_id, text, doc.spans, doc.meta)


def written(doc: Document) -> list[str]:
    out = Surrogator(seed=7).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]


def placeholder(doc: Document, i: int, new: list[str]) -> bool:
    return new[i] == f"[**{doc.spans[i].subtype}**]"


CASINGS = ["as written", "lower", "upper"]

#: note, the spans that must be placeholders, the spans that keep a made-up value (by index).
CASES = [
    # a label and its number read as a town and a postcode no fixed form explains; a US address keeps its town
    (tagged("Cairo Children's Unit   Hotline 19555\nHome: 41 Larkspur Court, Bellingham, WA 98225\n",
            ("Hotline", "CITY"), ("19555", "ZIP"), ("41 Larkspur Court", "STREET"), ("Bellingham", "CITY"),
            ("98225", "ZIP")), [0], [2, 3]),
    # a licence's label of two words; the doctor's name before it keeps a surrogate
    (tagged("Dra. Marta Sequeira, cédula profissional 48312\n", ("Marta Sequeira", "DOCTOR"),
            ("cédula profissional", "CITY"), ("48312", "LICENSE")), [1], [0]),
    # a letter heading a phone, a letter of the next field after one; a phone alone is one
    (tagged("Kaaistraat 44, 9200 Dendermonde   T 052 55 61 30   E sport@example.org\n"
            "Office 021 555 7310  E info@example.org\nDesk 0161 496 0000\n",
            ("T 052 55 61 30", "PHONE"), ("021 555 7310  E", "PHONE"), ("0161 496 0000", "PHONE")),
     [0, 1], [2]),
    # an age read as an identifier (Spanish, French, German); the record number beside it is one
    (tagged("C.C. 79.482.315   HC FCG-1146209   66 años   EPS Andina\n", ("FCG-1146209", "MEDICALRECORD"),
            ("66", "IDNUM")), [1], [0]),
    (tagged("Dossier 4471239, 71 ans, vu ce jour.\n", ("4471239", "MEDICALRECORD"), ("71", "IDNUM")), [1], [0]),
    (tagged("Fallnummer 88123407, 58 Jahre alt.\n", ("88123407", "MEDICALRECORD"), ("58", "IDNUM")), [1], [0]),
    # a product's expiry written as a month and year; the patient's dates keep their surrogates
    (tagged("Seen 14/11/2025. Benzathine lot 7G2418 (exp 09/2027) given.\nReview 12/12/2025.\n",
            ("14/11/2025", "DATE"), ("09/2027", "DATE"), ("12/12/2025", "DATE")), [1], [0, 2]),
    (tagged("Seen 14/11/2025. EpiPen Expiry: 03/2026.\n", ("14/11/2025", "DATE"), ("03/2026", "DATE")), [1], [0]),
]


@pytest.mark.parametrize("casing", CASINGS)
@pytest.mark.parametrize("doc, held, kept", CASES)
def test_a_look_alike_gets_a_placeholder_and_a_real_identifier_a_surrogate(doc, held, kept, casing):
    doc = cased(doc, casing)
    new = written(doc)
    assert all(placeholder(doc, i, new) for i in held), new
    assert all("[**" not in new[i] for i in kept), new


def test_a_scales_first_word_in_a_note_written_in_lower_case():
    doc = tagged("indication: positive ifobt. prep: boston 8/9. caecum reached.\nseen on 8/9 by the team.\n",
                 ("8/9", "DATE"), ("8/9", "DATE"))
    new = written(doc)
    assert placeholder(doc, 0, new)  # boston of the boston bowel preparation scale
    assert "[**" not in new[1]  # a day and month the note writes after "on"


NAMES = "Plan agreed with the team. Follow-up in the clinic in six weeks, letter to the general practitioner.\n"


@pytest.mark.parametrize("casing", CASINGS)
def test_a_listed_first_name_proves_the_name_it_begins_not_the_words_before_it(casing):
    """A doubted name (the tagger 0.6 sure) is proven by a listed first name only when the first name begins it
    (after a name's words: ``Herrera Paula``); a role or a clause before it, or a particle, proves nothing."""
    doc = cased(tagged(NAMES + "Titrate with enfermera educadora Paula Herrera. Relaxing incisions (von Langenbeck)."
                       "\nSeen by clinic: Paula Herrera and Herrera Paula.\n",
                       ("enfermera educadora Paula Herrera", "DOCTOR"), ("von Langenbeck", "DOCTOR"),
                       ("Paula Herrera", "DOCTOR"), ("Herrera Paula", "DOCTOR"), confidence=0.6), casing)
    new = written(doc)
    assert placeholder(doc, 0, new) and placeholder(doc, 1, new)
    if casing != "lower":  # in lower case an unlisted word before the first name is no name's: no proof
        assert all("[**" not in new[i] for i in (2, 3)), new
    assert "[**" not in new[2], new


@pytest.mark.parametrize("casing", CASINGS)
def test_a_unit_or_anothers_credential_is_no_persons_mark_for_a_rule_name_the_model_doubts(casing):
    doc = cased(tagged("Left 6 Fr x 26 cm Percuflex stent placed. Dr Reyes, MD, Marina-accredited.\n"
                       "Discussed with nurse Okafor.\n",
                       ("Percuflex", "DOCTOR"), ("Marina", "DOCTOR"), ("Okafor", "DOCTOR"), confidence=1.0, crf=0.07),
                casing)
    new = written(doc)
    assert placeholder(doc, 0, new) and placeholder(doc, 1, new)
    assert "[**" not in new[2], new  # a staff role right before the name: a person's mark


@pytest.mark.parametrize("casing", CASINGS)
def test_a_name_filling_quotes_or_brackets_after_no_name_is_a_quotation_or_a_gloss(casing):
    doc = cased(tagged('Refiere ronquido "casi nada" por la noche. Arch bars (Erich) upper and lower.\n'
                       'Brother Robert "Bob" Okafor visited; his wife (Mary) rang.\n',
                       ("casi nada", "PATIENT"), ("Erich", "PATIENT"), ("Bob", "PATIENT"), ("Okafor", "PATIENT"),
                       ("Mary", "PATIENT")), casing)
    new = written(doc)
    assert placeholder(doc, 0, new) and placeholder(doc, 1, new)
    assert all("[**" not in new[i] for i in (2, 3, 4)), new  # a nickname in a name, a relation's name
