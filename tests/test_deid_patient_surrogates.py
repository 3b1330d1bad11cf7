"""Surrogates a patient keeps (issue 52 item 7) and the mapping file (item 7's second half).

One surrogate per original per patient across notes, whatever form the original takes
(case, possessive, hyphenated, surname particles, a name cut into several spans by the
tagger), one town per town, and a mapping that is a real CSV/TSV with every span. Every
name, place and number here is made up.
"""

from __future__ import annotations

import csv
import re

import pytest
from test_deid_surrogate import note

from crfdeid.cli import main
from crfdeid.deid import Surrogator
from crfdeid.deid.mapping import COLUMNS, MappingTable
from crfdeid.deid.names import PARTICLES

# (a surname as the family writes it, the forms it takes in the notes)
FORMS = [
    ("Smith-Jones", ["Mary Smith-Jones", "Smith-Jones's", "SMITH-JONES", "smith-jones"]),
    ("Van der Berg", ["Anna Van der Berg", "van der Berg", "VAN DER BERG", "Van der Berg's"]),
    ("de la Cruz", ["Lucia de la Cruz", "de la Cruz", "DE LA CRUZ", "De La Cruz"]),
    ("bin Rashid", ["Ahmed bin Rashid", "bin Rashid", "BIN RASHID", "bin Rashid's"]),
    ("O'Neil", ["Siobhan O'Neil", "O'Neil's", "O'NEIL", "o'neil"]),
    ("Ní Bhriain", ["Aoife Ní Bhriain", "NÍ BHRIAIN", "Ní Bhriain's"]),
]


def _forms():
    for surname, forms in FORMS:
        for i, a in enumerate(forms):
            for b in forms[i + 1:]:
                yield surname, a, b


def _tail(name: str, n: int) -> str:
    """The last ``n`` words of a name, case-folded, without a possessive 's."""
    return " ".join(re.sub(r"['\u2019]s$", "", name).split()[-n:]).casefold()


@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize("surname,a,b", list(_forms()))
def test_a_surname_keeps_one_surrogate_in_every_note_and_form(surname, a, b, seed):
    s = Surrogator(seed=seed)
    n = len(surname.split())
    got = []
    for i, form in enumerate((a, b, a)):  # the first form again after the second: nothing drifts
        doc = note(f"p1_{i}", f"Seen {form} at home today.", (form, "PATIENT"), patient="p1")
        new = s.surrogate(doc)
        got.append(new.surface(new.spans[0]))
    tails = {_tail(g, n) for g in got}
    assert len(tails) == 1, (a, b)
    tail = tails.pop()
    assert surname.casefold() not in tail and len(tail.split()) == n
    words = re.sub(r"['\u2019]s$", "", got[1]).split()
    orig = re.sub(r"['\u2019]s$", "", b).split()
    assert len(words) == len(orig)
    for w, o in zip(words, orig):  # the case pattern of every word kept
        assert (w.isupper(), w.islower()) == (o.isupper(), o.islower()) or not o.isalpha()
    if n > 1 and surname.split()[0].lower() in PARTICLES:  # particles stay particles
        assert all(w.lower() in PARTICLES for w in words[-n:-1])


def test_a_name_cut_into_spans_by_the_tagger_gets_the_surrogate_of_the_whole_name():
    s = Surrogator(seed=3)
    whole = s.surrogate(note("p1_a", "Daughter Anna Van der Berg called.", ("Anna Van der Berg", "PATIENT"),
                             patient="p1"))
    text = "Her daughter Anna Van der Berg visited."
    cut = note("p1_b", text, ("Anna Van", "PATIENT"), ("der", "PATIENT"), ("Berg", "PATIENT"), patient="p1")
    new = s.surrogate(cut)
    a, b = new.spans[0].start, new.spans[-1].end
    assert new.text[a:b] == whole.surface(whole.spans[0])
    assert len(new.spans) == 3  # the spans stay as the tagger gave them


@pytest.mark.parametrize("first,second", [
    (("Lives in Springfield, IL 62701.", ("Springfield", "CITY"), ("IL", "STATE"), ("62701", "ZIP")),
     ("Went home to Springfield.", ("Springfield", "CITY"))),
    (("Went home to springfield by bus.", ("springfield", "CITY")),
     ("Lives in Springfield, IL 62701.", ("Springfield", "CITY"), ("IL", "STATE"), ("62701", "ZIP"))),
    (("Moved from Ballymore, Co. Westmeath.", ("Ballymore", "CITY")),
     ("back in BALLYMORE since May", ("BALLYMORE", "CITY"))),
    (("lives in wagga wagga nsw", ("wagga wagga", "CITY"), ("nsw", "STATE")),
     ("drove to Wagga Wagga.", ("Wagga Wagga", "CITY"))),
    (("From Pune, in Maharashtra.", ("Pune", "CITY")), ("Pune again, near Mumbai.", ("Pune", "CITY"))),
])
@pytest.mark.parametrize("seed", [2, 11])
def test_one_town_becomes_one_town_in_every_note_of_the_patient(first, second, seed):
    s = Surrogator(seed=seed)
    towns = []
    for i, (text, *phi) in enumerate((first, second, first)):
        new = s.surrogate(note(f"p9_{i}", text, *phi, patient="p9"))
        towns.append(new.surface(new.spans[0]).casefold())
    assert len(set(towns)) == 1
    assert first[1][0].casefold() not in towns[0]


