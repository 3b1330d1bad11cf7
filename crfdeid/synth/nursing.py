"""Telegraphic ICU nursing notes (systems review lines, often ALL CAPS)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping

from . import persona as ps
from .builder import NoteBuilder
from .nursing_events import EVENTS, ROLES, social_line
from .phrases import PLAN, SHIFT, SYSTEMS, fill

HEADERS = ["NPN 7P-7A", "NPN 7A-7P", "Nursing Progress Note", "NURSING PROGRESS NOTE 0700-1900",
           "MICU NPN", "CCU NURSING NOTE", "CSRU NPN 1900-0700", "Nursing Admission Note",
           "NSG NOTE", "SICU NURSING PROGRESS NOTE", "Nursing note addendum", "NPN"]

ABBREVIATIONS = frozenset("""HR BP SR ST K MG O2 NC ABG CPAP PEEP FIO2 TF NPO BM NGT LCS IV PO BUN CR
WBC MRSA CX PICC INR PTT CVP PAD NTG MAP GCS CIWA PERRL MAE RT RR CXR TMAX PVC'S PS AC FM RISS FS
UO NS OR ED PACU DNR DNI HCP SW MD RN ICU MICU CCU CT MRI EKG GI SBP KCL MEQ OOB AM PM
A/P I/O NT/ND SICU CSRU NPN NBP ABP PAP CO/CI SVR CA RSBI FFP SQ PLT HCT CK
CRRT LOS VRE TLC PIV LE IJ SC PRBC DUODERM PSV IPS SIMV BIPAP OSH HO NP EP SVT NSR AF NAD IR
D5W KVO VT CV GU ID HD DNR/DNI""".split())

def _sentence(text: str, capital: bool = False) -> str:
    """Mixed-case nursing style: ward abbreviations stay upper case, other words lower.

    A word starting a sentence (``capital`` for the first one, then any word after
    ``.`` or ``:``) is capitalized, so a capital letter alone does not mark a name.

    >>> _sentence("NEURO: PT ALERT. SLEPT WELL", capital=True)
    'Neuro: Pt alert. Slept well'
    """
    out = []
    for w in text.split(" "):
        word = w if w.strip(".,:;()-+?") in ABBREVIATIONS else w.lower()
        if capital and word[:1].isalpha():
            word = word[0].upper() + word[1:]
        out.append(word)
        capital = word.endswith((".", ":")) if word else capital
    return " ".join(out)


def nursing_casing(rng: random.Random, b: NoteBuilder, weights: Mapping[str, float],
                   lower_names: float = 0.0) -> str:
    """The casing of a nursing, ward or mix note drawn from ``weights``; a ``"mixed"`` note gets the
    sentence style of :func:`_sentence` and, with probability ``lower_names`` (``0``: nothing drawn), its
    names in lower case.

    >>> b = NoteBuilder()
    >>> nursing_casing(random.Random(0), b, {"mixed": 1}, lower_names=1.0)
    'mixed'
    >>> b.style("NEURO: PT ALERT"), b.phi_style("Lee")
    ('Neuro: Pt alert', 'lee')
    """
    mode = ps.weighted(rng, weights)
    b.style = (lambda text: _sentence(text, b.at_line_start)) if mode == "mixed" else None
    b.phi_style = str.lower if mode == "mixed" and lower_names and rng.random() < lower_names else None
    return mode


def nursing_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one nursing note about ``p`` on ``day`` into ``b``."""
    mode = nursing_casing(rng, b, {"upper": 50, "mixed": 40, "lower": 10}, lower_names=0.2)
    start = len(b)
    header = rng.choice(HEADERS)
    date = ("DATE", ps.date_text(rng, day, rng.choice(["{m}/{d}", "{m}/{d}", "{m}/{d}/{Y}", "{mm}/{dd}/{Y}",
                                                       "{m}/{d}/{y}", "{m}-{d}-{y}"])))
    where = rng.random()
    if where < 0.4:
        b.line(header, " ", date)
    elif where < 0.6:  # the note opens with its date
        b.line(date, rng.choice([" ", "\n", " - "]), header)
    else:
        b.line(header)
    events = rng.sample(range(len(EVENTS)), rng.choice([0, 1, 1, 2, 2, 3, 4]))
    for i in events:
        EVENTS[i](rng, p, day, b)
    # most of a real shift note is PHI-free: trends, vent and drip changes, transfers to units
    for phrase in rng.sample(SHIFT, rng.choice([0, 1, 2, 2, 3, 4])):
        b.line(fill(rng, phrase), ".")
    for name in SYSTEMS:
        if rng.random() < (0.8 if name != "HEME" else 0.3):
            b.add(rng.choice([f"{name}: ", f"{name}- ", f"{name} "]))
            b.add(". ".join(fill(rng, ph) for ph in rng.sample(SYSTEMS[name], rng.randint(1, 4))))
            if rng.random() < 0.15:
                # real notes say "HO aware" far more often than "Dr. X aware"
                b.add(". ", *(ps.doctor_name(rng, rng.choice(p.doctors)) if rng.random() < 0.35
                              else [rng.choice(ROLES)]), rng.choice([" AWARE", " NOTIFIED", " MADE AWARE"]))
            b.line(".")
    if rng.random() < 0.85:
        social_line(rng, p, day, b)
    head = rng.choice(["PLAN: ", "A/P: ", "PLAN- "])
    b.line(head, ", ".join(fill(rng, ph) for ph in rng.sample(PLAN, rng.randint(1, 3))), ".")
    if rng.random() < 0.6:
        b.line(*ps.doctor_name(rng, rng.choice(p.nurses), nurse=True))
    b.finish(start, mode)  # mixed: the case its styles wrote
