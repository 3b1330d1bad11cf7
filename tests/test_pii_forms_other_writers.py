"""Cards, IBANs, bank accounts and phones as other people write them (issue 50): the shapes that
Faker's providers of many countries draw, in chat, forms and signatures, in lower case; and the
clinical numbers beside which they must not fire. Every value is made up (Luhn and mod-97 checks
computed here, 555 and drama-range phone numbers, 2001:db8 addresses)."""

import pytest
from stdnum import iban, luhn

from crfdeid.recognizers import safeharbor


def _card(body: str) -> str:
    return body + luhn.calc_check_digit(body)


def _iban(cc: str, bban: str) -> str:
    return cc + iban.calc_check_digits(cc + "00" + bban) + bban


MAESTRO = _card("50201731815")   # twelve digits, Maestro's prefix
DINERS = _card("3013611517223")  # fourteen digits, written 4-6-4
JCB15 = _card("18008131945027")  # fifteen digits, written 4-6-5
GB_IBAN = _iban("GB", "WOIX39150008063608")
SHORT_GB = _iban("GB", "WOIX3915000806360")  # a wrong length for GB, its check right
BR_IBAN = _iban("BR", "07123220249108230578667FV")  # ends in a group of letters

# (text, the identifier in it, its subtype)
FOUND = [
    (f"hey can u put the copay on {MAESTRO} thx", MAESTRO, "ACCOUNT"),
    (f"cc {DINERS[:4]}-{DINERS[4:10]}-{DINERS[10:]}", f"{DINERS[:4]}-{DINERS[4:10]}-{DINERS[10:]}", "ACCOUNT"),
    (f"paid w/ {JCB15[:4]} {JCB15[4:10]} {JCB15[10:]} at the front desk",
     f"{JCB15[:4]} {JCB15[4:10]} {JCB15[10:]}", "ACCOUNT"),
    (f"Kartennummer {_card('06042611188')}", _card("06042611188"), "ACCOUNT"),
    (f"pls wire it to {GB_IBAN.lower()} asap", GB_IBAN.lower(), "ACCOUNT"),
    (f"refund -> {' '.join(GB_IBAN[i:i + 4] for i in range(0, 22, 4)).lower()} asap",
     " ".join(GB_IBAN[i:i + 4] for i in range(0, 22, 4)).lower(), "ACCOUNT"),
    (f"IBAN {SHORT_GB}", SHORT_GB, "ACCOUNT"),
    ("konto 0610 3466 9629 1107 02", "0610 3466 9629 1107 02", "ACCOUNT"),
    ("Rekeningnummer 12954423355126895356570", "12954423355126895356570", "ACCOUNT"),
    ("numero di conto i1253604343736792103155", "i1253604343736792103155", "ACCOUNT"),
    ("Tel.: 001-215-555-0116x41489", "001-215-555-0116x41489", "PHONE"),
    ("whatsapp +0898482716425", "+0898482716425", "PHONE"),
    ("contact number +242 (0) 338 4546", "+242 (0) 338 4546", "PHONE"),
    ("call back 0121 4960334 after lunch", "0121 4960334", "PHONE"),
    ("whatsapp (0115)4960731", "(0115)4960731", "PHONE"),
    ("ring me on 07780210241", "07780210241", "PHONE"),
    ("pls text 08-17 01 76 when ready", "08-17 01 76", "PHONE"),
    ("call back 14 1187-0986 after lunch", "14 1187-0986", "PHONE"),
    ("reach her at 655-7805 or 7211447", "7211447", "PHONE"),
    ("792 825 544 (home)", "792 825 544", "PHONE"),
    ("kind regards,\nward 5 reception\nt: 22 208 19 33", "22 208 19 33", "PHONE"),
    ("tél. 4738198478", "4738198478", "PHONE"),
    ("07 506-1574\n10.50.62.142", "07 506-1574", "PHONE"),
    (f"iban:{BR_IBAN[:4]} {' '.join(BR_IBAN[i:i + 4] for i in range(4, len(BR_IBAN), 4))}".lower(),
     f"{BR_IBAN[:4]} {' '.join(BR_IBAN[i:i + 4] for i in range(4, len(BR_IBAN), 4))}".lower(), "ACCOUNT"),
]
# Clinical numbers, versions, times and codes that stay (none is a person's).
LEFT = [
    "K 4.1, Na 138, WBC 11.2, plt 250000", "T: 37.5 HR 88 RR 18", "call 911 if chest pain", "text 2 pages to the RN",
    "contact precautions for 10 days", "paracetamol 1000 mg q6h, max 4000 mg/day", "version 2.4.1 of the pump",
    "ICD-10 S72.001A, CPT 99214", "EF 45%, sats 96% on 2L", "seen at 14:35, reviewed 09:30", "PEEP 5, FiO2 0.40",
    "INR 2.3 (target 2-3)", "phone call with daughter, 20 min", "ring forceps x 2", "mobile 2 x daily with PT",
    "NDC 0002-3227-30", "vent 600x12 peep 5", "ABG 7.38/42/88", "heparin 25000 units in 500 mL at 12 mL/h",
    "rib fx 10 11 12 on CT", "c/c 2 days of pain", "HR 90-100 in AF", "called 13-09-2073 04.36 by the ward",
    "called 2064-06-04 0032", "seen 28 Oct, 88 0700-1245",
]


@pytest.mark.parametrize(("text", "value", "subtype"), FOUND)
def test_identifier_found(text, value, subtype):
    spans = safeharbor.find(text)
    start = text.index(value)
    inside = {i for sp in spans for i in range(sp.start, sp.end)}
    assert all(i in inside for i in range(start, start + len(value)) if text[i].isalnum()), \
        [(text[sp.start:sp.end], sp.subtype) for sp in spans]
    assert {sp.subtype for sp in spans if sp.start < start + len(value) and start < sp.end} & {subtype, "FAX"}


@pytest.mark.parametrize("text", LEFT)
def test_clinical_numbers_left(text):
    assert [(text[sp.start:sp.end], sp.subtype) for sp in safeharbor.find(text)
            if sp.subtype in ("ACCOUNT", "PHONE", "FAX", "ZIP", "IPADDR")] == []
