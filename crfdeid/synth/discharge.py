"""Discharge summaries: sections, numbered lists, vitals, medications, labs, signature."""

from __future__ import annotations

import datetime as dt
import random

from . import persona as ps
from .builder import NoteBuilder

PROBLEMS = ["coronary artery disease", "CHF with EF 35%", "type 2 diabetes mellitus", "hypertension",
            "COPD", "atrial fibrillation on Coumadin", "chronic kidney disease stage 3",
            "Parkinson's disease", "hypothyroidism", "GERD", "osteoarthritis", "hyperlipidemia",
            "prostate cancer s/p XRT", "CVA with residual left weakness", "Alzheimer's dementia",
            "Crohn's disease", "Hodgkin's lymphoma in remission", "peripheral vascular disease",
            "depression", "obstructive sleep apnea on CPAP"]
MEDS = ["Coumadin 5 mg po qd", "Lasix 40 mg po bid", "Lopressor 25 mg po bid", "Lipitor 20 mg qhs",
        "Aspirin 81 mg daily", "Plavix 75 mg daily", "Metformin 500 mg bid", "Lantus 20 units qhs",
        "Synthroid 100 mcg daily", "Protonix 40 mg daily", "Sinemet 25/100 tid", "Aricept 10 mg qhs",
        "Lisinopril 10 mg daily", "Colace 100 mg bid", "Tylenol 650 mg q6h prn", "KCl 20 mEq daily",
        "Albuterol nebs q4h prn", "Flomax 0.4 mg qhs", "Zoloft 50 mg daily", "Neurontin 300 mg tid"]
COURSE = ["Pt was diuresed with IV Lasix with improvement in her symptoms.",
          "A Swan-Ganz catheter was placed and showed a wedge of 22.",
          "Cardiology was consulted and he underwent cardiac catheterization which showed 3VD.",
          "Foley catheter was removed on hospital day 3 and he voided without difficulty.",
          "Coumadin was held for an INR of 4.2 and restarted at a lower dose.",
          "Blood cultures grew E. coli sensitive to ceftriaxone.",
          "He was transfused 2 units PRBC for Hct 24 with appropriate bump.",
          "Physical therapy evaluated the patient and recommended rehab.",
          "Her Parkinson's medications were continued on the usual schedule.",
          "The Babinski sign was negative; MRI showed no acute infarct.",
          "Glucose was managed with a sliding scale and Lantus.",
          "Pain was controlled with Percocet 1-2 tabs q4-6h prn."]


def vitals_text(rng: random.Random) -> str:
    return (f"T {rng.choice(['98.6', '99.1', '100.4', '97.8'])} HR {rng.randint(55, 115)} "
            f"BP {rng.randint(95, 165)}/{rng.randint(50, 95)} RR {rng.randint(12, 26)} "
            f"SpO2 {rng.randint(88, 100)}% {rng.choice(['RA', 'on 2L', '4L NC'])}")


def labs_text(rng: random.Random) -> str:
    return (f"Na {rng.randint(128, 146)}, K {rng.randint(30, 55) / 10}, Cl {rng.randint(95, 110)}, "
            f"HCO3 {rng.randint(18, 30)}, BUN {rng.randint(8, 60)}, Cr {rng.randint(6, 30) / 10}, "
            f"Glu {rng.randint(70, 300)}, WBC {rng.randint(40, 180) / 10}, Hct {rng.randint(24, 45)}, "
            f"Plt {rng.randint(90, 450)}, INR {rng.randint(10, 40) / 10}")


