r"""Format-preserving number surrogates: phones, ZIP codes, SSNs, identifiers, IPs, ages.

Digits are redrawn (letters too, keeping their case), separators and length
kept; phones get a real US area code and a valid exchange, ZIP codes a real
5-digit ZIP (both from the table shipped in the package, :mod:`.zipdata`), SSNs
avoid the never-issued ranges.

>>> import random, re
>>> re.sub(r"\d", "9", phone("(617) 555-0123", random.Random(1)))
'(999) 999-9999'
>>> len(identifier("MRN-12A-77", random.Random(2)))
10
>>> age("93", "90+"), age("45 yo", "90+"), age("101-year-old", "90+")
('90+', '45 yo', '90+ year old')
"""

from __future__ import annotations

import random
import re
import string

from . import ages
from .rng import random_like
from .zipdata import load as _zip_data

_RUN = re.compile(r"\d+")
_DIGITS = frozenset(string.digits)


def _put_digits(src: str, digits: str, rng: random.Random) -> str:
    """``digits`` in the places of ``src``'s digits; its letters redrawn, the rest kept."""
    it = iter(digits)
    return random_like("".join(next(it) if c.isdigit() else c for c in src), rng, keep=_DIGITS)


def put_digits(text: str, digits: str) -> str:
    """``text`` with ``digits`` in the places of its digits, in order (as many as it has)."""
    it = iter(digits)
    return "".join(next(it, c) if c.isdecimal() else c for c in text)


def phone(text: str, rng: random.Random) -> str:
    """A US-looking number in the same layout: real area code, exchange 2-9XX, random line."""
    digits = [c for c in text if c.isdigit()]
    n = len(digits)
    new = [rng.choice("0123456789") for _ in range(n)]
    lead = 1 if n == 11 and digits[0] == "1" else 0
    if lead:
        new[0] = "1"
    if n - lead >= 10:
        area = rng.choice(_zip_data()[1])
        new[lead:lead + 3] = list(area)
        new[lead + 3] = rng.choice("23456789")
    elif n == 7:
        new[0] = rng.choice("23456789")
    return _put_digits(text, "".join(new), rng)


def zipcode(text: str, rng: random.Random) -> str:
    """A real 5-digit ZIP (plus random +4 digits when the original has them)."""
    digits = sum(c.isdigit() for c in text)
    if digits not in (5, 9):
        return random_like(text, rng)
    new = rng.choice(_zip_data()[0]) + "".join(rng.choice("0123456789") for _ in range(digits - 5))
    return _put_digits(text, new, rng)


def ssn(text: str, rng: random.Random) -> str:
    """A 9-digit SSN outside the never-issued areas (000, 666, 9xx), group 00, serial 0000."""
    if sum(c.isdigit() for c in text) != 9:
        return identifier(text, rng)
    area = rng.choice([a for a in range(1, 900) if a != 666])
    new = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
    return _put_digits(text, new, rng)


def identifier(text: str, rng: random.Random) -> str:
    """Random digits for digits and letters for letters (same case), separators kept."""
    return random_like(text, rng)


def ipaddr(text: str, rng: random.Random) -> str:
    """Dotted IPv4 octets redrawn in 1-254; other forms (IPv6) redrawn character by character."""
    if re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}", text):
        return ".".join(str(rng.randint(1, 254)) for _ in range(4))
    return random_like(text, rng)


def age(text: str, over_89: str = "90+", bucket: int | None = None) -> str:
    """Ages above 89 become ``over_89`` in the text's own phrasing (:func:`.ages.over_89`);
    others are kept, or bucketed (``40-44``) if asked."""
    if (ages.value(text) or 0) > 89:
        return ages.over_89(text, over_89)
    if not bucket:
        return text

    def one(m):
        low = int(m.group()) - int(m.group()) % bucket
        return f"{low}-{low + bucket - 1}"
    return _RUN.sub(one, text)
