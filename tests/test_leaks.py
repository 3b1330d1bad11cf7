"""Leaks found trying the shipped model as a new user would (issue 34 item 3), on made-up notes:
identifiers a few words after their label, states in lower case or as a code after a city, a
surname's initial after a first name, a sentence's full stop inside a span. The rules are
English and i2b2 2014's: a model of another language with its own labels keeps its spans."""

from __future__ import annotations

import pytest
import yaml

from crfdeid.cli import main
from crfdeid.crf import Model
from crfdeid.document import make_span
from crfdeid.recognizers import hygiene, rules
from crfdeid.recognizers.chain import Chain, Note, build_chain
from crfdeid.recognizers.safeharbor import find


def _tagged(model, text):
    return [(text[s.start:s.end], s.subtype) for s in model.tag_text(text).spans]


@pytest.mark.parametrize("text, surface, subtype", [
    ("License plate noted for parking: ORE 4KJ-221.", "ORE 4KJ-221", "VEHICLE"),
    ("license plate ORE 4KJ-221 on the visitor log", "ORE 4KJ-221", "VEHICLE"),
    ("the plate number is 7ABC123", "7ABC123", "VEHICLE"),
    ("MRN of the patient: 00482913", "00482913", "MEDICALRECORD"),
    ("Medicare number on file is 1EG4TE5MK72", "1EG4TE5MK72", "HEALTHPLAN"),
    ("serial number of the pump: AB 1234", "AB 1234", "DEVICE"),
    ("Driver's license from the wallet: S530-4412-7781", "S530-4412-7781", "LICENSE"),
])
def test_an_identifier_a_few_words_after_its_label_is_found(text, surface, subtype):
    assert (surface, subtype) in [(text[s.start:s.end], s.subtype) for s in find(text)]


@pytest.mark.parametrize("text", [
    "the device was placed at 1000 today",       # no identifier label
    "ID team notes: 2000 mg vancomycin",          # "ID" is infectious disease: not a far label
    "policy discussed with family is 24 hours",
    "plate of food: 2 eggs",
])
def test_no_identifier_where_the_label_names_something_else(text):
    assert find(text) == []


def test_the_shipped_model_leaks_none_of_them(shipped_model):
    cases = [
        ("License plate noted for parking: ORE 4KJ-221.", ("ORE 4KJ-221", "VEHICLE")),
        ("Patient moved from ohio last year.", ("ohio", "STATE")),
        ("She lives in Portland, OR with her sister.", ("OR", "STATE")),
        ("She lives in Portland, OR with her sister.", ("Portland", "CITY")),
    ]
    for text, (surface, subtype) in cases:
        got = _tagged(shipped_model, text)
        assert any(s == surface and t == subtype for s, t in got), (text, got)
    text = "a 70yo male, Tomas K., admitted with chest pain."  # the initial inside a span, alone or not
    k = text.index("K.")
    assert any(s.start <= k < s.end for s in shipped_model.tag_text(text).spans), _tagged(shipped_model, text)


def test_a_span_leaves_the_sentences_full_stop_outside(shipped_model):
    for text, name in [("Seen by Dr. Keene.", "Keene"), ("Wife Marisol Quackenbush called.", "Quackenbush")]:
        got = [s for s, _ in _tagged(shipped_model, text)]
        assert any(s.endswith(name) for s in got) and not any(s.endswith(".") for s in got), got


@pytest.mark.parametrize("text, before, after", [
    ("Seen by Dr. Keene.", (12, 18), "Keene"),
    ("Tomas K., admitted", (0, 8), "Tomas K."),        # an initial's full stop stays
    ("Lives on Main St.", (9, 17), "Main St."),        # an abbreviation's too
    ("Keene, N.H.", (7, 11), "N.H."),
    ("x Smith) y", (2, 8), "Smith"),                   # a bracket it does not open
    ("Dr. Lee, (RN)", (4, 8), "Lee"),
])
def test_trim_punctuation(text, before, after):
    got = hygiene.trim_punctuation(text, [make_span(*before, "DOCTOR")])
    assert [text[s.start:s.end] for s in got] == [after]


