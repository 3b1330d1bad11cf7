"""The shipped sets of made-up notes (issue 50): their national numbers carry valid check digits
(split from tests/test_madeup_outputs.py, which reads the sets' marks and counts, by role)."""

from __future__ import annotations

import re

import pytest

from crfdeid.experiments import madeup


def _medicare(s: str) -> bool:
    d = s.replace(" ", "")
    return len(d) == 10 and sum(int(a) * w for a, w in zip(d, (1, 3, 7, 9, 1, 3, 7, 9))) % 10 == int(d[8])


def _nhi(s: str) -> bool:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    vals = [letters.index(c) + 1 for c in s[:3]] + [int(c) for c in s[3:6]]
    return (11 - sum(v * w for v, w in zip(vals, (7, 6, 5, 4, 3, 2))) % 11) % 11 == int(s[6])


def _cns(s: str) -> bool:
    d = re.sub(r"\D", "", s)
    return len(d) == 15 and sum(int(c) * (15 - i) for i, c in enumerate(d)) % 11 == 0


def _npi(s: str) -> bool:  # a US NPI: Luhn with the prefix 80840
    digits = [int(c) for c in "80840" + s][::-1]
    return sum(d if i % 2 == 0 else (2 * d - 9 if d > 4 else 2 * d) for i, d in enumerate(digits)) % 10 == 0


