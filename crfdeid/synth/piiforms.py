"""Made-up general PII sentences: numbers of many countries with their gold spans, and look-alikes.

One sentence a document; its ``group`` is the form it tests (``card``, ``iban``, ``phone``,
``ip``, ``postal``, ``national``) or ``lookalike`` (clinical numbers, no PHI), so that
``python -m crfdeid experiments safeharbor piiforms:400,7 --by-group`` gives each form's
recall and precision. Every value is made up: card numbers and IBANs are random digits given
a valid check by python-stdnum; phone numbers are phonenumbers' example numbers of each
country with their last digits redrawn until the library holds them valid; names of streets
and towns are invented or generic. Deterministic in ``seed``.

>>> docs = sentences(12, seed=3)
>>> len(docs), {d.group for d in docs} == set(KINDS)
(12, True)
>>> all(d.text[sp.start:sp.end].strip() == d.text[sp.start:sp.end] for d in docs for sp in d.spans)
True
"""

from __future__ import annotations

import ipaddress
import random
from collections.abc import Iterator

import phonenumbers
from phonenumbers import PhoneNumberFormat, PhoneNumberType
from stdnum import iban as std_iban
from stdnum import luhn, verhoeff

from ..document import Document, make_span
from ..errors import ReaderError
from ..io import READERS

#: Sentence kinds, in turn (look-alikes twice: two in nine sentences hold no PHI).
KINDS = ("card", "iban", "phone", "ip", "postal", "national", "lookalike", "postal", "lookalike")
_REGIONS = ("US", "GB", "CA", "AU", "NZ", "IE", "IN", "ZA", "FR", "DE", "NL", "ES", "PL", "SE", "PT", "BR", "IT",
            "BE", "CH", "AT", "DK", "NO", "MX", "SG")
# IBAN layouts (ISO 13616 registry) of a few countries: letters (a) and digits (n) of the BBAN.
_IBAN = {"GB": "aaaannnnnnnnnnnnnn", "DE": "nnnnnnnnnnnnnnnnnn", "NL": "aaaannnnnnnnnn", "IE": "aaaannnnnnnnnnnnnn",
         "PL": "nnnnnnnnnnnnnnnnnnnnnnnn", "AT": "nnnnnnnnnnnnnnnn", "CH": "nnnnnnnnnnnnnnnnn", "SE": "n" * 20,
         "DK": "n" * 14, "NO": "n" * 11, "FI": "n" * 14}
_LEADS = ("Her", "The patient's", "His daughter's", "Please note the", "Updated", "On file:")
_STREETS = ("Elm Road", "Mill Lane", "Harbour Street", "Kingfisher Close", "Wattle Avenue", "Station Road")


def _card(rng: random.Random) -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("37", 15), ("34", 15), ("6011", 16)])
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    number = body + luhn.calc_check_digit(body)
    style = rng.randrange(3)
    if style == 0:
        return number
    sep = " " if style == 1 else "-"
    if length == 15:
        return sep.join((number[:4], number[4:10], number[10:]))
    return sep.join(number[i:i + 4] for i in range(0, 16, 4))


def _iban(rng: random.Random) -> str:
    while True:
        cc = rng.choice(sorted(_IBAN))
        bban = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c == "a" else "0123456789") for c in _IBAN[cc])
        number = cc + std_iban.calc_check_digits(cc + "00" + bban) + bban
        if std_iban.is_valid(number):
            return std_iban.format(number) if rng.random() < 0.6 else number


def _phone(rng: random.Random) -> tuple[str, str]:
    """A valid number of a random country and its written form (international or national)."""
    region = rng.choice(_REGIONS)
    kind = rng.choice([PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE])
    base = phonenumbers.example_number_for_type(region, kind) or phonenumbers.example_number(region)
    assert base is not None, region  # every region of _REGIONS has an example number
    national = str(base.national_number)
    for _ in range(50):
        digits = national[:-3] + "".join(rng.choice("0123456789") for _ in range(3))
        number = phonenumbers.parse("+" + str(base.country_code) + digits, None)
        if phonenumbers.is_valid_number(number):
            break
    else:
        number = base
    style = rng.random()
    if style < 0.5 or region == "US":
        fmt = PhoneNumberFormat.INTERNATIONAL
    elif style < 0.7:
        fmt = PhoneNumberFormat.E164
    else:
        fmt = PhoneNumberFormat.NATIONAL
    return region, phonenumbers.format_number(number, fmt)


