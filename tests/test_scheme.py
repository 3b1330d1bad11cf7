"""Label schemes as data, readers under a scheme, config inputs with reader options, language resources."""

from __future__ import annotations

import pytest
import yaml

from crfdeid import schema
from crfdeid.config import load_config
from crfdeid.document import Document, Span
from crfdeid.errors import ConfigError, SchemaError
from crfdeid.io import read
from crfdeid.labels import decode, encode
from crfdeid.scoring import evaluate
from crfdeid.text.tokenize import tokenize


def test_i2b2_scheme_keeps_the_old_names():
    assert schema.I2B2.parent_of("doctor") == schema.parent_of("DOCTOR") == "NAME"
    assert schema.SUBTYPE_TO_PARENT["OTHER"] == "OTHER" and len(schema.I2B2_SUBTYPES) == 30
    assert schema.I2B2.hipaa_subtypes() == schema.HIPAA_SUBTYPES
    assert "IDNUM" in schema.I2B2.hipaa_subtypes(include_idnum=True)
    assert schema.get(schema.I2B2.to_dict()) == schema.I2B2


@pytest.mark.parametrize("bad,message", [
    ({"labels": {"A": {"colour": 1}}}, "unknown key(s) colour"),
    ({"labels": {"A": {"surrogate": "planet"}}}, "unknown surrogate generator 'planet'; known: age, city"),
    ({"labels": {"A": {}, "a": {}}}, "declared twice"),
    ({"labels": {"A": {"placeholder": "[{nope}]"}}}, "bad redaction template"),
    ({"labels": []}, "non-empty mapping"),
    ({"labels": ["A"], "extra": 1}, "unknown key(s) extra"),
])
def test_declared_scheme_errors(bad, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        schema.Scheme.from_dict(bad)


def test_infer_i2b2_or_the_corpus_labels():
    assert schema.infer([("NAME", "DOCTOR"), ("Location-Other", "Location-Other")]) is schema.I2B2
    own = schema.infer([("Fecha", "Fecha"), ("DOCTOR", "DOCTOR")])
    assert own.subtypes == ("DOCTOR", "Fecha") and own.parent_of("doctor") == "DOCTOR"
    assert not own.has_hipaa
    with pytest.raises(SchemaError, match="differ only in case"):
        schema.infer([("Fecha", "Fecha"), ("FECHA", "FECHA")])
    with pytest.raises(SchemaError, match="two parents"):
        schema.infer([("A", "x"), ("B", "x")])


def test_bio_round_trip_keeps_a_schemes_spelling():
    own = schema.Scheme.from_dict({"labels": {"Nombre": {"parent": "Persona"}}})
    text = "Vio a José Núñez hoy"
    toks = tokenize(text)
    enc = encode(toks, [Span(6, 16, "Persona", "nombre")], scheme=own)
    assert enc.labels == ["O", "O", "B-Nombre", "I-Nombre", "O"]
    assert decode(enc.labels, toks, own) == [Span(6, 16, "Persona", "Nombre")]


def write_brat(folder, text, ann):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.txt").write_text(text, encoding="utf-8")
    (folder / "a.ann").write_text(ann, encoding="utf-8")
    return folder


def test_readers_check_labels_against_their_scheme(tmp_path):
    brat = write_brat(tmp_path / "b", "Vio a José hoy", "T1\tNombre 6 10\tJosé\n")
    with pytest.raises(SchemaError, match="scheme=any"):
        list(read(f"brat:{brat}", scheme="i2b2"))                         # i2b2 when asked
    [doc] = read(f"brat:{brat}", scheme="any")
    assert doc.spans == [Span(6, 10, "Nombre", "Nombre")]
    [doc] = read(f"brat:{brat}")                      # by default the corpus' labels, as the commands
    assert doc.spans == [Span(6, 10, "Nombre", "Nombre")]
    own = schema.Scheme.from_dict({"labels": {"NOMBRE": {"parent": "PERSONA"}}})
    [doc] = read({"format": "brat", "path": str(brat), "scheme": own})  # a mapping input
    assert doc.spans == [Span(6, 10, "PERSONA", "NOMBRE")]
    jsonl = tmp_path / "a.jsonl"
    jsonl.write_text('{"id": "a", "text": "Vio a José", "spans": [{"start": 6, "end": 10, '
                     '"subtype": "Nombre", "category": "Persona"}]}\n', encoding="utf-8")
    assert [d.spans for d in read(f"jsonl:{jsonl}", scheme="any")] == [[Span(6, 10, "Persona", "Nombre")]]
    with pytest.raises(SchemaError):
        list(read(f"jsonl:{jsonl}", scheme="i2b2"))


def test_config_inputs_as_mappings_follow_the_path_rule(tmp_path):
    (tmp_path / "cfg").mkdir()
    write_brat(tmp_path / "notes", "x", "")
    (tmp_path / "cfg" / "map.yaml").write_text("Nombre: DOCTOR\n", encoding="utf-8")
    cfg_file = tmp_path / "cfg" / "c.yaml"
    cfg_file.write_text(yaml.safe_dump({"train": [{"format": "brat", "path": "../notes",
                                                   "label_map": "map.yaml"}]}), encoding="utf-8")
    cfg = load_config(cfg_file)
    assert cfg["train"] == [{"format": "brat", "path": str(tmp_path / "notes"),
                             "label_map": str(tmp_path / "cfg" / "map.yaml")}]
    cfg_file.write_text(yaml.safe_dump({"train": [{"format": "brat", "path": "n", "colour": "red"}]}),
                        encoding="utf-8")
    with pytest.raises(ConfigError, match="does not take colour; it takes: label_map, check_text, scheme"):
        load_config(cfg_file)
    with pytest.raises(ConfigError, match="unknown reader 'bart'"):
        load_config({"train": [{"format": "bart", "path": "n"}]})
    with pytest.raises(ConfigError, match="reader option"):
        load_config({"scheme": "any"})


def test_non_english_config_uses_no_english_list(tmp_path):
    with pytest.raises(ConfigError, match="ships English ones only"):
        load_config({"resources": {"language": "es"}})                     # features: full
    with pytest.raises(ConfigError, match="rule overlay is English"):
        load_config({"resources": {"language": "es"}, "features": "byo", "rules": {"enabled": True}})
    with pytest.raises(ConfigError, match="unknown resources.gazetteers name"):
        load_config({"resources": {"gazetteers": {"planets": ["x"]}}})
    lists = tmp_path / "apellidos.txt"
    lists.write_text("# made-up surnames\nNúñez\nIbáñez\n", encoding="utf-8")
    from crfdeid.crf.model import Model  # noqa: F401  (features registered)
    from crfdeid.features import Featurizer
    from crfdeid.resources import Resources
    es = load_config({"resources": {"language": "es", "gazetteers": {"surnames": str(lists)},
                                    "triggers": {"name": ["dra"]}}})
    assert es["resources"]["gazetteers"] == {"surnames": ["Núñez", "Ibáñez"]}   # read into the config
    fz = Featurizer(es["features"], Resources.from_config(es["resources"]))
    feats = fz.featurize_text("la dra Núñez de Boston")
    assert "g:sur" in feats[2] and "-1:g:sur" not in feats[2]
    assert not any(a.startswith(("g:city", "gp:city")) for a in feats[4])      # no English city list
    assert "trig:name:1" in feats[2]
    en = load_config({})
    assert "g:city" in Featurizer(en["features"]).featurize_text("in Boston")[1]


def test_scores_follow_the_scheme():
    text = "Vio a José el 3/5"
    gold = [Document("a", text, [Span(6, 10, "Persona", "Nombre"), Span(14, 17, "Fecha", "Fecha")])]
    pred = [Document("a", text, [Span(6, 10, "Persona", "Nombre")])]
    own = schema.Scheme.from_dict({"labels": {"Nombre": {"parent": "Persona", "hipaa": True}, "Fecha": {}}})
    r = evaluate(gold, pred, scheme=own)
    assert list(r.by_category) == ["Persona", "Fecha"] and list(r.by_subtype) == ["Nombre", "Fecha"]
    assert r.micro["hipaa_strict"].f1 == 1.0 and "hipaa_strict" in r.by_category["Persona"]
    assert "hipaa_strict" not in r.by_category["Fecha"]
    none = schema.Scheme.from_dict({"labels": {"Nombre": {"parent": "Persona"}, "Fecha": {}}})
    assert not any(m.startswith("hipaa") for m in evaluate(gold, pred, scheme=none).micro)
    from crfdeid.scoring.tables import render
    assert "\nHIPAA\n" not in render(evaluate(gold, pred, scheme=none))
    greek = "Ο Γιώργος ήρθε"
    g = [Document("b", greek, [Span(2, 9, "Persona", "Nombre")])]
    assert evaluate(g, g, scheme=none).micro["token"].tp == 1       # a run in any script
    assert evaluate(g, g, scheme=schema.I2B2).micro["token"].tp == 0  # i2b2: ASCII runs, as the script
    assert evaluate(g, g).micro["token"].tp == 1                    # by default the documents' own labels
