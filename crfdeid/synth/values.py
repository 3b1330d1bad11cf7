"""The ``values`` style: specialty notes dense in clinical fractions, scores and unit numbers (issue 58).

The routed model's specialty CRF read the values of specialty notes as dates: ``2/6`` (a murmur's
grade), ``6/9`` (acuity), ``Apgar 9/9``, ``ER 8/8``, ``6/52``, ``3/7``, ``7/10`` (pain), ``3/5``
(power), ``N1 (2/19)``, ``Ward 64``, ``10-14 days`` (docs/synth.md, "Clinical values the specialty
CRF reads as dates"). Its training notes wrote a fraction shape as a date 286 times and as a value
24 times (``synth:500,13,specialty``). ``synth:N,SEED,values`` writes ophthalmology, neurology,
cardiology, obstetric, neonatal, breast pathology, pain and rehabilitation, emergency and ward
review notes of the ``specialty`` style's countries whose lines hold:

* **values, never PHI**: fractions by their published grammars (Snellen acuity ``6/9`` and ``20/40``,
  MRC power ``4/5``, Levine murmur grades ``2/6``, Allred scores ``8/8``, Apgar scores ``9/9``, pain
  scores ``7/10``, gestation ``32+4/40``, weeks ``6/52``, days ``3/7`` and months ``6/12``, GCS
  ``14/15``, lymph nodes ``2/19`` and cores ``3/12``, blood pressures), scores, measures and units
  from the sourced lists (``score_names``, ``clinical_scales``, ``measure_abbrevs``, ``units``,
  through :data:`crfdeid.synth.specialty_vocab.VOCAB`), ward, bed and unit numbers and durations;
* **PHI in the same layouts**: the note's dates and telegraphic month/day dates (``seen 8/9``,
  ``8/9: VA 6/9``), the patient, record number, clinicians and hospital, so that a fraction is a
  value by its label and neighbours, not by its shape; and in half the notes the ``specialty``
  style's nursing lines (:data:`~crfdeid.synth.specialty_templates.NURSING_LINES`).

Templates are layout written for crfdeid from general clinical knowledge (MIT); clinical words come
through the ``specialty`` slots from lists with a source header.
"""

from __future__ import annotations

import datetime as dt
import random

from . import persona as ps
from . import specialty as sp
from . import world as wd
from .builder import NoteBuilder
from .phrases import fill
from .specialty_templates import NURSING_LINES


def _pick(*forms: str):
    return lambda rng: fill(rng, rng.choice(forms))


def _gestation(rng: random.Random) -> str:
    weeks, days = rng.randint(6, 41), rng.randint(0, 6)
    return rng.choice([f"{weeks}/40", f"{weeks}+{days}/40", f"{weeks}+{days} weeks", f"{weeks}/40 + {days}"])


def _nodes(rng: random.Random) -> str:
    total = rng.randint(2, 28)
    return f"{rng.randint(0, min(total, 6))}/{total}"


def _bp(rng: random.Random) -> str:
    return f"{rng.randint(88, 182)}/{rng.randint(48, 104)}"


