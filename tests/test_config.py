"""Config loading: defaults, overrides, and errors that list what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.config import load_config
from crfdeid.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["default.yaml", "physionet.yaml", "physionet-2pass.yaml", "synth-small.yaml"])
def test_shipped_configs_resolve(name):
    cfg = load_config(ROOT / "configs" / name)
    assert cfg["train"] and cfg["features"]["word"]


def test_two_pass_physionet_config_differs_only_by_its_second_pass_and_threshold():
    one, two = (load_config(ROOT / "configs" / n) for n in ("physionet.yaml", "physionet-2pass.yaml"))
    assert two["second_pass"]["enabled"] and not one["second_pass"]["enabled"]
    same = lambda cfg: {k: v for k, v in cfg.items() if k not in ("second_pass", "description", "decoding")}  # noqa: E731
    assert same(one) == same(two)


@pytest.mark.parametrize("fs", sorted((ROOT / "features").glob("*.yaml")))
def test_shipped_feature_sets_resolve(fs):
    cfg = load_config({"features": str(fs)})
    assert cfg["features"]["name"] == fs.stem


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
