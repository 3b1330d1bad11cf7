"""Gazetteer lists and their loader."""

import time

import pytest

from crfdeid import gazetteers
from crfdeid.errors import RegistryError

CONTRACT = ["first_male", "first_female", "surnames", "cities", "states", "state_abbrevs",
            "countries", "street_suffixes", "street_names", "months", "days", "holidays",
            "hospital_words", "hospitals", "organization_words", "organizations",
            "professions", "common_words", "clinical_words"]


@pytest.fixture
def tmp_lists(tmp_path, monkeypatch):
    (tmp_path / "fruits.txt").write_text("# crfdeid gazetteer: fruits\n# source: test\n"
                                         "Apple\n\nbanana\n# late comment\nCherry Pie\n")
    monkeypatch.setenv(gazetteers.ENV_VAR, str(tmp_path))
    gazetteers.clear_cache()
    yield tmp_path
    gazetteers.clear_cache()


def test_every_contract_list_exists():
    assert set(CONTRACT) <= set(gazetteers.names())


@pytest.mark.parametrize("name", CONTRACT)
def test_headers_name_source_licence_and_command(name):
    head = "\n".join(gazetteers.header(name))
    for key in ("# source:", "# licence:", "# regenerate: python gazetteers/build.py"):
        assert key in head
    assert len(gazetteers.entries(name)) >= 10


@pytest.mark.parametrize("name, word", [
    ("first_male", "john"), ("first_female", "mary"), ("surnames", "smith"),
    ("cities", "boston"), ("states", "massachusetts"), ("state_abbrevs", "ma"),
    ("countries", "canada"), ("months", "sept"), ("days", "thurs"),
    ("street_suffixes", "blvd"), ("clinical_words", "coumadin"),
    ("clinical_words", "swan-ganz"), ("professions", "truck driver"),
    ("common_words", "the"), ("hospital_words", "memorial"),
])
def test_membership_is_lower_cased(name, word):
    assert word in gazetteers.load(name)


def test_entries_keep_case_order_and_skip_headers(tmp_lists):
    assert gazetteers.names() == ["fruits"]
    assert gazetteers.entries("fruits") == ["Apple", "banana", "Cherry Pie"]
    assert gazetteers.load("fruits") == frozenset({"apple", "banana", "cherry pie"})


def test_unknown_list_names_the_known_ones(tmp_lists):
    with pytest.raises(RegistryError, match="unknown gazetteer 'nope'; known: fruits"):
        gazetteers.load("nope")


def test_checksums_stable_and_sensitive_to_edits(tmp_lists):
    first = gazetteers.checksums()
    assert first == gazetteers.checksums() and len(first["fruits"]) == 64
    (tmp_lists / "fruits.txt").write_text("Apple\n")
    gazetteers.clear_cache()
    assert gazetteers.checksums()["fruits"] != first["fruits"]


def test_loading_all_lists_is_fast():
    gazetteers.clear_cache()
    t0 = time.perf_counter()
    for name in gazetteers.names():
        gazetteers.load(name)
    assert time.perf_counter() - t0 < 1.0


def test_made_up_lists_are_multi_word_combinations():
    # hospitals/organizations are made by combining words: every entry has 2+ words
    for name in ("hospitals", "organizations", "street_names"):
        assert all(len(e.split()) >= 2 for e in gazetteers.entries(name))