def _kvnr(s: str) -> bool:  # a German KVNR: the letter as 01-26, then digits weighted 1, 2, digit sums mod 10
    digits = f"{ord(s[0]) - 64:02d}" + s[1:9]
    products = [int(c) * (2 if i % 2 else 1) for i, c in enumerate(digits)]
    return sum(p // 10 + p % 10 for p in products) % 10 == int(s[9])


def _nric(s: str) -> bool:
    total = sum(int(a) * w for a, w in zip(s[1:8], (2, 7, 6, 5, 4, 3, 2))) + (4 if s[0] in "TG" else 0)
    return "JZIHGFEDCBA"[total % 11] == s[8]


def _uy_ci(s: str) -> bool:  # a Uruguayan cedula de identidad: weights 2987634, check (10 - sum) mod 10
    d = re.sub(r"\D", "", s)
    return (10 - sum(int(a) * w for a, w in zip(d, (2, 9, 8, 7, 6, 3, 4))) % 10) % 10 == int(d[7])


def _jmbg(s: str) -> bool:  # a Serbian JMBG: weights 765432765432, check 11 - sum mod 11 (0 when above 9)
    m = 11 - sum(int(a) * w for a, w in zip(s, (7, 6, 5, 4, 3, 2) * 2)) % 11
    return (0 if m > 9 else m) == int(s[12])


def _taj(s: str) -> bool:  # a Hungarian TAJ number: weights 3 and 7 in turn, the sum mod 10 is the ninth digit
    d = s.replace(" ", "")
    return sum(int(a) * (3 if i % 2 == 0 else 7) for i, a in enumerate(d[:8])) % 10 == int(d[8])


def _iin(s: str) -> bool:  # a Kazakh IIN: weights 1..11 mod 11, a second pass with 3..11, 1, 2 when that gives 10
    check = sum(int(a) * w for a, w in zip(s, range(1, 12))) % 11
    if check == 10:
        check = sum(int(a) * w for a, w in zip(s, (3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2))) % 11
    return check == int(s[11])


def _tw_id(s: str) -> bool:  # a Taiwanese national ID: the letter as 10-35, weights 1, 9, 8..1, 1, sum mod 10 is 0
    v = "ABCDEFGHJKLMNPQRSTUVXYWZIO".index(s[0]) + 10
    return (v // 10 + v % 10 * 9 + sum(int(a) * w for a, w in zip(s[1:], (8, 7, 6, 5, 4, 3, 2, 1, 1)))) % 10 == 0


def _hkid(s: str) -> bool:  # an HKID with one letter: a space as 36 (weight 9), the letter 10-35 (8), digits 7..2
    total = 36 * 9 + (ord(s[0]) - 55) * 8 + sum(int(a) * w for a, w in zip(s[1:7], (7, 6, 5, 4, 3, 2)))
    return {10: "A", 11: "0"}.get(11 - total % 11, str(11 - total % 11)) == s[8]


#: set, subtype, the shape of a national number, its check: a python-stdnum module (the reference
#: check; stdnum is no dependency of crfdeid, so the test skips without it) or a function here.
CHECKED = [
    ("dev", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check", "HEALTHPLAN", r"8003 \d{4} \d{4} \d{4}", "luhn"),
    ("check", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),
    ("check", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check", "IDNUM", r"[A-Z]{5}\d{4}[A-Z]", "in_.pan"),
    ("check", "IDNUM", r"\d{13}", "za.idnr"),
    ("check", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check2", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check2", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check2", "IDNUM", r"[STFG]\d{7}[A-Z]", _nric),
    ("check2", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check2", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number
    ("check2", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),
    ("check3", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check3", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check3", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check3", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("check3", "IDNUM", r"\d{13}", "za.idnr"),
    ("check3", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check3", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check3", "IDNUM", r"\d{9}", "il.idnr"),
    ("check3", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check3", "IDNUM", r"1\d{9}", _npi),
    ("check4", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check4", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check4", "IDNUM", r"\d{12}", "jp.in_"),
    ("check4", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel"),
    ("check4", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check4", "IDNUM", r"1\d{9}", _npi),
    ("check5", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check5", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check5", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check5", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check5", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check5", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("check5", "IDNUM", r"1\d{9}", _npi),
    ("check6", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check6", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check6", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check6", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check6", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check6", "IDNUM", r"1\d{9}", _npi),
    ("check7", "IDNUM", r"\d{13}", "za.idnr"),
    ("check7", "IDNUM", r"\d{11}", "no.fodselsnummer"),
    ("check7", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check7", "IDNUM", r"1\d{9}", _npi),
    ("check8", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check8", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check8", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check8", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check8", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check8", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check8", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check8", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),
    ("check8", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check8", "IDNUM", r"1\d{9}", _npi),
    ("check9", "IDNUM", r"1\d{9}", _npi),
    ("check9", "IDNUM", r"\d{13}", "za.idnr"),
    ("check9", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check9", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("check9", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check9", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check9", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check9", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check10", "IDNUM", r"1\d{9}", _npi),
    ("check10", "IDNUM", r"\d{12}", "jp.in_"),
    ("check10", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check10", "IDNUM", r"\d{6}/\d{3,4}", "cz.rc"),
    ("check10", "IDNUM", r"\d{6}[-+A]\d{3}[0-9A-Y]", "fi.hetu"),
    ("check10", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check10", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),  # an AMKA: the birth date first
    ("check10", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),
    ("check10", "IDNUM", r"[1-9]\d{9}[02468]", "tr.tckimlik"),  # a T.C. Kimlik No: its last digit is even
    ("check10", "IDNUM", r"\d{9}", "pt.nif"),
    ("check10", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check10", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check10", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check10", "IDNUM", r"\d{13}", "za.idnr"),
    ("check10", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check11", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check11", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check11", "IDNUM", r"\d{13}", "za.idnr"),
    ("check11", "IDNUM", r"\d{11}", "pl.pesel"),
    ("check11", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check11", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check11", "IDNUM", r"784-\d{4}-\d{7}-\d", "luhn"),  # an Emirates ID: Luhn over its 15 digits
    ("check11", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check11", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check11", "IDNUM", r"[STFG]\d{7}[A-Z]", _nric),
    ("check11", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check11", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check11", "IDNUM", r"1\d{9}", _npi),
    ("check11", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check11", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),
    ("check11", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),
    ("check12", "IDNUM", r"\d{4} \d{4} \d{4}", "jp.in_"),  # an Individual Number written 4-4-4
    ("check12", "IDNUM", r"\d{6} \d{5}", "no.fodselsnummer"),
    ("check12", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # a CUIL
    ("check12", "IDNUM", r"[1-9]\d{9}[02468]", "tr.tckimlik"),
    ("check12", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("check12", "IDNUM", r"\d{9}", "il.idnr"),
    ("check12", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check12", "IDNUM", r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn"),  # an AHV number
    ("check12", "HEALTHPLAN", r"80756\d{15}", "luhn"),  # a Swiss insurance card
    ("check12", "IDNUM", r"\d{4} \d{6}", "at.vnr"),
    ("check12", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check12", "IDNUM", r"\d{8} \d [A-Z]{2}\d", "pt.cc"),
    ("check12", "IDNUM", r"\d{3} \d{3} \d{3}", "pt.nif"),
    ("check12", "IDNUM", r"\d{10}[13579]", "ee.ik"),  # an isikukood (this set's ends odd, a T.C. Kimlik No even)
    ("check12", "IDNUM", r"\d{6}[-+A]\d{3}[0-9A-Y]", "fi.hetu"),
    ("check12", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check12", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check12", "IDNUM", r"1\d{9}", _npi),
    ("check13", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check13", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check13", "IDNUM", r"\d{13}", "za.idnr"),
    ("check13", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check13", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check13", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check13", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("check13", "IDNUM", r"\d{4}\.\d{2}\.\d{3}", "nl.bsn"),  # a BSN written with dots
    ("check13", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel"),  # not the NIN (no check)
    ("check13", "IDNUM", r"\d{9}", "il.idnr"),
    ("check13", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check13", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check13", "HEALTHPLAN", r"8003 \d{4} \d{4} \d{4}", "luhn"),  # an IHI
    ("check13", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check13", "SSN", r"\d{3}-\d{2}-\d{4}", "us.ssn"),  # no check digit: the number's valid parts
    ("check13", "IDNUM", r"1\d{9}", _npi),
    ("check14", "IDNUM", r"\d{6}-\d{4}", "is_.kennitala"),
    ("check14", "IDNUM", r"[3-6]\d{10}", "lt.asmens"),  # not the Trinidadian national ID (no check), which starts 19
    ("check14", "IDNUM", r"8\d{10}", "hr.oib"),
    ("check14", "HEALTHPLAN", r"3\d{2} \d{3} \d{4}", "gb.nhs"),  # a Northern Irish H&C number: the NHS number's mod 11
    ("check14", "IDNUM", r"[1-8]\d{12}", "ro.cnp"),
    ("check14", "IDNUM", r"0\d{12}", "si.emso"),  # an EMSO starts with the birth day, a CNP with the sex
    ("check14", "IDNUM", r"\d{8}-\d", "pe.cui"),  # a Peruvian DNI with its check digit
    ("check14", "IDNUM", r"\d{9}-\d", "ec.ci"),  # an Ecuadorian cedula written with a hyphen
    ("check14", "IDNUM", r"\d{17}[\dX]", "cn.ric"),
    ("check14", "IDNUM", r"\d{10}", "bg.egn"),
    ("check14", "IDNUM", r"\d{6}-\d{5}", "lv.pvn"),  # a Latvian personal code
    ("check14", "IDNUM", r"\d{16}", "id.nik"),  # no check digit: the number's valid parts (region, birth date)
    ("check15", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),
    ("check15", "IDNUM", r"1\d{9}", "luhn"),  # a Saudi national ID: Luhn over its 10 digits
    ("check15", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check15", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),
    ("check15", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # a CUIL
    ("check15", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check15", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel"),  # not the NIN (no check)
    ("check15", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check15", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check15", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check15", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check15", "IDNUM", r"\d{12}", "jp.in_"),
    ("check15", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check15", "HEALTHPLAN", r"8003 \d{4} \d{4} \d{4}", "luhn"),  # an IHI
    ("check15", "IDNUM", r"\d{13}", "za.idnr"),
    ("check16", "IDNUM", r"\d\.\d{3}\.\d{3}-\d", _uy_ci),
    ("check16", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", _taj),  # not the HSN (no check), written without spaces
    ("check16", "IDNUM", r"\d{12}", _iin),
    ("check16", "IDNUM", r"[A-Z][12]\d{8}", _tw_id),
    ("check16", "IDNUM", r"[A-Z]\d{6}\([\dA]\)", _hkid),
    ("check16", "IDNUM", r"\d{3}-\d{7}-\d", "do.cedula"),
    ("check16", "IDNUM", r"[1-3]\d{9}", "ua.rntrc"),  # not the Bangladeshi NID (no check), which starts 4 here
    ("check16", "IDNUM", r"\d-\d{4}-\d{4}", "cr.cpf"),
    ("check16", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("check17", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check17", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check17", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel"),  # not the Nigerian NIN (no check)
    ("check17", "IDNUM", r"\d{3} \d{3} \d{3}", "pt.nif"),
    ("check17", "IDNUM", r"\d{8} \d [A-Z]{2}\d", "pt.cc"),  # a Cartao de Cidadao
    ("check17", "IDNUM", r"\d{9}", "il.idnr"),
    ("check17", "IDNUM", r"\d{6}-\d{7}", "kr.rrn"),
    ("check17", "SSN", r"\d{11}", "gr.amka"),
    ("check17", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check17", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check17", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", _cns),
    ("check17", "IDNUM", r"\d{6}-\d{4}", "se.personnummer"),
    ("check17", "IDNUM", r"\d{6}/\d{4}", "sk.rc"),
    ("check17", "IDNUM", r"[12] \d{2} \d{2} \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("check17", "LICENSE", r"10\d{9}", "luhn"),  # a French RPPS number: Luhn over its 11 digits
    ("check17", "IDNUM", r"\d{6} \d{5}", "no.fodselsnummer"),
    ("check18", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check18", "IDNUM", r"\d{6}[-+A]\d{3}[0-8A-Y]", "fi.hetu"),  # not the kennitala, whose century digit is 9 here
    ("check18", "IDNUM", r"\d{6}-\d{3}9", "is_.kennitala"),
    ("check18", "IDNUM", r"[3-6]\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}", "ee.ik"),
    ("check18", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("check18", "IDNUM", r"[1-8]\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{6}", "ro.cnp"),  # not EMSO or JMBG
    ("check18", "IDNUM", r"[029]\d{10}", "hr.oib"),  # the OIBs here start 0, 2 or 9; isikukood and carne do not
    ("check18", "IDNUM", r"\d{7}50\d{4}", "si.emso"),  # register 50: Slovenia
    ("check18", "IDNUM", r"\d{7}7\d{5}", _jmbg),  # registers 71-79: Serbia
    ("check18", "IDNUM", r"[A-Za-z]\d{12}[0-9A-Za-z]", "mu.nid"),
    ("check18", "IDNUM", r"8\d{10}", "cu.ni"),  # no check digit: the birth date and sex digit
    ("check19", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check19", "MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("check19", "IDNUM", r"\d{13}", "za.idnr"),
    ("check19", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("check19", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check19", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check19", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("check19", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check19", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel"),  # not the Nigerian NIN (no check)
    ("check19", "IDNUM", r"\d{12}", "jp.in_"),
    ("check19", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check19", "IDNUM", r"784-\d{4}-\d{7}-\d", "luhn"),  # an Emirates ID: Luhn over its 15 digits
    ("check19", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("check19", "HEALTHPLAN", r"8003 \d{4} \d{4} \d{4}", "luhn"),  # an IHI
    ("check19", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),  # a Belgian NISS
    ("dev2", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("dev2", "HEALTHPLAN", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("dev2", "HEALTHPLAN", r"\d{4} \d{3} \d{3} [A-Z]{2}", "luhn"),
    ("dev3", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("dev3", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("dev3", "HEALTHPLAN", r"[A-HJ-NP-Z]{3}\d{4}", _nhi),
    ("dev3", "IDNUM", r"[STFG]\d{7}[A-Z]", _nric),
    ("dev4", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("dev4", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("dev6", "HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs"),
    ("dev6", "IDNUM", r"\d{8}-\d{4}", "se.personnummer"),
    ("dev6", "IDNUM", r"\d{6}-\d{7}", "kr.rrn"),
    ("dev6", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("dev6", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", _cns),
    ("dev6", "IDNUM", r"1\d{9}", _npi),
    ("dev7", "MEDICALRECORD", r"\d{3} \d{3} \d{4}", "gb.nhs"),
    ("dev7", "MEDICALRECORD", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("dev7", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("dev7", "IDNUM", r"[STFG]\d{7}[A-Z]", _nric),
    ("dev7", "IDNUM", r"\d{9}", "nl.bsn"),
    ("dev7", "IDNUM", r"\d{13}", "za.idnr"),
    ("dev7", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("forms9", "IDNUM", r"\d{9}|\d{4}\.\d{2}\.\d{3}", "nl.bsn"),
    ("forms9", "IDNUM", r"\d{11}", "pl.pesel"),
    ("forms9", "IDNUM", r"\d{8}-?[A-Z]", "es.dni"),
    ("forms9", "IDNUM", r"[XYZ]-?\d{7}-?[A-Z]", "es.nie"),
    ("forms9", "IDNUM", r"[12](?: ?\d{2}){3} ?\d{3} ?\d{3} ?\d{2}", "fr.nir"),
    ("forms9", "IDNUM", r"\d{3} \d{3} \d{3}", "au.tfn"),
    ("forms9", "IDNUM", r"\d{2} \d{3} \d{3} \d{3}", "de.idnr"),
    ("forms9", "IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar"),
    ("forms9", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("forms9", "IDNUM", r"1\d{9}", _npi),
    ("forms9", "HEALTHPLAN", r"\d{3} \d{3} \d{4}", "gb.nhs"),
    ("forms9", "HEALTHPLAN", r"\d{4} \d{5} \d", _medicare),
    ("forms9", "HEALTHPLAN", r"[A-Z]\d{9}", _kvnr),
    ("forms9", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("forms9", "ACCOUNT", r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4})+", "iban"),
    ("forms9", "SSN", r"\d{3}[- ]?\d{2}[- ]?\d{4}", "us.ssn"),  # no check digit: the number's valid parts
]


@pytest.mark.parametrize("name, subtype, shape, check", CHECKED)
def test_national_numbers_have_valid_check_digits(name, subtype, shape, check):
    if isinstance(check, str):
        module = pytest.importorskip(f"stdnum.{check}")
        valid = module.is_valid
        check = (lambda s: valid(re.sub(r"\D", "", s))) if check in ("luhn", "us.ssn") else valid
    found = [d.text[sp.start:sp.end] for d in madeup.read_notes(name) for sp in d.spans
             if sp.subtype == subtype and re.fullmatch(shape, d.text[sp.start:sp.end])]
    assert found and all(check(s) for s in found)
