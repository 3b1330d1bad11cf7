"""Stress corpora (Sibanda & Uzuner 2006) on synthetic notes: names and places re-surrogated."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest

from crfdeid.cli.corpus import main as corpus_main
from crfdeid.deid.stress import STRESSED, Stressor, dictionary_words, kept_words, outside_text
from crfdeid.document import Document, make_span
from crfdeid.io import read
from crfdeid.synth import generate

WORD = re.compile(r"[A-Za-z]+")


@pytest.fixture(scope="module")
def synth():
    return generate(30, seed=5)


def stressed_words(doc):
    """(category, word) of every replaced name or place word of a document."""
    return [(sp.category, w) for sp in doc.spans if sp.category in STRESSED and sp.subtype != "USERNAME"
            for w in WORD.findall(doc.surface(sp)) if w.lower() not in kept_words()]


@pytest.fixture(scope="module", params=["unknown", "ambiguous"])
def pair(request, synth):
    s = Stressor(request.param, synth, seed=3)
    return request.param, synth, [s.stress(d) for d in synth]


def test_everything_but_names_and_places_is_kept(pair):
    _, old, new = pair
    for a, b in zip(old, new):
        assert b.doc_id == a.doc_id and len(b.spans) == len(a.spans)
        assert outside_text(a) == outside_text(b)
        assert a.text.count("\n") == b.text.count("\n")
        for sa, sb in zip(a.spans, b.spans):
            assert (sa.category, sa.subtype) == (sb.category, sb.subtype)
            if sa.category not in STRESSED:
                assert a.surface(sa) == b.surface(sb)
    changed = sum(a.surface(sa) != b.surface(sb) for a, b in zip(old, new)
                  for sa, sb in zip(a.spans, b.spans))
    assert changed > 100  # synthetic notes are dense in names and places


def test_capitalisation_is_kept(pair):
    _, old, new = pair
    for a, b in zip(old, new):
        for sa, sb in zip(a.spans, b.spans):
            wa, wb = WORD.findall(a.surface(sa)), WORD.findall(b.surface(sb))
            assert len(wa) == len(wb)
            for x, y in zip(wa, wb):
                if len(x) > 1:
                    assert (x.isupper(), x.islower(), x[0].isupper()) == (y.isupper(), y.islower(), y[0].isupper())


def test_a_word_is_replaced_the_same_way_for_the_same_patient(pair):
    _, old, new = pair
    seen = defaultdict(set)
    for a, b in zip(old, new):
        for sa, sb in zip(a.spans, b.spans):
            if sa.category in STRESSED and sa.subtype != "USERNAME":
                for x, y in zip(WORD.findall(a.surface(sa)), WORD.findall(b.surface(sb))):
                    seen[(a.group, sa.category, x.lower())].add(y.lower())
    assert seen and all(len(v) == 1 for v in seen.values())


def test_unknown_words_are_in_no_dictionary_nor_in_the_notes(synth):
    s = Stressor("unknown", synth, seed=3)
    new = [s.stress(d) for d in synth]
    corpus = {w.lower() for d in synth for w in WORD.findall(d.text)}
    words = [w for d in new for _, w in stressed_words(d) if len(w) > 1]
    assert len(words) > 100
    assert not {w.lower() for w in words} & dictionary_words()
    assert not {w.lower() for w in words if len(w) > 2} & corpus
    # about the original length (the generator keeps the length distribution)
    olds = [w for d in synth for _, w in stressed_words(d) if len(w) > 2]
    news = [w for d in new for _, w in stressed_words(d) if len(w) > 2]
    assert abs(sum(map(len, olds)) / len(olds) - sum(map(len, news)) / len(news)) < 1.0


def test_ambiguous_words_are_used_both_ways_in_the_output(synth):
    s = Stressor("ambiguous", synth, seed=3)
    new = [s.stress(d) for d in synth]
    plain = {w.lower() for d in new for piece in outside_text(d) for w in WORD.findall(piece)}
    words = {w.lower() for d in new for _, w in stressed_words(d)}
    assert len(words) > 20
    assert words <= plain


@pytest.mark.slow
def test_seed_makes_copies_reproducible(synth):
    one = [Stressor("unknown", synth, seed=1).stress(d).text for d in synth[:5]]
    assert one == [Stressor("unknown", synth, seed=1).stress(d).text for d in synth[:5]]
    assert one != [Stressor("unknown", synth, seed=2).stress(d).text for d in synth[:5]]


def test_ambiguous_needs_plain_words_that_are_names():
    docs = [Document("100-01", "Seen by Zork.", [make_span(8, 12, "DOCTOR")])]
    with pytest.raises(Exception, match="no plain word"):
        Stressor("ambiguous", docs, seed=1)


def test_command_writes_i2b2_and_other_formats(synth, tmp_path, capsys):
    from crfdeid.io import write
    write(synth, "i2b2", tmp_path / "in")
    assert corpus_main(["stress", "--kind", "unknown", f"i2b2:{tmp_path / 'in'}", "--out",
                        str(tmp_path / "out"), "--seed", "3", "-q"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["notes"] == 30 and summary["failed"] == 0 and summary["words_replaced"] > 100
    back = {d.doc_id: d for d in read(f"i2b2:{tmp_path / 'out'}")}
    assert set(back) == {d.doc_id for d in synth}
    for d in synth:
        assert outside_text(back[d.doc_id]) == outside_text(d)
    (tmp_path / "key").write_text("a-secret-key-of-32-characters-xx\n")
    assert corpus_main(["stress", "--kind", "ambiguous", f"i2b2:{tmp_path / 'in'}", "--to", "jsonl",
                        "--out", str(tmp_path / "a.jsonl"), "--key-file", str(tmp_path / "key"), "-q"]) == 0
    assert len(list(read(f"jsonl:{tmp_path / 'a.jsonl'}"))) == 30
    # an existing output file is not replaced without --overwrite (reported, exit 1); never inside the input
    again = ["stress", "--kind", "unknown", f"i2b2:{tmp_path / 'in'}", "--seed", "4", "-q"]
    before = {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}
    assert corpus_main(again + ["--out", str(tmp_path / "out")]) == 1
    assert before == {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}
    assert corpus_main(again + ["--out", str(tmp_path / "out"), "--overwrite"]) == 0
    assert before != {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}
    assert corpus_main(again + ["--out", str(tmp_path / "in" / "x")]) == 2


@pytest.mark.slow
def test_training_replaces_a_share_of_the_words_or_adds_copies(synth):
    from crfdeid.deid.stress import augmenter
    olds = [w for d in synth for _, w in stressed_words(d)]
    half = [v for d in synth for v in augmenter(0.5, "replace", seed=1)(d)]
    assert [d.doc_id for d in half] == [d.doc_id for d in synth]
    kept = sum(a == b for d0, d1 in zip(synth, half)
               for (_, a), (_, b) in zip(stressed_words(d0), stressed_words(d1)))
    assert 0.2 * len(olds) < kept < 0.8 * len(olds)
    add = augmenter(1.0, "add", seed=1)
    for d in synth[:4]:
        same, copy = add(d)
        assert same is d and copy.doc_id == d.doc_id + "~unknown" and copy.group == d.group
        assert all(w.lower() not in dictionary_words() for _, w in stressed_words(copy) if len(w) > 1)


def test_a_model_trains_with_unknown_words_and_counts_o_words_on_the_originals(synth):
    from crfdeid.crf import train_model
    cfg = {"features": "no_dict", "crf": {"max_iterations": 5}, "seed": 1,
           "decoding": {"o_threshold": 0.9, "o_words_min_count": 1},
           "training": {"unknown_share": 1.0, "unknown_mode": "add"}}
    model = train_model(synth[:10], cfg)
    assert model.stats["documents"] == 20
    plain = train_model(synth[:10], {**cfg, "training": {"unknown_share": 0.0}})
    assert model.o_words == plain.o_words


@pytest.mark.parametrize("training, message", [
    ({"unknown_share": 1.5}, "unknown_share"), ({"unknown_mode": "copy"}, "unknown_mode"),
    ({"share": 0.5}, "training.")])
def test_training_options_are_validated(training, message):
    from crfdeid.config import load_config
    from crfdeid.errors import ConfigError
    with pytest.raises(ConfigError, match=message):
        load_config({"training": training})


def test_oov_template_marks_words_in_no_list():
    from crfdeid.features.identity import oov
    assert oov("Smith") == {} and oov("hospital") == {}
    assert oov("Qorvesh") == {"oov": "Xx"} and oov("QORVESH") == {"oov": "X"} and oov("qorvesh") == {"oov": "x"}
