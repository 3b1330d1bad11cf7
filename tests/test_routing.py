"""The routed model (crfdeid.routing): two CRFs in one file and a learned router choosing per note.

A tiny routed model trains from configs in a temporary folder (few synthetic notes, few CRF
iterations): it sends a made-up operative note to its specialty member and a made-up nursing
note to its ICU member, round-trips through its file, copies a member's file byte for byte,
refuses a damaged file, and ``tag`` counts the notes each member read (``--route`` forces one).
"""

from __future__ import annotations

import itertools
import json
import math
import pickle
import random
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from routed_kit import NURSING, OPERATIVE, write_configs

from crfdeid.cli import tag
from crfdeid.cli import train as train_cli
from crfdeid.config import load_config
from crfdeid.document import Document
from crfdeid.errors import ConfigError, ModelError
from crfdeid.experiments import madeup
from crfdeid.routing import RoutedModel
from crfdeid.routing.router import LENGTH, READ_WORDS, Router, _windows, length_value, note_features
from crfdeid.tagging import modelfile
from crfdeid.tagging.model import DEFAULT_MODEL, TaggingModel
from crfdeid.tagging.session import Session


@pytest.fixture(scope="module")
def trained(routed_model):
    """``(folder, model file)`` of a tiny routed model trained by ``python -m crfdeid train``."""
    return routed_model


def test_routes_an_operative_note_to_specialty_and_a_nursing_note_to_icu(trained):
    model = TaggingModel.load(trained[1])
    assert isinstance(model, RoutedModel)
    assert model.router.p_other(OPERATIVE) > 0.5 > model.router.p_other(NURSING)
    docs = list(model.tag_many([Document("op", OPERATIVE), Document("nurse", NURSING)]))
    assert [d.meta["route"] for d in docs] == ["specialty", "icu"]
    assert model.counts == {"specialty": 1, "icu": 1}


def test_forced_sends_every_note_to_one_member_and_refuses_an_unknown_one(trained):
    model = TaggingModel.load(trained[1]).forced("specialty")
    assert {model.tag_text(t).meta["route"] for t in (OPERATIVE, NURSING)} == {"specialty"}
    assert model.forced("auto").tag_text(NURSING).meta["route"] == "icu"
    with pytest.raises(ConfigError, match="unknown route"):
        model.forced("ent")


def test_without_o_words_every_member_tags_without_them_and_the_callers_model_keeps_them(trained):
    model = TaggingModel.load(trained[1])
    kept = {name: m.o_words for name, m in model.members.items()}
    assert all(kept.values())
    session = Session(model, "spans", o_words=False)
    assert all(m.o_words == frozenset() for m in session.model.members.values())
    assert {name: m.o_words for name, m in model.members.items()} == kept


def test_a_pickled_copy_tags_alike_with_its_route_and_o_words(trained):
    model = TaggingModel.load(trained[1]).forced("icu")
    model.o_words = frozenset({"vicryl"})
    copy = pickle.loads(pickle.dumps(model))
    assert copy.route == "icu" and all(m.o_words == {"vicryl"} for m in copy.members.values())
    assert copy.tag_text(OPERATIVE).spans == model.tag_text(OPERATIVE).spans


def test_each_note_gets_the_spans_of_its_member_alone(trained):
    model = TaggingModel.load(trained[1])
    for text, name in ((OPERATIVE, "specialty"), (NURSING, "icu")):
        alone = TaggingModel.from_bytes(model.member_file(name)).tag_text(text)
        assert model.tag_text(text).spans == alone.spans


def test_round_trip_keeps_the_file_and_the_spans(trained, tmp_path):
    model = TaggingModel.load(trained[1])
    again = TaggingModel.load(model.save(tmp_path / "again.model"))
    assert again.to_bytes() == trained[1].read_bytes()
    assert again.router == model.router
    assert [again.tag_text(t).spans for t in (OPERATIVE, NURSING)] == [model.tag_text(t).spans
                                                                       for t in (OPERATIVE, NURSING)]


def test_a_member_copied_from_a_model_file_is_that_file_byte_for_byte(trained, tmp_path):
    folder, routed = trained
    icu = TaggingModel.load(routed).member_file("icu")
    (tmp_path / "icu.model").write_bytes(icu)
    config = write_configs(tmp_path, icu="{config: icu.yaml, model: icu.model}")
    (tmp_path / "icu.yaml").write_text((folder / "icu.yaml").read_text())
    assert train_cli.main(["--config", str(config), "--output", str(tmp_path / "r.model"), "--quiet"]) == 0
    model = TaggingModel.load(tmp_path / "r.model")
    assert model.member_file("icu") == icu
    assert model.stats["members"]["icu"]["copied_from"].endswith("icu.model")


