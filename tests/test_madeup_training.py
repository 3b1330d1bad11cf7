"""The ``madeup`` reader: made-up notes as training documents (issue 58, learn45)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crfdeid.config import load_config
from crfdeid.crf.train import train_model
from crfdeid.document import Document
from crfdeid.errors import CrfdeidError
from crfdeid.experiments import madeup
from crfdeid.io import read_all

SMALL = Path(__file__).resolve().parent.parent / "configs" / "synth-small.yaml"
NOTE = """=== ward_one ===
Seen by [[DOCTOR|Aoife Brennan]] on [[DATE|3 March]]; {{score|GCS 15}}, {{drug|Oramorph 5 mg}}.
=== ward_two ===
Naam: [[PATIENT|Sanne Jansen]], [[HOSPITAL|Gelre Ziekenhuis]]. {{heading|Beleid}}: rust.
"""


@pytest.fixture()
def notes(tmp_path):
    path = tmp_path / "made_up_mine.txt"
    path.write_text(NOTE, encoding="utf-8")
    return path


def test_a_set_is_read_with_its_marks_as_gold_spans(notes):
    docs = read_all([f"madeup:{notes}"])
    assert [d.doc_id for d in docs] == ["ward_one", "ward_two"]
    one = docs[0]
    assert [(one.text[s.start:s.end], s.subtype) for s in one.spans] == [("Aoife Brennan", "DOCTOR"),
                                                                         ("3 March", "DATE")]
    assert "[[" not in one.text and "{{" not in one.text and "GCS 15" in one.text


def test_copies_write_each_note_once_per_casing_with_the_spans_in_place(notes):
    docs = read_all([{"format": "madeup", "path": str(notes), "copies": ["as-written", "lower", "upper"]}])
    assert [d.doc_id for d in docs] == ["ward_one", "ward_one~lower", "ward_one~upper",
                                        "ward_two", "ward_two~lower", "ward_two~upper"]
    written, lower, upper = docs[3:6]
    for copy, case in ((lower, str.lower), (upper, str.upper)):
        assert copy.meta["casing"] in ("lower", "upper")
        assert [(s.start, s.end, s.subtype) for s in copy.spans] == [(s.start, s.end, s.subtype) for s in written.spans]
        assert [copy.text[s.start:s.end] for s in copy.spans] == [case(written.text[s.start:s.end])
                                                                  for s in written.spans]


def test_recased_draws_one_casing_per_note_from_its_id(notes):
    one = read_all([{"format": "madeup", "path": str(notes), "copies": ["recased"]}])
    again = read_all([{"format": "madeup", "path": str(notes), "copies": ["recased"]}])
    assert [d.doc_id for d in one] == [d.doc_id for d in again]
    assert all(d.doc_id.rsplit("~", 1)[1] in ("lower", "upper") for d in one)
    assert all(d.text in (d.text.lower(), d.text.upper()) for d in one)


def test_shipped_sets_are_read_by_name_and_several_get_their_set_in_the_id():
    docs = read_all(["madeup:dev,dev2"])
    assert len(docs) == len(madeup.read_notes("dev")) + len(madeup.read_notes("dev2"))
    assert docs[0].doc_id.startswith("dev/") and docs[-1].doc_id.startswith("dev2/")


@pytest.mark.parametrize("copies", [["sideways"], [], ["lower", "lower"]])
def test_copies_not_known_are_refused(notes, copies):
    with pytest.raises(CrfdeidError, match="copies"):
        read_all([{"format": "madeup", "path": str(notes), "copies": copies}])


def test_a_missing_set_is_an_error_naming_no_text(tmp_path):
    with pytest.raises(CrfdeidError, match="cannot read made-up notes"):
        read_all([f"madeup:{tmp_path / 'nothing.txt'}"])


def test_a_config_keeps_set_names_as_written(tmp_path):
    cfg = tmp_path / "mine.yaml"
    cfg.write_text('train: [{format: madeup, path: "dev,dev2", copies: [as-written, recased]}]\n', encoding="utf-8")
    assert load_config(cfg)["train"][0]["path"] == "dev,dev2"


def test_a_crf_learns_from_made_up_notes(notes):
    docs = read_all([{"format": "madeup", "path": str(notes), "copies": ["as-written", "upper"]}])
    cfg = load_config(SMALL, {"crf": {"max_iterations": 30}, "rules": {"enabled": False}})
    model = train_model(docs * 5, cfg)
    tagged = model.tag(Document("t", "Naam: Sanne Jansen, Gelre Ziekenhuis. Beleid: rust.\n"))
    assert {"PATIENT", "HOSPITAL"} <= {s.subtype for s in tagged.spans}
