"""The ``name_forms`` style: five forms of identifier a leak study found the shipped model misses (issue 58).

Identifiers planted in made-up notes were left mostly where the note is in lower case or in capitals, in five forms.
``synth:N,SEED,name_forms`` writes short ward, clinic, discharge and handover notes whose lines carry them:

* **names with particles** (PATIENT for the patient and relatives, DOCTOR for staff), the particle inside the span:
  Malay and Arabic ``bin``, ``binti``, ``bte``, ``al``, ``abu`` (``Abdulrahman bin Khalid``), Spanish and Portuguese
  ``de``, ``de la``, ``de los``, ``del``, ``dos``, ``da`` (``Lucia de los Santos``), Dutch and Flemish ``van``,
  ``van der``, ``van den``, ``de``, German ``von``, Italian ``di``, ``del``, ``della``; in running prose (visitors,
  next of kin, a colleague who phoned), after ``dr.`` or ``seen by``, after a title, surname first;
* **the patient's first name or nickname alone** as nurses write at the bedside (``Bob ate well``, ``- 0200: bob
  oriented x3``, ``told Marisol``, ``pt: Robert Fenwick ("Bob")``), the nickname one the ``nicknames`` list gives
  for the first name where it has one;
* **ages over 89 as ordinals** before a birthday (``her 92nd birthday``, ``Mrs Fenwick's 100th birthday card``):
  the ordinal is AGE, suffix and all;
* **``university of X`` and ``u of x`` hospitals** (HOSPITAL) after ``seen at``, ``transferred from``...;
* **house-number street addresses in capitals** (``42 JUNIPER ST.``, ``45 MAPLE RIDGE ROAD, SUITE 210``: STREET,
  the suite inside), with the town, state and ZIP after them at times.

Beside them, look-alikes as plain text, never PHI (:data:`LOOKALIKES`): clinical words with the same particles
(``urine bin``, ``de novo``, ``Von Willebrand disease``, ``Van Herick grade``), ordinals that are no age over 89
(``her 80th birthday``, ``92nd percentile``, ``3rd dose``), ``University of Wisconsin solution``, ``Maple syrup urine
disease``, ``St. John's wort``. A note is written whole in lower case or in capitals a share of the time
(:data:`CASINGS`), and in the other notes a name, a hospital or a street is in one case of its own now and then.
The notes are kept as written (:func:`crfdeid.synth.ward.roughen` would make a pseudo-word of a particle).

Names and places come from ``gazetteers/`` (Census names and nicknames, fictional streets and towns), the European
lists of :mod:`crfdeid.synth.social` and the country lists of :mod:`crfdeid.synth.specialty`, or from the short
lists below (common given names and the surnames particles take, written for crfdeid, no one's data).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from functools import cache

from . import persona as ps
from . import social as so
from . import specialty as sp
from . import world as wd
from . import world_lists as wl
from .builder import NoteBuilder
from .phrases import fill
from .ward import WARD_LINES

#: Note kinds and their weights.
NOTE_KINDS = {"ward": 35, "clinic": 20, "discharge": 20, "handover": 25}
#: A note's casing: as written, whole in lower case, whole in capitals (the leak study's forms were left there).
CASINGS = {"": 40, "lower": 30, "upper": 30}
HEADERS = {
    "ward": ("Nursing note", "Nursing progress note", "Ward round", "Night shift", "Day shift", "NURSING NOTE"),
    "clinic": ("Clinic note", "Outpatient clinic", "Follow-up clinic", "Clinic letter", "OPD review"),
    "discharge": ("Discharge summary", "Discharge note", "DISCHARGE SUMMARY", "Transfer summary"),
    "handover": ("Handover", "SBAR handover", "Shift handover", "Nursing handover", "HANDOVER"),
}

#: Given names and the names particles take, by tradition (written for crfdeid: common names, no one's data).
_MALAY_M = "Abdulrahman|Ahmad|Muhammad Hafiz|Mohd Faizal|Khalid|Omar|Yusuf|Hassan|Ibrahim|Ismail|Rashid|Hamzah|Azman"
_MALAY_F = "Nurul Huda|Siti Aishah|Nur Aina|Fatimah|Aisyah|Noraini|Farah|Zainab|Mariam|Halimah|Siti Nur|Nurul Ain"
_ARABIC_FAMILY = "Rashid|Mansouri|Farsi|Hashimi|Amin|Zahrani|Saeed|Harbi|Qasimi|Khatib|Najjar|Sayegh"
_SPANISH_TAILS = {"de": "Castro|Leon|Vega|Armas|Soto|Haro|Lima", "de la": "Cruz|Fuente|Torre|Vega|Rosa|Pena|Paz|Serna",
                  "de los": "Santos|Reyes|Rios|Angeles|Cobos", "del": "Rio|Valle|Castillo|Campo|Pino|Olmo|Prado"}
_PORTUGUESE_TAILS = {"dos": "Santos|Reis|Anjos|Passos", "da": "Silva|Costa|Cunha|Rocha|Luz|Mata",
                     "de": "Souza|Lima|Assis|Moraes", "das": "Neves|Chagas", "do": "Carmo|Nascimento|Vale"}
_DUTCH_PARTICLES = ("van", "van der", "van den", "van de", "de", "ter", "Van", "Van den", "Van der", "De")
_GERMAN_PARTICLES = ("von", "von der", "von", "von dem")
_ITALIAN_GIVEN = "Giuseppe|Marco|Giulia|Francesca|Luca|Alessandro|Chiara|Matteo|Sofia|Lorenzo|Elena|Paolo|Rosa|Enzo"
_ITALIAN_TAILS = {"di": "Stefano|Marco|Luca|Giorgio|Pietro|Matteo|Benedetto", "Di": "Maggio|Napoli|Salvo|Bella",
                  "del": "Monte|Vecchio|Bianco|Piero|Greco", "Del": "Vecchio|Santo|Rosso",
                  "della": "Rosa|Valle|Torre|Croce|Porta", "Della": "Rocca|Bella", "De": "Santis|Luca|Angelis|Rosa"}
TRADITIONS = ("malay", "arabic", "spanish", "portuguese", "dutch", "german", "italian")

#: Relations in running prose (a relative's name is PATIENT).
RELATIONS = ("daughter", "son", "wife", "husband", "brother", "sister", "niece", "nephew", "neighbour", "friend",
             "granddaughter", "grandson", "son-in-law", "daughter-in-law", "partner", "cousin")
_WOMEN = frozenset({"daughter", "wife", "sister", "niece", "granddaughter", "daughter-in-law"})
_MEN = frozenset({"son", "husband", "brother", "nephew", "grandson", "son-in-law"})
DEPARTMENTS = ("cardiology", "renal", "the stroke team", "gastro", "ortho", "haematology", "palliative care", "ICU",
               "the GP practice", "radiology", "microbiology", "the pain team", "respiratory")

#: Qualifications, roles and registration bodies written after a clinician's name and its comma, never part of it
#: (``van der Merwe, MBChB``, ``VAN DER MERWE, HPCSA``): where a name is written surname first with a comma, the
#: comma does not always open its given name.
CREDENTIALS = ("MBChB", "MBBS", "MD", "FRCS", "FRACP", "MRCP", "FCS(SA)", "HPCSA", "GMC", "AHPRA", "RN", "RGN", "SRN",
               "CNS", "PT", "OT", "BPharm", "PharmD", "NP", "PA-C", "Sp.PD", "CRM", "registrar", "consultant")

#: Look-alikes never PHI, by the form they look like (curly slots drawn by :func:`crfdeid.synth.phrases.fill`).
LOOKALIKES = {
    "particle": (
        "urine bin emptied", "sharps bin replaced", "dressings into the clinical waste bin", "de novo DVT on duplex",
        "de novo AF, rate controlled", "came up by wheelchair van", "transport van booked for {10-16}00",
        "hospital van to collect at {10-16}00", "robotic-assisted (Da Vinci robot) prostatectomy planned",
        "Da Vinci robot booked for list", "known Von Willebrand disease, vWF level sent", "von Willebrand factor low",
        "De Quervain tenosynovitis R wrist, splint given", "Van Herick grade {1-4} both eyes",
        "Gilles de la Tourette syndrome, on clonidine", "ECG: de Winter T waves, cath lab aware",
        "von Hippel-Lindau syndrome, under genetics", "BTE hearing aid in L ear", "dopamine (DA) {2-10} mcg/kg/min",
        "?DI, serum Na {146-158}", "del(5q) on cytogenetics", "Van Nuys prognostic index {4-9}",
        "De Ritis ratio {1.2-2.8}", "bin bags of clothes sent home with family", "et al. criteria not met",
    ),
    "nickname": (
        "pt will ring if needs anything", "Sister aware", "son aware of plan", "family hopeful",
        "will reassess in am", "skin marks from BP cuff", "daughter updated by phone", "wife aware, not visiting today",
        "patient states he is tired", "patient says she feels better", "resident aware",
    ),
    "ordinal": (
        "celebrated her <50-89> birthday last year", "his <60-89> birthday next week",
        "husband's <70-89> birthday", "daughter's <40-70> birthday party", "their <50-70> wedding "
        "anniversary on the ward", "weight on the <90-99> percentile", "height on the <91-98> centile",
        "the 95th centile for age", "3rd dose of IV iron given", "2nd dose of vaccine due", "4th intercostal space",
        "fracture base of 5th metatarsal", "1st degree AV block", "troponin above the 99th percentile URL",
        "<2-6> admission this year", "BMI on the <91-99> percentile", "her <80-89> birthday",
    ),
    "university": (
        "kidney stored in University of Wisconsin solution", "UW solution", "University of Pennsylvania Smell "
        "Identification Test (UPSIT) {20-35}/40", "University of Washington Quality of Life questionnaire done",
        "son at university", "university-educated, retired",
    ),
    "street": (
        "Maple syrup urine disease screen neg", "St. John's wort stopped (interaction)", "ST elevation in II, III, aVF",
        "ST DEPRESSION V4-V6", "hx street drug use", "road traffic accident {2-10} yrs ago", "CT HEAD NEG",
        "{40-120} MG PO", "ADDRESS CHECKED WITH PT", "lives in a ground-floor flat, no stairs",
    ),
}
#: PHI-free lines between the forms (and :data:`crfdeid.synth.ward.WARD_LINES`).
FILLERS = ("obs stable", "NEWS {0-4}", "pain {0-6}/10, analgesia given", "mobilising with frame",
           "eating and drinking well", "bowels open", "skin intact", "IV abx continue", "plan: home when safe",
           "bloods in am", "catheter draining", "sats {93-99}% on RA", "for physio review", "PT/OT assessed")


@cache
def _nicknames() -> dict[str, tuple[str, ...]]:
    """Nicknames by first name (lower case), from the ``nicknames`` list (``robert`` -> ``bob``, ``bobby``...)."""
    out: dict[str, list[str]] = {}
    for entry in ps.pool("nicknames"):
        name, _, nick = entry.partition(" ")
        if nick:
            out.setdefault(name, []).append(nick)
    return {k: tuple(v) for k, v in out.items()}


def particle_name(rng: random.Random, tradition: str | None = None, sex: str = "") -> tuple[str, str, str]:
    """A name with a particle as ``(given, rest, short)``: the rest holds the particle (``bin Khalid``), ``short`` is
    how a title names the person (the surname with its particle; the given name for a Malay name, of ``sex``, ``M``
    or ``F``, where given)."""
    tradition = tradition or rng.choice(TRADITIONS)
    if tradition == "malay":
        female = sex == "F" if sex else rng.random() < 0.5
        given = rng.choice(wl.split(_MALAY_F if female else _MALAY_M))
        particle = rng.choice(["binti", "binti", "bte"]) if female else "bin"
        father = rng.choice([x for x in wl.split(_MALAY_M) if x != given])
        return given, f"{particle} {father}", given
    if tradition == "arabic":
        given = rng.choice(wl.split(_MALAY_M))
        if rng.random() < 0.35:
            rest = f"{rng.choice(['abu', 'Abu'])} {rng.choice([x for x in wl.split(_MALAY_M) if x != given])}"
        else:
            rest = f"{rng.choice(['al ', 'Al ', 'al-', 'Al-'])}{rng.choice(wl.split(_ARABIC_FAMILY))}"
        return given, rest, rest
    if tradition in ("spanish", "portuguese"):
        tails = _SPANISH_TAILS if tradition == "spanish" else _PORTUGUESE_TAILS
        particle = rng.choice(list(tails))
        given = rng.choice(so.europe("ES", "first") if tradition == "spanish" else wl.split(sp._NEW["BR"][0]))
        rest = f"{particle} {rng.choice(wl.split(tails[particle]))}"
        return given, rest, rest
    if tradition == "dutch":
        given = rng.choice(so.europe("NL", "first"))
        listed = [x for x in so.europe("NL", "last") if x.split()[0].lower() in ("van", "de", "ter", "den")]
        if listed and rng.random() < 0.5:
            rest = rng.choice(listed)
            return given, rest, rest
        plain = [x for x in so.europe("NL", "last") if " " not in x]
        rest = f"{rng.choice(_DUTCH_PARTICLES)} {rng.choice(plain)}"
        return given, rest, rest
    if tradition == "german":
        rest = f"{rng.choice(_GERMAN_PARTICLES)} {rng.choice([x for x in so.europe('DE', 'last') if ' ' not in x])}"
        return rng.choice(so.europe("DE", "first")), rest, rest
    particle = rng.choice(list(_ITALIAN_TAILS))
    rest = f"{particle} {rng.choice(wl.split(_ITALIAN_TAILS[particle]))}"
    return rng.choice(wl.split(_ITALIAN_GIVEN)), rest, rest


def _cased(rng: random.Random, text: str, lower: float = 0.25, upper: float = 0.15) -> str:
    """``text`` in lower case or capitals now and then (a name or a place in a case of its own in a mixed note)."""
    r = rng.random()
    return text.lower() if r < lower else text.upper() if r < lower + upper else text


def _named(rng: random.Random, sub: str, name: tuple[str, str, str], titled: bool = True) -> list:
    """A particle name as a line writes it: in full, after a title, surname first; the particle in the span."""
    given, rest, short = name
    forms: list[list] = [[(sub, f"{given} {rest}")], [(sub, f"{given} {rest}")]]
    if short != given:  # a Malay name has no surname to put first
        forms.append([(sub, f"{rest}, {given}")])
    if titled:
        if sub == "DOCTOR":
            title = rng.choice(["Dr ", "Dr. ", "dr. ", "dr ", "DR "])
        elif short == given:  # a Malay name: the title follows the particle (bin, a man's; binti, bte, a woman's)
            title = rng.choice(["Encik ", "Mr "] if rest.startswith("bin ") else ["Puan ", "Mrs ", "Ms "])
        else:
            title = rng.choice(["Mr ", "Mrs ", "Ms ", "Mr. ", "Mrs. "])
        forms.append([title, (sub, short)])
        if sub == "DOCTOR" or short == given:
            forms.append([title, (sub, f"{given} {rest}")])
    return [_cased_piece(rng, x) for x in rng.choice(forms)]


def _cased_piece(rng: random.Random, piece):
    return (piece[0], _cased(rng, piece[1])) if isinstance(piece, tuple) else piece


def _particle_line(rng: random.Random, p: ps.Patient, day: dt.date) -> list:
    """A relative, a visitor or a colleague named with a particle, in running prose."""
    rel = rng.choice(RELATIONS)
    sex = "F" if rel in _WOMEN else "M" if rel in _MEN else ""
    kin = _named(rng, "PATIENT", particle_name(rng, sex=sex), titled=rng.random() < 0.3)
    doc = _named(rng, "DOCTOR", particle_name(rng), titled=False)
    dr = rng.choice(["Dr ", "Dr. ", "dr. ", "dr ", "DR. "])
    forms = [
        ["visited by ", rng.choice(["her ", "his ", "pt's ", ""]), rel, " ", *kin,
         rng.choice(["", " this pm", " today"])],
        [rel, " ", *kin, rng.choice([" at bedside", " in to visit", " called for update", " phoned, updated"])],
        [*kin, " (", rel, ") ", rng.choice(["visited", "called", "aware of plan", "to bring clothes"])],
        ["NOK: ", *kin, " (", rel, ") ", ("PHONE", ps.phone(rng))],
        ["next of kin ", *kin, ", ", rel],
        ["family in: ", rel, " ", *kin, " and ", rng.choice(RELATIONS), " ",
         *_named(rng, "PATIENT", particle_name(rng), titled=False)],
        [dr, *doc, " from ", rng.choice(DEPARTMENTS), rng.choice([" phoned", " phoned re results", " called back"])],
        [rng.choice(["seen by ", "Seen by ", "seen by dr. ", "reviewed by ", "d/w "]), *doc,
         rng.choice(["", f" ({rng.choice(DEPARTMENTS)})", ", plan as above"])],
        [rng.choice(["discussed with ", "handed over to ", "spoke to "]), *doc,
         rng.choice([", registrar", " RN", ", charge nurse", " on call", ""])],
        [rng.choice(["Pt: ", "Name: ", "Patient: "]), *_named(rng, "PATIENT", particle_name(rng), titled=False)],
        [rng.choice(["Signed: ", "Reviewed by ", "Fitted by ", "Seen by ", "Assessed by ", ""]), *doc, ", ",
         rng.choice(CREDENTIALS), rng.choice(["", f" ({rng.choice(CREDENTIALS)})", f", {rng.choice(DEPARTMENTS)}"])],
    ]
    return rng.choice(forms)


def _nickname(rng: random.Random, who: ps.Person) -> str:
    """What the patient is called at the bedside: a nickname of the first name (the list's) or the first name."""
    nicks = _nicknames().get(who.first.lower())
    if nicks and rng.random() < 0.7:
        return rng.choice(nicks).capitalize()
    return who.first


def _time(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}{rng.choice(['', ':'])}{rng.choice(['00', '15', '30', '45'])}"


def _nickname_line(rng: random.Random, who: ps.Person, nick: str) -> list:
    """The patient's first name or nickname alone, as a nurse writes it (lower case now and then)."""
    name = ("PATIENT", nick.lower() if rng.random() < 0.3 else nick)
    doing = rng.choice(["ate well", "ate {25|50|75|100}% of breakfast", "slept well overnight", "oriented x3",
                        "settled, obs stable", "walked to the bathroom with assist", "asking for a cup of tea",
                        "says pain {2-6}/10", "up in chair", "refused bloods", "tearful this am", "in good spirits"])
    doing = fill(rng, doing)
    forms = [[name, " ", doing], ["- ", _time(rng), ": ", name, " ", doing], [_time(rng), " ", name, " ", doing],
             [rng.choice(["told ", "explained to ", "reassured ", "reminded "]), name,
              rng.choice([" about the plan", " re: fasting", "", " that family called"])],
             [rng.choice(["pt: ", "Pt: ", "Name: "]), ("PATIENT", f"{who.first} {who.last}"), ' ("', name, '")'],
             ["prefers to be called ", name], [("PATIENT", f"{who.first} {who.last}"), ", goes by ", name],
             [name, "'s ", rng.choice(RELATIONS), " in to visit"]]
    return rng.choice(forms)


def _ordinal_line(rng: random.Random, old: int, sex: str, name: tuple[str, str], day: dt.date) -> list:
    """The patient's age ``old`` (over 89) or the next as an ordinal before a birthday (AGE, suffix and all)."""
    age = ("AGE", ps.ordinal(old + rng.choice([0, 1])))
    her = rng.choice(["his " if sex == "M" else "her ", "pt's ", "the patient's "])
    thing = rng.choice(["birthday", "birthday", "bday", "birthday party", "birthday cake", "birthday card"])
    title, last = name
    forms = [[her, age, " ", thing, rng.choice(["", " today", " tomorrow", " next week", " last month"])],
             [title, " ", ("PATIENT", last), "'s ", age, " ", thing, rng.choice([" on the locker", " arrived", ""])],
             [her, age, " birthday is on ", ("DATE", ps.date_text(rng, day + dt.timedelta(days=rng.randint(1, 40)),
                                                                  rng.choice(["{d} {B}", "{B} {d}", "{m}/{d}"])))],
             ["family planning ", her, age, " ", thing],
             ["celebrated ", her, age, " ", rng.choice(["birthday", "bday"]), " on the ward"]]
    return rng.choice(forms)


@cache
def _cities() -> tuple[str, ...]:
    """Listed US cities of plain words (no ``City of Milford (balance)``)."""
    return tuple(c for c in ps.pool("cities")[:1500] if re.fullmatch(r"[A-Za-z .'-]+", c) and " of " not in c)


def _town(rng: random.Random) -> str:
    """A town a university is named after: a listed US city, a made-up UK town or a place-like head word."""
    return rng.choice([rng.choice(_cities()), rng.choice(wl.split(wl.TOWNS["UK"])), rng.choice(wd._list("NAME_HEADS"))])


def _university(rng: random.Random) -> tuple[str, str]:
    town = _town(rng)
    form = rng.choice(["University of {}", "University of {}", "Univ of {}", "U of {}", "University of {} Hospital",
                       "University of {} Medical Center", "University of {} Hospitals"]).format(town)
    return ("HOSPITAL", ps.weighted(rng, {form: 40, form.lower(): 35, form.upper(): 25}))


def _university_line(rng: random.Random, p: ps.Patient, day: dt.date) -> list:
    """A university hospital by its name (``u of ashby``, ``UNIVERSITY OF HALDEN``) after where it was seen."""
    return [rng.choice(["seen at ", "transferred from ", "followed at ", "f/u at ", "had surgery at ",
                        "records requested from ", "referred to ", "previously under ", "tx from "]),
            _university(rng), rng.choice(["", " in " + str(day.year - rng.randint(1, 9)), " for a second opinion",
                                          ", notes awaited", " last year"])]


def _street(rng: random.Random) -> str:
    """A house number and a street in capitals (``42 JUNIPER ST.``, ``45 MAPLE RIDGE ROAD, SUITE 210``)."""
    words = [rng.choice(ps.pool("street_names")).split()[0] for _ in range(rng.choice([1, 1, 1, 2]))]
    kind = rng.choice(["ST.", "ST", "STREET", "RD", "RD.", "ROAD", "AVE", "AVE.", "AVENUE", "DR.", "DRIVE", "LANE",
                       "LN", "CT", "COURT", "BLVD", "WAY", "PLACE"])
    unit = ps.weighted(rng, {"": 70, f", SUITE {rng.randint(1, 40)}0": 10, f", APT {rng.randint(1, 30)}": 10,
                             f" #{rng.randint(1, 30)}": 5, f", UNIT {rng.randint(1, 12)}": 5})
    return f"{rng.randint(1, 999)} {' '.join(words).upper()} {kind}{unit}"


def _street_line(rng: random.Random, p: ps.Patient, day: dt.date) -> list:
    """A street address in capitals, the town, state and ZIP after it at times."""
    street = ("STREET", _street(rng))
    town: list = rng.choice([[], [", ", ("CITY", p.city.upper())],
                             [", ", ("CITY", p.city.upper()), ", ", ("STATE", p.state[1]), " ", ("ZIP", p.zip)]])
    return [rng.choice(["ADDRESS: ", "Address: ", "LIVES AT ", "lives at ", "HOME: ", "D/C TO HOME, ", "NOK ADDRESS: ",
                        "AMBULANCE TO ", "Home address ", "ADDR: "]), street, *town]


_ORDINAL = re.compile(r"<(\d+)-(\d+)>")


def _lookalike(rng: random.Random, form: str) -> list:
    """A look-alike line of ``form``, its ``<LO-HI>`` an ordinal drawn in that range (``<50-89>``: ``62nd``)."""
    text = fill(rng, rng.choice(LOOKALIKES[form]))
    return [_ORDINAL.sub(lambda m: ps.ordinal(rng.randint(int(m.group(1)), int(m.group(2)))), text)]


FORMS = ("particle", "nickname", "ordinal", "university", "street")


def name_forms_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``name_forms`` note about ``p`` on ``day`` into ``b``: two to five of the five forms, one to three
    lines each (four for names with particles), their look-alikes and PHI-free lines among them, the note in one
    casing (:data:`CASINGS`)."""
    kind = ps.weighted(rng, NOTE_KINDS)
    particle_patient = rng.random() < 0.3
    if particle_patient:
        given, rest, short = particle_name(rng, sex=p.person.sex)
        who = ps.Person(given, rest, "", p.person.sex)
        malay = short == given
        title = rng.choice((["Encik", "Mr"] if malay else ["Mr", "Mr."]) if who.sex == "M" else
                           ["Puan", "Mrs"] if malay else ["Mrs", "Ms", "Mrs."])
        called = (title, short)
    else:
        who = p.person
        called = (rng.choice(["Mr", "Mr."] if who.sex == "M" else ["Mrs", "Ms", "Mrs."]), who.last)
    nick = _nickname(rng, who) if not particle_patient else given
    old = p.age if p.age >= 90 else rng.randint(90, 104)  # the age its birthday lines give
    start = len(b)
    b.line(rng.choice(HEADERS[kind]), rng.choice([" ", " - ", ", "]),
           ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{d}/{Y}", "{d} {B} {Y}", "{dd}/{mm}/{Y}", "{m}/{d}"]))))
    if rng.random() < 0.5:
        b.line(rng.choice(["Pt: ", "Patient: ", "Name: "]), ("PATIENT", f"{who.first} {who.last}"),
               *rng.choice([[], ["  MRN ", ("MEDICALRECORD", p.mrn)]]))
    lines: list[list] = []
    for form in rng.sample(FORMS, rng.randint(2, 5)):
        for _ in range(rng.randint(1, 4 if form == "particle" else 3)):  # seven traditions, many particles
            if form == "particle":
                lines.append(_particle_line(rng, p, day))
            elif form == "nickname":
                lines.append(_nickname_line(rng, who, nick))
            elif form == "ordinal":
                lines.append(_ordinal_line(rng, old, who.sex, called, day))
            elif form == "university":
                lines.append(_university_line(rng, p, day))
            else:
                lines.append(_street_line(rng, p, day))
        lines += [_lookalike(rng, form) for _ in range(rng.randint(1, 2))]
    lines += [[fill(rng, x)] for x in rng.sample(FILLERS, rng.randint(1, 4))]
    lines += [[fill(rng, x)] for x in rng.sample(WARD_LINES, rng.randint(0, 3))]
    rng.shuffle(lines)
    for pieces in lines:
        b.line(*pieces, rng.choice(["", ".", "", "."]))
    b.finish(start, ps.weighted(rng, CASINGS))
