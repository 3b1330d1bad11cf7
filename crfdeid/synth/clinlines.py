"""The ``clinical`` style: clinical lines of every specialty written as not PHI beside the note's PHI (issue 58).

On the twenty-one development sets the shipped model changes about 7 % of the clinical phrases, most of
them on notes routed to its ``specialty`` member and most by the CRF (docs/synth.md, "Clinical lines
learnt as not PHI"): a heading line read as a hospital or an organisation, a capitalised word or a
score's name read as a doctor or a patient, a value or a score's fraction read as a date, an eponym or a
role read as a name. ``synth:N,SEED,clinical`` writes specialty notes made of such lines, never PHI:

* **headings** of the departments and services of ``gazetteers/departments.txt`` and the note words of
  ``note_labels.txt`` (``CARDIOLOGY CLINIC``, ``Department of Geriatrics``, ``Hepatology Review``),
  alone on their line, in title case or capitals, and section labels before a colon;
* **values with units** (``measure_abbrevs``, ``units``) and the fractions of the ``values`` style
  (:data:`crfdeid.synth.values.VALUES`: acuity, power, murmur grades, pain, GCS, weeks, blood pressures);
* **scores** of ``score_names.txt`` and ``clinical_scales.txt`` written ``N/M``, ``N`` or ``N points``;
* **eponyms** of ``eponyms.txt``, ``eponyms_more.txt`` and ``anatomy_eponyms.txt`` and the procedures
  of ``named_procedures.txt``, capitalised as notes write them;
* **roles and credentials**: ``staff_roles.txt``, the specialties of ``departments.txt`` and the
  credentials of ``titles.txt`` (``MD``, ``PA-C``, ``PharmD``) beside the clinician's name;
* **words that are also names** (a common English word of ``common_words.txt`` that ``surnames.txt`` or
  ``cities.txt`` hold and no first-name list does: ``Bell``, ``Stone``, ``Field``), capitalised at the
  head of a clinical line.

Beside them, in the same lines, the note's PHI as the ``specialty`` style writes it: the patient and
record number, clinicians after their roles, dates and month/day dates, the hospital after a heading,
a named service of the hospital (``<town> Cardiology Department``: HOSPITAL), so that the neighbours
decide, not the capital letters. Templates are layout written for crfdeid (MIT); every clinical word
comes from a list with a source header (``gazetteers/``, rebuilt by ``python gazetteers/build.py``).
"""

from __future__ import annotations

import datetime as dt
import random
from functools import cache

from . import persona as ps
from . import specialty as sp
from . import world as wd
from .builder import NoteBuilder
from .looklines import LOOK, LOOK_LINES
from .values import VALUES

#: Credentials of ``titles.txt`` (the degrees and licences, not the forms of address).
CREDENTIALS = ("MD", "M.D.", "DO", "RN", "NP", "PA", "PA-C", "PharmD", "PhD", "MSW", "LCSW", "LICSW", "RRT", "LPN")
#: Words of ``note_labels.txt`` that label an identifier or a person (``MRN``, ``DOB``, ``UHID``, ``RN``): never
#: written here as a section's label before a value (the model must go on reading what follows them as PHI).
ID_LABELS = frozenset("""mrn dob ssn acct apt appt id no number name sex gender age date time record chart pt pts
patient uhid chi ihi nhi urn hcn pps medicare nhs ip rio employee employer payroll pupil location room bed hospital
provider doctor nurse rn md coded physician resident attending service team""".split())
#: Words of a heading after a department's name (layout).
HEAD_TAILS = ("Clinic", "Consult", "Consultation", "Review", "Note", "Letter", "Report", "Service", "Unit",
              "Outpatients", "Ward Round", "MDT", "Follow-up", "Assessment", "Referral", "Discharge Summary")


@cache
def departments() -> tuple[str, ...]:
    """Departments and specialties (``gazetteers/departments.txt``) that name no place or person.

    >>> "Geriatrics" in departments()
    True
    """
    return tuple(d for d in ps.term_pool("departments") if d[:1].isupper())


@cache
def name_words() -> tuple[str, ...]:
    """Common English words (``common_words.txt``: wordfreq's most frequent) that a surname or town list holds
    and no first-name list does, capitalised: words a model takes as names at the head of a line.

    >>> words = name_words()
    >>> "Stone" in words or "Bell" in words, "Mark" in words
    (True, False)
    """
    names = {w.lower() for n in ("surnames", "cities") for w in ps.term_pool(n)}
    firsts = {w.lower() for n in ("first_male", "first_female", "nicknames", "stop_words") for w in ps.term_pool(n)}
    return tuple(w.capitalize() for w in ps.term_pool("common_words")
                 if w.isalpha() and len(w) > 3 and w.lower() in names and w.lower() not in firsts)