def discharge_summary(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """A discharge summary about ``p``, discharged on ``day``."""
    me, doc = p.person, p.doctors[0]
    caps_header = rng.random() < 0.5
    start = len(b)
    if rng.random() < 0.5:
        b.line("Record date: ", ("DATE", ps.date_text(rng, day, "{Y}-{mm}-{dd}")))
    b.line(("HOSPITAL", p.hospital))
    b.line(rng.choice(["DISCHARGE SUMMARY", "Discharge Summary", "DISCHARGE SUMMARY - FINAL"]))
    b.line("NAME: ", ("PATIENT", f"{me.last.upper()}, {me.first.upper()}" if caps_header
                      else f"{me.last}, {me.first}"), rng.choice(["   ", "\t", "  "]),
           rng.choice(["MRN: ", "MR#: ", "Unit No: "]), ("MEDICALRECORD", p.mrn))
    if rng.random() < 0.15:  # a collapsed table glues the ID to the name
        b.line(("MEDICALRECORD", p.mrn), ("PATIENT", me.first.upper()), " ", me.middle)
    b.line("ADMISSION DATE: ", ("DATE", ps.date_text(rng, p.admit, "{mm}/{dd}/{Y}")),
           "   DISCHARGE DATE: ", ("DATE", ps.date_text(rng, day, "{mm}/{dd}/{Y}")))
    b.line(rng.choice(["ATTENDING: ", "Attending physician: "]), *ps.doctor_name(rng, doc))
    _identifiers(rng, p, b)
    if caps_header:
        b.recase(start, "upper")
    b.line()
    b.line(rng.choice(["HISTORY OF PRESENT ILLNESS:", "HPI:", "History of Present Illness:"]))
    b.line(*ps.patient_name(rng, me), " is a ", *ps.age_text(rng, p.age, decade=False), " ",
           rng.choice(["retired ", "", "former "]), ("PROFESSION", p.profession), " with a history of ",
           rng.choice(PROBLEMS), " s/p CABG in ", *ps.past_year(rng, p), " who presented to ",
           ("HOSPITAL", p.other_hospital), " on ", ("DATE", ps.date_text(rng, p.admit)),
           " with ", rng.choice(["chest pain", "dyspnea", "fever and confusion", "melena", "a fall"]),
           " and was transferred here for further care.")
    if rng.random() < 0.3:
        b.line("Since", ("DATE", ps.date_text(rng, p.admit - dt.timedelta(days=rng.randint(30, 900)),
                                              "{m}/{dd}/{y}")), " she has had worsening symptoms.")
    b.line()
    b.line("PAST MEDICAL HISTORY:")
    for i, prob in enumerate(rng.sample(PROBLEMS, rng.randint(2, 6)), 1):
        b.line(f"{i}. {prob}")
    if rng.random() < 0.4:
        b.line(f"{i + 1}. appendectomy ", *ps.past_year(rng, p))
    b.line()
    b.line(rng.choice(["MEDICATIONS ON ADMISSION:", "MEDICATIONS:", "Discharge Medications:"]))
    for i, med in enumerate(rng.sample(MEDS, rng.randint(3, 8)), 1):
        b.line(rng.choice([f"{i}. ", "- ", "  "]), med)
    b.line()
    b.line("ALLERGIES: ", rng.choice(["NKDA", "Penicillin (rash)", "Sulfa", "codeine - nausea"]))
    b.line()
    _social(rng, p, b)
    b.line()
    b.line("PHYSICAL EXAM: ", vitals_text(rng), ". Gen: NAD. Lungs: crackles at bases. CV: RRR, "
           "no m/r/g. Ext: trace edema.")
    b.line("LABS: ", labs_text(rng))
    if rng.random() < 0.3:
        b.line("Path specimen ", ("IDNUM", f"S{ps.digits(rng, 2)}-{ps.digits(rng, 5)}"), " PEND",
               ("DATE", ps.date_text(rng, day + dt.timedelta(days=4), "{mm}/{dd}/{Y}")))
    b.line()
    b.line("HOSPITAL COURSE:")
    b.line(" ".join(rng.sample(COURSE, rng.randint(2, 5))))
    if rng.random() < 0.5:
        b.line("On ", ("DATE", ps.date_text(rng, p.admit + dt.timedelta(days=1))), " ",
               *ps.doctor_name(rng, p.doctors[1]), " from ", ("DEPARTMENT", rng.choice(ps.DEPT_KINDS)),
               " saw the patient.")
    b.line()
    b.line("DISPOSITION: ", rng.choice([
        ["Discharged home with VNA services."],
        ["Discharged to ", ("HOSPITAL", rng.choice(ps.pool("hospitals")))],
        ["Home with ", rng.choice(["wife", "husband", "daughter", "son"]), "."]]))
    _followup(rng, p, day, b)
    _signature(rng, p, day, b)


def _identifiers(rng: random.Random, p: ps.Patient, b: NoteBuilder) -> None:
    ids = ps.ids(rng)
    for sub, (label, value) in ids.items():
        if rng.random() < 0.22:
            b.line(f"{label} ", (sub, value))
    if rng.random() < 0.15:
        b.line("SSN: ", ("SSN", ids["SSN"][1]))


def _social(rng: random.Random, p: ps.Patient, b: NoteBuilder) -> None:
    b.add("SOCIAL HISTORY: Lives ", rng.choice(["in ", "at home in "]), ("CITY", p.city), ", ",
          ("STATE", rng.choice(p.state)))
    family = [f for f in p.family if f[0] in ("wife", "husband")]
    if family:
        b.add(" with his " if family[0][0] == "wife" else " with her ", family[0][0], " ",
              ("PATIENT", family[0][1].first))
    b.add(". Works as a ", ("PROFESSION", p.profession), " at ", ("ORGANIZATION", p.employer), ".")
    if rng.random() < 0.35:
        b.add(" Emigrated from ", ("COUNTRY", rng.choice(ps.pool("countries")[:120])), " in ",
              *ps.past_year(rng, p), ".")
    if rng.random() < 0.3:
        b.add(" Recently returned from a trip to ", ("LOCATION-OTHER", rng.choice(ps.LANDMARKS)), ".")
    b.line(" ", rng.choice(["30PK/YR smoking history, quit ", "Former smoker, quit "]),
           *ps.past_year(rng, p), ". ", rng.choice(["Occasional EtOH.", "No EtOH.", "No IVDU."]))


def _followup(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    when = day + dt.timedelta(days=rng.randint(5, 30))
    b.line("FOLLOW-UP: ", *ps.doctor_name(rng, p.doctors[2]), " in ",
           ("DEPARTMENT", rng.choice(ps.DEPT_KINDS)), " clinic on ", ("DATE", ps.date_text(rng, when)),
           " @ ", f"{rng.randint(8, 16)}:{rng.choice(['00', '15', '30', '45'])}",
           ", phone ", ("PHONE", ps.phone(rng)), ".")
    if rng.random() < 0.35:
        b.line("Fax: ", ("FAX", ps.phone(rng)))
    if rng.random() < 0.2:
        b.line("Questions: ", ("EMAIL", ps.email(rng, p.doctors[2])), " or ", ("URL", ps.url(rng)))
    if rng.random() < 0.2:
        b.line(rng.choice(["Results uploaded from workstation ", "Telemetry server ", "Remote access from IP "]),
               ("IPADDR", ps.ipaddr(rng)))


def _signature(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    doc = p.doctors[0]
    b.line()
    b.line("_" * rng.randint(20, 40))
    b.line(("DOCTOR", f"{doc.first} {doc.last}"), ", MD")
    if rng.random() < 0.35:
        b.line("Electronically signed by: ", ("USERNAME", ps.username(rng, doc)))
    b.line("DD: ", ("DATE", ps.date_text(rng, day, "{mm}/{dd}/{y}")), "  DT: ",
           ("DATE", ps.date_text(rng, day + dt.timedelta(days=1), "{mm}/{dd}/{y}")))
    if rng.random() < 0.4:
        b.line("cc: ", *ps.doctor_name(rng, p.doctors[1]), ", ", ("HOSPITAL", p.other_hospital))
