"""Public word lists that the recall threshold leaves alone (``decoding.o_words_lists`` and
``o_words_except``, issue 34 item 2): clinical and English words join a model's ``o_words``,
words that can be names or places do not; English models only."""

from __future__ import annotations

from pathlib import Path

import pytest
from byo_corpus import make_corpus
from routed_kit import shipped_crf

from crfdeid import gazetteers
from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.errors import ConfigError
from crfdeid.tagging.decoding import plain_words

ROOT = Path(__file__).resolve().parents[1]
LISTS = ["clinical_abbrevs", "common_words"]
NAMES = ["surnames", "first_female", "cities"]
TINY = {"train": ["synth:15,1"], "crf": {"max_iterations": 2}, "seed": 1,
        "decoding": {"o_threshold": 1.0, "o_words_min_count": 2}}


def test_the_lists_words_join_less_names_and_places_and_the_counted_words_stay():
    words = set(plain_words(["pearl", "zzq"], LISTS, NAMES))
    assert {"bowel", "notify", "phoned", "milrinone"} <= words  # nursing and English words
    assert not {"green", "black", "swan", "boston"} & words  # also surnames, a city
    assert {"pearl", "zzq"} <= words  # seen in training notes, never inside PHI: kept as before
    assert all(len(w) > 1 and w == w.lower() for w in words)


def test_multi_word_entries_give_their_words():
    assert {"wolff", "parkinson", "white"} <= gazetteers.words(["eponyms"])


def test_a_config_without_the_keys_resolves_as_before():
    """A model's file holds its resolved config: without the keys it is the same as before them."""
    assert load_config({})["decoding"] == {"o_threshold": None, "o_words_min_count": None}


@pytest.mark.parametrize("decoding, message", [
    ({"o_words_lists": ["planets"]}, "o_words_lists: unknown gazetteer 'planets'; known: .*surnames"),
    ({"o_words_except": "surnames"}, "o_words_except must be a list of word list names"),
    ({"o_words_lists": [3]}, "o_words_lists must be a list"),
])
def test_the_keys_are_checked(decoding, message):
    with pytest.raises(ConfigError, match=message):
        load_config({"decoding": decoding})


def test_another_language_is_refused_the_english_lists():
    with pytest.raises(ConfigError, match="o_words_lists: crfdeid's word lists are English.*'es'"):
        load_config({"resources": {"language": "es"}, "features": "byo", "decoding": {"o_words_lists": LISTS}})


@pytest.fixture(scope="module")
def with_lists():
    return train_model(None, {**TINY, "decoding": {**TINY["decoding"], "o_words_lists": LISTS,
                                                   "o_words_except": NAMES}})


def test_training_stores_the_words_and_the_threshold_leaves_them_alone(with_lists):
    plain = train_model(None, TINY)  # the same notes, no lists
    assert with_lists.o_words == frozenset(plain_words(plain.o_words, LISTS, NAMES)) > plain.o_words
    text = "bowel sounds hypo, notify green if milrinone leak"
    item = with_lists._item(text)
    words = [t.text for t in item[1]]
    phi = {w for w, lab in zip(words, with_lists._label([item], 1.0)[0][0]) if lab != "O"}
    phi_before = {w for w, lab in zip(words, plain._label([plain._item(text)], 1.0)[0][0]) if lab != "O"}
    assert {"bowel", "notify", "milrinone"} <= phi_before  # every O token is under P(O) < 1.0
    assert not {"bowel", "notify", "milrinone"} & phi and "green" in phi  # a surname stays within reach
    again = Model.from_bytes(with_lists.to_bytes())
    assert again.o_words == with_lists.o_words and again.config["decoding"] == with_lists.config["decoding"]


def test_a_model_of_another_language_keeps_its_own_o_words(tmp_path):
    corpus = make_corpus(tmp_path / "train", 8, seed=3)
    m = train_model(None, {"train": [f"brat:{corpus}"], "crf": {"max_iterations": 2}, "seed": 1,
                           "resources": {"language": "es"}, "features": "byo",
                           "decoding": {"o_threshold": 0.99, "o_words_min_count": 1}})
    assert m.o_words and not m.o_words & (gazetteers.words(LISTS) - set(_corpus_words(corpus)))
    assert set(m.config["decoding"]) == {"o_threshold", "o_words_min_count"}


def _corpus_words(folder: Path):
    return [w.lower() for f in folder.glob("*.txt") for w in f.read_text(encoding="utf-8").split()]


def test_the_shipped_model_leaves_nursing_words_to_viterbi_and_names_to_the_threshold():
    shipped = load_config(ROOT / "configs" / "icu.yaml")["decoding"]  # the shipped routed model's ICU CRF
    assert shipped["o_words_lists"] and "surnames_rare" in shipped["o_words_except"]
    words = shipped_crf().o_words
    assert {"bowel", "notify", "phoned", "milrinone"} <= words
    assert not {"green", "black", "golden", "swan", "hickman", "may"} & words


def test_the_zero_shot_experiment_tries_lists_on_a_model(tmp_path):
    import json

    from crfdeid.cli.experiments import main as experiments
    main = lambda argv: experiments(["zero-shot", *argv])  # noqa: E731
    train_model(None, TINY).save(tmp_path / "m")  # no lists: every O token is under P(O) < 1.0
    runs = {}
    for name, extra in (("off", []), ("lists", ["--o-words-lists", "common_words"]),
                        ("less", ["--o-words-lists", "common_words", "--o-words-except", "surnames,cities"])):
        out = tmp_path / f"{name}.json"
        assert main(["--model", str(tmp_path / "m"), "--corpus", "synth:6,1", "--o-thresholds", "1.0",
                     "--json", str(out), *extra]) == 0
        runs[name] = json.loads(out.read_text())["runs"]["1.0"]
    predicted = {k: r["tp"] + r["fp"] for k, r in runs.items()}
    assert predicted["lists"] < predicted["less"] < predicted["off"]