@pytest.mark.parametrize("text, found", [
    ("moved from ohio", [("ohio", "STATE")]),
    ("NEW YORK native", [("NEW YORK", "STATE")]),
    ("lives in Springfield, Mass. now", [("Springfield", "CITY"), ("Mass.", "STATE")]),
    ("keene, nh", [("keene", "CITY"), ("nh", "STATE")]),
    ("Texas catheter in place; NYHA (New York Heart Association) class 2", []),
    ("in pain, or not", []),                           # "or" in lower case is the word
    ("seen in the OR, MD aware", []),                  # no city before the comma
])
def test_states_in_any_case_and_codes_after_a_city(text, found):
    assert [(text[s.start:s.end], s.subtype) for s in rules.overlay(text, [])] == found


def test_a_surname_initial_after_a_name():
    text = "a 70yo male, Tomas K., admitted; told Maria I would"
    spans = rules.extend_names(text, [make_span(13, 18, "PATIENT"), make_span(38, 43, "PATIENT")])
    assert [text[s.start:s.end] for s in spans] == ["Tomas", "K", "Maria"]


def test_a_model_of_another_language_with_its_own_labels_keeps_its_spans(tmp_path):
    """A made-up Spanish corpus: ``OR.`` is a province (Ourense) with its full stop, and an
    operating room; the English rules (states, initials, full stops) must not touch its spans."""
    root = tmp_path / "train"
    root.mkdir()
    names = ["José Núñez", "María Peña", "Lucía Ibáñez", "Raúl Gómez"]
    for i in range(30):
        parts: list[str] = []
        anns = []
        for piece, label in [("Paciente: ", None), (names[i % 4], "Nombre"), (" Sexo: ", None),
                             ("HM"[i % 2], "Sexo"), (". Vive en Ourense, ", None), ("OR.", "Provincia"),
                             (" Pasa a quirófano (OR) mañana.\n", None)]:
            start = sum(map(len, parts))
            parts.append(piece)
            if label:
                anns.append(f"T{len(anns) + 1}\t{label} {start} {start + len(piece)}\t{piece}\n")
        (root / f"n{i}.txt").write_text("".join(parts), encoding="utf-8")
        (root / f"n{i}.ann").write_text("".join(anns), encoding="utf-8")
    cfg = tmp_path / "es.yaml"
    cfg.write_text(yaml.safe_dump({"train": [f"brat:{root}"], "features": "byo", "resources": {"language": "es"},
                                   "crf": {"max_iterations": 30}, "decoding": {"o_threshold": None}}),
                   encoding="utf-8")
    assert main(["train", "--config", str(cfg), "--output", str(tmp_path / "m"), "--quiet"]) == 0
    model = Model.load(tmp_path / "m")
    text = "Paciente: Raúl Gómez Sexo: H. Vive en Ourense, OR. Pasa a quirófano (OR) mañana."
    item = model._item(text)
    labels, p_out, _ = model._label([item], None)[0]
    crf = list(model._crf_spans(item[1], labels, p_out))
    tagged = model.tag_text(text).spans
    got = [(text[s.start:s.end], s.subtype) for s in tagged]
    assert ("OR.", "Provincia") in got and ("H", "Sexo") in got
    assert not any(s.subtype in ("STATE", "CITY") for s in tagged)
    # what the chain gives equals the chain without the issue-34 steps, for this model's notes
    before = Chain([(n, p) for n, p in model.chain.steps if n != "trim_punctuation.v1"])
    note = Note(item[0], english=False, scheme=model.scheme)
    assert model.chain.run(note, crf) == before.run(note, crf)
    # and the English chain would have trimmed the province's full stop
    english = build_chain(["trim_punctuation.v1"])
    assert [(text[s.start:s.end], s.subtype) for s in english.run(Note(item[0]), crf)
            if s.subtype == "Provincia"] == [("OR", "Provincia")]
