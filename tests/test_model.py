"""Training, tagging, recall-oriented decoding and the model file."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from routed_kit import shipped_crf

from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.errors import ModelError
from crfdeid.io import read
from crfdeid.labels import OUTSIDE
from crfdeid.scoring import evaluate
from crfdeid.tagging.model import DEFAULT_MODEL
from crfdeid.tagging.modelfile import MAGIC, parse

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "configs" / "synth-small.yaml"


@pytest.fixture(scope="module")
def train_docs():
    return list(read("synth:40,7"))


@pytest.fixture(scope="module")
def test_docs():
    return list(read("synth:15,99"))


@pytest.fixture(scope="module")
def model(small_model, train_docs):
    """``train_model(train_docs, SMALL)``: the session's (tests/conftest.py), trained on these notes."""
    assert small_model.stats["documents"] == len(train_docs)
    return small_model


def test_training_reports_what_it_saw(model, train_docs):
    s = model.stats
    assert s["documents"] == len(train_docs)
    assert s["tokens"] > 1000 and s["features"] > 0 and 0 < s["iterations"] <= 30
    assert "B-DATE" in model.labels and OUTSIDE in model.labels


def test_tagging_keeps_document_and_finds_phi(model, test_docs):
    tagged = [model.tag(d) for d in test_docs]
    for d, t in zip(test_docs, tagged):
        assert (t.doc_id, t.text) == (d.doc_id, d.text)
        assert len(t.meta["confidence"]) == len(t.spans)
        assert all(0.0 <= c <= 1.0 for c in t.meta["confidence"])
    report = evaluate(test_docs, tagged)
    assert report.micro["binary_token"].recall > 0.6


def test_lower_o_threshold_raises_recall(model, test_docs):
    plain = evaluate(test_docs, [model.tag(d, o_threshold=None) for d in test_docs])
    eager = evaluate(test_docs, [model.tag(d, o_threshold=0.999) for d in test_docs])
    assert eager.micro["binary_token"].recall >= plain.micro["binary_token"].recall
    assert eager.micro["binary_token"].fp > plain.micro["binary_token"].fp


def test_marginals_are_distributions(model, test_docs):
    margs = model.marginals(test_docs[0])
    assert margs and set(margs[0]) == set(model.labels)
    assert all(abs(sum(m.values()) - 1.0) < 1e-6 for m in margs)


def test_save_load_round_trip_tags_identically(model, test_docs, tmp_path):
    path = model.save(tmp_path / "m.model")
    loaded = Model.load(path)
    assert loaded.config == model.config
    assert loaded.manifest["crfdeid_version"] and loaded.manifest["feature_set"]["word"]
    assert [loaded.tag(d).spans for d in test_docs] == [model.tag(d).spans for d in test_docs]


def test_loading_a_model_runs_no_garbage_collection(model, tmp_path):
    # Loading makes long-lived structures and no cycles: the collector's passes over them were a
    # fifth of the load's time (issue 37). It is on again afterwards: its first pass then walks
    # what the load made once (the tag command freezes it first: tests/test_bench.py).
    path = model.save(tmp_path / "m.model")
    runs: list = []

    def seen(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        Model.load(path)
    finally:
        gc.callbacks.remove(seen)
    assert len(runs) <= 1 and gc.isenabled()


@pytest.mark.slow
def test_training_is_bit_for_bit_reproducible(model, train_docs, tmp_path):
    again = train_model(train_docs, SMALL)
    a = model.save(tmp_path / "a.model").read_bytes()
    b = again.save(tmp_path / "b.model").read_bytes()
    assert a == b


@pytest.mark.parametrize("damage", ["magic", "truncate", "flip", "empty", "manifest"])
def test_corrupt_model_file_is_refused_naming_the_file(model, tmp_path, damage):
    path = model.save(tmp_path / "m.model")
    data = bytearray(path.read_bytes())
    if damage == "magic":
        data[:4] = b"JUNK"
    elif damage == "truncate":
        data = data[: len(data) - 100]
    elif damage == "flip":
        data[-50] ^= 0xFF
    elif damage == "empty":
        data = bytearray()
    else:
        data[len(MAGIC) + 10] = ord("{")
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="m.model"):
        Model.load(path)


def test_missing_model_and_incompatible_format(model, tmp_path):
    with pytest.raises(ModelError, match="cannot read"):
        Model.load(tmp_path / "absent.model")
    model.manifest["format"] = 999
    try:
        path = model.save(tmp_path / "future.model")
    finally:
        model.manifest["format"] = 1
    with pytest.raises(ModelError, match="not supported"):
        Model.load(path)


def test_rules_overlay_adds_rule_spans(train_docs):
    from crfdeid.document import Document
    # 20 iterations, not 5: after 5 the CRF can still tag the whole line with one
    # label (which one depends on the synthetic corpus), and the overlay keeps it
    cfg = {"features": "features/lexical.yaml", "rules": {"enabled": True},
           "crf": {"max_iterations": 20}}
    m = train_model(train_docs[:5], cfg)
    doc = Document("x", "zz qq 123-45-6789 ww")
    assert any(s.subtype == "SSN" and (s.start, s.end) == (6, 17) for s in m.tag(doc).spans)


