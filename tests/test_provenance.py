"""Provenance (issue 37, item 2): which step found, widened, retyped or dropped each span, and the
dropped spans with their reason, only when asked for (``tag --explain``)."""

from __future__ import annotations

import json
import re

import pytest

from crfdeid import schema
from crfdeid.cli import tag
from crfdeid.document import Document, Span, make_span
from crfdeid.io import jsonl
from crfdeid.recognizers.chain import Note, build_chain, legacy_entries
from crfdeid.recognizers.provenance import Trace
from crfdeid.scoring import analyse_errors
from crfdeid.scoring.tables import render_errors
from crfdeid.site import Site
from crfdeid.tagging.session import Session

#: A made-up note: a CRF's partial date the rules widen, a CRF's ID the Safe Harbor layer retypes
#: (a fax number), a date only the rules find, a staff name only the site's list knows, a
#: punctuation span and a young age the hygiene steps drop, a dose the clinical filter drops.
TEXT = ("Seen by Dr. Lee on 7/22/2098 ; fax: 555-123-4567. Age 45 years. Tara Malloy came. "
        "Next visit 3/4/2090. Gave 40 mg daily.")


def _span(word: str, subtype: str):
    m = re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", TEXT)
    assert m is not None
    return make_span(m.start(), m.end(), subtype)


CRF = [_span("Lee", "DOCTOR"), _span("7/22", "DATE"), _span(";", "HOSPITAL"), _span("555-123-4567", "MEDICALRECORD"),
       _span("45", "AGE"), _span("40", "AGE")]


def _steps(trace, sp):
    return [(s.step, s.action) for s in trace.of(sp)]


@pytest.fixture(scope="module")
def traced():
    chain = build_chain(legacy_entries({"enabled": True}))
    trace = Trace(CRF, "crf", "the model's labels")
    site = Site(staff=["Tara Malloy"])
    spans = chain.run(Note(TEXT, options={"site": site}), sorted(CRF), trace)
    return chain, site, spans, trace


def test_the_trace_changes_nothing_the_chain_gives(traced):
    chain, site, spans, _ = traced
    assert chain.run(Note(TEXT, options={"site": site}), sorted(CRF)) == spans


def test_each_span_says_which_step_found_widened_or_retyped_it(traced):
    _, _, spans, trace = traced
    by = {TEXT[sp.start:sp.end]: sp for sp in spans}
    assert _steps(trace, by["Lee"]) == [("crf", "found")]
    assert _steps(trace, by["7/22/2098"]) == [("crf", "found"), ("rules.v1", "widened")]
    assert _steps(trace, by["3/4/2090"]) == [("rules.v1", "found")]
    assert _steps(trace, by["Tara Malloy"]) == [("site.v1", "found")]
    fax = by["555-123-4567"]
    assert fax.subtype == "FAX" and _steps(trace, fax)[-1] == ("safe_harbor.v1", "retyped")
    assert trace.of(fax)[-1].was == (fax.start, fax.end, "MEDICALRECORD")


def test_dropped_spans_are_kept_aside_with_the_step_and_its_reason(traced):
    _, _, _, trace = traced
    dropped = {TEXT[sp.start:sp.end]: steps[-1] for sp, steps in trace.dropped}
    assert (dropped[";"].step, dropped[";"].action) == ("junk_spans.v1", "dropped")
    assert dropped["45"].step == "young_ages.v1" and "under 90" in dropped["45"].reason
    assert dropped["40"].step == "clinical_filter.v1" and dropped["40"].reason == "a clinical term (dose)"
    assert set(dropped) == {";", "45", "40"}


def test_reasons_name_steps_never_the_notes_words(traced):
    _, _, spans, trace = traced
    report = json.dumps(trace.report(spans))
    for word in re.findall(r"[A-Za-z]{3,}|\d[\d/-]+", TEXT):
        if word not in {"fax", "Age", "years", "Seen", "Gave", "daily", "came", "Next", "visit"}:
            assert word not in report, word


def test_a_session_with_explain_tags_the_same_spans_and_text():
    docs = [Document("n1", TEXT)]
    plain = list(Session(output_format="redacted").run(docs))
    explained = list(Session(output_format="redacted", explain=True).run(docs))
    assert [r.text for r in explained] == [r.text for r in plain]
    strip = [[{k: v for k, v in s.items() if k != "steps"} for s in r.spans] for r in explained]
    assert strip == [r.spans for r in plain]
    assert all("steps" in s for s in explained[0].spans) and not any("steps" in s for s in plain[0].spans)


