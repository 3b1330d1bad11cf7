"""Hospital exports: notes in UTF-16 or UTF-8 with a byte-order mark are read as marked by every
reader that reads text, and notes in another encoding (Windows-1252) are read when it is named
(``encoding=`` reader option, ``--encoding``). Every note here is made up."""

from __future__ import annotations

import codecs
import json

import pytest

from crfdeid.cli import main
from crfdeid.errors import ConfigError, InputError, ReaderError
from crfdeid.io import read
from crfdeid.io.runmanifest import notes_only

NOTE = "Seen by Dr. Zoë Müller on 7/22/2098 – café.\r\nCall 617-555-0199.\n"
MARKED = {"utf-8-sig": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
          "utf-32-le": codecs.BOM_UTF32_LE}


def marked(text: str, encoding: str) -> bytes:
    """``text`` as a file in ``encoding`` that starts with its byte-order mark."""
    return MARKED[encoding] + text.encode(encoding.replace("-sig", ""))


def i2b2_xml(note: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n<TEXT><![CDATA[{note}]]></TEXT>\n<TAGS>\n'
            '<NAME id="P0" start="12" end="22" TYPE="DOCTOR" text="Zoë Müller" comment="" />\n'
            "</TAGS>\n</deIdi2b2>\n")


def write(tmp_path, fmt: str, note: str, encode) -> str:
    """The input spec of one made-up note with its one span (Dr. Zoë Müller, [12, 22)) in ``fmt``."""
    shift = int(any(encode("a").startswith(bom) for bom in MARKED.values()))  # BRAT counts a mark
    if fmt == "text":
        (tmp_path / "n1.txt").write_bytes(encode(note))
    elif fmt == "brat":
        (tmp_path / "n1.txt").write_bytes(encode(note))
        (tmp_path / "n1.ann").write_bytes(encode(f"T1\tDOCTOR {12 + shift} {22 + shift}\tZoë Müller\n"))
    elif fmt == "jsonl":
        (tmp_path / "n.jsonl").write_bytes(encode(
            '{"id": "n1", "text": ' + json.dumps(note, ensure_ascii=False)
            + ', "spans": [{"start": 12, "end": 22, "subtype": "DOCTOR"}]}\n'))
        return f"jsonl:{tmp_path / 'n.jsonl'}"
    elif fmt == "csv":
        cell = note.replace('"', '""')
        (tmp_path / "n.csv").write_bytes(encode(f'id,text,spans\nn1,"{cell}","[{{""start"": 12, ""end"": 22, '
                                                '""subtype"": ""DOCTOR""}]"\n'))
        return f"csv:{tmp_path / 'n.csv'}"
    elif fmt == "i2b2":
        (tmp_path / "n1.xml").write_bytes(encode(i2b2_xml(note)))
    elif fmt == "physionet":
        (tmp_path / "id.text").write_bytes(encode(f"START_OF_RECORD=1||||1||||\n{note}||||END_OF_RECORD\n"))
        return f"physionet:{tmp_path / 'id.text'}"
    return f"{fmt}:{tmp_path}"


FORMATS = ["text", "brat", "jsonl", "csv", "i2b2", "physionet"]


def as_read(fmt: str) -> str:
    """The note as its format gives it back: XML turns a written "\\r\\n" into "\\n"."""
    return NOTE.replace("\r\n", "\n") if fmt == "i2b2" else NOTE


@pytest.mark.parametrize("encoding", sorted(MARKED))
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_reader_reads_a_file_as_its_byte_order_mark_says(tmp_path, fmt, encoding):
    [doc] = read(write(tmp_path, fmt, NOTE, lambda text: marked(text, encoding)))
    # A note file keeps its mark as U+FEFF (BRAT counts it in offsets), whatever the encoding;
    # a file of many notes or annotations drops it.
    keeps = fmt in ("text", "brat")
    assert doc.text == ("\ufeff" if keeps else "") + as_read(fmt)
    if fmt not in ("text", "physionet"):  # physionet: read without its phrase file here
        [span] = doc.spans
        assert doc.text[span.start:span.end] == "Zoë Müller"


