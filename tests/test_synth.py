"""The synthetic i2b2 corpus: coverage, alignment, determinism, round trip, speed."""

import re
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid import io, synth
from crfdeid import labels as bio
from crfdeid.cli.synth import main
from crfdeid.errors import ReaderError
from crfdeid.schema import I2B2_SUBTYPES
from crfdeid.synth.builder import NoteBuilder
from crfdeid.text.tokenize import tokenize


@pytest.fixture(scope="module")
def docs200():
    return synth.generate(200, seed=13)


def test_all_subtypes_present_in_200_docs(docs200):
    counts = Counter(sp.subtype for d in docs200 for sp in d.spans)
    missing = [s for s in I2B2_SUBTYPES if counts[s] == 0]
    assert not missing, f"subtypes missing from 200 synthetic docs: {missing}"


def test_every_span_aligned_to_tokens(docs200):
    problems = {d.doc_id: bio.encode(tokenize(d.text), d.spans).problems for d in docs200}
    assert {k: v for k, v in problems.items() if v} == {}


def test_spans_valid_and_not_overlapping(docs200):
    for d in docs200:
        d.validate(allow_overlap=False)
        assert d.text.isascii()  # casing must not move offsets
        for sp in d.spans:
            s = d.surface(sp)
            assert s == s.strip() and s, (d.doc_id, sp.start)


@pytest.mark.parametrize("seed", [0, 13, 2014])
def test_deterministic_per_seed(seed):
    a, b = synth.generate(40, seed), synth.generate(40, seed)
    assert [(d.doc_id, d.text, d.spans) for d in a] == [(d.doc_id, d.text, d.spans) for d in b]


def test_global_random_state_is_not_used():
    import random
    random.seed(1)
    a = synth.generate(8, 3)
    random.seed(2)
    assert [d.text for d in synth.generate(8, 3)] == [d.text for d in a]


def test_seeds_differ_and_prefix_stable():
    assert [d.text for d in synth.generate(10, 1)] != [d.text for d in synth.generate(10, 2)]
    long = synth.generate(30, 5)
    assert [d.text for d in synth.generate(12, 5)] == [d.text for d in long[:12]]


def test_ids_group_several_notes_per_patient(docs200):
    assert all(re.fullmatch(r"\d{3,}-\d{2}", d.doc_id) for d in docs200)
    assert len({d.doc_id for d in docs200}) == 200
    per_patient = Counter(d.group for d in docs200)
    assert max(per_patient.values()) >= 3 and len(per_patient) < 150


def test_patient_name_consistent_across_notes(docs200):
    # the last name in the discharge header recurs in the other notes of that record
    by_group = {}
    for d in docs200:
        by_group.setdefault(d.group, []).append(d)
    checked = 0
    for notes in by_group.values():
        headers = [re.search(r"NAME: ([A-Za-z'-]+),", d.text) for d in notes]
        names = {m.group(1).lower() for m in headers if m}
        assert len(names) <= 1
        checked += bool(names)
    assert checked >= 10


def test_note_kinds_and_surface_forms(docs200):
    kinds = Counter(d.meta["note_type"] for d in docs200)
    assert kinds["nursing"] > kinds["discharge"] > 0 and kinds["letter"] > 0
    upper = sum(1 for d in docs200 if d.meta["note_type"] == "nursing"
                and d.text.upper() == d.text)
    assert upper >= 20  # ALL CAPS nursing notes are common
    surfaces = [d.surface(sp) for d in docs200 for sp in d.spans]
    dates = [s for d in docs200 for sp in d.spans if sp.subtype == "DATE" for s in [d.surface(sp)]]
    for pattern in [r"\d{1,2}/\d{1,2}", r"\d{2}/\d{2}/\d{4}", r"\d{4}-\d{2}-\d{2}",
                    r"[A-Z][a-z]+ \d{1,2}(st|nd|rd|th)", r"'\d\d"]:
        assert any(re.fullmatch(pattern, s) for s in dates), pattern
    assert any(re.fullmatch(r"\(\d{3}\) ?\d{3}-\d{4}", s) for s in surfaces)
    assert any(re.search(r"\d[A-Z]{3,}", d.text) for d in docs200)  # 3041023MARY-style glue


def test_look_alike_non_phi_is_not_labelled(docs200):
    for d in docs200:
        for word in ("Coumadin", "COUMADIN", "Swan-Ganz", "SWAN-GANZ", "Foley", "FOLEY"):
            for m in re.finditer(re.escape(word), d.text):
                assert not any(sp.start <= m.start() < sp.end for sp in d.spans), (d.doc_id, word)


