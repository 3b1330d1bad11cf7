"""Surrogates in the shape of the note's country: postcodes, phone numbers and towns.

A US-shaped surrogate in a UK note is a tell an attacker reads (``audit hips``): a UK postcode
gets a UK postcode, a Canadian code a Canadian one, an Eircode an Eircode, a four-digit
postcode four digits, an Indian PIN six; a ``+44`` or ``07...`` number a UK number; a town of a
UK note a UK town. The country of a note is :func:`crfdeid.recognizers.safeharbor.country`
(its ``+`` country codes, its postal codes, its spelling; ``US`` when nothing tells), and a
value's own shape wins over it (a Canadian code in a US note stays Canadian-shaped).

Phone numbers are drawn valid for their country from phonenumbers' metadata, in the ranges
each regulator keeps for drama and examples where there is one (Ofcom: ``07700 900xxx``,
``020 7946 0xxx``...; ACMA: ``04 9157 0xxx``..., ``02 5550 xxxx``), and written in the
original's layout when the digit count agrees. Every draw comes from the caller's keyed
``random.Random``: deterministic under the key.

>>> import random
>>> shape_of("SE15 4QJ"), shape_of("D02 X285"), shape_of("m5h 2n2"), shape_of("2150"), shape_of("02139")
('GB', 'IE', 'CA', '4', '5')
>>> new = postcode("SE15 4QJ", random.Random(3))
>>> shape_of(new), new != "SE15 4QJ"
('GB', True)
"""

from __future__ import annotations

import functools
import random
import re
from importlib import resources

import phonenumbers
from phonenumbers import PhoneNumberFormat, PhoneNumberType

from .rng import apply_case

_UK = re.compile(r"(?i)[A-PR-UWYZ][A-HK-Y]?[0-9][0-9A-HJKMNPR-Y]? ?[0-9][ABD-HJLNP-UW-Z]{2}")
_CA = re.compile(r"(?i)[ABCEGHJ-NPRSTVXY][0-9][ABCEGHJ-NPRSTV-Z][ -]?[0-9][ABCEGHJ-NPRSTV-Z][0-9]")
_EIR = re.compile(r"(?i)(?:[AC-FHKNPRTV-Y][0-9]{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}")
_NL = re.compile(r"(?i)[1-9][0-9]{3} ?[A-Z]{2}")
# Area letters of UK postcodes (Royal Mail), and Eircode routing keys (a sample of each letter).
_UK_AREAS = ("B", "BS", "CF", "CB", "EH", "G", "L", "LS", "M", "N", "NE", "NG", "NW", "OX", "S", "SE", "SO", "SW",
             "E", "W", "BT", "CV", "DE", "LE", "PL", "YO")
_EIR_KEYS = ("A41", "A63", "A92", "D01", "D02", "D04", "D06", "D08", "D12", "D15", "D24", "D6W", "E21", "F12",
             "F26", "H54", "H91", "K32", "N37", "P12", "P31", "R14", "T12", "T23", "V14", "V94", "W23", "X35", "Y14")
_EIR_CHARS = "0123456789ACDEFHKNPRTVWXY"
_UK_IN = "ABDEFGHJLNPQRSTUWXYZ"
_CA_FIRST = "ABCEGHJKLMNPRSTVXY"
_CA_OTHER = "ABCEGHJKLMNPRSTVWXYZ"
#: Numbers kept for drama and examples, by country and kind: (national prefix, free digits).
FICTIONAL = {
    "GB": {"mobile": (("7700900", 3),), "fixed": (("2079460", 3), ("1134960", 3), ("1614960", 3), ("1632960", 3))},
    "AU": {"mobile": (("491570", 3),), "fixed": (("25550", 4), ("37010", 4), ("75550", 4), ("87010", 4))},
}


def shape_of(value: str) -> str:
    """The country a postal code's form is of (``GB``, ``CA``, ``IE``, ``NL``), else its digit
    count (``4``, ``5``, ``6``, ``5-4``: ZIP+4) or ``other``."""
    v = value.strip()
    for rx, cc in ((_CA, "CA"), (_EIR, "IE"), (_UK, "GB"), (_NL, "NL")):
        if rx.fullmatch(v):
            return cc
    if re.fullmatch(r"[0-9]{5}-[0-9]{4}", v):
        return "5-4"
    digits = re.sub(r"[ -]", "", v)
    return str(len(digits)) if digits.isdigit() and 4 <= len(digits) <= 6 else "other"


