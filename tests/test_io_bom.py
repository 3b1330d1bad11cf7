"""Byte-order marks keep offsets right in every reader and writer (issue 22).

The rule (docs/formats.md): in a file that holds one note (BRAT ``.txt``, plain
text) a leading U+FEFF is part of the text and counts one character, as BRAT
counts it, and writers write it back; in a file that holds many notes or
annotations (JSONL, CSV, i2b2 XML, PhysioNet, ``.ann``) a leading BOM is the
file's encoding mark and belongs to no note. "The user's own tools" are played
by plain Python: ``open(path, encoding="utf-8", newline="").read()[start:end]`` (BRAT
reads bytes as UTF-8 without newline translation, so ``\\r\\n`` counts two).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crfdeid import schema
from crfdeid.cli import corpus, tag
from crfdeid.document import Document, make_span
from crfdeid.io import BOM, read, write

# Several scripts, astral characters (one offset each: offsets count code points), no BOM yet.
SCRIPTS = ["Пётр Иванов", "王小明", "محمد علي", "अमित शर्मा", "Zoë Müller-Øster", "𝒜𝓁𝒾𝒸ℯ 😀", "Ἀλέξανδρος"]


def _ann_agrees_with_file(folder: Path, doc_id: str) -> list:
    """Check every T line of ``doc_id.ann`` against the .txt read as plain UTF-8 (BOM kept)."""
    with open(folder / f"{doc_id}.txt", encoding="utf-8", newline="") as fh:
        text = fh.read()
    surfaces = []
    for line in (folder / f"{doc_id}.ann").read_text(encoding="utf-8-sig").splitlines():
        _, label_offsets, field = line.split("\t")
        frags = [tuple(map(int, f.split())) for f in label_offsets.split(" ", 1)[1].split(";")]
        got = " ".join(text[s:e] for s, e in frags)
        assert re.sub(r"\s+", " ", got) == field
        surfaces.append(got)
    return surfaces


def _brat_bom_note(folder: Path, name: str = "n1") -> tuple[str, list]:
    text = BOM + "Seen: " + ", ".join(SCRIPTS) + ".\n"
    spans, ann = [], []
    for i, name_ in enumerate(SCRIPTS, 1):
        start = text.index(name_)
        first, _, rest = name_.partition(" ")
        if rest:  # a discontinuous annotation: the two words as fragments
            frags = f"{start} {start + len(first)};{start + len(first) + 1} {start + len(name_)}"
            spans += [(start, start + len(first)), (start + len(first) + 1, start + len(name_))]
        else:
            frags = f"{start} {start + len(name_)}"
            spans.append((start, start + len(name_)))
        ann.append(f"T{i}\tPATIENT {frags}\t{name_}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / f"{name}.ann").write_text(BOM + "\n".join(ann) + "\n", encoding="utf-8")  # .ann BOM too
    return text, spans


def test_brat_bom_file_spans_land_on_the_right_characters(tmp_path):
    text, spans = _brat_bom_note(tmp_path)
    (doc,) = read(f"brat:{tmp_path}")  # check_text on: the .ann text fields must match
    assert doc.text == text and doc.text[0] == BOM
    assert [(s.start, s.end) for s in doc.spans] == sorted(spans)
    assert " ".join(doc.surface(s) for s in doc.spans).split() == " ".join(SCRIPTS).split()
    assert doc.meta["brat_fragments"] == sum(" " in n for n in SCRIPTS)


def test_brat_written_predictions_agree_with_the_users_file(tmp_path):
    _brat_bom_note(tmp_path / "in")
    rc = corpus.main(["convert", f"brat:{tmp_path / 'in'}", "--to", "brat", "--out", str(tmp_path / "out"), "-q"])
    assert rc == 0
    assert (tmp_path / "out" / "n1.txt").read_bytes() == (tmp_path / "in" / "n1.txt").read_bytes()
    assert _ann_agrees_with_file(tmp_path / "out", "n1")  # offsets count the BOM, as the user's do


def test_tagging_a_bom_file_writes_offsets_that_count_the_bom(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "n.txt").write_text(BOM + "Seen by Dr. Lee on 7/22/2098.\n", encoding="utf-8")
    for fmt in ("brat", "jsonl"):
        assert tag.main(["--output-format", fmt, "--output-dir", str(tmp_path / fmt), "--quiet",
                         str(tmp_path / "in")]) == 0
    user_text = (tmp_path / "in" / "n.txt").read_bytes().decode("utf-8")
    assert _ann_agrees_with_file(tmp_path / "brat", "n")
    [row] = [json.loads(line) for line in (tmp_path / "jsonl" / "tagged.jsonl").read_text().splitlines()]
    assert row["text"] == user_text and row["spans"]
    assert {user_text[s["start"]:s["end"]] for s in row["spans"]} >= {"7/22/2098"}


def test_text_reader_and_writer_keep_the_bom(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_bytes(b"\xef\xbb\xbfDr. Lee\r\n")
    (doc,) = read(f"text:{tmp_path / 'in'}")
    assert doc.text == BOM + "Dr. Lee\r\n"
    write([doc], "text", tmp_path / "out")
    assert (tmp_path / "out" / "a.txt").read_bytes() == b"\xef\xbb\xbfDr. Lee\r\n"


def test_container_formats_drop_the_files_bom_and_keep_one_inside_a_note(tmp_path):
    note = BOM + "Dr. Lee"
    doc = Document("a", note, [make_span(5, 8, "DOCTOR")])
    for fmt in ("jsonl", "csv", "i2b2"):
        out = tmp_path / (fmt if fmt == "i2b2" else f"o.{fmt}")
        write([doc], fmt, out)
        target = out / "a.xml" if fmt == "i2b2" else out
        target.write_bytes(b"\xef\xbb\xbf" + target.read_bytes())  # the file's own BOM
        (back,) = read(f"{fmt}:{out}")
        assert back.text == note and back.surface(back.spans[0]) == "Lee", fmt
    (tmp_path / "pn").mkdir()
    (tmp_path / "pn" / "id.text").write_text(BOM + "START_OF_RECORD=1||||1||||\nDr. Lee\n||||END_OF_RECORD\n")
    (tmp_path / "pn" / "id-phi.phrase").write_text(BOM + "1 1 4 7 HCPName Lee\n")
    (back,) = read(f"physionet:{tmp_path / 'pn'}")
    assert back.surface(back.spans[0]) == "Lee"


# -- round trips over random Unicode, with and without a BOM ---------------------------------

# XML 1.0 cannot carry most C0 controls nor U+FFFE/FFFF; surrogates cannot be UTF-8.
_CHARS = st.one_of(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\ufffe\uffff", min_codepoint=0x20),
    st.sampled_from(list("\r\n\t ]]>&<\"") + ["\r\n", BOM, "\u2028", "\x85"] + SCRIPTS))


@st.composite
def documents(draw):
    text = (BOM if draw(st.booleans()) else "") + "".join(draw(st.lists(_CHARS, max_size=40)))
    spans, pos = [], 0
    while pos < len(text) - 1 and draw(st.booleans()):
        start = draw(st.integers(pos, len(text) - 1))
        end = draw(st.integers(start + 1, len(text)))
        spans.append(make_span(start, end, draw(st.sampled_from(schema.I2B2_SUBTYPES))))
        pos = end
    return Document("doc-" + str(draw(st.integers(0, 999))), text, spans)


def _roundtrip(doc, fmt, folder: Path):
    out = folder / (f"out.{fmt}" if fmt in ("jsonl", "csv") else fmt)
    write([doc], fmt, out)
    errors = []
    [back] = read(f"{fmt}:{out}", errors=errors)
    assert errors == []
    return back, out


@pytest.mark.parametrize("fmt", ["i2b2", "brat", "jsonl", "csv", "text"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=documents())
def test_reader_writer_reader_round_trip(fmt, doc):
    with tempfile.TemporaryDirectory() as tmp:
        back, out = _roundtrip(doc, fmt, Path(tmp))
        if fmt == "brat":  # the .ann agrees with the .txt as any UTF-8 reader sees it
            assert len(_ann_agrees_with_file(out, doc.doc_id)) == len(doc.spans)
    spans = [] if fmt == "text" else doc.spans
    assert (back.doc_id, back.text, back.spans) == (doc.doc_id, doc.text, spans)


@settings(max_examples=60, deadline=None)
@given(doc=documents(), cut=st.data())
def test_brat_discontinuous_annotation_round_trip(doc, cut):
    """A discontinuous BRAT annotation reads as one span per fragment and is written back so."""
    pieces = [sp for sp in doc.spans if len(sp) >= 2]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "d.txt").write_text(doc.text, encoding="utf-8", newline="")
        lines, expected = [], []
        for i, sp in enumerate(pieces, 1):
            mid = cut.draw(st.integers(sp.start + 1, sp.end - 1))
            lines.append(f"T{i}\t{sp.subtype} {sp.start} {mid};{mid} {sp.end}\tx")
            expected += [make_span(sp.start, mid, sp.subtype), make_span(mid, sp.end, sp.subtype)]
        (folder / "d.ann").write_text("\n".join(lines), encoding="utf-8")
        [first] = read(f"brat:{folder}", check_text=False)
        assert (first.text, first.spans) == (doc.text, sorted(expected))
        back, _ = _roundtrip(first, "brat", folder / "again")
    assert (back.text, back.spans) == (first.text, first.spans)
