"""The benchmark: its figures add up, its JSON holds what the docs quote, targets are judged right."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from crfdeid.cli import bench as bench_cli
from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.experiments.bench.report import format_table, targets
from crfdeid.experiments.bench.stages import STAGES, crfsuite_only, tag_end_to_end

ROOT = Path(__file__).resolve().parent.parent
CORPUS = "synth:6,3"


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"train": ["synth:8,7"], "crf": {"max_iterations": 5}, "rules": {"enabled": True}})
    return train_model(None, cfg).save(tmp_path_factory.mktemp("bench") / "tiny.model")


@pytest.fixture(scope="module")
def startup_measured(model_path, tmp_path_factory):
    """One start-up measurement of the tiny model, two timed runs as a quick run makes: seven
    ``tag`` processes (three compiling every module), the slowest part of the quick run, made
    once for the test of the figure and the quick run's report."""
    from crfdeid.experiments.bench.whole import startup
    work = tmp_path_factory.mktemp("startup")
    return work, startup(model_path, work, runs=2)


def test_end_to_end_counts_every_token_and_stage_shares_sum_to_one(model_path):
    model = Model.load(model_path)
    res = tag_end_to_end(model, CORPUS)
    from crfdeid.io import read
    from crfdeid.tagging.model import tokens_for
    split = model.config["tokenizer"]["split_glued"]
    expected = sum(len(tokens_for(d.text, split)) for d in read(CORPUS))
    assert res["documents"] == 6 and res["tokens"] == expected > 0
    assert set(res["stage_share"]) == set(STAGES)
    assert sum(res["stage_share"].values()) == pytest.approx(1.0, abs=0.01)
    assert res["stage_seconds"]["featurize"] > 0 and res["stage_seconds"]["crf"] > 0
    # "seconds" is rounded to the millisecond: on this tiny corpus that moves the ratio a few %.
    low, high = (res["tokens"] / (res["seconds"] + d) for d in (0.0005, -0.0005))
    assert low - 1 <= res["tokens_per_s"] <= high + 1


@pytest.mark.parametrize("fmt, files", [("i2b2", 6), ("jsonl", 1)])
def test_end_to_end_writes_with_the_chosen_writer(model_path, tmp_path, fmt, files):
    res = tag_end_to_end(Model.load(model_path), CORPUS, fmt, out_dir=tmp_path)
    written = list(tmp_path.iterdir())
    assert res["documents"] == 6 and len(written) == files
    if fmt == "jsonl":
        assert written[0].name == "tagged.jsonl" and len(written[0].read_text().splitlines()) == 6


