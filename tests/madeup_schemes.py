"""The made-up sets' national numbers as rows of tests/test_madeup_check_digits.py (split from it: the rows grow with
each set); the check digits python-stdnum lacks are in tests/madeup_checkers.py."""

from __future__ import annotations

from madeup_checkers import (
    au_provider,
    au_tfn,
    bc_phn,
    cns,
    dk_cpr,
    hkid,
    iin,
    jmbg,
    kvnr,
    medicare,
    nhi,
    npi,
    nric,
    taj,
    tw_id,
    uy_ci,
    uz_pinfl,
)

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

CHECK48 = [
    ("check48", "IDNUM", r"1\d{9}", npi),  # a US NPI
    ("check48", "IDNUM", r"2\d{12}", "md.idno"),  # a Moldovan IDNP: the IDNO's weights 7, 3, 1
    ("check48", "IDNUM", r"\d{3}-\d{7}-\d", "do.cedula"),
    ("check48", "IDNUM", r"\d{7}-\d", "py.ruc"),  # a Paraguayan RUC: the cedula and its check digit
    ("check48", "IDNUM", r"[0-3]\d[01]\d9\d{2}1\d{5}", jmbg),  # a Bosnian JMBG (registers 10-19)
    ("check48", "IDNUM", r"\d{9}", "mz.nuit"),
    ("check48", "IDNUM", r"[A-Z]\d{13}", "mu.nid"),
]

CHECK49 = [
    ("check49", "IDNUM", r"1\d{9}", npi),  # a US NPI (the Jordanian national number starts 2)
    ("check49", "IDNUM", r"[0-3]\d[01]\d9\d{2}2\d{5}", jmbg),  # a Montenegrin JMBG (registers 21-29)
    ("check49", "IDNUM", r"V-\d{8}-\d", "ve.rif"),  # a Venezuelan RIF: the cedula and its check digit
    ("check49", "IDNUM", r"\d{6,8}-[\dK]", "gt.nit"),
    ("check49", "IDNUM", r"\d{7}/[A-Z]/[A-Z]/[A-Z]/\d{3}", "tn.mf"),  # its form only (stdnum checks no key)
]

CHECK50 = [
    ("check50", "IDNUM", r"1\d{9}", npi),  # five US NPIs (the Armenian public services number starts 3)
    ("check50", "IDNUM", r"[0-3]\d[01]\d[09]\d{2}4\d{5}", jmbg),  # North Macedonian EMBGs (registers 41-49)
    ("check50", "IDNUM", r"[3-6]\d{13}", uz_pinfl),  # Uzbek JShShIRs
    ("check50", "IDNUM", r"\d{8}-\d", "co.nit"),  # a Colombian NIT (the cedula beside it has no check digit)
    ("check50", "IDNUM", r"\d{7} [0-2][a-z]\d", "sn.ninea"),  # a practice's NINEA with its COFI, in a lower-case note
    ("check50", "IDNUM", r"\d{8}[A-Z]", "cy.vat"),  # a Cypriot tax identification number
]

CHECK51 = [
    ("check51", "IDNUM", r"1\d{9}", npi),  # five US NPIs (the Azerbaijani VOEN starts 2)
    ("check51", "IDNUM", r"2\d{9}", "az.voen"),  # an Azerbaijani taxpayer number (VOEN), ending in 2
    ("check51", "IDNUM", r"[A-Z]-\d{6}-[A-Z]", "ad.nrt"),  # an Andorran NRT (its form only; stdnum checks no letter)
]

CHECK52 = [
    ("check52", "IDNUM", r"1\d{9}", npi),  # five US NPIs (the Vietnamese tax code starts 0)
    ("check52", "IDNUM", r"0\d{9}", "vn.mst"),  # a Vietnamese hospital's tax code (MST)
    ("check52", "IDNUM", r"\d{6}-\d{4}", "is_.kennitala"),  # an Icelandic kennitala (born in the 1900s)
    ("check52", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),  # a Thai national ID number
    ("check52", "IDNUM", r"\d{15}", "ma.ice"),  # a Moroccan clinic's ICE (mod 97)
]

