"""Label words and look-alikes beside the identifier lines (ids15, issue 58 items 1-2).

C-ids800 (the written14 lines of :mod:`crfdeid.synth.idlines`) found more identifiers but wrote more
false values in surrogate output: a label word before a number (``Mob``, ``bleep``,
``Appointments``, a scheme's own name) read as a place or taken into the number's span, a fraction
beside a score word read as a date, a heading's words read as a place, clinical codes read as
identifiers, roles and credentials read as names (docs/synth.md, "C-ids800's falsified values").
This module writes those words as **not PHI** beside the numbers and in lines of their own:

* :func:`national`: a scheme's number with its label in varied forms (any of the scheme's names and
  abbreviations of python-stdnum's catalogue, as written, lower or upper case, before ``:``, ``#``,
  ``no.`` or nothing, after the number, two names, the label repeated later in the line);
* :func:`contact`: one to three phone and pager numbers (PHONE) after their labels
  (:data:`~crfdeid.synth.idlabels_templates.PHONE_LABELS`, ``BLEEP_LABELS``), or a label after;
* :func:`extra_line`: a line of label words alone, score fractions, clinical codes, report titles and
  headings of several languages, or roles and credentials (:mod:`crfdeid.synth.idlabels_templates`),
  every word of it plain but the doctors' names of the role lines;
* (trial16, issue 58) the ``trials`` kind of :func:`extra_line`: a trial's protocol, EudraCT, CTIS, NCT or
  ISRCTN number, a MedDRA PT/LLT, SNOMED CT, LOINC, ATC, ICD-10 or ICD-O code, a drug's or a blood product's
  lot after its label, plain (combo15 read such numbers on check14 as HEALTHPLAN, IDNUM and SSN). Only the
  layouts are written (``#`` a digit, ``A`` a capital): no code of MedDRA, SNOMED CT, LOINC or ATC and no
  term of theirs; a line as written, lower or upper case; beside them a doctor's name or a hospital number
  (PHI) in two of the lines, so a label's number stays a person's number where its label says so.
"""

from __future__ import annotations

import datetime as dt
import random
import re

from . import persona as ps
from . import world as wd
from .idlabels_templates import ALONE, BLEEP_LABELS, CODES, HEADINGS, PHONE_LABELS, ROLES, SCORES, SEPARATORS, TRIALS
from .phrases import fill, fill_nested
from .specialty_vocab import _list

_CODE = re.compile(r"<code:([^>]+)>")
_NUMBERED = re.compile(r"\b(?:no|nr|n|number|#)\b|#", re.I)  # a label that says "number" takes no second one
#: Scores' maxima (N/M with N no more than M).
_MAXIMA = [3, 4, 5, 5, 6, 7, 8, 10, 10, 12, 15, 20, 24, 30]


def code(rng: random.Random, layout: str) -> str:
    """``layout`` filled: ``A`` a capital letter, ``#`` a digit, anything else kept.

    >>> len(code(random.Random(1), "AA-####")), code(random.Random(1), "AA-####")[2]
    (7, '-')
    """
    return "".join(str(rng.randint(0, 9)) if c == "#" else rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") if c == "A" else c
                   for c in fill(rng, layout))


def cased(rng: random.Random, text: str) -> str:
    """``text`` as written (most), lower or upper case."""
    return rng.choices([text, text.lower(), text.upper()], [60, 20, 20])[0]


def label(rng: random.Random, words: list[str] | tuple[str, ...]) -> str:
    """One of ``words`` in a drawn case with a separator after it: ``"PESEL: "``, ``"mob "``, ``"NHS no. "``."""
    word = rng.choice(words)
    seps = [s for s in SEPARATORS if not (_NUMBERED.search(word) and _NUMBERED.search(s))]
    return f"{cased(rng, word)}{rng.choice(seps)}"


def national(rng: random.Random, subtype: str, words: tuple[str, ...], number: str) -> list:
    """A scheme's number with its label words (never PHI) in one of several forms.

    >>> p = national(random.Random(2), "IDNUM", ("PESEL",), "44051401359")
    >>> ("IDNUM", "44051401359") in p and any("pesel" in x.lower() for x in p if isinstance(x, str))
    True
    """
    first = words[0] if rng.random() < 0.5 else rng.choice(words)
    value = (subtype, number)
    form = rng.random()
    if form < 0.55:
        lab = label(rng, [first])
        return [lab, value, ")"] if lab.endswith("(") else [lab, value]
    if form < 0.7:  # after the number
        after = cased(rng, first)
        return [value, rng.choice([f" ({after})", f" {after}", f", {after}", f" - {after}"])]
    if form < 0.85:  # two names of the scheme, or one twice
        other, joint = rng.choice(words), rng.choice(["/", " / ", " or ", " ("])
        close = ") " if joint == " (" else rng.choice([": ", " ", " # "])
        return [f"{cased(rng, first)}{joint}{cased(rng, other)}{close}", value]
    return [label(rng, [first]).replace(" (", ": "), value,  # the label again, alone
            f"{rng.choice(['; ', ', ', ' - '])}{cased(rng, rng.choice(words))} "
            f"{rng.choice(['checked', 'verified', 'on card', 'seen', 'confirmed', 'from referral'])}"]


