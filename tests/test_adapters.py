"""The Presidio recognizer and the spaCy component (skipped without their extras)."""

from __future__ import annotations

import configparser
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import python_examples, run_example
from crfdeid.document import Document, make_span
from crfdeid.errors import ExtraError

ROOT = Path(__file__).parent.parent
NOTE = "Seen by Dr. Lee on 7/22/2098. Call John Smith at 555-123-4567."


@pytest.fixture(scope="module")
def tagged(shipped_model):
    return shipped_model.tag(Document("x", NOTE))


# -- Presidio -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def presidio():
    pytest.importorskip("presidio_analyzer")
    pytest.importorskip("presidio_anonymizer")
    from crfdeid.adapters import presidio
    return presidio


def test_recognizer_results_are_crfdeids_spans(presidio, shipped_model, tagged):
    rec = presidio.CrfdeidRecognizer(shipped_model)
    got = [(r.entity_type, r.start, r.end, r.score, r.recognition_metadata["crfdeid_subtype"])
           for r in rec.analyze(NOTE, entities=None)]
    want = [(presidio.ENTITY_MAP[sp.subtype], sp.start, sp.end, c, sp.subtype)
            for sp, c in zip(tagged.spans, tagged.meta["confidence"])]
    assert got == want and {g[0] for g in got} >= {"PERSON", "DATE_TIME", "PHONE_NUMBER"}
    assert [r.entity_type for r in rec.analyze(NOTE, entities=["DATE_TIME"])] == ["DATE_TIME"]


def test_every_subtype_has_a_presidio_entity(presidio):
    from crfdeid import schema
    assert set(presidio.ENTITY_MAP) == set(schema.SUBTYPE_TO_PARENT)
    rec = presidio.CrfdeidRecognizer(entity_map={"DOCTOR": "CLINICIAN"})
    assert "CLINICIAN" in rec.supported_entities and "PATIENT" in rec.supported_entities


def test_analyzer_and_anonymizer_act_on_crfdeid_results(presidio, shipped_model):
    from presidio_anonymizer import AnonymizerEngine
    engine = presidio.analyzer(shipped_model, with_presidio_recognizers=False)
    results = engine.analyze(text=NOTE, language="en")
    assert {r.recognition_metadata["recognizer_name"] for r in results} == {"CrfdeidRecognizer"}
    out = AnonymizerEngine().anonymize(text=NOTE, analyzer_results=results).text
    assert "Lee" not in out and "7/22/2098" not in out and "<PERSON>" in out


@pytest.mark.slow
def test_presidio_makes_no_network_request(presidio):
    """Run in a fresh process, with every socket connection refused and reported."""
    code = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    print('NETWORK ATTEMPT', flush=True); raise OSError('no network in this test')\n"
        "socket.socket.connect = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from crfdeid.adapters.presidio import analyzer\n"
        "res = analyzer().analyze(text='Mail john@example.com or see http://example.org', language='en')\n"
        "print(sorted(r.entity_type for r in res))\n")
    env = {k: v for k, v in os.environ.items() if k != "TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "EMAIL_ADDRESS" in proc.stdout
    assert "NETWORK ATTEMPT" not in proc.stdout + proc.stderr


# -- spaCy ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def nlp(shipped_model):
    spacy = pytest.importorskip("spacy")
    import crfdeid.adapters.spacy  # noqa: F401 - registers the factory
    nlp = spacy.blank("en")
    nlp.add_pipe("crfdeid")
    return nlp


def test_component_spans_cover_every_phi_character(nlp, shipped_model):
    text = "Seen by Dr. Lee on7/22/2098. Call John Smith at 555-123-4567."
    doc = nlp(text)
    tagged = shipped_model.tag(Document("x", text))
    spans = list(doc.spans["crfdeid"])
    assert [(s._.crfdeid_start, s._.crfdeid_end, s.label_) for s in spans] == \
        [(sp.start, sp.end, sp.subtype) for sp in tagged.spans]
    for s in spans:  # expanded to whole tokens, never shrunk
        assert s.start_char <= s._.crfdeid_start and s._.crfdeid_end <= s.end_char
    date = next(s for s in spans if s.label_ == "DATE")
    assert date.text == "on7/22/2098" and (date._.crfdeid_start, date._.crfdeid_end) == (18, 27)
    assert [(e.start_char, e.end_char) for e in doc.ents] == [(s.start_char, s.end_char) for s in spans]
    assert all(0 < s._.crfdeid_confidence <= 1 and s._.crfdeid_category for s in spans)


def test_component_merges_overlaps_and_keeps_other_entities(nlp):
    component = nlp.get_pipe("crfdeid")
    doc = nlp.make_doc("Mr Smith/Jones visited Paris on 7/22/2098 .")
    doc.ents = [doc.char_span(23, 28, label="GPE"), doc.char_span(3, 8, label="PERSON")]  # Paris, Smith
    tagged = Document("x", doc.text, [make_span(3, 8, "PATIENT"), make_span(6, 14, "PATIENT"),
                                      make_span(32, 41, "DATE")], {"confidence": [0.9, 0.8, 1.0]})
    component._annotate(doc, tagged)
    assert len(doc.spans["crfdeid"]) == 3
    ents = [(e.text, e.label_) for e in doc.ents]
    assert ents == [("Smith/Jones", "PATIENT"), ("Paris", "GPE"), ("7/22/2098", "DATE")]


def test_pipe_in_batches_is_one_by_one(nlp):
    texts = [NOTE, "Nothing to hide here.", "Mary Jones, 45 yo, seen at Boston General."] * 3
    def spans(doc):
        return [(s.start_char, s.end_char, s.label_) for s in doc.spans["crfdeid"]]
    batched = [spans(doc) for doc in nlp.pipe(texts, batch_size=4)]
    single = [spans(nlp(t)) for t in texts]
    assert batched == single and batched[1] == []


def test_component_config_viterbi(shipped_model):
    spacy = pytest.importorskip("spacy")
    import crfdeid.adapters.spacy  # noqa: F401
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("crfdeid", config={"o_threshold": "none", "spans_key": "phi", "set_ents": False})
    doc = nlp(NOTE)
    viterbi = shipped_model.tag(Document("x", NOTE), None)
    assert [(s._.crfdeid_start, s._.crfdeid_end) for s in doc.spans["phi"]] == \
        [(sp.start, sp.end) for sp in viterbi.spans]
    assert pipe.o_threshold is None and list(doc.ents) == []


def test_entry_point_names_the_factory():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    line = cfg["options.entry_points"]["spacy_factories"].strip()
    name, _, target = (part.strip() for part in line.partition("="))
    module, _, attr = target.partition(":")
    assert name == "crfdeid"
    pytest.importorskip("spacy")
    assert callable(getattr(importlib.import_module(module), attr))


@pytest.mark.parametrize("module, missing, extra", [
    ("crfdeid.adapters.spacy", "spacy", "spacy"),
    ("crfdeid.adapters.presidio", "presidio_analyzer", "presidio"),
])
def test_a_missing_extra_is_named_on_import(monkeypatch, module, missing, extra):
    monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, missing, None)
    with pytest.raises(ExtraError, match=rf"pip install .*\[{extra}\]'"):
        importlib.import_module(module)


# -- the documentation's examples -------------------------------------------------------
@pytest.mark.parametrize("code, expected", python_examples(ROOT / "docs" / "adapters.md"))
def test_docs_examples_run_as_written(code, expected):
    pytest.importorskip("spacy")
    if "presidio" in code:
        pytest.importorskip("presidio_analyzer")
    printed = run_example(code)
    if expected is not None:
        assert printed == expected
