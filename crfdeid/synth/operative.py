"""The ``operative`` style: dictated operative, endoscopy and consult notes (issue 58 item 1).

``synth:N,SEED,operative`` writes the language of the operating theatre that the ``specialty``
style lacked, in four layouts (:mod:`crfdeid.synth.operative_templates`):

* a **US transcription** (``us_op``): an ALL-CAPS header block (patient, record number, date,
  surgeon, assistant, anesthesiologist), diagnosis and procedure fields, an indications paragraph
  and a long ``DESCRIPTION OF PROCEDURE`` narrative on one line (the patient brought to the
  operating room, positioned, prepped; eight to sixteen sentences of general, bariatric, urology,
  orthopaedic, gynaecology or ENT surgery), a signature and ``D:``/``T:`` dates;
* a **UK operation note** (``uk_op``): labelled lines, the steps one a line;
* an **endoscopy report** (``endoscopy``) and a **consult** (``consult``) with drug brands in its
  medications and allergies;
* in half the notes one or two lines of nursing and disposition contexts
  (:data:`~crfdeid.synth.specialty_templates.NURSING_LINES`: ``transferred from``, ``lives in``,
  ``to ... in am``, a relative's first name, a month/day date), and relatives, transfers and
  discharge places in the narratives: long notes of few identifiers must not teach a model that
  such contexts are rare.

Clinical words come from sourced lists through vocabulary slots (:data:`OP_VOCAB`: ICD-10-PCS
body parts, devices and approaches; instruments, positions and named operations; and the slots
of :data:`crfdeid.synth.specialty_vocab.VOCAB`), never PHI: eponyms (``Kocher clamp``,
``ligament of Treitz``, ``Trendelenburg``), brands (``Vicryl``, ``Bovie``, ``Allegra``) and
surnames inside them stay unlabelled. PHI sits where such notes hold it: the header's patient,
record number, birth date and date of operation, surgeon, assistant and anaesthetist, the
referring doctor, the hospital, dictation dates, a town and relative in a consult's social history
and in the narratives, a hospital a patient was transferred from, a place of discharge.
Patients are those of the ``specialty`` style (eleven countries; US layouts draw US patients).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from . import idlines
from . import persona as ps
from . import specialty as sp
from . import world as wd
from .builder import NoteBuilder
from .operative_templates import (
    CLOSING,
    CONSULT_LINES,
    ENDO_LINES,
    HEADINGS,
    INDICATIONS,
    NARRATIVE,
    OPENING,
    UK_LINES,
    US_FIELDS,
    US_FOOTER,
    US_HEADER,
)
from .specialty_templates import NURSING_LINES
from .specialty_vocab import _case, _list

#: Note kinds and their weights (the long US transcription first: what the shipped model lacked).
NOTE_KINDS = {"us_op": 50, "uk_op": 20, "endoscopy": 12, "consult": 18}
#: Operative specialties of a narrative and their weights.
SPECIALTIES = {"general": 40, "urology": 15, "ortho": 18, "gyn": 15, "ent": 12}


def _words(name: str, upper: float = 0.0) -> Callable[[random.Random], str]:
    return lambda rng: _case(rng, rng.choice(_list(name)), upper, 0.0)


def _proc(rng: random.Random) -> str:
    return rng.choice(_list("named_procedures"))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


#: ``<slot>`` -> plain text from a sourced list (never PHI), added to the specialty style's slots.
OP_VOCAB: dict[str, Callable[[random.Random], str]] = {
    "part": _words("pcs_body_parts"), "Part": lambda rng: _cap(rng.choice(_list("pcs_body_parts"))),
    "pdev": _words("pcs_devices"), "appr": _words("pcs_approaches"), "instr": _words("surgical_instruments"),
    "pos": _words("operative_positions"), "proc": _proc, "Proc": lambda rng: _cap(_proc(rng)),
    "DRUG": lambda rng: rng.choice(_list("drug_names")).upper(),
    "BRAND": lambda rng: rng.choice(_list("brand_names")).upper(),
}
#: PHI slots beyond the specialty style's: the second and third doctor in full, a record number without label.
OP_SLOTS = {"dr2": lambda r, w, d: [("DOCTOR", " ".join(w.doctors[1]))],
            "dr3": lambda r, w, d: [("DOCTOR", " ".join(w.doctors[2]))],
            "mrn": lambda r, w, d: [sp._identifier(r, w, d)[-1]]}


def _slot(name: str) -> wd.Slot:
    return wd.slot_of(name, (OP_VOCAB,), (OP_SLOTS,), sp._slot)


def _render(rng: random.Random, w: wd.World, day: dt.date, template: str) -> list[list]:
    return wd.render(rng, w, day, template, _slot, sp._SLOT)


def _some(rng: random.Random, items: list[str], low: int, high: int) -> list[str]:
    """Between ``low`` and ``high`` of ``items``, in their order."""
    k = rng.randint(min(low, len(items)), min(high, len(items)))
    return [items[i] for i in sorted(rng.sample(range(len(items)), k))]


def _paragraph(rng: random.Random, w: wd.World, day: dt.date, label: str, sentences: list[str]) -> list:
    """One line: ``label`` then the sentences' pieces, a space between them."""
    pieces: list = [label] if label else []
    for s in sentences:
        for line in _render(rng, w, day, s):
            pieces.extend([" "] + line if pieces else line)
    return pieces


