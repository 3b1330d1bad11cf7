"""PhysioNet reader: synthetic fixture, and the shared dev corpus (skipped when absent)."""

from __future__ import annotations

import re
from collections import defaultdict

from crfdeid.document import Span
from crfdeid.io import read, write


def test_fixture_ids_mapping_and_trim(data_dir):
    docs = list(read(f"physionet:{data_dir / 'physionet'}"))
    assert [d.doc_id for d in docs] == ["1-1", "1-2", "2-1"]
    assert [d.group for d in docs] == ["1", "1", "2"]
    first = docs[0]
    assert [(first.surface(s), s.subtype) for s in first.spans] == [
        ("Ivy Brandt", "DOCTOR"), ("7/22", "DATE"), ("Ann", "PATIENT"), ("555-0142", "PHONE")]
    assert first.meta["trimmed_spans"] == 1  # "Ann " in the phrase file
    assert docs[2].spans[0] == Span(17, 32, "LOCATION", "LOCATION-OTHER")


def test_shared_corpus_counts(physionet_docs):
    assert len(physionet_docs) == 1622
    assert sum(len(d.spans) for d in physionet_docs) == 1221
    assert len({d.doc_id for d in physionet_docs}) == 1622


def test_shared_corpus_surfaces_match_phrase_file(physionet_dir, physionet_docs):
    """Each span's text equals its phrase-file surface after the documented edge trim."""
    phrases = defaultdict(list)
    for line in (physionet_dir / "id-phi.phrase").read_text(encoding="utf-8").splitlines():
        if line.strip():
            p, n, s, e, _cat, surface = line.split(" ", 5)
            phrases[f"{p}-{n}"].append((int(s), int(e), surface))
    by_id = {d.doc_id: d for d in physionet_docs}
    checked = 0
    for doc_id, rows in phrases.items():
        doc = by_id[doc_id]
        got = sorted(doc.surface(sp) for sp in doc.spans)
        want = sorted(surface.strip() for _s, _e, surface in rows)
        assert got == want, f"document {doc_id}: surfaces differ"  # no text in the message
        checked += len(rows)
    assert checked == 1221


def test_shared_corpus_to_i2b2_and_back(physionet_docs, tmp_path):
    write(physionet_docs, "i2b2", tmp_path)
    assert all(re.fullmatch(r"\d+-\d+\.xml", p.name) for p in tmp_path.iterdir())
    back = {d.doc_id: d for d in read(f"i2b2:{tmp_path}")}
    assert len(back) == 1622
    for doc in physionet_docs:
        assert back[doc.doc_id].text == doc.text and back[doc.doc_id].spans == doc.spans


class _CountedText(str):
    """A file's text that adds up the characters its ``count`` calls scan."""

    scanned = 0

    def count(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        type(self).scanned += max(0, end - start)
        return super().count(sub, start, end)


def test_records_are_read_in_one_pass_with_their_line_numbers():
    # issue 37: each record's line was counted from the top of the file: quadratic (0.39 of the
    # 0.41 CPU-s reading the 1,622 PhysioNet dev notes took)
    from crfdeid.io.physionet import iter_records
    record = "START_OF_RECORD={0}||||1||||\nSeen by Dr. Lee\non 7/22/2098.\n||||END_OF_RECORD\n"
    raw = _CountedText("".join(record.format(i) for i in range(300)) + "stray text\n")
    problems: list = []
    got = list(iter_records(raw, report=problems.append))
    assert [line for _, line, *_ in got] == [1 + 4 * i for i in range(300)]
    assert [patient for _, _, patient, *_ in got[:3]] == ["0", "1", "2"]
    assert len(problems) == 1 and "line 1201:" in str(problems[0])  # the text outside every record
    assert _CountedText.scanned <= len(raw)
