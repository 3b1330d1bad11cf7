"""The ``dictated`` style: dictated notes of non-operative specialties (issue 58 item 1).

``synth:N,SEED,dictated`` writes what the ``operative`` style left out: US transcriptions of clinic
and ward medicine (urology, gastroenterology, cardiology, orthopaedics, neurology, ENT,
ophthalmology, dermatology, pulmonary, endocrinology, rheumatology, internal medicine) in four
layouts (:mod:`crfdeid.synth.dictated_templates`):

* a **history and physical or consult** (``hp``): an optional header block (patient, record number,
  birth date, date of service, referring and attending doctor), then ALL-CAPS headings with colons
  (``CHIEF COMPLAINT:``, ``HISTORY OF PRESENT ILLNESS:`` ... ``IMPRESSION:``, ``PLAN:``), each
  heading run into its paragraph or on its own line, the history a long narrative on one line, the
  examination system by system with eponymous signs and scores, drug lists with brands and doses,
  laboratory values; a signature and ``D:``/``T:`` dates;
* a **discharge summary** (``discharge``), a **clinic letter** (``letter``: letterhead, date, the
  referring doctor's address, ``RE:``, ``Dear Dr. X:``) and a **SOAP note** (``soap``);
* in four notes of ten one or two lines of nursing and disposition contexts
  (:data:`~crfdeid.synth.specialty_templates.NURSING_LINES`), as the operative notes have them.

Clinical words come from sourced lists through vocabulary slots (:data:`DICT_VOCAB`, and those of
:data:`crfdeid.synth.operative.OP_VOCAB` and :data:`crfdeid.synth.specialty_vocab.VOCAB`), never
PHI: eponymous signs (``Murphy sign``), brands (``Allegra``), named scores and anatomy stay
unlabelled. PHI is sparse, where such notes hold it: the patient in the header or the letter's
``RE:``, dates of service, admission, discharge and dictation, the referring and attending
doctor, a hospital, a town in the social history or the letter's address.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from . import persona as ps
from . import specialty as sp
from . import world as wd
from .builder import NoteBuilder
from .dictated_templates import (
    COMPLAINTS,
    DISCHARGE_SECTIONS,
    EXAM,
    EXAM_SPEC,
    FOOTER,
    HEADER,
    HEADINGS,
    HP_SECTIONS,
    HPI,
    HPI_OPEN,
    LABS,
    LETTER_CLOSE,
    LETTER_OPEN,
    PLAN,
    ROS,
    SOAP,
    SPECIALTIES,
)
from .operative import OP_SLOTS, OP_VOCAB, _some
from .specialty_templates import NURSING_LINES
from .specialty_vocab import VOCAB, _dx, _list

#: Note kinds and their weights (the history and physical first: the layout the held-back notes share).
NOTE_KINDS = {"hp": 45, "discharge": 20, "letter": 15, "soap": 20}


def _lab_value(rng: random.Random, low: float, high: float, places: int) -> str:
    return f"{rng.uniform(low, high):.{places}f}"


def _lab(rng: random.Random) -> str:
    name, low, high, places, unit = rng.choice(LABS)
    value = _lab_value(rng, low, high, places) + unit
    return rng.choice([f"{name} {value}", f"{name} of {value}", f"{name}: {value}", f"{name.upper()} {value}"])


def _vitals(rng: random.Random) -> str:
    parts = [f"{rng.choice(['Blood pressure', 'BP'])} {rng.randint(92, 178)}/{rng.randint(52, 104)}",
             f"{rng.choice(['pulse', 'heart rate', 'HR'])} {rng.randint(48, 118)}",
             f"{rng.choice(['respirations', 'RR'])} {rng.randint(12, 24)}",
             f"{rng.choice(['temperature', 'temp'])} {rng.uniform(96.8, 101.2):.1f}",
             f"{rng.choice(['oxygen saturation', 'O2 sat', 'SpO2'])} {rng.randint(88, 100)}% on room air",
             f"weight {rng.randint(48, 140)} kg"]
    return ", ".join(_some(rng, parts, 3, 6))


def _medication(rng: random.Random) -> str:
    name = VOCAB["brand"](rng) if rng.random() < 0.35 else VOCAB["drug"](rng)
    dose = rng.choice(["5 mg", "10 mg", "20 mg", "25 mg", "40 mg", "50 mg", "81 mg", "100 mg", "500 mg", "1000 mg",
                       "0.4 mg", "75 mcg", "2 puffs", "30 units", "1 tablet"])
    when = rng.choice(["daily", "twice daily", "b.i.d.", "t.i.d.", "at bedtime", "q.h.s.", "as needed", "every morning",
                       "weekly", "p.r.n."])
    return rng.choice([f"{name} {dose} {when}", f"{name} {dose}", f"{name} {when}"])


def _medlist(rng: random.Random) -> str:
    meds = [_medication(rng) for _ in range(rng.randint(2, 7))]
    if rng.random() < 0.3:
        text = " ".join(f"{i}. {m}{'' if m.endswith('.') else '.'}" for i, m in enumerate(meds, 1))
    else:
        text = rng.choice([", ", "; "]).join(meds)
    return text if text.endswith(".") else text + "."


def _sign(rng: random.Random) -> str:
    name = rng.choice([e for e in _list("eponyms") if e[:1].isupper() and " " not in e])
    return rng.choice([f"{name} sign", f"{name}'s sign", f"{name} test", f"{name} maneuver", f"{name}'s test"])


#: ``<slot>`` -> plain text from a sourced list or a grammar (never PHI), beside the other styles' slots.
DICT_VOCAB: dict[str, Callable[[random.Random], str]] = {
    "Dx": lambda rng: (lambda d: d[:1].upper() + d[1:])(_dx(rng)), "cc": lambda rng: rng.choice(COMPLAINTS),
    "lab": _lab, "lab_name": lambda rng: rng.choice(LABS)[0], "vitals": _vitals, "medlist": _medlist, "sign": _sign,
}
#: PHI slots beyond the other styles': the patient's surname alone, as a letter names them.
DICT_SLOTS = {"pt_last": lambda r, w, d: [("PATIENT", w.last)]}


def _slot(name: str) -> wd.Slot:
    return wd.slot_of(name, (DICT_VOCAB, OP_VOCAB), (DICT_SLOTS, OP_SLOTS), sp._slot)


#: Pronoun alternatives of the templates, drawn by the patient's sex rather than at random.
_PRONOUNS = {"{He|She}": ("He", "She"), "{he|she}": ("he", "she"), "{His|Her}": ("His", "Her"),
             "{his|her}": ("his", "her"), "{her|his}": ("his", "her"), "{him|her}": ("him", "her")}


class _Writer:
    """One note's drawing state: the patient's world, the day and the specialty."""

    def __init__(self, rng: random.Random, w: wd.World, day: dt.date, spec: str, b: NoteBuilder) -> None:
        self.rng, self.w, self.day, self.spec, self.b = rng, w, day, spec, b

    def render(self, template: str) -> list[list]:
        """``template`` as lines of pieces, the specialty's words put in first."""
        text = template.replace("<exam_spec>", EXAM_SPEC[self.spec]).replace(
            "<spec_word>", SPECIALTIES[self.spec].lower())
        for pair, (male, female) in _PRONOUNS.items():  # one patient, one sex
            text = text.replace(pair, male if self.w.sex == "M" else female)
        return wd.render(self.rng, self.w, self.day, text, _slot, sp._SLOT)

    def lines(self, templates: list[str]) -> None:
        for template in templates:
            for pieces in self.render(template):
                self.b.line(*pieces)

    def sentences(self, source: str | list[str], low: int, high: int) -> list[str]:
        """Sentence templates of a section: a named pool (``<hpi>``, ``<exam>``...) or the list given."""
        rng = self.rng
        if source == "<hpi>":
            return _some(rng, HPI_OPEN, 1, 2) + _some(rng, HPI[self.spec], max(low - 2, 1), max(high - 2, 1))
        pools = {"<exam>": EXAM, "<ros>": ROS, "<plan>": PLAN}
        if isinstance(source, str):
            return _some(rng, pools[source], low, high)
        return _some(rng, source, low, high)

    def section(self, heading: str, source: str | list[str], low: int, high: int, run_in: bool) -> None:
        """A heading with a colon and its sentences on one line (or the heading on a line of its own)."""
        label = self.render(heading)[0][0] + ":"
        pieces: list = []
        for s in self.sentences(source, low, high):
            for line in self.render(s):
                pieces.extend([" "] + line if pieces else line)
        if run_in:
            self.b.line(label, " ", *pieces)
        else:
            self.b.line(label)
            self.b.line(*pieces)

    def sections(self, table: list) -> None:
        run_in = self.rng.random() < 0.75  # a transcriptionist keeps one habit through a note
        for heading, source, low, high in table:
            if low > 0 or self.rng.random() < 0.5:
                self.section(heading, source, max(low, 1), high, run_in)