def test_a_copied_member_of_another_config_is_refused(trained, tmp_path):
    (tmp_path / "icu.model").write_bytes(TaggingModel.load(trained[1]).member_file("icu"))
    config = write_configs(tmp_path, icu="{config: specialty.yaml, model: icu.model}")
    assert train_cli.main(["--config", str(config), "--output", str(tmp_path / "r.model"), "--quiet"]) == 1
    assert not (tmp_path / "r.model").exists()


def test_a_copied_member_takes_its_configs_threshold_and_refuses_other_o_words(trained, tmp_path):
    """``decoding``'s tagging keys are free in a copied member: the same CRF and o-words, the config's
    threshold; the o-words, counted at training, must be the file's."""
    import hashlib
    icu = TaggingModel.load(trained[1]).member_file("icu")
    (tmp_path / "icu.model").write_bytes(icu)
    config = write_configs(tmp_path, icu="{config: lower.yaml, model: icu.model}")
    member_yaml = (tmp_path / "icu.yaml").read_text()
    assert "o_threshold: 0.9" in member_yaml
    (tmp_path / "lower.yaml").write_text(member_yaml.replace("o_threshold: 0.9", "o_threshold: 0.5"))
    assert train_cli.main(["--config", str(config), "--output", str(tmp_path / "r.model"), "--quiet"]) == 0
    model, source = TaggingModel.load(tmp_path / "r.model"), TaggingModel.from_bytes(icu)
    member = model.members["icu"]
    assert member.config["decoding"] == {**source.config["decoding"], "o_threshold": 0.5}
    assert modelfile.parse(model.member_file("icu"))[1] == modelfile.parse(icu)[1] and member.o_words == source.o_words
    stats = model.stats["members"]["icu"]
    assert stats["sha256"] == hashlib.sha256(icu).hexdigest() and stats["decoding_from"].endswith("lower.yaml")
    docs = [Document("n", NURSING), Document("o", OPERATIVE)]
    assert [d.spans for d in member.tag_many(docs)] == [d.spans for d in source.tag_many(docs, 0.5)]
    (tmp_path / "count.yaml").write_text(member_yaml.replace("o_words_min_count: 2", "o_words_min_count: 3"))
    config = write_configs(tmp_path, icu="{config: count.yaml, model: icu.model}")
    assert train_cli.main(["--config", str(config), "--output", str(tmp_path / "c.model"), "--quiet"]) == 1
    assert not (tmp_path / "c.model").exists()


def test_a_damaged_member_is_refused(trained, tmp_path):
    data = bytearray(trained[1].read_bytes())
    data[-100] ^= 0x01  # inside the last member's CRF
    (tmp_path / "bad.model").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="checksum"):
        TaggingModel.load(tmp_path / "bad.model")