def test_default_model_loads_and_tags():
    if not DEFAULT_MODEL.exists():
        pytest.fail(f"default model missing at {DEFAULT_MODEL}; run `make train`")
    from crfdeid.document import Document
    m = shipped_crf()  # a routed shipped file: its ICU member, trained by configs/icu.yaml
    # a guard against a runaway file: 8.7 MB until learn45 (2026-11-29), whose specialty member's three CRFs hold
    # about 180,000 active attributes each (29.9 MB; docs/history/check44-rule.md)
    assert DEFAULT_MODEL.stat().st_size < 40_000_000
    assert not m.config["train"][0].startswith("physionet")
    from crfdeid.config import load_config
    shipped = load_config(ROOT / "configs" / "icu.yaml")  # default.yaml's CRF settings, key for key
    assert m.config["decoding"] == shipped["decoding"] and m.config["crf"] == shipped["crf"]  # `make train` was run
    assert bool(m.o_words) == bool(shipped["decoding"]["o_words_min_count"])
    t = Model.load().tag(Document("d", "Seen by Dr. Ann Lee on 03/14/2098 at Boston General Hospital."))
    assert {s.category for s in t.spans} >= {"DATE", "NAME"}


def test_loading_a_model_with_rules_loads_their_word_lists():
    from crfdeid.recognizers import rules
    rules._name_words.cache_clear()
    rules._word_check.cache_clear()
    Model.load()  # the default model has rules on
    assert rules._name_words.cache_info().currsize == 1
    assert rules._word_check.cache_info().currsize == len(set(rules.WORD_CHECKS.values()))


def _o_words_model(train_docs, min_count=2, iterations=None):
    from crfdeid.config import load_config
    cfg = load_config(SMALL)
    cfg["decoding"]["o_words_min_count"] = min_count
    if iterations:  # the list does not depend on the CRF: a short training will do
        cfg["crf"]["max_iterations"] = iterations
    return train_model(train_docs, cfg)


@pytest.mark.slow
def test_o_words_are_training_words_never_inside_phi(train_docs):
    from collections import Counter

    from crfdeid.labels import encode
    from crfdeid.tagging.model import tokens_for
    m = _o_words_model(train_docs, iterations=1)
    seen, in_phi = Counter(), set()
    for d in train_docs:
        toks = tokens_for(d.text, True)
        for tok, lab in zip(toks, encode(toks, d.spans).labels):
            seen[tok.text.lower()] += 1
            if lab != OUTSIDE:
                in_phi.add(tok.text.lower())
    assert m.o_words  # the synthetic notes have plenty of plain words
    assert all(w.isalpha() and w == w.lower() for w in m.o_words)
    assert all(seen[w] >= 2 and w not in in_phi for w in m.o_words)
    expected = {w for w, c in seen.items() if w.isalpha() and c >= 2 and w not in in_phi}
    assert m.o_words == expected
    assert not _o_words_model(train_docs, 10 ** 9, iterations=1).o_words
    assert m.manifest["o_words"] == sorted(m.o_words)  # stored in the file, sorted
    assert not _o_words_model(train_docs, None, iterations=1).o_words  # off unless configured


@pytest.mark.slow
def test_o_words_are_not_made_phi_by_the_threshold(o_words_model_file, train_docs, test_docs):
    # the session's model of SMALL with o_words_min_count 2 (tests/conftest.py); every call names its threshold
    m = Model.load(o_words_model_file)
    crf = Model.load(o_words_model_file, backend="crfsuite")
    assert m.config["decoding"]["o_words_min_count"] == 2 and m.stats["documents"] == len(train_docs)
    assert m.o_words == crf.o_words and m.o_words
    from crfdeid.tagging.model import tokens_for
    vetoed = flipped = 0
    for d in test_docs:
        viterbi = {(s.start, s.end) for s in m.tag(d, o_threshold=None).spans}
        kept = m.tag(d, o_threshold=1.0)
        assert kept.spans == crf.tag(d, o_threshold=1.0).spans  # both backends agree
        covered = {k for s in kept.spans for k in range(s.start, s.end)}
        for tok in tokens_for(d.text, True):
            if tok.text.lower() in m.o_words and tok.start in covered:
                # only Viterbi put it there (a span that also covers other tokens)
                assert any(a <= tok.start < b for a, b in viterbi)
            vetoed += tok.text.lower() in m.o_words and tok.start not in covered
    off = Model.load(o_words_model_file)
    off.o_words = frozenset()
    for d in test_docs:
        eager = off.tag(d, o_threshold=1.0)
        flipped += sum(1 for tok in tokens_for(d.text, True) if tok.text.lower() in m.o_words
                       and any(s.start <= tok.start < s.end for s in eager.spans))
    assert vetoed > 0 and flipped > 0  # the threshold would have taken them, the list kept them O
    import pickle
    assert pickle.loads(pickle.dumps(off)).o_words == frozenset()  # the setting survives pickling
    assert pickle.loads(pickle.dumps(m)).o_words == m.o_words


def test_default_names_the_shipped_model_unless_such_a_file_exists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Model.load("default").path == DEFAULT_MODEL
    (tmp_path / "default").write_bytes(b"not a model")
    with pytest.raises(ModelError):  # the user's own file named default is read, not replaced
        Model.load("default")


def test_the_shipped_model_holds_the_config_make_train_resolves_today():
    # `make train` rebuilds the shipped model bit for bit only while a config resolves to what
    # the file holds: a new config key needs the model saved again (docs/synth.md).
    saved = dict(parse(DEFAULT_MODEL.read_bytes())[0]["config"])  # as written, before any default fills it
    today = dict(load_config(Path(__file__).resolve().parents[1] / "configs" / "default.yaml"))
    saved.pop("scheme"), today.pop("scheme")  # filled in from the training notes' labels
    assert saved == today
