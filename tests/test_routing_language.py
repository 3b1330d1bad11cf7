"""The routed model's language gate (crfdeid.routing.language) and the writer's evidence it shares
(crfdeid.text.language, crfdeid.deid.evidence.foreign, crfdeid.deid.confident.unread_doubt).

A note mostly in another language than English (20 words or more, under 0.6 of them among English's 50,000 most
frequent) never goes to a member the gate names, whatever its router says; the tagged note says so in its meta and
``tag``'s summary counts such notes. In surrogate output, a span of such a note written in one case gets a
placeholder: English's lists and a name's capitals are the writer's evidence of a type, and the note has neither.
All notes here are made up.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from routed_kit import NURSING, write_configs

from crfdeid import _data
from crfdeid.cli import tag
from crfdeid.config import load_config
from crfdeid.deid.confident import unread_doubt
from crfdeid.deid.evidence import foreign
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError, ModelError
from crfdeid.routing.language import LanguageGate
from crfdeid.routing.router import Router
from crfdeid.tagging.model import TaggingModel
from crfdeid.tagging.session import Session
from crfdeid.text.language import MIN_SHARE, MIN_WORDS, share_of, word_list

SPANISH = ("Paciente de 72 años que ingresa en la unidad por disnea progresiva y fiebre de tres días de evolución. "
           "Antecedentes de hipertensión arterial y diabetes mellitus tipo 2 en tratamiento con metformina. "
           "Se solicita radiografía de tórax y hemocultivos; se inicia antibioterapia empírica con ceftriaxona. "
           "Familiar de contacto: su hija, Marisol Quintanar Ybarra, teléfono en la historia.\n")
ENGLISH = ("Patient admitted to the unit overnight with worsening shortness of breath and fever for three days. "
           "History of high blood pressure and type 2 diabetes on metformin. Chest film and blood cultures sent; "
           "started on empirical antibiotics. Daughter, Marisol Quintanar, updated at the bedside this morning.\n")


def test_english_words_are_a_list_with_its_source_and_a_note_in_spanish_holds_few_of_them():
    assert len(word_list("english_words")) == 50000 and {"the", "patient", "bedside"} <= word_list("english_words")
    header = (Path(_data.__file__).parent / "english_words.txt").read_text(encoding="utf-8").splitlines()[:5]
    assert any("wordfreq" in line for line in header) and any("CC BY-SA" in line for line in header)
    spanish, english = share_of(SPANISH), share_of(ENGLISH)
    assert spanish[1] >= MIN_WORDS and spanish[0] < MIN_SHARE <= english[0]
    assert share_of("") == (1.0, 0) and share_of("12 mg 4/5 pt")[1] == 0  # no word of three letters: no language
    with pytest.raises(ValueError, match="unknown word list"):
        word_list("klingon_words")


def test_the_gate_refuses_a_note_in_another_language_of_enough_words_and_round_trips():
    gate = LanguageGate("icu")
    assert gate.refuses(SPANISH) and not gate.refuses(ENGLISH)
    assert not gate.refuses("Paciente estable, sin fiebre.")  # a few words tell no language
    assert LanguageGate.from_dict(json.loads(json.dumps(gate.to_dict())), ("icu", "specialty")) == gate
    for bad in ({**gate.to_dict(), "member": "ent"}, {**gate.to_dict(), "words": "klingon_words"},
                {**gate.to_dict(), "min_share": 1.5}, {**gate.to_dict(), "min_words": True},
                {k: v for k, v in gate.to_dict().items() if k != "min_words"}, ["icu"]):
        with pytest.raises(ModelError, match="language gate"):
            LanguageGate.from_dict(bad, ("icu", "specialty"))


def _router(**language) -> Router:
    """A router that sends every note to ``icu`` (no weight), gated as ``language`` says (nothing: no gate)."""
    entry = {"features": "note_words.v2", "default": "icu", "other": "specialty", "threshold": 0.5,
             "bias": -4.0, "weights": {"w:jejunum": 9.0}}
    if language:
        entry["language"] = {"words": "english_words", "min_share": 0.6, "min_words": 20, **language}
    return Router.from_dict(entry)


def test_a_gated_router_sends_a_note_in_another_language_to_the_other_member_and_says_so():
    assert _router().decide(SPANISH) == ("icu", False)  # no gate: the router's default, as before
    router = _router(member="icu")
    assert router.decide(SPANISH) == ("specialty", True) and router.choose(SPANISH) == "specialty"
    assert router.decide(ENGLISH) == ("icu", False)
    assert router.decide("jejunum " + SPANISH) == ("specialty", False)  # the router's own choice: no gate's
    spec = _router(member="specialty")  # a gate on the member the router did not choose changes nothing
    assert spec.decide(SPANISH) == ("icu", False) and spec.decide("jejunum " + SPANISH) == ("icu", True)
    assert Router.from_dict(json.loads(json.dumps(router.to_dict()))) == router
    assert "language" not in _router().to_dict()  # a router of before the gate reads and writes as before


@pytest.mark.parametrize("language, message", [
    ({"member": "ent"}, "routing.language.member"),
    ({"member": "icu", "words": "klingon_words"}, "routing.language.words"),
    ({"member": "icu", "min_share": 2}, "routing.language.min_share"),
    ({"member": "icu", "min_words": 0}, "routing.language.min_words"),
    ({"member": "icu", "language": "en"}, "routing.language"),
    ("en", "routing.language"),
])
def test_a_bad_language_gate_config_is_refused(tmp_path, language, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write_configs(tmp_path), {"routing": {"language": language}})


def test_a_language_gate_config_takes_its_defaults(tmp_path):
    cfg = load_config(write_configs(tmp_path), {"routing": {"language": {"member": "icu"}}})
    assert cfg["routing"]["language"] == {"member": "icu", "words": "english_words", "min_share": 0.6,
                                          "min_words": 20}
    assert load_config(write_configs(tmp_path))["routing"]["language"] is None


def test_a_routed_model_tags_a_gated_note_with_the_other_member_and_tag_counts_it(routed_model, tmp_path, capsys):
    model = TaggingModel.load(routed_model[1])
    model.router.language = LanguageGate("icu")
    assert model.router.choose(SPANISH) == "specialty" and model.router.choose(NURSING) == "icu"
    docs = list(model.tag_many([Document("es", SPANISH), Document("icu", NURSING)]))
    assert [(d.meta["route"], d.meta.get("route_gate")) for d in docs] == [("specialty", "language"), ("icu", None)]
    assert model.gated == 1 and model.tag(Document("es", SPANISH)).meta["route_gate"] == "language"
    path = tmp_path / "gated.model"
    path.write_bytes(model.to_bytes())
    assert TaggingModel.load(path).router.language == LanguageGate("icu")  # the gate is the file's
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "es.txt").write_text(SPANISH)
    (notes / "icu.txt").write_text(NURSING)
    assert tag.main([str(notes), "--model", str(path), "--output-format", "jsonl"]) == 0
    err = capsys.readouterr().err
    assert "notes by member: icu 1, specialty 1 (1 of them by the language gate)" in err
    assert "Quintanar" not in err and "disnea" not in err  # counts only, never note text


def test_a_span_of_a_note_in_another_language_written_in_one_case_gets_a_placeholder():
    lower, upper = SPANISH.lower(), SPANISH.upper()
    assert foreign(lower) and foreign(SPANISH) and not foreign(ENGLISH.lower())
    at = SPANISH.index("Marisol")
    name, date = make_span(at, at + 25, "PATIENT"), make_span(SPANISH.index("72"), SPANISH.index("72") + 2, "AGE")
    assert unread_doubt(lower, name) == "unread" and unread_doubt(upper, name) == "unread"
    assert unread_doubt(SPANISH, name) is None  # written with capitals: the writer reads a name's shape
    assert unread_doubt(lower, date) is None  # an age or a date has evidence of its own
    e = ENGLISH.lower()
    assert unread_doubt(e, make_span(e.index("marisol"), e.index("marisol") + 17, "PATIENT")) is None
    doc = Document("n", lower, [dataclasses.replace(make_span(at, at + 25, "PATIENT"), confidence=0.99)])
    out = Session(None, "surrogate").writer().transform(doc)
    assert "[**PATIENT**]" in out.text and "quintanar" not in out.text
