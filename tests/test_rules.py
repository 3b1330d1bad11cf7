"""High-precision regex rules and their overlay on CRF spans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.document import Span, make_span
from crfdeid.recognizers.rules import extend_names, find, overlay


@pytest.mark.parametrize("text, subtype, surface", [
    ("call (617) 555-0199 now", "PHONE", "(617) 555-0199"),
    ("call 617-555-0199 now", "PHONE", "617-555-0199"),
    ("on 03/14/2098.", "DATE", "03/14/2098"),
    ("on 2098-03-14,", "DATE", "2098-03-14"),
    ("wife (617/555/0123) called", "PHONE", "617/555/0123"),
    ("repair on July 2nd, then", "DATE", "July 2nd"),                     # a month and day (casing11: back)
    ("admitted Sept 30 from", "DATE", "Sept 30"),
    ("mag sulfate x1 nov 23. vbg", "DATE", "nov 23"),
    ("Drs Okafor in", "DOCTOR", "Okafor"),
    ("told mr halvorsen today", "PATIENT", "halvorsen"),                   # a lower-case title (casing11: back)
    (" mr.tamburo came back", "PATIENT", "tamburo"),
    ("seen,dr.okonjo at bedside", "DOCTOR", "okonjo"),
    ("TALKED TO HO LINDQVIST ABOUT", "DOCTOR", "LINDQVIST"),
    ("REVIEWED W/MD BARROWS THE MEDS", "DOCTOR", "BARROWS"),
    ("Progress Note\n14 Nov, 91 0700", "DATE", "14 Nov, 91"),
    ("SURGERY IN MARCH OF 1991 AND", "DATE", "MARCH OF 1991"),
    ("in nov. 2096 he had", "DATE", "nov. 2096"),
    ("PMH: CABG 79, DM", "DATE", "79"),                                  # a year after an event
    ("remote MI in 2090 and", "DATE", "2090"),
    ("ccu note\nmr K was seen", "PATIENT", "K"),                     # a title and an initial
    ("neuro: mrs. lake arrived", "PATIENT", "lake"),
])
def test_rules_find_rigid_forms(text, subtype, surface):
    spans = find(text)
    assert [(s.subtype, text[s.start:s.end]) for s in spans] == [(subtype, surface)]


@pytest.mark.parametrize("text, words", [
    ("stable.\n Dana A. Forman-Lyle, RRT\n", ["Dana", "A", "Forman-Lyle"]),   # signature line
    ("seen.\nMarta Willem RN\n", ["Marta", "Willem"]),
    ("Called to D. Vargo. Vent", ["D", "Vargo"]),                            # initial and name
    ("AS PER B. VARGA: no", ["B", "VARGA"]),
    ("PLAN TO GO TO ST. AGATHA ON", ["ST", "AGATHA"]),                                # a saint's name
    ("moved to St. Agatha's -10AM", ["St", "Agatha's"]),
    ("SEEN AT UNIVERSITY OF VT MEDICAL CENTER", ["UNIVERSITY", "OF", "VT"]),     # a university
    ("WENT TO U OF VT MED CENTER", ["U", "OF", "VT"]),
    ("GIVEN PEPCID-J. WALKER NOW", ["J", "WALKER"]),                       # a surname that is a plain word
    ("went to holy family hospital", ["holy", "family"]),                    # religious hospital names
])
def test_name_rules_add_one_span_per_word(text, words):
    spans = find(text)
    assert [text[s.start:s.end] for s in spans] == words
    assert len({s.subtype for s in spans}) == 1


@pytest.mark.parametrize("text", [
    "you may 2 times", "June 12:30", "Dec 3.5 cm", "call 617-555/0199", "told mr smith",
    "BP 120/80 HR 72", "Na 140 K 4.2 dose 0.5 mg", "ratio 1:2", "version 3.2.1", "temp 98.6",
    "obtain C. DIFF sample", "R. GROIN SITE C&D", "\nP. VIGOROUS PULM TOILET", "SUCTION PRN.\n",
    "TV 250-1000 now", "STV 400-900, RR 8-22", "Dsg D and I. X-ray done",
    "HR 90S ST. REMAINS ON", "dr aware of", "Per HO RLL effusion", "MD AWARE", "husband in to see pt",
    "SOCIAL: WIFE HERE AND UPDATED", "WANTS TO LEAVE HOSPITAL TODAY", "given 2 Per Dr order", "WALKED 40' WITH",
    "FROM THE HOSPITAL", "Juniper St. by",
    "trial on 5/5 this am", "from 10/5 PSV", "running on 1/2 NS", "on 12/5, 40% overnight",
    "SPOKE WITH PRIMARY CARE MD TODAY",
    "NP AWARE.", "Surgical Intern aware", "from outside hospital", "at this hospital", "kept on the 1st step bed",
    "HR IN 80'S, BP in the 80s", "\nnotify covering md\n", "MI 2 days ago", "CABG x3 in 1/2 hour",
])
def test_rules_leave_clinical_numbers_alone(text):
    assert find(text) == []


def test_overlay_joins_overlaps_keeps_crf_subtype_and_adds_new():
    text = "Dr Lee 03/14/2098 tel 617-555-0199"
    crf = [make_span(3, 6, "DOCTOR"), make_span(7, 12, "DATE")]
    out = overlay(text, crf)
    assert (out[0].start, out[0].end, out[0].subtype) == (3, 6, "DOCTOR")
    assert (out[1].start, out[1].end, out[1].subtype) == (7, 17, "DATE")
    assert out[2].subtype == "PHONE"


def test_overlay_never_removes_crf_spans():
    crf = [make_span(0, 3, "PATIENT")]
    assert overlay("Ann is fine", crf) == crf


@pytest.mark.parametrize("text, date, impossible", [
    ("bp 80/60 now", "80/60", True),           # no month 80
    ("PT/PTT 13.1/24.8, INR", "1/24", True),   # decimals on both sides
    ("ABG 11/31/7.41.", "11/31/7", True),      # third part is not a year
    ("co/ci 3/2/1500 after", "3/2/1500", True),
    ("CPAP 5/10/35%", "5/10", True),           # joined to more parts
    ("extubated at 2030 no", "2030", True),    # a clock time
    ("extubated @ 2035.", "2035", True),
    ("pain 0/10", "0/10", True),
    ("c/o chest pain (7/10)cont", "7/10", True),   # a pain score
    ("PT LATER HAD 6/10 CP", "6/10", True),         # ... or before it
    ("reports 10/10 angina now", "10/10", True),
    ("NEB ON 22/06/14/18 PLAN", "22/06/14/18", True),   # four parts
    ("DOSES 11/02/11/05 AND", "11/02/11/05", False),          # ... two dates
    ("having CP 5/10. Was", "5/10", True),
    ("switched to 3/4 str feeds", "3/4", True),     # fractions and grades
    ("on 1/2 NS at 75", "1/2", True),
    ("sleepy. 4/4 strength to LUE", "4/4", True),
    ("BP 148/92 AT REST", "148/92", True),       # three digits
    ("seen 8/10 for", "8/10", False),
    ("plan for 10/3. Pt", "10/3", False),
    ("CABG 7/81-ECHO", "7/81", False),         # month/year
    ("on 2/31/14 pt", "2/31/14", False),
    ("in 2030 he", "2030", False),
    ("CVA 2006 and", "2006", False),
    ("from 9/12-9/13. and", "9/12-9", False),   # a piece of a longer date is kept
    ("from 9/12-9/13. and", "13", False),
])
def test_overlay_drops_dates_that_cannot_be_dates(text, date, impossible):
    start = text.index(date)
    crf = [make_span(start, start + len(date), "DATE")]
    no_rules = {}   # the date check alone: no rule span joins the CRF's (a month/day range)
    assert (overlay(text, crf, no_rules) == []) == impossible
    assert overlay(text, crf, no_rules, date_check=False) == crf
    other = [make_span(start, start + len(date), "PHONE")]   # only DATE spans are checked
    assert overlay(text, other, no_rules) == other


@pytest.mark.parametrize("text, subtype, surface", [
    ("seen by Dr. Okafor today", "DOCTOR", "Okafor"),
    ("DR SMITH AWARE", "DOCTOR", "SMITH"),
    ("Mrs. Reyes called", "PATIENT", "Reyes"),
])
def test_title_rules(text, subtype, surface):
    spans = find(text)
    assert [(s.subtype, text[s.start:s.end]) for s in spans] == [(subtype, surface)]


@pytest.mark.parametrize("text, subtype, surfaces", [
    ("AAA repair, MI 2092. no etoh", "DATE", ["2092"]),                 # a full stop ends the year
    ("CVA 97' and", "DATE", ["97"]),
    ("IN 2093 PT S/P DEBULKING", "DATE", ["2093"]),
    ("a chest ache since 2096 but", "DATE", ["2096"]),
])
def test_rules_added_in_the_fourth_round(text, subtype, surfaces):
    assert [(s.subtype, text[s.start:s.end]) for s in find(text)] == [(subtype, w) for w in surfaces]


@pytest.mark.parametrize("text", ["MI 10.5 mm", "in 2000 cc", "in 2000ml", "since 2000/2100", "at 2030 pt",
                                  "CVA 2.5", "infused in 1950 units", "case manager aware"])
def test_years_and_names_of_the_fourth_round_need_their_context(text):
    assert [s for s in find(text) if s.subtype in ("DATE", "DOCTOR")] == []


@pytest.mark.parametrize("text", ["dr aware", "MS stable", "Dr. 5 mg"])
def test_title_rules_need_a_capitalised_word(text):
    assert find(text) == []


def test_vent_settings_are_not_dates():
    assert find("CPAP/PSV 12/10/40% and PS 10/5/50%") == []


@pytest.mark.parametrize("text, crf_word, added", [
    ("per B Varga PA", "Varga", ["B"]),
    ("to q. vargo rrt", "vargo", ["q"]),
    ("Drs Okafor and Lindqvist in", "Lindqvist", ["Okafor"]),
    ("Dr. Griffin and Halvorsen aware", "Griffin", ["Halvorsen"]),
    ("Lee and Heart team", "Lee", []),        # a common word is not a name
    ("BP. Varga", "Varga", []),           # two letters are not an initial
    ("x2 Varga", "Varga", []),            # nor is a letter glued to a digit
    ("Niece, Patricia WHITFIELD, here", "Patricia", ["WHITFIELD"]),  # a census surname after a name
    ("spoke with Marisol Tamburo RN", "Tamburo", ["Marisol"]),  # a census first name before one
    ("Dr Lee Swan-Ganz placed", "Lee", []),    # not on the surname lists
])
def test_overlay_adds_initials_and_coordinated_names(text, crf_word, added):
    start = text.index(crf_word)
    crf = [make_span(start, start + len(crf_word), "DOCTOR")]
    out = overlay(text, crf)
    assert sorted(text[s.start:s.end] for s in out if s not in crf) == sorted(added)
    assert all(s.subtype == "DOCTOR" for s in out)


def _overlay_reference(text, spans):
    """The obvious quadratic overlay: each rule span absorbs every span it overlaps."""
    merged = sorted(spans)
    for rs in find(text):
        hit = [s for s in merged if s.overlaps(rs)]
        if hit:
            keep = hit[0]
            merged = [s for s in merged if s not in hit]
            rs = Span(min([rs.start] + [s.start for s in hit]), max([rs.end] + [s.end for s in hit]),
                      keep.category, keep.subtype)
        merged = sorted(merged + [rs])
    return merged


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12), st.sampled_from(["DOCTOR", "DATE"])),
                max_size=8))
def test_linear_overlay_equals_the_quadratic_reference(raw):
    text = "on 03/14/2098 call 617-555-0199, 3/4/2001 and 12/12/12 ssn 123-45-6789 end"
    crf = []
    for start, length, sub in sorted(raw):  # CRF spans do not overlap each other
        sp = make_span(start, min(start + length, len(text)), sub)
        if not any(sp.overlaps(o) for o in crf):
            crf.append(sp)
    from crfdeid.recognizers.rules import extend_names
    assert overlay(text, crf, date_check=False) == extend_names(text, _overlay_reference(text, crf))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(1, 6)), max_size=12),
       st.lists(st.tuples(st.integers(0, 50), st.integers(1, 6)), max_size=12))
def test_merge_keeps_base_and_adds_what_overlaps_nothing(a, b):
    from crfdeid.recognizers.rules import merge_disjoint as _merge_disjoint

    def disjoint(raw):
        out = []
        for start, length in sorted(raw):
            sp = make_span(start, start + length, "DATE")
            if not any(sp.overlaps(o) for o in out):
                out.append(sp)
        return out

    base, extra = disjoint(a), disjoint(b)
    expected = list(base)
    for sp in extra:  # the obvious quadratic version
        if not any(sp.overlaps(o) for o in expected):
            expected.append(sp)
    assert _merge_disjoint(base, extra) == sorted(expected)


_WORDS = ["Dr", "dr.", "DOCTOR", "Mr", "mrs", "MISS", "Pager", "BEEPER", "#", "@", "x.org", "www.", "http://",
          "Jan", "may", "SEPT", "14", "2098", "03/14/98", "617-555-0199", "10.0.0.1", "Lee", "ann", "-", ":",
          "Harlow", "Union", "Hosp", "hospital", "Medical", "Center", "CAMPUS", "Memorial", "March", "of", "1993",
          "Pager5555", "R.N.", "RN", "rrt", "PA-C", "HO", "NP", "md", "son", "HUSBAND", "Dtr", "St.", "ST", "Saint",
          "Street", "Ave", "Drive", "19", "University", "U", "UNIVERSITY", "Sepember", "Sept", "JULY", "2nd", "x",
          "B.", "Bob", "marisol", "'95", "\"", "#", "dr5", "hosps",
          "MD", "rn", "AWARE", "Turak", "per", "carol", "kowalski", "irene", "Son", "Ed", '"', "(DAUGHTER)", "NURSE",
          "from", "Holy", "sacred", "CABG", "MI", "in", "79", "1990s", "extubated", "11/6", "K", "Ms",
          "since", "2093.", "number", "CASEWORKER", "contact", "person", "L."]
_RULE_TEXT = st.lists(st.sampled_from(_WORDS + [" ", "  ", "\t", "\n", ".", ","]), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(_RULE_TEXT)
def test_skipped_patterns_need_their_literals(text):
    # A pattern is not run on an ASCII text without its literals: every match holds one.
    from crfdeid.features.surface import NEEDS as PATTERN_NEEDS
    for rx, needs in PATTERN_NEEDS.items():
        if rx.search(text):
            assert any(s in text.lower() for s in needs), rx.pattern


@settings(max_examples=300, deadline=None)
@given(_RULE_TEXT)
def test_rules_find_the_same_with_and_without_the_skipping(text):
    # Running a rule only near its key words changes no span.
    from crfdeid.recognizers.rules import RULES
    assert find(text) == find(text, dict(RULES))  # a rules mapping passed in is never skipped


def test_rules_near_key_words_find_what_a_whole_scan_finds(physionet_docs):
    from crfdeid.recognizers.rules import RULES
    plain = dict(RULES)
    for doc in physionet_docs[::2]:
        assert find(doc.text) == find(doc.text, plain), doc.doc_id


@pytest.mark.parametrize("text", [
    "pager5555 x", "Dr. Lee\nRN", "HO\n Lindqvist", "on March\n14, 2098", "see Sepember 5 ok",
    "Anna Lee, R.N.BSN\n", "husband:\nBob", "b/c son  Bob", "St. Agatha's", "19 Juniper St.", "U of MD",
    "walgreens on main st", "at Oak Dr.\nseen", "from ELM\tROAD", "off maple  blvd.", "to Church St elevation",
    "near Lake Lane\n", "of state rdx", "on mill\nstreet",
    "12 oak street", "40 elm st.\nx", "3 main rd elevation", "5 birch  ave, apt 4b", "7 kent\nroad", "9 ash\tblvd",
])
def test_anchored_rules_edge_cases(text):
    from crfdeid.recognizers.rules import RULES
    assert find(text) == find(text, dict(RULES))


@pytest.mark.parametrize("name, checks", [("date_numeric", r"(?=\d)"), ("date_day_month", r"(?=\d)"),
                                          ("year_after_event", r"(?=\d)")])
def test_leading_checks_of_rules_change_no_match(physionet_docs, name, checks):
    import regex

    from crfdeid.recognizers.rules import RULES
    rx = RULES[name][1]
    assert rx.pattern.startswith(checks)
    plain = regex.compile(rx.pattern[len(checks):], rx.flags)
    texts = [d.text for d in physionet_docs[::4]] + ["on 03/14/2098, 2098-03-14; 1/2/03 x3/4/05, 14 Nov, 91",
                                                     "CABG 79, MI in 2090; extubated 11/6, from 11/15-11/16.",
                                                     "W/MD BARROWS, HO  Lindqvist, NP\tLee"]
    for text in texts:
        assert [m.span() for m in rx.finditer(text)] == [m.span() for m in plain.finditer(text)]


@pytest.mark.parametrize("text, name, parts", [
    ("seen by Zoë Müller-Øster today", "Zoë Müller", ["Øster"]),
    ("seen by Анна Иванова-Петрова today", "Анна Иванова", ["Петрова"]),
    ("seen by Smith-Jones-Lee today", "Lee", ["Smith-Jones"]),
    ("seen by Ann Lee-Smith-Ng, MD", "Ann Lee", ["Smith-Ng"]),
])
def test_hyphen_joined_name_parts_join_the_name_in_any_script(text, name, parts):
    start = text.index(name)
    got = extend_names(text, [make_span(start, start + len(name), "DOCTOR")])
    assert sorted(text[s.start:s.end] for s in got) == sorted([name, *parts])
    assert all(s.subtype == "DOCTOR" for s in got)


@pytest.mark.parametrize("text", ["Ann Lee-ward 7", "Ann Lee- Smith", "Ann Lee-3B", "Ann Lee-Smith2"])
def test_hyphen_extension_needs_a_capitalised_letter_run(text):
    got = extend_names(text, [make_span(0, 7, "DOCTOR")])
    assert [(s.start, s.end) for s in got] == [(0, 7)]


# Issue 26: the three leaks, as general forms (made-up notes); its street (`45 Maple Ridge Road, Suite 210`) is the
# model's since diet47 (tests/test_rule_diet.py).
@pytest.mark.parametrize("text, expected", [
    ("f/u w/ pcp dr o'brien @ mgh", [("o'brien", "DOCTOR"), ("mgh", "HOSPITAL")]),
    ("transferred to BWH, then back to ummc", [("BWH", "HOSPITAL"), ("ummc", "HOSPITAL")]),
    ("admitted to OSH; sent to cath lab; at bath", []),            # outside hospital, words
    ("mail to APT #4B please", [("APT #4B", "STREET")]),
    ("Abdulrahman bin Khalid Al-Qahtani", [("Abdulrahman", "PATIENT"), ("bin", "PATIENT"),
                                          ("Khalid", "PATIENT"), ("Al-Qahtani", "PATIENT")]),
    ("Urine Bin Emptied, bin 2 full", []),                          # not a particle between names
])
def test_leaks_of_issue_26_are_general_rules(text, expected):
    assert [(text[s.start:s.end], s.subtype) for s in find(text)] == expected


@pytest.mark.parametrize("text, name, grown", [
    ("DAUGHTER-MINDY CALLED", "MINDY", ["MINDY"]),                  # no relation word as a name part
    ("Dr. Anna Stone-Lyle", "Anna", ["Anna"]),                      # hyphen parts grow from the span
    ("seen by Sean O'Brien today", "Sean", ["Sean", "O'Brien"]),
    ("Ludwig van Beethoven", "Ludwig", ["Ludwig", "van", "Beethoven"]),
    ("Marisol de la Cruz", "Cruz", ["Marisol", "de la", "Cruz"]),
    ("Salma bint Nasser Al-Harbi", "Salma", ["Salma", "bint", "Nasser", "Al-Harbi"]),
    ("Smith van transport", "Smith", ["Smith"]),                    # a plain word beyond the particle
])
def test_the_name_extension_takes_particles_and_prefixed_surnames(text, name, grown):
    start = text.index(name)
    spans = extend_names(text, [make_span(start, start + len(name), "PATIENT")])
    assert [text[s.start:s.end] for s in spans] == grown
