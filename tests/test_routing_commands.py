"""Commands that take ``--model`` given a routed model file: each member tags the notes routed to
it where a command tags notes; a command that needs one CRF uses the default member or refuses by
name (docs/synth.md, "Routed model"). A tiny routed model (``routed_kit``) stands in for one.
"""

from __future__ import annotations

import json

import pytest
from routed_kit import NURSING, OPERATIVE

from crfdeid.cli import adapt as adapt_cli
from crfdeid.cli import bench as bench_cli
from crfdeid.cli import experiments as experiments_cli
from crfdeid.cli import locked as locked_cli
from crfdeid.cli import tag
from crfdeid.config import load_config
from crfdeid.errors import ModelError
from crfdeid.experiments.figures import _decoding, _threshold
from crfdeid.review.project import Project
from crfdeid.routing import RoutedModel
from crfdeid.tagging import modelfile
from crfdeid.tagging.model import TaggingModel


@pytest.fixture(scope="module")
def routed(routed_model):
    return routed_model


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "op.txt").write_text(OPERATIVE)
    (folder / "nurse.txt").write_text(NURSING)
    return folder


def test_adapt_adapts_each_member_on_the_notes_routed_to_it_and_keeps_the_router(routed, notes, tmp_path, capsys):
    out = tmp_path / "site.model"
    argv = ["--model", str(routed[1]), "--unlabeled", f"text:{notes}", "--output", str(out), "--quiet"]
    assert adapt_cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "member:     icu: adapted" in printed and "member:     specialty: adapted" in printed
    base, site = TaggingModel.load(routed[1]), TaggingModel.load(out)
    assert isinstance(site, RoutedModel) and site.router == base.router
    assert {n: a["unlabeled"]["notes"] for n, a in site.manifest["adapted"].items()} == {"icu": 1, "specialty": 1}
    assert [d.meta["route"] for d in site.tag_many([*map(lambda t: base.tag_text(t), (OPERATIVE, NURSING))])] \
        == ["specialty", "icu"]
    assert adapt_cli.main([*argv[:-1], "--overwrite", "--train", "synth:5,1"]) == 1
    assert "give no --train" in capsys.readouterr().err


def test_adapt_keeps_a_member_no_note_is_routed_to(routed, tmp_path):
    (tmp_path / "n.txt").write_text(NURSING)
    out = tmp_path / "site.model"
    assert adapt_cli.main(["--model", str(routed[1]), "--unlabeled", f"text:{tmp_path / 'n.txt'}",
                           "--output", str(out), "--quiet"]) == 0
    base, site = TaggingModel.load(routed[1]), TaggingModel.load(out)
    assert site.member_file("specialty") == base.member_file("specialty")
    assert site.member_file("icu") != base.member_file("icu") and list(site.manifest["adapted"]) == ["icu"]


def test_the_crf_adapt_function_refuses_a_routed_model_by_name(routed):
    from crfdeid.crf.adapt import adapt
    with pytest.raises(ModelError, match="adapt: a routed model is not adapted"):
        adapt(TaggingModel.load(routed[1]), [])


def test_bench_refuses_a_file_that_is_no_model_before_training(tmp_path, capsys):
    # a routed model is timed (tests/test_bench_routed.py); a damaged file is an error at once
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model file")
    assert bench_cli.main(["--quick", "--model", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "bad.model" in err  # the message names the file


def test_a_review_project_from_a_routed_model_retrains_its_default_members_config(routed, tmp_path):
    project = Project.create(tmp_path / "p", model=str(routed[1]))
    try:
        config = project.config()
        assert config["model"] == "crf" and config["train"] == load_config(routed[0] / "icu.yaml")["train"]
        assert config == load_config(TaggingModel.load(routed[1]).members["icu"].config)
        assert isinstance(project.load_model(), RoutedModel)
    finally:
        project.close()


def test_figures_say_each_members_decoding_and_serve_names_the_members_digest(routed):
    model = TaggingModel.load(routed[1])
    assert _threshold(_decoding(model)) == "routed: icu P(O) < 0.9; specialty P(O) < 0.9"
    assert modelfile.part_sha256(model.manifest) == model.manifest["members_sha256"] != ""


def test_tag_explain_zero_shot_and_locked_score_a_routed_model(routed, notes, tmp_path, capsys):
    assert tag.main([str(notes), "--model", str(routed[1]), "--output-format", "jsonl", "--explain"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {d["meta"]["route"] for d in lines} == {"icu", "specialty"} and all("explain" in d["meta"] for d in lines)
    assert experiments_cli.main(["zero-shot", "--model", str(routed[1]), "--corpus", "synth:6,5",
                                 "--json", str(tmp_path / "z.json")]) == 0
    assert json.loads((tmp_path / "z.json").read_text())["runs"]
    (tmp_path / "locked.txt").write_text("101\n")
    assert locked_cli.main(["--config", str(routed[0] / "icu.yaml"), "--locked", str(tmp_path / "locked.txt"),
                            "--train", "synth:6,5", "--model", str(routed[1]), "--out", str(tmp_path / "l"),
                            "--quiet"]) == 0
