"""Identifiers caught by their form: checksums and other countries' formats (made-up values)."""

import pytest

from crfdeid.recognizers import fixedforms, safeharbor

# (text, the identifier found in it, its subtype): every value below is made up.
FOUND = [
    ("card 4007070753690781 on file", "4007070753690781", "ACCOUNT"),
    ("paid with 4007 0707 5369 0781.", "4007 0707 5369 0781", "ACCOUNT"),
    ("paid with 4007-0707-5369-0781", "4007-0707-5369-0781", "ACCOUNT"),
    ("amex 3782 822463 10005", "3782 822463 10005", "ACCOUNT"),
    ("IBAN GB56HXDO88167774656119", "GB56HXDO88167774656119", "ACCOUNT"),
    ("refund to NL91 ABNA 0417 1643 00 please", "NL91 ABNA 0417 1643 00", "ACCOUNT"),
    ("SIN 130 692 544", "130 692 544", "SSN"),
    ("sin: 130-692-544", "130-692-544", "SSN"),
    # the label more than 40 characters before the number, within 60 (planted47's layout)
    ("his social insurance number on the old form, 130-692-544, was", "130-692-544", "SSN"),
    ("TFN 123-456-782", "123-456-782", "SSN"),  # hyphens: stdnum's compaction keeps them, the check reads digits
    ("BSN 123456782", "123456782", "SSN"),
    ("personnummer 811228-9874", "811228-9874", "SSN"),
    ("PESEL 44051401359", "44051401359", "SSN"),
    ("DNI 12345678Z", "12345678Z", "SSN"),
    ("NIE X1234567L", "X1234567L", "SSN"),
    ("NIR 1 85 05 78 006 084 91", "1 85 05 78 006 084 91", "SSN"),
    ("NHS no 943 476 5919", "943 476 5919", "PHONE"),  # a US phone number's shape too: PHONE wins
    ("NHS 9434765919", "9434765919", "HEALTHPLAN"),
    ("tel +46 (0)8 928 571 38", "+46 (0)8 928 571 38", "PHONE"),
    ("+33 1 23 45 67 89 (home)", "+33 1 23 45 67 89", "PHONE"),
    ("+44-20-7946-0958", "+44-20-7946-0958", "PHONE"),
    ("fax +49 30 901820", "+49 30 901820", "FAX"),
    ("call 0494 92 82 32", "0494 92 82 32", "PHONE"),
    ("daughter 020 7946 0958", "020 7946 0958", "PHONE"),
    ("mobile 60-56-85-91", "60-56-85-91", "PHONE"),
    ("son: 12.34.56.78", "12.34.56.78", "IPADDR"),  # four pairs joined by full stops: an IPv4 address too
    ("home 01 23 45 67 89", "01 23 45 67 89", "PHONE"),
    ("moved to B0J 2H0 last year", "B0J 2H0", "ZIP"),
    ("ul. Polna 5, 53-320 Wroclaw", "53-320", "ZIP"),
    ("Rua Nova 4, 3610-114 Tarouca", "3610-114", "ZIP"),
    ("Damrak 1, 1012 LG Amsterdam", "1012 LG", "ZIP"),
    ("10 Downing St, London SW1A 2AA", "SW1A 2AA", "ZIP"),
    ("address: 2 Mill Lane, Leeds, LS1 4AP", "LS1 4AP", "ZIP"),
    ("CEP 01310-100", "01310-100", "ZIP"),
    ("car plate 7ABC123 in lot", "7ABC123", "VEHICLE"),
]

# Look-alikes that are no identifier: lab values, dates, device settings, vitals, doses,
# ranges, times, rooms, codes.
NOT_FOUND = [
    "repeat labs 03-11-2021", "seen 03.11.2021", "on 2021-03-11", "IMV 800x60x10 5/5", "PSV 10/5 PEEP 5",
    "SBP goal 120-140", "HR 60-56 overnight", "HR 60-56-85", "K 3.5-5.0", "glucose 120-140 mg/dl",
    "at 10:30", "room 12-34", "ICD E11.65", "ICD-10 I10", "1000 ML", "2000 IU given", "0800 AM",
    "Na 135 140 138 137", "BP 98/60 HR 110", "plt 250,000", "INR 1.2-1.5", "weight 80.5 kg",
    "fentanyl 50-100 mcg", "ABG 7.35/45/80", "GCS 15 15 15", "vent 12 12 12 12", "L4 5TH", "C5-6 disc",
    "12-14 units", "q4-6h", "1-2 tabs", "CK 1234567", "bed 12A", "A1C 6.5", "T2 N0 M0", "plate and screws",
    "LCP plate 3.5 mm", "the 2020-21 season", "53-320 units", "3610-114 mg", "1234 ML", "5 of 10 NS",
    "99213 office visit", "lactate 2.1, 1.8 at 1600", "123456789012", "went home, bp 90-110 hr 60-100",
    "lives with wife; SBP 80-146", "2 Mill Lane, BP 90-110",
]


@pytest.mark.parametrize("text,value,subtype", FOUND)
def test_fixed_forms_found(text, value, subtype):
    spans = safeharbor.apply(text, [])
    start = text.index(value)
    assert [(s.start, s.end, s.subtype) for s in spans] == [(start, start + len(value), subtype)]


@pytest.mark.parametrize("text", NOT_FOUND)
def test_look_alikes_not_found(text):
    assert [name for name, _ in fixedforms.matches(text)] == []


@pytest.mark.parametrize("value", ["4007070753690782", "GB57HXDO88167774656119", "130 692 545", "BSN 123456783",
                                   "811228-9875", "44051401358", "12345678A", "NHS 9434765918",
                                   "TFN 123-456-783"])
def test_a_wrong_check_digit_is_no_identifier(value):
    assert fixedforms.matches(value) == []
