"""Config sections declared beside their components: one key check, every config still loads."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from crfdeid import settings
from crfdeid.config import KEYS, OWN, load_config
from crfdeid.errors import ConfigError
from crfdeid.tagging import modelfile
from crfdeid.tagging.model import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parent.parent
#: Every file under configs/ that is a config (ablation specs, split lists and FHIR policies are not).
CONFIGS = sorted(p for p in (ROOT / "configs").rglob("*.yaml") if not {"ablation", "fhir"} & set(p.parts))


@pytest.mark.parametrize("section, allowed", [
    ("tokenizer", "split_glued"),
    ("segment", "max_len"),
    ("crf", "algorithm, feature.minfreq, feature.possible_states, feature.possible_transitions, c1, c2"),
    ("decoding", "o_threshold, month_day_threshold, o_words_min_count"),
    ("training", "unknown_share, unknown_mode"),
    ("resources", "language, gazetteers, triggers, triggers_after"),
    ("rules", "enabled, date_check"),
    ("committee", "combine, members, folds"),
    ("neural", "embedding_dim, embeddings, freeze_embeddings, min_count, lowercase, window, hidden"),
])
def test_an_unknown_key_of_each_section_is_refused_with_the_allowed_ones(section, allowed, tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(f"{section}: {{colour: red}}\n")
    with pytest.raises(ConfigError, match=rf"c\.yaml': unknown {section}\b.* colour; allowed: {allowed}"):
        load_config(path)
    with pytest.raises(ConfigError, match=rf"unknown {section}\b.* colour; allowed: {allowed}"):
        load_config({}, {section: {"colour": "red"}})  # an override too


def test_unknown_top_level_keys_and_the_sections_that_are_not_mappings():
    with pytest.raises(ConfigError, match="unknown config key.* colour; allowed: description, train, dev"):
        load_config({"colour": "red"})
    with pytest.raises(ConfigError, match=r"unknown override config key\(s\) colour"):
        load_config({}, {"colour": "red"})
    with pytest.raises(ConfigError, match="unknown argument.* colour of rules.v1; allowed: date_check"):
        load_config({"postprocess": [{"name": "rules.v1", "colour": "red"}]})
    with pytest.raises(ConfigError, match="reader 'brat' does not take colour; it takes: label_map"):
        load_config({"train": [{"format": "brat", "path": "x", "colour": "red"}]})


@pytest.mark.parametrize("cfg, match", [
    ({"segment": {"max_len": 0}}, "segment.max_len must be an integer >= 1, not 0"),
    ({"tokenizer": {"split_glued": "yes"}}, "tokenizer.split_glued must be true or false, not 'yes'"),
    ({"training": {"unknown_mode": "x"}}, "unknown training.unknown_mode 'x'; known: replace, add"),
    ({"training": {"unknown_share": 2}}, r"training.unknown_share must be a number in \[0, 1\], not 2"),
    ({"decoding": {"o_threshold": "high"}}, "decoding.o_threshold must be a number or null"),
    ({"neural": {"dropout": 1.0}}, r"neural.dropout must be a number in \[0, 1\)"),
    ({"neural": {"char_features": "rnn"}}, r"unknown neural.char_features 'rnn'; known: cnn, lstm, none \(or null\)"),
    ({"crf": [1]}, "crf must be a mapping, not list"),
    ({"rules": None}, "rules must be a mapping, not NoneType"),
    ({"seed": "x"}, "seed must be an integer, not 'x'"),
    ({"dev": 5}, "dev must be a FORMAT:PATH string"),
])
def test_values_are_checked_by_their_declared_types(cfg, match):
    with pytest.raises(ConfigError, match=match):
        load_config(cfg)


def test_a_null_neural_section_is_its_defaults_with_the_model_values():
    assert load_config({"model": "jordan", "neural": None})["neural"]["hidden"] == 150
    assert load_config({})["neural"]["window"] is None  # the CRF takes no per-model value


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_config_under_configs_loads_and_resolves_to_itself(path):
    if "presidio" in path.read_text(encoding="utf-8"):  # a committee member of an extra
        pytest.importorskip("presidio_analyzer", reason="the presidio extra is not installed")
    cfg = load_config(path)
    assert tuple(cfg) == KEYS
    assert load_config(cfg) == cfg


def test_the_saved_config_of_the_shipped_model_loads_as_it_was_saved():
    crf_file = modelfile.member_of(DEFAULT_MODEL.read_bytes())[1]  # a routed shipped file: its default member
    manifest, _ = modelfile.parse(crf_file, DEFAULT_MODEL)
    saved = manifest["config"]
    cfg = modelfile.resolved_config(manifest, DEFAULT_MODEL)
    assert {k: cfg[k] for k in saved} == saved  # every saved value unchanged
    assert cfg["postprocess"] is None and cfg["rules"]["enabled"] is True  # a chain from its rules


def test_every_section_is_declared_by_its_provider_and_config_imports_no_component():
    assert set(KEYS) == {*OWN, *settings.PROVIDERS}
    for key in settings.PROVIDERS:
        assert issubclass(settings.declared(key), settings.Section)
    tree = ast.parse((ROOT / "crfdeid" / "config.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level}
    # schema comes as `from . import schema`; io.files holds relative_to, a path helper and no component;
    # text.patterns LazyModule (yaml imported when a YAML file is read); openfiles refuses a FIFO or
    # device given as a config (layer 1, no component)
    assert imported <= {None, "errors", "features", "settings", "io.files", "text.patterns", "openfiles"}
