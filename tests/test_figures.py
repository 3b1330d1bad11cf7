"""The README's accuracy figures: one results file, the table rendered between markers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crfdeid.cli import figures as figures_cli
from crfdeid.errors import ConfigError
from crfdeid.experiments import figures as fig

ROOT = Path(__file__).resolve().parent.parent


def _f(p, r, fn, removed=0.9, covered=None):
    return {"precision": p, "recall": r, "tp": 100, "fp": 10, "fn": fn, "fully_removed": removed,
            "parent_strict_f1": 0.8, "covered": covered or {"NAME": 0.95, "LOCATION": 0.5}}


RESULTS = {
    "date": "2026-11-23", "commit": "abc1234", "config": "configs/physionet.yaml",
    "command": "python -m crfdeid figures --config configs/physionet.yaml",
    "sizes": {"dev_patients": 82, "dev_notes": 1239, "locked_patients": 27, "locked_notes": 383,
              "folds": 5, "seed": 13},
    "decoding": {"o_threshold": 0.99, "o_words_min_count": 1},
    "model": {"dev_cv": {"as configured": _f(0.852, 0.95, 63), "Viterbi": _f(0.97, 0.847, 195),
                         "stress unknown": _f(0.84, 0.81, 240, covered={"NAME": 0.751, "LOCATION": 0.517})},
              "locked": {"as configured": _f(0.884, 0.972, 10), "Viterbi": _f(0.971, 0.929, 25),
                         "stress unknown": _f(0.87, 0.88, 40, covered={"NAME": 0.912, "LOCATION": 0.467})}},
    "zero_shot": {"dev": {"as configured": _f(0.502, 0.909, 115, covered={"DATE": 0.871}),
                          "Viterbi": _f(0.797, 0.797, 258)},
                  "locked": {"as configured": _f(0.533, 0.941, 21), "Viterbi": _f(0.811, 0.873, 45)},
                  "decoding": {"o_threshold": 0.95}},
}


def test_table_shows_cv_beside_locked_with_date_and_commit():
    table = fig.render_table(RESULTS)
    lines = table.splitlines()
    assert "development CV (82 patients, 1,239 notes, 5 folds, pooled)" in lines[0]
    assert "locked test (27 patients, 383 notes)" in lines[0]
    assert "| 0.852 / **0.950** | 0.884 / **0.972** |" in lines[2] and "P(O) < 0.99" in lines[2]
    assert any("| 63 | 10 |" in ln for ln in lines)
    assert any("`unknown` stress copy" in ln and "0.751 / 0.517 | 0.912 / 0.467" in ln for ln in lines)
    assert any("zero-shot" in ln and "(P(O) < 0.95)" in ln and "0.502 / 0.909 | 0.533 / 0.941" in ln for ln in lines)
    assert any(ln.startswith("| same, as configured: DATE tokens covered | 0.871 | 0.000 |") for ln in lines)
    assert "Measured on 2026-11-23 at commit `abc1234`" in lines[-1]


def test_a_companion_vote_is_named_in_the_decoding():
    res = {**RESULTS, "decoding": {"o_threshold": 0.99, "companion_weight": 0.5}}
    assert "(P(O) < 0.99, a companion CRF's marginals averaged in (weight 0.5))" in fig.render_table(res)
    assert "averaged" not in fig.render_table(RESULTS)


def test_a_prior_vote_is_named_in_the_decoding():
    prior = {"model": "default", "weight": 0.02, "vote": "outside"}
    res = {**RESULTS, "decoding": {"o_threshold": 0.99, "companion_weight": 0.5, "prior": prior}}
    assert ("(P(O) < 0.99, a companion CRF's marginals averaged in (weight 0.5), the shipped model's P(O) "
            "averaged in (weight 0.02))") in fig.render_table(res)


def test_the_figures_as_tag_runs_the_model_are_a_row_when_measured():
    mined = {"dev_cv": _f(0.84, 0.978, 28), "locked": _f(0.86, 0.98, 7)}
    res = {**RESULTS, "model": {k: {**v, fig.MINED: mined[k]} for k, v in RESULTS["model"].items()}}
    lines = fig.render_table(res).splitlines()
    assert any("as `tag` runs it (site mining" in ln and "| 0.840 / 0.978 (28) | 0.860 / 0.980 (7) |" in ln
               for ln in lines)
    assert "as `tag` runs it" not in fig.render_table(RESULTS)  # an older results file renders as before


class _Tagged:
    """A stand-in for a model whose notes are already tagged: English, i2b2 labels or not."""

    def __init__(self, english=True):
        from crfdeid import schema
        self._english, self.scheme = english, schema.I2B2


def test_mining_spreads_a_confident_string_over_the_batch_of_a_model_it_applies_to():
    from crfdeid.document import Document, Span
    # made up: a ward tagged confidently in two patients' notes, missed in a third's
    tagged = [Document(f"n{i}", text, [Span(0, 8, "LOCATION", "HOSPITAL", 0.9)], {"patient": f"p{i}"})
              for i, text in enumerate(["Harewood ward round", "Harewood at 0800"])]
    tagged.append(Document("n2", "moved to HAREWOOD today", [], {"patient": "p2"}))
    mined = fig.mine(_Tagged(), tagged)
    assert [(sp.start, sp.end) for sp in mined[2].spans] == [(9, 17)]
    assert fig.mine(_Tagged(english=False), tagged) == tagged  # a model mining does not apply to: as tagged


@pytest.mark.parametrize("text", ["no markers", f"{fig.END}\nx\n{fig.START}", f"{fig.START}\n{fig.START}\n{fig.END}"])
def test_markers_missing_or_out_of_order_are_an_error(text):
    with pytest.raises(ConfigError):
        fig.replace_between(text, "table")


def test_render_puts_the_table_between_the_readme_markers_only(tmp_path, capsys):
    res = tmp_path / "figures.json"
    res.write_text(json.dumps(RESULTS), encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n{fig.START}\nold table\n{fig.END}\nafter\n", encoding="utf-8")
    assert figures_cli.main(["--render", str(res), "--readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# x\n\nbefore\n") and text.endswith(f"{fig.END}\nafter\n")
    assert "old table" not in text and fig.render_table(RESULTS) in text
    assert capsys.readouterr().out.strip() == fig.render_table(RESULTS)
    readme.write_text("no markers\n", encoding="utf-8")
    assert figures_cli.main(["--render", str(res), "--readme", str(readme)]) == 1
    assert readme.read_text(encoding="utf-8") == "no markers\n"


def test_the_figures_page_has_the_markers_and_make_figures_renders_there():
    # the table, with its jargon, lives in docs/figures.md; the front page sums it up in plain words
    text = (ROOT / "docs" / "figures.md").read_text(encoding="utf-8")
    assert fig.replace_between(text, "t").count(fig.START) == 1
    assert "--readme docs/figures.md" in (ROOT / "Makefile").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [[], ["--config", "c.yaml"], ["--config", "c.yaml", "--render", "f.json"]])
def test_usage_errors_exit_2(argv, capsys):
    assert figures_cli.main(argv) == 2


@pytest.mark.slow
def test_measure_cv_locked_and_zero_shot_on_synthetic_notes(tmp_path):
    from crfdeid.config import load_config
    from crfdeid.crf import train_model
    from crfdeid.io import read_all
    config = load_config(ROOT / "configs" / "synth-small.yaml", {"crf": {"max_iterations": 5}})
    docs = read_all(["synth:24,3"])
    locked = {d.group for d in docs[-6:]}
    zero = train_model(read_all(["synth:10,5"]), config)
    res = fig.measure(docs, config, locked, folds=2, zero_shot=zero, cache=tmp_path)
    n_locked = sum(d.group in locked for d in docs)
    assert res["sizes"]["locked_notes"] == n_locked and res["sizes"]["dev_notes"] == 24 - n_locked > 0
    assert {"as configured", "Viterbi", fig.MINED} <= set(res["model"]["dev_cv"])
    assert (tmp_path / "fold1.model").exists()
    cv = res["model"]["dev_cv"]["as configured"]
    assert 0 < cv["recall"] <= 1 and cv["tp"] + cv["fn"] > 0
    assert res["zero_shot"]["locked"]["Viterbi"]["fn"] >= 0