def test_tag_summary_counts_the_notes_of_each_member_and_route_forces_one(trained, tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "op.txt").write_text(OPERATIVE)
    (notes / "nurse.txt").write_text(NURSING)
    assert tag.main([str(notes), "--model", str(trained[1]), "--output-format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    assert "notes by member: icu 1, specialty 1" in err
    assert "Halvorsen" not in err and "jejunum" not in err  # counts only, never note text
    assert {json.loads(line)["meta"]["route"] for line in out.splitlines()} == {"icu", "specialty"}
    assert tag.main([str(notes), "--model", str(trained[1]), "--output-format", "jsonl", "--route", "icu"]) == 0
    assert "notes by member: icu 2" in capsys.readouterr().err
    assert tag.main([str(notes), "--model", str(trained[1]), "--output-format", "jsonl", "--route", "ent"]) == 2
    assert "unknown route 'ent'" in capsys.readouterr().err


def _one_crf(tmp_path):
    """The shipped model's ICU CRF as a file of its own (the shipped file is routed)."""
    path = tmp_path / "icu.model"
    path.write_bytes(modelfile.member_of(DEFAULT_MODEL.read_bytes())[1])
    return str(path)


def test_a_route_in_a_notes_meta_is_not_counted_for_a_model_of_one_member(tmp_path, capsys):
    (tmp_path / "n.jsonl").write_text(json.dumps({"id": "n", "text": NURSING, "meta": {"route": "mine"}}) + "\n")
    assert tag.main([f"jsonl:{tmp_path / 'n.jsonl'}", "--output-format", "jsonl", "--model", _one_crf(tmp_path)]) == 0
    assert "notes by member" not in capsys.readouterr().err


def test_route_is_refused_for_a_model_of_one_member(tmp_path, capsys):
    (tmp_path / "n.txt").write_text(NURSING)
    assert tag.main([str(tmp_path / "n.txt"), "--output-format", "jsonl", "--route", "icu",
                     "--model", _one_crf(tmp_path)]) == 2
    assert "not a routed model" in capsys.readouterr().err


@pytest.mark.parametrize("override, message", [
    ({"model": "crf"}, "routing is for model: routed"),
    ({"routing": {"threshold": 1.5}}, "routing.threshold"),
    ({"routing": {"default": "ent"}}, "unknown routing.default"),
    ({"train": ["synth:5,1"]}, "no train, companion or prior"),
    ({"routing": {"notes": {"icu": []}}}, "routing.notes"),
    ({"routing": {"members": {"ent": "icu.yaml"}}}, "two members"),
    ({"routing": {"router": {"features": "note_words.v9"}}}, "routing.router.features"),
])
def test_a_bad_routing_config_is_refused(tmp_path, override, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write_configs(tmp_path), override)


def test_router_weights_are_data_and_never_a_word_of_phi(trained):
    model = TaggingModel.load(trained[1])
    entry = model.manifest["router"]
    assert Router.from_dict(json.loads(json.dumps(entry))) == model.router
    assert all(w >= 0 for w in entry["weights"].values())
    assert note_features("Dr Halvorsen sutured", [(3, 12)]) == {"w:dr", "w:sutured"}
    with pytest.raises(ModelError, match="router"):
        Router.from_dict({**entry, "threshold": "high"})


def test_pairs_of_words_are_features_and_never_span_a_word_of_phi():
    assert note_features("closed with Vicryl", features="note_words.v1") == {"w:closed", "w:with", "w:vicryl"}
    assert note_features("closed with Vicryl") == {"w:closed", "w:with", "w:vicryl", "b:closed_with",
                                                   "b:with_vicryl"}
    # no pair across a hyphen, a digit or a word of a PHI span
    assert note_features("Roux-en-Y by Dr Lee today", [(16, 19)]) == {
        "w:roux", "w:en", "w:by", "w:dr", "w:today", "b:by_dr"}


def _features_one_match_at_a_time(text, skip, features):
    """The router's features as its first reader took them: one regular-expression match at a time."""
    spans, out, i, prev = sorted(skip), set(), 0, None
    for m in itertools.islice(re.finditer(r"[^\W\d_]{2,}", text), READ_WORDS):
        while i < len(spans) and spans[i][1] <= m.start():
            i += 1
        if i < len(spans) and spans[i][0] < m.end():
            prev = None
            continue
        word = m.group().lower()
        out.add("w:" + word)
        if features != "note_words.v1" and prev is not None and not text[prev[1]:m.start()].strip():
            out.add(f"b:{prev[0]}_{word}")
        prev = (word, m.end())
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Dr", "lee", "ÉLAN", "x", "Roux", "-", "en", "3", "0", "_", " ", "  ", "\n", "\t",
                                 ".", "ß", "Öl", "ñu"]), max_size=60),
       st.lists(st.tuples(st.integers(0, 120), st.integers(0, 30)), max_size=6),
       st.sampled_from(["note_words.v1", "note_words.v2", "note_words.v3"]))
def test_the_routers_words_and_pairs_are_those_read_one_match_at_a_time(pieces, skip, features):
    text = "".join(pieces)
    skip = [(a, a + n) for a, n in skip]
    assert note_features(text, skip, features) == _features_one_match_at_a_time(text, skip, features)