def test_the_address_keeps_its_known_town_and_a_state_of_that_town():
    from crfdeid.deid import zipdata
    s = Surrogator(seed=5)
    alone = s.surrogate(note("p2_a", "Went home to Springfield.", ("Springfield", "CITY"), patient="p2"))
    town = alone.surface(alone.spans[0])
    new = s.surrogate(note("p2_b", "Lives in Springfield, IL 62701.", ("Springfield", "CITY"), ("IL", "STATE"),
                           ("62701", "ZIP"), patient="p2"))
    city, state, zip_ = (new.surface(sp) for sp in new.spans)
    assert city == town
    rows = [r for r in zipdata.us_places() if r[0] == town]
    assert any(r[1] == state and zip_ in r[2] for r in rows)


def test_another_patient_gets_other_surrogates():
    s = Surrogator(seed=4)
    got = [s.surrogate(note(f"{p}_a", "Seen Mary Smith-Jones.", ("Mary Smith-Jones", "PATIENT"), patient=p))
           for p in ("p1", "p2")]
    assert got[0].text != got[1].text


# --- the mapping file ---------------------------------------------------------------------------

def test_the_mapping_table_has_every_span_and_the_address_parts_in_columns():
    s = Surrogator(seed=8)
    assert s.table is None  # kept only when a mapping file is asked for
    s.keep_mapping()
    docs = [note("p1_a", "Mary Smith-Jones lives at 12 Elm Road, Springfield, IL 62701; call 555-0143.",
                 ("Mary Smith-Jones", "PATIENT"), ("12 Elm Road", "STREET"), ("Springfield", "CITY"),
                 ("IL", "STATE"), ("62701", "ZIP"), ("555-0143", "PHONE"), patient="p1"),
            note("p1_b", "Ms. Smith-Jones back to Springfield.", ("Smith-Jones", "PATIENT"),
                 ("Springfield", "CITY"), patient="p1")]
    outs = [s.surrogate(d) for d in docs]
    rows = list(csv.DictReader(s.keep_mapping().render().splitlines()))
    assert tuple(rows[0]) == COLUMNS
    spans = [r for r in rows if r["subtype"] != "ADDRESS"]
    assert sum(int(r["spans"]) for r in spans) == sum(len(o.spans) for o in outs) == 8
    for d, o in zip(docs, outs):  # every (original, surrogate) pair of every note is there
        for a, b in zip(d.spans, o.spans):
            assert any(r["original"] == d.surface(a) and r["surrogate"] == o.surface(b)
                       and r["subtype"] == a.subtype for r in spans)
    (addr,) = [r for r in rows if r["subtype"] == "ADDRESS"]
    assert (addr["original_street"], addr["original_city"], addr["original_state"], addr["original_zip"]) == (
        "12 Elm Road", "Springfield", "IL", "62701")
    assert addr["surrogate_city"] and addr["surrogate_city"] in addr["surrogate"]
    assert {r["date_shift_days"] for r in rows} == {str(s.state("p1").shift_days)}
    assert {r["patient"] for r in rows} == {"p1"} and {r["note"] for r in rows} == {"p1_a", "p1_b"}


def test_an_empty_table_is_a_header_line():
    assert MappingTable().render().strip() == ",".join(COLUMNS)


NOTES = {
    "p01_a.txt": "Patient Mary Smith-Jones was seen today at Harborview Hospital.\n"
                 "She lives in Springfield, IL 62701. Her daughter called.\n"
                 "Ms. Smith-Jones is stable. Seen by Dr. Maria Lopez.\n",
    "p01_b.txt": "Follow-up for Mary Smith-Jones. She returned home to Springfield.\n"
                 "Dr. Lopez agrees. Call 555-0143.\n",
    "p02_a.txt": "Patient Ahmed bin Rashid was seen at Harborview Hospital by Dr. Maria Lopez.\n",
}


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    (tmp_path / "K").write_text("made-up test key 0123456789abcdef\n", encoding="utf-8")
    (tmp_path / "K").chmod(0o600)
    return folder


def _tag(tmp_path, notes, mapping, *more):
    return main(["tag", "--quiet", "--output-format", "surrogate", "--key-file", str(tmp_path / "K"),
                 "--group-pattern", "^(p[0-9]+)_", "--mapping", str(mapping), "-o", "xml=true",
                 "--output-dir", str(tmp_path / "out"), *more, str(notes)])


