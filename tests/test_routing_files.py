"""A routed model file where a CRF file was named: as a prior, as the source of a copied member,
rebuilt by ``make train`` (docs/synth.md, "Routed model"); configs/icu.yaml, the ICU member's config.

A tiny routed model (``routed_kit``) stands in for a routed shipped model.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from routed_kit import NURSING, OPERATIVE, write_configs

from crfdeid.cli import train as train_cli
from crfdeid.config import load_config
from crfdeid.crf import train_model
from crfdeid.errors import ModelError
from crfdeid.routing.train import _member
from crfdeid.tagging import modelfile
from crfdeid.tagging.model import TaggingModel

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def routed(routed_model):
    """``(folder, routed model file)``; the folder holds its configs."""
    return routed_model


def _crf_part(member_file: bytes) -> bytes:
    return modelfile.parse(member_file)[1]


def test_a_prior_naming_a_routed_file_is_its_default_members_crf_with_that_members_config(routed, tmp_path):
    folder, path = routed
    icu = TaggingModel.load(path).member_file("icu")
    model = train_model(None, {"train": ["synth:12,3"], "crf": {"max_iterations": 5}, "seed": 1,
                               "prior": {"model": str(path), "weight": 0.3}})
    assert model.prior is not None and model.prior._crf == _crf_part(icu)
    entry = model.manifest["prior"]
    assert entry["member"] == "icu" and entry["source"] == str(path)
    assert entry["config"]["features"] == load_config(folder / "icu.yaml")["features"]
    again = TaggingModel.load(model.save(tmp_path / "site.model"))
    assert again.prior._crf == _crf_part(icu)
    assert again.tag_text(NURSING).spans == model.tag_text(NURSING).spans


def test_members_copied_from_a_routed_file_rebuild_it(routed, tmp_path):
    folder, path = routed
    for name in ("icu.yaml", "specialty.yaml"):
        shutil.copy(folder / name, tmp_path / name)
    config = write_configs(tmp_path, icu=f"{{config: icu.yaml, model: {path}}}",
                           specialty=f"{{config: specialty.yaml, model: {path}}}")
    out = tmp_path / "again.model"
    assert train_cli.main(["--config", str(config), "--output", str(out), "--quiet"]) == 0
    first, again = TaggingModel.load(path), TaggingModel.load(out)
    assert all(again.member_file(n) == first.member_file(n) for n in ("icu", "specialty"))
    assert again.router == first.router
    assert again.stats["members"]["icu"]["copied_from"] == f"{path} (member icu)"
    assert [again.tag_text(t).spans for t in (OPERATIVE, NURSING)] == [first.tag_text(t).spans
                                                                       for t in (OPERATIVE, NURSING)]


def test_a_routed_file_without_the_members_name_is_refused_naming_both(routed):
    with pytest.raises(ModelError, match="routing.members.ent: the routed model has no member 'ent'"):
        _member("ent", {"config": None, "model": str(routed[1])}, False)


def test_the_default_config_is_routed_and_copies_both_crfs_from_the_shipped_file():
    members = load_config("default")["routing"]["members"]
    assert members == {"icu": {"config": "icu", "model": "default"},
                       "specialty": {"config": "specialty-learn45", "model": "default"}}
    shipped = modelfile.read_file(TaggingModel.load().path)
    for name, spec in members.items():  # each copied member checked against its own config
        data, stats = _member(name, spec, False)
        assert data == modelfile.member_of(shipped, name)[1] and stats["copied_from"] == f"default (member {name})"


def test_routed_config_copies_the_shipped_model_as_its_icu_member_checked_against_icu_yaml():
    spec = load_config("routed")["routing"]["members"]["icu"]
    assert spec == {"config": "icu", "model": "default"}
    data, stats = _member("icu", spec, False)
    assert data == modelfile.member_of(modelfile.read_file(TaggingModel.load().path), "icu")[1]
    assert stats["copied_from"] == "default (member icu)"


def _make_train(**variables: str) -> list[str]:
    """The arguments of ``python -m crfdeid`` that ``make train`` runs with ``variables``."""
    assigned = [f"{k}={v}" for k, v in variables.items()]
    out = subprocess.run(["make", "-s", "-n", "-C", str(ROOT), "train", "PYTHON=python", *assigned],
                         capture_output=True, text=True, check=True).stdout.strip()
    words = shlex.split(out)
    assert words[:4] == ["python", "-m", "crfdeid", "train"]
    return words[4:]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_train_of_a_routed_default_trains_both_members_and_the_router_and_rebuilds_from_itself(tmp_path):
    assert _make_train()[:4] == ["--config", "configs/default.yaml", "--output", "crfdeid/_data/default-model"]
    config, out = write_configs(tmp_path), tmp_path / "default-model"
    assert train_cli.main(_make_train(CONFIG=str(config), MODEL=str(out)) + ["--quiet"]) == 0
    model = TaggingModel.load(out)
    assert not any("copied_from" in m for m in model.stats["members"].values())  # both trained from configs
    # as `make train TRAIN_ARGS="--set 'routing.members={icu: {config: icu, model: default}, ...}'"`
    members = ", ".join(f"{n}: {{config: {tmp_path / n}.yaml, model: {out}}}" for n in ("icu", "specialty"))
    itself = f"--set 'routing.members={{{members}}}'"
    again = tmp_path / "again-model"
    assert train_cli.main(_make_train(CONFIG=str(config), MODEL=str(again), TRAIN_ARGS=itself) + ["--quiet"]) == 0
    rebuilt = TaggingModel.load(again)
    assert all(rebuilt.member_file(n) == model.member_file(n) for n in ("icu", "specialty"))
    assert rebuilt.router == model.router


@pytest.mark.parametrize("seed", [13, 17, 29, 41])
def test_the_learn53_configs_are_learn50_with_learn45s_share_of_icu_notes(seed):
    """learn53 (docs/history/check46-rule.md): learn50's recipe with 1,700 mix_icu notes, nothing else changed."""
    new = load_config(ROOT / "configs" / f"specialty-learn53-s{seed}.yaml")
    old = load_config(ROOT / "configs" / f"specialty-learn50-s{seed}.yaml")
    assert new["train"][0] == f"synth:1700,{seed},mix_icu" and old["train"][0] == f"synth:1500,{seed},mix_icu"
    assert new["train"][1:] == old["train"][1:]
    assert {k: v for k, v in new.items() if k not in ("train", "description")} == {
        k: v for k, v in old.items() if k not in ("train", "description")}


