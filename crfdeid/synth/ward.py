"""The ``ward`` style: synthetic notes written more like real ward notes than the i2b2 style.

Real ICU nursing notes are long stretches of PHI-free shorthand, mostly lower case, with a
name or a date now and then, typing errors, and names no dictionary lists or that are
also plain words. The ``ward`` style (``synth:N,SEED,ward``) keeps the i2b2-style
generators and changes what they write:

* **note kinds**: mostly nursing notes (:func:`ward_note`), few discharge summaries and letters;
* **PHI density**: a ward note has a PHI-bearing event or two in about half the notes and
  many PHI-free lines (:data:`WARD_LINES`, written for crfdeid from general clinical
  knowledge, never from a corpus), so that PHI is a few spans per thousand tokens, not
  seventy;
* **case**: 45% of notes all lower case (names too), 30% upper, 25% mixed;
* **HIPAA ages and weekdays**: an age under 90 is not PHI under the Safe Harbor rule and a
  weekday is not a date of the patient: their spans are dropped, the text stays;
* **variants** (:func:`roughen`): a share of the names and places replaced by letter strings
  found in no list, keeping their shape (Sibanda & Uzuner 2006's *unknown*), or by names
  that are also plain words (their *ambiguous*: Hope, Bell, Baker, Swan...), the same words
  also used as plain words in the PHI-free lines; and typing errors in words of both kinds.

>>> import random
>>> from crfdeid.document import Document, make_span
>>> doc = Document("1", "AGE 67 SEEN BY DR BAKER", [make_span(4, 6, "AGE"), make_span(18, 23, "DOCTOR")])
>>> [(s.subtype, doc.text[s.start:s.end]) for s in roughen(random.Random(0), doc, typo=0, unknown=0, ambiguous=0).spans]
[('DOCTOR', 'BAKER')]
"""

from __future__ import annotations

import datetime as dt
import random

from ..document import Document, make_span
from ..schema import PERSON_SUBTYPES
from . import persona as ps
from .builder import NoteBuilder
from .nursing import HEADERS, nursing_casing
from .nursing_events import EVENTS, ROLES, social_line
from .phrases import PLAN, SHIFT, SYSTEMS, fill

#: PHI-free ward shorthand, lower case as typed (recased with the note). Slots as in :func:`fill`.
WARD_LINES = [
    "pt resting comfortably in bed, call bell in reach", "call bell within reach, bed alarm on",
    "foley draining clear yellow urine {20-80}cc/hr", "foley d/c'd, voiding qs", "swan pulled back {1-4}cm per cxr",
    "hope to wean to {cpap|ps} in am", "family hopeful, questions answered", "pt in good spirits today",
    "will chase k with {20|40}meq kcl", "baker's cyst r knee on u/s", "chest tube to {-20|-10}cm sxn, no air leak",
    "lungs {coarse|clear|diminished} bilat, sx'd for {sm|mod|lg} amt {thick|thin} {tan|white|yellow} sputum",
    "abd soft, nt/nd, +bs x4", "tf @ goal {40-80}cc/hr, residuals <{30|50}cc", "bs {90-250}, {2-8}u riss given",
    "pt turned and repositioned q2h, skin intact", "oob to chair w/ assist x{1|2}, tol well",
    "ambulated in hall w/ pt", "npo after mn for {ercp|egd|cath|ir}", "ivf d/c'd, saline locked",
    "wbc {8.0-19.0}, tmax {98.6-101.9}", "blood cx x2 sent", "urine cx pending", "cdiff neg x{1|2}",
    "lasix {20|40|80}mg iv given w/ good effect, uo {200-900}cc", "neg {200-1500}cc for the day",
    "dsg changed, site c/d/i", "pain controlled w/ {tylenol|oxycodone|morphine|dilaudid} prn",
    "c/o nausea, zofran {4|8}mg iv given w/ relief", "pt anxious overnight, reassurance given",
    "ativan {0.5|1}mg po x1 for sleep", "slept in naps", "sats {92-99}% on {2-6}l nc",
    "weaned to {30|40|50}% fm", "abg {7.28-7.48}/{32-55}/{60-140}",
    "vent: ac {400-600}x{12-20} peep {5|8|10} fio2 {40|50}%",
    "lopressor {5|12.5|25}mg given, hr down to {70-90}s", "dilt gtt @ {5-15}mg/hr",
    "heparin gtt @ {600-1400}u/hr, ptt {40-90}",
    "skin warm and dry", "mouth care done", "pt bathed, linen changed", "lytes repleted per scale",
    "cont on levo {0.02-0.30}mcg/kg/min", "neo weaned off @ {10-23}{00|30}",
    "a-line dampened, flushed and recalibrated", "r ij cvl, dsg c/d/i", "peripheral pulses palp",
    "trace edema bil le", "pt requesting to speak w/ case mgmt",
    "sw consulted re: d/c planning", "pt asked about going home, explained plan", "code status full",
    "states he feels better today", "states she is tired", "denies sob or cp", "tolerating clears, will advance",
    "mark on r arm from prior iv", "grant application for rehab pending w/ case mgmt", "lg soft bm x1, guaiac neg",
    "ct chest done, no pe", "echo today ef {25-60}%", "awaiting bed on floor", "transfer orders written",
]
#: Names that are also plain words (Sibanda & Uzuner 2006's ambiguous PHI); used as names by
#: :func:`roughen`, and as plain words in :data:`WARD_LINES`.
AMBIGUOUS = ["Hope", "Bell", "Baker", "Swan", "Foley", "Chase", "Will", "Mark", "Grant", "Faith", "Joy",
             "Rose", "Guy", "Drew", "Wade", "Hunter", "Walker", "Page", "Rich", "Young", "Brown", "Green",
             "May", "June", "Cook", "Lane", "Hill", "Stone", "Frank", "Dawn"]
