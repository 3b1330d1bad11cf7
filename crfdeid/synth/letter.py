"""Clinic letters to a referring physician: letterhead, address blocks, visit summary."""

from __future__ import annotations

import datetime as dt
import random

from . import persona as ps
from .builder import NoteBuilder
from .discharge import COURSE, MEDS, PROBLEMS, labs_text, vitals_text


def letter(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """A clinic letter to a referring physician with an address block."""
    me, doc, ref = p.person, p.doctors[2], p.doctors[1]
    b.line(("HOSPITAL", p.hospital))
    b.line(("DEPARTMENT", f"Department of {rng.choice(ps.DEPT_KINDS)}"))
    b.line(("STREET", f"{rng.randint(1, 999)} {rng.choice(ps.pool('street_names'))}"))
    b.line(("CITY", rng.choice(ps.pool("cities")[:800])), ", ", ("STATE", p.state[1]), " ",
           ("ZIP", f"{rng.randint(1, 99950):05d}"))
    b.line("Tel ", ("PHONE", ps.phone(rng)), "   Fax ", ("FAX", ps.phone(rng)))
    if rng.random() < 0.4:
        b.line(("URL", ps.url(rng)))
    b.line()
    b.line(("DATE", ps.date_text(rng, day, rng.choice(["{B} {d}, {Y}", "{d} {B} {Y}", "{mm}/{dd}/{Y}"]))))
    b.line()
    b.line("RE: ", ("PATIENT", f"{me.first} {me.last}"), rng.choice(["  ", ", "]), "DOB: ",
           ("DATE", ps.date_text(rng, dt.date(p.admit.year - p.age, rng.randint(1, 12),
                                              rng.randint(1, 28)), "{mm}/{dd}/{Y}")))
    b.line("MRN: ", ("MEDICALRECORD", p.mrn))
    b.line(("STREET", p.street), ", ", ("CITY", p.city), ", ", ("STATE", p.state[rng.randrange(2)]),
           " ", ("ZIP", p.zip + (f"-{ps.digits(rng, 4)}" if rng.random() < 0.2 else "")))
    b.line()
    b.line("Dear Dr. ", ("DOCTOR", ref.last), ",")
    b.line()
    b.line("I had the pleasure of seeing ", *ps.patient_name(rng, me), " in ",
           rng.choice(["the ", "our "]), ("DEPARTMENT", f"{rng.choice(ps.DEPT_KINDS)} clinic"), " on ",
           ("DATE", ps.date_text(rng, day, rng.choice(["{B} {o}", "{B} {d}", "{m}/{d}"]))),
           ". As you know, ", rng.choice(["he", "she"]), " is ", *ps.age_text(rng, p.age, article="a "),
           " with ", rng.choice(PROBLEMS), " and ", rng.choice(PROBLEMS), ". ",
           rng.choice(COURSE))
    b.line()
    b.line("Current medications: ", "; ".join(rng.sample(MEDS, rng.randint(2, 5))), ".")
    b.line("Exam: ", vitals_text(rng), ". Labs: ", labs_text(rng), ".")
    b.line()
    if p.family and rng.random() < 0.6:
        rel, who = rng.choice(p.family)
        b.line(rng.choice(["The patient was accompanied by ", "Present today was "]), "her " if
               me.sex == "F" else "his ", rel, " ", ("PATIENT", who.first), ", who can be reached at ",
               ("PHONE", ps.phone(rng)), ".")
    b.line("I will see ", rng.choice(["him", "her"]), " again in ",
           ("DATE", rng.choice([m for m in ps.MONTHS if m != "May"])), rng.choice([" after ", " before "]),
           ("DATE", rng.choice(["Thanksgiving", "Christmas", "Easter", "Labor Day", "Fourth of July"]
                               )), ". Please call my office at ", ("PHONE", ps.phone(rng)),
           " or email ", ("EMAIL", ps.email(rng, doc)), " with questions.")
    b.line()
    b.line("Sincerely,")
    b.line()
    b.line(*ps.doctor_name(rng, doc))
    if rng.random() < 0.5:
        b.line(("USERNAME", ps.username(rng, doc)), "/", ("USERNAME", ps.username(rng, p.nurses[0])))
    if rng.random() < 0.3:
        b.line("Seen on ", ("DATE", rng.choice(ps.DAYS)), " in Exam Room ", ("ROOM", str(rng.randint(1, 12))))
