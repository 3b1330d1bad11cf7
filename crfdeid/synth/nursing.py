"""Telegraphic ICU nursing notes (systems review lines, often ALL CAPS)."""

from __future__ import annotations

import datetime as dt
import random

from . import persona as ps
from .builder import NoteBuilder

HEADERS = ["NPN 7P-7A", "NPN 7A-7P", "Nursing Progress Note", "NURSING PROGRESS NOTE 0700-1900",
           "MICU NPN", "CCU NURSING NOTE", "CSRU NPN 1900-0700", "Nursing Admission Note",
           "NSG NOTE", "SICU NURSING PROGRESS NOTE", "Nursing note addendum", "NPN"]

SYSTEMS = {
    "NEURO": ["PT ALERT, ORIENTED X3", "A+OX3", "MAE", "PERRL", "FOLLOWS COMMANDS",
              "SEDATED ON PROPOFOL 20MCG/KG/MIN", "RESTLESS AT TIMES, ATIVAN 1MG IV GIVEN WITH GOOD EFFECT",
              "NO FOCAL DEFICITS", "C/O HEADACHE, TYLENOL 650MG PO GIVEN", "GCS 15",
              "OPENS EYES TO VOICE", "MOVING ALL EXT", "CIWA SCALE 4", "PARKINSON'S TREMOR NOTED R HAND",
              "DENIES PAIN", "PAIN 3/10, MORPHINE 2MG IV X1"],
    "CV": ["HR 80S SR, NO ECTOPY", "HR 90-110 ST", "BP 120/80", "SBP 100-130", "AFIB 70-90S",
           "RARE PVC'S", "K 3.8, REPLETED WITH 40MEQ KCL", "MG 1.7, 2GM MG SULFATE GIVEN",
           "PULSES PALPABLE X4", "SWAN-GANZ IN PLACE, PAD 18", "CVP 8-10", "LOPRESSOR 25MG PO GIVEN",
           "NTG GTT @ 1MCG/KG", "HEPARIN GTT @ 900 UNITS/HR, PTT 65", "COUMADIN HELD FOR INR 3.4",
           "A-LINE R RADIAL", "+1 PEDAL EDEMA", "LASIX 40MG IV WITH GOOD RESPONSE", "MAP 65-70"],
    "RESP": ["LS CLEAR", "LUNGS CLEAR BILAT", "COARSE BS, SUCTIONED FOR THICK TAN SPUTUM",
             "O2 SAT 97% ON 2L NC", "SATS 94-96% ON 40% FM", "VENT SETTINGS AC 500 X 14, PEEP 5, FIO2 40%",
             "ABG 7.38/42/98", "RR 18-22", "NEBS GIVEN BY RT", "CPAP 5/PS 10 WELL TOLERATED",
             "EXTUBATED @ 1030 WITHOUT DIFFICULTY", "DIMINISHED BASES", "30PK/YR HX OF SMOKING",
             "CXR DONE", "IS 1000CC"],
    "GI": ["ABD SOFT, NT/ND", "+BS", "TOL PO", "NPO EXCEPT MEDS", "TF JEVITY @ 60CC/HR, RESIDUALS <30CC",
           "NO BM THIS SHIFT", "SMALL GUAIAC NEG STOOL", "COLACE/SENNA GIVEN", "NGT TO LCS",
           "PROTONIX 40MG IV", "FS 140-180, COVERED PER RISS"],
    "GU": ["FOLEY DRAINING CLEAR YELLOW URINE 50-100CC/HR", "UO 30-60CC/HR", "VOIDING QS",
           "BUN/CR 22/1.1", "I/O +1.2L", "FOLEY D/C'D @ 0600", "DIURESING WELL"],
    "ID": ["TMAX 101.2", "AFEBRILE", "WBC 12.4", "VANCO/ZOSYN AS ORDERED", "BLOOD CX X2 SENT",
           "MRSA SCREEN PENDING", "ON LEVAQUIN"],
    "SKIN": ["INTACT", "COCCYX REDDENED, DUODERM APPLIED", "TURNED Q2H", "BRADEN 14",
             "SURGICAL INCISION CLEAN AND DRY", "PICC R ARM, SITE WNL"],
}

PLAN = ["CONT TO MONITOR", "CONT CURRENT PLAN", "WEAN VENT AS TOL", "? TRANSFER TO FLOOR IN AM",
        "FOLLOW UP AM LABS", "PAIN CONTROL", "DIURESE AS TOL", "SUPPORT PT/FAMILY",
        "CHECK K AND MG @ 2200", "OOB TO CHAIR IN AM"]


