"""Site knowledge at tagging time: a patient's identifiers, staff, institutions, safe terms.

Every patient, note, name and number here is made up.
"""

from __future__ import annotations

import json

import pytest

from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError
from crfdeid.site import Site, match, read_table, split_name
from crfdeid.site.match import Matcher, name_forms

PATIENT = {"first_name": "Melinda", "last_name": "Ward", "mrn": "00482913", "birth_date": "1948-03-02",
           "phone": "617-555-0199", "address": "45 Maple Ridge Road, Suite 210, Hartwell, MA 01234"}


def _found(site, text, patient="p1", spans=(), meta=None):
    doc = Document("n1", text, meta={"patient": patient, **(meta or {})})
    return [(text[s.start:s.end], s.subtype) for s in site.apply(doc, text, list(spans))]


@pytest.fixture(scope="module")
def site():
    return Site(patients={"p1": [PATIENT, {"relative": "Frank Ward"},
                                 {"name": "Abdulrahman bin Khalid Al-Qahtani"}, {"name": "Sean O'Brien"}]},
                staff=["Kevin Dorsey", "Hope Smith"], institutions=["Hartwell Rehab", "MGH"],
                places=["Hartwell"], allow=["Hope", "Ward 5"])


@pytest.mark.parametrize("text, expected", [
    ("WARD, MELINDA seen", [("WARD, MELINDA", "PATIENT")]),                  # upper case, surname first
    ("melinda ward aware", [("melinda ward", "PATIENT")]),                   # lower case
    ("per m. ward and M WARD", [("m. ward", "PATIENT"), ("M WARD", "PATIENT")]),  # initials
    ("DAUGHTER-MINDY CALLED", [("MINDY", "PATIENT")]),                       # nickname, glued to a neighbour
    ("Mrs. Ward's sats ok", [("Ward", "PATIENT")]),                          # possessive, after a title
    ("son, frank, called", [("frank", "PATIENT")]),                          # a plain word after a relation
    ("Abdulrahman bin Khalid Al-Qahtani here", [("Abdulrahman bin Khalid Al-Qahtani", "PATIENT")]),
    ("the Qahtani family, AL QAHTANI", [("Qahtani", "PATIENT"), ("AL QAHTANI", "PATIENT")]),
    ("OBrien, o'brien, O'BRIEN's wife", [("OBrien", "PATIENT"), ("o'brien", "PATIENT"), ("O'BRIEN", "PATIENT")]),
    ("nsg (k. dorsey and h. smith)", [("k. dorsey", "DOCTOR"), ("h. smith", "DOCTOR")]),  # staff roster
    ("transfer to Hartwell Rehab", [("Hartwell Rehab", "HOSPITAL")]),
    ("f/u @ mgh", [("mgh", "HOSPITAL")]),
    ("mrn 482913; MRN: 0048-2913", [("482913", "MEDICALRECORD"), ("0048-2913", "MEDICALRECORD")]),
    ("call 555-0199 or 617 555 0199", [("555-0199", "PHONE"), ("617 555 0199", "PHONE")]),
    ("dob 3/2/48, born March 2, 1948", [("3/2/48", "DATE"), ("March 2, 1948", "DATE")]),
    ("lives 45 Maple Ridge Rd, Ste 210, hartwell ma 01234",
     [("45 Maple Ridge Rd", "STREET"), ("Ste 210", "STREET"), ("hartwell", "CITY"), ("01234", "ZIP")]),
])
def test_every_variant_of_a_known_identifier_is_found(site, text, expected):
    assert _found(site, text) == expected


@pytest.mark.parametrize("text", [
    "transfer to ward 5 tonight",          # the patient is Ms. Ward: "ward" alone is a word
    "WARD ROUNDS DONE",                     # upper case says nothing: no cue, no match
    "Ward 5 called back",                   # title case, but the start of a sentence
    "there is hope. Hope for the best",     # the staff member Hope Smith: an allow-listed word
    "frank blood in stool",                 # Frank Ward, the son: "frank" is a word
    "bin 4 emptied, al fresco",             # particles never match alone
    "K 4.2, 2/3/1948 x",                    # not the birth date, no initial without a surname
    "mrn 4829130, 61755501990 x",           # inside a longer number
])
def test_names_that_are_words_never_tag_the_word(site, text):
    assert _found(site, text) == []