def _phone_number(rng: random.Random) -> tuple[str, str]:
    """A phone number: a US layout or a national one with its trunk or country prefix."""
    if rng.random() < 0.5:
        return ("PHONE", ps.phone(rng))
    return ("PHONE", rng.choice(["0", "+44 ", "+49 ", "+34 ", "+33 ", "+31 ", ""]) + " ".join(
        ps.digits(rng, n) for n in rng.choice([(4, 6), (3, 3, 4), (2, 4, 4), (5, 6), (3, 7)])))


def contact(rng: random.Random) -> list:
    """One to three phone or pager numbers (PHONE) after labels written plain, or a label after the number."""
    pieces: list = []
    for i in range(rng.choice([1, 1, 2, 2, 3])):
        if i:
            pieces.append(rng.choice(["  ", ", ", "; ", " / ", "   "]))
        if rng.random() < 0.25:
            lab = label(rng, BLEEP_LABELS)
            number = ("PHONE", ps.digits(rng, rng.choice([4, 4, 5])))
        else:
            lab = label(rng, PHONE_LABELS)
            number = _phone_number(rng)
        if rng.random() < 0.15:  # the label after the number
            pieces.extend([number, f" ({cased(rng, rng.choice(PHONE_LABELS))})"])
        else:
            pieces.extend([lab, number, ")"] if lab.endswith("(") else [lab, number])
    return pieces


def _frac(rng: random.Random) -> str:
    m = rng.choice(_MAXIMA)
    return f"{rng.choice(_list('score_names'))} {rng.randint(0, m)}/{m}"


def _own(rng: random.Random, schemes) -> dict:
    return {
        "frac": lambda: _frac(rng), "scheme": lambda: cased(rng, rng.choice(rng.choice(schemes)[2])),
        "plabel": lambda: cased(rng, rng.choice(PHONE_LABELS)), "blabel": lambda: cased(rng, rng.choice(BLEEP_LABELS)),
        "head": lambda: rng.choice(_list("note_labels")), "HEAD": lambda: rng.choice(_list("note_labels")).upper(),
        "role": lambda: rng.choice(_list("staff_roles")), "cred": lambda: rng.choice(_list("titles")),
    }


#: Kinds of :func:`extra_line` and their weights.
KINDS = {"contact": 24, "alone": 14, "scores": 22, "codes": 16, "headings": 12, "roles": 12, "trials": 16}
_TEMPLATES = {"alone": ALONE, "scores": SCORES, "codes": CODES, "headings": HEADINGS, "roles": ROLES,
              "trials": TRIALS}


def extra_line(rng: random.Random, w: wd.World, day: dt.date, slot, pattern: re.Pattern, schemes,
               kind: str | None = None) -> list[list]:
    """One line of a ``kind`` of :data:`KINDS` (drawn when None) as builder pieces; ``slot`` the style's
    slots (``<dr_full>``, ``<icd_dx>``, ``<epo>``...), ``schemes`` :func:`crfdeid.synth.idlines.schemes`."""
    kind = kind or ps.weighted(rng, KINDS)
    if kind == "contact":
        return [contact(rng)]
    own = _own(rng, schemes)
    text = fill_nested(rng, rng.choice(_TEMPLATES[kind]))  # the trial lines nest a code's layout in an alternative
    text = _CODE.sub(lambda m: code(rng, m.group(1)), text)

    def pick(name: str):
        return (lambda r, w_, d: [own[name]()]) if name in own else slot(name)

    lines = wd.render(rng, w, day, text, pick, pattern)
    if kind == "trials":  # labels and codes as written (most), lower or upper case; PHI pieces kept
        case = rng.choices(["", "lower", "upper"], [60, 20, 20])[0]
        lines = [[getattr(x, case)() if case and isinstance(x, str) else x for x in line] for line in lines]
    return lines
