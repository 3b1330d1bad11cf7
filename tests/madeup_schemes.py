"""Check digits of national numbers python-stdnum lacks, for tests/test_madeup_check_digits.py (split from it: the
made-up sets' schemes grow with each set)."""

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


#: check32's national numbers as rows of tests/test_madeup_check_digits.py's CHECKED (set, subtype, shape, check),
#: kept here so that the test file stays short.
CHECK32 = [
    ("check32", "IDNUM", r"\d{6}-[1-4]\d{6}", "kr.rrn"),
    ("check32", "IDNUM", r"\d{11}", "pl.pesel"),
    ("check32", "IDNUM", r"\d\.\d{3}\.\d{3}-\d", uy_ci),
    ("check32", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),  # the set's HETU ends in a letter
    ("check32", "IDNUM", r"[ST]\d{7}[A-Z]", nric),
    ("check32", "IDNUM", r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn"),
    ("check32", "IDNUM", r"[12] \d{2} \d{2} \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("check32", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", nhi),  # a New Zealand NHI
    ("check32", "IDNUM", r"\d{4} \d{6}", "at.vnr"),
    ("check32", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check32", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check32", "IDNUM", r"\d{13}", "si.emso"),
    ("check32", "IDNUM", r"\d{10}", "ua.rntrc"),
    ("check32", "IDNUM", r"\d{8}-\d", "pe.cui"),
    ("check32", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check32", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check32", "IDNUM", r"\d{4} \d{4} \d{4}", "jp.in_"),
    ("check32", "IDNUM", r"\d{6}-\d{3}[A-Y]", "fi.hetu"),
    ("check32", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check32", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", cns),  # a Cartao SUS
]

CHECK33 = [
    ("check33", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("check33", "IDNUM", r"\d{6} \d{5}", "no.fodselsnummer"),
    ("check33", "IDNUM", r"\d{9}", "il.idnr"),
    ("check33", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),  # the other 11 digits start 3-7
    ("check33", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),  # a MyKad: birth date and place, no check digit
    ("check33", "IDNUM", r"[A-Z]\d{6}\(\d\)", hkid),
    ("check33", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check33", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check33", "IDNUM", r"7\d{10}", "hr.oib"),
    ("check33", "IDNUM", r"[1-8]\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{6}", "ro.cnp"),
    ("check33", "IDNUM", r"5\d{10}", "tr.tckimlik"),
    ("check33", "IDNUM", r"\d{6}-\d{4}", dk_cpr),
    ("check33", "IDNUM", r"3\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}", "ee.ik"),
    ("check33", "IDNUM", r"\d{10}", "is_.kennitala"),
    ("check33", "IDNUM", r"4\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}", "lt.asmens"),
    ("check33", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),
    ("check33", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{7}", "za.idnr"),
    ("check33", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
]

CHECK34 = [
    ("check34", "IDNUM", r"\d{8}-\d{4}", "se.personnummer"),
    ("check34", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),
    ("check34", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check34", "IDNUM", r"(?:1\d[45]\d|[89]\d[01]\d)\d{6}", "bg.egn"),  # born in 2000s (month + 40) or the 1980s-90s
    ("check34", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),
    ("check34", "IDNUM", r"\d{8} \d [A-Z0-9]{2}\d", "pt.cc"),
    ("check34", "IDNUM", r"\d{9}", "pt.nif"),
    ("check34", "IDNUM", r"\d{6}/\d{3,4}", "sk.rc"),
    ("check34", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check34", "IDNUM", r"\d{6}[-+A]\d{3}[0-9A-Y]", "fi.hetu"),
    ("check34", "IDNUM", r"\d{17}[\dX]", "cn.ric"),
    ("check34", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # a CUIL
    ("check34", "IDNUM", r"\d{11}", "gr.amka"),
    ("check34", "IDNUM", r"17\d{8}", "ec.ci"),  # a cedula of Pichincha (17); the EGNs start otherwise
    ("check34", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("check34", "IDNUM", r"[A-Z][12]\d{8}", tw_id),
]

CHECK35 = [
    ("check35", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check35", "HEALTHPLAN", r"[A-Z]\d{9}", kvnr),
    ("check35", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check35", "IDNUM", r"[12] \d{2} [01]\d \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("check35", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check35", "IDNUM", r"\d{6}-[1-4]\d{6}", "kr.rrn"),
    ("check35", "IDNUM", r"[0-3]\d[01]\d{8}", "no.fodselsnummer"),  # the PESEL and asmens kodas start otherwise
    ("check35", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check35", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", cns),  # a Cartao SUS
    ("check35", "IDNUM", r"\d{13}", "za.idnr"),
    ("check35", "IDNUM", r"784-\d{4}-\d{7}-\d", "luhn"),  # an Emirates ID
    ("check35", "IDNUM", r"[3-6]\d{2}(?:0[1-9]|1[0-2])\d{6}", "lt.asmens"),
    ("check35", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check35", "IDNUM", r"[4-9]\d(?:0[1-9]|1[0-2])\d{7}", "pl.pesel"),  # born in the 1940s-90s
    ("check35", "IDNUM", r"\d{6}-\d{4}", dk_cpr),
    ("check35", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check35", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check35", "IDNUM", r"\d{8}-\d{4}", "se.personnummer"),
]

CHECK36 = [
    ("check36", "HEALTHPLAN", r"\d{4} \d{6}", "at.vnr"),  # an Austrian SV-Nummer
    ("check36", "IDNUM", r"\d{13}", "si.emso"),
    ("check36", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[A-Z\d]\d", "mx.curp"),
    ("check36", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check36", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check36", "HEALTHPLAN", r"[a-hj-np-z]{3}\d{4}", lambda s: nhi(s.upper())),  # in a lower-case note
    ("check36", "IDNUM", r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn"),
    ("check36", "IDNUM", r"\d{3} \d{3} \d{4}", "gb.nhs"),
    ("check36", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check36", "IDNUM", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check36", "IDNUM", r"\d{10}", npi),
    ("check36", "IDNUM", r"\d{6}[\dA-Z][ABFHJKLTWXY]", au_provider),
    ("check36", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", bc_phn),
    ("check36", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check36", "HEALTHPLAN", r"\d{20}", "luhn"),  # an Italian tessera sanitaria (TEAM card)
    ("check36", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check36", "HEALTHPLAN", r"\d{8}", "luhn"),  # a Japanese insurer number (hokensha bango)
    ("check36", "IDNUM", r"\d{4} \d{4} \d{4}", "jp.in_"),
    ("check36", "IDNUM", r"[4-9]\d{10}", "tr.tckimlik"),  # the AMKA starts with its day
    ("check36", "IDNUM", r"[0-3]\d[01]\d{8}", "gr.amka"),
    ("check36", "IDNUM", r"[A-Z]\d{6}\(\d\)", hkid),
]

CHECK37 = [
    ("check37", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check37", "IDNUM", r"[12] \d{2} [01]\d \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("check37", "IDNUM", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check37", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),  # a Belgian rijksregisternummer
    ("check37", "IDNUM", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check37", "IDNUM", r"\d{9}", "pt.nif"),
    ("check37", "IDNUM", r"\d{6}[-+A]\d{3}[\dA-Y]", "fi.hetu"),
    ("check37", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check37", "IDNUM", r"1\d{9}", npi),
    ("check37", "HEALTHPLAN", r"[A-Z]\d{9}", kvnr),
    ("check37", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check37", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check37", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("check37", "IDNUM", r"\d{11}", "no.fodselsnummer"),
    ("check37", "IDNUM", r"\d{8}-\d", "il.idnr"),  # an Israeli teudat zehut
    ("check37", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # an Argentine CUIL
    ("check37", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
]

CHECK38 = [
    ("check38", "IDNUM", r"\d{11}", "pl.pesel"),
    ("check38", "IDNUM", r"\d{13}", "za.idnr"),
    ("check38", "IDNUM", r"\d{8}-\d{4}", "se.personnummer"),
    ("check38", "HEALTHPLAN", r"[A-HJ-NP-Z]{3}\d{4}", nhi),
    ("check38", "HEALTHPLAN", r"\d{4} \d{3} \d{3}", "luhn"),  # an Ontario health card (OHIP) without its version code
    ("check38", "IDNUM", r"\d\.\d{3}\.\d{3}-\d", uy_ci),
    ("check38", "IDNUM", r"\d{6}-\d{7}", "kr.rrn"),
    ("check38", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check38", "IDNUM", r"\d{4} \d{6}", "at.vnr"),  # an Austrian social insurance number (SVNR)
    ("check38", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check38", "IDNUM", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check38", "IDNUM", r"1\d{9}", npi),
    ("check38", "IDNUM", r"[2-9]\d{9}", "bg.egn"),
    ("check38", "IDNUM", r"\d{17}[\dX]", "cn.ric"),
    ("check38", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
]

CHECK39 = [
    ("check39", "IDNUM", r"\d{3} \d{3} \d{4}", "gb.nhs"),  # an NHS number
    ("check39", "IDNUM", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check39", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check39", "IDNUM", r"\d \d{2} \d{2} \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("check39", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check39", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check39", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check39", "IDNUM", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check39", "IDNUM", r"\d{6}-\d{4}", dk_cpr),
    ("check39", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check39", "HEALTHPLAN", r"9\d{9}", bc_phn),
    ("check39", "IDNUM", r"\d{11}", "no.fodselsnummer"),
    ("check39", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),
]

CHECK40 = [
    ("check40", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),
    ("check40", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{6}", "gb.nhs"),  # a CHI number: DDMMYY first
    ("check40", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),
    ("check40", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check40", "IDNUM", r"\d{6}[-+A]\d{3}[0-9A-Y]", "fi.hetu"),
    ("check40", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check40", "IDNUM", r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn"),
    ("check40", "IDNUM", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check40", "IDNUM", r"1\d{9}", npi),
    ("check40", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check40", "IDNUM", r"\d{13}", "za.idnr"),
    ("check40", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check40", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", nhi),
    ("check40", "IDNUM", r"\d{11}", "pl.pesel"),
]

CHECK41 = [
    ("check41", "IDNUM", r"\d{4}\.\d{2}\.\d{3}", "nl.bsn"),
    ("check41", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check41", "IDNUM", r"\d{3} \d{3} \d{3}", "pt.nif"),
    ("check41", "IDNUM", r"\d{6}-\d{4}", dk_cpr),
    ("check41", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("check41", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check41", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", nhi),
    ("check41", "IDNUM", r"\d{7}[a-w]", "ie.pps"),  # lower case: the note is in lower case
    ("check41", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check41", "IDNUM", r"1\d{9}", npi),
    ("check41", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check41", "HEALTHPLAN", r"[A-Z]\d{9}", kvnr),
    ("check41", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
]

CHECK42 = [
    ("check42", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),  # a Hungarian TAJ number
    ("check42", "IDNUM", r"[1-8]\d{2}(?:0[1-9]|1[0-2])\d{8}", "ro.cnp"),
    ("check42", "IDNUM", r"[4-9]\d{10}", "tr.tckimlik"),
    ("check42", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check42", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", cns),  # a Brazilian CNS (SUS card)
    ("check42", "IDNUM", r"[0-3]\d[01]\d{8}", "gr.amka"),
    ("check42", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check42", "IDNUM", r"\d{4}9\d{8}", "si.emso"),
    ("check42", "IDNUM", r"\d{6} \d{4} \d{3}", "za.idnr"),
    ("check42", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),  # a Northern Irish H&C number
    ("check42", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check42", "IDNUM", r"1\d{9}", npi),
    ("check42", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check42", "MEDICALRECORD", r"[a-hj-np-z]{3}\d{4}", lambda s: nhi(s.upper())),  # in a lower-case note
    ("check42", "IDNUM", r"[ST]\d{7}[A-Z]", nric),
]

CHECK43 = [
    ("check43", "IDNUM", r"[3-6]\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}", "ee.ik"),
    ("check43", "IDNUM", r"\d{6}-\d{5}", "lv.pvn"),  # a Latvian personas kods in a lower-case note
    ("check43", "IDNUM", r"[029]\d{10}", "hr.oib"),  # the MBO (no check) is a HEALTHPLAN of 9 digits
    ("check43", "IDNUM", r"\d{6} \d{5}", "no.fodselsnummer"),
    ("check43", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check43", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check43", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),  # MyKid and MyKad: no check digit, date and birthplace
    ("check43", "IDNUM", r"\d{6}/\d{4}", "sk.rc"),
    ("check43", "HEALTHPLAN", r"\d{4} \d{5} \d", medicare),
    ("check43", "HEALTHPLAN", r"8003 \d{4} \d{4} \d{4}", "luhn"),  # an Australian IHI
    ("check43", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check43", "IDNUM", r"\d{13}", "za.idnr"),
    ("check43", "SSN", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check43", "IDNUM", r"1\d{9}", npi),
    ("check43", "IDNUM", r"[ST]\d{7}[A-Z]", nric),
    ("check43", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check43", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
]

CHECK44 = [
    ("check44", "IDNUM", r"\d{9}", "pt.nif"),  # the SNS number (no check) is a HEALTHPLAN in groups of 3
    ("check44", "IDNUM", r"[5-9]\d{10}", "pl.pesel"),
    ("check44", "IDNUM", r"\d{6}[-+A]\d{3}[0-9A-Y]", "fi.hetu"),
    ("check44", "IDNUM", r"[12]\d{10}", "tr.tckimlik"),
    ("check44", "IDNUM", r"[34]\d{10}", "lt.asmens"),
    ("check44", "IDNUM", r"\d{13}", "za.idnr"),
    ("check44", "SSN", r"\d{3}-\d{2}-\d{4}", "us.ssn"),
    ("check44", "IDNUM", r"1\d{9}", npi),
]

CHECK45 = [
    ("check45", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("check45", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),  # the ZZZS number (no check) is written without spaces
    ("check45", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),
    ("check45", "IDNUM", r"\d{9}", "gr.vat"),  # a Greek AFM
    ("check45", "IDNUM", r"\d{8}[a-z]", "es.dni"),  # in a lower-case Catalan note
    ("check45", "IDNUM", r"\d{7}50\d{4}", "si.emso"),
    ("check45", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),  # the birth date
    ("check45", "IDNUM", r"\d{6}-\d{4}", dk_cpr),  # the mod-11 rule
    ("check45", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check45", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", nhi),
    ("check45", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),  # a MyKad: no check digit, birth date and birthplace
    ("check45", "IDNUM", r"[a-z]\d{6}\([\da]\)", lambda s: hkid(s.upper())),  # an HKID in a lower-case note
]

CHECK46 = [
    ("check46", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check46", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("check46", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),  # the NIN starts 48, no day
    ("check46", "IDNUM", r"[1-8]\d{12}", "ro.cnp"),  # the Egyptian national ID (no check) has 14 digits
    ("check46", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),
    ("check46", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check46", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check46", "IDNUM", r"3\d{10}", "ee.ik"),  # the Nigerian NIN (no check) starts 4
]

CHECK47 = [
    ("check47", "IDNUM", r"160\d{7}", npi),  # a US NPI (the Saudi ID, also ten digits from 1, starts 139)
    ("check47", "IDNUM", r"\d{3} \d{3} \d{3}", "pt.nif"),
    ("check47", "IDNUM", r"8\d{10}", "pl.pesel"),  # born 1986
    ("check47", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "no.fodselsnummer"),
    ("check47", "IDNUM", r"9\d{10}", "tr.tckimlik"),  # the PESEL starts 8, the fodselsnummer 1
    ("check47", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check47", "IDNUM", r"\d{16}", "id.nik"),  # no check digit: the region and birth date (women's day + 40)
    ("check47", "IDNUM", r"139\d{7}", "luhn"),  # a Saudi national ID: Luhn over its ten digits
]

PLANTED47 = [
    ("planted47", "ACCOUNT", r"\d{4} \d{4} \d{4} \d{4}|\d{16}", "luhn"),  # payment card numbers, grouped and not
    ("planted47", "ACCOUNT", r"[a-z]{2}\d{2}(?: [a-z0-9]{1,4})+", "iban"),  # IBANs written in lower case
    ("planted47", "SSN", r"\d{3}[- ]\d{3}[- ]\d{3}", "ca.sin"),
    ("planted47", "HEALTHPLAN", r"\d{3} \d{3} \d{4}", "gb.nhs"),  # one in the 999 range
    ("planted47", "IDNUM", r"\d{9}", "nl.bsn"),
    ("planted47", "IDNUM", r"\d{6}-\d{4}", "se.personnummer"),
    ("planted47", "IDNUM", r"\d{11}", "pl.pesel"),
    ("planted47", "IDNUM", r"[12](?: ?\d{2}){3} ?\d{3} ?\d{3} ?\d{2}", "fr.nir"),  # spaced and unspaced
    ("planted47", "IDNUM", r"[2-9]\d{3} \d{4} \d{4}", "in_.aadhaar"),
    ("planted47", "IDNUM", r"\d{3} \d{3} \d{3}", "au.tfn"),
    ("planted47", "IDNUM", r"\d{3}[- ]\d{3}[- ]\d{3}", au_tfn),  # one written with hyphens
]

DEV10 = [
    ("dev10", "IDNUM", r"[5-9]\d{10}", "tr.tckimlik"),  # the Croatian OIB starts 3, the Estonian isikukood 4
    ("dev10", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),
    ("dev10", "IDNUM", r"\d{6}-\d{5}", "lv.pvn"),  # a Latvian personas kods
    ("dev10", "IDNUM", r"\d{6}/\d{4}", "sk.rc"),
    ("dev10", "IDNUM", r"\d{13}", "si.emso"),
    ("dev10", "IDNUM", r"3\d{10}", "hr.oib"),
    ("dev10", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("dev10", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),  # a MyKid and a MyKad
    ("dev10", "IDNUM", r"\d{6} \d{5}", "no.fodselsnummer"),
    ("dev10", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),  # the ZZZS, MBO and SNS numbers are written unspaced
    ("dev10", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("dev10", "IDNUM", r"\d{9}", "pt.nif"),
    ("dev10", "IDNUM", r"\d{8} \d [A-Z]{2}\d", "pt.cc"),
    ("dev10", "IDNUM", r"4\d{10}", "ee.ik"),
]

DEV11 = [
    ("dev11", "IDNUM", r"1\d{9}", npi),  # three US NPIs
    ("dev11", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("dev11", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("dev11", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel"),
    ("dev11", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("dev11", "IDNUM", r"[1-8]\d{12}", "ro.cnp"),
    ("dev11", "IDNUM", r"\d{9}", "nl.bsn"),
    ("dev11", "HEALTHPLAN", r"[A-Z]\d{9}", kvnr),
    ("dev11", "IDNUM", r"[12] \d{2} [01]\d \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("dev11", "IDNUM", r"\d{16}", "id.nik"),
    ("dev11", "IDNUM", r"\d{6}-\d{4}", "se.personnummer"),
]

#: Every later set's rows in one list (a new set adds its list here, not to the test's imports).
LATER_SETS = [*CHECK32, *CHECK33, *CHECK34, *CHECK35, *CHECK36, *CHECK37, *CHECK38, *CHECK39, *CHECK40, *CHECK41,
              *CHECK42, *CHECK43, *CHECK44, *CHECK45, *CHECK46, *CHECK47,
              *PLANTED47, *DEV10, *DEV11]