def _lines(rng: random.Random, w: wd.World, day: dt.date, b: NoteBuilder, templates: list[str]) -> None:
    for template in templates:
        for pieces in _render(rng, w, day, template):
            b.line(*pieces)


def _narrative(rng: random.Random) -> list[str]:
    spec = ps.weighted(rng, SPECIALTIES)
    return _some(rng, OPENING, 2, 4) + _some(rng, NARRATIVE[spec], 3, 10) + _some(rng, CLOSING, 1, 3)


def _us_op(rng: random.Random, w: wd.World, day: dt.date, b: NoteBuilder) -> None:
    _lines(rng, w, day, b, _some(rng, US_HEADER, 3, 7) + _some(rng, US_FIELDS, 4, 11))
    sep = rng.choice(["\n", " "])  # the heading on its own line or run into the paragraph
    b.line(*_paragraph(rng, w, day, f"{rng.choice(['INDICATIONS FOR PROCEDURE', 'INDICATIONS', 'HISTORY'])}:",
                       _some(rng, INDICATIONS, 1, 4)))
    label = rng.choice(["DESCRIPTION OF PROCEDURE", "DESCRIPTION OF OPERATION", "PROCEDURE IN DETAIL",
                        "OPERATIVE TECHNIQUE", "DETAILS OF PROCEDURE"]) + ":"
    if sep == "\n":
        b.line(label)
        label = ""
    b.line(*_paragraph(rng, w, day, label, _narrative(rng)))
    _lines(rng, w, day, b, _some(rng, US_FOOTER, 1, 4))


def _uk_op(rng: random.Random, w: wd.World, day: dt.date, b: NoteBuilder) -> None:
    for template in _some(rng, UK_LINES, 6, len(UK_LINES)):
        if template == "<steps>":
            b.line(rng.choice(["Procedure:", "Operative details:", "Details:"]))
            for i, s in enumerate(_narrative(rng), 1):
                prefix = rng.choice([f"{i}. ", "- ", ""]) if i == 1 else ""
                b.line(prefix, *_render(rng, w, day, s)[0])
        else:
            _lines(rng, w, day, b, [template])


def operative_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder, ids: bool = False) -> None:
    """Write one ``operative`` note about a patient drawn after ``p`` on ``day`` into ``b``; with ``ids``
    (the ``operative_ids`` style) one or two lines of :mod:`crfdeid.synth.idlines` after its body."""
    kind = ps.weighted(rng, NOTE_KINDS)
    w = sp.specialty_patient(rng, p)
    for _ in range(6):  # US layouts are dictated about US patients (their dates month first)
        if (w.country == "US") == (kind != "uk_op"):
            break
        w = sp.specialty_patient(rng, p)
    start = len(b)
    if rng.random() < 0.3:
        _lines(rng, w, day, b, [rng.choice(["<hosp>", "<hosp>, <town>", "<hosp>\n<street>, <town>"])])
    b.line(rng.choice(HEADINGS[kind]))
    if kind == "us_op":
        _us_op(rng, w, day, b)
    elif kind == "uk_op":
        _uk_op(rng, w, day, b)
    else:
        _lines(rng, w, day, b, _some(rng, ENDO_LINES if kind == "endoscopy" else CONSULT_LINES, 5, 15))
    for _ in range(rng.randint(1, 2) if ids else 0):
        for pieces in idlines.id_line(rng, w, day, _slot, sp._SLOT):
            b.line(*pieces)
    if rng.random() < 0.5:  # PHI in nursing and disposition contexts, as the specialty notes hold it
        for _ in range(rng.randint(1, 2)):
            _lines(rng, w, day, b, [rng.choice(NURSING_LINES)])
    b.finish(start, ps.weighted(rng, {"": 88, "upper": 12}))
