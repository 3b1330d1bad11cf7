"""Dates, wards and numbers the specialty member lost: the ``clinical_date`` style's lines (date17, issue 58).

The shipped specialty member (look16, docs/synth.md "Falsified forms as look-alikes") learnt fractions as no
date (a sheath's French sizes, follow-up in months ``6/12``, positive of examined nodes) and, on the PhysioNet
development patients routed to it, misses dates the member before found and reads four-digit numbers as phones
(docs/synth.md, "Dates, wards and contacts the specialty member lost"). Counted by shape, they are:

* **a month/day or month-day date after a test or a culture** (``Echo 3/14 revealed``, ``BC from 3-4 grew``):
  written here as PHI in those contexts (a test, a culture, a drug started or stopped, ``since``, ``on``);
* **a year alone** where a patient's orientation is charted (``knows it is 2091``): PHI;
* **four-digit numbers that are no phone**: clock times (``labs at 0400``), fluid balances (``+1500 for the
  day``) and lab values (``CK 1234``), plain, beside a pager or bleep number after its label (PHI).

Beside them, in the same lines, the fractions and ranges that are no date (``Review in 6/12``, ``Sheath 6/8 Fr``,
``pain 3-4/10``, ``2-3 L``): a date by its neighbours, not by its shape. And **named wards in lower case** after
``on``/``to``/``from`` (``review on rowan ward``: HOSPITAL, their names the first words of ``street_names.txt``
less every word of the eponym, score, clinical and drug lists and the frequent surnames: date18) beside the wards
and units no one names (``to ward 7``, ``on the unit``, ``back to icu``), plain.
Layout words (tests, cultures, organisms, ward heads) are written for crfdeid (MIT); clinical words come through
:mod:`crfdeid.synth.clinlines`'s slots from lists with a source header.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from functools import cache

from .. import gazetteers
from . import clinlines as cl
from . import persona as ps
from . import specialty as sp
from . import world as wd
from .builder import NoteBuilder
from .looklines import LOOK_LINES, eponym_words
from .phrases import fill, fill_nested

#: Tests and procedures a nursing or specialty line dates (layout).
TESTS = ("Echo", "TTE", "TEE", "CXR", "CT", "CTA", "MRI", "KUB", "EGD", "Cath", "US", "EEG", "ECG", "EKG", "LP",
         "Bronch", "Colonoscopy", "Doppler", "LENIs", "CT head", "CT abd", "Head CT", "RUQ US", "Swallow eval")
#: Cultures (layout).
CULTURES = ("BC", "BCx", "Blood cx", "Blood cultures", "Urine cx", "UCx", "Sputum cx", "Cultures", "Stool cx",
            "Wound cx", "Line tip", "C diff", "Resp cx", "BAL cx")
#: Organisms and results after a culture (layout).
GREW = ("grew {GPC|GNR|GPC in clusters|gram positive cocci|gram negative rods|yeast|coag neg staph|MRSA|VRE|"
        "E. coli|klebsiella|pseudomonas|enterococcus}", "{neg|negative|pending|NGTD|no growth to date|no growth}",
        "{positive for|+ for} {MRSA|VRE|E. coli|GNR|yeast}")
#: Heads of a named ward (``ward_heads.txt`` holds ``Ward``, ``Wing``, ``Suite``; layout adds ``unit``).
WARD_HEADS = ("ward", "ward", "ward", "ward", "unit", "wing", "suite")


#: Lists whose words a ward's name never is: eponyms, instruments and named procedures, scores and scales, clinical
#: words and heads, drugs and brands (the words a specialty member keeps as no PHI).
NOT_WARD_LISTS = ("eponyms", "eponyms_more", "anatomy_eponyms", "surgical_instruments", "named_procedures",
                  "score_names", "clinical_scales", "clinical_words", "clinical_heads", "clinical_heads_more",
                  "drug_names", "brand_names")
#: How many of ``surnames.txt``'s most frequent names a ward's name never is (date17 drew its wards from these).
SURNAMES_NOT_WARDS = 300


@cache
def not_ward_words() -> frozenset[str]:
    """Lower-case words of :data:`NOT_WARD_LISTS`, the eponyms' names and the most frequent surnames.

    >>> {"kocher", "braden", "smith"} <= not_ward_words()
    True
    """
    words = {t.lower() for n in NOT_WARD_LISTS for e in gazetteers.entries(n) for t in re.findall(r"[A-Za-z]+", e)}
    words |= {w.lower() for w in eponym_words()} | {s.lower() for s in cl._pool("surnames")[:SURNAMES_NOT_WARDS]}
    return frozenset(words)


@cache
def ward_names() -> tuple[str, ...]:
    """Names a hospital gives its wards: the first words of ``street_names.txt`` (fictional, no ordinal), less
    every word of :func:`not_ward_words` (date18: date17 drew surnames too, and took eponyms out of the words
    the member keeps as no PHI).

    >>> names = ward_names()
    >>> all(n.isalpha() for n in names), len(names) > 80, "Jackson" in names
    (True, True, False)
    """
    words = {e.split()[0] for e in cl._pool("street_names")}
    ordinals = {"First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth"}
    return tuple(sorted(w for w in words if w.isalpha() and w not in ordinals and w.lower() not in not_ward_words()))


def _ward(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A named ward (``rowan ward``, ``Kestrel Unit``): HOSPITAL, in lower case most often."""
    name = f"{rng.choice(ward_names())} {rng.choice(WARD_HEADS)}"
    case = rng.choices(["lower", "title", "upper"], [60, 30, 10])[0]
    return [("HOSPITAL", name.lower() if case == "lower" else name.title() if case == "title" else name.upper())]


