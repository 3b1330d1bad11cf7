"""The ``history_dates`` style: the two date forms of a history list the specialty member lost (issue 58, learn54),
and the ``history_events`` style: a past event's month and year in a sentence (learn55).

learn50 and learn53 (docs/history/check46-rule.md) each left, in one of their four draws, a PhysioNet development
note's month/day glued to a history heading's colon (the form ``HX:8/30``) that the base found; the ICU notes they
learn write a heading, a blank, then the items (:func:`crfdeid.synth.nursing_events._past_history`), never the
date glued. ``synth:N,SEED,history_dates`` writes short clinic, consult, pre-operative and ward notes whose history
lines carry the forms:

* **a month/day glued to a heading's colon** (``PRESENT HX:8/30 FALL AT HOME``, ``ADMITTED:9/2``, ``LAST
  SEEN:6/11``) or written after it with a blank: DATE;
* **past history items with their year** (``S/P CABG '92``, ``PMH: MI '04, TURP 2089``, ``HX: CVA ('98)``), the
  forms of :func:`crfdeid.synth.persona.past_year` (the apostrophe with the year or outside it), and a
  procedure's month/day after it (``PICC 9/2``): DATE.

Beside them, look-alikes glued to a heading's colon the same way, never PHI (:data:`LOOKALIKES`: ``BP:120/80``,
``POWER:4/5``, ``PAIN:3/10``, ``VA:6/9``, ``PS:10/5``): a fraction after a colon is a date only where the heading
dates something. A note is written whole in lower case or in capitals a share of the time (:data:`CASINGS`).
``synth:N,SEED,history_events`` (learn55; learn54 lost, in one draw, a PhysioNet note's month and two-digit year
after ``in`` in a history sentence) writes the same notes with sentences of past events dated by a month and year
after a preposition or alone (``Graft re-occluded in 11/91, treated with PTCA``, ``Dx CHF 4/2079``, ``on HD since
6/88``): DATE; beside them fractions in the same sentences that are no date (:data:`EVENT_LOOKALIKES`: ``cultures
positive in 2/4 bottles``, ``power 4/5 in L leg``, ``disease in 3/4 vessels``).
Every word is written for crfdeid (history headings and items of general clinical use); dates are drawn around the
note's day, no one's data.
"""

from __future__ import annotations

import datetime as dt
import random

from . import persona as ps
from .builder import NoteBuilder
from .phrases import fill
from .ward import WARD_LINES

#: Note kinds, with their headers.
HEADERS = ("Clinic note", "CONSULT NOTE", "Pre-op assessment", "Nursing note", "Admission note", "Progress note",
           "GERIATRICS CONSULT", "Pre-assessment clinic", "Medical review", "NURSING ADMISSION NOTE")
#: A note's casing: as written, whole in lower case, whole in capitals.
CASINGS = {"": 50, "lower": 20, "upper": 30}
#: Headings that date what follows them, and what a line after its date says.
DATED_HEADINGS = ("PRESENT HX:", "HX:", "HPI:", "ADMITTED:", "LAST SEEN:", "SEEN:", "ONSET:", "FALL:", "LAST BM:",
                  "CXR:", "ECHO:", "LAST ADMIT:", "D/C:", "Hx:", "Admitted:", "Last seen:", "Onset:")
EVENTS = ("FALL AT HOME", "DECREASED PO INTAKE", "SOB, CXR WITH EFFUSION", "INCREASED CONFUSION", "CHEST PAIN",
          "FOUND ON FLOOR BY FAMILY", "FEVER AND RIGORS", "WEAKNESS L ARM", "REFERRED BY PCP", "LOW SATS AT REHAB",
          "poor appetite", "worsening SOB on exertion", "seen in ED, sent home", "new AF, rate controlled")
#: Past history items and the procedures a month/day follows.
ITEMS = ("CABG", "CVA", "MI", "AVR", "HIP FX", "PNA", "TURP", "CHOLE", "PPM", "AAA REPAIR", "TKR", "THR", "PCI",
         "APPY", "MVR", "lap chole", "R TKA", "L THA", "stent to LAD", "AICD")
PROCEDURES = ("PICC", "PEG", "TRACH", "LINE PLACED", "INTUBATED", "EXTUBATED", "CT HEAD", "MRI", "LP", "EGD",
              "BRONCH", "FOLEY CHANGED")
#: Look-alikes: values glued to a heading's colon (or after a blank), no date, never PHI.
LOOKALIKES = ("BP:{90-160}/{50-95}", "HR:{60-120}", "POWER:{3-5}/5", "STRENGTH:{3-5}/5 BILAT", "PAIN:{0-9}/10",
              "VA:6/{6-60}", "PS:{5-15}/5", "PEEP:{5-10}", "GCS:{9-15}", "TABS:1/2 BID", "RATIO:1:{2-4}",
              "CAGE:{0-4}/4", "ECOG:{0-3}", "I/O:{800-2400}/{600-2000}", "MAP:{60-90}", "MURMUR:{2-4}/6 SEM",
              "REFLEXES:{1-3}/4", "EF:{25-60}%", "HX: HTN, DM2", "PMH: COPD on home O2", "HX: 2/3 VESSEL DISEASE",
              "Hx: {2-4}/5 power R leg", "ONSET: {2-6} days ago", "SEEN: by PT, OT")


