"""Site mining: what a batch's notes reveal is found wherever it recurs (crfdeid/site/mining.py).

The batches are made up. Mining's own steps are tested on tagged documents given by hand;
the command's (``tag --site-mining``) with the CRF's pass replaced by fixed spans, so that
what the model "found confidently" is known exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from crfdeid import schema
from crfdeid.cli import tag as tag_cli
from crfdeid.document import Document, Span
from crfdeid.site import Site, learnt, mining
from crfdeid.tagging import model as tagging_model


def _doc(doc_id, text, found=(), patient=None, confidence=0.9):
    """A tagged note: each ``(surface, subtype)`` of ``found`` at its first occurrence."""
    spans = []
    for surface, subtype in found:
        start = text.index(surface)
        spans.append(Span(start, start + len(surface), schema.parent_of(subtype), subtype, confidence))
    return Document(doc_id, text, spans, {"patient": patient or doc_id})


def _surfaces(doc):
    return [(doc.text[s.start:s.end], s.subtype) for s in doc.spans]


def _mine(docs, explain=False):
    lessons = mining.learn(docs)
    return mining.apply(docs, lessons, explain=explain), lessons


BATCH = [
    _doc("a", "Transferred from MH with Dr. Kevin Dorsey.", [("MH", "HOSPITAL"), ("Kevin Dorsey", "DOCTOR")], "p1"),
    _doc("b", "Seen at MH; Dorsey aware. Westbrook 3 bed.", [("MH", "HOSPITAL"), ("Dorsey", "DOCTOR"),
                                                            ("Westbrook 3", "DEPARTMENT")], "p2"),
    _doc("c", "back to WESTBROOK 2 later", [("WESTBROOK 2", "DEPARTMENT")], "p3"),
    _doc("d", "f/u at mh. DORSEY's note read; to Westbrook-4 today", [], "p4"),
]


def test_confident_strings_are_found_in_other_notes_in_the_forms_notes_write():
    mined, lessons = _mine(BATCH)
    assert _surfaces(mined[3]) == [("mh", "HOSPITAL"), ("DORSEY", "DOCTOR"), ("Westbrook", "DEPARTMENT")]
    assert mined[:3] == BATCH[:3] or [m.spans for m in mined[:3]] == [d.spans for d in BATCH[:3]]
    assert "site mining: 3 string(s) learnt for the site" in lessons.summary()


@pytest.mark.parametrize("surface, subtype, note", [
    ("pleasant", "DOCTOR", "a pleasant man"),                 # a common word
    ("Sepsis", "PATIENT", "sepsis again"),                  # clinical vocabulary
    ("Lasix", "DOCTOR", "lasix given"),                     # a drug
    ("1234", "HOSPITAL", "bed 1234"),                       # a number
    ("Dr.", "DOCTOR", "dr. on call"),                       # a title
    ("Quincy", "STATE", "quincy"),                          # a subtype not mined
    ("Quincy", "DATE", "quincy"),
])
def test_plain_words_numbers_and_other_types_are_never_spread(surface, subtype, note):
    docs = [_doc(f"n{i}", f"{surface} here", [(surface, subtype)], f"p{i}") for i in range(4)]
    docs.append(_doc("x", note, [], "px"))
    mined, _ = _mine(docs)
    assert mined[-1].spans == []


def test_a_name_that_is_a_word_spreads_only_behind_a_cue():
    # "sandy" is a word (Zipf 4.2, under mining.ZIPF_MAX) and a first name
    docs = [_doc(f"n{i}", f"Dr. Sandy Keane saw him {i}", [("Sandy Keane", "DOCTOR")], f"p{i}") for i in range(2)]
    docs += [_doc("x", "Sandy stools. Called Dr. Sandy.", [], "px")]
    mined, _ = _mine(docs)
    assert _surfaces(mined[-1]) == [("Sandy", "DOCTOR")]
    assert mined[-1].spans[0].start == mined[-1].text.rindex("Sandy")


# Issue 50: on 2,000 notes mining learnt field labels, clinical words and common words as names.
@pytest.mark.parametrize("surface, subtype, note", [
    ("MRN", "PATIENT", "MRN: 1234"),                        # a field label
    ("Apt", "DOCTOR", "apt tomorrow"),
    ("medicine", "DOCTOR", "seen by medicine"),             # a service, also a surname
    ("Endo", "DOCTOR", "endo f/u"),                         # a clinical abbreviation, also a surname
    ("may", "DOCTOR", "pt may go home"),                    # common English words that are names
    ("Hope", "PATIENT", "family hope for rehab"),
    ("will", "DOCTOR", "Patient will call"),
    ("Will", "DOCTOR", "Will recheck"),
])
def test_labels_clinical_terms_and_common_words_are_never_learnt(surface, subtype, note):
    docs = [_doc(f"n{i}", f"{surface} here", [(surface, subtype)], f"p{i}") for i in range(6)]
    docs.append(_doc("x", note, [], "px"))
    mined, lessons = _mine(docs)
    assert lessons.site == {} and lessons.patients == {}
    assert mined[-1].spans == []


def test_made_up_surnames_are_still_learnt_beside_the_refused_words():
    docs = [_doc(f"n{i}", f"MRN 12. Dr. Quarrington and Will here, may call {i}",
                 [("MRN", "PATIENT"), ("Quarrington", "DOCTOR"), ("Will", "DOCTOR"), ("may", "DOCTOR")], f"p{i}")
            for i in range(3)]
    docs.append(_doc("x", "QUARRINGTON aware; pt will call; MRN pending", [], "px"))
    mined, lessons = _mine(docs)
    assert sorted(lessons.site) == [("quarrington",)]
    assert _surfaces(mined[-1]) == [("QUARRINGTON", "DOCTOR")]


@pytest.mark.parametrize("confidence, patients, spread", [
    (0.9, 2, True), (0.3, 2, False),   # low confidence teaches nothing
    (0.9, 1, False),                   # a site string needs two patients
])
def test_site_strings_need_confidence_and_two_patients(confidence, patients, spread):
    docs = [_doc(f"n{i}", "Kelmscott unit", [("Kelmscott", "HOSPITAL")], f"p{i % patients}", confidence)
            for i in range(2)]
    docs.append(_doc("x", "to KELMSCOTT", [], "px"))
    mined, _ = _mine(docs)
    assert bool(mined[-1].spans) is spread


def test_a_string_the_model_mostly_leaves_is_not_spread():
    docs = [_doc(f"n{i}", "Zorbex 5 mg", [("Zorbex", "DOCTOR")], f"p{i}") for i in range(2)]
    docs += [_doc(f"u{i}", "zorbex held", [], f"q{i}") for i in range(12)]  # 2 of 14 notes: under a fifth
    mined, lessons = _mine(docs)
    assert all(not d.spans for d in mined[2:])
    assert "(1 left: tagged in too few" in lessons.summary()


def test_a_patients_name_spreads_in_that_patients_notes_only():
    docs = [_doc("p1-a", "Pt Melinda Quarrie, 71", [("Melinda Quarrie", "PATIENT")], "p1"),
            _doc("p1-b", "Quarrie family in", [("Quarrie", "PATIENT")], "p1"),
            _doc("p1-c", "QUARRIE's daughter called", [], "p1"),
            _doc("p2-a", "Quarrie road closed", [], "p2")]
    mined, lessons = _mine(docs)
    assert _surfaces(mined[2]) == [("QUARRIE", "PATIENT")]
    assert mined[3].spans == []
    assert set(lessons.patients) == {"p1"} and not any(ls.scope == "site" for ls in lessons.site.values())


def test_a_found_string_widens_an_overlapping_span_keeping_its_type():
    docs = [_doc(f"n{i}", "Kevin Dorsey here", [("Kevin Dorsey", "DOCTOR")], f"p{i}") for i in range(2)]
    docs.append(_doc("x", "kevin dorsey here", [("dorsey", "PATIENT")], "px"))
    mined, _ = _mine(docs)
    assert _surfaces(mined[-1]) == [("kevin dorsey", "PATIENT")]


def test_explain_names_the_notes_that_taught_it_never_text():
    docs = [Document(d.doc_id, d.text, d.spans, {**d.meta, "explain": {"spans": [[] for _ in d.spans],
                                                                           "dropped": []}}) for d in BATCH]
    mined, _ = _mine(docs, explain=True)
    steps = mined[3].meta["explain"]["spans"]
    assert [s[-1]["taught_by"]["notes"] for s in steps] == [["a", "b"], ["a", "b"], ["b", "c"]]
    assert steps[0][-1]["step"] == "site_mining" and steps[0][-1]["action"] == "found"
    dumped = json.dumps(mined[3].meta["explain"]).lower()
    assert not any(w in dumped for w in ("dorsey", "westbrook", "mh\"", "kevin"))
    assert len(mined[3].meta["confidence"]) == len(mined[3].spans)


def test_models_of_other_labels_or_languages_mine_nothing():
    class Fake:
        def __init__(self, scheme, english):
            self.scheme, self._english = scheme, english
    assert mining.mines(Fake(schema.I2B2, True))
    assert not mining.mines(Fake(schema.ANY, True))
    assert not mining.mines(Fake(schema.I2B2, False))


# -- the command -------------------------------------------------------------------------------
#: What the fake CRF pass "finds confidently" in each note: (surface, subtype).
FOUND = {"p3_a": [("MH", "HOSPITAL"), ("Kevin Dorsey", "DOCTOR")], "p4_b": [("MH", "HOSPITAL"), ("Dorsey", "DOCTOR")],
         "p1_x": [("Melinda Quarrie", "PATIENT")], "p1_y": [("Quarrie", "PATIENT")]}
NOTES = {"p3_a": "Transferred from MH with Dr. Kevin Dorsey.\n", "p4_b": "Seen at MH; Dorsey aware.\n",
         "p5_c": "f/u at mh. DORSEY's plan: mh clinic\n", "p1_x": "Pt Melinda Quarrie seen.\n",
         "p1_y": "Quarrie family in.\n", "p1_z": "QUARRIE's son called.\n", "p2_z": "Quarrie rd closed.\n"}


@pytest.fixture
def fake_pass(monkeypatch):
    """The CRF's pass replaced by :data:`FOUND` (the site's own knowledge still applies)."""

    def tag_batch(self, docs, o_threshold, options=None):
        out = []
        for doc in docs:
            d = _doc(doc.doc_id, doc.text, FOUND.get(doc.doc_id, ()), None)
            spans = d.spans
            if options and options.get("site") is not None:
                spans = options["site"].apply(doc, doc.text, spans)
            meta = dict(doc.meta, confidence=[s.confidence for s in spans])
            if options and options.get("explain"):
                meta["explain"] = {"spans": [[{"step": "crf", "action": "found", "reason": ""}] for _ in spans],
                                   "dropped": []}
            out.append((doc, Document(doc.doc_id, doc.text, spans, meta)))
        return out

    monkeypatch.setattr(tagging_model.TaggingModel, "_tag_batch", tag_batch)


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


def _run(tmp_path, notes, capsys, *extra):
    out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
    code = tag_cli.main([str(notes), "--output-format", "jsonl", "--output-dir", str(out),
                         "--quiet", "--group-pattern", r"^(p[0-9]+)_", *extra])
    assert code == 0, capsys.readouterr().err
    text = (out / "tagged.jsonl").read_text(encoding="utf-8")
    return {r["id"]: [(r["text"][s["start"]:s["end"]], s["subtype"]) for s in r["spans"]]
            for r in map(json.loads, text.splitlines())}


def test_tag_mines_by_default_and_off_switches_it_off(tmp_path, notes, capsys, fake_pass):
    on = _run(tmp_path, notes, capsys)
    off = _run(tmp_path, notes, capsys, "--site-mining", "off")
    assert on["p5_c"] == [("mh", "HOSPITAL"), ("DORSEY", "DOCTOR"), ("mh", "HOSPITAL")]
    assert on["p1_z"] == [("QUARRIE", "PATIENT")] and on["p2_z"] == []
    assert off["p5_c"] == off["p1_z"] == []


def test_tag_is_the_same_whatever_jobs(tmp_path, notes, capsys, fake_pass):
    assert _run(tmp_path, notes, capsys, "--jobs", "1") == _run(tmp_path, notes, capsys, "--jobs", "2")


def test_a_saved_site_file_is_read_by_site_on_the_next_batch(tmp_path, notes, capsys, fake_pass):
    saved = tmp_path / "learnt" / "mined.yaml"
    _run(tmp_path, notes, capsys, "--site-mining-save", str(saved))
    paths = learnt.files(saved)
    assert all(p.exists() for p in paths.values())
    assert paths["staff"].stat().st_mode & 0o077 == 0
    site = Site.load(saved)
    assert sorted(site.institutions) == ["mh"] and "dorsey" in site.staff
    assert site.patients["p1"][0] == ("name", "quarrie")
    nxt = tmp_path / "next"
    nxt.mkdir()
    (nxt / "p1_w.txt").write_text("mh: quarrie and Dorsey\n", encoding="utf-8")
    again = _run(tmp_path, nxt, capsys, "--site-mining", "off", "--site", str(saved))
    assert again["p1_w"] == [("mh", "HOSPITAL"), ("quarrie", "PATIENT"), ("Dorsey", "DOCTOR")]
    # the files are not replaced without --overwrite (refused before anything is tagged)
    assert tag_cli.main([str(nxt), "--quiet", "--site-mining-save", str(saved)]) == 2


def test_an_old_site_file_loses_its_labels_and_common_words_and_says_how_many(tmp_path, capsys, fake_pass):
    """A site file mined before the guard held ``may`` and ``hope`` (issue 50): with it, ``Patient
    will call`` lost a word in every note of the next batch. Read now, they are dropped and counted."""
    saved = tmp_path / "old" / "mined.yaml"
    saved.parent.mkdir()
    saved.write_text(learnt.HEADER + "tables: [mined.patients.csv]\nstaff: mined.staff.txt\n"
                     "institutions: mined.institutions.txt\nplaces: mined.places.txt\n", encoding="utf-8")
    (saved.parent / "mined.staff.txt").write_text(learnt.HEADER + "may\nhope\nwill\nmrn\ndorsey\n", encoding="utf-8")
    (saved.parent / "mined.institutions.txt").write_text(learnt.HEADER + "endo\nmh\n", encoding="utf-8")
    (saved.parent / "mined.places.txt").write_text(learnt.HEADER, encoding="utf-8")
    (saved.parent / "mined.patients.csv").write_text("patient,name,city\np1,quarrie,\np1,hope,\n", encoding="utf-8")
    site = Site.load(saved)
    assert site.staff == ["dorsey"] and site.institutions == ["mh"] and site.dropped == 6
    assert site.patients["p1"] == (("name", "quarrie"),)
    nxt = tmp_path / "next"
    nxt.mkdir()
    (nxt / "p1_w.txt").write_text("Patient will call; may need mh f/u. Hope and Dorsey aware; quarrie\n",
                                  encoding="utf-8")
    out = tmp_path / "out"
    assert tag_cli.main([str(nxt), "--output-format", "jsonl", "--output-dir", str(out), "--site-mining", "off",
                         "--group-pattern", r"^(p[0-9]+)_", "--site", str(saved)]) == 0
    err = capsys.readouterr().err
    assert "site file: 6 learnt entries dropped" in err and not re.search(r"(?i)dorsey|quarrie|hope", err)
    record = json.loads((out / "tagged.jsonl").read_text(encoding="utf-8"))
    found = [(record["text"][s["start"]:s["end"]], s["subtype"]) for s in record["spans"]]
    assert found == [("mh", "HOSPITAL"), ("Dorsey", "DOCTOR"), ("quarrie", "PATIENT")]
    # a roster the site gives (no mining header) is its own: nothing dropped
    roster = tmp_path / "roster.txt"
    roster.write_text("Hope Quarrington\nMay\n", encoding="utf-8")
    assert Site.from_files(lists={"staff": [roster]}).staff == ["Hope Quarrington", "May"]


def test_explain_on_stderr_names_notes_never_text(tmp_path, notes, capsys, fake_pass):
    assert tag_cli.main([str(notes), "--output-format", "redacted", "--output-dir", str(tmp_path / "red"),
                         "--explain", "--group-pattern", r"^(p[0-9]+)_"]) == 0
    err = capsys.readouterr().err
    lines = [json.loads(line[len("explain: "):]) for line in err.splitlines() if line.startswith("explain: ")]
    c = next(x for x in lines if x["id"] == "p5_c")
    taught = [s["steps"][-1]["taught_by"] for s in c["spans"] if s["steps"][-1]["step"] == "site_mining"]
    assert taught and all(t["notes"] == ["p3_a", "p4_b"] for t in taught)
    assert not re.search(r"(?i)dorsey|quarrie|melinda|kevin", err)
    assert "site mining: 2 string(s) learnt for the site" in err
    assert (tmp_path / "red" / "p5_c.txt").read_text(encoding="utf-8").count("[**HOSPITAL**]") == 2


def test_surrogates_of_mined_spans_are_consistent(tmp_path, notes, capsys, fake_pass):
    assert tag_cli.main([str(notes), "--output-format", "surrogate", "--seed", "7", "--quiet",
                         "--output-dir", str(tmp_path / "sur"), "--group-pattern", r"^(p[0-9]+)_"]) == 0
    text = (tmp_path / "sur" / "p5_c.txt").read_text(encoding="utf-8")
    assert "mh" not in text.lower().split() and "dorsey" not in text.lower()
    # the patient's surname the model found (p1_y) and the one mining found (p1_z): one surrogate
    found = (tmp_path / "sur" / "p1_y.txt").read_text(encoding="utf-8").split()[0]
    mined = (tmp_path / "sur" / "p1_z.txt").read_text(encoding="utf-8").split("'")[0]
    assert found.lower() == mined.lower() != "quarrie"


#: Notes the shipped model tags as the comments say (checked by the test through the command's path).
REAL = {"p1_a": "Transferred from Kelmscott Memorial Hospital. Seen by Dr. Kevin Dorsey on 3/4.",
        "p2_b": "Pt admitted to Kelmscott Memorial Hospital, Dr. Kevin Dorsey notified.",
        "p3_c": "f/u at KELMSCOTT; dorsey's plan reviewed.",   # dorsey: left by the model alone
        "p4_d": "Pt Melinda Quarrie, seen today. Quarrie family at bedside."}


@pytest.mark.slow
def test_spark_honours_the_switch_and_gives_the_commands_spans(spark):
    from crfdeid.adapters.records import Deidentifier
    from crfdeid.spark import deidentify
    df = spark.createDataFrame([(k, v, k.split("_")[0]) for k, v in REAL.items()],
                               "id string, text string, patient string")
    docs = [Document(k, v, meta={"patient": k.split("_")[0]}) for k, v in REAL.items()]

    def spark_spans(on):
        rows = deidentify(df, "spans", patient_col="patient", site_mining=on, partitions=2).collect()
        return {r["id"]: [(REAL[r["id"]][s["start"]:s["end"]], s["type"]) for s in r["spans"]] for r in rows}

    def command_spans(on):
        return {r.id: [(REAL[r.id][s["start"]:s["end"]], s["type"]) for s in r.spans]
                for r in Deidentifier(None, "spans", site_mining=on).run(docs)}

    on, off = spark_spans(True), spark_spans(False)
    spark.catalog.clearCache()
    assert ("dorsey", "DOCTOR") in on["p3_c"] and ("dorsey", "DOCTOR") not in off["p3_c"]
    assert on == command_spans(True) and off == command_spans(False)


def test_a_model_of_its_own_labels_tags_the_same_with_mining_on(tmp_path):
    """A made-up non-English corpus with its own labels (four scripts): mining does not apply to
    its model, so every span is the same with the switch on (docs/site.md, rule step 1)."""
    from byo_corpus import make_corpus

    from crfdeid.config import load_config
    from crfdeid.crf import train_model
    from crfdeid.io import read
    from crfdeid.tagging.session import SPANS, Session
    train, test = make_corpus(tmp_path / "train", 24, seed=3), make_corpus(tmp_path / "test", 12, seed=4)
    cfg = load_config(Path(__file__).resolve().parent.parent / "configs" / "byo-example.yaml",
                      {"train": [f"brat:{train}"], "crf": {"max_iterations": 30}})
    model = train_model(None, cfg)
    docs = [Document(d.doc_id, d.text, meta={"patient": "p1"}) for d in read(f"brat:{test}")]
    on, off = Session(model, SPANS, site_mining=True), Session(model, SPANS)
    assert not on.site_mining
    assert [r.spans for r in on.run(docs)] == [r.spans for r in off.run(docs)]


def test_the_frequent_words_list_is_built_at_the_threshold_mining_states():
    from crfdeid import gazetteers
    header = "\n".join(gazetteers.header("frequent_words"))
    assert f"zipf_frequency('en') >= {mining.ZIPF_MAX}" in header
    assert {"will", "may", "hope"} <= gazetteers.load("frequent_words")
    assert not {"smith", "johnson", "dorsey"} & gazetteers.load("frequent_words")
