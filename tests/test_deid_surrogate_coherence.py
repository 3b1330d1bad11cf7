"""Surrogates a researcher can use (issue 28): one timeline per patient, Safe Harbor over 89,
values that fit together, no invented clinical facts. Every note here is made up."""

import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_deid_surrogate import note, surfaces

from crfdeid import gazetteers
from crfdeid.deid import Surrogator, check, dates, places, propagate, zipdata
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span, make_span

STAY = note("p1_a", "Admitted 10/02/2024. Procedure 10/03/2024. Discharged 10/09/2024. "
            "Follow-up 10/23/2024.", ("10/02/2024", "DATE"), ("10/03/2024", "DATE"),
            ("10/09/2024", "DATE"), ("10/23/2024", "DATE"), patient="p1")


# --- finding 1: one offset per patient ------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_finding_1_a_stay_keeps_its_timeline(seed):
    """The issue's discharge summary: a 7-day stay stays 7 days, the procedure stays before discharge."""
    s = Surrogator(seed=seed)
    new = s.surrogate(STAY)
    moved = [dt.datetime.strptime(x, "%m/%d/%Y").date() for x in surfaces(new)]
    was = [dt.datetime.strptime(x, "%m/%d/%Y").date() for x in surfaces(STAY)]
    assert {(m - w).days for m, w in zip(moved, was)} == {s.state("p1").shift_days}


def test_finding_1_every_form_of_a_date_moves_by_the_one_offset_in_every_run():
    """Full dates, month/day, month/year, two-digit years, words, weekdays: one offset, same in
    a second run with the same key and in any order of notes."""
    a = note("p2_a", "Seen Monday, March 14, 2022 (3/14/22); again 3/21 and in April 2022.",
             ("Monday, March 14, 2022", "DATE"), ("3/14/22", "DATE"), ("3/21", "DATE"), ("April 2022", "DATE"),
             patient="p2")
    b = note("p2_b", "Call on 05-02-2022, 2022-05-09 and May 16th.", ("05-02-2022", "DATE"),
             ("2022-05-09", "DATE"), ("May 16th", "DATE"), patient="p2")
    first = Surrogator(key="a secret key 1234")
    new_a, new_b = first.surrogate(a), first.surrogate(b)
    days = first.state("p2").shift_days
    again = Surrogator(key="a secret key 1234")
    assert again.surrogate(b).text == new_b.text and again.surrogate(a).text == new_a.text
    want = dt.date(2022, 3, 14) + dt.timedelta(days=days)
    full, short, day, _month = surfaces(new_a)
    assert dates.full_dates(full) == [want] and full.split(",")[0] == want.strftime("%A")
    assert short == f"{want.month}/{want.day}/{want.year % 100:02d}"
    later = dt.date(2022, 3, 21) + dt.timedelta(days=days)
    assert day == f"{later.month}/{later.day}"
    for orig, new in zip(("05-02-2022", "2022-05-09"), surfaces(new_b)[:2]):
        (o,), (n,) = dates.full_dates(orig), dates.full_dates(new)
        assert (n - o).days == days


def test_finding_1_an_unparsed_date_is_named_in_the_summary_never_moved_silently(tmp_path, capsys):
    doc = note("p3_a", "Seen 10/02/2024 and on the 21st, code 052647.", ("10/02/2024", "DATE"),
               ("21st", "DATE"), ("052647", "DATE"))
    with SurrogateWriter(tmp_path / "out", seed=1) as w:
        w.write(doc)
        line = w.summary()
    text = (tmp_path / "out" / "p3_a.txt").read_text()
    assert text.count("[**DATE**]") == 2
    assert "2 not parsed" in line and "p3_a@27" in line and "p3_a@38" in line
    assert "21st" not in line and "052647" not in line     # offsets, never text