@pytest.mark.parametrize("suffix,delimiter", [(".csv", ","), (".tsv", "\t"), (".CSV", ",")])
def test_tag_writes_a_mapping_of_every_span_one_surrogate_per_original_and_patient(tmp_path, notes, suffix,
                                                                                  delimiter):
    from crfdeid.io import read
    mapping = tmp_path / f"map{suffix}"
    assert _tag(tmp_path, notes, mapping) == 0
    assert mapping.stat().st_mode & 0o077 == 0
    with open(mapping, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter=delimiter))
    assert rows and set(rows[0]) == set(COLUMNS)
    written = list(read(f"i2b2:{tmp_path / 'out'}"))
    spans = [r for r in rows if r["subtype"] != "ADDRESS"]
    assert sum(int(r["spans"]) for r in spans) == sum(len(d.spans) for d in written)  # every surrogate
    texts = {d.doc_id: d.text for d in written}
    for r in spans:
        assert r["surrogate"] in texts[r["note"]]
    seen: dict = {}
    for r in spans:
        if r["surrogate"].startswith("[**"):
            continue  # a placeholder (an uncertain span) is no surrogate
        key = (r["patient"], r["original"].casefold())
        seen.setdefault(key, set()).add(r["surrogate"].casefold())
    assert seen and all(len(v) == 1 for v in seen.values()), seen
    assert {r["patient"] for r in rows} == {"p01", "p02"}


@pytest.mark.parametrize("name", ["map.txt", "map", "map.csv.gz"])
def test_tag_refuses_a_mapping_not_named_csv_or_tsv(tmp_path, notes, capsys, name):
    assert _tag(tmp_path, notes, tmp_path / name) == 2
    err = capsys.readouterr().err
    assert name in err and ".csv" in err and ".tsv" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / name).exists()


def test_tag_never_writes_the_mapping_over_or_among_the_inputs(tmp_path, notes, capsys):
    before = {p.name: p.read_bytes() for p in notes.iterdir()}
    assert _tag(tmp_path, notes, notes / "map.csv", "--overwrite") == 2
    assert "mapping" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in notes.iterdir()} == before


def test_corpus_surrogate_writes_the_same_columns(tmp_path):
    from crfdeid.io import write
    src = tmp_path / "src"
    write([note("p1-01", "Seen by Dr. Ann Van der Berg on 7/22/2097.", ("Ann Van der Berg", "DOCTOR"),
                ("7/22/2097", "DATE"))], "i2b2", src)
    mapping = tmp_path / "m.csv"
    assert main(["corpus", "surrogate", f"i2b2:{src}", "--out", str(tmp_path / "out"), "--seed", "13",
                 "--mapping", str(mapping), "-q"]) == 0
    rows = list(csv.DictReader(mapping.open(newline="", encoding="utf-8")))
    assert {r["subtype"] for r in rows} == {"DOCTOR", "DATE"}
    assert all(r["date_shift_days"] for r in rows)


@pytest.mark.parametrize("word", ["of", "St", "Holy", "Road"])
def test_a_generic_place_word_takes_one_surrogate_in_capitals_and_lower_case(word):
    from crfdeid.deid import places
    s = Surrogator(seed=6)
    st = s.state("p3")
    got = {places.wordwise(st, s.keyed, "place-cities", w).casefold() for w in (word, word.upper(), word.lower())}
    assert len(got) == 1 and word.casefold() not in got


def test_a_unit_code_in_capitals_stays_an_acronym():
    from crfdeid.deid import places
    s = Surrogator(seed=6)
    new = places.wordwise(s.state("p3"), s.keyed, "place-cities", "MICU")
    assert new.isupper() and len(new) == 4 and new != "MICU"


@pytest.mark.slow
@pytest.mark.physionet
def test_physionet_originals_keep_one_surrogate_per_patient(physionet_docs):
    """On the development notes (gold spans, every note learnt first as ``corpus surrogate``
    does), no original of a patient takes two surrogates (3 did before 2026-11-25)."""
    from crfdeid.deid.spans import propagate
    docs = [propagate(d) for d in physionet_docs]
    s = Surrogator(seed=13)
    table = s.keep_mapping()
    for d in docs:
        s.learn(d)
    for d in docs:
        s.surrogate(d)
    seen: dict = {}
    for r in csv.DictReader(table.render().splitlines()):
        if r["subtype"] not in ("DATE", "ADDRESS") and not r["surrogate"].startswith("[**"):
            seen.setdefault((r["patient"], r["subtype"], r["original"].casefold()), set()).add(
                r["surrogate"].casefold())
    assert len(seen) > 500
    assert [k[1] for k, v in seen.items() if len(v) > 1] == []
