"""Word and RTF letters are read as notes, every other file of a notes folder is named with why it
is not read (issue 61: a .docx was skipped with exit 0, and given alone got a message about text
encodings). The letters are made here, with made-up names."""

from __future__ import annotations

import pytest

from crfdeid import cli
from crfdeid.io import read
from crfdeid.io.letters import read_letter, why_not_read

docx = pytest.importorskip("docx")

NAME, MRN, DOCTOR = "Harlan Quist", "4410-2297", "Imogen Tell"


def make_docx(path, with_header: bool = True) -> None:
    d = docx.Document()
    if with_header:
        d.sections[0].header.paragraphs[0].text = "Norfield Clinic, 12 Birch Lane"
    d.add_paragraph(f"Dear Dr. {DOCTOR},")
    p = d.add_paragraph("I saw Mr. ")
    p.add_run(NAME).bold = True  # a name split over runs is one word of the text
    p.add_run(" on 03/14/2098 in clinic.")
    table = d.add_table(rows=1, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "MRN", MRN
    d.sections[0].footer.paragraphs[0].text = "Page 1"
    d.save(path)


RTF = (r"{\rtf1\ansi\deff0{\fonttbl{\f0 Helvetica;}}\f0\pard Seen by Dr. Lee on 7/22/2098.\par "
       r"Call 617-555-0148 about Mr. Harlan Quist\'92s results.\par}")


def test_a_docx_is_read_header_body_table_and_footer_in_order(tmp_path):
    make_docx(tmp_path / "letter.docx")
    errors = []
    text = read_letter(tmp_path / "letter.docx", errors.append)
    assert errors == []
    assert text.splitlines() == ["Norfield Clinic, 12 Birch Lane", f"Dear Dr. {DOCTOR},",
                                 f"I saw Mr. {NAME} on 03/14/2098 in clinic.", f"MRN\t{MRN}", "Page 1"]


def test_an_rtf_letter_is_read_as_text(tmp_path):
    (tmp_path / "referral.rtf").write_text(RTF, encoding="ascii")
    text = read_letter(tmp_path / "referral.rtf", [].append)
    assert "Seen by Dr. Lee on 7/22/2098." in text and "Mr. Harlan Quist\u2019s results" in text
    assert "\\rtf" not in text and "Helvetica" not in text


def test_a_folder_of_letters_is_de_identified_as_text_and_other_files_are_named(tmp_path, capsys):
    notes, out = tmp_path / "notes", tmp_path / "out"
    notes.mkdir()
    make_docx(notes / "p1_letter.docx")
    (notes / "p1_referral.rtf").write_text(RTF, encoding="ascii")
    (notes / "p1_nursing.txt").write_text(f"Mr. {NAME} seen on 03/14/2098.\n", encoding="utf-8")
    (notes / "scan.pdf").write_bytes(b"%PDF-1.4 made up")
    (notes / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    (notes / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0")
    assert cli.main(["tag", str(notes), "--output-format", "redacted", "--output-dir", str(out)]) == 0
    err = capsys.readouterr().err
    # and once more in the run's summary at the end, counted
    summary = err.splitlines()[err.splitlines().index("tagged 3 document(s), 0 failed"):]
    assert any(line.startswith("3 file(s) of the input folders not read: named above, with why") for line in summary)
    written = sorted(p.name for p in out.glob("*.txt"))
    assert written == ["p1_letter.txt", "p1_nursing.txt", "p1_referral.txt"]  # a letter's output is text
    text = "".join((out / n).read_text(encoding="utf-8") for n in written)
    for phi in (NAME, "Quist", MRN, DOCTOR, "617-555-0148", "03/14/2098"):
        assert phi not in text, phi
    assert "in clinic." in text and "MRN\t" in text
    # every file not read is named, counted by reason, with what to do; never its text
    [line] = [x for x in err.splitlines() if "file(s) not read" in x]
    assert "3 file(s) not read" in line
    assert "1 PDF(s), not read: export the text" in line and "'scan.pdf'" in line
    assert "1 image(s), not read" in line and "'photo.jpg'" in line
    assert "1 Word 97-2003 document(s) (.doc), not read: save as .docx" in line and "'old.doc'" in line
    assert NAME not in err and "Quist" not in err


def test_a_docx_given_alone_is_read_and_a_pdf_alone_is_refused_by_kind(tmp_path, capsys):
    make_docx(tmp_path / "letter.docx", with_header=False)
    assert cli.main(["tag", str(tmp_path / "letter.docx"), "--output-format", "redacted", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "in clinic." in out and NAME not in out and "encoding" not in out
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4 made up")
    assert cli.main(["tag", str(tmp_path / "scan.pdf"), "--output-format", "redacted", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "scan.pdf'" in err and "PDF, not read: export the text" in err and "UTF-8" not in err


@pytest.mark.parametrize("name,data", [("broken.docx", b"PK\x03\x04 not a zip"), ("renamed.docx", b"\xd0\xcf\x11\xe0"),
                                       ("plain.rtf", b"not rtf at all")])
def test_a_damaged_letter_is_reported_by_name_and_costs_only_itself(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    (tmp_path / "ok.txt").write_text("Seen on 7/22/2098.\n", encoding="utf-8")
    errors: list = []
    docs = list(read(f"text:{tmp_path}", errors=errors))
    assert [d.doc_id for d in docs] == ["ok"]
    [error] = errors
    assert name in str(error) and ("not a Word .docx" in str(error) or "not an RTF" in str(error))


def test_every_kind_has_a_reason_that_says_what_to_do():
    assert why_not_read("x.xml").endswith("(i2b2:FOLDER...)")
    assert "csv reader" in why_not_read("t.CSV")
    assert "another kind" in why_not_read(".DS_Store")


def test_files_of_a_subfolder_that_no_option_would_read_are_named_too(tmp_path, capsys):
    (tmp_path / "n1.txt").write_text("Seen on 7/22/2098.\n", encoding="utf-8")
    (tmp_path / "scans").mkdir()
    (tmp_path / "scans" / "s1.pdf").write_bytes(b"%PDF-1.4 made up")
    assert [d.doc_id for d in read(f"text:{tmp_path}")] == ["n1"]
    err = capsys.readouterr().err
    assert "1 file(s) not read: 1 PDF(s), not read" in err and "'scans/s1.pdf'" in err