#: ``<slot>`` -> plain text (never PHI): fractions by their grammars, durations and unit numbers.
VALUES = {
    "va": _pick("6/{5|6|9|12|18|24|36|60}", "6/{6|9|12|18}{| -1| -2| +1| +2}", "20/{20|25|30|40|50|70|100|200|400}",
                "{CF|HM|PL|NPL}", "6/{9|12|18} {unaided|with pinhole|pinhole 6/6|with glasses}"),
    "power": _pick("{0-5}/5", "{4|4+|4-|5-|3}/5", "MRC {3|4|5}/5"),
    "murmur": _pick("{1-4}/6", "grade {1-4}/6", "{2|3}/6"),
    "allred": _pick("{0-8}/8", "Allred {2-8}/8", "{5-8}/8 (Allred)"),
    "apgar": _pick("{5-9}/{8-10}", "{6-9} and {8-10}", "{7-9}/{8-10}/{9|10}"),
    "pain": _pick("{0-10}/10", "{2-9}/10", "{3-8} out of 10"),
    "gest": _gestation,
    "wk": _pick("{1-12}/52", "{2|4|6|8}/52", "{1-6}/7", "{2|3|5}/7", "{1-11}/12", "{3|6|9}/12"),
    "gcs": _pick("{3-15}/15", "{13|14|15}/15", "E{1-4} V{1-5} M{1-6}"),
    "nodes": _nodes,
    "cores": lambda rng: f"{rng.randint(1, 6)}/{rng.choice([6, 8, 10, 12, 14])} cores",
    "bp": _bp,
    "ratio": _pick("0.{2-8}", "1:{1|2|4}", "{1|2|3}:1"),
    "dur": _pick("{2-6} weeks", "{7|10}-{14|21} days", "{3|6|12} months", "{2-8} wk", "{1-5} days", "{6|12} mo"),
    # a room number is PHI (i2b2 ROOM); `5 West` left out: C-val taught it that `Bloor West` is plain
    "unitno": _pick("Ward {1-70}", "bed {1-30}", "Bed {1-30}", "Bay {1-8}", "Pod {A|B|C}", "Ward {1-40}{A|B|C}"),
    "lvl": _pick("L{1-5}", "C{2-7}", "T{1-12}", "S{1-2}", "L{3|4}/{4|5}", "C{5|6}/{6|7}", "L5/S1"),
}

#: Headings of the note kinds (keys of :data:`LINES`).
HEADINGS = {
    "eye": ["Eye Clinic", "OPHTHALMOLOGY CLINIC", "Ophthalmology Review", "Eye Casualty", "Glaucoma Clinic"],
    "neuro": ["Neurology Clinic", "NEUROLOGY CONSULT", "Stroke Review", "Spinal Clinic", "Neurosurgery Ward Round"],
    "cardio": ["Cardiology Clinic", "CARDIOLOGY CONSULT", "Heart Failure Clinic", "Chest Pain Clinic"],
    "obstetric": ["Antenatal Clinic", "Maternity Triage", "ANTENATAL REVIEW", "Day Assessment Unit", "Booking Visit"],
    "neonatal": ["Neonatal Admission", "NICU ADMISSION NOTE", "Baby Check", "Postnatal Ward Round"],
    "breast": ["Breast MDT", "BREAST PATHOLOGY", "Breast Clinic", "Histopathology Report"],
    "pain": ["Pain Clinic", "Physiotherapy Assessment", "Rehab Review", "MSK Clinic", "Fracture Clinic"],
    "acute": ["ED Note", "EMERGENCY DEPARTMENT", "Medical Take", "Post-take Ward Round", "Ward Review", "SDEC Review"],
}

