"""Events of an ICU nursing note that mention PHI (or, in the same contexts, look-alikes that are not).

Each event writes one line about the patient ``p`` into a :class:`NoteBuilder`;
:func:`crfdeid.synth.nursing.nursing_note` picks a few of :data:`EVENTS` per note.
"""

from __future__ import annotations

import datetime as dt
import random

from . import persona as ps
from .builder import NoteBuilder
from .phrases import fill

OPENERS = ["PT IS A ", "PT IS ", "PATIENT IS A ", ""]


def _date(rng, day, forms=("{m}/{d}", "{m}/{d}", "{B} {o}", "{b} {d}", "{m}/{d}/{y}")):
    return ("DATE", ps.date_text(rng, day, rng.choice(forms)))


def _time(rng) -> str:
    return f"{rng.randint(0, 23):02d}{rng.choice(['00', '15', '30', '45'])}"


def _admitted(rng, p, day, b):
    sex = rng.choice(["MALE", "M"]) if p.person.sex == "M" else rng.choice(["FEMALE", "F"])
    b.line(rng.choice(OPENERS), *ps.age_text(rng, p.age, decade=False), " ", sex,
           " ADMITTED ", _date(rng, p.admit), " FROM ", ("HOSPITAL", ps.hospital_form(rng, p.other_hospital)), " WITH ",
           rng.choice(["CHF EXACERBATION", "UGIB", "UROSEPSIS", "COPD FLARE", "NSTEMI", "ETOH WITHDRAWAL"]), ".")


def _named(rng, p, day, b):
    b.line(*ps.patient_name(rng, p.person), " ", rng.choice(
        ["HAD AN UNEVENTFUL NIGHT", "RESTED COMFORTABLY", "WAS AGITATED OVERNIGHT",
         "REMAINS INTUBATED", "IS AWAITING PLACEMENT"]), ".")


def _consult(rng, p, day, b):
    b.line("SEEN BY ", rng.choice(["NEURO", "RENAL", "CARDS", "GI", "ID"]), " (",
           *ps.doctor_name(rng, rng.choice(p.doctors)), ") @ ", _time(rng), ".")


def _transfer(rng, p, day, b):
    b.line("PLAN FOR TRANSFER TO ", ("DEPARTMENT", ps.ward(rng)),
           " WHEN BED AVAILABLE. ", rng.choice(["BED ", "RM ", "ROOM "]),
           ("ROOM", str(rng.randint(1, 40)) + rng.choice(["", "", "A", "B"])), ".")


def _received(rng, p, day, b):
    b.line("RECEIVED PT FROM ", rng.choice(["ED", "OR", "CATH LAB", "PACU"]), " @ ", _time(rng), " ",
           _date(rng, day), ". LABS PENDING.")


def _notified(rng, p, day, b):
    b.line(*ps.doctor_name(rng, rng.choice(p.doctors)), " NOTIFIED OF SBP 80S, 500CC NS BOLUS GIVEN @ ",
           _time(rng), ".")


def _fall(rng, p, day, b):
    b.line(rng.choice(OPENERS), *ps.age_text(rng, p.age, decade=False), " S/P FALL AT HOME IN ", ("CITY", p.city),
           " ON ", _date(rng, p.admit - dt.timedelta(days=rng.randint(0, 3))), ".")


def _meeting(rng, p, day, b):
    rel, who = rng.choice(p.family) if p.family else ("wife", ps.person(rng))
    b.line("FAMILY MEETING PLANNED FOR ", rng.choice([("DATE", rng.choice(ps.DAYS)), _date(rng, day)]),
           " @ 1400 WITH ", *ps.doctor_name(rng, p.doctors[0]), " AND ", rel.upper(), " ",
           ("PATIENT", who.first), ".")


def _code_status(rng, p, day, b):
    rel, who = rng.choice(p.family) if p.family else ("son", ps.person(rng))
    b.line("CODE STATUS: DNR/DNI PER DISCUSSION WITH ", rel.upper(), " ",
           ("PATIENT", f"{who.first} {who.last}" if rng.random() < 0.5 else who.first), " ON ",
           _date(rng, day), ".")


def _pcp(rng, p, day, b):
    b.line("PCP IS ", *ps.doctor_name(rng, p.doctors[2]), " ", ("PHONE", ps.phone(rng)), ".")


def _history(rng, p, day, b):
    b.line("PT WAS AT ", ("HOSPITAL", ps.hospital_form(rng, p.other_hospital)), " IN ", *ps.past_year(rng, p), " FOR ",
           rng.choice(["CABG", "HIP FX", "PNA", "AAA REPAIR"]), ". HX PARKINSON'S, ON COUMADIN.")