def _month_day(rng: random.Random, day: dt.date, back: int) -> tuple[str, str]:
    return ("DATE", ps.date_text(rng, day - dt.timedelta(days=rng.randint(1, back)), "{m}/{d}"))


def _dated_line(rng: random.Random, day: dt.date) -> list:
    """``PRESENT HX:8/30 FALL AT HOME``: a month/day glued to its heading (or after a blank)."""
    return [rng.choice(DATED_HEADINGS), rng.choice(["", "", "", " "]), _month_day(rng, day, 90),
            *rng.choice([[], [" ", rng.choice(EVENTS)], [" - ", rng.choice(EVENTS)]])]


def _history_line(rng: random.Random, p: ps.Patient, day: dt.date) -> list:
    """``S/P CABG '92, TURP 2089``: past history items with their years; a procedure with its month/day."""
    out: list = [rng.choice(["PMH: ", "HX: ", "PMHX ", "S/P ", "PAST HX: ", "Hx of ", "PMH:"])]
    for n, item in enumerate(rng.sample(ITEMS, rng.randint(1, 3))):
        year = ps.past_year(rng, p)
        out += [", " if n else "", item, " ", *(["(", *year, ")"] if rng.random() < 0.2 else year)]
    if rng.random() < 0.4:
        out += [", ", rng.choice(PROCEDURES), rng.choice([" ", " ON ", " "]), _month_day(rng, day, 30)]
    return out


#: Past events a month and year date (``{p}``: the preposition and the date go there), and what followed.
EVENTS_DATED = ("Graft re-occluded{p}", "Restenosis of LAD stent{p}", "Dx with CHF{p}", "First seizure{p}",
                "Admitted for PNA{p}", "Started on HD{p}", "Last colonoscopy{p}, normal",
                "CVA{p} w/ residual L weakness", "Fell and broke R hip{p}", "DVT L leg{p}", "Pacemaker placed{p}",
                "Dx breast CA{p}",
                "MI{p}", "Quit smoking{p}", "Last echo{p} EF 40%", "Intubated for COPD flare{p}",
                "new onset AF{p}", "UGIB{p}", "TURP{p}", "lap chole{p}", "admitted w/ DKA{p}")
TREATMENTS = ("", "", " tx w/ PTCA", ", treated with stent", " tx w/ abx x 10 days", ", no sequelae", " - surgery",
              ", on coumadin since", " s/p ORIF")
PREPOSITIONS = (" in ", " in ", " in ", " on ", " since ", " around ", " ", " - ", " (", " in early ")
#: Fractions in the same sentences that are no date, never PHI.
EVENT_LOOKALIKES = ("Blood cultures positive in {1-3}/4 bottles", "Power {3-5}/5 in L leg since admission",
                    "Disease in {2-3}/3 vessels on cath", "Pain {2-8}/10 in R knee since fall",
                    "ST depression in {2-4}/12 leads", "Relief in {1-3}/4 attacks with SL NTG",
                    "Murmur {2-3}/6 since childhood", "Reflexes {1-3}/4 in both knees")


def _event_line(rng: random.Random, p: ps.Patient) -> list:
    """``Graft re-occluded in 11/91 tx w/ PTCA``: a past event dated by its month and year (two digits or four)."""
    year = p.admit.year - rng.randint(1, 30)
    day = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    date = ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{y}", "{m}/{y}", "{mm}/{y}", "{m}/{Y}"])))
    prep = rng.choice(PREPOSITIONS)
    head, tail = rng.choice(EVENTS_DATED).split("{p}")
    return [head, prep, date, ")" if prep == " (" else "", tail, rng.choice(TREATMENTS) if not tail else ""]


def history_events_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``history_events`` note: :func:`history_dates_note`'s with sentences of dated past events and
    fractions that are no date in the same sentences."""
    history_dates_note(rng, p, day, b, events=True)


def history_dates_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder, events: bool = False) -> None:
    """Write one ``history_dates`` note about ``p`` on ``day`` into ``b``: one to three lines of each form, as many
    look-alikes and ward lines among them, the note in one casing (:data:`CASINGS`). ``events``: two to four dated
    past events and one to three of :data:`EVENT_LOOKALIKES` besides (``history_events``)."""
    start = len(b)
    b.line(rng.choice(HEADERS), rng.choice([" ", " - ", ", "]),
           ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{d}/{Y}", "{d} {B} {Y}", "{m}/{d}"]))))
    if rng.random() < 0.5:
        b.line(rng.choice(["Pt: ", "Patient: ", "NAME: "]), ("PATIENT", f"{p.person.first} {p.person.last}"),
               *rng.choice([[], ["  MRN ", ("MEDICALRECORD", p.mrn)]]))
    lines = [_dated_line(rng, day) for _ in range(rng.randint(1, 3))]
    lines += [_history_line(rng, p, day) for _ in range(rng.randint(1, 3))]
    lines += [[fill(rng, x)] for x in rng.sample(LOOKALIKES, rng.randint(2, 5))]
    lines += [[fill(rng, x)] for x in rng.sample(WARD_LINES, rng.randint(1, 3))]
    if events:
        lines += [_event_line(rng, p) for _ in range(rng.randint(2, 4))]
        lines += [[fill(rng, x)] for x in rng.sample(EVENT_LOOKALIKES, rng.randint(1, 3))]
    rng.shuffle(lines)
    for pieces in lines:
        b.line(*pieces, rng.choice(["", ".", ""]))
    b.finish(start, ps.weighted(rng, CASINGS))
