"""Issue 50, precision and dates: ventilator settings, vital readings, ``ST`` of a rhythm, the ``p`` of
``s/p`` and misspelt relations kept as written; dates run together, ordinal days, apostrophe years, bare
years and decades found by their form.

Made-up notes of several countries and styles (US, UK, AU, IE, IN, CA, lower case, telegraphic);
every name, number and place here is invented.
"""

from __future__ import annotations

import pytest

from crfdeid.document import make_span
from crfdeid.recognizers import dateforms
from crfdeid.recognizers.clinical import drop_clinical
from crfdeid.recognizers.values import why_value


def _span(text, surface, subtype):
    start = text.index(surface)
    return make_span(start, start + len(surface), subtype)


@pytest.mark.parametrize("text, surface, subtype, reason", [
    # ventilator settings: a mode further back in the clause, a mode or FiO2 after, a percentage third part
    ("PSV increased to 10/5 overnight to rest pt", "10/5", "DATE", "setting"),
    ("SIMV/PS, 40%, 600X4, & 5/10 W SATS UPPER 90'S", "5/10", "DATE", "setting"),
    ("vent changed to CPAP .5% 5/5. anticipate extubation", "5/5", "DATE", "setting"),
    ("extubated from 5/5 IPS/CPAP onto 4L NC", "5/5", "DATE", "setting"),
    ("ABG 7.35/66/55 on 10/5 BIPAP 65%", "10/5", "DATE", "setting"),
    ("currently on 10/5/50%, tolerating well", "10/5/50", "DATE", "setting"),
    ("simv 900 10/25 50% 5p", "10/25", "DATE", "setting"),
    ("continued to wean down to 10/5.", "10/5", "DATE", "setting"),
    ("uk itu: niv ipap/epap, weaned to 12/6 overnight", "12/6", "DATE", "setting"),   # UK, lower case
    # a reading right after its measure's name
    ("RR 12-22 SpO2 89-100% on trach mask", "12-22", "DATE", "vital"),
    ("RR 12-22 Spo2 89-100% on trach mask", "2 89", "DATE", "vital"),
    ("cvp 8-14, pcwp 12-14 on the dobutamine", "12-14", "DATE", "vital"),
    ("IABP 1:1 with systolic unloading 1-13 points", "1-13", "DATE", "vital"),
    ("obs (au): hr 88-96, sats 94-97% on ra", "94-97", "DATE", "vital"),
    # ST of a rhythm or an ECG
    ("CARDIAC- HR 80-103 SR TO ST WITH OCCASIONAL PVC", "ST", "HOSPITAL", "rhythm"),
    ("cardiac: nsr in the 90s to st with rare pvc", "st", "HOSPITAL", "rhythm"),
    ("HR 60s 1st AV block, PAD 22-26", "st AV", "HOSPITAL", "rhythm"),
    ("ecg (in): ST elevations in V2-V4, cath lab aware", "ST elevations", "HOSPITAL", "rhythm"),
    ("CV-1ST DEGREE AVB WITH FREQ VEB", "ST DEGREE AVB", "HOSPITAL", "rhythm"),
    # the p of s/p, a misspelt relation
    ("renal ca, S/P R NEPHRECTOMY, CRI", "P R NEPHRECTOMY", "DOCTOR", "abbreviation"),
    ("pmh: s/p b mastectomy 2010", "p b mastectomy", "PATIENT", "abbreviation"),
    ("LINES: 3-L R groin. Oozing small amt at site", "L R groin", "DOCTOR", "side"),
    ("cannula (uk): L radial art line resited", "L radial", "PATIENT", "side"),
    ("pt had a R IJ TLC placed", "R", "DOCTOR", "side"),
    ("SOCIAL- WIFE AND NEICE IN TO VISIT", "NEICE", "PATIENT", "relation"),
    ("daughter and grandaughter in last night (ie)", "grandaughter", "PATIENT", "relation"),
])
def test_clinical_values_are_kept_as_written(text, surface, subtype, reason):
    sp = _span(text, surface, subtype)
    assert why_value(text, sp) == reason
    assert drop_clinical(text, [sp]) == []


