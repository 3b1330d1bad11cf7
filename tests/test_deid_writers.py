"""Writers redacted/masked/surrogate and the ``corpus surrogate`` subcommand (synthetic notes)."""

import argparse
import json

import pytest

from crfdeid.cli import surrogate as cli
from crfdeid.deid.writers import MaskedWriter, RedactedWriter, SurrogateWriter
from crfdeid.document import Document, make_span
from crfdeid.io import WRITERS, read, write
from crfdeid.io.i2b2 import I2b2Writer

GOOD = Document("110-01", "Dr. Ann Lee saw pt on 7/22/2097.", [make_span(4, 11, "DOCTOR"), make_span(22, 31, "DATE")])
BAD = Document("110-02", "Lee\x00 again", [make_span(0, 3, "DOCTOR")])   # XML cannot carry U+0000


def test_writers_are_registered():
    assert WRITERS.get("redacted") is RedactedWriter
    assert WRITERS.get("masked") is MaskedWriter and WRITERS.get("surrogate") is SurrogateWriter


def test_redacted_and_masked_files(tmp_path):
    write([GOOD], "redacted", tmp_path / "r", style="xyz")
    write([GOOD], "masked", tmp_path / "m")
    assert (tmp_path / "r" / "110-01.txt").read_text() == "Dr. XYZ_DOCTOR saw pt on 00.00.DATE."
    assert (tmp_path / "m" / "110-01.txt").read_text() == "Dr. XXX XXX saw pt on XXXXXXXXX."


def test_stdout(capsys):
    write([GOOD], "redacted", "-")
    assert capsys.readouterr().out == "Dr. [**DOCTOR**] saw pt on [**DATE**].\n"


def test_surrogate_writer_text_and_xml_with_new_spans(tmp_path):
    write([GOOD], "surrogate", tmp_path, seed=1, xml=True)
    text = (tmp_path / "110-01.txt").read_text()
    assert "Ann" not in text and "Lee" not in text and "7/22/2097" not in text
    (doc,) = read(f"i2b2:{tmp_path}")   # the reader checks every span's text attribute
    assert doc.text == text and [sp.subtype for sp in doc.spans] == ["DOCTOR", "DATE"]


def test_surrogate_writer_is_deterministic_per_seed(tmp_path):
    write([GOOD], "surrogate", tmp_path / "a", seed=9)
    write([GOOD], "surrogate", tmp_path / "b", seed=9)
    assert (tmp_path / "a" / "110-01.txt").read_text() == (tmp_path / "b" / "110-01.txt").read_text()


def test_fail_closed_leaves_no_file(tmp_path):
    with pytest.raises(Exception), SurrogateWriter(tmp_path, seed=1, xml=True) as w:
        w.write(GOOD)
        w.write(BAD)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["110-01.txt", "110-01.xml"]


def test_no_mapping_unless_asked_and_private(tmp_path):
    write([GOOD], "surrogate", tmp_path / "out", seed=1)
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["110-01.txt"]
    write([GOOD], "surrogate", tmp_path / "out2", seed=1, mapping=tmp_path / "map.tsv")
    assert (tmp_path / "map.tsv").read_text().startswith("patient\tnote\t")
    assert (tmp_path / "map.tsv").stat().st_mode & 0o077 == 0


def run_cli(argv):
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_corpus_surrogate_check(tmp_path, capsys):
    src = tmp_path / "src"
    notes = [GOOD, Document("110-03", "Ann Lee again on 8/1/2097, Lee, at Zqxv Clinic.",
                            [make_span(0, 7, "DOCTOR"), make_span(17, 25, "DATE"), make_span(27, 30, "DOCTOR"),
                             make_span(35, 46, "HOSPITAL")])]
    with I2b2Writer(src) as w:
        for d in notes:
            w.write(d)
    code = run_cli(["surrogate", f"i2b2:{src}", "--out", str(tmp_path / "out"), "--seed", "13", "--check", "-q"])
    out = capsys.readouterr().out
    summary = json.loads(out)
    assert code == 0 and summary["notes"] == 2 and summary["check"]["ok"]
    assert summary["check"]["leaks"] == 0 and summary["check"]["full_dates"] == 2
    assert "Lee" not in out and "Ann" not in out            # counts only, never PHI
    new = {d.doc_id: d for d in read(f"i2b2:{tmp_path / 'out'}")}
    assert set(new) == {"110-01", "110-03"} and "Lee" not in new["110-03"].text


def test_corpus_surrogate_bad_shift_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit):
        run_cli(["surrogate", "i2b2:x", "--out", str(tmp_path), "--date-shift", "soon"])


def test_group_by_names_an_existing_field(tmp_path, capsys):
    src = tmp_path / "src"
    with I2b2Writer(src) as w:
        w.write(GOOD)
    assert run_cli(["surrogate", f"i2b2:{src}", "--out", str(tmp_path / "o"), "--seed", "1", "-q",
                    "--group-by", "source"]) == 0
    from crfdeid.errors import ConfigError
    with pytest.raises(ConfigError, match="nosuch"):
        run_cli(["surrogate", f"i2b2:{src}", "--out", str(tmp_path / "o2"), "--group-by", "nosuch"])


def test_one_options_object_reaches_the_surrogates_from_every_writer_that_draws_them():
    from crfdeid.deid.defaults import SurrogateOptions
    from crfdeid.errors import ConfigError
    from crfdeid.io import open_writer
    from crfdeid.io.fhir import FhirWriter
    from crfdeid.io.hl7 import Hl7Writer
    opts = SurrogateOptions(date_shift=(-400, -370), proven="off", dob="no-year")
    writers = [SurrogateWriter("-", seed=1, options=opts), FhirWriter(None, text="surrogate", seed=1, options=opts),
               Hl7Writer(None, text="surrogate", seed=1, options=opts)]
    surrogators = [writers[0].surrogator] + [w.inner.surrogator for w in writers[1:]]
    assert all(s.options is opts for s in surrogators)  # passed on as it is
    assert all(s.proven is None and s.date_shift == (-400, -370) and s.dob == "no-year" for s in surrogators)
    by_name = SurrogateWriter("-", seed=1, options=opts, proven=0.9).surrogator  # a field by name wins
    assert by_name.proven == 0.9 and by_name.dob == "no-year"
    # -o gives the fields by name, a list where a pair is wanted; a name that is no option is refused
    assert open_writer("surrogate", None, {"seed": 1, "date_shift": [-400, -370]}).surrogator.date_shift == (-400, -370)
    with pytest.raises(ConfigError, match="does not take proven_nmes; it takes: .*proven_names"):
        open_writer("fhir", None, {"text": "surrogate", "seed": 1, "proven_nmes": "1"})
    with pytest.raises(ConfigError, match="takes none of options"):  # redacted text draws no surrogates
        FhirWriter(None, text="redacted", options=opts)


def test_became_holds_the_pieces_of_a_span_cut_at_a_line_break():
    from crfdeid.deid.writers import became
    text = "Seen by Dr Lee\nSmith today; Ann Kerr aware."
    doc = Document("b1", text, [make_span(11, 20, "DOCTOR"), make_span(28, 36, "PATIENT")])
    RedactedWriter("-").transform(doc)
    assert became("b1") == {(11, 14): "[**DOCTOR**]", (15, 20): "[**DOCTOR**]", (28, 36): "[**PATIENT**]"}