def test_end_to_end_without_out_dir_writes_to_a_temporary_folder(model_path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for out_dir in (None, ""):
        assert tag_end_to_end(Model.load(model_path), CORPUS, "jsonl", out_dir=out_dir)["documents"] == 6
    assert not list(tmp_path.iterdir())


def test_unknown_output_format_is_an_error(model_path, capsys):
    assert bench_cli.main(["--quick", "--no-train", "--model", str(model_path), "--output-format", "nope"]) == 2
    assert "jsonl" in capsys.readouterr().err


def test_instrumentation_is_removed_and_tagging_unchanged(model_path):
    model = Model.load(model_path)
    from crfdeid.io import read
    from crfdeid.recognizers.chain import Chain
    from crfdeid.tagging import model as model_mod
    before = [model.tag(d).spans for d in read(CORPUS)]
    funcs = (model_mod.tokens_for, model_mod.decode, Chain.run, model._tagger)
    tag_end_to_end(model, CORPUS)
    assert (model_mod.tokens_for, model_mod.decode, Chain.run, model._tagger) == funcs
    assert "featurize" not in vars(model.featurizer) and "scores_many" not in vars(model._backend.scorer)
    assert [model.tag(d).spans for d in read(CORPUS)] == before


def test_crfsuite_only_tags_the_same_tokens(model_path):
    model = Model.load(model_path)
    e2e, crf = tag_end_to_end(model, CORPUS), crfsuite_only(model, CORPUS)
    assert crf["tokens"] == e2e["tokens"] and crf["sequences"] >= 6
    assert 0 < crf["seconds"] < e2e["seconds"]  # CRFsuite alone is a part of the whole


@pytest.mark.parametrize("value, met", [(150_000, True), (100_000, True), (99_999, False), (None, None)])
def test_throughput_target(value, met):
    assert targets({"tag_end_to_end": {"tokens_per_s": value}})["tag_tokens_per_s"]["met"] is met


@pytest.mark.parametrize("marginals, base, ratio", [(True, 1.5, 2.0), (False, 1.0, 3.0)])
def test_ratio_is_to_crfsuite_doing_the_same_decoding(marginals, base, ratio):
    from crfdeid.experiments.bench.report import ratios
    crf = {"seconds": 1.0, "cpu_seconds": 1.0, "marginal_seconds": 0.5, "marginal_cpu_seconds": 0.5}
    got = ratios({"seconds": 3.0, "cpu_seconds": 3.0}, crf, marginals)
    assert crf["baseline_cpu_seconds"] == base and got["ratio_cpu_end_to_end_vs_crfsuite"] == ratio
    assert got["ratio_end_to_end_vs_crfsuite_viterbi_only"] == 3.0


def test_training_target_only_judged_on_physionet():
    res = {"corpus": "synth:100,1", "train_corpus": {"seconds": 10}, "train_synth_1m": {"peak_rss_mb": 3000},
           "memory": {"10": {"peak_rss_mb": 100}, "40": {"peak_rss_mb": 150}}}
    t = targets(res)
    assert t["physionet_train_seconds"]["met"] is None
    assert t["train_1m_peak_rss_mb"]["met"] is False
    assert t["tag_rss_4n_vs_n"] == {"target": "<= 1.1", "value": 1.5, "met": False}
    res["corpus"] = "physionet:/x"
    assert targets(res)["physionet_train_seconds"]["met"] is True


@pytest.mark.slow
def test_quick_run_writes_json_and_table(model_path, startup_measured, tmp_path, capsys, monkeypatch):
    # The start-up figure is the one measured by startup() with the quick run's arguments (tested
    # on its own below); the corpus is the module's six notes (a smoke run's size is not the point).
    import crfdeid.experiments.bench as bench_run
    asked = []
    monkeypatch.setattr(bench_run, "startup", lambda *a: asked.append(a) or startup_measured[1])
    out = tmp_path / "bench.json"
    write = tmp_path / "write"
    write.mkdir()
    rc = bench_cli.main(["--quick", "--no-train", "--model", str(model_path), "--json", str(out),
                     "--memory-notes", "3", "--quiet", "--write-dir", str(write), "--corpus", CORPUS])
    table = capsys.readouterr().out
    assert rc == 0
    assert [(str(m), runs) for m, _, runs in asked] == [(str(model_path), 2)]  # --quick: two runs of 7
    res = json.loads(out.read_text())
    assert res["tag_end_to_end"]["write_dir"] == str(write) and not list(write.iterdir())  # cleaned up
    assert res["tag_end_to_end"]["output_format"] == "i2b2" and f"i2b2 under {write}" in table
    crf = res["crfsuite_only"]
    assert crf["baseline"] == "set+tag" and crf["baseline_cpu_seconds"] == crf["cpu_seconds"]  # Viterbi model
    assert res["machine"]["cores"] >= 1 and res["machine"]["python"] and res["machine"]["python_crfsuite"]
    assert res["tag_end_to_end"]["tokens"] > 0 and res["ratio_end_to_end_vs_crfsuite"] > 1
    assert set(res["jobs"]) == {"1", "2"}
    assert all(r["exit_code"] == 0 and r["runs_seconds"] == [r["seconds"]] for r in res["jobs"].values())
    assert all(r["peak_rss_mb"] > 0 for r in res["memory"].values())
    assert res["startup"]["runs"] == 2 and res["startup"]["cpu_seconds_min"] > 0 and "start-up" in table
    assert "physionet" in res["deid_pl"]["skipped"] and "jobs_speedup" in res
    assert "tokens/s" in table and "target tag_tokens_per_s" in table
    # a smoke run's tiny corpus is not what the targets are about: measured, not judged
    assert all(t["met"] is None for t in res["targets"].values())
    assert res["targets"]["tag_tokens_per_s"]["value"] > 0
    assert "not judged (--quick smoke run)" in table and "NOT met" not in table
    assert table == format_table(res) + "\n"
    assert table.count("ratio end to end / CRFsuite") == 1  # Viterbi: the baseline is set+tag, said once
    crf.update(baseline="set+tag+marginals")
    assert format_table(res).count("ratio end to end / CRFsuite") == 2


def test_no_train_without_model_is_an_error(capsys):
    assert bench_cli.main(["--quick", "--no-train"]) == 2
    assert "--model" in capsys.readouterr().err


def test_rules_find_script_runs_on_a_synthetic_corpus(capsys):
    import runpy
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "bench" / "rules_find.py"
    code = runpy.run_path(str(script))["main"](["--corpus", "synth:5,1", "--passes", "2"])
    out = capsys.readouterr().out
    assert code == 0 and "5 notes" in out and "2 passes" in out and "best" in out


def test_warm_cache_script_tags_the_second_half_cold_and_warm(capsys):
    import runpy
    from pathlib import Path

    from crfdeid.tagging.model import DEFAULT_MODEL
    script = Path(__file__).resolve().parent.parent / "bench" / "warm_cache.py"
    code = runpy.run_path(str(script))["main"](["--model", str(DEFAULT_MODEL), "--corpus", "synth:6,1",
                                               "--repeats", "1"])
    out = capsys.readouterr().out
    assert code == 0 and out.count("second half, 3 notes") == 2
    assert "cold (model just loaded)" in out and "warm (after the first half)" in out and "cold / warm" in out


@pytest.fixture(scope="module")
def voting_path(tmp_path_factory):
    """A tiny model whose companion votes (its marginals averaged with the main CRF's), trained once
    for both backends' tests: each loads the file with its own backend."""
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"train": ["synth:8,7"], "crf": {"max_iterations": 5}, "rules": {"enabled": True},
                       "decoding": {"o_threshold": 0.99},
                       "companion": {"features": "full_oov", "weight": 0.5}})
    return train_model(None, cfg).save(tmp_path_factory.mktemp("voting") / "voting.model")


