"""Config loading: defaults, overrides, and errors that list what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.config import feature_set_names, load_config
from crfdeid.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["icu.yaml", "physionet.yaml", "i2b2-2014.yaml", "synth-small.yaml", "specialty.yaml"])
def test_shipped_configs_resolve(name):
    cfg = load_config(ROOT / "configs" / name)
    assert cfg["train"] and cfg["features"]["word"]


def test_the_default_config_is_the_routed_model_of_the_icu_and_specialty_crfs():
    cfg = load_config(ROOT / "configs" / "default.yaml")
    assert cfg["model"] == "routed" and cfg["routing"]["default"] == "icu"
    assert set(cfg["routing"]["members"]) == {"icu", "specialty"}


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "features").glob("*.yaml")))
def test_shipped_feature_sets_resolve_by_name_and_by_path(name):
    assert name in feature_set_names()
    assert load_config({"features": name})["features"]["name"] == name
    by_path = load_config({"features": str(ROOT / "features" / f"{name}.yaml")})["features"]
    assert by_path == load_config({"features": name})["features"]


def test_paths_in_a_config_file_are_relative_to_it(tmp_path, monkeypatch):
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "mine.yaml").write_text("groups: {lexical: true}\nwindow: 1\n")
    (tmp_path / "cfg").mkdir()
    cfg_file = tmp_path / "cfg" / "c.yaml"
    cfg_file.write_text('train: ["i2b2:../notes", "synth:5,1"]\nfeatures: ../sets/mine.yaml\n')
    monkeypatch.chdir(ROOT)  # the working folder plays no part
    cfg = load_config(cfg_file)
    assert cfg["train"] == [f"i2b2:{tmp_path / 'notes'}", "synth:5,1"]
    assert cfg["features"]["name"] == "mine" and cfg["features"]["window"] == 1


def test_unknown_feature_set_name_lists_the_shipped_ones():
    with pytest.raises(ConfigError, match="unknown feature set 'ful'.*shipped: .*full"):
        load_config({"features": "ful"})


def test_overrides_deep_merge_and_features_override_merges_groups():
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"crf": {"c2": 0.5}, "features": {"groups": {"dictionary": True}}})
    assert cfg["crf"]["c2"] == 0.5 and cfg["crf"]["c1"] == 0.05  # c1 kept from the file
    assert "gazetteer.v1" in cfg["features"]["word"]


def test_window_override_reaches_the_feature_set():
    assert load_config({"window": 1})["features"]["window"] == 1


@pytest.mark.parametrize("cfg, match", [
    ({"trian": []}, "allowed: description, train"),
    ({"crf": {"c3": 1}}, "allowed: algorithm, feature.minfreq"),
    ({"crf": {"algorithm": "svm"}}, "known: lbfgs"),
    ({"decoding": {"o_threshold": 1.5}}, "o_threshold"),
    ({"decoding": {"o_words_min_count": 0}}, "o_words_min_count must be an integer >= 1"),
    ({"decoding": {"o_words_min_count": True}}, "o_words_min_count"),
    ({"rules": {"enable": True}}, "allowed: enabled"),
    ({"rules": {"date_check": "yes"}}, "rules.date_check must be true or false"),
    ({"features": "features/nope.yaml"}, "nope.yaml"),
    ({"features": {"groups": {"lexica": True}}}, "known: lexical"),
    ({"window": -1}, "window"),
])
def test_bad_configs_raise_config_error(cfg, match):
    with pytest.raises(ConfigError, match=match):
        load_config(cfg)


def test_yaml_error_names_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("train: [unclosed\n")
    with pytest.raises(ConfigError, match="bad.yaml"):
        load_config(bad)


def test_resolved_config_resolves_to_itself():
    cfg = load_config(ROOT / "configs" / "default.yaml")
    assert load_config(cfg) == cfg
