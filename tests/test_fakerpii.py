"""General PII sentences of Faker's values (crfdeid/synth/fakerpii.py): reproducible, gold spans
on the inserted values, look-alikes without PHI, and the reader's errors named."""

import ipaddress

import pytest

pytest.importorskip("faker")

from stdnum import iban, luhn  # noqa: E402

from crfdeid.io import read  # noqa: E402
from crfdeid.synth.fakerpii import KINDS, sentences  # noqa: E402


@pytest.fixture(scope="module")
def docs():
    return sentences(70, seed=2)


def test_deterministic_in_seed_and_locales(docs):
    again = sentences(70, seed=2)
    assert [d.text for d in again] == [d.text for d in docs]
    assert [d.text for d in sentences(70, seed=3)] != [d.text for d in docs]
    assert {d.meta["locale"] for d in sentences(20, seed=2, locales=("de_DE",))} == {"de_DE"}


def test_every_kind_and_gold_on_the_values(docs):
    assert {d.group for d in docs} == set(KINDS)
    for d in docs:
        if d.group == "lookalike":
            assert d.spans == []
            continue
        assert d.spans, d.doc_id
        for sp in d.spans:
            value = d.surface(sp)
            assert value == value.strip() and value
            compact = value.replace(" ", "").replace("-", "")
            if d.group == "card":
                assert luhn.is_valid(compact)
            elif d.group == "iban":
                assert compact[:2].isalpha() and compact[2:4].isdigit()
            elif d.group == "ip":
                ipaddress.ip_address(value)


def test_ibans_of_a_bank_locale_validate():
    docs = [d for d in sentences(140, seed=4, locales=("de_DE", "nl_NL", "pl_PL")) if d.group == "iban"]
    assert docs and all(iban.is_valid(d.surface(sp)) for d in docs for sp in d.spans)


def test_reader_and_its_errors():
    got = list(read("fakerpii:15,1,en_GB+fr_FR"))
    assert len(got) == 15 and {d.meta["locale"] for d in got} <= {"en_GB", "fr_FR"}
    errors = []
    assert list(read("fakerpii:x,1", errors=errors)) == [] and "fakerpii source" in str(errors[0])
