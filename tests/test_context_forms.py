"""Identifiers caught by their form and the words beside them (crfdeid/recognizers/contextforms.py,
phones.py): made-up values found, look-alikes of clinical notes left, notes of other countries."""

import pytest

from crfdeid.recognizers import dateforms, phones, safeharbor

FOUND = [
    # postal codes with their address context
    ("Lives at 12 Smith St, Parramatta NSW 2150.", "2150", "ZIP"),
    ("home in bondi, nsw 2026", "2026", "ZIP"),
    ("Address: 4 Kauri Rd, Remuera, Auckland 1050", "1050", "ZIP"),
    ("postcode 0181 (Pretoria)", "0181", "ZIP"),
    ("Boston, MA 02139-4307", "02139-4307", "ZIP"),
    ("lives in Nashville, Tennessee 37203 with son", "37203", "ZIP"),
    ("Flat 2, Andheri West, Mumbai - 400058", "400058", "ZIP"),
    ("resides in Maharashtra 400 001", "400 001", "ZIP"),
    ("PIN 560001", "560001", "ZIP"),
    ("Adresse: Hauptstr. 5, 10115 Berlin", "10115", "ZIP"),
    ("Eircode D02 X285", "D02 X285", "ZIP"),
    ("home at 3 main st, ballina, co mayo, f26 y2k5", "f26 y2k5", "ZIP"),
    ("14 Bellenden Road SE15 4QJ", "SE15 4QJ", "ZIP"),
    ("lives on 14 bellenden road se15 4qj", "se15 4qj", "ZIP"),
    ("pt from Leeds LS6 2QB", "LS6 2QB", "ZIP"),
    ("123 queen st w, toronto on m5h 2n2", "m5h 2n2", "ZIP"),
    # plates
    ("car reg 4kd 229 parked in bay 3", "4kd 229", "VEHICLE"),
    ("Plate: 3RT-519", "3RT-519", "VEHICLE"),
    ("rego is XYZ 12A", "XYZ 12A", "VEHICLE"),
    ("vehicle registration 07-D-12345", "07-D-12345", "VEHICLE"),
    # IP addresses
    ("logged in from 2001:db8::8a2e:370:7334", "2001:db8::8a2e:370:7334", "IPADDR"),
    ("portal from fe80::1ff:fe23:4567:890a today", "fe80::1ff:fe23:4567:890a", "IPADDR"),
    ("device at 192.168.14.7", "192.168.14.7", "IPADDR"),
    ("Telemetry server 129.23.120.197", "129.23.120.197", "IPADDR"),  # "ver " of server: no version
    # numbers by their labels
    ("Rx filled at Walgreens store #05521", "05521", "IDNUM"),
    ("BCBS group 0038814", "0038814", "HEALTHPLAN"),
    ("claim number 8812345", "8812345", "HEALTHPLAN"),
    ("member ID XK4421987", "XK4421987", "HEALTHPLAN"),
    # ages over 89 in prose
    ("her husband was 94 when he died", "94", "AGE"),
    ("mother died at 96 of a stroke", "96", "AGE"),
    ("she turned 101 last week", "101", "AGE"),
    ("celebrated her 95th birthday", "95th", "AGE"),  # the suffix with its value: surrogate "90+ birthday"
    ("father lived to 92.", "92", "AGE"),
    ("aged 92", "92", "AGE"),
    ("a 93-year-old man", "93", "AGE"),
    ("94 y/o female", "94", "AGE"),
    ("age: 101", "101", "AGE"),
    ("Mrs Edna Tovey, 97, from a care home", "97", "AGE"),
    ("Dr Alan Price, 93 years, retired GP", "93", "AGE"),
    # pagers, bleeps, extensions; badges, insurance numbers, record and specimen numbers
    ("Pager 3-4471.", "3-4471", "PHONE"),
    ("bleep 6620 if worse", "6620", "PHONE"),
    ("social worker, ext. 2290", "2290", "PHONE"),
    ("officer's badge 7781.", "7781", "IDNUM"),
    ("insurance QRT 551 208 904.", "QRT 551 208 904", "HEALTHPLAN"),
    ("Mrs Lee, 70, #5528104, widowed", "5528104", "IDNUM"),
    ("Biopsy S24-008812 sent", "S24-008812", "IDNUM"),
    ("plate CA 7KDL-219 on file", "CA 7KDL-219", "VEHICLE"),
    # a Brazilian council's registration with its state, a specialist's registration (LICENSE)
    ("dermatologista, CRM-SC 18.304 e RQE 21.877", "18.304", "LICENSE"),
    ("dermatologista, CRM-SC 18.304 e RQE 21.877", "21.877", "LICENSE"),
    ("enfermeira, COREN/SP 123456", "123456", "LICENSE"),
    ("crm-pr 31.904", "31.904", "LICENSE"),
    # check digits (python-stdnum)
    ("Aadhaar 2345 6789 0124", "2345 6789 0124", "SSN"),
    ("PPS 1234567T", "1234567T", "SSN"),
    ("TFN 123 456 782", "123 456 782", "SSN"),
    ("NHS 943 476 5919", "943 476 5919", "HEALTHPLAN"),
    # national phone numbers in the note's own country (phonenumbers, VALID)
    ("Mob 0412 345 678, lives in Sydney NSW 2000", "0412 345 678", "PHONE"),
    ("Contact +44 20 7946 0958", "+44 20 7946 0958", "PHONE"),
]