def _cap(rng: random.Random, text: str) -> str:
    return text[:1].upper() + text[1:] if rng.random() < 0.8 else text


def _head(rng: random.Random) -> str:
    dept = rng.choice(departments())
    form = rng.choice([f"{dept} {rng.choice(HEAD_TAILS)}", f"Department of {dept}", f"{dept}",
                       f"{rng.choice(HEAD_TAILS)}: {dept}",
                       f"{dept} - {_cap(rng, rng.choice(ps.term_pool('note_labels')))}"])
    return form.upper() if rng.random() < 0.5 else form


@cache
def _sections() -> tuple[str, ...]:
    return tuple(w for w in ps.term_pool("note_labels") + ps.term_pool("clinical_heads") if w.lower() not in ID_LABELS)


def _section(rng: random.Random) -> str:
    word = rng.choice(_sections())
    return rng.choice([word.capitalize(), word.upper(), word.capitalize(), word.title()])


def _score(rng: random.Random) -> str:
    name = rng.choice(ps.term_pool("score_names") + ps.term_pool("clinical_scales"))
    top = rng.choice([3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 18, 20, 24, 27, 30, 42, 50, 100])
    n = rng.randint(0, top)
    return rng.choice([f"{name} {n}/{top}", f"{name} {n}", f"{name} score {n}", f"{name}: {n}/{top}",
                       f"{name} {n} points", f"{name} = {n}", f"{name} {n} of {top}"])


def _value(rng: random.Random) -> str:
    name = rng.choice(ps.term_pool("measure_abbrevs"))
    number = rng.choice([str(rng.randint(1, 300)), f"{rng.randint(0, 99)}.{rng.randint(0, 9)}",
                         f"{rng.randint(1, 20)}-{rng.randint(21, 60)}"])
    unit = rng.choice(ps.term_pool("units"))
    return rng.choice([f"{name} {number} {unit}", f"{name} {number}{unit}", f"{name}: {number} {unit}",
                       f"{name} {number}", f"{name} {rng.randint(1, 99)}%", f"{number} {unit}"])


def _eponym(rng: random.Random) -> str:
    name = rng.choice(ps.term_pool("eponyms") + ps.term_pool("eponyms_more") + ps.term_pool("anatomy_eponyms")
                      + ps.term_pool("named_procedures"))
    return _cap(rng, name)


def _role(rng: random.Random) -> str:
    dept = rng.choice(departments())
    role = rng.choice(ps.term_pool("staff_roles"))
    return rng.choice([f"{role.capitalize()}", f"Consultant {dept}", f"{dept} {role.capitalize()}",
                       f"{role.capitalize()} in {dept}", f"{dept} Nurse Specialist", f"{role.upper()}",
                       f"{dept} {rng.choice(['Registrar', 'Fellow', 'Consultant', 'Attending', 'Team'])}"])


#: ``<slot>`` -> plain text (never PHI), beside the ``values`` style's fractions.
CLINICAL = {
    "head": _head, "sect": _section, "sc": _score, "val": _value, "epo_c": _eponym, "role": _role,
    "cred": lambda rng: rng.choice(CREDENTIALS), "dept": lambda rng: rng.choice(departments()),
    "nw": lambda rng: rng.choice(name_words()),
    "cw": lambda rng: _cap(rng, rng.choice(ps.term_pool("clinical_words") + ps.term_pool("icd10_words"))),
}