def test_without_explain_the_model_records_nothing():
    doc = Session().model.tag(Document("n1", TEXT))
    assert "explain" not in doc.meta


def test_tag_explain_writes_the_steps_in_the_jsonl_records(tmp_path, capsys):
    note, staff = tmp_path / "n1.txt", tmp_path / "staff.txt"
    note.write_text(TEXT)
    staff.write_text("Tara Malloy\n")
    assert tag.main(["--quiet", "--explain", "--site-list", f"staff={staff}", str(note)]) == 0
    rec = json.loads(capsys.readouterr().out)
    explain = rec["meta"]["explain"]
    assert len(explain["spans"]) == len(rec["spans"])
    found = {rec["text"][s["start"]:s["end"]]: steps for s, steps in zip(rec["spans"], explain["spans"])}
    assert "site.v1" in [s["step"] for s in found["Tara Malloy"]]  # found by the model too, or not
    assert tag.main(["--quiet", str(note)]) == 0
    assert "explain" not in json.loads(capsys.readouterr().out)["meta"]


def test_tag_explain_with_a_text_output_reports_on_stderr_without_the_notes_text(tmp_path, capsys):
    note = tmp_path / "n1.txt"
    note.write_text("Mr. Oakhurst was seen by Dr. Lee on 7/22/2098.\nplan: oakhurst to follow up.\n")
    assert tag.main(["--quiet", "--output-format", "redacted", str(note)]) == 0
    plain = capsys.readouterr()
    assert tag.main(["--quiet", "--explain", "--output-format", "redacted", str(note)]) == 0
    got = capsys.readouterr()
    assert got.out == plain.out and plain.err == ""
    [line] = got.err.splitlines()
    assert line.startswith("explain: ") and "akhurst" not in line and "Lee" not in line
    data = json.loads(line[len("explain: "):])
    steps = {s["start"]: [x["step"] for x in s["steps"]] for s in data["spans"]}
    assert steps[note.read_text().index("oakhurst")] == ["propagate"]  # the writer's repeat of the name


def test_the_error_analysis_says_which_step_dropped_a_missed_span_and_made_a_wrong_one(traced):
    _, _, spans, trace = traced
    pred = jsonl.parse_line(jsonl.render(Document("n1", TEXT, spans, {"explain": trace.report(spans)})))
    gold = Document("n1", TEXT, [_span("Lee", "PATIENT"), _span("45", "AGE"), _span("Tara Malloy", "DOCTOR")])
    ea = analyse_errors([gold], [pred])
    [missed] = ea.examples["missing"]
    assert missed.dropped == ((*missed.gold, "young_ages.v1: an age under 90 (no Safe Harbor identifier)"),)
    [wrong] = ea.examples["type"]
    assert wrong.steps == (("crf found",),)
    assert [e.steps for e in ea.examples["spurious"]] and all(e.steps for e in ea.examples["spurious"])
    table = render_errors(ea)
    assert "by young_ages.v1: an age under 90" in table and "Malloy" not in table
    plain = analyse_errors([gold], [Document("n1", TEXT, spans)])
    assert plain.examples["missing"][0].dropped == () and "dropped" not in plain.to_dict()["examples"]["missing"][0]


def test_worker_processes_explain_as_one_process_does():
    docs = [Document(f"n{i}", TEXT.replace("Lee", name)) for i, name in enumerate(("Lee", "Ward", "Olsen"))]
    session = Session(output_format="spans", explain=True)
    one = [r.spans for r in session.run(docs)]
    assert [r.spans for r in session.run(docs, jobs=2)] == one and all("steps" in s for r in one for s in r)


def test_a_model_with_its_own_labels_in_another_language_gets_the_same_record():
    text = "Paciente Juana Pérez ; teléfono 555-123-4567, edad 45 años."  # made up
    crf = [Span(9, 20, "NOMBRE", "NOMBRE"), Span(21, 22, "NOMBRE", "NOMBRE"), Span(51, 53, "EDAD", "EDAD")]
    trace = Trace(crf, "crf")
    spans = build_chain(legacy_entries({})).run(Note(text, english=False, scheme=schema.ANY), crf, trace)
    assert [(text[s.start:s.end], [x.step for x in trace.of(s)]) for s in spans] == [
        ("Juana Pérez", ["crf"]), ("555-123-4567", ["safe_harbor.v1"]), ("45", ["crf"])]  # its ages kept
    assert [(text[s.start:s.end], steps[-1].step) for s, steps in trace.dropped] == [(";", "junk_spans.v1")]