def _hp(n: _Writer) -> None:
    n.lines(_some(n.rng, HEADER, 0, 5))
    n.sections(HP_SECTIONS)
    n.lines(_some(n.rng, FOOTER, 1, 4))


def _discharge(n: _Writer) -> None:
    n.lines(["{PATIENT|PATIENT NAME|NAME}: <pt>{   MR#: <mrn>|   MRN: <mrn>|}",
             n.rng.choice(["{ADMISSION DATE|DATE OF ADMISSION}: <date>   {DISCHARGE DATE|DATE OF DISCHARGE}: <date>",
                           "{ADMISSION DATE|DATE OF ADMISSION}: <date>\n{DISCHARGE DATE|DATE OF DISCHARGE}: <date>"])])
    n.lines(_some(n.rng, ["{ATTENDING|ATTENDING PHYSICIAN}: <dr_full>, MD", "{PRIMARY CARE PHYSICIAN|PCP}: <dr2>, MD"],
                  0, 2))
    n.sections(DISCHARGE_SECTIONS)
    n.lines(_some(n.rng, FOOTER, 1, 4))


def _letter(n: _Writer) -> None:
    n.lines(_some(n.rng, ["<date>", "Dr. <dr2>\n<street>\n<town>, <region> <postcode>", "RE: <pt>{   DOB: <dob>|}"],
                  2, 3))
    n.lines(["Dear Dr. <dr_last>:" if n.rng.random() < 0.8 else "Dear Colleague,"])
    n.lines([n.rng.choice(LETTER_OPEN)])
    n.section("{HISTORY|HISTORY OF PRESENT ILLNESS}", "<hpi>", 2, 4, True)
    for heading, source, low, high in (("{MEDICATIONS|CURRENT MEDICATIONS}", ["<medlist>."], 1, 1),
                                       ("{PHYSICAL EXAMINATION|EXAMINATION|ON EXAMINATION}", "<exam>", 2, 5),
                                       ("{IMPRESSION AND PLAN|ASSESSMENT AND PLAN|IMPRESSION}", "<plan>", 2, 4)):
        n.section(heading, source, low, high, True)
    n.lines(_some(n.rng, LETTER_CLOSE, 1, 2) + ["<dr_full>, {MD|M.D.|MD, FACP|MD, FACC|DO}"])