CHECK53 = [
    ("check53", "IDNUM", r"1\d{9}", npi),  # five US NPIs (the Ukrainian RNOKPP starts 2)
    ("check53", "LICENSE", r"[a-z]{2}\d{7}",  # two US DEA numbers (lower case): odd digits + twice the even
     lambda s: (sum(map(int, s[2:8:2])) + 2 * sum(map(int, s[3:8:2]))) % 10 == int(s[8])),
    ("check53", "IDNUM", r"\d{12}", iin),  # a Kazakh IIN
    ("check53", "IDNUM", r"[0-3]\d[01]\d{8}", "gr.amka"),  # a Greek AMKA (the Peruvian RUC starts 205)
    ("check53", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),  # a Hungarian TAJ number
    ("check53", "IDNUM", r"\d{8}-\d", "pe.cui"),  # two Peruvian DNIs with their check digits
    ("check53", "IDNUM", r"20\d{9}", "pe.ruc"),  # a Peruvian hospital's RUC
    ("check53", "IDNUM", r"\d{6}-\d{3}[0-9A-Y]", "fi.hetu"),  # a Finnish henkilotunnus (born in the 1900s)
    ("check53", "IDNUM", r"\d{7}-\d", "fi.ytunnus"),  # a Finnish clinic's business ID (Y-tunnus)
    ("check53", "IDNUM", r"[2-9]\d{9}", "ua.rntrc"),  # a Ukrainian RNOKPP (its first five digits the birth date)
    ("check53", "IDNUM", r"0\d{7}", "ua.edrpou"),  # a Ukrainian hospital's EDRPOU code
]

CHECK54 = [
    ("check54", "IDNUM", r"1\d{9}", npi),  # six US NPIs (the Latvian company number starts 4)
    ("check54", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),  # Chilean RUTs: a patient, his wife, a hospital
    ("check54", "IDNUM", r"[12]\d{12}", "ro.cnp"),  # a Romanian CNP (the Serbian JMBG starts 0)
    ("check54", "IDNUM", r"\d{7}", "ro.cui"),  # a Romanian hospital's CUI
    ("check54", "IDNUM", r"\d{6}-[1-4]\d{6}", "kr.rrn"),  # a Korean resident registration number
    ("check54", "IDNUM", r"\d{3}-\d{2}-\d{5}", "kr.brn"),  # a Korean hospital's business number (its form only)
    ("check54", "IDNUM", r"[03]\d[01]\d9\d{2}7\d{5}", jmbg),  # a Serbian JMBG (registers 71-79)
    ("check54", "IDNUM", r"1\d{8}", "rs.pib"),  # a Serbian hospital's PIB
    ("check54", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),  # two Pakistani CNICs (province and sex digits)
    ("check54", "IDNUM", r"\d{6}-[0-2]\d{4}", "lv.pvn"),  # a Latvian personas kods
    ("check54", "IDNUM", r"4\d{10}", "lv.pvn"),  # a Latvian hospital's registration number (legal entity)
    ("check54", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),  # a Danish CPR number: the birth date
    ("check54", "IDNUM", r"\d{6}-\d{4}", dk_cpr),  # the mod-11 rule
    ("check54", "IDNUM", r"\d{8}", "dk.cvr"),  # a Danish hospital's CVR number
    ("check54", "IDNUM", r"[JKLM]\d{8}[A-Z]", "al.nipt"),  # an Albanian hospital's NIPT (its form only)
]

#: Every later set's rows in one list (a new set adds its list here, not to the test's imports).
LATER_SETS = [*CHECK32, *CHECK33, *CHECK34, *CHECK35, *CHECK36, *CHECK37, *CHECK38, *CHECK39, *CHECK40, *CHECK41,
              *CHECK42, *CHECK43, *CHECK44, *CHECK45, *CHECK46, *CHECK47, *CHECK48, *CHECK49, *CHECK50,
              *CHECK51, *CHECK52, *CHECK53, *CHECK54, *PLANTED47, *DEV10, *DEV11]