#: The lines of a note (PHI slots of :data:`crfdeid.synth.world.SLOTS` and :mod:`crfdeid.synth.specialty`).
LINES = [
    "<head>", "<head>", "<head> - <hosp>", "<head>: <date>", "<head>, <unit>", "<head> {|(<md>)}",
    "<sect>: <dx>. <val>, <val>.", "<sect>: <sc>; <sc>.", "<sect>: <val>", "<sect>: <val>, <val>, <val>",
    "<val>; <val>. <sc>.", "<sc> on <md>, <sc> today.", "<sc>, <sc>; {reviewed|seen} <md>.",
    "<sect>: <epo_c> {positive|negative|present|absent}{| on the right| on the left}.",
    "{Known|Suspected|Query|History of|Previous} <epo_c>; <sc>.", "<epo_c> {noted|performed|done} <md>.",
    "<cw> {noted|present|resolved|improving|stable}; <val>.", "<cw>: <val>, <sc>.",
    "<nw> {score|test|view|sign|count} {normal|abnormal|<sc>}.", "<nw> {-|:} <cw>, <val>.",
    "Seen by <role> <dr_last> on <md>; <sc>.", "<dr_full>, <cred>, <role>", "<role>: <dr_full> (<cred>)",
    "Discussed with <role> at <hosp>: <epo_c>.", "Referred to <role> ({<dept>|<head>}) <md>.",
    "<role> review <date>: <dx>.", "Plan: <epo_c>, <drug>, review in <dur> with <role> <dr_last>.",
    "VA <va>, power <power>, pain <pain>.", "BP <bp>, GCS <gcs>, <val>.", "<murmur> murmur; <sc>.",
    "<sect>: <gest>, <val>.", "<sect> <wk>: <cw>.", "Dr <dr_last> ({<role>|<cred>}), <head>",
]
#: Lines of the ``clinical_phi`` notes in place of those of words that are also names (C-phr400 left more
#: streets, towns and hospitals than C-ids800): a named service of the hospital (``<town> Cardiology Unit``) and the
#: hospital on a heading line in capitals, PHI, beside the same departments' headings written plain.
PHI_LINES = ["<hsvc>", "<head> - <hsvc>", "<HOSP>", "<HOSP> - <head>", "Referred to <hsvc> <md>; <sc>.",
             "<dept> {review|clinic} at <hsvc>: <dx>."]
#: Sign-offs (a clinician with a role and credential, and a place).
SIGN_OFFS = ["<dr_full>, <cred>", "<dr_full> <cred>, <role>, <hosp>", "<role> <dr_last>, <unit>",
             "Signed: <dr_full>, <role> <date>", "<nurse>, <role>, <head>"]


def _service(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A named service of the hospital (``Northfield Geriatrics Unit``): HOSPITAL, its department's words too."""
    head = rng.choice([w.town, w.hospital.split()[0]])
    name = f"{head} {rng.choice(departments())} {rng.choice(['Unit', 'Department', 'Service', 'Centre', 'Clinic'])}"
    return [("HOSPITAL", name.upper() if rng.random() < 0.3 else name)]


#: PHI slots of this style: a named service, the hospital in capitals.
PHI_SLOTS = {"hsvc": _service, "HOSP": lambda r, w, d: [("HOSPITAL", w.hospital.upper())]}


def _slot(name: str) -> wd.Slot:
    """A ``<slot>`` of this style: a plain draw of :data:`CLINICAL` or the ``values`` style, else a PHI slot."""
    return wd.slot_of(name, (CLINICAL, VALUES, LOOK), (PHI_SLOTS,), sp._slot)


def render(rng: random.Random, w: wd.World, day: dt.date, template: str) -> list[list]:
    """``template`` as lines of builder pieces (clinical slots plain, PHI slots as ``(SUBTYPE, text)``)."""
    return wd.render(rng, w, day, template, _slot, sp._SLOT)


@cache
def _lines(phi: bool, look: bool = False) -> tuple[str, ...]:
    if look:  # two in three lines a falsified form (look16)
        return tuple(LINES) + tuple(LOOK_LINES) * 2
    return tuple(line for line in LINES if "<nw>" not in line) + tuple(PHI_LINES) if phi else tuple(LINES)


def clinical_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder, phi: bool = False,
                  look: bool = False) -> None:
    """Write one ``clinical`` note about a patient drawn after ``p`` on ``day`` into ``b``; with ``phi`` (the
    ``clinical_phi`` style) no line of words that are also names, and :data:`PHI_LINES` instead; with ``look``
    (the ``clinical_look`` style) the lines of :data:`crfdeid.synth.looklines.LOOK_LINES` too."""
    w = sp.specialty_patient(rng, p)
    start = len(b)
    for pieces in render(rng, w, day, rng.choice(["<head>", "<head> - <hosp>", "<head>: <date>", "<hosp> <head>"])):
        b.line(*pieces)
    if rng.random() < 0.7:
        name = wd._person_name(rng, w.first, w.last, w.sex, w.nick)
        b.line(rng.choice(["Name: ", "Patient: ", "PATIENT: ", "Pt: ", ""]), *name,
               rng.choice(["  ", "   ", "\t"]), *sp._identifier(rng, w, day))
    lines = _lines(phi, look)
    chosen = [rng.choice(lines) for _ in range(rng.randint(5, 11))] + [rng.choice(SIGN_OFFS)]
    b.finish(start, ps.weighted(rng, {"": 70, "lower": 18, "upper": 12}),  # telegraphic or all-caps notes too
             (pieces for template in chosen for pieces in render(rng, w, day, template)))
