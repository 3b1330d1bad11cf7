"""Made-up notes of other countries and styles (issue 50): the marks, the shipped sets and
``experiments made-up --notes`` (identifiers left, phrases changed, values changed, false spans)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from crfdeid.cli.experiments import main
from crfdeid.deid.redact import redact
from crfdeid.document import Document, make_span
from crfdeid.experiments import madeup, madeup_outputs

DOCS = Path(__file__).resolve().parents[1] / "docs" / "experiments.md"

# -- the marks ---------------------------------------------------------------------------------


def test_both_marks_give_spans_and_phrases_at_half_open_offsets():
    doc = madeup._document("n", "Seen by Dr [[DOCTOR|Ann Lee]], {{score|GCS 15}}; {{aspirin 81 mg}}.\n")
    assert doc.text == "Seen by Dr Ann Lee, GCS 15; aspirin 81 mg.\n"
    [sp] = doc.spans
    assert (doc.text[sp.start:sp.end], sp.subtype, sp.category) == ("Ann Lee", "DOCTOR", "NAME")
    assert [(doc.text[a:b], kind) for a, b, kind in doc.meta["keep"]] == [("GCS 15", "score"),
                                                                          ("aspirin 81 mg", "other")]


@pytest.mark.parametrize("raw, reason", [
    ("{{score|GCS [[DATE|2092]]}}", "do not nest"),
    ("[[DATE|March {{time|14:20}}]]", "do not nest"),
    ("[[DATE|March 2092", "not closed"),
    ("{{GCS 15", "not closed"),
    ("GCS 15}} ok", "closes no"),
    ("seen ]] ok", "closes no"),
    ("[[DATE|2092}}", "closes no"),
    ("[[NURSE|Ann]]", "i2b2 2014 subtype"),
    ("[[Ann Lee]]", "i2b2 2014 subtype"),
    ("{{grade|GCS 15}}", "unknown kind"),
    ("{{ }}", "empty"),
])
def test_bad_marks_are_refused_by_name_without_the_notes_text(raw, reason):
    with pytest.raises(madeup.NoteMarkError, match=reason) as exc:
        madeup._document("note7", raw)
    assert "note7" in str(exc.value) and "offset" in str(exc.value)
    assert not any(w in str(exc.value) for w in ("Ann", "GCS", "2092", "March"))


def test_a_note_id_given_twice_is_refused(tmp_path):
    path = tmp_path / "n.txt"
    path.write_text("=== a ===\nx\n=== a ===\ny\n", encoding="utf-8")
    with pytest.raises(madeup.NoteMarkError, match="twice"):
        madeup.read_notes(path)


# -- the shipped sets ---------------------------------------------------------------------------

#: set -> notes, Safe Harbor identifiers, phrases that must survive (as docs/experiments.md says).
COUNTS = {"dev": (25, 279, 400), "dev2": (14, 163, 168), "dev3": (12, 199, 189), "dev4": (8, 112, 86),
          "dev5": (10, 117, 62), "dev6": (15, 192, 715), "dev7": (10, 105, 384), "dev8": (8, 64, 310),
          "dev9": (6, 46, 341), "dev10": (15, 348, 1265), "dev11": (15, 334, 1524),
          "short": (30, 110, 280), "check": (15, 206, 224), "check2": (12, 158, 448), "check3": (14, 233, 805),
          "check4": (16, 333, 1310), "check5": (18, 245, 580), "check6": (16, 182, 585),
          "check7": (18, 235, 1038), "check8": (18, 312, 868), "check9": (18, 384, 1213), "check10": (18, 461, 1414),
          "check11": (18, 628, 1689), "check12": (18, 664, 1758),
          "check13": (18, 653, 2044), "check14": (18, 667, 1994),
          "check15": (18, 718, 2404), "check16": (18, 749, 2319),
          "check17": (18, 715, 2418), "check18": (18, 727, 2493),
          "check19": (18, 810, 2635), "check20": (18, 830, 2734),
          "check21": (18, 790, 2648), "check22": (18, 772, 2435),
          "check23": (18, 839, 3431), "check24": (18, 693, 2587),
          "check25": (18, 637, 2327), "check26": (18, 669, 2564),
          "check27": (18, 629, 2444), "check28": (18, 667, 2348),
          "check29": (18, 697, 2393),
          "check30": (18, 602, 2059),
          "check31": (18, 611, 2391),
          "check32": (18, 638, 2377),
          "check33": (18, 612, 2170),
          "check34": (18, 682, 2045),
          "check35": (18, 667, 1719),
          "check36": (18, 684, 1460),
          "check37": (18, 418, 1153),
          "check38": (14, 305, 737),
          "check39": (13, 233, 586),
          "check40": (13, 298, 698),
          "check41": (14, 278, 759),
          "check42": (14, 310, 766),
          "check43": (14, 318, 790),
          "check44": (12, 272, 687),
          "check45": (13, 327, 768),
          "check46": (13, 290, 690),
          "check47": (14, 344, 1355),
          "check48": (14, 351, 737),
          "check49": (14, 356, 1146),
          "check50": (14, 444, 1324),
          "check51": (14, 387, 1140),
          "check52": (14, 461, 1419),
          "check53": (14, 495, 1175),
          "check54": (14, 508, 1035),
          "forms9": (24, 738, 461),
          "falsify7": (6, 65, 90), "falsify13": (8, 79, 151), "falsify14": (9, 86, 201),
          "planted47": (26, 204, 314),
          "legacy": (15, 67, 0)}


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_the_shipped_sets_parse_and_hold_what_the_docs_say(name):
    docs = madeup.read_notes(name)
    g = madeup_outputs.gold_counts(docs)
    assert (g["notes"], g["identifiers"], g["phrases"]) == COUNTS[name]
    assert len({d.doc_id for d in docs}) == len(docs)
    assert f"| {name} | {g['notes']} | {g['identifiers']} | {g['identifier_tokens']} | {g['phrases']} |" \
        in DOCS.read_text(encoding="utf-8")
    for d in docs:
        assert not re.search(r"\[\[|\]\]|\{\{|\}\}", d.text)
        for a, b, _ in d.meta["keep"]:  # a phrase that must survive is never PHI
            assert not any(sp.start < b and a < sp.end for sp in d.spans)


@pytest.mark.parametrize("name", sorted(set(madeup.NOTE_SETS) - {"legacy"}))  # every set written since
def test_the_new_sets_have_phrases_and_phi_in_every_note_and_titles_outside_names(name):
    for d in madeup.read_notes(name):
        assert d.spans and d.meta["keep"], d.doc_id
        for sp in d.spans:
            if sp.category == "NAME":
                assert not re.match(r"(?i)(dr|mr|mrs|ms|miss|sr)\.? ", d.text[sp.start:sp.end]), d.doc_id



# -- reading an output back ---------------------------------------------------------------------

TEXT = "Seen by Ann Lee on 3/4 at\nMercy Ridge, GCS 15.\n"


@pytest.mark.parametrize("where", [
    [(8, 15)],
    [(0, 4), (8, 11), (12, 15)],          # at the start; two spans with one space between
    [(19, 21), (21, 22)],                 # adjacent spans: one stretch
    [(19, 22), (23, 25), (43, 45)],       # a span at the end of a line, one before the last dot
    [(16, 37)],                           # across the line break (the writer cuts it in two)
    [],
])
def test_replaced_finds_the_stretches_a_writer_replaced(where):
    doc = Document("n", TEXT, [make_span(a, b, "DOCTOR") for a, b in where])
    merged: list = []
    for a, b in where:
        if merged and merged[-1][1] == a:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    if where == [(16, 37)]:
        merged = [(16, 25), (26, 37)]
    for style in ("mimic", "xyz", "category"):
        assert madeup_outputs.replaced(TEXT, redact(doc, style)) == merged


def test_the_spans_a_writer_was_given_settle_a_text_that_reads_two_ways():
    text = "Lives at 3318 Larkspur Court, Apt 2B, Tacoma."
    doc = Document("n", text, [make_span(9, 36, "STREET"), make_span(38, 44, "CITY")])
    out = redact(doc, "mimic")
    assert madeup_outputs.replaced(text, out) == [(9, 28), (30, 44)]  # the text alone: shortest first
    assert madeup_outputs.replaced(text, out, doc.spans) == [(9, 36), (38, 44)]
    other = [make_span(9, 28, "STREET"), make_span(38, 44, "CITY")]  # spans that leave other gaps: not used
    assert madeup_outputs.replaced(text, out, other) == [(9, 28), (30, 44)]


def test_an_output_that_changed_unmarked_text_is_an_alignment_error():
    out = Document("n", "Seen by [**DOCTOR**] in 3/4 at\nMercy Ridge, GCS 15.\n", [make_span(8, 20, "DOCTOR")])
    with pytest.raises(madeup_outputs.AlignmentError, match="'n'"):
        madeup_outputs.replaced(TEXT, out)


# -- falsified: a phrase written with a made-up value ---------------------------------------------

GOLD = Document("n", "LVEDD 5.9 cm. Fundal height 35 cm.", [], {"keep": [[0, 12, "value"], [14, 34, "word"]]})


@pytest.mark.parametrize("out_text, where, changed, falsified", [
    ("Ann Lee 5.9 cm. Fundal height 35 cm.", [(0, 7)], 1, {"value": 1}),            # a doctor's name
    ("[**DOCTOR**] 5.9 cm. Fundal height 35 cm.", [(0, 12)], 1, {}),               # a placeholder: honest
    ("LVEDD 5.9 cm. Fundal [**DOCTOR**] 35 cm.", [(21, 33)], 1, {}),
    ("LVEDD 5.9 cm. Fundal height 12/03 cm.", [(28, 33)], 1, {"word": 1}),         # 35 made a date
    ("LVEDD 5.9 cm. Fundal [**DOCTOR**]Kim 35 cm.", [(21, 33), (33, 36)], 1, {"word": 1}),  # adjacent: one stretch
    ("LVEDD 5.9 cm. Fundal height 35 cm.", [(0, 5)], 1, {}),                       # the same text written back
    ("Ann Lee 5.9 cm. Fundal height 17 cm.", [(0, 7), (30, 32)], 2, {"value": 1, "word": 1}),
])
def test_falsified_counts_phrases_written_with_a_made_up_value(out_text, where, changed, falsified):
    out = Document("n", out_text, [make_span(a, b, "DOCTOR") for a, b in where])
    r = madeup_outputs.score_note(GOLD, out)
    assert (sum(r["changed"].values()), r["falsified"]) == (changed, falsified)
    assert madeup_outputs.score_note(GOLD, out, made_up=False)["falsified"] == {}  # a writer of placeholders


LABELLED = Document("n", "Bleep:3391 today", [make_span(6, 10, "PHONE")], {"keep": [[0, 5, "label"]]})


@pytest.mark.parametrize("out_text, where, falsified", [
    ("[**CITY**]4420 today", [(0, 10), (10, 14)], {}),              # the label's placeholder, the phone made up
    ("Crewe:4420 today", [(0, 6), (6, 10)], {"label": 1}),           # the label written as a town: falsified
    ("[**CITY**][**PHONE**] today", [(0, 10), (10, 21)], {}),
])
def test_a_placeholder_joined_to_a_made_up_value_is_judged_on_its_own_span(out_text, where, falsified):
    out = Document("n", out_text, [make_span(a, b, "CITY") for a, b in where])
    tagged = [make_span(0, 6, "CITY"), make_span(6, 10, "PHONE")]
    r = madeup_outputs.score_note(LABELLED, out, tagged)
    assert (r["changed"], r["falsified"]) == ({"label": 1}, falsified)
    assert r["identifiers_as_placeholders"] == (out_text.count("[**") == 2)  # the phone: its own span judged
    if not falsified and "PHONE" not in out_text:  # without the spans given the stretch counts whole, as before
        assert madeup_outputs.score_note(LABELLED, out)["falsified"] == {"label": 1}


# -- the command on a tiny made-up file, its tagger's spans given ---------------------------------

TINY = """# two made-up notes for the test
=== n1 ===
{{heading|CLINIC NOTE}}
Seen by Dr [[DOCTOR|Ann Lee]] at [[HOSPITAL|Mercy Ridge]] in [[DATE|March 2092]], {{score|GCS 15}}.
{{drug|aspirin 81 mg}} daily.
=== n2 ===
pt [[PATIENT|bo quist]] seen {{time|14:20}} in [[STATE|Ohio]].
"""
#: The spans the tagger is made to find, by note: (surface, subtype).
PREDICTED = {"n1": [("Ann", "DOCTOR"), ("Mercy Ridge", "HOSPITAL"), ("March 2092", "DATE"), ("GCS", "DOCTOR"),
                    ("81", "DATE")],
             "n2": [("Ohio", "STATE")]}


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    path = tmp_path / "tiny.txt"
    path.write_text(TINY, encoding="utf-8")

    def tag(self, docs, jobs=1, progress=None):
        for d in docs:
            spans = [make_span(d.text.index(s), d.text.index(s) + len(s), sub) for s, sub in PREDICTED[d.doc_id]]
            yield d.doc_id, d.with_spans(spans), None
    monkeypatch.setattr(madeup_outputs.Session, "tag", tag)
    return path


def test_the_command_counts_what_the_output_leaves_and_changes(tiny, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["made-up", "--notes", str(tiny), "--outputs", "redacted", "--by-note", "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    # Safe Harbor PHI: Ann Lee (2 tokens), Mercy Ridge (2), March 2092 (2), bo quist (2); Ohio is a state
    assert res["gold"]["identifier_tokens"] == 8 and res["gold"]["identifiers"] == 4
    assert res["gold"]["phrases"] == 4 and res["gold"]["phrases_with_digits"] == 3
    for run in ("mining off", "mining on"):
        r = res["runs"][run]["redacted"]
        assert (r["identifier_tokens_left"], r["identifiers_left"]) == (3, 2)      # Lee; bo quist
        assert r["left_by_subtype"] == {"DOCTOR": 1, "PATIENT": 2}
        assert r["identifiers_left_by_subtype"] == {"DOCTOR": 1, "PATIENT": 1}
        assert r["phrases_changed"] == 2 and r["changed_by_kind"] == {"drug": 1, "score": 1}
        assert r["falsified"] == 0 and r["falsified_by_kind"] == {}                 # placeholders only
        assert (r["values_changed"], r["values_other"]) == (1, 0)  # 81 lost; GCS 15 keeps its 15
        assert r["false_spans"] == 2 and r["false_by_subtype"] == {"DATE": 1, "DOCTOR": 1}
        assert r["failed"] == [] and set(r["by_note"]) == {"n1", "n2"}
        assert r["by_note"]["n2"]["left"] == {"PATIENT": 2} and r["by_note"]["n2"]["false"] == {}
    printed = capsys.readouterr().out
    assert "identifier tokens left 3 of 8" in printed and "phrases changed 2 of 4" in printed
    assert "n1 " in printed and "n2 " in printed                                       # per note id
    for words in ("Ann", "Lee", "quist", "Mercy", "GCS", "aspirin", "14:20", "Ohio", "CLINIC"):
        assert words not in printed                                                     # never note text



def test_a_routed_models_member_of_each_note_is_counted_and_named_per_note(tiny, tmp_path, monkeypatch, capsys):
    def tag(self, docs, jobs=1, progress=None):  # a routed model's tagged copies say their member
        for d in docs:
            tagged = d.with_spans([])
            tagged.meta["route"] = "specialty" if d.doc_id == "n1" else "icu"
            yield d.doc_id, tagged, None
    monkeypatch.setattr(madeup_outputs.Session, "tag", tag)
    out = tmp_path / "r.json"
    assert main(["made-up", "--notes", str(tiny), "--outputs", "redacted", "--mining", "off", "--by-note",
                 "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["routes"] == {"icu": 1, "specialty": 1}
    assert res["route_by_note"] == {"n1": "specialty", "n2": "icu"}
    printed = capsys.readouterr().out
    assert "notes by member: icu 1, specialty 1" in printed
    members = [line.split()[-1] for line in printed.splitlines() if line.startswith(("n1 ", "n2 "))]
    assert members == ["specialty", "icu"]                                             # per note id


def test_a_single_crf_gives_no_members(tiny, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["made-up", "--notes", str(tiny), "--outputs", "redacted", "--mining", "off", "--json", str(out)]) == 0
    assert "routes" not in json.loads(out.read_text()) and "notes by member" not in capsys.readouterr().out

def test_a_note_the_writer_refuses_is_named_and_not_scored(tiny, tmp_path, monkeypatch, capsys):
    from crfdeid.deid.writers import RedactedWriter
    from crfdeid.errors import LeakError

    real = RedactedWriter.transform

    def refuse(self, doc):
        if doc.doc_id == "n2":
            raise LeakError("refused", doc_id=doc.doc_id)
        return real(self, doc)
    monkeypatch.setattr(RedactedWriter, "transform", refuse)
    out = tmp_path / "r.json"
    assert main(["made-up", "--notes", str(tiny), "--outputs", "redacted", "--mining", "off",
                 "--json", str(out)]) == 0
    r = json.loads(out.read_text())["runs"]["mining off"]["redacted"]
    assert r["failed"] == ["n2"] and r["identifier_tokens_left"] == 1 and list(r["by_note"]) == ["n1"]
    assert "failed notes 1 (n2)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--mining", "sometimes"], "--mining"),
    (["--session-option", "no equals"], "--session-option"),
    (["--session-option", "day_first=true"],  # an option no Session takes: named, with those it takes
     "unknown session option(s) day_first; allowed: backend, date_order, explain, o_threshold, o_words"),
])
def test_the_command_refuses_bad_options(tiny, argv, message, capsys):
    assert main(["made-up", "--notes", str(tiny), *argv]) == 2
    assert message in capsys.readouterr().err


def test_session_options_reach_the_session(tiny, monkeypatch):
    import functools
    seen = []
    init = madeup_outputs.Session.__init__

    @functools.wraps(init)                               # its signature: the allowed options
    def spy(self, *args, **kwargs):
        seen.append(kwargs.get("o_words"))
        init(self, *args, **kwargs)
    monkeypatch.setattr(madeup_outputs.Session, "__init__", spy)
    assert main(["made-up", "--notes", str(tiny), "--mining", "off", "--outputs", "redacted",
                 "--session-option", "o_words=false"]) == 0
    assert seen[:2] == [False, False]                    # the model's session and the tagging one


def test_the_shipped_model_on_the_dev_notes_surrogates_with_a_fixed_seed(tmp_path):
    """Two runs agree (the public seed), and every count stays within what the notes hold."""
    outs = []
    for k in range(2):
        path = tmp_path / f"d{k}.json"
        assert main(["made-up", "--notes", "dev", "--mining", "off", "--json", str(path)]) == 0
        outs.append(json.loads(path.read_text()))
    assert outs[0] == outs[1]
    g, runs = outs[0]["gold"], outs[0]["runs"]["mining off"]
    for fmt in ("redacted", "surrogate"):
        r = runs[fmt]
        assert 0 <= r["identifier_tokens_left"] < g["identifier_tokens"]
        assert 0 <= r["phrases_changed"] <= g["phrases"] and r["values_other"] <= r["values_changed"]
        assert r["falsified"] <= r["phrases_changed"] and (fmt == "surrogate" or r["falsified"] == 0)
        assert len(r["by_note"]) + len(r["failed"]) == g["notes"]


def test_an_annotated_corpus_is_measured_the_same_way_with_its_placeholders_counted(tmp_path, monkeypatch, capsys):
    from crfdeid.document import Span

    def tag(self, docs, jobs=1, progress=None):  # the tagger finds every gold span, surely, and a heading
        for d in docs:
            spans = [Span(g.start, g.end, g.category, g.subtype, confidence=0.99) for g in GOLD[d.doc_id].spans]
            i = d.text.find("NPN")
            spans += [Span(i, i + 3, "NAME", "DOCTOR", confidence=0.99)] if i >= 0 else []
            yield d.doc_id, d.with_spans(sorted(spans, key=lambda sp: sp.start)), None
    from crfdeid.io import read
    GOLD = {d.doc_id: d for d in read("physionet:tests/data/physionet")}
    monkeypatch.setattr(madeup_outputs.Session, "tag", tag)
    locked = tmp_path / "locked.txt"
    locked.write_text("# left out\n2\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["made-up", "--corpus", "physionet:tests/data/physionet", "--exclude-groups", str(locked),
                 "--outputs", "redacted,surrogate", "--mining", "off", "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["gold"]["notes"] == 2 and res["gold"]["phrases"] == 0               # patient 2 left out
    red, sur = res["runs"]["mining off"]["redacted"], res["runs"]["mining off"]["surrogate"]
    assert red["identifiers_left"] == sur["identifiers_left"] == 0                 # every span still replaced
    n_spans = sum(len(GOLD[i].spans) for i in ("1-1", "1-2")) + 1
    assert red["placeholders"] == n_spans and "not_confident" not in red           # redacted: all placeholders
    assert red["false_spans"] == sur["false_spans"] == 1                           # the heading NPN
    assert 1 <= sur["not_confident"] <= sur["placeholders"] < n_spans              # NPN no name; the rest realistic
    assert 0 <= sur["clinical_forms"] <= sur["not_confident"]                      # of them, a clinical form's
    assert red["identifiers_as_placeholders"] == red["identifiers_replaced"] > 0     # redacted: every one
    assert sur["identifiers_as_placeholders"] < sur["identifiers_replaced"] == red["identifiers_replaced"]
    printed = capsys.readouterr().out
    assert f"placeholders written {sur['placeholders']} ({sur['not_confident']} not confidently" in printed
    assert (f"identifiers as placeholders {sur['identifiers_as_placeholders']} of {sur['identifiers_replaced']}"
            in printed)
    assert "Brandt" not in printed and "Tessa" not in printed                      # never note text


@pytest.mark.parametrize("out_text, where, words_changed", [
    ("LVEDD 5.9 cm. Fundal height 35 cm.", [], 0),
    ("Ann Lee 5.9 cm. Fundal height 35 cm.", [(0, 7)], 1),                           # LVEDD
    ("LVEDD 5.9 cm. [**DOCTOR**] 35 cm.", [(14, 26)], 2),                              # Fundal height
])
def test_words_changed_counts_tokens_outside_phi_that_a_replaced_stretch_touches(out_text, where, words_changed):
    out = Document("n", out_text, [make_span(a, b, "DOCTOR") for a, b in where])
    r = madeup_outputs.score_note(GOLD, out)
    assert (r["words"], r["words_changed"]) == (8, words_changed)


NAMED = Document("n", "Dr Ann Lee saw Bo Quist on 3 May.", [make_span(3, 10, "DOCTOR"), make_span(15, 23, "PATIENT"),
                                                            make_span(27, 32, "DATE")], {"keep": []})


@pytest.mark.parametrize("out_text, where, replaced, held", [
    ("Dr Kim Roe saw Al Finn on 9 Jun.", [(3, 10), (15, 22), (26, 31)], 3, 0),             # every one a surrogate
    ("Dr [**DOCTOR**] saw Al Finn on 9 Jun.", [(3, 15), (20, 27), (31, 36)], 3, 1),       # a real name held back
    ("Dr [**DOCTOR**] Roe saw Bo Quist on 3 May.", [(3, 15), (16, 19)], 1, 0),            # part surrogate: written
    ("Dr Ann Lee saw Bo Quist on [**DATE**].", [(27, 37)], 1, 1),                         # two left, not replaced
])
def test_identifiers_as_placeholders_counts_real_identifiers_that_got_no_surrogate(out_text, where, replaced, held):
    out = Document("n", out_text, [make_span(a, b, "DOCTOR") for a, b in where])
    r = madeup_outputs.score_note(NAMED, out)
    assert (r["identifiers_replaced"], r["identifiers_as_placeholders"]) == (replaced, held)


def test_a_comma_left_between_two_replaced_parts_of_a_street_leaves_no_identifier():
    gold = Document("n", "Lives at 3/2, 18 Kilmarnock Terrace.", [make_span(9, 35, "STREET")], {"keep": []})
    out = Document("n", "Lives at [**STREET**], [**STREET**].",
                   [make_span(9, 21, "STREET"), make_span(23, 35, "STREET")])
    r = madeup_outputs.score_note(gold, out, [make_span(9, 12, "STREET"), make_span(14, 35, "STREET")])
    assert (r["left"], r["left_identifiers"]) == ({"STREET": 0}, {"STREET": 0})