def _month_day_hyphen(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A month-day date joined by a hyphen (``3-4``; day first outside the US): DATE."""
    forms = ("{m}-{d}", "{m}-{d}", "{mm}-{dd}") if w.country == "US" else ("{d}-{m}", "{dd}-{mm}")
    return [("DATE", ps.date_text(rng, day - dt.timedelta(days=rng.randint(0, 14)), rng.choice(forms)))]


def _year(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A year alone, mostly the note's own (orientation: ``knows it is 2091``): DATE."""
    return [("DATE", str(day.year - rng.choice([0, 0, 0, 1, rng.randint(2, 20)])))]


def _short_year(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A past year by its last two digits after an apostrophe (``MI in '97``): the digits DATE."""
    return ["'", ("DATE", f"{(day.year - rng.randint(1, 30)) % 100:02d}")]


def _pager(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A pager, bleep or extension number after its label (``pager 40917``, ``bleep 4412``): PHONE."""
    return [("PHONE", rng.choice([ps.digits(rng, 5), ps.digits(rng, 4), ps.pager(rng), f"#{ps.digits(rng, 4)}"]))]


def _hhmm(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}{rng.choice([0, 0, 0, 15, 30, 45, rng.randint(0, 59)]):02d}"


def _lab(rng: random.Random) -> str:
    name = rng.choice(("CK", "BNP", "LDH", "Plt", "Ferritin", "Fibrinogen", "Trop", "Lipase", "Amylase", "AFP",
                       "D-dimer", "CPK", "proBNP", rng.choice(cl._pool("measure_abbrevs"))))
    return f"{name} {rng.randint(1000, 9999)}"


#: ``<slot>`` -> plain text (never PHI): tests, cultures, clock times, balances, lab values and ranges.
PLAIN = {
    "num4": lambda rng: str(rng.randint(1000, 9999)),
    "test": lambda rng: rng.choice(TESTS), "cx": lambda rng: rng.choice(CULTURES),
    "grew": lambda rng: fill(rng, rng.choice(GREW)), "hhmm": _hhmm, "lab": _lab,
    "bal": lambda rng: fill(rng, "{+|-|+|}") + str(rng.randint(2, 40) * 100 + rng.choice([0, 0, 50, 25])),
    "rng": lambda rng: fill(rng, rng.choice(["{1-4}-{5-6} L", "{2-5}-{6-8}/10", "x {2-3}-{4-7} days",
                                             "q{2-4}-{6-8}h", "{20-40}-{50-90} cc/hr", "{1-2}-{3-4} tabs"])),
    "unit_no": lambda rng: fill_nested(rng, "{the ward|ward {1-40}|the medical ward|the surgical ward|icu|"
                                          "the icu|hdu|amu|mau|ccu|the unit|theatre|recovery|resus|cardiology|"
                                          "the floor|rehab}"),
}
#: PHI slots of this style.
PHI = {"mdh": _month_day_hyphen, "yr": _year, "yy": _short_year, "ward": _ward, "pgr": _pager}

#: Lines of the ``clinical_date`` notes: dates after tests and cultures, years of orientation, wards by name,
#: pagers, beside the fractions, ranges, times, balances, values and unnamed wards that are none.
DATE_LINES = [
    "<cx> from <mdh> <grew>.", "<cx> from <md> <grew>; <cx> <mdh> {pending|neg}.",
    "<cx> {<md>|<mdh>} <grew>, {started|on} <drug>.", "{Repeat|F/u} <cx> <mdh> <grew>; T max 38.{1-9}.",
    "<test> <md> {revealed|showed|with|demonstrated} <val>{|, <dx>}.", "<test> (<md>): <dx>.",
    "<test> on <mdh> {unchanged|showed <dx>|with <val>}.", "{Last|Prior|Previous} <test> <mdh>{|, <val>}.",
    "<drug> {started|d/c'd|stopped|held} <mdh>{| per <role> <dr_last>}.", "{Since|As of} <md> {on|off} <drug>; <val>.",
    "<test> <md> and <mdh>: <dx>.", "{Febrile|Afebrile} since <mdh>; <cx> <md> <grew>.",
    "{Alert and oriented x3|A&O x3|Oriented}; {knows|states|says} {it is|it's|the year is} <yr>.",
    "{Disoriented|Confused}, {thinks|says|states} it is <yr>{| and at home}.", "{Oriented to|Knows} year (<yr>).",
    "Follow-up <fu>; {review|seen} on <md> by <role> <dr_last>.", "Review in <fu>, {labs|bloods|echo} on <md>.",
    "<test> <md>: sheath <french>, <val>.", "<stage> <ln>; <test> <md> {showed|revealed} <dx>.",
    "Pain <rng> since <mdh>; <drug>.", "{O2|NC} <rng>; <cx> from <mdh> <grew>.", "<drug> <rng>, <fu>.",
    "{Labs|K|Lytes|Bloods|ABG|Coags} {sent|drawn|due|repeat} {at|@} <hhmm>{|, <lab>}.",
    "<drug> {d/c'd|stopped|started|held} {at|@} <hhmm>; <val>.", "<lab>, <lab>; {repeat|next} {at|@} <hhmm>.",
    "{Net|FB|Fluid balance|I/O} <bal> {cc|ml} {for the day|since midnight|so far|at <hhmm>}.",
    "{He|She|Pt} is <bal> {cc|ml|} {positive|negative|even} for the day.",
    "{Page|Call} <role> <dr_last> {at|on} <pgr>.",
    "{Pager|Bleep|Beeper} <pgr>{| (<role> <dr_last>)}; <lab> at <hhmm>.",
    "{Review|Reviewed|Seen|Assessed} on <ward> {with the team|by <role>|today|at <hhmm>}.",
    "{Transferred|Moved|Back|Returned|Stepped down} to <ward> {at <hhmm>|on <md>|with <rel_rel>|}.",
    "{Came|Transferred} from <ward> {to|onto} <unit_no> {at <hhmm>|on <md>}.", "Bed on <ward> {requested|confirmed}.",
    "{Back|Transferred|Returned} to <unit_no> {at <hhmm>|on <md>|}.",
    "{Review|Seen} on <unit_no> {with the team|by <role>}.",
    # a second round (date17-b): a date first on its line or after a time, a clock time first on its line or after
    # until/since/by, values and balances after was/at midnight, a year after an apostrophe
    "<md> {admit to|admitted to|transferred to|back to} <unit_no>{| from <ward>}.",
    "<md> <test> {revealed|showed} <dx>.",
    "<drug> at {1-20} {mcg/kg/min|units/hr|mg/hr|ml/hr} until {1-11} {am|pm} <md>.",
    "{Required|Needed|Started on} <drug> <md> due to <dx>.",
    "<dx> <md>; <cw> {since|from} <mdh>.", "{MI|CVA|CABG|PCI|Appy|TKR|Chole} in <yy>; <dx> <yr>.",
    "<hhmm> {pt|BP|HR|SBP|sats} {dropped|rose|fell} to <bp>{|, <role> aware}.", "<hhmm>: <drug> given; <val>.",
    "{Until|Since|By|From} <hhmm>{| to <hhmm>} <cw> {stable|improving|on <drug>}.",
    "{CK|CPK|BNP|LDH|Ferritin|Lipase} at {1-11} {am|pm} was <num4>; {next|repeat} <hhmm>.",
    "{LOS|Since admission|Total} <bal> {cc|ml|}; <bal> at midnight.", "{I/O|I&O} <bal>/<bal>{| since <hhmm>}.",
]


def _slot(name: str) -> wd.Slot:
    """A ``<slot>`` of this style: :data:`PLAIN`, else :data:`PHI`, else a ``clinical`` slot."""
    return wd.slot_of(name, (PLAIN,), (PHI,), cl._slot)


@cache
def _lines() -> tuple[str, ...]:
    return tuple(cl.LINES) + tuple(LOOK_LINES) + tuple(DATE_LINES) * 2  # half the lines drawn this module's


def date_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``clinical_date`` note (a ``clinical`` note whose lines are half :data:`DATE_LINES`) into ``b``."""
    w = sp.specialty_patient(rng, p)
    start = len(b)
    chosen = [rng.choice(["<head>", "<head> - <hosp>", "<head>: <date>", "<hosp> <head>"])] + \
        [rng.choice(_lines()) for _ in range(rng.randint(5, 11))] + [rng.choice(cl.SIGN_OFFS)]
    b.finish(start, {"": 70, "lower": 18, "upper": 12}, rng,
             (pieces for template in chosen for pieces in wd.render(rng, w, day, template, _slot, sp._SLOT)))
