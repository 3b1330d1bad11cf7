"""What the wheel ships: every package on disk, and features/ and gazetteers/ mapped into it
without symlinks (crfdeid/_data)."""

from __future__ import annotations

import configparser
from pathlib import Path

from setuptools import find_packages

from crfdeid import _data

ROOT = Path(__file__).resolve().parents[1]


def _options() -> configparser.SectionProxy:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    return cfg["options"]


def test_setup_lists_every_package_and_maps_the_data_folders():
    listed = set(_options()["packages"].split())
    mapped = {line.split("=")[0].strip(): line.split("=")[1].strip()
              for line in _options()["package_dir"].strip().splitlines()}
    assert mapped == {f"crfdeid._data.{name}": name for name in _data.FOLDERS}
    assert listed == set(find_packages(str(ROOT), include=["crfdeid*"])) | set(mapped)


def test_no_symlink_in_the_package():
    links = [p for p in (ROOT / "crfdeid").rglob("*") if p.is_symlink()]
    assert links == []


def test_a_checkout_reads_the_top_level_folders():
    for name in _data.FOLDERS:
        assert _data.folder(name) == ROOT / name
    assert (_data.folder("gazetteers") / "surnames.txt").is_file()


def test_the_documented_configs_and_the_demo_notes_ship_in_the_wheel():
    """`--config default` works after `pip install`: the configs folder is mapped into the
    package and its YAML files are package data, as are the demo's made-up notes."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    data = {k: [p.strip() for p in v.split(",")] for k, v in cfg["options.package_data"].items()}
    assert "*.yaml" in data["crfdeid._data.configs"]
    assert "samples/*.txt" in data["crfdeid._data"]
    assert {p.name for p in (ROOT / "configs").glob("*.yaml")} >= {"default.yaml", "physionet.yaml"}


def test_a_config_is_named_or_given_by_path(tmp_path, monkeypatch):
    from crfdeid.config import config_names, config_path, load_config
    from crfdeid.errors import ConfigError
    assert {"default", "physionet", "i2b2-2014"} <= set(config_names())
    assert config_path("default") == _data.folder("configs") / "default.yaml"
    assert load_config("default") == load_config(ROOT / "configs" / "default.yaml")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "default").write_text("description: mine\n", encoding="utf-8")
    assert load_config("default")["description"] == "mine"  # a file of that name wins
    try:
        config_path("nosuch")
    except ConfigError as exc:
        assert "shipped: " in str(exc) and "default" in str(exc)
    else:
        raise AssertionError("an unknown name was accepted")
