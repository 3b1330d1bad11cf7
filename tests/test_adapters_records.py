"""The records shared by the Spark job and the HTTP service: same output as ``crfdeid tag``."""

from __future__ import annotations

import json

import pytest

from crfdeid.adapters import require
from crfdeid.adapters.records import Deidentifier
from crfdeid.cli import tag
from crfdeid.crf import Model
from crfdeid.deid import Surrogator
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError, ExtraError
from crfdeid.io import read, write
from crfdeid.tagging.session import PatientWriters

KEY = "test-key-not-secret"


@pytest.fixture(scope="module")
def synth_notes():
    """Made-up notes of several patients (ids NNN-NN: patient NNN), several notes each."""
    return list(read("synth:12,13"))


@pytest.mark.parametrize("fmt", ["redacted", "masked", "surrogate"])
def test_records_are_the_tag_commands_files(tmp_path, shipped_model, synth_notes, fmt):
    src = tmp_path / "notes.jsonl"
    write(synth_notes, "jsonl", src)
    key = ["--key", KEY] if fmt == "surrogate" else []
    assert tag.main([str(src), "--input-format", "jsonl", "--output-format", fmt, *key,
                     "--output-dir", str(tmp_path / "out"), "--quiet"]) == 0
    deid = Deidentifier(shipped_model, fmt, key=KEY if fmt == "surrogate" else None, site_mining=True)  # as tag
    records = list(deid.run(synth_notes))
    assert [r.id for r in records] == [d.doc_id for d in synth_notes]
    for rec in records:
        assert rec.error is None
        assert rec.text == (tmp_path / "out" / f"{rec.id}.txt").read_text(encoding="utf-8")


def test_spans_and_confidences_are_the_tag_commands(tmp_path, shipped_model, synth_notes):
    src = tmp_path / "notes.jsonl"
    write(synth_notes, "jsonl", src)
    assert tag.main([str(src), "--input-format", "jsonl", "--output-format", "jsonl",
                     "--output-dir", str(tmp_path / "out"), "--quiet"]) == 0
    lines = (tmp_path / "out" / "tagged.jsonl").read_text(encoding="utf-8").splitlines()
    want = {}
    for line in lines:
        obj = json.loads(line)
        want[obj["id"]] = [(s["subtype"], s["category"], s["start"], s["end"], c)
                           for s, c in zip(obj["spans"], obj["meta"]["confidence"])]
    got = {r.id: [(s["type"], s["category"], s["start"], s["end"], s["confidence"]) for s in r.spans]
           for r in Deidentifier(shipped_model, "spans", site_mining=True).run(synth_notes)}  # tag mines by default
    assert got == want
    assert sum(map(len, got.values())) > 50


def test_one_writer_per_patient_in_turn_is_one_writer_for_all(shipped_model, synth_notes):
    deid = Deidentifier(shipped_model, "surrogate", key=KEY)
    notes = sorted(synth_notes, key=lambda d: d.group)  # stable: input order within a patient
    one = [r.text for r in deid.run(notes)]
    assert [r.text for r in deid.run(notes, PatientWriters(deid))] == one


def _person(doc_id, text, start, end):
    return Document(doc_id, text, [make_span(start, end, "PATIENT")], {"patient": "p1"})


def test_a_patients_surrogates_depend_on_its_earlier_notes():
    """Why the Spark job sorts each patient's notes into one writer: an initial is resolved
    through the full names seen before, so the same note alone reads otherwise."""
    full = _person("a", "John Smith was seen.", 0, 10)
    short = _person("b", "J. Smith is stable.", 0, 8)
    alone = Surrogator(key=KEY).surrogate(short).text
    s = Surrogator(key=KEY)
    first = s.surrogate(full).text
    after = s.surrogate(short).text
    assert after.split()[0][0] == first.split()[0][0]  # J. -> the initial of John's surrogate
    assert after != alone
    # and the keyed draws themselves are deterministic: same key and order, same text
    again = Surrogator(key=KEY)
    assert [again.surrogate(full).text, again.surrogate(short).text] == [first, after]
    assert Surrogator(key="another key").surrogate(full).text != first


def test_a_failing_note_has_an_error_and_no_text(shipped_model, monkeypatch):
    marker = "Zqxplanted Marker"
    docs = [Document("ok", "Seen by Dr. Lee."), Document("bad", f"{marker} on 7/22/2098.")]
    real = Model._tagged

    def tagged(self, doc, *args):
        if doc.doc_id == "bad":
            raise ValueError(doc.text)  # a bug whose message would carry the note
        return real(self, doc, *args)
    monkeypatch.setattr(Model, "_tagged", tagged)
    ok, bad = Deidentifier(shipped_model, "redacted").run(docs)
    assert ok.error is None and ok.text.startswith("Seen by Dr. [**DOCTOR**]")
    assert bad.text is None and bad.spans is None
    assert "'bad'" in bad.error and "ValueError" in bad.error and marker not in bad.error


def test_options_are_checked_as_the_command_checks_them(shipped_model):
    with pytest.raises(ConfigError, match="does not take"):
        Deidentifier(shipped_model, "redacted", options={"char": "*"})
    with pytest.raises(ConfigError, match="unknown output format"):
        Deidentifier(shipped_model, "i2b2")
    with pytest.raises(ConfigError, match="means nothing"):
        Deidentifier(shipped_model, "masked", key=KEY)
    assert Deidentifier(shipped_model, "masked", options={"char": "*"}).run([Document("1", "Dr. Lee")])


def test_surrogates_without_a_key_or_a_seed_are_refused_by_name(shipped_model):
    # issue 61: a random key drawn per object gave a patient other surrogates in every run
    with pytest.raises(ConfigError, match=r"needs a key or a seed.*key_file=.*key=.*seed="):
        Deidentifier(shipped_model, "surrogate")
    note = Document("1", "Seen by Dr. Lee on 7/22/2098.")
    runs = [next(Deidentifier(shipped_model, "surrogate", seed="demo").run([note])).text for _ in range(2)]
    assert runs[0] == runs[1] and "Lee" not in runs[0]
    assert next(Deidentifier(shipped_model, "surrogate", options={"seed": "demo"}).run([note])).text == runs[0]


def test_a_missing_extra_names_it():
    with pytest.raises(ExtraError, match=r"needs the optional package .*: pip install .*\[spark\]'"):
        require("crfdeid_no_such_module", "spark", "crfdeid.spark")