def test_a_plain_name_in_title_case_inside_a_sentence_is_found(site):
    assert _found(site, "Spoke with Ward about it.") == [("Ward", "PATIENT")]


def test_a_known_span_never_widens_into_its_neighbours(site):
    # the CRF found DAUGHTER-MINDY as one span of another type: the known name keeps its own type
    text = "DAUGHTER-MINDY CALLED, gave lasix"
    assert _found(site, text, spans=[make_span(9, 14, "HOSPITAL")]) == [("MINDY", "PATIENT")]
    # a predicted span overlapping a known name becomes their union, typed as the record says
    text = "seen by Kevin Dorsey RN"
    assert _found(site, text, spans=[make_span(8, 13, "CITY")]) == [("Kevin Dorsey", "DOCTOR")]


def test_another_patients_identifiers_are_not_used(site):
    assert _found(site, "melinda ward and mrn 00482913", patient="p2") == []


def test_meta_known_holds_a_notes_own_identifiers():
    site = Site()
    text = "Pt Zorbin seen, brother Quillon aware"
    meta = {"known": {"last_name": "Zorbin", "relative": ["Quillon Zorbin"]}}
    assert _found(site, text, meta=meta) == [("Zorbin", "PATIENT"), ("Quillon", "PATIENT")]
    with pytest.raises(ConfigError, match=r"unknown field\(s\) of 9 characters") as err:  # a key is never echoed
        _found(site, text, meta={"known": {"shoe_size": "9"}})
    assert "shoe_size" not in str(err.value)


def test_the_allow_list_drops_predicted_spans_but_never_a_known_identifier(site):
    text = "Pt to Ward 5 today; Hope called"
    spans = [make_span(6, 12, "HOSPITAL"), make_span(20, 24, "PATIENT")]
    # "Ward 5" is safe here; "Hope" alone is safe; nothing known matches: both go
    assert _found(site, text, spans=spans) == []
    # a known full name is added after the allow-list: "Hope Smith" stays
    assert _found(site, "Hope Smith RN aware", spans=[make_span(0, 4, "PATIENT")]) == [("Hope Smith", "DOCTOR")]


def test_nicknames_can_be_turned_off():
    forms = name_forms("Robert", (), "Zelnik", "PATIENT")
    assert [(m.start, m.end) for m in Matcher(forms).find("bob zelnik")] == [(4, 10)]
    nick = {"robert": frozenset({"bob"})}
    assert [(m.start, m.end) for m in Matcher(name_forms("Robert", (), "Zelnik", "PATIENT", nick)).find(
        "bob zelnik")] == [(0, 10)]


def test_split_name():
    assert split_name("O'Brien, Sean P") == ("Sean", ["P"], "O'Brien")
    assert split_name("Zelnik") == (None, [], "Zelnik")


def test_tables_csv_jsonl_and_the_deid_packages_lines(tmp_path):
    (tmp_path / "p.csv").write_text("patient,first_name,last_name,mrn\np7,Ann,Zelnik,1234567\n", encoding="utf-8")
    (tmp_path / "n.jsonl").write_text(json.dumps({"note": "n9", "relative": ["Bodhi Zelnik"]}) + "\n", encoding="utf-8")
    (tmp_path / "pid.txt").write_text("7||||Ann||||Zelnik\n8||||Quillon||||Marsh\n", encoding="utf-8")
    assert read_table(tmp_path / "p.csv") == [("patient", "p7", {"first_name": "Ann", "last_name": "Zelnik",
                                                                  "mrn": "1234567"})]
    assert read_table(tmp_path / "n.jsonl") == [("note", "n9", {"relative": ["Bodhi Zelnik"]})]
    assert [r[:2] for r in read_table(tmp_path / "pid.txt")] == [("patient", "7"), ("patient", "8")]
    site = Site.from_files([tmp_path / "p.csv", tmp_path / "n.jsonl", tmp_path / "pid.txt"])
    doc = Document("n9", "ann zelnik, bodhi aware; quillon", meta={"patient": "p7"})
    assert [doc.text[s.start:s.end] for s in site.apply(doc, doc.text, [])] == ["ann zelnik", "bodhi"]
    doc = Document("x", "Quillon Marsh", meta={"patient": "8"})
    assert [doc.text[s.start:s.end] for s in site.apply(doc, doc.text, [])] == ["Quillon Marsh"]