# Look-alikes: numbers of clinical notes that no rule may take.
LEFT = [
    "K 4.1, Na 138, WBC 11.2, Hb 9.8", "500 mg bid", "2.5 mg/kg", "power 4/5 in both legs",
    "PEEP 5, TV 450, FiO2 40%", "seen at 12:30:45", "BP 120/80, HR 94", "GCS 15", "ICD I10, E11.9",
    "NDC 0002-3227-30", "pt was 94 on RA", "she was 94% on 2L", "HR was 94 when ambulating",
    "sats 94 when walking", "vehicle accident 2 days ago", "car seat 2", "group A strep", "group 2",
    "claims 2 falls", "claim of 3 weeks", "Dose 1000 units at 0800", "TSH 4500", "plt 150000",
    "INR 2.5 goal 2-3", "L4 5 disc", "ABG 7.39/46/123", "platelets 250, NSW 2 days", "her father was 90kg",
    "husband is 92 kg", "turned 90 degrees", "in bed 2150", "drove her car to clinic", "age 94 days",
    "CD4 350", "room 4012", "MRI 3T scanner", "Lasix 40 IV", "titrated to 1000 mL",
    "12-18 ABG 123/46/7.39/29/1", "On Dec 2065 Augusta Connolly saw",
    "seen March 3rd, 2021 at home", "monitor version 3.8.3.8", "ver. 4.0.4.0", "Respiratory Care 7a-7p",
    "cares 4kd 229",
    "Mr Smith, 45, from", "Mrs Tovey, 90mg", "bed #12", "ext 2", "pager 2 hours", "HR RATE98-100",
    "lot #44",  # a lot number of four characters or more is a DEVICE since lots36 (docs/deid.md)
    "insurance pending 2 days", "CD-20 positive", "HCO3-24", "CAR IS OK 25", "car at the 12345",
    "A65 hemoglobin", "T12 vertebra", "C56 cells",
    "CRM 1 mm (threatened)", "CRM 2 mm from MRF", "CRP 12 mg/L", "CRF 2.5 mg",
]


@pytest.mark.parametrize("text,value,subtype", FOUND)
def test_found(text, value, subtype):
    got = {(text[sp.start:sp.end], sp.subtype) for sp in safeharbor.find(text)}
    assert (value, subtype) in got


@pytest.mark.parametrize("text", LEFT)
def test_look_alikes_left(text):
    # no form of this layer takes them; a whole date there is the date forms' (dates in either order)
    dates = {(sp.start, sp.end) for _, sp in dateforms.matches(text)}
    assert [(text[sp.start:sp.end], sp.subtype) for sp in safeharbor.find(text)
            if (sp.start, sp.end) not in dates] == []