@pytest.mark.parametrize("backend", ["numpy", "crfsuite"])
def test_a_model_whose_companion_votes_is_timed_and_left_as_it_was(voting_path, backend):
    path = voting_path
    from crfdeid.io import read
    from crfdeid.tagging.decoding import AveragedBackend
    model = Model.load(path, backend=backend)
    assert isinstance(model._backend, AveragedBackend)
    before = [model.tag(d).spans for d in read(CORPUS)]
    res = tag_end_to_end(model, CORPUS)
    assert res["documents"] == 6 and res["stage_seconds"]["featurize"] > 0 and res["stage_seconds"]["crf"] > 0
    for part in (model._backend.main, model._backend.other):
        if backend == "numpy":
            assert "scores_many" not in vars(part.scorer)
        else:
            assert "featurize" not in vars(part.featurizer) and type(part.tagger).__name__ == "Tagger"
    assert [model.tag(d).spans for d in read(CORPUS)] == before


def test_startup_counts_cpu_and_crfdeid_modules(startup_measured):
    tmp_path, got = startup_measured
    assert got["runs"] == 2 and 0 < got["cpu_seconds_min"] <= got["cpu_seconds_median"]
    # timed with the bytecode cached, as installed (whatever PYTHONDONTWRITEBYTECODE says), and without
    assert got["bytecode"].startswith("cached") and got["without_cache_cpu_seconds_min"] > 0
    assert any((tmp_path / "startup-pycache").rglob("crfdeid/tagging/*.pyc"))
    # the tag path imports the tagging package but not training (issue 37)
    assert 20 < got["crfdeid_modules"] < 150