@pytest.mark.parametrize("content, message", [
    ("patient,first_name,shoe\np1,Ann,9\n", "unknown field.*'shoe'"),
    ("first_name\nAnn\n", "exactly one of the columns patient and note"),
    ("patient,birth_date\np1,someday\n", "birth_date: not a date"),
])
def test_bad_tables_are_errors_naming_the_file_never_a_value(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as err:
        Site.from_files([path])
    assert "bad.csv" in str(err.value) and "Ann" not in str(err.value)


def test_site_file_names_tables_and_lists_relative_to_itself(tmp_path):
    (tmp_path / "p.csv").write_text("patient,last_name\np1,Zelnik\n", encoding="utf-8")
    (tmp_path / "staff.txt").write_text("# roster\nTara Quillon\n", encoding="utf-8")
    (tmp_path / "safe.txt").write_text("Ward 5\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("tables: p.csv\nstaff: [staff.txt]\nallow: safe.txt\n", encoding="utf-8")
    site = Site.load(tmp_path / "site.yaml")
    assert _found(site, "zelnik to Ward 5 per t. quillon", spans=[make_span(10, 16, "HOSPITAL")]) == [
        ("zelnik", "PATIENT"), ("t. quillon", "DOCTOR")]
    (tmp_path / "bad.yaml").write_text("tables: p.csv\nroster: staff.txt\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown key.*roster.*known: tables"):
        Site.load(tmp_path / "bad.yaml")


# -- through the tagger: the chain's site.v1, the command, the Python API --------------

@pytest.fixture(scope="module")
def model():
    import crfdeid
    return crfdeid.load()


NOTE = "pt zorbek resting. spoke w/ vexlan re plan, per t. quillon rn. f/u @ hartwell rehab"


def _tagged(doc):
    return [(doc.text[s.start:s.end], s.subtype) for s in doc.spans]


def test_the_python_api_takes_a_site_per_call_and_meta_known(model):
    site = Site(patients={"p9": {"last_name": "Zorbek", "relative": "Vexlan Zorbek"}},
                staff=["Tamsin Quillon"], institutions=["Hartwell Rehab"])
    doc = Document("n1", NOTE, meta={"patient": "p9"})
    got = _tagged(model.tag(doc, options={"site": site}))
    assert {("zorbek", "PATIENT"), ("vexlan", "PATIENT"), ("t. quillon", "DOCTOR"),
            ("hartwell rehab", "HOSPITAL")} <= set(got)
    alone = {s for s, _ in _tagged(model.tag(doc))}
    assert "vexlan" not in alone  # what the site adds: the model alone misses the relative
    meta = Document("n1", NOTE, meta={"known": {"name": "Zorbek"}})
    assert ("zorbek", "PATIENT") in _tagged(model.tag(meta))


def test_a_site_file_named_in_the_chain(model, tmp_path):
    from crfdeid.crf import Model
    (tmp_path / "staff.txt").write_text("Tamsin Quillon\n", encoding="utf-8")
    (tmp_path / "site.yaml").write_text("staff: staff.txt\n", encoding="utf-8")
    m = Model.from_bytes(model.to_bytes())
    m.chain = m.chain.with_processor({"name": "site.v1", "file": str(tmp_path / "site.yaml")})
    assert ("t. quillon", "DOCTOR") in _tagged(m.tag_text(NOTE))
    assert m.chain.names()[-2:] == ["safe_harbor.v1", "token_bounds.v1"]  # Safe Harbor stays last


def test_the_tag_command_reads_site_tables_lists_and_meta_known(tmp_path, capsys):
    from crfdeid.cli import tag
    (tmp_path / "p.csv").write_text("patient,last_name,relative\np9,Zorbek,Vexlan Zorbek\n", encoding="utf-8")
    (tmp_path / "staff.txt").write_text("Tamsin Quillon\n", encoding="utf-8")
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps({"id": "n1", "text": NOTE, "meta": {"patient": "p9"}}) + "\n"
                     + json.dumps({"id": "n2", "text": "brother oskin aware",
                                   "meta": {"known": {"relative": "Oskin Zorbek"}}}) + "\n", encoding="utf-8")
    for jobs in ("1", "2"):
        assert tag.main(["--quiet", "--input-format", "jsonl", "--site-table", str(tmp_path / "p.csv"),
                         "--site-list", f"staff={tmp_path / 'staff.txt'}", "--jobs", jobs, str(notes)]) == 0
        out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        found = [{d["text"][s["start"]:s["end"]] for s in d["spans"]} for d in out]
        assert {"zorbek", "vexlan", "t. quillon"} <= found[0] and "oskin" in found[1]
    assert tag.main(["--quiet", "--site-list", "roster=x.txt", str(notes)]) == 2
    assert "KIND one of staff" in capsys.readouterr().err


def test_a_patient_table_that_matches_no_note_says_so_and_names_the_mapping(tmp_path, capsys):
    """Issue 36: rows keyed by patient and a folder of plain notes change nothing unless the
    notes are mapped to patients; the run says how many rows matched and warns at zero
    (no patient key or note text in the message)."""
    from crfdeid.cli import tag
    (tmp_path / "patients.csv").write_text("patient,last_name\np0042,Zorbek\np0043,Quillon\n", encoding="utf-8")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "p0042_2097-03-14.txt").write_text("Brother zorbek aware.\n", encoding="utf-8")
    (notes / "p0042_2097-04-02.txt").write_text("Seen again.\n", encoding="utf-8")
    table = ["--site-table", str(tmp_path / "patients.csv"), str(notes)]
    assert tag.main(["--quiet", *table]) == 0
    captured = capsys.readouterr()
    assert '"zorbek"' not in captured.out.lower().replace(" ", "")  # nothing matched: not found
    err = captured.err
    assert "no note matched a row of the site tables" in err and "--group-pattern" in err
    assert "--group-by" in err and "--group-table" in err
    assert "p0042" not in err and "Zorbek" not in err
    assert tag.main([*table, "--group-pattern", "^(p[0-9]+)_"]) == 0
    captured = capsys.readouterr()
    assert "site tables: 1 of 2 patient(s) matched a note (2 note(s) read)" in captured.err
    assert "warning" not in captured.err
    found = [json.loads(line) for line in captured.out.splitlines()]
    assert any(d["text"][s["start"]:s["end"]] == "zorbek" for d in found for s in d["spans"])