@pytest.mark.parametrize("seed", [13, 17, 29, 41])
def test_the_learn54_configs_are_learn53_with_the_history_dates_notes(seed):
    """learn54 (docs/history/check46-rule.md): learn53's recipe with 300 history_dates notes after name_forms."""
    new = load_config(ROOT / "configs" / f"specialty-learn54-s{seed}.yaml")
    old = load_config(ROOT / "configs" / f"specialty-learn53-s{seed}.yaml")
    at = old["train"].index(f"synth:400,{seed},name_forms") + 1
    assert new["train"] == old["train"][:at] + [f"synth:300,{seed},history_dates"] + old["train"][at:]
    assert {k: v for k, v in new.items() if k not in ("train", "description")} == {
        k: v for k, v in old.items() if k not in ("train", "description")}


@pytest.mark.parametrize("seed", [13, 17, 29, 41])
def test_the_learn55_configs_are_learn54_with_past_events_and_the_spent_judge_sets(seed):
    """learn55 (docs/history/check49-rule.md): learn54's recipe with 300 history_events notes after history_dates and
    check46-check48 and planted47 learnt; check41-check43 and check49 never."""
    new = load_config(ROOT / "configs" / f"specialty-learn55-s{seed}.yaml")
    old = load_config(ROOT / "configs" / f"specialty-learn54-s{seed}.yaml")
    at = old["train"].index(f"synth:300,{seed},history_dates") + 1
    assert new["train"][:-1] == old["train"][:at] + [f"synth:300,{seed},history_events"] + old["train"][at:-1]
    sets, before = new["train"][-1]["path"].split(","), old["train"][-1]["path"].split(",")
    assert set(sets) - set(before) == {"check46", "check47", "check48", "planted47"} and set(before) <= set(sets)
    assert not {"check41", "check42", "check43", "check49"} & set(sets)
    assert {k: v for k, v in new.items() if k not in ("train", "description")} == {
        k: v for k, v in old.items() if k not in ("train", "description")}
