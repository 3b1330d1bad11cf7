"""Self-training on unlabeled notes (`crfdeid adapt`): pseudo-labels, the adapted model, the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crfdeid.cli import adapt as adapt_cli
from crfdeid.cli import train
from crfdeid.crf import Model
from crfdeid.crf.adapt import AdaptSettings, PseudoLabeller, _Tagged, adapt, sample
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError, ModelError
from crfdeid.labels import OUTSIDE
from crfdeid.text.tokenize import tokenize

ROOT = Path(__file__).resolve().parent.parent
SMALL = str(ROOT / "configs" / "synth-small.yaml")
#: Made-up notes of a made-up site (no real PHI).
NOTES = [
    ("n1", "p1", "Seen by Dr. Quimby on 03/14/2098. Stable overnight.\nFamily: wife Orla at bedside.\n"),
    ("n2", "p1", "orla called at 10am. BP 120/80, HR 72.\nPlan: continue heparin.\n"),
    ("n3", "p2", "Pt transferred from Fernhill Rehab on 04/02/2098.\nAfebrile. Lungs clear.\n"),
]


def _notes(spans: bool = False):
    docs = []
    for doc_id, pid, text in NOTES:
        at = text.find("Quimby")
        gold = [make_span(at, at + 6, "DOCTOR")] if spans and at >= 0 else []
        docs.append(Document(doc_id, text, gold, {"patient": pid}))
    return docs


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("adapt") / "small.model"
    assert train.main(["--config", SMALL, "--output", str(out), "--quiet",
                       "--set", "crf.max_iterations=15", "--train", "synth:25,7"]) == 0
    return out


def test_sample_is_seeded_uniform_and_in_input_order():
    docs = [Document(str(i), "x") for i in range(50)]
    a = sample(iter(docs), 10, 3)
    assert [d.doc_id for d in a] == [d.doc_id for d in sample(iter(docs), 10, 3)]
    assert len(a) == 10 and [int(d.doc_id) for d in a] == sorted(int(d.doc_id) for d in a)
    assert a != sample(iter(docs), 10, 4)
    assert sample(iter(docs[:3]), 10, 3) == docs[:3]


@pytest.mark.parametrize("kwargs", [{"o_min": 0.2}, {"phi_min": 1.5}, {"max_notes": 0}])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ConfigError):
        AdaptSettings(**kwargs)


class _Scheme:
    @staticmethod
    def parent_of(sub):
        return {"DOCTOR": "NAME", "PATIENT": "NAME", "DATE": "DATE"}[sub]


class _FakeModel:
    scheme = _Scheme()


def _tagged(text, labels, p_out, group):
    toks = tokenize(text)
    assert len(toks) == len(labels) == len(p_out)
    return _Tagged(Document("d", text, [], {"patient": group}), text, toks, [(0, len(toks))], labels, p_out)


def test_consistency_labels_a_patients_uncertain_word_confident_elsewhere():
    pl = PseudoLabeller(_FakeModel(), AdaptSettings(o_min=0.99, phi_min=0.9))
    sure_note = _tagged("Dr Quimby", ["O", "B-DOCTOR"], [0.999, 0.01], "p1")
    weak_note = _tagged("quimby called", ["O", "O"], [0.6, 0.999], "p1")
    other_patient = _tagged("quimby called", ["O", "O"], [0.6, 0.999], "p2")
    phi, outside = pl._patient_words([sure_note, weak_note, other_patient])
    assert dict(phi["p1"]["quimby"]) == {"DOCTOR": 1} and "quimby" not in phi.get("p2", {})
    labels, sure = list(weak_note.labels), [False, True]
    pl._repair(weak_note, labels, sure, phi["p1"], outside["p1"])
    assert labels == ["B-DOCTOR", OUTSIDE] and sure == [True, True]
    assert pl.counts["consistency_tokens"] == 1
    # a word the patient's notes also have as confident plain text is left uncertain
    plain = _tagged("quimby again", ["O", "O"], [0.9999, 0.999], "p1")
    phi, outside = pl._patient_words([sure_note, weak_note, plain])
    labels, sure = list(weak_note.labels), [False, True]
    pl._repair(weak_note, labels, sure, phi["p1"], outside["p1"])
    assert labels == ["O", "O"] and sure == [False, True]


def test_only_segments_whose_every_token_is_confident_are_kept(small):
    model = Model.load(small)
    settings = AdaptSettings(o_min=0.9, phi_min=0.6, consistency=False)
    pl = PseudoLabeller(model, settings)
    seqs = list(pl.sequences(_notes()))
    assert pl.counts["notes"] == 3 and 0 < pl.counts["segments_kept"] == len(seqs) <= pl.counts["segments"]
    for doc in _notes():
        (_, toks, _), labels, _, margs = model._run(doc, None, want_marginals=True)
        feats = model.features(doc.text, toks)
        for a, b in model._item(doc.text)[2]:
            sure = all(m[OUTSIDE] >= 0.9 if lab == OUTSIDE else 1 - m[OUTSIDE] >= 0.6
                       for lab, m in zip(labels[a:b], margs[a:b]))
            assert ((feats[a:b], labels[a:b]) in seqs) == sure


def test_adapted_model_records_counts_and_never_text(small, tmp_path):
    base = Model.load(small)
    adapted = adapt(base, _notes(), source=None, settings=AdaptSettings(o_min=0.9, phi_min=0.6))
    rec = adapted.manifest["adapted"]
    assert rec["unlabeled"]["notes"] == 3 and rec["settings"]["o_min"] == 0.9
    assert rec["source_documents"] == 25 and adapted.stats["extra_segments"] == rec["unlabeled"]["segments_kept"]
    path = adapted.save(tmp_path / "site.model")
    loaded = Model.load(path)
    assert loaded.manifest["adapted"] == rec
    manifest = json.dumps(loaded.manifest).lower()
    for word in ("quimby", "orla", "fernhill", "heparin"):
        assert word not in manifest
    assert loaded.tag_text(NOTES[0][2]).text == NOTES[0][2]


def test_gold_spans_of_the_unlabeled_notes_are_never_read(small):
    base = Model.load(small)
    settings = AdaptSettings(o_min=0.9, phi_min=0.6)
    with_gold, without = (adapt(base, _notes(spans=s), None, settings) for s in (True, False))
    assert with_gold.to_bytes() == without.to_bytes()


def test_no_unlabeled_notes_is_an_error(small):
    with pytest.raises(ModelError, match="no unlabeled"):
        adapt(Model.load(small), [], None)


def test_adapt_command_writes_a_model_that_tag_reads(small, tmp_path, capsys):
    notes = tmp_path / "notes.jsonl"
    notes.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, _, t in NOTES), encoding="utf-8")
    out = tmp_path / "site.model"
    argv = ["--model", str(small), "--unlabeled", f"jsonl:{notes}", "--output", str(out), "--quiet",
            "--o-min", "0.9", "--phi-min", "0.6"]
    assert adapt_cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "3 notes" in printed and "quimby" not in printed.lower()
    assert Model.load(out).manifest["adapted"]["unlabeled"]["notes"] == 3
    before = out.read_bytes()
    assert adapt_cli.main(argv) == 2  # an existing output is not replaced without --overwrite
    assert "exists" in capsys.readouterr().err and out.read_bytes() == before
    assert adapt_cli.main(["--model", str(tmp_path / "none.model"), "--unlabeled", f"jsonl:{notes}",
                           "--output", str(tmp_path / "x.model")]) == 1


def test_extra_sequences_are_refused_where_they_would_be_ignored():
    from crfdeid.config import load_config
    from crfdeid.crf import train_model
    cfg = load_config(SMALL, {"committee": {"combine": "multi.v1", "members": ["rules.v1"]}})
    with pytest.raises(ModelError, match="extra training sequences"):
        train_model(_notes(), cfg, extra=[])