_VOWELS, _CONSONANTS = "aeiouy", "bcdfghjklmnprstvwz"
_NAME_LIKE = frozenset({"PATIENT", "DOCTOR", "CITY", "HOSPITAL", "STREET", "ORGANIZATION", "DEPARTMENT",
                        "LOCATION-OTHER", "STATE", "COUNTRY"})
_WEEKDAYS = frozenset(d.lower() for d in ps.DAYS) | frozenset(d[:3].lower() for d in ps.DAYS)


def ward_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ward-style nursing note about ``p`` on ``day`` into ``b``."""
    mode = nursing_casing(rng, b, {"lower": 45, "upper": 30, "mixed": 25})
    start = len(b)
    header = rng.choice(HEADERS + ["nursing progress note", "npn", "nsg"])
    if rng.random() < 0.15:
        b.line(header, " ", ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{d}", "{m}/{d}/{Y}", "{mm}/{dd}"]))))
    else:
        b.line(header)
    lines = [fill(rng, x) for x in rng.sample(WARD_LINES, rng.randint(4, 12))]
    lines += [fill(rng, x) for x in rng.sample(SHIFT, rng.randint(0, 3))]
    rng.shuffle(lines)
    events = rng.sample(range(len(EVENTS)), rng.choices([0, 1, 2], weights=[60, 32, 8])[0])
    at = sorted(rng.sample(range(len(lines) + 1), len(events)))
    for k, line in enumerate(lines + [None]):
        while at and at[0] == k:
            at.pop(0)
            EVENTS[events.pop()](rng, p, day, b)
        if line is not None:
            b.line(line, rng.choice([".", "", ";", ". "]))
    for name in rng.sample(list(SYSTEMS), rng.randint(2, len(SYSTEMS))):
        b.add(rng.choice([f"{name}: ", f"{name.lower()}: ", f"{name}- ", f"{name.lower()} "]))
        b.add(". ".join(fill(rng, ph) for ph in rng.sample(SYSTEMS[name], rng.randint(1, 4))))
        if rng.random() < 0.04:
            b.add(". ", *ps.doctor_name(rng, rng.choice(p.doctors)), " aware")
        elif rng.random() < 0.1:
            b.add(". ", rng.choice(ROLES), " aware")
        b.line(".")
    if rng.random() < 0.12:
        social_line(rng, p, day, b)
    b.line(rng.choice(["PLAN: ", "A/P: ", "plan: ", "p: "]),
           ", ".join(fill(rng, ph) for ph in rng.sample(PLAN, rng.randint(1, 3))), ".")
    if rng.random() < 0.12:
        b.line(*ps.doctor_name(rng, rng.choice(p.nurses), nurse=True))
    b.finish(start, mode)  # mixed: the case its style wrote


def _pseudo_word(rng: random.Random, word: str) -> str:
    """A letter string of ``word``'s length and case pattern that no list holds (alternating
    consonants and vowels, so that it reads like a name)."""
    out = []
    for i, ch in enumerate(word):
        if not ch.isalpha():
            out.append(ch)
            continue
        new = rng.choice(_VOWELS if i % 2 else _CONSONANTS)
        out.append(new.upper() if ch.isupper() else new)
    return "".join(out)


def _typo(rng: random.Random, word: str) -> str:
    """``word`` with one typing error: two letters swapped, one dropped or one doubled."""
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 1:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i] + word[i:]


def _words(rng: random.Random, text: str, change) -> str:
    """``text`` with ``change(word)`` applied to each alphabetic run of four letters or more."""
    out, word = [], []
    for ch in text + " ":
        if ch.isalpha() and ch.isascii():
            word.append(ch)
            continue
        if word:
            w = "".join(word)
            out.append(change(w) if len(w) >= 4 else w)
            word = []
        out.append(ch)
    return "".join(out[:-1])


def _keep_case(model: str, word: str) -> str:
    if model.isupper():
        return word.upper()
    if model.islower():
        return word.lower()
    return word


def roughen(rng: random.Random, doc: Document, typo: float = 0.02, unknown: float = 0.15,
            ambiguous: float = 0.08, plain: frozenset = frozenset(), staff: bool = False) -> Document:
    """A copy of ``doc`` made more like real notes (see the module docstring).

    Ages under 90 and weekdays stop being PHI; each name or place span becomes letter strings
    found in no list with probability ``unknown``, a one-word person name becomes a name that
    is also a plain word with probability ``ambiguous``; a word of four letters or more
    gets a typing error with probability ``typo``. A span whose text (lower case) is in ``plain``
    stops being PHI too (``Oncology`` as a department). With ``staff`` (the ``signed`` style) a DOCTOR span is
    kept as written, so that a nurse's initials stay those of her name in the note. Offsets are recomputed.
    """
    pieces, spans, at = [], [], 0
    for sp in doc.spans:
        pieces.append(_words(rng, doc.text[at:sp.start], lambda w: _typo(rng, w) if rng.random() < typo else w))
        surface = doc.text[sp.start:sp.end]
        keep = True
        if sp.subtype == "AGE" and surface.isdigit() and int(surface) < 90:
            keep = False
        elif sp.subtype == "DATE" and surface.lower().rstrip(".") in _WEEKDAYS:
            keep = False
        elif surface.lower() in plain:
            keep = False
        elif staff and sp.subtype == "DOCTOR":
            pass
        elif sp.subtype in _NAME_LIKE:
            r = rng.random()
            if r < unknown:
                surface = _words(rng, surface, lambda w: _pseudo_word(rng, w))
            elif r < unknown + ambiguous and sp.subtype in PERSON_SUBTYPES and surface.isalpha():
                surface = _keep_case(surface, rng.choice(AMBIGUOUS))
            elif rng.random() < typo * 2:
                surface = _words(rng, surface, lambda w: _typo(rng, w))
        start = sum(map(len, pieces))
        pieces.append(surface)
        if keep:
            spans.append(make_span(start, start + len(surface), sp.subtype))
        at = sp.end
    pieces.append(_words(rng, doc.text[at:], lambda w: _typo(rng, w) if rng.random() < typo else w))
    return Document(doc.doc_id, "".join(pieces), spans, dict(doc.meta))
