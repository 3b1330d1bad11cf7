"""The shipped sets of made-up notes (issue 50): their national numbers carry valid check digits
(split from tests/test_madeup_outputs.py, which reads the sets' marks and counts, by role)."""

from __future__ import annotations

import re

import pytest
from madeup_checkers import (
    cns,
    dk_cpr,
    hkid,
    iin,
    ir_meli,
    jmbg,
    kvnr,
    kw_civil,
    lu_matricule,
    medicare,
    nhi,
    npi,
    nric,
    ru_snils,
    sv_dui,
    taj,
    tw_id,
    uy_ci,
    uz_pinfl,
)
from madeup_schemes import LATER_SETS

from crfdeid.experiments import madeup

#: Schemes written in many sets: (subtype, shape, check).
AU_MEDICARE = ("HEALTHPLAN", r"\d{4} \d{5} \d", medicare)  # an Australian Medicare number
FR_NIR_97 = ("IDNUM", r"[12] \d{2} [01]\d 97 \d{3} \d{3} \d{2}", "fr.nir")  # a NIR of someone born overseas (97)
AU_IHI = ("HEALTHPLAN", r"8003 \d{4} \d{4} \d{4}", "luhn")  # an Australian IHI
IE_PPS = ("IDNUM", r"\d{7}[A-W]", "ie.pps")  # an Irish PPS number
US_NPI = ("IDNUM", r"1\d{9}", npi)  # a US NPI
UK_NHS = ("HEALTHPLAN", r"999 \d{3} \d{4}", "gb.nhs")  # an NHS number of the 999 test range
NZ_NHI = ("MEDICALRECORD", r"[A-HJ-NP-Z]{3}\d{4}", nhi)  # a New Zealand NHI
ZA_ID = ("IDNUM", r"\d{13}", "za.idnr")  # a South African ID number
IN_AADHAAR = ("IDNUM", r"\d{4} \d{4} \d{4}", "in_.aadhaar")  # an Aadhaar number
DE_KVNR = ("HEALTHPLAN", r"[A-Z]\d{9}", kvnr)  # a German KVNR
NL_BSN = ("IDNUM", r"\d{9}", "nl.bsn")  # a Dutch BSN
MX_CURP = ("IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp")  # a Mexican CURP
PL_PESEL = ("IDNUM", r"\d{2}(?:0[1-9]|1[0-2]|2[1-9]|3[0-2])\d{7}", "pl.pesel")  # a Polish PESEL