def test_corpus_surrogate_names_unparsed_dates_and_takes_the_dob_option(tmp_path, capsys):
    import json

    from crfdeid.cli.corpus import main as corpus_main
    from crfdeid.io import read, write
    src = tmp_path / "in"
    doc = note("300-01", "Age 93. DOB 03/14/1930, seen 10/02/2024 and the 21st.", ("93", "AGE"),
               ("03/14/1930", "DATE"), ("10/02/2024", "DATE"), ("21st", "DATE"))
    write([doc], "i2b2", src)
    assert corpus_main(["surrogate", f"i2b2:{src}", "--out", str(tmp_path / "out"), "--seed", "1",
                        "--dob", "no-year", "-q", "--check"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["dates_unparsed_at"] == [{"doc_id": "300-01", "offset": 48, "became": "placeholder"}]
    assert summary["birth_dates_generalized"] == 1 and summary["check"]["ok"]
    (new,) = read(f"i2b2:{tmp_path / 'out'}")
    text = new.text
    assert re.search(r"DOB \d\d/\d\d, seen \d\d/\d\d/\d{4}", text) and "Age 90+" in text


def test_finding_1_the_write_time_check_refuses_a_date_on_another_offset():
    from crfdeid.errors import LeakError
    s = Surrogator(seed=2)
    real = s.shifted_group
    s.shifted_group = lambda st, text, group, year, days=None, drop_year=False, order=None: real(
        st, text, group, year, (st.shift_days + 1) if group[0].start > 30 else None, drop_year)
    with pytest.raises(LeakError, match="offset 31"):
        s.surrogate(STAY)


# --- finding 2: Safe Harbor over 89 ------------------------------------------------------------

OLD = note("p4_a", "Mrs. Ann Cole is a 92-year-old woman, DOB 03/14/1932, seen 10/02/2024.",
           ("Ann Cole", "PATIENT"), ("92", "AGE"), ("03/14/1932", "DATE"), ("10/02/2024", "DATE"))


def test_finding_2_the_birth_date_of_a_patient_over_89_is_generalized():
    new = Surrogator(seed=4).surrogate(OLD)
    assert surfaces(new)[1:3] == ["90+ year old", "[**DOB**]"]
    assert "90+-year" not in new.text and "1932" not in new.text and "1931" not in new.text
    year_less = Surrogator(seed=4, dob="no-year").surrogate(OLD)
    dob = surfaces(year_less)[2]
    assert re.fullmatch(r"\d\d/\d\d", dob) and not dates.parse(dob)[0][0].year


def test_finding_2_a_birth_date_and_a_note_date_alone_tell_the_age():
    """No age in the note: DOB 1930 and a visit in 2024 say 94; the age is not recoverable."""
    doc = note("p5_a", "DOB: 1/5/1930. Visit 10/02/2024.", ("1/5/1930", "DATE"), ("10/02/2024", "DATE"))
    assert surfaces(Surrogator(seed=1).surrogate(doc))[0] == "[**DOB**]"
    young = note("p6_a", "DOB: 1/5/1950. Visit 10/02/2024.", ("1/5/1950", "DATE"), ("10/02/2024", "DATE"))
    s = Surrogator(seed=1)
    born, seen = (dates.full_dates(x)[0] for x in surfaces(s.surrogate(young)))
    assert (seen - born).days == (dt.date(2024, 10, 2) - dt.date(1950, 1, 5)).days   # under 90: shifted


@pytest.mark.parametrize("text", ["Age: 94.", "a 94 yo man", "a 94-year-old", "aged 101", "a 92M with",
                                  "a ninety-four year old", "she is in her 90s"])
def test_finding_2_an_age_over_89_outside_every_span_still_generalizes_the_birth_date(text):
    doc = note("p14_a", f"{text} DOB 03/14/1950.", ("03/14/1950", "DATE"))
    assert surfaces(Surrogator(seed=2).surrogate(doc)) == ["[**DOB**]"]
    plain = note("p15_a", "BP 120/80, 100% sat, 94 mg. DOB 03/14/1950.", ("03/14/1950", "DATE"))
    assert surfaces(Surrogator(seed=2).surrogate(plain)) != ["[**DOB**]"]


@pytest.mark.parametrize("text, span, want", [
    ("a 92 year old man", "92 year old", "90+ year old"),
    ("a 92-year-old man", "92", "90+ year old"),
    ("age 101, seen", "age 101", "age 90+"),
    ("a ninety-two year old", "ninety-two year old", "ninety-plus year old"),
    ("a 92M with", "92M", "90+ M"),
    ("a seventy-eight year old", "seventy-eight year old", "seventy-eight year old"),   # words for words
    ("a 78M with", "78M", "78M"),
    ("in her 100s with", "100s", "90s"),                   # a decade over 89: the 90s
])
def test_finding_2_ages_in_the_notes_own_phrasing(text, span, want):
    new = Surrogator(seed=3).surrogate(note("p7_a", text, (span, "AGE")))
    assert surfaces(new) == [want]


# --- finding 3: values that fit together -----------------------------------------------------

def test_finding_3_a_city_gets_its_own_state_and_zip():
    doc = note("p8_a", "Lives at 4 Elm St, Wuzhong, TN 37203-1234.", ("4 Elm St", "STREET"),
               ("Wuzhong", "CITY"), ("TN", "STATE"), ("37203-1234", "ZIP"))
    for seed in range(8):
        _, city, state, zipc = surfaces(Surrogator(seed=seed).surrogate(doc))
        zips = {(c, s): z for c, s, z in zipdata.us_places()}[(city, state)]
        assert zipc[:5] in zips and re.fullmatch(r"\d{5}-\d{4}", zipc)


def test_finding_3_a_state_stays_a_state_and_a_hospital_a_hospital():
    doc = note("p9_a", "Moved from California to Quincy Visiting Nurses.", ("California", "STATE"),
               ("Quincy Visiting Nurses", "HOSPITAL"))
    words = gazetteers.load("hospital_words")
    for seed in range(8):
        state, hospital = surfaces(Surrogator(seed=seed).surrogate(doc))
        assert state.lower() in gazetteers.load("states")
        assert hospital.lower() not in gazetteers.load("cities")
        assert any(w.lower().strip(".'s") in words for w in hospital.split())


def test_finding_3_a_womans_first_name_stays_a_womans():
    doc = note("p10_a", "Mrs. Maria Lopez and Ms. Kaveri Rao; Mr. John Hill.", ("Maria Lopez", "PATIENT"),
               ("Kaveri Rao", "PATIENT"), ("John Hill", "PATIENT"))
    female, male = gazetteers.load("first_female"), gazetteers.load("first_male")
    for seed in range(8):
        a, b, c = (x.split()[0].lower() for x in surfaces(Surrogator(seed=seed).surrogate(doc)))
        assert a in female and b in female and c in male


def test_finding_3_emails_and_urls_look_real_on_domains_nobody_owns():
    doc = note("p11_a", "Mail maria.lopez@gmail.com or see https://www.lopezfamily.org/care/plan.",
               ("maria.lopez@gmail.com", "EMAIL"), ("https://www.lopezfamily.org/care/plan", "URL"))
    for seed in range(8):
        email, url = surfaces(Surrogator(seed=seed).surrogate(doc))
        local, _, domain = email.partition("@")
        assert domain in places.SAFE_DOMAINS and re.fullmatch(r"[a-z]+\.[a-z]+", local)
        m = re.fullmatch(r"(https?://)?([a-z.]+)(/[a-z]+/[a-z]+)", url)
        assert m and m.group(2) in places.SAFE_DOMAINS


# --- finding 4: no invented clinical facts ---------------------------------------------------

def test_finding_4_numbers_next_to_scales_units_and_vitals_are_never_changed():
    doc = note("p12_a", "Glasgow Coma Scale 15, BP 120/80, Lasix 40 mg. A 78M seen 3/14/2097.",
               ("15", "MEDICALRECORD"), ("120/80", "DATE"), ("40", "AGE"), ("78M", "IDNUM"),
               ("3/14/2097", "DATE"))
    s = Surrogator(seed=5)
    new = s.surrogate(doc)
    gcs, bp, dose, age, date = surfaces(new)
    assert (gcs, bp, dose) == ("[**MEDICALRECORD**]", "[**DATE**]", "[**AGE**]")
    assert age == "78M" and date != "3/14/2097"
    assert s.counts["clinical_values"] == 3
    rep = check([(doc, new)], {doc.doc_id: s.last_exempt})
    assert rep.ok and rep.run_leaks == 0


def test_finding_4_an_uncertain_span_gets_a_placeholder_not_a_fact():
    # a first name that is no common English word: a doubted one that is (Lee, Walker) gets a placeholder from
    # the confident gate too, whatever min_confidence says (docs/deid.md, "Seventh round")
    text = "Seen by Smith with Omar."
    doc = Document("p13_a", text, [Span(8, 13, "NAME", "DOCTOR", confidence=0.95),
                                   Span(19, 23, "NAME", "DOCTOR", confidence=0.3)])
    new = Surrogator(seed=1).surrogate(doc)
    assert surfaces(new)[1] == "[**DOCTOR**]" and surfaces(new)[0] not in ("Smith", "[**DOCTOR**]")
    assert surfaces(Surrogator(seed=1, min_confidence=None).surrogate(doc))[1] != "[**DOCTOR**]"


# --- property: every pair of dates of a patient keeps its interval -----------------------------

FORMS = ["{m}/{d}/{y}", "{m:02d}-{d:02d}-{y}", "{y}-{m:02d}-{d:02d}", "{mon} {d}, {y}", "{d} {mon} {y}",
         "{abbr}. {d}, {y}", "{wd}, {mon} {d}, {y}", "{m}/{d}/{yy:02d}", "{mon} {dw}, {y}",
         "the {dw} of {mon} {y}", "the {d}th of {mon}, {y}"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.lists(
    st.tuples(st.dates(dt.date(1950, 1, 1), dt.date(2090, 12, 31)), st.sampled_from(FORMS)),
    min_size=1, max_size=4)), min_size=1, max_size=6), st.integers(0, 10 ** 6))
