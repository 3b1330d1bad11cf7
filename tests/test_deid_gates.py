"""The surrogate writer's narrow gates (crfdeid.deid.gates; issue 58 item 3, gate15b): a confident span in a
shape that falsifies a clinical fact is written as a placeholder, its repeats too, in every casing; a real
identifier beside it keeps its surrogate. Every note here is made up."""

from __future__ import annotations

import pytest

from crfdeid.deid import confident_type, gates
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span
from crfdeid.errors import ConfigError

_CATEGORY = {"PATIENT": "NAME", "DOCTOR": "NAME", "HOSPITAL": "LOCATION", "CITY": "LOCATION", "ZIP": "LOCATION",
             "PHONE": "CONTACT", "DATE": "DATE", "MEDICALRECORD": "ID"}
ALL = "number_label,fraction,heading_line"


def tagged(text: str, *phi) -> Document:
    """A note as the tagger gives it: ``(surface, subtype)`` spans in order, each one the tagger and the model
    are sure of (0.99: no confidence bar holds them)."""
    spans, pos = [], 0
    for surface, sub in phi:
        i = text.index(surface, pos)
        spans.append(Span(i, i + len(surface), _CATEGORY[sub], sub, confidence=0.99, crf_confidence=0.99))
        pos = i + len(surface)
    return Document("n1", text, spans, {"patient": "p1"})


def cased(doc: Document, casing: str) -> Document:
    text = {"as written": doc.text, "lower": doc.text.lower(), "upper": doc.text.upper()}[casing]
    return Document(doc.doc_id, text, doc.spans, doc.meta)


def written(doc: Document, narrow_gates: str = ALL) -> tuple[list[str], dict]:
    s = Surrogator(seed=7, narrow_gates=narrow_gates)
    out = s.surrogate(doc)
    return [out.surface(sp) for sp in out.spans], s.summary()["narrow_gates"]


UK = tagged("Contacts for Mrs Okafor\nMob 07700 900123\nGP Dr Okafor, Leeds LS1 4AB\n",
            ("Mob", "CITY"), ("07700 900123", "PHONE"), ("Okafor", "DOCTOR"), ("Leeds", "CITY"), ("LS1 4AB", "ZIP"))
LABEL = tagged("Appointments: 0161 496 0000\nPlease ring Appointments to rebook.\n",
               ("0161 496 0000", "PHONE"), ("Appointments", "CITY"))
RECORD = tagged("Hospital no. Kirkstall 4471239 on file.\n", ("Kirkstall", "CITY"), ("4471239", "MEDICALRECORD"))
EYES = tagged("Eyes: VA R 6/9, L 6/12 with pinhole.\nSeen 23/11/2025, next review 12/03.\n",
              ("6/9", "DATE"), ("6/12", "DATE"), ("23/11/2025", "DATE"), ("12/03", "DATE"))
HEADING = tagged("Unidad de Heridas\nSeen in clinic today, letter to Northgate General Hospital.\n",
                 ("Unidad de Heridas", "HOSPITAL"), ("Northgate General Hospital", "HOSPITAL"))

#: note, the spans a gate holds (by index), the gate, the spans that keep a made-up value.
CASES = [
    (UK, [0], "number_label", [1, 2, 3, 4]),          # a label word before a mobile; the GP, town, postcode kept
    (LABEL, [1], "number_label", [0]),                # the word written before a colon elsewhere in the note
    (RECORD, [0], "number_label", [1]),               # a word before a record number
    (EYES, [0], "fraction", [2, 3]),                  # 6/9 beside 6/12; a day-first date and a lone 12/03 kept
]


@pytest.mark.parametrize("casing", ["as written", "lower", "upper"])
@pytest.mark.parametrize("doc, held, gate, kept", CASES)
def test_a_gate_writes_a_placeholder_where_a_made_up_value_would_state_a_false_fact(doc, held, gate, kept, casing,
                                                                                    monkeypatch):
    doc = cased(doc, casing)
    new, counts = written(doc)
    # a town of one English word in no place list (Mob, Appointments) is held by confident_type's town rule too
    # (proof21): the gate is measured alone
    monkeypatch.setattr(confident_type, "KINDS", confident_type.KINDS - {"town"})
    before, _ = written(doc, "off")
    assert all(new[i] == f"[**{doc.spans[i].subtype}**]" for i in held)
    assert all("[**" not in new[i] for i in kept)  # real identifiers beside it keep their surrogates
    assert set(counts) <= {gate}
    if casing == "as written":  # (in capitals a short word alone may be held already: an acronym)
        assert all("[**" not in before[i] for i in held)  # without the gate: a made-up value, a false fact
        assert counts[gate] >= 1