@pytest.mark.parametrize("text, surface, subtype", [
    ("MECH VENT VIA TRACH (PLACED 8/14). AC 100%", "8/14", "DATE"),      # a bare "vent" is no mode
    ("wean from vent and extubate 3/11.", "3/11", "DATE"),
    ("CPAP since 5/5, tolerating", "5/5", "DATE"),                       # a word of a date before it
    ("on bipap, extubated 4/6 in the am", "4/6", "DATE"),
    ("seen in clinic on 5/5, PS stable", "5/5", "DATE"),                 # the mode in another clause
    ("HR review 3/4 with cardiology", "3/4", "DATE"),                    # a slash: no reading
    ("from SR to St Mary's today", "St", "HOSPITAL"),                    # a saint before a name
    ("transferred to St. Agnes", "St", "HOSPITAL"),
    ("FROM NSR TO ST MARYS HOSPITAL", "ST", "HOSPITAL"),
    ("seen 21st with a fall", "st", "DATE"),                             # an ordinal's ending in a date
    ("Mrs Neice called the ward", "Neice", "PATIENT"),                   # after a title: a surname
    ("Neice Jones called", "Neice", "PATIENT"),                          # before a surname
    ("spoke with Brothers at the pharmacy (ca)", "Brothers", "PATIENT"),  # a plural: a surname too
    ("seen by Dr Pearson s/p", "Pearson", "DOCTOR"),
    ("letter from R. Groin, GP (au)", "R. Groin", "DOCTOR"),             # an initial and a name
    ("seen by L Smith on ward 4", "L Smith", "DOCTOR"),
    ("cc: L R Patel", "L R", "DOCTOR"),                                  # initials alone
    ("R RADIAL ALINE, pt frequently found", "R RADIAL ALINE", "PATIENT"),  # Aline is a first name too
])
def test_names_and_dates_stay_phi(text, surface, subtype):
    sp = _span(text, surface, subtype)
    assert why_value(text, sp) is None
    assert drop_clinical(text, [sp]) == [sp]


@pytest.mark.parametrize("text, surface, form", [
    ("HAD TREATMENTS 10/03/10/04 AND DUE FOR XRT", "10/03/10/04", "two_dates"),
    ("xrt (uk) 24/06/25/06 at the cancer centre", "24/06/25/06", "two_dates"),     # day first
    ("one bottle drawn on the 11th. one set peripheral", "11th", "ordinal_day"),
    ("Review booked for the 3rd; seen on the 22nd at clinic", "22nd", "ordinal_day"),
    ("CHOLECYSTECTOMY 77'.  OBESITY.", "77", "apostrophe_year"),
    ("aaa repair in 14' c/b dvt", "14", "apostrophe_year"),
    ("PMH: RENAL CELL CA 1977,S/P R NEPHRECTOMY", "1977", "bare_year"),
    ("born in kerala 1962, moved to toronto", "1962", "bare_year"),
    ("HX OF POSSIBLE MI IN 1980S AFTER OPEN CHOLE", "1980S", "decade"),
    ("smoked since the 1970's", "1970's", "decade"),
    ("nursing progress note | 1->2 nov, 96 | 1900 - 0700", "1->2 nov", "written_day_month"),
    ("on leave (in) 10 to 12 March", "10 to 12 March", "written_day_month"),
])
def test_dates_are_found_by_their_form(text, surface, form):
    start = text.index(surface)
    assert (form, start, start + len(surface)) in [(n, s.start, s.end) for n, s in dateforms.matches(text)]


@pytest.mark.parametrize("text", [
    "INSULIN PER PROTOCOL, ON 24/06/12/18 SCHEDULE.",     # no one order for both pairs; a schedule
    "abg 7.35/45/80/24 on arrival",                     # a run with a dot
    "ventimv/16/10/5",
    "on the 2nd attempt, on the 3rd floor",             # an ordinal of a thing
    "gave 2-3 may need more",                          # "may" the verb after a range
    "mobilised x 30' tolerated well",                   # minutes, degrees, feet
    "HOB 30' at all times",
    "height 5' 6\" weight 70 kg",
    "HR 70's, PA 50's/20's",
    "cvp 12 at 1930, 1945 and 2000",                     # clock times
    "gave 1980 units heparin, out 1965 ml",              # doses and volumes
    "I/O 1975/2000, wt 1966.5 g",
    "detained under Section 3 of the Mental Health Act 1983 (uk)",   # the year of a law
])
def test_look_alikes_are_not_dates(text):
    assert dateforms.matches(text) == []


def test_a_date_of_the_new_forms_is_replaced_in_surrogate_output():
    """Every date the new forms find is replaced in surrogate output (a shifted year, or a placeholder
    where the writer cannot shift the form), never left as written."""
    from crfdeid.deid.surrogate import Surrogator
    from crfdeid.document import Document

    text = "xrt 10/03/10/04; cva 74'; ca 1977; mi in the 1980s; cultures on the 11th."
    spans = [make_span(s.start, s.end, "DATE") for _, s in dateforms.matches(text)]
    assert [text[s.start:s.end] for s in spans] == ["10/03/10/04", "74", "1977", "1980s", "11th"]
    out = Surrogator(seed="made-up").surrogate(Document("n1", text, spans)).text
    for sp in spans:
        assert text[sp.start:sp.end] not in out
    assert out.startswith("xrt ") and out.endswith(".")


@pytest.mark.parametrize("text", ["*Please refer to Careview for additional data", "see careview for gtts (uk ward)"])
def test_a_charting_system_written_careview_is_no_place(text):
    """``CareView`` (a monitoring system's maker's name, and how ICU notes write CareVue) is vocabulary:
    the clinical filter drops it and site mining never learns it."""
    from crfdeid.recognizers.clinical import why_clinical
    from crfdeid.site.mining import strings

    sp = _span(text, "Careview" if "Careview" in text else "careview", "HOSPITAL")
    assert why_clinical(text, sp) == "vocabulary"
    assert strings(text, sp) == []
