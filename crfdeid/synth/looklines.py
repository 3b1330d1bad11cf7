"""Falsified forms as look-alikes: the ``clinical_look`` style's lines (look16, issue 58 items 1-3).

Candidate combo16 writes about a hundred made-up values over the development sets' three casings
(docs/synth.md, "Falsified forms as look-alikes"): clinical words its specialty CRF reads as a name, a
place or a date with confidence, so the surrogate writer makes up a value for them. They share a few
forms, which this module writes as **not PHI** beside the note's PHI (invented examples):

* **a person's name in a clinical term** (:func:`eponym_words`): an eponym before a clinical head
  (``Kocher clamp``, ``Hunter plaque``), in brackets after a device or a test (``grip (Kocher pos 2)``),
  two joined with a score (``Garden-Neer 14``), a classification cited by its author (``per Modic``,
  ``Salter et al.``);
* **fractions that are no date**: a sheath's or catheter's French sizes (``10/12 Fr``), positive of examined
  nodes after a stage (``(3/17)``), follow-up in months or weeks (``6/12``, ``4/52``). No year and no
  month/year is written plain: with citations by year (``per Modic 2013``), editions by year (``WHO 2004/2016``)
  and lots' expiries (``exp 09/2031``) the first candidate left 20 more dates (years alone, month/year) on
  the development sets, so those forms were taken out;
* **imaging with its body part** (``MRI brain``, ``CT chest``: the part read as a name in capitals);
* **post-nominal credentials** after a clinician's name (``MBBS FRCS``), the name PHI.

Beside them, in the same lines, a doctor's name, a date or month/day date, the hospital (PHI), so that
the neighbours decide. Every clinical word comes from a sourced list of ``gazetteers/`` (eponyms,
instruments, procedures, clinical heads, anatomy, score names: ``python gazetteers/build.py``); the
layout words below (heads, post-nominals, classification names) are written for crfdeid (MIT).
"""

from __future__ import annotations

import random
from functools import cache

from . import persona as ps
from .phrases import fill, fill_nested

#: Heads a note writes after an eponym (layout; ``clinical_heads.txt`` adds its own).
EPONYM_HEADS = ("plaque", "splint", "splints", "rash", "sign", "test", "classification", "criteria", "technique",
                "repair", "flap", "advancement", "rotation-advancement", "incision", "procedure", "manoeuvre",
                "maneuver", "view", "fracture", "disease", "syndrome", "bars", "walker", "boot", "brace", "retractor",
                "clamp", "forceps", "grade", "stage", "scale", "score", "catheter", "stent", "needle", "pouch",
                "operation", "approach", "position", "nodule", "cyst", "ulcer", "lesion", "dynamometer", "frame")
#: Post-nominal degrees, fellowships and certifications written after a clinician's name (layout).
POSTNOMINALS = ("MB BCh BAO", "MBBS", "MB ChB", "MBChB", "BMBS", "MD", "DO", "FRCP", "FRCS", "FRCSEd", "FRCA",
                "FRACP", "FRACS", "FRCPC", "FRCSC", "MRCP", "MRCS", "MRCGP", "DRCOG", "FACP", "FACS", "FACC",
                "FAAP", "PhD", "MSc", "BSc", "RN", "BSN", "MSN", "DNP", "CNM", "CRNA", "SANE-A", "CNS", "RM")
#: Imaging before a body part (layout).
IMAGING = ("MRI", "CT", "US", "X-ray", "XR", "PET-CT", "MRA", "CTA", "CT angiogram", "Ultrasound", "MR")
#: Classifications cited by edition (layout).
EDITIONS = ("WHO", "ISUP", "TNM", "AJCC", "FIGO", "Gleason", "UICC", "ACR/EULAR", "ESC", "GOLD", "KDIGO")


@cache
def eponym_words() -> tuple[str, ...]:
    """Single words naming a person in the eponym, anatomy, instrument and procedure lists (``Kocher``).

    >>> words = eponym_words()
    >>> "Kocher" in words, "TEP" in words
    (True, False)
    """
    words = set()
    for name in ("eponyms", "eponyms_more", "anatomy_eponyms", "surgical_instruments", "named_procedures"):
        for entry in ps.term_pool(name):
            word = entry.split()[0].removesuffix("'s")
            if len(word) > 2 and word[:1].isupper() and not word.isupper() and word.replace("-", "").isalpha():
                words.add(word)
    return tuple(sorted(words))


def _eponym(rng: random.Random) -> str:
    """An eponym's word (most) or a surname of ``surnames.txt``: a name in a clinical term is the term's."""
    return rng.choice(eponym_words()) if rng.random() < 0.8 else rng.choice(ps.term_pool("surnames")).capitalize()


def _head(rng: random.Random) -> str:
    return rng.choice(EPONYM_HEADS) if rng.random() < 0.7 else rng.choice(ps.term_pool("clinical_heads"))


