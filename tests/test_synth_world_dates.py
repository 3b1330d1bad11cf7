"""The ``world_dates`` style: dates in the CLDR forms of many languages (DATE), beside the same languages' spans of
time that are no date (issue 58, learn56), and its data file crfdeid/_data/world_dates.txt."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from synth_kit import check_deterministic_and_aligned

from crfdeid import _data
from crfdeid.config import load_config
from crfdeid.synth import generate
from crfdeid.synth.worlddates import _forms, date_in

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def notes():
    return generate(300, seed=13, style="world_dates")


def test_deterministic_and_aligned(notes):
    check_deterministic_and_aligned("world_dates", notes, ascii_only=False, unfilled=r"\{[A-Za-z]\}|\{\d+-\d+\}")


def test_the_data_names_its_source_and_licence_and_holds_many_languages():
    text = resources.files(_data).joinpath("world_dates.txt").read_text(encoding="utf-8")
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert any("source: PyPI 'babel'" in line for line in head) and any("licence: Unicode" in line for line in head)
    assert any("regenerate: python gazetteers/world_dates.py" in line for line in head)
    forms = _forms()
    assert len(forms) >= 300 and "en" not in forms
    assert all("span" in kinds and "long" in kinds for kinds in forms.values())
    for kinds in forms.values():
        for kind, entries in kinds.items():
            for template, months in entries:
                assert kind == "span" or "{" in template, (kind, template)
                assert len(months) in (0, 12), (kind, template)


def test_a_date_is_written_in_the_language_s_own_words():
    rng = random.Random(5)
    day = dt.date(2024, 10, 14)
    russian = {date_in(rng, "ru", day) for _ in range(200)}
    assert "14 октября 2024 г." in russian and "октябрь" in russian
    armenian = {date_in(rng, "hy", day) for _ in range(300)}
    assert {"2024 թ.", "2024թ."} <= {re.sub("\u2024", ".", d) for d in armenian}  # a year with its marker
    assert "2024年10月14日" in {date_in(rng, "ja", day) for _ in range(200)}


def test_dates_are_labelled_and_spans_of_time_are_not(notes):
    not_latin = dated = spans = 0
    for doc in notes:
        dates = [doc.text[s.start:s.end] for s in doc.spans if s.subtype == "DATE"]
        assert {s.subtype for s in doc.spans} <= {"DATE", "PATIENT"}
        not_latin += sum(any(ord(c) > 0x24F and c.isalpha() for c in d) for d in dates)
        dated += len(dates)
        covered = {i for s in doc.spans for i in range(s.start, s.end)}
        for line in doc.text.splitlines():
            if re.match(r"(?i)(symptoms for|review in|on warfarin for|smoker,) ", line):
                start = doc.text.index(line)
                assert not covered & set(range(start, start + len(line))), (doc.doc_id, line)
                spans += 1
    assert dated >= 1000 and not_latin >= 300 and spans >= 100, (dated, not_latin, spans)


def test_casings(notes):
    cased = Counter("lower" if d.text == d.text.lower() else "upper" if d.text == d.text.upper() else "as written"
                    for d in notes)
    assert all(cased[c] >= 30 for c in ("lower", "upper", "as written")), cased


@pytest.mark.parametrize("seed", [13, 17, 29, 41])
def test_the_learn56_configs_are_learn55_with_world_dates_and_check49_check50(seed):
    """learn56 (docs/history/check51-rule.md): learn55's recipe with 300 world_dates notes after history_events and
    check49-check50 learnt; check41-check43 and check51 never."""
    new = load_config(ROOT / "configs" / f"specialty-learn56-s{seed}.yaml")
    old = load_config(ROOT / "configs" / f"specialty-learn55-s{seed}.yaml")
    at = old["train"].index(f"synth:300,{seed},history_events") + 1
    assert new["train"][:-1] == old["train"][:at] + [f"synth:300,{seed},world_dates"] + old["train"][at:-1]
    sets, before = new["train"][-1]["path"].split(","), old["train"][-1]["path"].split(",")
    assert set(sets) - set(before) == {"check49", "check50"} and set(before) <= set(sets)
    assert not {"check41", "check42", "check43", "check51"} & set(sets)
    assert {k: v for k, v in new.items() if k not in ("train", "description")} == {
        k: v for k, v in old.items() if k not in ("train", "description")}