def test_every_pair_of_dates_of_a_patient_keeps_its_interval(notes, seed):
    s = Surrogator(seed=seed)
    docs = []
    for i, (patient, items) in enumerate(notes):
        parts, spans, pos = [], [], 0
        for day, form in items:
            text = form.format(m=day.month, d=day.day, y=day.year, yy=day.year % 100, mon=day.strftime("%B"),
                               abbr=day.strftime("%b"), wd=day.strftime("%A"),
                               dw=dates.DAY_WORDS[day.day - 1])
            parts.append(f"Seen {text}. ")
            spans.append(make_span(pos + 5, pos + 5 + len(text), "DATE"))
            pos += len(parts[-1])
        docs.append(Document(f"n{i}", "".join(parts), spans, {"patient": f"pt{patient}"}))
    moved: dict[str, list] = {}
    for doc in docs:
        new = s.surrogate(propagate(doc))
        for a, b in zip(doc.spans, new.spans):
            (was,), (now,) = dates.full_dates(doc.surface(a)), dates.full_dates(new.surface(b))
            if abs((now - was).days) > 18262:   # a two-digit year read in the other century
                now = now.replace(year=now.year + (100 if now < was else -100))
            moved.setdefault(doc.group, []).append((was, now))
    for pairs in moved.values():
        for w1, n1 in pairs:
            for w2, n2 in pairs:
                assert (n2 - n1) == (w2 - w1)