#: set, subtype, the shape of a national number, its check: a python-stdnum module (the reference
#: check; stdnum is no dependency of crfdeid, so the test skips without it) or a function here.
CHECKED = [
    ("dev", *UK_NHS),
    ("check", *AU_MEDICARE),
    ("check", *AU_IHI),
    ("check", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),
    ("check", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check", *IE_PPS),
    ("check", *IN_AADHAAR),
    ("check", "IDNUM", r"[A-Z]{5}\d{4}[A-Z]", "in_.pan"),
    ("check", *ZA_ID),
    ("check", *NZ_NHI),
    ("check2", *AU_MEDICARE),
    ("check2", *NZ_NHI),
    ("check2", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("check2", *IE_PPS),
    ("check2", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number
    ("check2", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),
    ("check3", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check3", *IE_PPS),
    ("check3", *NZ_NHI),
    ("check3", *DE_KVNR),
    ("check3", *ZA_ID),
    ("check3", *UK_NHS),
    ("check3", *AU_MEDICARE),
    ("check3", "IDNUM", r"\d{9}", "il.idnr"),
    ("check3", *IN_AADHAAR),
    ("check3", *US_NPI),
    ("check4", *NL_BSN),
    ("check4", *MX_CURP),
    ("check4", "IDNUM", r"\d{12}", "jp.in_"),
    ("check4", *PL_PESEL),
    ("check4", *UK_NHS),
    ("check4", *US_NPI),
    ("check5", *IE_PPS),
    ("check5", *UK_NHS),
    ("check5", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check5", *NZ_NHI),
    ("check5", *AU_MEDICARE),
    ("check5", *DE_KVNR),
    ("check5", *US_NPI),
    ("check6", *UK_NHS),
    ("check6", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check6", *AU_MEDICARE),
    ("check6", *IN_AADHAAR),
    ("check6", *NL_BSN),
    ("check6", *US_NPI),
    ("check7", *ZA_ID),
    ("check7", "IDNUM", r"\d{11}", "no.fodselsnummer"),
    ("check7", *NZ_NHI),
    ("check7", *US_NPI),
    ("check8", *UK_NHS),
    ("check8", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check8", *AU_MEDICARE),
    ("check8", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check8", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check8", *IE_PPS),
    ("check8", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check8", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),
    ("check8", *MX_CURP),
    ("check8", *US_NPI),
    ("check9", *US_NPI),
    ("check9", *ZA_ID),
    ("check9", *AU_MEDICARE),
    ("check9", *DE_KVNR),
    ("check9", *NZ_NHI),
    ("check9", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check9", *IE_PPS),
    ("check9", *UK_NHS),
    ("check10", *US_NPI),
    ("check10", "IDNUM", r"\d{12}", "jp.in_"),
    ("check10", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check10", "IDNUM", r"\d{6}/\d{3,4}", "cz.rc"),
    ("check10", "IDNUM", r"\d{6}[-+A]\d{3}[0-9A-Y]", "fi.hetu"),
    ("check10", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check10", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),  # an AMKA: the birth date first
    ("check10", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),
    ("check10", "IDNUM", r"[1-9]\d{9}[02468]", "tr.tckimlik"),  # a T.C. Kimlik No: its last digit is even
    ("check10", "IDNUM", r"\d{9}", "pt.nif"),
    ("check10", *MX_CURP),
    ("check10", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check10", *IE_PPS),
    ("check10", *ZA_ID),
    ("check10", *NZ_NHI),
    ("check11", *NZ_NHI),
    ("check11", *NL_BSN),
    ("check11", *ZA_ID),
    ("check11", "IDNUM", r"\d{11}", "pl.pesel"),
    ("check11", *MX_CURP),
    ("check11", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check11", "IDNUM", r"784-\d{4}-\d{7}-\d", "luhn"),  # an Emirates ID: Luhn over its 15 digits
    ("check11", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check11", *IE_PPS),
    ("check11", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("check11", *IN_AADHAAR),
    ("check11", *AU_MEDICARE),
    ("check11", *US_NPI),
    ("check11", "HEALTHPLAN", r"9\d{3} \d{3} \d{3}", "ca.bc_phn"),
    ("check11", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),
    ("check11", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),
    ("check12", "IDNUM", r"\d{4} \d{4} \d{4}", "jp.in_"),  # an Individual Number written 4-4-4
    ("check12", "IDNUM", r"\d{6} \d{5}", "no.fodselsnummer"),
    ("check12", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # a CUIL
    ("check12", "IDNUM", r"[1-9]\d{9}[02468]", "tr.tckimlik"),
    ("check12", *DE_KVNR),
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
    ("check12", *UK_NHS),
    ("check12", "HEALTHPLAN", r"\d{4}-\d{3}-\d{3}-[A-Z]{2}", "luhn"),  # an Ontario health card (OHIP)
    ("check12", *US_NPI),
    ("check13", *IE_PPS),
    ("check13", *NZ_NHI),
    ("check13", *ZA_ID),
    ("check13", *IN_AADHAAR),
    ("check13", *MX_CURP),
    ("check13", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check13", *DE_KVNR),
    ("check13", "IDNUM", r"\d{4}\.\d{2}\.\d{3}", "nl.bsn"),  # a BSN written with dots
    ("check13", *PL_PESEL),  # not the NIN (no check)
    ("check13", "IDNUM", r"\d{9}", "il.idnr"),
    ("check13", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check13", *AU_MEDICARE),
    ("check13", *AU_IHI),
    ("check13", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check13", "SSN", r"\d{3}-\d{2}-\d{4}", "us.ssn"),  # no check digit: the number's valid parts
    ("check13", *US_NPI),
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
    ("check15", *NZ_NHI),
    ("check15", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),
    ("check15", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # a CUIL
    ("check15", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check15", *PL_PESEL),  # not the NIN (no check)
    ("check15", *NL_BSN),
    ("check15", "IDNUM", r"\d{5}-\d{7}-\d", "pk.cnic"),
    ("check15", *IN_AADHAAR),
    ("check15", *IE_PPS),
    ("check15", "IDNUM", r"\d{12}", "jp.in_"),
    ("check15", *AU_MEDICARE),
    ("check15", *AU_IHI),
    ("check15", *ZA_ID),
    ("check16", "IDNUM", r"\d\.\d{3}\.\d{3}-\d", uy_ci),
    ("check16", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),  # not the HSN (no check), written without spaces
    ("check16", "IDNUM", r"\d{12}", iin),
    ("check16", "IDNUM", r"[A-Z][12]\d{8}", tw_id),
    ("check16", "IDNUM", r"[A-Z]\d{6}\([\dA]\)", hkid),
    ("check16", "IDNUM", r"\d{3}-\d{7}-\d", "do.cedula"),
    ("check16", "IDNUM", r"[1-3]\d{9}", "ua.rntrc"),  # not the Bangladeshi NID (no check), which starts 4 here
    ("check16", "IDNUM", r"\d-\d{4}-\d{4}", "cr.cpf"),
    ("check16", *UK_NHS),
    ("check17", *IE_PPS),
    ("check17", *NZ_NHI),
    ("check17", *PL_PESEL),  # not the Nigerian NIN (no check)
    ("check17", "IDNUM", r"\d{3} \d{3} \d{3}", "pt.nif"),
    ("check17", "IDNUM", r"\d{8} \d [A-Z]{2}\d", "pt.cc"),  # a Cartao de Cidadao
    ("check17", "IDNUM", r"\d{9}", "il.idnr"),
    ("check17", "IDNUM", r"\d{6}-\d{7}", "kr.rrn"),
    ("check17", "SSN", r"\d{11}", "gr.amka"),
    ("check17", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check17", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check17", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", cns),
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
    ("check18", "IDNUM", r"\d{7}7\d{5}", jmbg),  # registers 71-79: Serbia
    ("check18", "IDNUM", r"[A-Za-z]\d{12}[0-9A-Za-z]", "mu.nid"),
    ("check18", "IDNUM", r"8\d{10}", "cu.ni"),  # no check digit: the birth date and sex digit
    ("check19", *IE_PPS),
    ("check19", *NZ_NHI),
    ("check19", *ZA_ID),
    ("check19", *IN_AADHAAR),
    ("check19", *MX_CURP),
    ("check19", "HEALTHPLAN", r"\d{11}", "luhn"),  # a Mexican NSS
    ("check19", *DE_KVNR),
    ("check19", *NL_BSN),
    ("check19", *PL_PESEL),  # not the Nigerian NIN (no check)
    ("check19", "IDNUM", r"\d{12}", "jp.in_"),
    ("check19", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check19", "IDNUM", r"784-\d{4}-\d{7}-\d", "luhn"),  # an Emirates ID: Luhn over its 15 digits
    ("check19", *AU_MEDICARE),
    ("check19", *AU_IHI),
    ("check19", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),  # a Belgian NISS
    ("check20", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("check20", *UK_NHS),
    ("check20", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("check20", "IDNUM", r"\d{6}-\d{2}-\d{4}", "my.nric"),  # a MyKad: no check digit, the date and birthplace
    ("check20", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),
    ("check20", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),  # a CUIL
    ("check20", "IDNUM", r"\d{8}-[0-9A-K]", "pe.cui"),  # a Peruvian DNI with its check digit
    ("check20", "IDNUM", r"[12]\d{10}", "tr.tckimlik"),  # not the asmens kodas, which starts 3 to 6
    ("check20", "HEALTHPLAN", r"\d{4} \d{6}", "at.vnr"),
    ("check20", "IDNUM", r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn"),
    ("check20", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),  # the birth date
    ("check20", "IDNUM", r"\d{6}-\d{4}", dk_cpr),  # the mod-11 rule
    ("check20", "IDNUM", r"[3-6]\d{10}", "lt.asmens"),
    ("check20", "IDNUM", r"\d{6}-\d{5}", "lv.pvn"),  # a Latvian personas kods
    ("check20", *US_NPI),
    ("check20", "SSN", r"\d{3}-\d{2}-\d{4}", "us.ssn"),  # no check digit: the number's valid parts
    ("check21", "IDNUM", r"\d{3}-\d{6}-\d", ir_meli),  # an Iranian national code
    ("check21", "IDNUM", r"[0-3]\d[01]\d[09]\d{8}", jmbg),  # a North Macedonian EMBG (the JMBG rule)
    ("check21", "IDNUM", r"[23]\d{11}", kw_civil),
    ("check21", "IDNUM", r"19\d{11}", lu_matricule),
    ("check21", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),
    ("check21", "IDNUM", r"\d{3}-\d{3}-\d{3} \d{2}", ru_snils),
    ("check21", "MEDICALRECORD", r"\d{3} \d{3} \d{4}", "gb.nhs"),  # NHS and Northern Irish H&C numbers
    ("check21", "IDNUM", r"\d{8}-\d{4}", "se.personnummer"),
    ("check21", "IDNUM", r"\d{6}-\d{4}", "dk.cpr"),  # Greenland's CPR numbers: the birth date
    ("check21", "IDNUM", r"\d{6}-\d{4}", dk_cpr),  # the mod-11 rule
    ("check22", "IDNUM", r"[0-3]\d[01]\d9\d{2}1\d{5}", jmbg),  # a Bosnian JMBG (registers 10-19)
    ("check22", "IDNUM", r"2\d{12}", "md.idno"),  # a Moldovan IDNP: the IDNO's weights 7, 3, 1
    ("check22", "IDNUM", r"[3-6]\d{13}", uz_pinfl),
    ("check23", "IDNUM", r"[0-3]\d[01]\d9\d{2}2\d{5}", jmbg),  # a Montenegrin JMBG (registers 21-29)
    ("check23", "IDNUM", r"\d{7}-\d", "py.ruc"),  # a Paraguayan RUC: the cedula and its check digit
    ("check23", "IDNUM", r"\d{8}-\d", sv_dui),
    ("check23", "IDNUM", r"1\d{2} \d{3} \d{3}", "mz.nuit"),  # a Mozambican NUIT of a person (it starts 1)
    ("check23", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check23", *AU_MEDICARE),
    ("check23", *AU_IHI),
    ("check23", "IDNUM", r"\d{8}[a-z]", "es.dni"),  # a Spanish DNI written in lower case
    ("check24", *AU_MEDICARE),
    ("check24", *AU_IHI),
    ("check24", *IE_PPS),
    ("check24", *NZ_NHI),
    ("check24", *ZA_ID),
    ("check24", *FR_NIR_97),  # born in Reunion
    ("check24", "IDNUM", r"\d{6}-\d{3}[0-9A-Y]", "fi.hetu"),  # an Aland henkilotunnus
    ("check24", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check25", "SSN", r"\d{3} \d{3} \d{3}", "ca.sin"),  # a Canadian SIN (Yukon)
    ("check25", "IDNUM", r"\d{3}-\d{3}-\d{3}", "gn.nifp"),  # a Guinean NIFp
    ("check25", "IDNUM", r"9\d{2}-\d{2}-\d{4}", "us.itin"),  # a US ITIN: no check digit, its valid parts
    ("check25", *US_NPI),
    ("check25", "DEVICE", r"\d{15}", "imei"),  # a telemonitor's IMEI (Luhn)
    ("check25", "IDNUM", r"[0-3]\d \d{2} \d{3} \d{3} \d{3}", "fr.nif"),  # a French tax number (SPI)
    ("check25", *FR_NIR_97),  # born in French Guiana
    ("check26", *NL_BSN),  # a Dutch tourist and his wife in Curacao
    ("check26", "IDNUM", r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),  # Rimini, H294
    ("check26", *FR_NIR_97),  # born in Martinique
    ("check26", *NZ_NHI),  # Cook Islanders referred to Auckland
    ("check27", "IDNUM", r"\d{6}-\d{4}", "is_.kennitala"),  # a baby and her parents (century digits 0 and 9)
    ("check27", "IDNUM", r"[3-6]\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}", "ee.ik"),
    ("check27", "IDNUM", r"\d{7,8}-[\dKk]", "cl.rut"),  # RUTs written without dots, as on a run sheet
    ("check27", "IDNUM", r"\d\.\d{3}\.\d{3}-\d", uy_ci),
    ("check27", "IDNUM", r"19\d{11}", lu_matricule),
    ("check27", "IDNUM", r"\d{7}50\d{4}", "si.emso"),  # register 50: Slovenia
    ("check28", "IDNUM", r"[1256]\d{12}", "ro.cnp"),  # Cluj, county 12
    ("check28", "IDNUM", r"[3-9]\d{9}", "bg.egn"),  # born 1930-1999 (an RNOKPP of the 1970s starts 2, an NPI 1)
    ("check28", "IDNUM", r"\d{9}-\d", "ec.ci"),  # a cedula written with its check digit apart, as charts print it
    ("check28", "IDNUM", r"[4-9]\d{10}", "hr.oib"),  # not an AMKA, which starts with a day of the month
    ("check28", "IDNUM", r"[A-Za-z]\d{12}[0-9A-Za-z]", "mu.nid"),  # written in lower case on a lower-case chart
    ("check28", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "gr.amka"),
    ("check28", "IDNUM", r"2\d{9}", "ua.rntrc"),
    ("check28", "IDNUM", r"\d-\d{4}-\d{4}", "cr.cpf"),  # a Costa Rican cedula: no check digit, its valid parts
    ("check28", *US_NPI),
    ("check29", "IDNUM", r"[89]\d{10}", "tr.tckimlik"),  # the set's other 11-digit numbers start 1-7
    ("check29", "IDNUM", r"\d{6}-[1-4]\d{6}", "kr.rrn"),
    ("check29", "IDNUM", r"\d{6}/\d{4}", "cz.rc"),
    ("check29", "IDNUM", r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin"),
    ("check29", "IDNUM", r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn"),
    ("check29", "IDNUM", r"\d{9}", "il.idnr"),
    ("check29", "IDNUM", r"\d{6}-\d{3}[A-Y]", "fi.hetu"),  # a HETU with a letter check character
    ("check29", "IDNUM", r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", "mx.curp"),
    ("check29", "HEALTHPLAN", r"\d{4} \d{2} \d{4} \d", "luhn"),  # a Mexican NSS
    ("check29", "IDNUM", r"\d{6}-\d{3}[1-8]", "dk.cpr"),  # a kennitala ends in 9 (born in the 1900s)
    ("check29", "IDNUM", r"(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])\d{7}", "no.fodselsnummer"),
    ("check29", "IDNUM", r"\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{5}", "pl.pesel"),  # born in the 1900s
    ("check29", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("check29", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", cns),  # a Cartao SUS
    ("check29", "IDNUM", r"19\d{6}-\d{4}", "se.personnummer"),  # written with the century
    ("check29", "IDNUM", r"[12] \d{2} \d{2} \d{2} \d{3} \d{3} \d{2}", "fr.nir"),
    ("check29", "IDNUM", r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn"),
    ("check29", "IDNUM", r"\d{4} \d{6}", "at.vnr"),
    ("check29", "IDNUM", r"\d{6}-\d{3}9", "is_.kennitala"),
    ("check29", "IDNUM", r"[34]\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}", "lt.asmens"),
    ("check30", "IDNUM", r"[34]\d{2}(?:0[1-9]|1[0-2])\d{6}", "ee.ik"),  # the OIBs start 6 or 31, the AMKAs 1 or 2
    ("check30", "IDNUM", r"[12]\d{12}", "ro.cnp"),
    ("check30", "IDNUM", r"(?:6|31)\d{9}", "hr.oib"),
    ("check30", "IDNUM", r"\d{10}", "bg.egn"),
    ("check30", "IDNUM", r"\d{6} \d{4} \d{3}", "za.idnr"),
    ("check30", "IDNUM", r"\d{7}[A-W]", "ie.pps"),
    ("check30", "IDNUM", r"\d{1,2}\.\d{3}\.\d{3}-[\dK]", "cl.rut"),
    ("check30", "IDNUM", r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", "it.codicefiscale"),
    ("check30", "IDNUM", r"\d{9}", "nl.bsn"),
    ("check30", "IDNUM", r"\d{17}[\dX]", "cn.ric"),
    ("check30", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("check30", "IDNUM", r"[12][0-5]\d{9}", "gr.amka"),
    ("check30", "IDNUM", r"\d{6}/\d{4}", "sk.rc"),
    ("check30", "IDNUM", r"\d{2}-\d{8}-\d", "ar.cuit"),
    ("check30", "IDNUM", r"\d{3} \d{3} \d{3}", "pt.nif"),
    ("check30", "IDNUM", r"[2-9]\d{3} \d{4} \d{4}", "in_.aadhaar"),
    ("check30", "IDNUM", r"\d{9}-\d", "ec.ci"),
    ("check30", *AU_MEDICARE),
    ("check31", "IDNUM", r"\d{8}-\d", "pe.cui"),  # a Peruvian DNI with its check digit
    ("check31", "IDNUM", r"\d{6}-[0-2]\d{4}", "lv.pvn"),  # a Latvian personas kods
    ("check31", "IDNUM", r"9\d{10}", "tr.tckimlik"),  # the set's Cuban numbers start 4-7
    ("check31", "IDNUM", r"[4-7]\d{10}", "cu.ni"),
    ("check31", "IDNUM", r"[ST]\d{7}[A-Z]", nric),
    ("check31", "IDNUM", r"19\d{6}-\d{4}", "se.personnummer"),
    ("check31", "IDNUM", r"\d{6}-[1-4]\d{6}", "kr.rrn"),
    ("check31", "HEALTHPLAN", r"\d{3} \d{3} \d{3}", taj),
    ("check31", *DE_KVNR),
    ("check31", "IDNUM", r"\d{4} \d{6}", "at.vnr"),
    ("check31", "IDNUM", r"\d-\d{4}-\d{4}", "cr.cpf"),
    ("check31", "IDNUM", r"[3-9]\d{11}", iin),  # the Kuwaiti civil IDs start 2
    ("check31", "IDNUM", r"2\d{11}", kw_civil),
    ("check31", "IDNUM", r"[A-Z][12]\d{8}", tw_id),
    ("check31", "IDNUM", r"\d{3}-\d{6}-\d", ir_meli),
    ("check31", "IDNUM", r"\d{3}-\d{3}-\d{3} \d{2}", ru_snils),
    ("check31", "IDNUM", r"19\d{11}", lu_matricule),  # the JMBGs start with a day other than 19
    ("check31", "IDNUM", r"(?:[02]\d|1[0-8]|3[01])(?:0[1-9]|1[0-2])9\d{8}", jmbg),
    *LATER_SETS,
    ("dev2", *AU_MEDICARE),
    ("dev2", "HEALTHPLAN", r"[A-HJ-NP-Z]{3}\d{4}", nhi),
    ("dev2", "HEALTHPLAN", r"\d{4} \d{3} \d{3} [A-Z]{2}", "luhn"),
    ("dev3", "HEALTHPLAN", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("dev3", *UK_NHS),
    ("dev3", "HEALTHPLAN", r"[A-HJ-NP-Z]{3}\d{4}", nhi),
    ("dev3", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("dev4", *UK_NHS),
    ("dev4", *AU_MEDICARE),
    ("dev6", *UK_NHS),
    ("dev6", "IDNUM", r"\d{8}-\d{4}", "se.personnummer"),
    ("dev6", "IDNUM", r"\d{6}-\d{7}", "kr.rrn"),
    ("dev6", "IDNUM", r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf"),
    ("dev6", "HEALTHPLAN", r"\d{3} \d{4} \d{4} \d{4}", cns),
    ("dev6", *US_NPI),
    ("dev7", "MEDICALRECORD", r"\d{3} \d{3} \d{4}", "gb.nhs"),
    ("dev7", "MEDICALRECORD", r"\d{10}", "gb.nhs"),  # a CHI number: the NHS number's mod 11
    ("dev7", *AU_MEDICARE),
    ("dev7", "IDNUM", r"[STFG]\d{7}[A-Z]", nric),
    ("dev7", *NL_BSN),
    ("dev7", *ZA_ID),
    ("dev7", "IDNUM", r"\d{8}[A-Z]", "es.dni"),
    ("forms9", "IDNUM", r"\d{9}|\d{4}\.\d{2}\.\d{3}", "nl.bsn"),
    ("forms9", "IDNUM", r"\d{11}", "pl.pesel"),
    ("forms9", "IDNUM", r"\d{8}-?[A-Z]", "es.dni"),
    ("forms9", "IDNUM", r"[XYZ]-?\d{7}-?[A-Z]", "es.nie"),
    ("forms9", "IDNUM", r"[12](?: ?\d{2}){3} ?\d{3} ?\d{3} ?\d{2}", "fr.nir"),
    ("forms9", "IDNUM", r"\d{3} \d{3} \d{3}", "au.tfn"),
    ("forms9", "IDNUM", r"\d{2} \d{3} \d{3} \d{3}", "de.idnr"),
    ("forms9", *IN_AADHAAR),
    ("forms9", *IE_PPS),
    ("forms9", *US_NPI),
    ("forms9", "HEALTHPLAN", r"\d{3} \d{3} \d{4}", "gb.nhs"),
    ("forms9", *AU_MEDICARE),
    ("forms9", *DE_KVNR),
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