#: Lines of each kind: values by their labels, beside the note's dates and people (PHI slots of
#: :data:`crfdeid.synth.world.SLOTS` and :data:`crfdeid.synth.specialty.EXTRA_SLOTS`).
LINES = {
    "eye": [
        "VA R <va> L <va>", "Visual acuity: {RE|OD|Right} <va>, {LE|OS|Left} <va>{| with pinhole}",
        "<md>: VA {R|RE} <va>, {L|LE} <va>", "IOP {12-28}/{12-28} mmHg, CD ratio <ratio>",
        "Seen in eye clinic <md>, VA <va>; <measure>.", "Last field test <date>: <measure>, {stable|progressed}.",
        "Dx: <dx>. Review in <dur> with Dr <dr_last>.", "Plan: <drug> drops, next appt <md>{| in clinic}.",
        "{Cataract surgery|YAG|Laser} {R|L} <year>; <dx>.",
        "Humphrey 24-2 {reliable|unreliable}, MD -{1-9}.{1-9} dB", "Seen by <dr_last> {today|<md>}; <score>.",
    ],
    "neuro": [
        "Power {R|L} {arm|leg} <power>, {R|L} {arm|leg} <power>",
        "Tone normal, power <power> throughout, reflexes {2+|1+|3+}",
        "GCS <gcs> on arrival, <gcs> at <time>", "MRI <lvl> <md>: <dx>.", "<score>; NIHSS {0-24} at <time>.",
        "Seen <md> by Dr <dr_last>: <dx>, power <power>.",
        "{Hip flexion|Grip|Dorsiflexion} <power> {bilaterally|on the right}",
        "Onset <md>, symptoms for <dur>. <measure>.", "Discussed with <dr_full> at <hosp>; <drug> started.",
        "{Previous stroke|TIA|Seizure} <year>, power <power>.",
    ],
    "cardio": [
        "{ESM|Pansystolic murmur|Systolic murmur} <murmur> at the {apex|LSE|RUSE}",
        "BP <bp>, HR {50-120}, SpO2 {90-100}%",
        "Echo <md>: <measure>, <measure>; <murmur> murmur noted.", "<stage>. <score>.",
        "Grade <murmur> ESM, echo <date>",
        "{Angio|Cath|ETT} <md>: <dx>.", "Review by Dr <dr_last> in <dur>; BP <bp> today.",
        "Pain <pain> on exertion, NYHA {I|II|III}", "Lying BP <bp>, standing <bp>",
        "{PCI|CABG|MI|Previous GA} <year>; <score>.",
    ],
    "obstetric": [
        "G{1-6}P{0-4}, <gest> by dating scan <date>", "EDD <date>; now <gest>.", "Fundal height {20-40} cm, <gest>",
        "Seen <md> at <gest>, BP <bp>, urine {NAD|protein 1+|protein 2+}", "Booked at <hosp> <md>.",
        "CTG reactive, <measure>. Review in <wk> with <dr_last>.",
        "Bishop score {2-11}; <gest>, cephalic {1-5}/5 palpable",
        "Previous LSCS <wk> ago. Midwife: <nurse>.", "Plan: scan at <gest>, appt <md>.",
        "{LSCS|SVD|Previous GA} <year>, now <gest>.",
    ],
    "neonatal": [
        "Born <date> at <gest>, Apgars <apgar>, BW {900-4200} g", "Apgar <apgar>; <measure>.",
        "Mother <rel_full>, G{1-5}P{1-4}; <dx>.", "Day <wk> of life, feeding {well|poorly}, SpO2 {92-100}%",
        "Baby <pt> born <md> at <time>, Apgar <apgar>.", "Plan: <drug>, review <md> by Dr <dr_last>.",
        "{Jaundice|SBR} {120-340} at <wk>; phototherapy {started|not needed}.",
    ],
    "breast": [
        "ER <allred>, PR <allred>, HER2 {0|1+|2+|3+}", "<stage>, nodes <nodes> positive",
        "Core biopsy <md>: <cores> involved.",
        "Received <date>; reported by Dr <dr_last>, <hosp>.", "ypT{1-3} N{0-2} (<nodes>) R{0|1}",
        "Sentinel nodes <nodes>; <measure>. Discussed at MDT <md>.", "<dx>, grade {1-3}, Ki-67 {5-60}%",
        "Oncotype {5-40}; <score>. Plan: <drug> for <dur>.", "{Mammogram|Previous WLE} <year>: <stage>.",
    ],
    "pain": [
        "Pain <pain> at rest, <pain> on movement", "Since <md>: pain <pain>, <dx>.", "ROM {0-140} deg, power <power>",
        "s/p <action> of <site> <wk> ago; pain <pain>.", "Fracture <md>, now <wk>; cast off in <dur>.",
        "Seen by physio <nurse> <md>; <score>.", "<score>, Oswestry {10-70}%, pain <pain>",
        "Plan: <drug> {1-4} mg, review <dur> with Dr <dr_last>.",
    ],
    "acute": [
        "BP <bp>, HR {50-140}, RR {12-32}, SpO2 {88-100}%, GCS <gcs>", "Pain <pain>, <score>.",
        "Admitted <md> to <unitno>; seen by Dr <dr_last>.", "Moved to <unitno> <md>; <drug> {1-4} mg.",
        "Symptoms for <wk>; <dx>. <measure>.", "Plan: <drug> for <dur>, review <md>.",
        "Transferred from <hosp_other> <md>; now <unitno>.", "{Post-take|Ward round} <md>: <dx>, GCS <gcs>.",
        "Abx day <wk>; <measure>.", "{Previous GA|Admitted|Fall} <year>; <dx>.",
    ],
}
#: Sign-offs (the last line of a note: a clinician and a place).
SIGN_OFFS = ["Dr <dr_last>, <hosp>", "<dr_full>, {Consultant|Registrar|SHO|Attending|Fellow}",
             "Signed: Dr <dr_last> <date>", "Reviewed by <dr_full>{| <md>}",
             "<nurse>, {Midwife|Staff Nurse|Physiotherapist|CNS}, <hosp>"]
