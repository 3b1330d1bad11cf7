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