def _soap(n: _Writer) -> None:
    n.lines(_some(n.rng, ["{Patient|PATIENT|Name}: <pt>{   DOB: <dob>|}", "{Date|DATE OF SERVICE|Visit}: <date>",
                          "{Provider|PROVIDER}: <dr_full>, {MD|DO|NP|PA-C}"], 1, 3))
    n.sections(SOAP)
    if n.rng.random() < 0.6:
        n.lines(["<dr_full>, {MD|DO|NP}"])


_KINDS = {"hp": _hp, "discharge": _discharge, "letter": _letter, "soap": _soap}


def dictated_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``dictated`` note about a patient drawn after ``p`` on ``day`` into ``b``."""
    kind = ps.weighted(rng, NOTE_KINDS)
    spec = rng.choice(list(SPECIALTIES))
    w = sp.specialty_patient(rng, p)
    for _ in range(8):  # US transcriptions are dictated about US patients (their dates month first)
        if w.country == "US":
            break
        w = sp.specialty_patient(rng, p)
    n = _Writer(rng, w, day, spec, b)
    start = len(b)
    if kind == "letter" or rng.random() < 0.25:
        n.lines([rng.choice(["<hosp>", "<hosp>, <town>", "<hosp>\n<street>, <town>, <region> <postcode>"])])
    heading = rng.choice(HEADINGS[kind])
    word = SPECIALTIES[spec] if heading.replace("{spec}", "").isupper() else SPECIALTIES[spec].title()
    b.line(heading.replace("{spec}", word))
    _KINDS[kind](n)
    if rng.random() < 0.4:  # PHI in nursing and disposition contexts, as the specialty notes hold it
        n.lines([rng.choice(NURSING_LINES) for _ in range(rng.randint(1, 2))])
    b.finish(start, ps.weighted(rng, {"": 90, "upper": 10}))