def test_a_place_that_is_a_whole_line_is_a_heading_and_a_place_in_a_sentence_is_not(monkeypatch):
    for casing in ("as written", "lower"):
        new, counts = written(cased(HEADING, casing))
        assert new[0] == "[**HOSPITAL**]" and "[**" not in new[1]
    assert written(HEADING)[1] == {"heading_line": 1}
    monkeypatch.setattr(confident_type, "KINDS", frozenset())  # no type word: held by confident_type too
    assert "[**" not in written(HEADING, "off")[0][0]


def test_each_gate_alone_holds_only_its_own_shape(monkeypatch):
    monkeypatch.setattr(confident_type, "KINDS", confident_type.KINDS - {"town"})  # Mob: the town rule's too
    assert written(UK, "fraction")[0][0] != "[**CITY**]"
    assert written(EYES, "number_label")[0][0] != "[**DATE**]"
    assert written(EYES, "fraction")[0][0] == "[**DATE**]"


def test_a_gate_on_one_span_holds_its_repeats_in_the_writer(tmp_path):
    doc = tagged("Bleep 3391 for the registrar.\nIf no answer, bleep again at noon.\n",
                 ("Bleep", "CITY"), ("3391", "PHONE"))
    out = SurrogateWriter(str(tmp_path), seed=7).transform(doc)
    texts = [out.surface(sp) for sp in out.spans]
    assert len(texts) == 3  # the writer added the repeat of the word
    assert texts[0] == texts[2] == "[**CITY**]"
    assert texts[1] == "[**PHONE**]"  # a bleep's number alone is no full phone (confident_form's extension, cells31)
    off = SurrogateWriter(str(tmp_path), seed=7, narrow_gates="off").transform(doc)
    assert all("[**" not in off.surface(sp) for sp in off.spans if sp.subtype == "CITY")


def test_a_users_own_spans_are_not_judged():
    gold = Document("n1", UK.text, [Span(s.start, s.end, s.category, s.subtype) for s in UK.spans],
                    {"patient": "p1"})
    assert "[**" not in written(gold)[0][0]  # gold spans (no confidence): taken as they are


@pytest.mark.parametrize("value, names", [
    (None, ()), ("off", ()), ("none", ()), ("", ()), ("heading_line, fraction", ("fraction", "heading_line")),
    (["number_label"], ("number_label",)),
])
def test_the_option_names_the_gates(value, names):
    assert gates.parse_gates(value) == names


def test_an_unknown_gate_is_refused_with_the_known_ones():
    with pytest.raises(ConfigError, match="known: number_label, fraction, heading_line"):
        Surrogator(seed=1, narrow_gates="fractions")


def test_bare_dates_beside_each_other_are_held_only_in_a_note_that_dates_with_years():
    """A note of bare dates keeps them; where the note writes its dates with a year, two N/M on a line are
    held, real dates too: the price the fraction gate was measured at (docs/synth.md, "Narrow gates measured")."""
    line = "Seen in clinic 3/5 and again 10/5.\nReviewed 14/5.\n"
    bare = tagged(line, ("3/5", "DATE"), ("10/5", "DATE"), ("14/5", "DATE"))
    assert not any("[**" in t for t in written(bare)[0])
    dated = tagged("Admitted 02/03/2025.\n" + line, ("02/03/2025", "DATE"), ("3/5", "DATE"), ("10/5", "DATE"),
                   ("14/5", "DATE"))
    new, counts = written(dated)
    assert new[1:3] == ["[**DATE**]", "[**DATE**]"] and "[**" not in new[0] + new[3]
    assert counts == {"fraction": 2}
    assert not any("[**" in t for t in written(dated, "off")[0])


def test_a_name_or_a_listed_town_before_a_number_keeps_its_surrogate():
    doc = tagged("Next of kin: daughter Priya 07700 900456\nLeeds 0113 496 0000 (home)\n",
                 ("Priya", "PATIENT"), ("07700 900456", "PHONE"), ("Leeds", "CITY"), ("0113 496 0000", "PHONE"))
    new, counts = written(doc)
    assert not any("[**" in t for t in new) and counts == {}


def test_the_run_summary_counts_the_spans_each_gate_held(tmp_path):
    w = SurrogateWriter(str(tmp_path), seed=7)
    for doc in (UK, EYES):
        w.transform(doc)
    line = w.summary()
    assert "held by a narrow gate: fraction 1, number_label 1" in line
    assert "Mob" not in line and "6/9" not in line  # counts only, never text
    assert "narrow gate" not in SurrogateWriter(str(tmp_path), seed=7, narrow_gates="off").summary()
