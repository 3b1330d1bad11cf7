"""What a new user meets first (issue 36, "First-contact defects" and "Silently does nothing"):
usage lines, install hints, documented options and commands that run as written.

Every note, name and label here is made up.
"""

from __future__ import annotations

import json
import os
import warnings

import pytest
import yaml
from byo_corpus import LABELS, make_corpus

from crfdeid import cli
from crfdeid._data import checkout, install_hint
from crfdeid.cli import main
from crfdeid.config import load_config
from crfdeid.errors import ConfigWarning

COMMANDS = sorted(cli.COMMANDS)
SUBCOMMANDS = ["corpus stats", "corpus convert", "corpus surrogate", "corpus stress", "key new",
               "review simulate"]


@pytest.mark.parametrize("command", COMMANDS + SUBCOMMANDS)
def test_every_usage_line_is_the_command_a_user_types(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*command.split(), "--help"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: python -m crfdeid {command} ")


def test_a_parser_for_a_name_that_is_no_command_is_refused():
    with pytest.raises(ValueError, match="not a command"):
        cli.parser("crfdeid.cli.evaluate", "Doc.")


def test_install_hints_fit_a_checkout(tmp_path, monkeypatch):
    root = checkout()
    if root is None:  # crfdeid imported from an installed package
        assert install_hint("review") == "pip install 'crfdeid[review]'"
        return
    monkeypatch.chdir(root)
    assert install_hint("review") == "pip install -e '.[review]'"
    monkeypatch.chdir(tmp_path)
    assert install_hint("review") == f"pip install -e '{root}[review]'"


def test_review_serve_without_its_extra_names_the_checkouts_install(monkeypatch, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "fastapi", None)
    if checkout() is None:
        pytest.skip("crfdeid imported from an installed package")
    monkeypatch.chdir(checkout())
    assert main(["review", "serve", "x"]) == 2
    err = capsys.readouterr().err
    assert "pip install -e '.[review]'" in err and "crfdeid[review]" not in err


def test_tag_takes_the_readmes_mapping_option(tmp_path, capsys):
    note = tmp_path / "n1.txt"
    note.write_text("Mr. John Smith was seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    mapping = tmp_path / "map.tsv"
    assert main(["tag", "--quiet", "--output-format", "surrogate", "--seed", "4", "--mapping", str(mapping),
                 "--output-dir", str(tmp_path / "out"), str(note)]) == 0
    assert mapping.read_text(encoding="utf-8").startswith("patient\tnote\tcategory\tsubtype\toriginal\tsurrogate")
    assert "Smith" not in (tmp_path / "out" / "n1.txt").read_text(encoding="utf-8")
    assert main(["tag", "--quiet", "--output-format", "surrogate", "--seed", "4", "--mapping", str(mapping),
                 "-o", f"mapping={tmp_path / 'other.tsv'}", "--output-dir", str(tmp_path / "o2"), str(note)]) == 2
    assert "two files" in capsys.readouterr().err


@pytest.fixture(scope="module")
def own_labels(tmp_path_factory):
    """A made-up BRAT corpus with its own (Spanish) labels in four scripts."""
    return make_corpus(tmp_path_factory.mktemp("byo") / "c", 12, seed=5)


def test_tag_ignores_the_gold_labels_of_its_input(own_labels, tmp_path, capsys):
    """The shipped i2b2 model tags a BRAT folder whose .ann files use other labels: the labels
    are replaced by the model's, so no note fails on them (as pipeline and evaluate read it)."""
    out = tmp_path / "red"
    assert main(["tag", f"brat:{own_labels}", "--output-format", "redacted", "--output-dir", str(out),
                 "--quiet"]) == 0
    assert len(list(out.glob("*.txt"))) == 12
    assert "failed" not in capsys.readouterr().err


def test_crossval_takes_the_reader_option_its_help_suggests(own_labels, tmp_path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({"train": [f"brat:{own_labels}"], "features": "byo",
                                   "crf": {"max_iterations": 10}, "seed": 1}), encoding="utf-8")
    out = tmp_path / "cv.json"
    assert main(["crossval", "--config", str(cfg), "--folds", "2", "--quiet", "--json", str(out),
                 "--reader-option", "scheme=any"]) == 0
    assert set(json.loads(out.read_text(encoding="utf-8"))["pooled"]["category_strict_f1"]) <= set(LABELS)


@pytest.mark.parametrize("overrides", [{"model": "bilstm-crf"}, {"model": "elman"}])
def test_a_network_override_drops_the_configs_companion_with_a_warning(overrides):
    path = os.path.join(os.path.dirname(__file__), "..", "configs", "physionet.yaml")
    assert load_config(path)["companion"] is not None
    with pytest.warns(ConfigWarning, match="companion section is dropped"):
        cfg = load_config(path, overrides)
    assert cfg["companion"] is None and cfg["model"] == overrides["model"]


def test_a_companion_the_override_gives_itself_is_still_refused(tmp_path):
    from crfdeid.errors import ConfigError
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ConfigError, match="second CRF"):
            load_config({"model": "elman", "companion": {"weight": 0.5}})
        with pytest.raises(ConfigError, match="second CRF"):
            load_config({"companion": {"weight": 0.5}}, {"model": "elman", "companion": {"weight": 0.4}})
