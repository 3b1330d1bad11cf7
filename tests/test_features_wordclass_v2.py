"""``wordclass.v2`` (learn52): word classes that every word of the specialty recipe's training text holds.

v1 keeps words seen five times in the project's notes, so most names the training notes draw from the lists have no
class, and a CRF can learn "no class" as a sign of PHI. The v2 table (``gazetteers/word_classes.py --v2``) places every
rarer word of the recipe's text in v1's kind of tree by its neighbours. learn52, which read it, was refused
(docs/history/check46-rule.md); the table stays to rebuild and re-measure.
"""

from __future__ import annotations

import re
import runpy
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from crfdeid.config import load_config, load_feature_set
from crfdeid.features import Featurizer
from crfdeid.features.wordclass import HEADS, TABLE_V2, table, wordclass, wordclass_v2
from crfdeid.io import read
from crfdeid.tagging.modelfile import gazetteer_checksums

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "gazetteers" / "word_classes.py"
CLASSES2 = "full_caseless_initials_classes2"


def _shipped() -> str:
    return resources.files("crfdeid._data").joinpath(TABLE_V2).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def script() -> dict:
    pytest.importorskip("sklearn")
    return runpy.run_path(str(SCRIPT))


def test_the_v2_table_names_its_sources_and_command_and_loads():
    text = _shipped()
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert "wordclass.v2" in head[0]
    assert any(line.startswith("# source: the training notes of configs/specialty-learn50-s13.yaml") for line in head)
    assert "# regenerate: nice -n 10 python gazetteers/word_classes.py --v2" in head
    entries = int(next(line for line in head if line.startswith("# entries: ")).split(": ")[1])
    assert len(table(TABLE_V2)) == entries > 50_000
    assert all(len(p["wc3"].split(".")) == len(HEADS) for p in table(TABLE_V2).values())


def test_every_word_the_recipe_trains_on_has_a_class():
    """The point of v2: the recipe's own notes (as its train entries read them, a sample of each synthetic style of
    seed 13) leave under half a per cent of their words without a class (v1: about a third of the names)."""
    cfg = load_config(ROOT / "configs" / "specialty-learn52-s13.yaml")
    words = [m.group().lower() for spec in cfg["train"] if isinstance(spec, str)
             for d in read(re.sub(r"^synth:\d+,", "synth:40,", spec)) for m in re.finditer(r"[^\W\d_]+", d.text)]
    absent = sum(w not in table(TABLE_V2) for w in words)
    assert len(words) > 20_000 and absent / len(words) < 0.005, (absent, len(words))


def test_v2_keeps_v1s_classes_of_clinical_words_together():
    for words in (["vicryl", "monocryl", "pds"], ["january", "february", "october"]):
        assert len({wordclass_v2(w)["wc2"] for w in words}) == 1, words
    assert wordclass_v2("Vicryl") == wordclass_v2("VICRYL") and wordclass_v2("qzxvyk") == {}


def test_the_build_places_every_rarer_word_and_is_the_same_twice(script):
    from crfdeid import synth
    texts = [d.text for style in ("mix_icu", "name_forms") for d in synth.generate(6, seed=401, style=style)]
    runs = [script["build_every"](texts, min_count=3, dims=8, branching=4) for _ in range(2)]
    assert runs[0] == runs[1]
    rows, left = runs[0]
    core = dict(script["build"](texts, min_count=3, dims=8, branching=4))
    placed = dict(rows)
    assert {w: placed[w] for w in core} == core  # the tree of the frequent words is v1's
    words = {t for doc in script["token_lists"](texts) for t in doc if any(c.isalpha() for c in t)}
    assert len(placed) + left >= len(words) - 5 and left < 0.05 * len(words) and len(placed) > 2 * len(core)


def test_place_descends_to_the_nearest_centroid_at_each_level(script):
    x = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    paths = ["0.0", "0.1", "1.0", "1.1"]
    y = np.array([[0.95, 0.05], [0.2, 0.8], [0.0, 0.0]])
    assert script["place"](y, x, paths) == {0: "0.0", 1: "1.1"}  # a row without a column is not placed


def test_the_classes2_set_is_the_initials_set_with_v2_and_emits_no_v1_attribute():
    base, v2 = load_feature_set("full_caseless_initials"), load_feature_set(CLASSES2)
    assert v2["word"] == [*base["word"], "wordclass.v2"] and v2["windowed"] == [*base["windowed"], "wordclass.v2"]
    attrs = Featurizer(v2).featurize_text("Closed with 3-0 Vicryl by Dr Ann Lee.")
    vicryl = next(a for a in attrs if "lower:vicryl" in a)
    assert "wc3:" + wordclass_v2("vicryl")["wc3"] in vicryl
    assert wordclass("vicryl")  # v1's table is untouched (learn51's models read it)


def test_the_learn52_configs_are_learn50_with_the_v2_classes_and_the_file_keeps_the_tables_checksum():
    for seed in (13, 17, 29, 41):
        new = load_config(ROOT / "configs" / f"specialty-learn52-s{seed}.yaml")
        old = load_config(ROOT / "configs" / f"specialty-learn50-s{seed}.yaml")
        assert new["features"] == load_feature_set(CLASSES2)
        assert {k: v for k, v in new.items() if k not in ("features", "description")} == {
            k: v for k, v in old.items() if k not in ("features", "description")}
    assert TABLE_V2 in gazetteer_checksums(load_config(ROOT / "configs" / "specialty-learn52-s13.yaml"))


def test_coverage_counts_words_without_a_class_phi_and_not(script):
    from crfdeid.document import Document, Span
    doc = Document("n", "Seen by Qzxvy Lee today", [Span(8, 17, "NAME", "DOCTOR")])
    got = script["coverage"]([doc], {"seen", "by", "lee"})
    assert got[True] == (2, 0.5)  # qzxvy absent, lee in the table
    assert got[False][0] == 3 and abs(got[False][1] - 1 / 3) < 1e-9  # today absent, seen and by in
