"""``wordclass.v1``: distributional word classes learnt from the project's own notes (issue 58 item 2).

The table is ``crfdeid/_data/word_classes.tsv``, built by ``gazetteers/word_classes.py``; the feature set
``full_caseless_initials_classes`` adds the template to ``full_caseless_initials`` and changes nothing else.
"""

from __future__ import annotations

import re
import runpy
from importlib import metadata, resources
from pathlib import Path

import pytest
import yaml

from crfdeid import synth
from crfdeid.cli import tag, train
from crfdeid.config import feature_set_names, load_config, load_feature_set
from crfdeid.crf import Model
from crfdeid.crf.model import ModelWarning
from crfdeid.errors import ReaderError
from crfdeid.features import Featurizer
from crfdeid.features import wordclass as wordclass_module
from crfdeid.features.wordclass import HEADS, TABLE, parse_table, table, wordclass

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "gazetteers" / "word_classes.py"
CLASSES = "full_caseless_initials_classes"
#: A wc attribute, own or a neighbour's (``wc2:1.10``, ``-1:wc3:1.10.5``).
_WC = re.compile(r"^(?:[+-]\d+:)?wc\d:")


def _shipped() -> str:
    return resources.files("crfdeid._data").joinpath(TABLE).read_text(encoding="utf-8")


def _sample_texts() -> list[str]:
    return [d.text for style in ("mix_icu", "specialty_ids", "operative", "signed_roles")
            for d in synth.generate(4, seed=401, style=style)]


@pytest.fixture(scope="module")
def script() -> dict:
    """The build script's functions (it needs scipy and scikit-learn, the ``sklearn`` extra)."""
    pytest.importorskip("sklearn")
    return runpy.run_path(str(SCRIPT))


def test_the_table_names_its_source_method_and_command_and_loads():
    text = _shipped()
    head = [line for line in text.splitlines() if line.startswith("#")]
    for key in ("# source: crfdeid.synth.generate(", "# source: the made-up sets of", "# licence: MIT (crfdeid)",
                "# method: ", "# regenerate: nice -n 10 python gazetteers/word_classes.py"):
        assert any(line.startswith(key) for line in head), key
    entries = int(next(line for line in head if line.startswith("# entries: ")).split(": ")[1])
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    assert len(table()) == len(rows) == entries > 5000
    assert [w for w, _ in rows] == sorted(w for w, _ in rows)  # sorted, each word once
    assert all(w == w.lower() and len(p.split(".")) == len(HEADS) for w, p in rows)
    assert len(text.encode("utf-8")) < 2_000_000


def test_the_table_never_reads_a_set_kept_to_judge(script, tmp_path):
    shipped = script["madeup_sets"](ROOT / script["MADEUP_CONFIG"])
    assert shipped and not set(shipped) & script["NEVER"]
    assert ",".join(shipped) in _shipped()  # the header names the sets it read
    bad = tmp_path / "c.yaml"
    bad.write_text(yaml.safe_dump({"train": [{"format": "madeup", "path": "dev,check46"}]}), encoding="utf-8")
    with pytest.raises(SystemExit, match="check46"):
        script["madeup_sets"](bad)


def test_the_build_is_the_same_twice_on_a_tiny_corpus(script):
    texts = _sample_texts()
    runs = [script["build"](texts, min_count=3, dims=8, branching=4) for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) > 50
    assert all(w == w.lower() and any(c.isalpha() for c in w) for w, _ in runs[0])
    assert all(len(p.split(".")) == 3 and all(0 <= int(c) < 4 for c in p.split(".")) for _, p in runs[0])
    assert script["table_text"](runs[0], ["s"]) == script["table_text"](runs[1], ["s"])


@pytest.mark.slow
def test_the_shipped_table_is_rebuilt_byte_for_byte(script, tmp_path):
    """The whole build (about 15 s), where the libraries are those the header names."""
    built = next(line for line in _shipped().splitlines() if line.startswith("# built with: "))
    for pkg in ("numpy", "scipy", "scikit-learn"):
        if f"{pkg} {metadata.version(pkg)}" not in built:
            pytest.skip(f"{pkg} {metadata.version(pkg)} is not the version the table was built with")
    assert script["main"](["--out", str(tmp_path / TABLE)]) == 0
    assert (tmp_path / TABLE).read_text(encoding="utf-8") == _shipped(), (
        "the table is not what its script builds from today's notes (a synthetic style or a learnt set changed "
        "since): regenerate it with `nice -n 10 python gazetteers/word_classes.py` and retrain what reads it")


def test_a_known_word_gets_its_three_prefixes_in_any_case():
    path = dict(line.split("\t") for line in _shipped().splitlines() if not line.startswith("#"))["vicryl"]
    a, b, c = path.split(".")
    assert wordclass("vicryl") == wordclass("VICRYL") == wordclass("Vicryl") == {
        "wc1": a, "wc2": f"{a}.{b}", "wc3": f"{a}.{b}.{c}"}