def _ip(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return str(ipaddress.IPv4Address(rng.randrange(1 << 24, (223 << 24))))
    return str(ipaddress.IPv6Address((0x2001 << 112) | (0xdb8 << 96) | rng.getrandbits(64)))


def _postal(rng: random.Random) -> tuple[str, str, str]:
    """(text before the code, the code, text after it): an address of one of many countries."""
    n = rng.randint(2, 240)
    street = rng.choice(_STREETS)
    d = lambda k: "".join(rng.choice("0123456789") for _ in range(k))  # noqa: E731
    a = lambda s: rng.choice(s)  # noqa: E731
    choices = [
        (f"Lives at {n} {street}, London ", f"{a('NESW')}{a('EW')}{rng.randint(1, 19)} {d(1)}"
         f"{a('ABDEFGHJLNPQRSTUWXYZ')}{a('ABDEFGHJLNPQRSTUWXYZ')}", "."),
        (f"Address: {n} {street}, Toronto, ON ", f"M{d(1)}{a('ABCEGHJKLMNPRSTVWXYZ')} {d(1)}"
         f"{a('ABCEGHJKLMNPRSTVWXYZ')}{d(1)}", "."),
        (f"Home: {n} {street}, Ballina, Co Mayo, ", f"F{d(2)} {a('ACDEFHKNPRTVWXY')}{d(1)}{a('ACDEFHKNPRTVWXY')}{d(1)}",
         "."),
        (f"Lives at {n} {street}, Parramatta NSW ", f"2{d(3)}", " with her son."),
        (f"Address: {n} {street}, Remuera, Auckland ", f"1{d(3)}", "."),
        (f"Resides at {n} {street}, Andheri West, Mumbai - ", f"4000{d(2)}", "."),
        ("Lives in Boston, MA ", f"02{d(3)}", "."),
        (f"Adresse: Hauptstraße {n}, ", f"1{d(4)}", " Berlin."),
        (f"Adresse : {n} rue de la Paix, ", f"750{d(2)}", " Paris."),
        (f"Adres: Kerkstraat {n}, ", f"1{d(3)} {a('ABCDEFGHJKLMNPRTUVWXZ')}{a('ABCDEFGHJKLMNPRTUVWXZ')}",
         " Amsterdam."),
        (f"Adres: ul. Polna {n}, ", f"{d(2)}-{d(3)}", " Wrocław."),
        ("Postcode ", f"{rng.randint(1000, 9999)}", " (Pretoria)."),
        (f"Lives at {n} {street}, Johannesburg, postcode ", f"2{d(3)}", "."),
    ]
    return rng.choice(choices)


def _national(rng: random.Random) -> tuple[str, str]:
    """A national number with its label: an NHS number, an Aadhaar, a SIN (valid checks)."""
    kind = rng.randrange(3)
    if kind == 0:
        while True:
            body = str(rng.randint(400000000, 999999999))
            check = (11 - sum(int(c) * (10 - i) for i, c in enumerate(body)) % 11) % 11
            if check != 10:
                number = body + str(check)
                return "NHS number", f"{number[:3]} {number[3:6]} {number[6:]}"
    if kind == 1:
        body = str(rng.randint(20000000000, 99999999999))
        number = body + verhoeff.calc_check_digit(body)
        return "Aadhaar", f"{number[:4]} {number[4:8]} {number[8:]}"
    body = str(rng.randint(10000000, 79999999))
    number = body + luhn.calc_check_digit(body)
    return "SIN", f"{number[:3]} {number[3:6]} {number[6:]}"


_LOOKALIKES = (
    "K {a}.{b}, Na 13{b}, WBC 1{a}.{b}, Hb {a}.{b}", "{a}00 mg bid, then {a}.5 mg/kg", "power {a}/5 in both legs",
    "PEEP {a}, TV 4{a}0, FiO2 {a}0%", "seen at 1{a}:3{b}:4{a}", "BP 1{a}0/{b}0, HR 9{a}", "GCS 1{a}, ICD I1{b}",
    "NDC 0002-32{a}{b}-30", "INR 2.{a}, plt 1{a}0000, TSH {a}.{b}", "titrated to 1{a}00 mL over 4 h",
    "version {a}.{b}.{a}.{b} of the monitor", "room 4{a}1{b}, bed {a}", "ABG 7.3{a}/4{b}/12{a}",
    "vancomycin day {a}/14 at 0{a}00",  # a whole date is PHI, never a look-alike
    "order 2{a}0{b} units of heparin", "spo2 9{a}% on 2L", "ratio 1:{a}, rate {a}{b} /min", "L{a} 5 disc, T1{b} level",
)


def sentences(n: int, seed: int = 7) -> list[Document]:
    """``n`` made-up sentences, the kinds of :data:`KINDS` in turn, with gold spans."""
    rng = random.Random(seed)
    docs = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        lead = rng.choice(_LEADS)
        spans = []
        if kind == "lookalike":
            text = rng.choice(_LOOKALIKES).format(a=rng.randint(1, 9), b=rng.randint(0, 9))
        else:
            if kind == "card":
                before, value, after, sub = f"{lead} card number is ", _card(rng), ".", "ACCOUNT"
            elif kind == "iban":
                before, value, after, sub = f"{lead} IBAN: ", _iban(rng), ".", "ACCOUNT"
            elif kind == "phone":
                _, value = _phone(rng)
                before, after, sub = f"{lead} phone number is ", ", call after 5pm.", "PHONE"
            elif kind == "ip":
                before, value, after, sub = "The portal was accessed from ", _ip(rng), " yesterday.", "IPADDR"
            elif kind == "postal":
                (before, value, after), sub = _postal(rng), "ZIP"
            else:
                label, value = _national(rng)
                before, after, sub = f"{lead} {label} {'is ' if rng.random() < 0.5 else ''}", ".", (
                    "HEALTHPLAN" if label.startswith("NHS") else "SSN")
            text = before + value + after
            spans = [make_span(len(before), len(before) + len(value), sub)]
        docs.append(Document(f"pii-{i:04d}", text, spans, {"patient": kind}))
    return docs


@READERS.register("piiforms")
def read_piiforms(path: str, report, **options) -> Iterator[Document]:
    """Reader ``piiforms:N[,SEED]``: ``N`` made-up PII sentences (:func:`sentences`)."""
    try:
        parts = [int(p) for p in path.split(",")]
        if not 1 <= len(parts) <= 2 or parts[0] < 1:
            raise ValueError
    except ValueError:
        report(ReaderError(f"piiforms source must be N or N,SEED (integers), got {path!r}", path=path))
        return
    yield from sentences(*parts)