def _rehab(rng, p, day, b):
    b.line(rng.choice(["SCREENED FOR REHAB AT ", "CASE MGMT LOOKING INTO ", "MAY GO BACK TO "]),
           ("HOSPITAL", ps.hospital_form(rng, rng.choice(ps.pool("hospitals")))), " VS HOME TO ",
           ("CITY", p.city), ".")


def _two_doctors(rng, p, day, b):
    a, c = p.doctors[0], p.doctors[1]
    b.line("DR. ", ("DOCTOR", a.last), "/", ("DOCTOR", c.last), " AWARE OF ",
           rng.choice(["K 3.2", "HCT 27", "UO <30CC/HR X2 HRS", "TMAX 101.5"]), ".")


def _from_hospital(rng, p, day, b):
    b.line(rng.choice(["TRANSFERRED FROM ", "PT CAME FROM ", "ADMITTED VIA "]),
           _place(rng, p), rng.choice([" ED", " MICU", "", "", "", " CCU"]),
           " ", _date(rng, p.admit), rng.choice([". OSH RECORDS IN CHART.", ".", " FOR CATH."]))


def _visitor(rng, p, day, b):
    rel, who = rng.choice(p.family) if p.family else ("friend", ps.person(rng))
    b.line(rel.upper(), " ", ("PATIENT", who.first), rng.choice([" DRIVING IN FROM ", " STAYING IN ",
                                                                  " LIVES IN "]),
           ("CITY", rng.choice(ps.pool("cities")[:600])), ", WILL CALL IN AM.")


def _doctor_in(rng, p, day, b):
    who = rng.choice(p.doctors)
    b.line(rng.choice(["DR ", "DR. ", "MD ", ""]), ("DOCTOR", who.last), rng.choice([
        " IN TO SEE PT", " UPDATED", " PAGED RE: LOW UO", " AT BEDSIDE", " AWARE"]),
        rng.choice([", ", ". "]), "NEW ORDERS " + rng.choice(["RECEIVED", "NOTED"]) + ".")


UNITS = ["THE FLOOR", "MICU", "CCU", "OR", "CATH LAB", "REHAB", "HOME", "NURSING HOME", "IR", "CT",
         "MRI", "OSH", "SICU", "CSRU", "PACU", "ED", "HOSPICE", "ECHO", "DIALYSIS", "EP LAB"]


def _place(rng, p):
    """A hospital (any written form), a town, or (not PHI) a unit, as nursing notes name them."""
    if rng.random() < 0.25:
        return rng.choice(UNITS)
    if rng.random() < 0.6:
        return ("HOSPITAL", ps.hospital_form(rng, rng.choice([p.other_hospital, p.hospital,
                                                             rng.choice(ps.pool("hospitals"))])))
    return ("CITY", rng.choice([p.city, rng.choice(ps.pool("cities")[:600])]))


def _dispo(rng, p, day, b):
    b.line(rng.choice(["DISPO: ", "PLAN ", "", "CASE MGMT: "]),
           rng.choice(["D/C TO ", "DISCHARGE TO ", "TRANSFER TO ", "SCREENED FOR ", "BACK TO "]),
           _place(rng, p), rng.choice([" REHAB", "", " WHEN BED AVAILABLE", " IN AM", " TOMORROW"]), ".")


def _sent(rng, p, day, b):
    b.line("PT ", rng.choice(["SENT", "TRAVELED", "WENT", "TAKEN"]), " TO ", _place(rng, p), " FOR ",
           rng.choice(["MRI", "CATH", "EP STUDY", "DIALYSIS", "CT", "IR PROCEDURE"]), " @ ", _time(rng),
           ", RETURNED @ ", _time(rng), ".")


def _family_home(rng, p, day, b):
    rel, who = rng.choice(p.family) if p.family else ("friend", ps.person(rng))
    b.line(rel.upper(), rng.choice([" WENT HOME TO ", " RETURNED TO ", " DRIVING BACK TO "]),
           ("CITY", rng.choice([p.city, rng.choice(ps.pool("cities")[:600])])),
           rng.choice([" FOR THE NIGHT", "", ", WILL RETURN IN AM"]), ".")


def _ward(rng, p, day, b):
    b.line(rng.choice(["TRANSFERRED TO ", "PT TO GO TO ", "BED ASSIGNED ON ", "TO ", "TRANSFER TO ",
                       "AWAITING BED ON ", "CALLED REPORT TO "]), ("DEPARTMENT", ps.ward(rng)),
           rng.choice([" WHEN BED AVAILABLE", " IN AM", "", " TODAY"]), ".")


def _holiday(rng, p, day, b):
    b.line("PT ", rng.choice(["WANTS TO BE HOME FOR ", "TEARFUL, MISSED FAMILY ON ", "ASKING ABOUT "]),
           ("DATE", rng.choice(["CHRISTMAS", "THANKSGIVING", "EASTER", "NEW YEAR'S", "HANUKKAH"])), ".")