def test_the_table_option_says_how_notes_map_to_patients(capsys):
    from crfdeid.cli import tag
    with pytest.raises(SystemExit):
        tag.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--group-pattern REGEX" in text and "only rows keyed by note" in text


# -- the leaks the issue found with the shipped model, and its invented values -----------

@pytest.mark.parametrize("text, phi", [
    ("f/u w/ pcp dr o'brien @ mgh next wk.", ["o'brien", "mgh"]),
    ("Pt Abdulrahman bin Khalid Al-Qahtani seen today.", ["Abdulrahman", "bin", "Khalid", "Al-Qahtani"]),
    ("Mr. Abdulrahman bin Khalid Al-Qahtani is a 78M.", ["Abdulrahman", "bin", "Khalid", "Al-Qahtani"]),
    ("Lives at 45 Maple Ridge Road, Suite 210, Hartwell.", ["Suite", "210"]),
])
def test_the_three_leaks_are_gone(model, text, phi):
    doc = model.tag_text(text)
    covered = {i for s in doc.spans for i in range(s.start, s.end)}
    for word in phi:
        start = text.index(word)
        assert set(range(start, start + len(word))) <= covered, word


@pytest.mark.parametrize("text, surface, subtype", [
    ("NEURO: Glasgow Coma Scale 15, MAE.", "15", "DATE"),
    ("NEURO: Glasgow Coma Scale 15, MAE.", "Scale 15", "DEPARTMENT"),
    ("CV: 78M with hx CHF.", "78M", "AGE"),
    ("CV: 78M with hx CHF.", "78", "AGE"),
])
def test_invented_values_never_become_spans(model, text, surface, subtype):
    from crfdeid.recognizers.chain import Note
    start = text.index(surface)
    assert model.chain.run(Note(text), [make_span(start, start + len(surface), subtype)]) == []
    assert model.tag_text(text).spans == []


@pytest.mark.parametrize("text", ["", "...", "Seen by Kevin Dorsey, MRN 00482913 (ext 12).", "ab12CD 3e4\n\tO'Brien-x",
                                  "12 34", "x"])
def test_note_tokens_of_ascii_text_are_the_unicode_pattern_s(text):
    # The ASCII path (one split of the lower-cased note) gives TOKEN's tokens, lower-cased.
    match._LAST = ("", [])
    want = [(m.start(), m.end(), m.group().lower()) for m in match.TOKEN.finditer(text)]
    assert match.note_tokens(text) == want