#: Note kinds and their weights.
NOTE_KINDS = {"eye": 12, "neuro": 12, "cardio": 13, "obstetric": 14, "neonatal": 9, "breast": 12, "pain": 13,
              "acute": 15}


def _year(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A year alone, as a history dates an event (``Previous GA 2019``): a date, PHI."""
    return [("DATE", str(day.year - rng.randint(1, 15)))]


def _old(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """An age over 89 after the patient's name (AGE, PHI), or under 90 (plain), as ward notes write it."""
    age = rng.randint(90, 104) if rng.random() < 0.6 else rng.randint(40, 89)
    return [", ", ("AGE", str(age)) if age >= 90 else str(age)]


#: Layouts of reference numbers that C-val and C-val2 left in a note's body (``#`` a digit, ``A`` a letter).
REF_LAYOUTS = ("##-#######", "#####-#####", "AAA/AAA/####/####", "A-#####", "AAA-####-####", "##.#####.###",
               "####/##", "######/##", "AA##-#####", "##/####/###", "A##.####", "####-##-####")


def _refno(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """An incident, accession, specimen, laboratory, register or family number (IDNUM; its label is the line's)."""
    layout = rng.choice(REF_LAYOUTS)
    return [("IDNUM", "".join(rng.choice("0123456789") if c == "#" else wd._letters(rng, 1) if c == "A" else c
                              for c in layout))]


def _day_month(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A date without its year (``12.03.``, ``3 Mar``, ``3rd March``; month first in the US): DATE."""
    forms = ("{b} {d}", "{B} {o}", "{m}/{d}") if w.country == "US" else \
        ("{dd}.{mm}.", "{d}.{m}.", "{dd}.{mm}", "{d} {b}", "{o} {B}", "{d} {B}")
    return [("DATE", ps.date_text(rng, day - dt.timedelta(days=rng.randint(0, 90)), rng.choice(forms)))]


def _year_bracket(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A year in brackets after an event (``Appendicectomy (2014)``): the year DATE, the brackets not."""
    return ["(", *_year(rng, w, day), ")"]


_STREET_FORMS = ("ul. {s} {n}", "{s}strasse {n}", "{s}weg {n}", "Calle {s} {n}", "Rua {s}, {n}", "Via {s} {n}",
                 "{s}gatan {n}", "{s}vej {n}", "{s}laan {n}", "Avenida {s} {n}", "{s} Street {n}")


def _street_number(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A street that ends in its number (``ul. Kowalska 64``, ``Rua Souza, 45``): STREET."""
    name = rng.choice([w.last, w.town.split()[0], rng.choice(w.doctors)[1]])
    return [("STREET", rng.choice(_STREET_FORMS).format(s=name, n=rng.randint(1, 240)))]


#: PHI slots of this style beside the ``specialty`` style's: what C-val left (a year, an age over 89) and
#: what C-val2 left (numbers joined by hyphens, slashes or points, dates without a year, years in brackets,
#: streets ending in a number), written in the values' lines so that the label decides, not the shape.
PHI_SLOTS = {"year": _year, "refno": _refno, "dm": _day_month, "yr_br": _year_bracket, "street_no": _street_number}

#: Lines of every kind with an identifier after its label beside values (one to three in four notes of five).
ID_LINES = [
    "Specimen {no.|} <refno>: ER <allred>, PR <allred>", "Lab no. <refno>; Hb {80-160} g/L, BP <bp>",
    "Incident {no.|ref|number} <refno> ({fall|near miss|pressure ulcer}) <dm>; GCS <gcs>, pain <pain>",
    "Accession {no.|} <refno>: <measure>, review in <dur>", "Register {no.|} <refno>, reviewed <dm>; power <power>",
    "Family no. <refno>; G{1-6}P{0-4}, <gest>", "Case {no.|ref} <refno>. Seen <dm>: VA <va>",
    "Sample {ID|no.} <refno> taken <dm> at <time>; <measure>", "Ref. <refno>, <dm>: nodes <nodes>, <cores> involved",
    "Seen <dm>, pain <pain>, power <power>", "Last seen <dm>: BP <bp>, <murmur> murmur",
    "Review {on|} <dm>, then in <dur>; <score>", "Next appt <dm>; <wk> post op, pain <pain>",
    "{Appendicectomy|Cholecystectomy|Hysterectomy|LSCS|TKR|Previous GA|MI} <yr_br>; <score>",
    "PMH: <dx> <yr_br>, {PCI|CABG|THR|stroke} <yr_br>. BP <bp>.",
    "Home: <street_no>, <town>; mobility {independent|frame|stick}, pain <pain>",
    "Address: <street_no>; lives {alone|with family}. GCS <gcs>.",
]


def _slot(name: str) -> wd.Slot:
    """A ``<slot>`` of this style: a value of :data:`VALUES`, else the ``specialty`` style's slot."""
    return wd.slot_of(name, (VALUES,), (PHI_SLOTS,), sp._slot)


def render(rng: random.Random, w: wd.World, day: dt.date, template: str) -> list[list]:
    """``template`` as lines of builder pieces (values plain, PHI slots as ``(SUBTYPE, text)``)."""
    return wd.render(rng, w, day, template, _slot, sp._SLOT)


def values_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``values`` note about a patient drawn after ``p`` on ``day`` into ``b``."""
    w = sp.specialty_patient(rng, p)
    kind = ps.weighted(rng, NOTE_KINDS)
    start = len(b)
    when: list = rng.choice([sp._date(rng, w, day), [""], sp._month_day(rng, w, day)])
    b.line(rng.choice(HEADINGS[kind]), rng.choice([" ", " - ", "  ", ": "]), *when)
    if rng.random() < 0.7:
        name = wd._person_name(rng, w.first, w.last, w.sex, w.nick)
        old = _old(rng, w, day) if rng.random() < 0.3 else []
        b.line(rng.choice(["Name: ", "Patient: ", "PATIENT: ", "Pt: ", ""]), *name, *old,
               rng.choice(["  ", "   ", "\t"]), *sp._identifier(rng, w, day))
    lines = LINES[kind]
    chosen = [lines[i] for i in sorted(rng.sample(range(len(lines)), rng.randint(4, len(lines))))]
    if rng.random() < 0.8:  # identifiers of value-like shapes after their labels, beside the values
        for _ in range(rng.randint(1, 3)):
            chosen.insert(rng.randrange(0, len(chosen) + 1), rng.choice(ID_LINES))
    if rng.random() < 0.5:  # a nursing line or two: PHI in telegraphic contexts beside the values
        for _ in range(rng.randint(1, 2)):
            chosen.insert(rng.randrange(1, len(chosen)), rng.choice(NURSING_LINES))
    chosen.append(rng.choice(SIGN_OFFS))
    b.finish(start, ps.weighted(rng, {"": 70, "lower": 18, "upper": 12}),  # telegraphic or all-caps notes too
             (pieces for template in chosen for pieces in render(rng, w, day, template)))