def _dialysis(rng, p, day, b):
    b.line("LAST HD ", ("DATE", rng.choice(ps.DAYS)), ", NEXT HD ",
           _date(rng, day + dt.timedelta(days=2)), ". ", rng.choice(["K 5.1", "K 4.2"]), ".")


#: Clinicians named by role (not PHI), in the contexts where names also occur ("HO aware", "d/w renal").
ROLES = ["HO", "HO", "HO", "HO", "MD", "MD", "NP", "PA", "TEAM", "MICU TEAM", "CCU HO", "MICU HO",
         "SICU RESIDENT", "RESIDENT", "FELLOW", "INTERN", "ATTENDING", "RENAL", "CARDS", "EP", "NEURO",
         "SURGERY", "CHARGE RN", "RT"]


def _clinician(rng, p):
    """A clinician named in passing (title outside the span), or about a third of the time a role."""
    if rng.random() < 0.35:
        return [rng.choice(ROLES)]
    who = rng.choice(p.doctors + p.nurses[:1])
    return rng.choice([["DR. ", ("DOCTOR", who.last)], ["DR ", ("DOCTOR", who.last)], [("DOCTOR", who.last)],
                       ["DR. ", ("DOCTOR", who.last)], [("DOCTOR", f"{who.first} {who.last}")],
                       [("DOCTOR", who.first)], [("DOCTOR", f"{who.first[0]}. {who.last}")]])


def _aware(rng, p, day, b):
    b.line(fill(rng, rng.choice(["SBP {70|80}'S", "HR {130|140|150}'S", "UO {5-20}CC/HR X{2|3} HRS",
                                 "TEMP {101.0-103.5}", "K {2.8-3.2}", "HCT {20-24}", "FS {40-60}", "RR {30|40}'S"])),
           rng.choice([", ", ". "]), *_clinician(rng, p), rng.choice([" AWARE", " MADE AWARE", " NOTIFIED"]),
           rng.choice(["", ", NO NEW ORDERS", ", WILL CONT TO MONITOR", " AND IN TO SEE PT"]), ".")


def _per(rng, p, day, b):
    nurse = rng.choice(p.nurses)
    b.line(rng.choice([["PER ", ("DOCTOR", nurse.first), " RN"], ["PER ", ("DOCTOR", nurse.first)],
                       ["REPORT FROM ", ("DOCTOR", nurse.first), rng.choice([" RN", ""])],
                       ["PER ", *_clinician(rng, p)], ["AS PER ", *_clinician(rng, p)]]),
           rng.choice([", PT SLEPT MOST OF THE NIGHT", " PT WAS AGITATED EARLIER", ", NO EVENTS ON DAYS",
                       " OK TO ADVANCE DIET", ", HOLD TF AFTER MN", ", HEPARIN TO BE RESTARTED"]), ".")


def _discussed(rng, p, day, b):
    b.line(rng.choice(["D/W ", "D/W ", "DISCUSSED W/ ", "SPOKE W/ ", "CALLED "]), *_clinician(rng, p),
           rng.choice([" RE: ", ", ", " ABOUT "]), rng.choice(["LOW UO", "K REPLETION", "PAIN MGMT", "NEW ALINE",
                                                            "WEANING PLAN", "BLOOD CX RESULTS"]),
           rng.choice([", WILL FOLLOW", ". ORDERS RECEIVED", ", NO CHANGES", ""]), ".")


def _outside(rng, p, day, b):
    """A hospital named the way transfer lines do: first word or acronym, often with the word hospital."""
    name = rng.choice([p.other_hospital, p.hospital, rng.choice(ps.pool("hospitals"))])
    form = ps.hospital_acronym(name) if rng.random() < 0.35 else ps.hospital_form(rng, name)
    if rng.random() < 0.3 and len(form.split()) == 1:
        form += rng.choice([" HOSPITAL", " HOSP", " REHAB", " MEDICAL CENTER"])
    b.line(rng.choice(["TRANSFERRED FROM ", "TRANSFER TO ", "TRANSFERRED TO ", "ADMITTED TO ", "SENT TO ",
                       "PT FROM ", "SCREENED BY ", "BED OFFERED AT ", "CALLED "]),
           ("HOSPITAL", form), rng.choice([" FOR ", " ON ", " ", " - "]),
           rng.choice([_date(rng, day, ("{m}/{d}",)), "CATH", "REHAB", "FURTHER MGMT", "EVAL", "PLACEMENT"]),
           rng.choice([".", ". OSH RECORDS IN CHART.", ", REPORT CALLED.", ""]))