def _term(rng: random.Random) -> str:
    name, head = _eponym(rng), _head(rng)
    return rng.choice([f"{name} {head}", f"{name} {head}", f"{name}'s {head}", f"{name}-type {head}"])


def _cite(rng: random.Random) -> str:
    """A classification by its author, with no year: look16's citations with a year cost 16 years left (DATE)."""
    name = _eponym(rng)
    return rng.choice([f"{name} classification", f"the {name} criteria", f"{name} et al.", f"modified {name}",
                       f"{name} grade {rng.randint(1, 5)}", f"{name} type {rng.choice(['I', 'II', 'III', 'IV'])}"])


def _pair(rng: random.Random) -> str:
    return f"{_eponym(rng)}-{_eponym(rng)}{rng.choice(['', '', ' score', ' index'])} {rng.randint(0, 40)}"


def _bracket(rng: random.Random) -> str:
    return fill_nested(rng, f"({_eponym(rng)}{{| pos {{1-5}}| {{2-9}}| type {{1-4}}| {rng.choice(EPONYM_HEADS)}}})")


def _imaging(rng: random.Random) -> str:
    site = rng.choice(ps.term_pool("anatomy_sites"))
    return f"{rng.choice(IMAGING)} {site}" if rng.random() < 0.7 else f"{rng.choice(IMAGING)} {site.upper()}"


def _postnominals(rng: random.Random) -> str:
    return " ".join(rng.sample(POSTNOMINALS, rng.choice([1, 2, 2, 3, 4])))


#: ``<slot>`` -> plain text (never PHI) of the forms above.
LOOK = {
    "term": _term, "cite": _cite, "pair": _pair, "brk": _bracket, "img": _imaging, "pnom": _postnominals,
    "french": lambda rng: fill_nested(rng, "{{6|7|8}/{8|9|10}|{9|9.5|10}/{11|12}|{10.7|11|12}/{12.7|13|14}|"
                                           "{12|14}/{14|16}} {Fr|FR|fr|French}"),
    "ln": lambda rng: fill_nested(rng, "{({0-6}/{7-30})|({0-4}/{5-24} nodes)|({1-5} of {6-28} nodes)}"),
    "fu": lambda rng: fill_nested(rng, "{{1-11}/12|{3|6|9}/12|{1-12}/52|{2|4|6}/52|{1-6}/7}"),
    "ed": lambda rng: rng.choice(EDITIONS) + " " + fill_nested(rng, "{{5|6|7|8}th ed.|{5|6|7|8}th edition|"
                                                         "grade group {1-5}}"),
    "lot": lambda rng: fill(rng, "{A|B|C|K|L|M|X|7G|4F}{1-9}{100-999}{|A|B|C|D}"),
    "ehead": _head,
}

#: Lines of the ``clinical_look`` notes (beside :data:`crfdeid.synth.clinlines.LINES`): the forms above, plain,
#: in the same lines as a doctor, a date, a month/day date or the hospital (PHI).
LOOK_LINES = [
    "<sect>: <term> {noted|present|seen|absent} {|on the left|on the right|bilaterally}; <sc>.",
    "<epo_c> with <term> on <md>.", "Plan: <term> with <dr_full> <md>.", "{Seen|Reviewed} by Dr <dr_last>: <term>.",
    "{Classified|Graded|Staged} per <cite>; <sc>.", "<dx>, {graded|staged} as in <cite>. Dr <dr_last>, <date>.",
    "<pair>; reviewed by Dr <dr_last> on <date>.", "<sect>: <pair>, <val>.",
    "<cw> <brk> {normal|reduced|not tested|improving}; <val>.", "<cw> <brk>, <cw> <brk>. Next review <md>.",
    "<dr_full> <pnom>, <role>", "<dr_full>, <pnom>, <role>, <hosp>", "Signed: <dr_full> <pnom> <date>",
    "{Examiner|Author|Reported by}: <dr_full>, <pnom>", "<img> (<date>): <cw>, <dx>.",
    "<img>: <dx>; reported by Dr <dr_last>.", "{Requested|Booked} <img> for <md>.",
    "{Sheath|Catheter|Access sheath|Stent|Ureteric stent} <french> {passed|placed} <md>.",
    "<french> <ehead> {passed easily|sited|removed} by <dr_last>.", "<stage> <ln>; <dx>.", "{Nodes|LN} <ln>, <val>.",
    "Follow-up <fu> with <role> <dr_last>; seen <date>.", "Review in <fu>{| (<md>)}.",
    "Lot <lot>, given <date>.",
    "{Batch|Lot} <lot>, <drug>, <md>.", "<dx>: <ed> <sc>.", "Graded by <ed>: <sc>; Dr <dr_last> <date>.",
    "Prep: <sc>, <term> seen; Dr <dr_last>.",
]
