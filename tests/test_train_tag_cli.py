"""The train and tag command lines: outputs, stdin, failures, exit codes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from crfdeid.cli import tag, train
from crfdeid.io import read
from crfdeid.io.runmanifest import notes_only

ROOT = Path(__file__).resolve().parent.parent
SMALL = str(ROOT / "configs" / "synth-small.yaml")
NOTE = "Seen by Dr. Ann Lee on 03/14/2098.\nCall 617-555-0199.\n"


@pytest.fixture(scope="module")
def model_path(small_model, tmp_path_factory):
    """What ``train --config SMALL`` writes: the same bytes as the session's model saved (tests/conftest.py);
    the command's own training runs in the tests below."""
    return small_model.save(tmp_path_factory.mktemp("model") / "small.model")


def test_train_prints_summary_and_scores_dev(tmp_path, capsys):
    out = tmp_path / "m.model"
    rc = train.main(["--config", SMALL, "--train", "synth:10,1", "--dev", "synth:5,2",
                     "--set", "crf.max_iterations=5", "--output", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert rc == 0 and out.exists()
    assert "documents:  10" in text and "iterations: 5" in text and "dev binary_token" in text


def test_train_bad_config_exits_2(tmp_path, capsys):
    rc = train.main(["--config", SMALL, "--set", "crf.c9=1", "--output", str(tmp_path / "m")])
    assert rc == 2 and "c9" in capsys.readouterr().err


def test_tag_stdin_to_jsonl(model_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(NOTE.encode())))
    assert tag.main(["--model", str(model_path), "--output-format", "jsonl", "--quiet"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["text"] == NOTE and rec["spans"]
    assert all(0 <= s["start"] < s["end"] <= len(NOTE) for s in rec["spans"])


def test_tag_i2b2_keeps_id_and_text_exactly(model_path, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    text = "Pt  seen by Dr. Lee\r\non 03/14/2098 ]]> end\n\n"
    (src / "note-42.txt").write_bytes(text.encode())
    out = tmp_path / "out"
    rc = tag.main(["--model", str(model_path), "--output-format", "i2b2", "--output-dir",
                   str(out), str(src), "--quiet"])
    assert rc == 0
    [doc] = list(read(f"i2b2:{out}"))
    assert doc.doc_id == "note-42" and doc.text == text


def test_failed_document_is_reported_not_written_and_exit_1(model_path, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.txt").write_text(NOTE)
    (src / "bad.txt").write_bytes(b"Dr. Secretname \xff\xfe")
    out = tmp_path / "out"
    rc = tag.main(["--model", str(model_path), "--output-format", "i2b2", "--output-dir",
                   str(out), str(src), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 1
    assert sorted(p.name for p in notes_only(out.iterdir())) == ["good.xml"]
    assert "bad" in err and "1 failed" in err and "Secretname" not in err


@pytest.mark.parametrize("option, values", [("--jobs", ("1", "2")), ("--backend", ("numpy", "crfsuite"))])
def test_options_give_the_same_output(model_path, tmp_path, option, values):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(6):
        (src / f"n{i}.txt").write_text(NOTE.replace("Lee", f"Lee{i}"))
    outs = []
    for value in values:
        assert tag.main(["--model", str(model_path), "--output-format", "jsonl", option, value,
                         "--output-dir", str(tmp_path / value), str(src), "--quiet"]) == 0
        outs.append((tmp_path / value / "tagged.jsonl").read_text())
    assert outs[0] == outs[1] and outs[0].count("\n") == 6 and '"spans": []' not in outs[0]


@pytest.mark.parametrize("batch_chars", [1, 150, 10 ** 6])
def test_jobs_tag_batches_in_input_order(model_path, tmp_path, monkeypatch, batch_chars):
    # --jobs N hands workers batches of about BATCH_CHARS characters; the output keeps the
    # input order whatever the batches (one note each, a few, all in one).
    monkeypatch.setattr("crfdeid.tagging.model.BATCH_CHARS", batch_chars)
    src = tmp_path / "in"
    src.mkdir()
    for i in range(9):
        (src / f"n{i}.txt").write_text(NOTE.replace("Lee", f"Lee{i}") * (1 + i % 3))
    outs = []
    for jobs in ("1", "2", "3"):
        assert tag.main(["--model", str(model_path), "--output-format", "jsonl", "--jobs", jobs,
                         "--output-dir", str(tmp_path / jobs), str(src), "--quiet"]) == 0
        outs.append((tmp_path / jobs / "tagged.jsonl").read_text())
    assert outs[0] == outs[1] == outs[2]
    assert [json.loads(line)["id"] for line in outs[1].splitlines()] == [f"n{i}" for i in range(9)]


def test_batches_of_documents():
    from crfdeid.document import Document
    from crfdeid.tagging.model import batches
    docs = [Document(str(i), "x" * n) for i, n in enumerate([5, 5, 20, 1, 1, 1])]
    got = [[d.doc_id for d in b] for b in batches(iter(docs), 10)]
    assert got == [["0", "1"], ["2"], ["3", "4", "5"]]
    assert list(batches([], 10)) == []


def test_o_threshold_option_adds_spans(model_path, tmp_path, capsys):
    src = tmp_path / "n.txt"
    src.write_text(NOTE * 3)
    tag.main(["--model", str(model_path), "--quiet", str(src)])
    plain = json.loads(capsys.readouterr().out)
    tag.main(["--model", str(model_path), "--quiet", "--o-threshold", "0.9999", str(src)])
    eager = json.loads(capsys.readouterr().out)
    covered = lambda r: sum(s["end"] - s["start"] for s in r["spans"])  # noqa: E731
    assert covered(eager) >= covered(plain)


@pytest.mark.slow
def test_o_threshold_none_gives_viterbi_on_a_threshold_model(tmp_path, capsys):
    out = tmp_path / "t.model"
    assert train.main(["--config", SMALL, "--set", "decoding.o_threshold=0.9999", "--output", str(out),
                       "--quiet"]) == 0
    capsys.readouterr()
    src = tmp_path / "n.txt"
    src.write_text(NOTE * 3)
    runs = {}
    for opt in ([], ["--o-threshold", "none"], ["--o-threshold", "0.9999"]):
        assert tag.main(["--model", str(out), "--quiet", *opt, str(src)]) == 0
        runs[" ".join(opt)] = json.loads(capsys.readouterr().out)["spans"]
    from crfdeid.crf.model import Model
    from crfdeid.document import Document
    viterbi = Model.load(out).tag(Document("n", NOTE * 3), o_threshold=None)
    assert [(s["start"], s["end"]) for s in runs["--o-threshold none"]] == \
        [(s.start, s.end) for s in viterbi.spans]
    assert runs[""] == runs["--o-threshold 0.9999"]


@pytest.mark.slow
def test_no_o_words_lets_the_threshold_mark_training_words(o_words_model_file, tmp_path, capsys):
    # `crfdeid train --config SMALL --set decoding.o_threshold=1.0 --set decoding.o_words_min_count=2`,
    # once a worker (tests/conftest.py)
    out = o_words_model_file
    capsys.readouterr()
    src = tmp_path / "n.txt"
    src.write_text(NOTE * 3)
    runs = {}
    for opt in ([], ["--no-o-words"], ["--no-o-words", "--jobs", "2"], ["--jobs", "2"]):
        assert tag.main(["--model", str(out), "--quiet", *opt, str(src)]) == 0
        runs[" ".join(opt)] = json.loads(capsys.readouterr().out)["spans"]
    text = NOTE * 3
    marked = lambda spans: {text[s["start"]:s["end"]].lower() for s in spans}  # noqa: E731
    assert "seen" in marked(runs["--no-o-words"]) and "seen" not in marked(runs[""])
    assert runs["--no-o-words --jobs 2"] == runs["--no-o-words"] and runs["--jobs 2"] == runs[""]


@pytest.mark.parametrize("argv, code", [
    (["--model", "/nonexistent/model"], 2),
    (["--jobs", "0"], 2),
    (["--o-threshold", "2"], 2),
])
def test_tag_usage_errors_exit_2(argv, code, capsys):
    assert tag.main(argv + ["--quiet", "-"]) == code
    assert "error:" in capsys.readouterr().err


def test_corrupt_model_refused_by_cli(tmp_path, capsys):
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    assert tag.main(["--model", str(bad), "--quiet", "-"]) == 2
    assert "bad.model" in capsys.readouterr().err


def _tag_dir(model_path, src, out, *extra):
    return tag.main(["--model", str(model_path), "--output-dir", str(out), str(src), "--quiet", *extra])


@pytest.fixture
def two_notes(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "110-01.txt").write_text(NOTE)
    (src / "110-02.txt").write_text(NOTE.replace("03/14", "04/02"))
    return src


KEY = "0123456789abcdef-a-test-key"   # a key file holds at least 16 bytes


@pytest.mark.parametrize("how", [["--seed", "7"], ["--key", KEY], ["--key-file", "KEYFILE"]])
def test_tag_surrogates_are_reproducible_per_seed_or_key(model_path, two_notes, tmp_path, how):
    (tmp_path / "KEYFILE").write_text(KEY + "\n")
    how = [str(tmp_path / h) if h == "KEYFILE" else h for h in how]
    runs = []
    for name in ("a", "b"):
        assert _tag_dir(model_path, two_notes, tmp_path / name, "--output-format", "surrogate", *how) == 0
        runs.append({p.name: p.read_text() for p in notes_only((tmp_path / name).iterdir())})
    assert runs[0] == runs[1] and sorted(runs[0]) == ["110-01.txt", "110-02.txt"]
    assert all(t != NOTE for t in runs[0].values())


def test_tag_surrogates_without_a_key_say_so_on_stderr(model_path, two_notes, tmp_path, capsys):
    # a random key is made per run: the user is told (even with --quiet), and never shown the notes
    assert _tag_dir(model_path, two_notes, tmp_path / "a", "--output-format", "surrogate") == 0
    err = capsys.readouterr().err
    assert "random key" in err and "--key-file" in err
    assert "Lee" not in err and "617" not in err
    for how in (["--seed", "7"], ["--key", KEY], ["-o", "seed=7"]):  # a key or seed given: no note
        assert _tag_dir(model_path, two_notes, tmp_path / how[-1], "--output-format", "surrogate", *how) == 0
        assert "random key" not in capsys.readouterr().err
    assert _tag_dir(model_path, two_notes, tmp_path / "r", "--output-format", "redacted") == 0
    assert "random key" not in capsys.readouterr().err


def test_tag_key_and_key_file_agree(model_path, two_notes, tmp_path):
    (tmp_path / "k").write_text(KEY + "\n")
    _tag_dir(model_path, two_notes, tmp_path / "a", "--output-format", "surrogate", "--key", KEY)
    _tag_dir(model_path, two_notes, tmp_path / "b", "--output-format", "surrogate", "--key-file",
             str(tmp_path / "k"))
    assert [p.read_text() for p in sorted(notes_only((tmp_path / "a").iterdir()))] == \
        [p.read_text() for p in sorted(notes_only((tmp_path / "b").iterdir()))]


def test_tag_writer_options_reach_the_writer(model_path, two_notes, tmp_path):
    assert _tag_dir(model_path, two_notes, tmp_path / "r", "--output-format", "redacted",
                    "-o", "style=category") == 0
    redacted = (tmp_path / "r" / "110-01.txt").read_text()
    assert "[DATE]" in redacted and "[**" not in redacted  # category style, not the mimic default
    assert _tag_dir(model_path, two_notes, tmp_path / "s", "--output-format", "surrogate",
                    "--seed", "1", "-o", "xml=true") == 0
    [doc] = [d for d in read(f"i2b2:{tmp_path / 's'}") if d.doc_id == "110-01"]
    assert doc.text == (tmp_path / "s" / "110-01.txt").read_text() and doc.spans


@pytest.mark.parametrize("argv, allowed", [
    (["--output-format", "redacted", "--seed", "1"], "style"),
    (["--output-format", "surrogate", "-o", "colour=red"], "seed"),
    (["--output-format", "masked", "-o", "novalue"], "KEY=VALUE"),
    (["--output-format", "surrogate", "-o", "date_shift=5"], "bad option value"),
])
def test_tag_options_a_writer_does_not_take_exit_2(model_path, two_notes, tmp_path, argv, allowed, capsys):
    assert _tag_dir(model_path, two_notes, tmp_path / "o", *argv) == 2
    err = capsys.readouterr().err
    assert "error:" in err and allowed in err


@pytest.mark.parametrize("template, expected", [
    ("[{subtype}]", "[DATE]"), ("[**{subtype}**]", "[**DATE**]"), ("{subtype}!", "DATE!"), ("<{subtype}>", "<DATE>"),
])
def test_tag_template_option_is_taken_as_written(model_path, two_notes, tmp_path, template, expected):
    # brackets, braces and stars are YAML syntax; a template must still arrive as the string typed
    assert _tag_dir(model_path, two_notes, tmp_path / "r", "--output-format", "redacted",
                    "-o", f"template={template}") == 0
    assert expected in (tmp_path / "r" / "110-01.txt").read_text()


def test_tag_group_by_gives_a_patient_one_set_of_surrogates(model_path, tmp_path, capsys):
    src = tmp_path / "notes.jsonl"
    rows = [("a", {"mrn": "7"}), ("b", {"mrn": "7"}), ("c", {})]
    src.write_text("".join(json.dumps({"id": i, "text": NOTE, "meta": m}) + "\n" for i, m in rows))
    outs = {}
    for name, extra in (("grouped", ["--group-by", "mrn"]), ("apart", [])):
        rc = _tag_dir(model_path, f"jsonl:{src}", tmp_path / name, "--output-format", "surrogate",
                      "--seed", "3", *extra)
        outs[name] = {p.stem: p.read_text() for p in notes_only((tmp_path / name).iterdir())}
        assert rc == (1 if extra else 0)
    assert sorted(outs["grouped"]) == ["a", "b"]  # "c" has no mrn: reported, never written
    assert "'c'" in capsys.readouterr().err
    assert outs["grouped"]["a"] == outs["grouped"]["b"] != NOTE  # one patient, one date shift
    assert outs["apart"]["a"] != outs["apart"]["b"]              # each note its own patient


@pytest.mark.parametrize("argv", [["--input", "notes.txt"], ["--output", "out"], ["--model", "m", "--out", "x"]])
def test_options_abbreviated_are_refused_not_guessed(argv, capsys):
    # `--input notes.txt` was once read as `--input-format notes.txt`: the run tagged standard
    # input (nothing) and ignored the file.
    with pytest.raises(SystemExit) as e:
        tag.main(argv)
    assert e.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err