def test_tag_path_does_not_import_training(model_path, tmp_path):
    import subprocess
    import sys
    note = tmp_path / "n.txt"
    note.write_text("Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    code = ("import sys; from crfdeid.cli import tag; tag.main(['--quiet', '--output-format', 'redacted', "
            f"'--model', {str(model_path)!r}, {str(note)!r}]); "
            "print(sorted(m for m in sys.modules if m in ('crfdeid.crf.train', 'crfdeid.deid.stress', "
            "'crfdeid.io.splits')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.splitlines()[-1] == "[]" and "[**DOCTOR**]" in out
    from crfdeid.crf import train_model as again  # still the public name, imported on first use
    assert again is train_model


@pytest.mark.parametrize("program", [["crfdeid.tag"], ["crfdeid", "tag"], ["crfdeid.cli.tag"]])
def test_tag_freezes_what_it_loaded_before_the_collector_runs_again(model_path, tmp_path, program):
    # issue 37: the model and modules stay out of the collector's passes (the first one after
    # the load walked all of it; the one at exit too): a fifth of a one-note run. Run as
    # python -m MODULE [tag] (the console script is crfdeid.cli:main, as python -m crfdeid).
    note = tmp_path / "n.txt"
    note.write_text("Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    argv = [*program[1:], "--quiet", "--output-format", "redacted", "--model", str(model_path), str(note)]
    code = ("import atexit, gc, runpy, sys; "
            "atexit.register(lambda: print(gc.get_freeze_count(), gc.isenabled())); "
            f"sys.argv = ['-m', *{argv!r}]; runpy.run_module({program[0]!r}, run_name='__main__', alter_sys=True)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    frozen, enabled = out.splitlines()[-1].split()
    assert "[**DOCTOR**]" in out and int(frozen) > 10_000 and enabled == "True"


def test_tag_called_from_python_leaves_the_callers_collector_as_it_was(model_path, tmp_path, capsys):
    import gc

    from crfdeid.cli import tag
    note = tmp_path / "n.txt"
    note.write_text("Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    before = gc.get_freeze_count()
    assert tag.main(["--quiet", "--output-format", "redacted", "--model", str(model_path), str(note)]) == 0
    assert "[**DOCTOR**]" in capsys.readouterr().out
    assert gc.get_freeze_count() == before and gc.isenabled()


def test_redacted_tag_imports_no_surrogates_nor_tqdm_and_compiles_only_the_rules_it_runs(model_path, tmp_path):
    """Issue 37's start-up: a redacted ``tag`` of one note imports neither the surrogates nor
    tqdm (no bar is drawn), and compiles only the rules and Safe Harbor forms the note can hold."""
    import subprocess
    import sys
    note = tmp_path / "n.txt"
    note.write_text("Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    code = ("import json, sys; from crfdeid.cli import tag; tag.main(['--quiet', '--output-format', 'redacted', "
            f"'--model', {str(model_path)!r}, {str(note)!r}]); "
            "from crfdeid.recognizers import rules, safeharbor; "
            "n = lambda rxs: sum(len(vars(rx)) > 1 for rx in rxs); "
            "print(json.dumps({'modules': sorted(m for m in sys.modules if m in ('crfdeid.deid.surrogate', "
            "'crfdeid.deid.policies', 'tqdm')), 'rules': [n(rx for _, rx in rules.RULES.values()), len(rules.RULES)], "
            "'forms': [n(f[1] for f in safeharbor.FORMS.values()), len(safeharbor.FORMS)]}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert "[**DOCTOR**]" in out
    got = json.loads(out.splitlines()[-1])
    assert got["modules"] == []
    assert 0 < got["rules"][0] < got["rules"][1] / 2 and 0 < got["forms"][0] < got["forms"][1]
    from crfdeid.deid import Surrogator  # still the public name, imported on first use
    from crfdeid.deid.surrogate import Surrogator as direct
    assert Surrogator is direct


def test_deid_pl_row_is_skipped_where_it_is_absent(model_path, tmp_path, monkeypatch):
    from crfdeid.experiments.bench import whole
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "id.text").write_text("START_OF_RECORD=1||||1||||\nSeen by Dr. Lee on 7/22/2098.\n"
                                    "||||END_OF_RECORD\n", encoding="utf-8")
    for where in (None, str(tmp_path)):  # unset, or a folder without deid.pl
        if where is None:
            monkeypatch.delenv(whole.DEID_PL_ENV, raising=False)
        else:
            monkeypatch.setenv(whole.DEID_PL_ENV, where)
        got = whole.against_deid_pl(f"physionet:{corpus}", model_path, tmp_path)
        assert "deid.pl not found" in got["deid_pl_skipped"] and "ratio_crfdeid_vs_deid_pl" not in got
        # the row says how to measure it: which variable names which folder
        assert "set $DEID_PL to the folder holding deid.pl" in got["deid_pl_skipped"]
        assert ("is not set" if where is None else f"({where}) holds no deid.pl") in got["deid_pl_skipped"]
        assert got["words"] == 6 and got["crfdeid_cpu_seconds"] > 0  # crfdeid's own row is measured
    assert "physionet" in whole.against_deid_pl("synth:3,1", model_path, tmp_path)["skipped"]
    machine = {"cpu": "c", "cores": 2, "ram_gb": 1, "load_average": [1]}
    table = format_table({"corpus": "x", "machine": machine, "deid_pl": got})
    assert "skipped: deid.pl not found" in table and "words/CPU-s" in table
    assert targets({"deid_pl": got})["words_per_cpu_s_vs_deid_pl"]["met"] is None  # not measured


def test_words_of_a_physionet_file_leave_out_the_record_markers(tmp_path):
    from crfdeid.experiments.bench.whole import words
    (tmp_path / "id.text").write_text("START_OF_RECORD=1||||1||||\nSeen by Dr. Lee.\n||||END_OF_RECORD\n")
    assert words(tmp_path / "id.text") == 4


@pytest.mark.parametrize("one, two, met", [(9.0, 5.0, True), (9.0, 6.0, False)])
def test_jobs_and_startup_targets_of_issue_37(one, two, met):
    from crfdeid.experiments.bench.whole import jobs_speedup
    res = {"jobs": {"1": {"seconds": one}, "2": {"seconds": two}}, "startup": {"cpu_seconds_min": 0.31}}
    res["jobs_speedup"] = jobs_speedup(res["jobs"])
    t = targets(res)
    assert t["jobs_2_vs_1"]["met"] is met and t["startup_cpu_seconds"]["met"] is False
    assert t["words_per_cpu_s_vs_deid_pl"]["met"] is None  # not measured: deid.pl absent


def test_every_vote_of_a_prior_with_also_is_timed():
    """``prior.also``'s votes are CRFs the stage clock wraps too, not only the first one."""
    from types import SimpleNamespace

    from crfdeid.experiments.bench.stages import _crf_parts
    from crfdeid.tagging.decoding import AveragedBackend

    main, a, b, c = (SimpleNamespace(labels=["O", "B-DATE"]) for _ in range(4))
    votes = AveragedBackend(main, [a, b], 0.6)
    assert _crf_parts(votes) == [main, a, b]
    assert _crf_parts(AveragedBackend(votes, c, 0.02)) == [main, a, b, c]  # nested: a companion's vote around it