@pytest.mark.parametrize("fmt", FORMATS)
def test_windows_1252_is_read_when_named_and_the_error_says_how(tmp_path, fmt):
    spec = write(tmp_path, fmt, NOTE, lambda text: text.encode("cp1252"))
    errors: list = []
    try:
        docs = list(read(spec, errors=errors))
    except ReaderError as exc:  # physionet: a file that does not decode stops the input
        errors.append(exc)
        docs = []
    assert docs == [] and errors
    message = str(errors[0])
    assert "not valid UTF-8" in message and "--encoding cp1252" in message and "encoding=cp1252" in message
    assert "Müller" not in message and "caf" not in message  # never the note's text
    [doc] = read(spec, encoding="cp1252")
    assert doc.text == as_read(fmt)


def test_unknown_encoding_is_refused_at_once(tmp_path):
    spec = write(tmp_path, "text", NOTE, lambda text: text.encode("utf-8"))
    with pytest.raises(ConfigError, match="unknown text encoding 'klingon'"):
        read(spec, encoding="klingon")


def test_commands_take_encoding_and_the_reader_option(tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n1.txt").write_bytes(NOTE.encode("cp1252"))
    (notes / "n2.txt").write_bytes(marked(NOTE, "utf-16-le"))
    argv = ["tag", str(notes), "--output-format", "jsonl", "--quiet"]
    assert main(argv) == 1  # n1 is not UTF-8: reported, not written
    out, err = capsys.readouterr()
    assert [line.count('"id": "n2"') for line in out.splitlines()] == [1] and "--encoding" in err
    for extra in (["--encoding", "cp1252"], ["--reader-option", "encoding=windows-1252"]):
        assert main([*argv, *extra]) == 0
        texts = sorted(json.loads(line)["text"] for line in capsys.readouterr().out.splitlines())
        assert texts == [NOTE, "\ufeff" + NOTE]  # n2 keeps its mark as U+FEFF, as read
    assert main(["corpus", "stats", f"text:{notes}", "--encoding", "cp1252", "--quiet"]) == 0
    assert main([*argv, "--encoding", "nope"]) == 2


#: An ASCII note: in UTF-16 or UTF-32 without a mark it is valid UTF-8, a NUL after every letter.
ASCII_NOTE = "Seen by Dr. Zoe Muller on 7/22/2098.\r\nCall 617-555-0199.\n"
UNMARKED = {
    "utf-16-le": (lambda text: text.encode("utf-16-le"), "--encoding utf-16-le"),
    "utf-16-be": (lambda text: text.encode("utf-16-be"), "--encoding utf-16-be"),
    "utf-32-le": (lambda text: text.encode("utf-32-le"), "--encoding utf-32-le"),
    "nul": (lambda text: text.replace("Muller", "Mul\x00ler").encode(), "--encoding"),
    "utf-7": (lambda text: b"+/v8" + text.encode("utf-7"), "--encoding"),
}


def _read_all(spec):
    errors: list = []
    try:
        docs = list(read(spec, errors=errors))
    except (ReaderError, InputError) as exc:  # a whole input that cannot be read: refused at once
        errors.append(exc)
        docs = []
    return docs, errors


@pytest.mark.parametrize("case", sorted(UNMARKED))
@pytest.mark.parametrize("fmt", FORMATS)
def test_another_encoding_without_a_mark_or_nul_characters_are_refused(tmp_path, fmt, case):
    # issue 36: UTF-16 without a byte-order mark was read as UTF-8 full of NULs, exit 0, and the
    # output kept pieces of the PHI ([**DOCTOR**]/22/2098)
    encode, hint = UNMARKED[case]
    docs, errors = _read_all(write(tmp_path, fmt, ASCII_NOTE, encode))
    assert docs == [] and errors
    message = str(errors[0])
    assert hint in message and ("NUL" in message or "signature of UTF-7" in message)
    assert "Muller" not in message and "617" not in message and "Zoe" not in message  # never the note's text


def test_a_utf_16_file_without_a_mark_is_read_when_named(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n1.txt").write_bytes(ASCII_NOTE.encode("utf-16-le"))
    [doc] = read(f"text:{notes}", encoding="utf-16-le")
    assert doc.text == ASCII_NOTE


@pytest.mark.parametrize("fmt", ["text", "csv", "jsonl"])
def test_nothing_is_written_from_a_file_in_another_encoding(tmp_path, capsys, fmt):
    (tmp_path / "in").mkdir()
    spec = write(tmp_path / "in", fmt, ASCII_NOTE, lambda text: text.encode("utf-16-le"))
    out = tmp_path / "out"
    rc = main(["tag", spec, "--output-format", "redacted", "--output-dir", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert rc != 0 and "--encoding utf-16-le" in err and "Muller" not in err
    assert not out.exists() or list(notes_only(out.iterdir())) == []