@pytest.mark.parametrize("word", ["qzxvyk", "Zzyzx", "", "."])
def test_an_unknown_word_gets_nothing(word):
    assert wordclass(word) == {}


def test_a_line_that_is_not_word_tab_path_is_refused_by_number():
    with pytest.raises(ReaderError, match="line 2"):
        parse_table("# h\nvicryl 1.10.5\n")
    with pytest.raises(ReaderError, match="line 1"):
        parse_table("vicryl\t1.x\n")


@pytest.mark.parametrize("words, level, why", [
    # absorbable sutures: written after a gauge (3-0) and before "suture", "subcuticular", in closures
    (["vicryl", "monocryl", "pds"], 3, "one class at the finest level in the shipped table"),
    # oral drugs of medication lists: written before a strength and "daily" / "bid"
    (["aspirin", "lisinopril", "metformin", "coumadin", "plavix"], 2, "one class at the second level"),
    # months: written between a day and a year, or after "in"
    (["january", "february", "march", "october", "december"], 3, "one class at the finest level"),
    # the named sutures and sealants of operative notes share their class of 16 x 16
    (["vicryl", "prolene", "nylon", "silk", "ethilon"], 2, "one class at the second level"),
])
def test_clinical_words_written_alike_share_a_class(words, level, why):
    prefixes = {wordclass(w)[f"wc{level}"] for w in words}
    assert len(prefixes) == 1, why


def test_the_classes_set_is_the_initials_set_plus_the_template():
    base, classes = load_feature_set("full_caseless_initials"), load_feature_set(CLASSES)
    assert classes["word"] == [*base["word"], "wordclass.v1"]
    assert classes["windowed"] == [*base["windowed"], "wordclass.v1"]
    assert {k: v for k, v in classes.items() if k not in ("name", "word", "windowed", "extra_word")} == {
        k: v for k, v in base.items() if k not in ("name", "word", "windowed", "extra_word")}


def test_the_existing_sets_emit_no_class_and_the_same_features_as_before():
    """The classes set's features less its wc ones are the initials set's, token by token (so adding the
    template changed no other attribute); no shipped set but the two of classes emits a wc attribute."""
    texts = _sample_texts()
    base, classes = Featurizer(load_feature_set("full_caseless_initials")), Featurizer(load_feature_set(CLASSES))
    wc: list[str] = []
    for text in texts:
        mine = classes.featurize_text(text)
        assert [[a for a in attrs if not _WC.match(a)] for attrs in mine] == base.featurize_text(text)
        wc += [a for attrs in mine for a in attrs if _WC.match(a)]
    assert len(wc) > 1000 and {a.split(":")[0] for a in wc if a[0] in "+-"} == {"-2", "-1", "+1", "+2"}
    for name in feature_set_names():
        if name not in (CLASSES, f"{CLASSES}2"):  # the second reads wordclass.v2 (tests/test_features_wordclass_v2.py)
            fz = Featurizer(load_feature_set(name))
            assert not any(_WC.match(a) for text in texts[:4] for attrs in fz.featurize_text(text) for a in attrs), name


def test_the_learn49_configs_are_learn47_with_the_classes():
    for seed in (13, 17, 29, 41):
        new = load_config(ROOT / "configs" / f"specialty-learn49-s{seed}.yaml")
        old = load_config(ROOT / "configs" / f"specialty-learn47-s{seed}.yaml")
        assert new["features"] == load_feature_set(CLASSES)
        assert {k: v for k, v in new.items() if k not in ("features", "description")} == {
            k: v for k, v in old.items() if k not in ("features", "description")}


@pytest.mark.slow
def test_a_tiny_model_with_the_classes_trains_and_tags(tmp_path, capsys, monkeypatch):
    config, model = tmp_path / "tiny.yaml", tmp_path / "tiny.crf"
    config.write_text(yaml.safe_dump({"train": ["synth:30,201,mix_icu"], "features": CLASSES,
                                      "crf": {"max_iterations": 5}}), encoding="utf-8")
    assert train.main(["--config", str(config), "--output", str(model), "--quiet"]) == 0
    note = tmp_path / "note.txt"
    note.write_text("Closed with 3-0 Vicryl. Seen by Dr Ann Lee on 03/04/2021.\n", encoding="utf-8")
    capsys.readouterr()
    assert tag.main(["--model", str(model), "--output-format", "redacted", "--quiet", str(note)]) == 0
    out = capsys.readouterr().out
    assert "[**DATE**]" in out and "Vicryl" in out
    # the file keeps the table it read: a rebuilt table warns at load (its features would differ)
    assert TABLE in Model.load(str(model)).manifest["gazetteers"]
    monkeypatch.setattr(wordclass_module, "checksum", lambda: "0" * 64)
    with pytest.warns(ModelWarning, match="other gazetteer lists"):
        Model.load(str(model))