def nursing_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one nursing note about ``p`` on ``day`` into ``b``."""
    mode = rng.choices(["upper", "none", "lower"], weights=[55, 35, 10])[0]
    start = len(b)
    header = rng.choice(HEADERS)
    if rng.random() < 0.5:
        b.line(header, " ", ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{d}", "{m}/{d}/{Y}",
                                                                         "{mm}/{dd}/{Y}"]))))
    else:
        b.line(header)
    if rng.random() < 0.6:
        _events(rng, p, day, b)
    systems = list(SYSTEMS)
    for name in systems:
        if rng.random() < 0.85:
            b.add(rng.choice([f"{name}: ", f"{name}- ", f"{name.title()}: ", f"{name} "]))
            b.add(". ".join(rng.sample(SYSTEMS[name], rng.randint(1, 4))))
            if name == "CV" and rng.random() < 0.25:
                b.add(". ", *ps.doctor_name(rng, rng.choice(p.doctors)), " AWARE")
            b.line(".")
    if rng.random() < 0.85:
        _social(rng, p, day, b)
    b.line(rng.choice(["PLAN: ", "A/P: ", "Plan- "]), ", ".join(rng.sample(PLAN, rng.randint(1, 3))), ".")
    if rng.random() < 0.6:
        b.line(*ps.doctor_name(rng, rng.choice(p.nurses), nurse=True))
    b.recase(start, mode)


def _events(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    me = p.person
    choice = rng.randrange(5)
    if choice == 0:
        b.line("PT IS A ", *ps.age_text(rng, p.age), " ", rng.choice(["MALE", "FEMALE"]),
               " ADMITTED ", ("DATE", ps.date_text(rng, p.admit, "{m}/{d}")), " FROM ",
               ("HOSPITAL", p.other_hospital), " WITH ", rng.choice(["CHF EXACERBATION", "UGIB",
                                                                     "UROSEPSIS", "COPD FLARE", "NSTEMI"]), ".")
    elif choice == 1:
        b.line(*ps.patient_name(rng, me), " ", rng.choice(["HAD AN UNEVENTFUL NIGHT", "RESTED COMFORTABLY",
                                                          "WAS AGITATED OVERNIGHT"]), ".")
    elif choice == 2:
        b.line("SEEN BY ", rng.choice(["NEURO", "RENAL", "CARDS", "GI"]), " (",
               *ps.doctor_name(rng, rng.choice(p.doctors)), ") @ ", f"{rng.randint(8, 22):02d}00", ".")
    elif choice == 3:
        b.line("PLAN FOR TRANSFER TO ", ("DEPARTMENT", f"{rng.choice(ps.pool('surnames')[:300])} "
                                                       f"{rng.randint(2, 14)}"),
               " WHEN BED AVAILABLE. ", rng.choice(["BED ", "RM ", "ROOM "]),
               ("ROOM", str(rng.randint(1, 40)) + rng.choice(["", "", "A", "B"])), ".")
    else:
        b.line("RECEIVED PT FROM ", rng.choice(["ED", "OR", "CATH LAB", "PACU"]), " @ ",
               f"{rng.randint(0, 23):02d}{rng.choice(['00', '15', '30', '45'])}", ". ",
               ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{d}", "{B} {o}"]))), " LABS PENDING.")


def _social(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    b.add(rng.choice(["SOCIAL: ", "Social- ", "SOC: ", "FAMILY: "]))
    if p.family:
        rel, who = rng.choice(p.family)
        form = rng.randrange(6)
        if form == 0:
            b.add(rel.upper(), " ", ("PATIENT", who.first), " CALLED AND UPDATED")
        elif form == 1:
            b.add(rel.upper(), " ", ("PATIENT", who.first), " IN TO VISIT, UPDATED BY ",
                  *ps.doctor_name(rng, rng.choice(p.doctors)))
        elif form == 2:
            b.add("HCP IS ", rel.upper(), " ", ("PATIENT", f"{who.first} {who.last}"), ", CAN BE REACHED AT ",
                  ("PHONE", p.phone))
        elif form == 3:
            b.add(rel.upper(), " ", ("PATIENT", who.first), " FLYING IN FROM ",
                  ("CITY", rng.choice(ps.pool("cities")[:400])), " ON ",
                  ("DATE", ps.date_text(rng, day + dt.timedelta(days=rng.randint(1, 3)),
                                        rng.choice(["{m}/{d}", "{B} {o}", "{b} {d}"]))))
        elif form == 4:
            b.add(rel.upper(), " CALLED X2, ", ("PATIENT", who.first), " ASKING ABOUT DISPO")
        else:
            b.add("LIVES IN ", ("CITY", p.city), " WITH ", rel.upper(), ". PT IS A RETIRED ",
                  ("PROFESSION", p.profession.upper()))
    else:
        b.add(rng.choice(["NO FAMILY CONTACT THIS SHIFT", "PT LIVES ALONE, SW FOLLOWING"]))
    if rng.random() < 0.2:
        b.add(". PAGER ", ("PHONE", ps.pager(rng)))
    b.line(".")