def test_a_year_after_a_day_is_no_postcode():
    # "19, 2088" is no Australian postcode after a suburb: the whole date is one (dates in either order)
    text = "Follow-up\n\nOctober 19, 2088\n"
    assert [(text[sp.start:sp.end], sp.subtype) for sp in safeharbor.find(text)] == [("October 19, 2088", "DATE")]


# Made-up notes of other countries and styles: every identifier found, no clinical number taken.
NOTES = {
    "UK": ("Mrs X, 82, lives at 14 Bellenden Road, London SE15 4QJ. Tel 020 7946 0958. NHS 943 476 5919. "
           "Hb 98, Na 138, K 4.1. Her husband was 94 when he died. BP 132/78, GCS 15.",
           ["SE15 4QJ", "020 7946 0958", "943 476 5919", "94"]),
    "AU": ("pt lives 12 smith st, parramatta nsw 2150, mob 0412 345 678. rego 4kd 229. "
           "wbc 11.2, crp 45, peep 5, fio2 40%. mother turned 95 in may.",
           ["2150", "0412 345 678", "4kd 229", "95"]),
    "IE": ("Lives at 3 Main St, Ballina, Co Mayo, F26 Y2K5. PPS 1234567T. Phone +353 1 234 5678. "
           "Temp 37.2, RR 18, Lasix 40 mg.", ["F26 Y2K5", "1234567T", "+353 1 234 5678"]),
    "IN": ("Address: Flat 2, Andheri West, Mumbai - 400058. Aadhaar 2345 6789 0124. Mobile +91 98765 43210. "
           "Hb 10.2, plt 150000, sugar 180 mg/dl.", ["400058", "2345 6789 0124", "+91 98765 43210"]),
    "CA": ("lives at 123 queen st w, toronto on m5h 2n2; SIN 130 692 544; cell (416) 555-0134. "
           "na 140, k 3.9, tv 450.", ["m5h 2n2", "130 692 544", "(416) 555-0134"]),
    "US": ("Lives in Boston, MA 02139. Rx at Walgreens store #05521, BCBS group 0038814. Logged in from "
           "192.168.14.7. She turned 101 in March. HR 94, SpO2 94% RA, WBC 11.2, NDC 0002-3227-30.",
           ["02139", "05521", "0038814", "192.168.14.7", "101"]),
}


@pytest.mark.parametrize("country", sorted(NOTES))
def test_made_up_notes(country):
    text, values = NOTES[country]
    found = [text[sp.start:sp.end] for sp in safeharbor.find(text)]
    assert all(any(v == f or v in f for f in found) for v in values), (country, values, found)
    # nothing else: each span found is (part of) one of the note's identifiers
    assert all(any(f in v or v in f for v in values) for f in found), (country, found)


@pytest.mark.parametrize("country,expected", [
    ("UK", "GB"), ("AU", "AU"), ("IE", "IE"), ("IN", "IN"), ("CA", "CA"), ("US", "US")])
def test_country_of_the_made_up_notes(country, expected):
    assert safeharbor.country(NOTES[country][0]) == expected


@pytest.mark.parametrize("text,expected", [
    ("Mobile +44 7700 900123", "GB"),
    ("colour of stool normal", "US"),  # one British spelling: a typist's habit
    ("haemoglobin stable, oedema improving, seen by GP", "GB"),
    ("+2 edema, +1 pulses", "US"),  # grades, not country codes
    ("call 617-555-0199", "US"),
])
def test_country_of(text, expected):
    assert safeharbor.country(text) == expected


def test_phone_matcher_leaves_ratios_and_gases():
    """phonenumbers finds 123/46/7.39 VALID for the US: the shape check refuses it."""
    assert phones.matches("ABG 123/46/7.39/29/1, then 7.41/40/90", "US") == []


def test_international_numbers_checked_by_phonenumbers():
    assert phones.possible_international("+44 20 7946 0958")
    assert not phones.possible_international("+44 20 79")


@pytest.mark.parametrize("text, phone", [("son updated by phone (508-555-0172); ok", "508-555-0172"),
                                          ("call (508) 555-0172 today", "(508) 555-0172")])
def test_a_bracket_of_the_phrase_stays_outside_the_phone(text, phone):
    assert [text[sp.start:sp.end] for _, sp in phones.matches(text, "US")] == [phone]
