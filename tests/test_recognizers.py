"""The recognizer interface and its members: rules, lexicon, Presidio, spaCy, another model."""

from __future__ import annotations

import pytest

from crfdeid.errors import ConfigError
from crfdeid.recognizers import rules
from crfdeid.recognizers.base import EXTRAS, RECOGNIZERS, Detection, Recognizer, build_recognizer, detections

NOTE = "Seen by Dr. Okafor on 03/14/2098. Daughter Marisol drove in from Topeka; call 617-555-0199."


def _found(rec, text=NOTE):
    return [(text[d.span.start:d.span.end], d.span.subtype) for d in rec.find(text)]


def test_unknown_recognizer_lists_the_known_ones():
    with pytest.raises(ConfigError, match=r"unknown recognizer 'nope.v1'; known: crf.v1, lexicon.v1, "
                                          r"presidio.v1, rules.v1, spacy.v1"):
        build_recognizer("nope.v1")


def test_a_missing_extra_is_named(monkeypatch):
    monkeypatch.setitem(EXTRAS, "rules.v1", ("imaginary", ("crfdeid_no_such_module",)))
    with pytest.raises(ConfigError, match=r"needs crfdeid_no_such_module: install the extra with "
                                          r"pip install .*\[imaginary\]'"):
        build_recognizer("rules.v1")


def test_options_the_factory_does_not_take_are_a_config_error():
    with pytest.raises(ConfigError, match="lexicon.v1"):
        build_recognizer({"name": "lexicon.v1", "colour": "red"})


def test_rules_member_finds_what_the_rules_find():
    rec = build_recognizer("rules.v1")
    assert [d.span for d in rec.find(NOTE)] == rules.find(NOTE)
    assert all(d.confidence == 1.0 for d in rec.find(NOTE))


def test_lexicon_finds_listed_names_and_places_not_plain_words():
    rec = build_recognizer("lexicon.v1")
    assert _found(rec) == [("Okafor", "PATIENT"), ("Marisol", "PATIENT"), ("Topeka", "CITY")]
    # "hope" and "bell" are plain words: a dictionary cannot tell them from names in lower case
    assert _found(rec, "pt has hope, call bell in reach") == []
    assert _found(rec, "Transferred from San Diego") == [("San Diego", "CITY")]  # the longest phrase


def test_lexicon_lists_are_configurable():
    rec = build_recognizer({"name": "lexicon.v1", "lists": {"STATE": ["states"]}})
    assert _found(rec, "Marisol moved to Kansas") == [("Kansas", "STATE")]
    with pytest.raises(ConfigError, match="unknown gazetteer 'planets'"):
        build_recognizer({"name": "lexicon.v1", "lists": {"CITY": ["planets"]}}).find("x")


def test_detections_trim_white_space_and_keep_the_first_of_overlapping_ones():
    text = " Marisol Okafor "
    got = detections(text, [(0, 9, "PATIENT"), (5, 16, "DOCTOR"), (9, 16, "DOCTOR", 0.5), (3, 3, "DATE")])
    assert [(text[d.span.start:d.span.end], d.span.subtype, d.confidence) for d in got] == [
        ("Marisol", "PATIENT", 1.0), ("Okafor", "DOCTOR", 0.5)]


def test_crf_member_is_the_shipped_model():
    rec = build_recognizer("crf.v1")
    found = rec.find("Seen by Dr. Lee on 7/22/2098.")
    assert [d.span.subtype for d in found] == ["DOCTOR", "DATE"]
    assert all(0 < d.confidence <= 1 for d in found)


def test_presidio_pattern_recognizers_need_no_spacy_model():
    pytest.importorskip("presidio_analyzer")
    rec = build_recognizer("presidio.v1")
    got = _found(rec, "Mail jo@example.com or call 617-555-0199 from 10.1.2.3")
    assert ("jo@example.com", "EMAIL") in got and ("617-555-0199", "PHONE") in got and ("10.1.2.3", "IPADDR") in got
    only = build_recognizer({"name": "presidio.v1", "entities": ["EMAIL_ADDRESS"]})
    assert _found(only, "Mail jo@example.com or call 617-555-0199") == [("jo@example.com", "EMAIL")]


def test_presidio_label_map_refuses_unknown_subtypes():
    pytest.importorskip("presidio_analyzer")  # without it the member says which extra to install
    with pytest.raises(ConfigError, match="unknown subtype 'PLANET'"):
        build_recognizer({"name": "presidio.v1", "labels": {"URL": "PLANET"}})


def test_spacy_member_needs_a_pipeline():
    pytest.importorskip("spacy")
    with pytest.raises(ConfigError, match="needs 'pipeline'"):
        build_recognizer("spacy.v1")
    with pytest.raises(ConfigError, match="cannot load the spaCy pipeline"):
        build_recognizer({"name": "spacy.v1", "pipeline": "/nonexistent/pipeline"}).find("x")


@pytest.mark.slow
def test_spacy_member_runs_a_pipeline_trained_offline(tmp_path):
    spacy = pytest.importorskip("spacy")
    from spacy.training import Example
    spacy.util.fix_random_seed(0)  # the tiny pipeline's weights start the same in every run
    nlp = spacy.blank("en")
    nlp.add_pipe("ner").add_label("PERSON")
    # made-up sentences: a name after "Dr." is a PERSON
    train = [(f"Seen by Dr. {n} today.", [(12, 12 + len(n), "PERSON")])
             for n in ("Okafor", "Lindqvist", "Varga", "Halvorsen", "Zelnik", "Brandt")]
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in train]
    nlp.initialize(lambda: examples)
    for _ in range(30):
        nlp.update(examples, drop=0.0)
    nlp.to_disk(tmp_path / "pipe")
    rec = build_recognizer({"name": "spacy.v1", "pipeline": str(tmp_path / "pipe")})
    assert _found(rec, "Seen by Dr. Okafor today.") == [("Okafor", "PATIENT")]
    assert [[d.span.subtype for d in f] for f in rec.find_many(["Seen by Dr. Varga today.", "none"])] == [
        ["PATIENT"], []]


def test_a_recognizer_of_your_own():
    @RECOGNIZERS.register("test-shouting.v1")
    class Shouting(Recognizer):
        def find(self, text):
            return detections(text, [(i, i + 5, "PATIENT") for i in range(len(text)) if text.startswith("HELLO", i)])

    try:
        rec = build_recognizer("test-shouting.v1")
        assert rec.name == "test-shouting.v1"
        assert rec.find("say HELLO") == [Detection(rec.find("say HELLO")[0].span, 1.0)]
        assert rec.spans("say HELLO")[0].start == 4
    finally:
        RECOGNIZERS._items.pop("test-shouting.v1")


def test_zero_shot_experiment_scores_a_member_and_a_model(tmp_path):
    import json

    from crfdeid.cli.experiments import main as experiments
    main = lambda argv: experiments(["zero-shot", *argv])  # noqa: E731
    assert main(["--recognizer", "rules.v1", "--corpus", "synth:6,1", "--json", str(tmp_path / "r.json")]) == 0
    got = json.loads((tmp_path / "r.json").read_text())
    run = got["runs"]["rules.v1"]
    assert got["documents"] == 6 and 0 < run["precision"] <= 1 and 0 < run["recall"] < 1
    assert main(["--corpus", "synth:6,1", "--o-thresholds", "default,none,0.5",
                 "--json", str(tmp_path / "m.json")]) == 0
    runs = json.loads((tmp_path / "m.json").read_text())["runs"]
    assert set(runs) == {"default", "none", "0.5"}
    assert runs["0.5"]["tp"] >= runs["none"]["tp"]
