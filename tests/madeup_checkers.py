"""Check digits of national numbers python-stdnum lacks, for tests/test_madeup_check_digits.py (split from
tests/madeup_schemes.py, which keeps the made-up sets' rows and imports these)."""

from __future__ import annotations

import re

import pytest


def medicare(s: str) -> bool:
    d = s.replace(" ", "")
    return len(d) == 10 and sum(int(a) * w for a, w in zip(d, (1, 3, 7, 9, 1, 3, 7, 9))) % 10 == int(d[8])


def nhi(s: str) -> bool:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    vals = [letters.index(c) + 1 for c in s[:3]] + [int(c) for c in s[3:6]]
    return (11 - sum(v * w for v, w in zip(vals, (7, 6, 5, 4, 3, 2))) % 11) % 11 == int(s[6])


def cns(s: str) -> bool:
    d = re.sub(r"\D", "", s)
    return len(d) == 15 and sum(int(c) * (15 - i) for i, c in enumerate(d)) % 11 == 0


def npi(s: str) -> bool:  # a US NPI: Luhn with the prefix 80840
    digits = [int(c) for c in "80840" + s][::-1]
    return sum(d if i % 2 == 0 else (2 * d - 9 if d > 4 else 2 * d) for i, d in enumerate(digits)) % 10 == 0


def kvnr(s: str) -> bool:  # a German KVNR: the letter as 01-26, then digits weighted 1, 2, digit sums mod 10
    digits = f"{ord(s[0]) - 64:02d}" + s[1:9]
    products = [int(c) * (2 if i % 2 else 1) for i, c in enumerate(digits)]
    return sum(p // 10 + p % 10 for p in products) % 10 == int(s[9])


def nric(s: str) -> bool:
    total = sum(int(a) * w for a, w in zip(s[1:8], (2, 7, 6, 5, 4, 3, 2))) + (4 if s[0] in "TG" else 0)
    return "JZIHGFEDCBA"[total % 11] == s[8]


def uy_ci(s: str) -> bool:  # a Uruguayan cedula de identidad: weights 2987634, check (10 - sum) mod 10
    d = re.sub(r"\D", "", s)
    return (10 - sum(int(a) * w for a, w in zip(d, (2, 9, 8, 7, 6, 3, 4))) % 10) % 10 == int(d[7])


def jmbg(s: str) -> bool:  # a Serbian JMBG: weights 765432765432, check 11 - sum mod 11 (0 when above 9)
    m = 11 - sum(int(a) * w for a, w in zip(s, (7, 6, 5, 4, 3, 2) * 2)) % 11
    return (0 if m > 9 else m) == int(s[12])


def taj(s: str) -> bool:  # a Hungarian TAJ number: weights 3 and 7 in turn, the sum mod 10 is the ninth digit
    d = s.replace(" ", "")
    return sum(int(a) * (3 if i % 2 == 0 else 7) for i, a in enumerate(d[:8])) % 10 == int(d[8])


def iin(s: str) -> bool:  # a Kazakh IIN: weights 1..11 mod 11, a second pass with 3..11, 1, 2 when that gives 10
    check = sum(int(a) * w for a, w in zip(s, range(1, 12))) % 11
    if check == 10:
        check = sum(int(a) * w for a, w in zip(s, (3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2))) % 11
    return check == int(s[11])


def tw_id(s: str) -> bool:  # a Taiwanese national ID: the letter as 10-35, weights 1, 9, 8..1, 1, sum mod 10 is 0
    v = "ABCDEFGHJKLMNPQRSTUVXYWZIO".index(s[0]) + 10
    return (v // 10 + v % 10 * 9 + sum(int(a) * w for a, w in zip(s[1:], (8, 7, 6, 5, 4, 3, 2, 1, 1)))) % 10 == 0


def hkid(s: str) -> bool:  # an HKID with one letter: a space as 36 (weight 9), the letter 10-35 (8), digits 7..2
    total = 36 * 9 + (ord(s[0]) - 55) * 8 + sum(int(a) * w for a, w in zip(s[1:7], (7, 6, 5, 4, 3, 2)))
    return {10: "A", 11: "0"}.get(11 - total % 11, str(11 - total % 11)) == s[8]


def dk_cpr(s: str) -> bool:  # a Danish CPR number of before 2007: weights 4327654321, the sum mod 11 is 0
    return sum(int(a) * w for a, w in zip(s.replace("-", ""), (4, 3, 2, 7, 6, 5, 4, 3, 2, 1))) % 11 == 0


def ir_meli(s: str) -> bool:  # an Iranian national code: weights 10..2, the remainder r mod 11 is r (< 2) or 11 - r
    d = s.replace("-", "")
    r = sum(int(a) * (10 - i) for i, a in enumerate(d[:9])) % 11
    return int(d[9]) == (r if r < 2 else 11 - r)


def kw_civil(s: str) -> bool:  # a Kuwaiti civil ID: weights 2 1 6 3 7 9 10 5 8 4 2, the check 11 - sum mod 11
    return 11 - sum(int(a) * w for a, w in zip(s, (2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2))) % 11 == int(s[11])


def lu_matricule(s: str) -> bool:  # a Luxembourg matricule: a Luhn then a Verhoeff digit, both over the first 11
    luhn, verhoeff = pytest.importorskip("stdnum.luhn"), pytest.importorskip("stdnum.verhoeff")
    return s[11:] == luhn.calc_check_digit(s[:11]) + verhoeff.calc_check_digit(s[:11])


def ru_snils(s: str) -> bool:  # a Russian SNILS: weights 9..1, the sum mod 101 (100 as 00) is the last two digits
    d = re.sub(r"\D", "", s)
    total = sum(int(a) * (9 - i) for i, a in enumerate(d[:9])) % 101
    return int(d[9:]) == (0 if total == 100 else total)


def uz_pinfl(s: str) -> bool:  # an Uzbek JShShIR (PINFL): weights 7, 3, 1 over 13 digits, the sum mod 10 last
    return sum(int(a) * w for a, w in zip(s[:13], (7, 3, 1) * 5)) % 10 == int(s[13])


def sv_dui(s: str) -> bool:  # a Salvadoran DUI: weights 9..2 over 8 digits, the check (10 - sum mod 10) mod 10
    d = s.replace("-", "")
    return (10 - sum(int(a) * w for a, w in zip(d, range(9, 1, -1))) % 10) % 10 == int(d[8])


def bc_phn(s: str) -> bool:  # a British Columbia PHN: 9 then eight digits weighted 2 4 8 5 10 9 7 3 (each mod 11)
    d = s.replace(" ", "")
    check = 11 - sum(int(a) * w % 11 for a, w in zip(d[1:9], (2, 4, 8, 5, 10, 9, 7, 3))) % 11
    return d[0] == "9" and check < 10 and check == int(d[9])


def au_provider(s: str) -> bool:  # an Australian Medicare provider number: stem weights 3 5 8 4 2 1, location 6
    total = sum(int(a) * w for a, w in zip(s[:6], (3, 5, 8, 4, 2, 1))) + int(s[6], 36) * 6
    return "YXWTLKJHFBA"[total % 11] == s[7]


def au_tfn(s: str) -> bool:  # an Australian TFN in any layout (stdnum's compact keeps hyphens): weights mod 11
    d = re.sub(r"\D", "", s)
    return len(d) == 9 and sum(int(a) * w for a, w in zip(d, (1, 4, 3, 7, 5, 8, 6, 9, 10))) % 11 == 0