def test_the_router_reads_the_first_words_alone():
    text = " ".join("w" + "".join(chr(97 + k // 26 ** j % 26) for j in range(3)) for k in range(READ_WORDS + 50))
    assert note_features(text) == _features_one_match_at_a_time(text, [], "note_words.v2")
    assert len({f for f in note_features(text) if f.startswith("w:")}) == READ_WORDS


def test_a_router_of_words_alone_still_loads_and_reads_words_alone():
    entry = {"features": "note_words.v1", "default": "icu", "other": "specialty", "threshold": 0.5,
             "bias": -1.0, "weights": {"w:vicryl": 3.0, "b:with_vicryl": 50.0}}
    router = Router.from_dict(entry)
    assert router.features == "note_words.v1" and router.to_dict()["features"] == "note_words.v1"
    assert router.p_other("closed with vicryl") == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert Router.from_dict({**entry, "features": "note_words.v2"}).p_other("closed with vicryl") > 0.99
    with pytest.raises(ModelError, match="feature set"):
        Router.from_dict({**entry, "features": "note_words.v9"})


# -- short and huge notes (docs/synth.md, "Routed model: short and huge notes") -------------------

def test_the_shipped_router_sends_short_specialty_notes_to_specialty_and_short_icu_notes_to_icu():
    # made-up set short (written before the short router): its 3-line Roux-en-Y bypass note went to
    # the ICU CRF, which took the Y of Roux-en-Y for a name
    model = TaggingModel.load(DEFAULT_MODEL)
    notes = {d.doc_id: d for d in madeup.read_notes("short")}
    assert model.router.short is not None
    routes = {i: model.choose(d.text) for i, d in notes.items()}
    assert routes["spec_us_op_rygb"] == "specialty"
    assert sum(r == "specialty" for i, r in routes.items() if i.startswith("spec_")) >= 4
    assert all(r == "icu" for i, r in routes.items() if i.startswith("icu_"))
    op = notes["spec_us_op_rygb"].text
    tagged = model.tag_text(op)
    roux = op.index("Roux-en-Y")
    assert tagged.meta["route"] == "specialty"
    assert not any(sp.start < roux + 9 and roux < sp.end for sp in tagged.spans)  # the procedure is kept


def test_a_huge_note_is_routed_in_bounded_time_as_its_first_words_are():
    model = TaggingModel.load(DEFAULT_MODEL)
    unit = "Closed with Vicryl by Dr Lee, pt resting in bed; "
    huge = unit * (20 * 2**20 // len(unit))  # 20 MB on one line: read whole, about 5 s
    prefix = unit * (READ_WORDS // 9 + 1)  # nine words a unit: a few words more than are read
    t0 = time.perf_counter()
    p = model.router.p_other(huge)
    assert time.perf_counter() - t0 < 1.0
    assert p == model.router.p_other(prefix) and model.choose(huge) == model.choose(prefix)
    assert note_features(huge) == note_features(prefix)


def test_a_short_router_reads_short_notes_alone_and_round_trips():
    long_entry = {"features": "note_words.v2", "default": "icu", "other": "specialty", "threshold": 0.9,
                  "bias": -3.0, "weights": {"w:vicryl": 2.0}}
    short = {"words": 5, "features": "note_words.v3", "default": "icu", "other": "specialty", "threshold": 0.6,
             "bias": 0.0, "weights": {"w:vicryl": 1.0, LENGTH: -1.0}}
    router = Router.from_dict({**long_entry, "short": short})
    assert Router.from_dict(json.loads(json.dumps(router.to_dict()))) == router
    assert router.p_other("closed with vicryl") == pytest.approx(1 / (1 + math.exp(-(1.0 - length_value(3)))))
    assert router.choose("closed with vicryl") == "specialty"  # 0.69 > 0.6, the short router's threshold
    six = "the wound was closed with vicryl"
    assert router.p_other(six) == pytest.approx(1 / (1 + math.exp(1.0)))
    assert router.choose(six) == "icu"
    for bad in ({**short, "words": 0}, {**short, "other": "ent"}, {**short, "short": short}):
        with pytest.raises(ModelError, match="short router"):
            Router.from_dict({**long_entry, "short": bad})


def test_short_windows_are_stretches_of_whole_lines_drawn_the_same_every_time():
    doc = Document("n", "".join(f"line {i} of the note\n" for i in range(30)))
    first = _windows(doc, 3, random.Random(0))
    assert first == _windows(doc, 3, random.Random(0)) and len(first) == 3 and first[0][0] == 0
    for a, b in first:
        lines = doc.text[a:b].splitlines()
        assert 2 <= len(lines) <= 10 and doc.text[a:b].endswith("\n") and (a == 0 or doc.text[a - 1] == "\n")
    assert _windows(Document("n", "one line\ntwo\n"), 2, random.Random(0)) == []


@pytest.mark.parametrize("short, message", [
    ({"words": 0}, "routing.short.words"),
    ({"threshold": 1.5}, "routing.short.threshold"),
    ({"features": "note_words.v9"}, "routing.short.features"),
    ({"lines": 3}, "routing.short"),
])
def test_a_bad_short_router_config_is_refused(tmp_path, short, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write_configs(tmp_path), {"routing": {"short": short}})
