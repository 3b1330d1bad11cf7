"""The post-CRF chain on notes of other languages: the fixed forms and name joints change no labelled span.

A made-up corpus in French, Polish, Dutch and Portuguese, labelled with its own labels and with
i2b2 2014's: names joined by hyphens and apostrophes (and the French ``d'`` before a name, left
out of it), addresses with their postal codes, national phone numbers, identity numbers, and
look-alikes left unlabelled (lab ranges, doses, dates in the text, blood pressures, times).
The gold spans run through the chain a model of another language gets come out as they went
in: nothing dropped, moved, joined or added. Every name, number and place here is made up.
"""

from __future__ import annotations

import pytest

from crfdeid.document import Span, make_span
from crfdeid.recognizers.chain import Note, build_chain, legacy_entries
from crfdeid.schema import I2B2, Label, Scheme

# (text with [label|surface] marks); own label -> i2b2 subtype
OWN = {"Nombre": "PATIENT", "Medico": "DOCTOR", "Fecha": "DATE", "Direccion": "STREET", "Ciudad": "CITY",
       "Telefono": "PHONE", "Identificador": "SSN", "Cuenta": "ACCOUNT"}
NOTES = [
    "Patiente : [Nombre|Marie-Claire Dubois-Martin], née le [Fecha|03/11/1954].\n"
    "Adresse : [Direccion|12 rue des Lilas, 75008 Paris]. Tél : [Telefono|01 23 45 67 89].\n"
    "Kaliémie 3,5-5,0 mmol/l, PA 120/80, FC 60-56 la nuit. Le dossier d'[Nombre|Anne Lefèvre] est complet.\n"
    "Vue par le Dr [Medico|Jean-Pierre Morel] le [Fecha|03-11-2021] à 10:30.",
    "Pacjent: [Nombre|Jan Kowalski-Nowak], PESEL [Identificador|44051401359].\n"
    "Adres: [Direccion|ul. Polna 5, 53-320 Wrocław]. Tel. [Telefono|+48 71 123 45 67].\n"
    "Glukoza 120-140 mg/dl, dawka 50-100 mg, RR 130/85. Wizyta [Fecha|03.11.2021] o 08:15.",
    "Patiënt: [Nombre|Jan de Vries], BSN [Identificador|123456782].\n"
    "Adres: [Direccion|Damrak 1, 1012 LG Amsterdam]. Telefoon [Telefono|020 7946 0958].\n"
    "Natrium 135-145, IMV 800x60x10 5/5. Afspraak [Fecha|03-11-2021] om 10:30, kamer 12-34.",
    "Doente: [Nombre|Ana O'Neill-Sousa]. Morada: [Direccion|Rua Nova 4, 3610-114 Tarouca].\n"
    "Telefone: [Telefono|+351 912 345 678]. IBAN [Cuenta|PT50 0002 0123 1234 5678 9015 4].\n"
    "Dose 50-100 mg, TA 120-140/80. Consulta [Fecha|03-11-2021]; médica [Medico|Rita D'Almeida].",
    "Paciente: [Nombre|José Núñez-García], DNI [Identificador|12345678Z]. Teléfono [Telefono|612 345 678].\n"
    "Tarjeta [Cuenta|4007 0707 5369 0781]. Glucemia 120-140, día 4/7 de antibiótico.",
]


def _parse(marked: str):
    text, spans = "", []
    rest = marked
    while "[" in rest:
        head, rest = rest.split("[", 1)
        text += head
        label, rest = rest.split("|", 1)
        surface, rest = rest.split("]", 1)
        spans.append((len(text), len(text) + len(surface), label))
        text += surface
    return text + rest, spans


OWN_SCHEME = Scheme("corpus", [Label(n, n) for n in OWN])


@pytest.mark.parametrize("own", [True, False], ids=["own labels", "i2b2 labels"])
@pytest.mark.parametrize("marked", NOTES)
def test_gold_spans_of_other_languages_pass_the_chain_unchanged(marked, own):
    text, gold = _parse(marked)
    spans = sorted(Span(a, b, label, label) if own else make_span(a, b, OWN[label]) for a, b, label in gold)
    chain = build_chain(legacy_entries({"enabled": False}), english=False, i2b2=not own)
    note = Note(text, english=False, scheme=OWN_SCHEME if own else I2B2)
    out = chain.run(note, spans)
    assert [(text[s.start:s.end], s.subtype) for s in out] == [(text[s.start:s.end], s.subtype) for s in spans]


@pytest.mark.parametrize("marked", NOTES)
def test_what_the_layer_adds_alone_is_labelled_phi(marked):
    """With no predicted span, every span the chain gives lies inside a labelled one (no false alarm)."""
    text, gold = _parse(marked)
    chain = build_chain(legacy_entries({"enabled": False}), english=False, i2b2=False)
    out = chain.run(Note(text, english=False, scheme=OWN_SCHEME), [])
    assert out, "the layer finds the fixed forms of these notes"
    assert all(any(a <= s.start and s.end <= b for a, b, _ in gold) for s in out), \
        [text[s.start:s.end] for s in out]