@pytest.mark.parametrize("pattern", [
    r"\b(?:AC|SIMV) \d{3}X\d{1,2}",          # vent settings AC 600X14X5
    r"\bPSV \d{1,2}/\d{1,2}",                # pressure support 15/5
    r"\b\d{1,2}IPS\b",                      # 12IPS
    r"\bTO \d{2,3}/\d{2,3}",                 # BP dropped to 84/40
    r"\b\dUPRBC\b",                         # 2UPRBC
    r"\bD5 1/2 ?NS\b",                       # fluids
    r"\bFROM \d+ TO \d+",                    # drips and settings weaned from 8 to 5
    r"\bIN SYNCH\b",                         # clinical word after "in"
    r"\bTO BASELINE\b",                      # clinical word after "to"
])
def test_real_note_look_alikes_occur_unlabelled(docs200, pattern):
    hits = 0
    for d in docs200:
        for m in re.finditer(pattern, d.text, re.IGNORECASE):
            hits += 1
            assert not any(sp.start < m.end() and m.start() < sp.end for sp in d.spans), (d.doc_id, m.start())
    assert hits >= 1, pattern


@pytest.mark.parametrize("before, subtypes", [
    (r"(?:PER|REPORT FROM|D/W|DISCUSSED W/|SPOKE W/) (?:DR\.? )?", {"DOCTOR"}),
    (r"(?:TRANSFER|TRANSFERRED) TO ", {"HOSPITAL", "DEPARTMENT", "CITY"}),
    (r"(?:WIFE|SON|DAUGHTER) ", {"PATIENT"}),
    (r"(?:PLACED|INTUBATED|EXTUBATED|LAST BM|SINCE|CX|CXR) (?:ON )?\(?", {"DATE"}),
])
def test_nursing_phi_contexts(docs200, before, subtypes):
    # the ways ICU nursing notes mention clinicians, transfers, family and dates in passing
    found = Counter()
    for d in docs200:
        if d.meta["note_type"] != "nursing":
            continue
        for sp in d.spans:
            if re.search(f"(?i){before}$", d.text[max(0, sp.start - 30):sp.start]):
                found[sp.subtype] += 1
    assert sum(found[s] for s in subtypes) >= 2, found


def test_mixed_case_notes_capitalize_sentences_not_only_names(docs200):
    # otherwise a capital letter alone would mark a name in mixed-case notes
    starts = 0
    for d in docs200:
        if d.meta["note_type"] != "nursing" or d.text.isupper() or d.text.islower():
            continue
        for m in re.finditer(r"(?:^|\. )([A-Z][a-z]+)\b", d.text, re.MULTILINE):
            starts += not any(sp.start <= m.start(1) < sp.end for sp in d.spans)
    assert starts >= 50


def test_round_trip_through_i2b2(tmp_path, docs200):
    some = docs200[:25]
    assert io.write(some, "i2b2", tmp_path) == 25
    back = {d.doc_id: d for d in io.read(f"i2b2:{tmp_path}")}
    for d in some:
        assert back[d.doc_id].text == d.text
        assert back[d.doc_id].spans == d.spans


def test_reader_spec_and_errors():
    docs = list(io.read("synth:7,3"))
    assert [d.text for d in docs] == [d.text for d in synth.generate(7, 3)]
    with pytest.raises(ReaderError, match="N,SEED"):
        list(io.read("synth:many"))


def test_cli_writes_i2b2_files(tmp_path):
    assert main(["--docs", "6", "--seed", "4", "--out", str(tmp_path), "--quiet"]) == 0
    files = sorted(p.name for p in tmp_path.glob("*.xml"))
    assert files == [f"{d.doc_id}.xml" for d in synth.generate(6, 4)]


def test_speed_200_docs_under_5s():
    t0 = time.perf_counter()
    synth.generate(200, seed=99)
    assert time.perf_counter() - t0 < 5.0


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="ab .,\n", max_size=5),
                          st.sampled_from(["DATE", "DOCTOR", "ZIP"]),
                          st.text(alphabet="XYZ19", min_size=1, max_size=4)), max_size=6))
def test_builder_spans_cover_exactly_the_phi_pieces(pieces):
    b = NoteBuilder()
    for plain, sub, phi in pieces:
        b.add(plain, (sub, phi))
    doc = b.build("1-01")
    assert [(sp.subtype, doc.surface(sp)) for sp in doc.spans] == [(sub, phi) for _, sub, phi in pieces]
    assert doc.text == "".join(plain + phi for plain, _, phi in pieces)