def _family_named(rng, p, day, b):
    rel, who = rng.choice(p.family) if p.family else ("friend", ps.person(rng))
    rel = rel.upper()
    name = ("PATIENT", who.first if rng.random() < 0.7 else f"{who.first} {who.last}")
    b.line(*rng.choice([["PT'S ", rel, " ", name], [name, " (", rel, ")"], [name, ", ", rel, ","],
                        ["SPOKE WITH ", rel, " ", name], ["UPDATED ", rel, " ", name],
                        [rel, " ", name, " AND ", rng.choice(["SON ", "DAUGHTER ", "SISTER "]),
                         ("PATIENT", ps.person(rng).first)]]),
           rng.choice([" IN TO VISIT", " CALLED FOR UPDATE", " AT BEDSIDE", " WILL BE IN TOMORROW",
                       " ASKING ABOUT PLAN"]),
           ".")


def _dated(rng, p, day, b):
    when = day - dt.timedelta(days=rng.randint(0, 6))
    if rng.random() < 0.35:  # the date first, as a sentence of its own
        b.line(_date(rng, when, ("{m}/{d}",)), rng.choice([" ", ": ", " - "]), rng.choice(
            ["EXTUBATED", "PICC PLACED", "TRANSFERRED FROM OSH", "INTUBATED FOR RESP DISTRESS", "CT NEG",
             "STARTED ON LEVOPHED", "LAST DOSE OF VANCO"]), ".")
        return
    b.line(rng.choice(["LINE PLACED ", "INTUBATED ", "LAST BM ", "SPUTUM CX ", "PICC PLACED ", "FOLEY CHANGED ",
                       "ON ABX SINCE ", "CXR ", "EXTUBATED ", "ADMITTED "]),
           rng.choice([[_date(rng, when, ("{m}/{d}",))], ["(", _date(rng, when, ("{m}/{d}",)), ")"],
                       ["ON ", _date(rng, when, ("{m}/{d}", "{m}/{d}/{y}"))]]),
           rng.choice([".", ", RESULTS PENDING.", " - NEG.", f", DAY {rng.randint(2, 9)} OF ABX."]))


def _past_history(rng, p, day, b):
    items = rng.sample(["CABG", "CVA", "MI", "AVR", "HIP FX", "PNA", "TURP", "CHOLE", "PPM", "AAA REPAIR"],
                       rng.randint(1, 3))
    b.add(rng.choice(["PMH: ", "HX: ", "PMHX ", "S/P "]))
    for n, item in enumerate(items):
        b.add(", " if n else "", item, " ", *ps.past_year(rng, p))
    b.line(rng.choice([".", ", HTN, DM2.", ", COPD ON HOME O2."]))


EVENTS = [_admitted, _named, _consult, _transfer, _received, _notified, _fall, _meeting,
          _code_status, _pcp, _history, _holiday, _dialysis, _rehab, _two_doctors,
          _from_hospital, _visitor, _doctor_in, _dispo, _dispo, _sent, _family_home, _ward,
          _doctor_in, _named, _aware, _per, _discussed, _outside, _outside, _outside, _family_named, _dated,
          _dated, _past_history, _ward]


def social_line(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """The social/family line: family members by name, where they live, phones, the profession."""
    b.add(rng.choice(["SOCIAL: ", "SOCIAL- ", "SOC: ", "FAMILY: "]))
    if p.family:
        rel, who = rng.choice(p.family)
        rel = rel.upper()
        form = rng.randrange(7)
        if form == 0:
            b.add(rel, " ", ("PATIENT", who.first), " CALLED AND UPDATED")
        elif form == 1:
            b.add(rel, " ", ("PATIENT", who.first), " IN TO VISIT, UPDATED BY ",
                  *ps.doctor_name(rng, rng.choice(p.doctors)))
        elif form == 2:
            b.add("HCP IS ", rel, " ", ("PATIENT", f"{who.first} {who.last}"), ", CAN BE REACHED AT ",
                  ("PHONE", p.phone))
        elif form == 3:
            b.add(rel, " ", ("PATIENT", who.first), " FLYING IN FROM ",
                  ("CITY", rng.choice(ps.pool("cities")[:400])), " ON ",
                  _date(rng, day + dt.timedelta(days=rng.randint(1, 3))))
        elif form == 4:
            b.add(rel, " CALLED X2, ", ("PATIENT", who.first), " ASKING ABOUT DISPO")
        elif form == 5:
            b.add(rel, " (", ("PATIENT", who.first), ") ", ("PHONE", ps.phone(rng)),
                  " WOULD LIKE A CALL IF ANY CHANGES")
        else:
            b.add("LIVES IN ", ("CITY", p.city), " WITH ", rel, ". PT IS A RETIRED ",
                  ("PROFESSION", p.profession))
    else:
        b.add(rng.choice(["NO FAMILY CONTACT THIS SHIFT", "PT LIVES ALONE, SW FOLLOWING"]))
    if rng.random() < 0.2:
        b.add(". PAGER ", ("PHONE", ps.pager(rng)))
    b.line(".")
