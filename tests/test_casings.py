"""``experiments made-up --casing``: the same made-up notes as written, in lower and in upper case."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crfdeid.cli.experiments import main
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError
from crfdeid.experiments import casings, madeup_outputs


@pytest.mark.parametrize("text, casing, want", [
    ("Dr Ann Lee, MRN 12", "lower", "dr ann lee, mrn 12"),
    ("Dr Ann Lee, MRN 12", "upper", "DR ANN LEE, MRN 12"),
    ("Dr Ann Lee, MRN 12", "as-written", "Dr Ann Lee, MRN 12"),
    ("Straße 4, Dr Groß", "upper", "STRAßE 4, DR GROß"),     # "ß".upper() is "SS": kept, offsets kept
    ("İzmir, Ann", "lower", "İzmir, ann"),                   # "İ".lower() is two characters: kept
])
def test_recase_changes_the_case_and_keeps_every_offset(text, casing, want):
    assert casings.recase(text, casing) == want


@given(st.text(max_size=60), st.sampled_from(casings.CASINGS))
def test_recase_never_changes_the_length(text, casing):
    assert len(casings.recase(text, casing)) == len(text)


def test_an_unknown_casing_is_refused_with_the_known_ones():
    with pytest.raises(ConfigError, match="as-written, lower, upper"):
        casings.parse_casings("lower,title")
    with pytest.raises(ConfigError, match="as-written, lower, upper"):
        casings.recase("x", "title")


@pytest.mark.parametrize("predicted, left", [
    ([(8, 15)], 1),                    # the date wholly left
    ([(8, 11), (19, 23)], 1),          # "Lee" in no span
    ([(8, 15), (19, 21)], 1),          # "22" of 7/22 in no span
    ([(8, 15), (19, 23)], 0),
    ([(7, 24)], 0),                    # one span over both
    ([(8, 15), (18, 19), (21, 23)], 1),  # the slash alone is no letter or digit, but "7" is
])
def test_a_gold_identifier_is_left_when_a_letter_or_digit_is_in_no_span(predicted, left):
    gold = Document("1", "Seen by Ann Lee on 7/22.", [make_span(8, 15, "DOCTOR"), make_span(19, 23, "DATE")])
    assert casings.identifiers_left(gold, [make_span(a, b, "OTHER") for a, b in predicted]) == left


def test_a_slash_in_no_span_leaves_nothing():
    gold = Document("1", "on 7/22.", [make_span(3, 7, "DATE")])
    assert casings.identifiers_left(gold, [make_span(3, 4, "DATE"), make_span(5, 7, "DATE")]) == 0


def test_names_after_pt_are_counted_by_the_type_given():
    text = "Pt Ann Lee seen. patient. Bo Quist called; seen by Cy Roe"
    spans = [make_span(3, 10, "DOCTOR"), make_span(26, 34, "PATIENT"), make_span(51, 57, "DOCTOR")]
    assert casings.names_after_pt(text, spans) == {"DOCTOR": 1, "PATIENT": 1}


# -- the command, its tagger made to find title-case words only --------------------------------

TINY = """# made-up notes for the test
=== n1 ===
Seen by Dr [[DOCTOR|Ann Lee]] at {{time|14:20}} in [[CITY|Straßfurt]] with [[PATIENT|Bo Quist]].
=== n2 ===
Pt [[PATIENT|Cy Roe]] seen, {{score|GCS 15}}.
"""


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    path = tmp_path / "tiny.txt"
    path.write_text(TINY, encoding="utf-8")

    def tag(self, docs, jobs=1, progress=None):
        for d in docs:  # a tagger that finds title-case words only: lower and upper case leave names
            spans = [make_span(m.start(), m.end(), "DOCTOR") for m in re.finditer(r"\b[A-Z][a-zß]+", d.text)
                     if m.group() not in ("Seen", "Dr", "Pt")]
            yield d.doc_id, d.with_spans(spans), None
    monkeypatch.setattr(madeup_outputs.Session, "tag", tag)
    return path


def test_the_command_measures_every_casing_of_the_same_notes(tiny, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["made-up", "--notes", str(tiny), "--casing", "as-written,lower,upper", "--mining", "off",
                 "--outputs", "redacted", "--json", str(out)]) == 0
    res = json.loads(out.read_text())["casings"]
    assert list(res) == ["as-written", "lower", "upper"]
    left = {c: res[c]["runs"]["mining off"]["redacted"]["identifiers_left_in_spans"] for c in res}
    assert left == {"as-written": 0, "lower": 4, "upper": 4}       # Ann Lee, Straßfurt, Bo Quist, Cy Roe
    pt = {c: res[c]["runs"]["mining off"]["redacted"]["names_after_pt"] for c in res}
    assert pt == {"as-written": {"DOCTOR": 1}, "lower": {}, "upper": {}}
    assert all(res[c]["gold"]["all_spans"] == 4 for c in res)
    printed = capsys.readouterr().out
    assert [line for line in printed.splitlines() if line.startswith("casing ")] == \
        ["casing as-written:", "casing lower:", "casing upper:"]
    assert "with a letter or digit in no tagged span 4 of 4" in printed
    for words in ("Ann", "ann", "ANN", "Quist", "GCS", "14:20"):
        assert words not in printed                                 # never note text


def test_two_sets_keep_their_notes_apart(tiny, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text(TINY, encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["made-up", "--notes", f"{tiny},{other}", "--mining", "off", "--outputs", "redacted",
                 "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["gold"]["notes"] == 4 and r["casing"] == "as-written"
    assert sorted(r["runs"]["mining off"]["redacted"]["by_note"]) == \
        sorted(f"{p}/{n}" for p in (tiny, other) for n in ("n1", "n2"))