def postcode(value: str, rng: random.Random, country: str = "US") -> str | None:
    """A postal code of ``value``'s own form (its case and spacing kept); None when it has no
    form of :func:`shape_of` (the caller keeps its shape with random characters)."""
    shape = shape_of(value)
    spaced = " " in value
    if shape == "GB":
        new = f"{rng.choice(_UK_AREAS)}{rng.randint(1, 20)} {rng.randint(0, 9)}{rng.choice(_UK_IN)}{rng.choice(_UK_IN)}"
    elif shape == "CA":
        new = (f"{rng.choice(_CA_FIRST)}{rng.randint(0, 9)}{rng.choice(_CA_OTHER)}{value.strip()[3:-3]}"
               f"{rng.randint(0, 9)}{rng.choice(_CA_OTHER)}{rng.randint(0, 9)}")
        return apply_case(value, new)
    elif shape == "IE":
        new = rng.choice(_EIR_KEYS) + " " + rng.choice("ACDEFHKNPRTVWXY") + "".join(
            rng.choice(_EIR_CHARS) for _ in range(3))
    elif shape == "NL":
        new = f"{rng.randint(1000, 9999)} {rng.choice(_UK_IN)}{rng.choice(_UK_IN)}"
    elif shape in ("4", "6"):
        low = {"4": {"AU": 2000, "NZ": 110, "ZA": 1}, "6": {"IN": 110001}}[shape].get(country, 10 ** (int(shape) - 1))
        number = str(rng.randint(low, 10 ** int(shape) - 1)).zfill(int(shape))
        digits = iter(number)
        return "".join(next(digits) if c.isdigit() else c for c in value)
    else:
        return None
    if not spaced:
        new = new.replace(" ", "")
    return apply_case(value, new) if value.strip().islower() else new


def region_of(value: str, country: str) -> str | None:
    """The country whose numbering a phone number follows: its ``+`` code, else the note's
    country when that is not the US (None: the US shapes of :mod:`.numbers` apply)."""
    digits = "".join(c for c in value if c.isdigit())
    if value.strip().startswith("+"):
        try:
            number = phonenumbers.parse(value, None)
        except phonenumbers.NumberParseException:
            return None
        region = phonenumbers.region_code_for_country_code(number.country_code or 0)
        return None if region in ("US", "ZZ", "001") else region
    if country in ("US", "CA") or not digits:
        return None
    return country


def phone(value: str, region: str, rng: random.Random, fictional: bool = True) -> str:
    """A number valid for ``region`` (in its fictional range where one is kept, and ``fictional``:
    a caller whose original is in that range asks again without), in ``value``'s layout when the
    digit counts agree, else in ``value``'s format (international or national)."""
    international = value.strip().startswith("+")
    mobile = phonenumbers.example_number_for_type(region, PhoneNumberType.MOBILE)
    try:
        parsed = phonenumbers.parse(value, region)
        kind = phonenumbers.number_type(parsed)
        if kind not in (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE):  # a drama range: by its lead
            same = mobile is not None and str(parsed.national_number)[:1] == str(mobile.national_number)[:1]
            kind = PhoneNumberType.MOBILE if same else PhoneNumberType.FIXED_LINE
    except phonenumbers.NumberParseException:
        kind = PhoneNumberType.FIXED_LINE
    example = (phonenumbers.example_number_for_type(region, kind) or phonenumbers.example_number(region)
               or phonenumbers.example_number_for_type(region, PhoneNumberType.MOBILE))
    if example is None:
        return re.sub(r"[0-9]", lambda _: rng.choice("0123456789"), value)
    ranges = FICTIONAL.get(region, {}).get("mobile" if kind == PhoneNumberType.MOBILE else "fixed") if fictional \
        else None
    if ranges:
        prefix, free = rng.choice(ranges)
        number = phonenumbers.parse(f"+{example.country_code}{prefix}" + "".join(
            rng.choice("0123456789") for _ in range(free)), None)
    else:
        national = str(example.national_number)
        number = example
        for _ in range(60):
            candidate = phonenumbers.parse(f"+{example.country_code}{national[:-4]}" + "".join(
                rng.choice("0123456789") for _ in range(4)), None)
            if phonenumbers.is_valid_number(candidate):
                number = candidate
                break
    written = phonenumbers.format_number(
        number, PhoneNumberFormat.INTERNATIONAL if international else PhoneNumberFormat.NATIONAL)
    new_digits = [c for c in written if c.isdigit()]
    if sum(c.isdigit() for c in value) == len(new_digits):
        it = iter(new_digits)
        return "".join(next(it) if c.isdigit() else c for c in value)
    return written


@functools.cache
def towns_by_country() -> dict[str, tuple[str, ...]]:
    """Each country's towns (ISO code -> names) from ``_data/towns_by_country.txt`` (source in its header)."""
    text = resources.files("crfdeid._data").joinpath("towns_by_country.txt").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            cc, name = line.split("\t")
            out.setdefault(cc, []).append(name)
    return {cc: tuple(names) for cc, names in out.items()}


def countries_with_towns() -> frozenset:
    """The countries whose towns are shipped (``crfdeid/_data/towns_by_country.txt``)."""
    return frozenset(towns_by_country())


def town(value: str, country: str, rng: random.Random) -> str:
    """A town of ``country`` (in ``value``'s case) other than ``value``."""
    choices = [t for t in towns_by_country()[country] if t.lower() != value.strip().lower()]
    return apply_case(value, rng.choice(choices))
