"""Clinical values kept as written: predicted spans that are a value, a heading or a role, dropped.

A tagger that has read few notes of a style takes a strength grade (``4/5 RUE``) or a
reflex grade (``2/4``) for a date, ``Mini-Cog 3/5`` for a doctor and a date, a heading
(``ED TRIAGE NOTE``) for a name; a surrogate then writes another clinical value in its
place, which a reader cannot tell from a real one (issue 50). :func:`why_value` says why a
predicted span is such a value, from the evidence each reason names; the clinical filter
(:mod:`.clinical`) drops it. Every reason asks for the span to lie inside the value it names:

* **score**: inside a scale's or score's name (the ``score_names`` list) and the value after
  it (``GAD-7 12``, ``Mini-Cog 3/5``, ``Glasgow Coma Scale 14``, ``pain 7/10``, ``MoCA: 26/30``),
  a fraction's numerator at most its denominator. A name that is also a listed person's name or
  place (``Wells``, ``Morse``, ``Bristol``) counts only followed by ``score``/``scale``...,
  an acronym of them (``NEWS``, ``MUST``) also in capitals; never after a title (``Dr Wells 4``,
  ``Bristol 2 years ago`` stay);
* **grade**: a fraction ``n/d`` with ``d`` 4, 5 or 10 and ``n <= d`` (a sign allowed, ``4+/5``)
  with a grade's word before it (``strength``, ``reflexes``, ``pain``, a muscle) or a limb or
  side after it (``RUE``, ``BLE``, ``bilat``, ``throughout``); a murmur's ``II/VI``; a digit and a
  plus sign (``2+``): none is a date of a Safe Harbor form or an identifier;
* **setting**: a fraction after a ventilator mode's word in the same clause (``PS 5/5``, ``CPAP
  10/5``, ``flowby 6/3``), or a part of a measure: ``1/2``, ``1/3``, ``2/3``, ``1/4``, ``3/4`` before a
  unit or measure word, after ``q``, or before ``up`` after a word of the chest (``1/2 hour``, ``3/4 U``,
  ``q 1/2-1 hrs``, rales ``1/4 up``);
  *issue 50*: the mode's name further back in the clause (``PSV increased to 10/5``; a bare ``vent`` is no mode),
  ``weaned (down) to``, or a mode, a pressure unit or an FiO2 right after the fraction (``5/5 IPS``, ``10/25 50%``),
  or a third part that is a percentage (``10/5/50%``); never with a word of a date right before the fraction
  (``CPAP since 5/5``, ``extubated 3/11``);
* **vital**, **abbreviation**, **side**, **relation** and ``ST`` of a **rhythm**: :mod:`.bedside` (issue 50);
* *issue 50, third round*: a score's value may be a stage with its letter (``Ann Arbor stage IIIB``) or a
  category written as a colour (``Manchester Triage orange``); ``weak`` is a grade's word (``empty can test
  weak 4/5``); an age's unit may be a sex after a slash (``56 Y/M``: the ``Y/M`` found alone is the age's too);
  a profession
  before a service's frequency is a role (``Home health aide 3 days a week``; not after ``works as``);
  a one-word name glued to a colour word by a space as well (``Rose colored urine``);
* **duration**: ``n/7`` or ``n/52`` (days, weeks: UK notes) after ``for``, ``x``, ``over``, ``past``... or before
  ``ago``, ``hx``, ``history`` (``cough for 3/7``); never after ``in`` (``CABG in 4/52`` is April 1952);
* **code**: inside a clinical terminology's code (``SNOMED 68566005``, ``ICD-10 J18.9``, ``Read code XE0dZ``);
* **label** before a colon, **heading** of a line, **specialty** and a service's **role**, the cutting at
  field gaps and the narrowing of a profession's number: :mod:`.fields` (issue 50, third round). The third
  round's reasons take 0 gold spans and 0 gold tokens of the PhysioNet development notes and, of
  ``synth:400,7``, none that main's reasons do not (docs/clinical-values.md, third round); a draft of
  ``duration`` with ``in`` before it took a synthetic date (``CABG in 4/52``);
* **time**: a clock time with a colon or an ``h`` (``05:02``, ``0502h``), not glued to a date;
* **age**: an age under 90 with its unit (``67 yo``, ``45-year-old``) in a span of any type:
  Safe Harbor asks only for ages of 90 and over (:mod:`.hygiene` drops AGE spans under 90);
* **dose number**: inside a vaccine's name (``vaccines`` list) and its dose number (``DTaP #4``,
  ``MMR dose 2``);
* **heading**: words all of the ``note_labels`` and ``staff_roles`` lists, in a run of such words
  on one line that holds a heading's noun (``note``, ``triage``, ``handoff``...), the run in
  upper case or a whole line (``HANDOFF TO NIGHT RN``, ``ed triage note:``);
* **label**: one word of the field labels (``MRN``, ``DOB``, ``Apt``) in a span that is no place
  (``ID`` of ``Ogden, ID`` is Idaho): a label names a field, it is not the value;
* **role**: staff roles and their modifiers (``Radiologist``, ``night RN``) in a span that is no
  PROFESSION, or a PROFESSION after a word of care (``d/w``, ``paged``, ``per``, ``covering``) or
  a role's word (``Consultant Radiologist``) or before a word of care (``aware``, ``notified``,
  ``to review``): a patient's own profession (``works as a nurse``) stays PHI; a doctor's grade
  (``F1``, ``ST3``) in a name span;
* **modal**: a name span that is one modal verb before a lower-case word of no name list that is
  a common English word, a clinical word or a verb of care (``Will recheck``, ``may need``; not
  ``Will Smith``, ``will smith``, ``may kowalczyk``);
* **colour**: a one-word name span that is a colour before a secretion's word, not after a title
  (``rusty sputum``, ``thick golden tan secretions``, ``green bile``; not ``Dr Green``);
* **rhythm**: ``brady``/``tachy`` after ``sinus`` (``sinus brady``: bradycardia, not Dr Brady);
* **compound**: a one-word name span glued by a hyphen to a colour or shape word (``Rose`` of
  ``Rose-colored rash``, ``salmon-like``).

The lists are ``gazetteers/score_names.txt``, ``note_labels.txt``, ``staff_roles.txt``,
``vaccines.txt`` (and ``contrast_agents.txt``, read by the clinical filter's vocabulary
reason), written by hand from public sources (gazetteers/handwritten.py). Gold PHI tokens of
the PhysioNet development notes each reason would take: docs/clinical-values.md (0 for all). Issue 50's
reasons rest on three corpora: no gold span or token of the development notes (the locked quarter left out)
nor of the synthetic notes (``synth:150,7``) is taken (``tests/test_values.py``), and the made-up notes of
other countries (``experiments made-up --notes dev``) lose no identifier to them (docs/clinical-values.md).

>>> from crfdeid.document import make_span
>>> text = "Strength 4/5 RUE. GAD-7 12. Will recheck at 05:02."
>>> [why_value(text, make_span(s, e, t)) for s, e, t in [(9, 12, "DATE"), (18, 26, "DATE"),
...     (28, 32, "DOCTOR"), (44, 49, "DATE")]]
['grade', 'score', 'modal', 'time']
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from functools import lru_cache

from .. import gazetteers
from ..document import Span, line_bounds
from . import bedside, fields, ruledata
from .bedside import common_names as _common_names
from .bedside import first_names as _first_names
from .ruledata import table
from .rules import trie_pattern

_T = table("values")  # the patterns and words of the reasons (crfdeid/_data/rules/values.tsv)
_V = _T.namespace()
_TITLES = _T.entries("TITLES")  # a tuple, for str.endswith


@lru_cache(maxsize=1)
def _lists() -> dict:
    """The lists of the reasons (lower case) and the names, places and common words."""
    named = ruledata.lists("first_female", "first_male", "surnames", "surnames_rare", "titles", "cities", "states",
                           "countries", "common_words")
    return {"scores": gazetteers.load("score_names"), "labels": gazetteers.load("note_labels"),
            "roles": gazetteers.load("staff_roles"), "vaccines": gazetteers.load("vaccines"), "named": named,
            "names": ruledata.lists("first_female", "first_male", "surnames", "surnames_rare", "titles")}


@lru_cache(maxsize=1)
def _patterns() -> dict:
    """The score and vaccine patterns: a listed name, then its value."""
    lists = _lists()
    scores = sorted(gazetteers.entries("score_names"), key=len, reverse=True)
    # a name that is also a person's name or a place: an acronym in capitals as the list
    # writes it (NEWS, MUST), else only before a scale word ("Wells score", not "Bristol 2 years ago")
    # once: a union per entry cost about a CPU-second at every start
    known = lists["names"] | ruledata.lists("cities", "states", "countries")
    named = [e for e in scores if e.lower() in known and not e.lower().startswith("pain")]
    plain = [e for e in scores if e not in named]  # "pain 7/10": Pain is a surname too, rarely before a score
    capitals = [e for e in named if e.isupper()]
    vaccine = trie_pattern(sorted(gazetteers.entries("vaccines"), key=len, reverse=True))
    names = {"PLAIN": trie_pattern(plain), "CAPITALS": trie_pattern(capitals), "NAMED": trie_pattern(named)}
    # where a match can start: each pattern starts with one of its names after no letter (read by _near)
    return {"score": re.compile(_T.source("SCORE", **names)),
            "score_head": re.compile("(?<![A-Za-z0-9-])(?=(?i:{PLAIN})|{CAPITALS}|(?i:{NAMED}))".format(**names)),
            "vaccine": re.compile(_T.source("VACCINE", VACCINES=vaccine)),
            "vaccine_head": re.compile(f"(?<![A-Za-z0-9-])(?=(?i:{vaccine}))")}


#: A note this long is scanned once for the score and vaccine patterns' heads (a span far from any is in no
#: match); a shorter one is read in a window around each span. Speed only, no rule (docs/performance.md,
#: 2026-11-26: tag output identical on PhysioNet dev and day-first, lower-case and UK made-up sets).
LONG_NOTE = 200_000


@lru_cache(maxsize=4)
def _heads(name: str, text: str) -> list[int]:
    """Where the head of the pattern ``name`` (``score_head``, ``vaccine_head``) matches in ``text``, in order."""
    return [m.start() for m in _patterns()[name].finditer(text)]


def _near(name: str, text: str, sp: Span, reach: int) -> bool:
    """Whether the pattern ``name``'s head may match between ``reach`` before the span and its start (in a
    long note, its heads found once), since every match of the pattern starts with it."""
    if len(text) < LONG_NOTE:
        return True
    heads = _heads(name, text)
    i = bisect_left(heads, max(0, sp.start - reach))
    return i < len(heads) and heads[i] <= sp.start


@lru_cache(maxsize=1)
def _verbs() -> frozenset:
    """Words a modal verb may stand before: common English words, clinical words, care verbs."""
    return _V.CARE_VERBS | ruledata.lists("common_words", "clinical_words", "clinical_abbrevs")


def prepare() -> None:
    """Load the lists and build the patterns (a model does this at load)."""
    _patterns()
    fields.prepare()


def _inside(pattern: re.Pattern, text: str, sp: Span, reach: int = 60) -> re.Match | None:
    """The match of ``pattern`` near the span that holds all of it, or None."""
    lo = max(0, sp.start - reach)
    for m in pattern.finditer(text, lo, min(len(text), sp.end + reach)):
        if m.start() <= sp.start and sp.end <= m.end():
            return m
        if m.start() >= sp.end:
            break
    return None


def _score(text: str, sp: Span) -> bool:
    m = _inside(_patterns()["score"], text, sp) if _near("score_head", text, sp, 60) else None
    if m is None:
        return False
    if _after_title(text, m.start()):  # "Dr Wells 4": a name after a title
        return False
    frac = _V.FRACTION.search(m.group(0))
    if frac is None:
        return True
    # "MELD score 3/15 was 22": a number after the fraction makes it the date of the score
    return int(frac.group(1)) <= int(frac.group(2)) and not _V.NUMBER_AFTER.match(text, m.end())


def _setting(text: str, sp: Span) -> bool:
    """A ventilator's setting after a mode's word, or a part of a measure (``1/2 hour``)."""
    m = _inside(_V.SETTING, text, sp, 8)
    dated = m is not None and _V.DATE_WORD_BEFORE.search(text, max(0, m.start() - 16), m.start())
    if m is not None and ((not dated and (_V.VENT_BEFORE.search(text, max(0, m.start() - 30), m.start())
                                          or _V.MODE_BEFORE.search(text, max(0, m.start() - 60), m.start())))
                          or _V.WEANED_TO.search(text, max(0, m.start() - 24), m.start())
                          or _V.MODE_AFTER.match(text, m.end())):
        return True
    if _inside(_V.SETTING_PERCENT, text, sp, 8) is not None:
        return True
    m = _inside(_V.PART, text, sp, 8)
    if m is None or int(m.group(1)) >= int(m.group(2)):
        return False
    lo = max(0, m.start() - 30)
    return bool(_V.MEASURE_AFTER.match(text, m.end()) or _V.Q_BEFORE.search(text, max(0, m.start() - 4), m.start())
                or (_V.UP_AFTER.match(text, m.end()) and _V.CHEST_BEFORE.search(text, lo, m.start())))


def _grade(text: str, sp: Span) -> bool:
    for pattern in (_V.GRADE, _V.MURMUR, _V.PLUS):
        m = _inside(pattern, text, sp, 12)
        if m is None:
            continue
        if pattern is not _V.GRADE:
            return True
        if int(m.group(1)) > int(m.group(2)):
            return False
        return bool(_V.GRADE_BEFORE.search(text, max(0, m.start() - 40), m.start())
                    or _V.GRADE_AFTER.match(text, m.end()))
    return False


def _clock(text: str, sp: Span) -> bool:
    start, end = sp.start, sp.end
    while start > 0 and (text[start - 1].isdigit() or text[start - 1] == ":"):
        start -= 1
    while end < len(text) and (text[end].isdigit() or text[end] == ":"):
        end += 1
    m = _V.CLOCK.match(text, start)
    if m is None or m.end() < sp.end or m.end() < end:
        return False
    glued = text[max(0, start - 1):start] in ("/", "-", ".") or text[m.end():m.end() + 1] in ("/",)
    return not glued


def _age(text: str, sp: Span) -> bool:
    m = _V.AGE.fullmatch(text, sp.start, sp.end) or _V.AGE.match(text, sp.start) or _inside(_V.AGE, text, sp, 8)
    if m is None or m.end() < sp.end:
        return False
    nxt = text[m.end():m.end() + 1]
    return int(m.group(1)) < 90 and not (nxt.isalnum())


def _duration(text: str, sp: Span) -> bool:
    m = _inside(_V.DURATION, text, sp, 8)
    if m is None:
        return False
    return bool(_V.DURATION_BEFORE.search(text, max(0, m.start() - 12), m.start())
                or _V.DURATION_AFTER.match(text, m.end()))


def _heading(text: str, sp: Span, lows: list[str]) -> bool:
    lists = _lists()
    vocab = lists["labels"] | lists["roles"] | _V.JOINS
    if not lows or not all(w in vocab for w in lows) or all(w in _V.JOINS for w in lows):
        return False
    line_start, line_end = line_bounds(text, sp.start, sp.end)
    # the run of vocabulary words around the span, on its line, one space or tab between words
    words = list(fields.WORD.finditer(text[line_start:line_end]))
    run: list[re.Match] = []
    for m in words:
        gap = text[line_start + run[-1].end():line_start + m.start()] if run else ""
        if m.group(0).lower() in vocab and (not run or gap in (" ", "\t", "  ")):
            run.append(m)
            continue
        if run and run[0].start() + line_start <= sp.start and sp.end <= run[-1].end() + line_start:
            break
        run = [m] if m.group(0).lower() in vocab else []
    if not run or not (run[0].start() + line_start <= sp.start and sp.end <= run[-1].end() + line_start):
        return False
    if len(run) < 2 or not any(m.group(0).lower() in fields.LINE_HEADS for m in run):
        return False
    # one case for all its words but the joins: "ED NOTE by Ed" is a heading, then a name
    own = [m.group(0) for m in run if m.group(0).lower() not in _V.JOINS]
    if all(w.isupper() for w in own):
        return True
    if not all(w.islower() for w in own):
        return False
    before = text[line_start:line_start + run[0].start()].strip(" \t#*-=0123456789.")
    return not before and bool(_V.LINE_END.match(text, line_start + run[-1].end()))


def _after_title(text: str, start: int) -> bool:
    """Whether a title (``Dr``, ``Mr``...) stands right before ``start``."""
    before = text[max(0, start - 6):start].lower().rstrip(" .\t")
    return before.endswith(_TITLES)


def _role(text: str, sp: Span, lows: list[str]) -> bool:
    roles = _lists()["roles"]
    core = _V.ROLE_CORE
    if not lows or not all(w in roles for w in lows) or all(w in core for w in lows):
        return False
    words = fields.WORD.findall(text[sp.start:sp.end])
    if (sp.subtype != "PROFESSION" or len(words) < 2) and any(
            not w.isupper() and (w.lower() in _first_names() if w.lower() in core else w.lower() in _lists()["names"])
            for w in words) and not (len(words) > 1 and words[-1].lower() not in _first_names()
                                     and _V.CARE_AFTER.match(text, sp.end)):
        return False  # "Ed RN", "Sister Mary": a name written as a name; not "Ward Manager aware"
    if len(words) == 1 and lows[0] in _lists()["names"]:  # "HOUSE" of "HOUSE STAFF", not "DR HOUSE"
        nxt = _V.NEXT_WORD.match(text, sp.end)
        if nxt is None or nxt.group(1).lower() not in roles or _after_title(text, sp.start):
            return False
    prev = _V.PREV_WORD.search(text, max(0, sp.start - 24), sp.start)
    if sp.subtype != "PROFESSION":  # a state's code (PA, MD) stays a place, a user name (drs30) a name
        # a place's span after a role ("GP Registrar") when no word of it is a listed place or name
        after_role = sp.category == "LOCATION" and prev is not None and prev.group(1).lower() in roles \
            and not any(w in _lists()["named"] for w in lows)
        return (sp.category == "NAME" and sp.subtype != "USERNAME") or after_role
    if _V.WORKS_AS.search(text, max(0, sp.start - 30), sp.start):  # the patient's own work
        return False
    return (any(w in core for w in lows) or bool(_V.CARE_BEFORE.search(text, max(0, sp.start - 20), sp.start))
            or bool(_V.CARE_AFTER.match(text, sp.end))
            or (prev is not None and prev.group(1).lower() in roles))  # "Consultant Radiologist"


def without_label(text: str, sp: Span) -> Span:
    """``sp`` without the field label it starts with (``MRN:`` of ``MRN: 00482913``, ``DOB`` of
    ``DOB 3/4/1950``): a word of the ``note_labels`` list that is no staff role and no listed name
    (either only before a colon: ``Ward:``; in a place's span only before a colon too: ``ID 83278``
    is Idaho), then ``:``, ``#`` or ``=`` or a digit, and
    something after it. A label names the field; a
    surrogate of the whole span would replace it with letters of another kind (``MRN`` -> ``TIQ``).

    >>> from crfdeid.document import make_span
    >>> text = "MRN: 00482913; Ed 3 times"
    >>> [text[s.start:s.end] for s in (without_label(text, make_span(0, 13, "MEDICALRECORD")),
    ...                                without_label(text, make_span(15, 19, "PATIENT")))]
    ['00482913', 'Ed 3']
    """
    m = _V.LABEL_HEAD.match(text, sp.start, sp.end)
    if m is None or m.end() >= sp.end or not text[m.end():sp.end].strip():
        return sp
    word, lists = m.group(1).lower(), _lists()
    colon = ":" in m.group(0)  # "Ward: ..." is a label, "Ward 3" or "Ed 3" may be a name
    if sp.category == "LOCATION" and not colon:  # a place keeps its words: "ID 83278" is Idaho and a ZIP code
        return sp
    if word not in lists["labels"] or ((word in lists["roles"] or word in lists["names"]) and not colon):
        return sp
    return replace(sp, start=m.end())


def pieces(text: str, sp: Span) -> list[Span]:
    """What the clinical filter judges of a predicted span: its parts between field gaps
    (:func:`.fields.parts`), each narrowed (:func:`.fields.narrowed`) and without the field label it
    starts with (:func:`without_label`). No token of the span is left out but a label's, a
    profession's trailing number and an age's sex letter.

    >>> from crfdeid.document import make_span
    >>> text = "Employer: Ridgeway Haulage Ltd   Payroll No: RH20671"
    >>> [text[p.start:p.end] for p in pieces(text, make_span(10, 40, "HOSPITAL"))]
    ['Ridgeway Haulage Ltd', 'Payroll']
    """
    return [without_label(text, fields.narrowed(text, p)) for p in fields.parts(text, sp)]


def why_value(text: str, sp: Span) -> str | None:
    """The reason (``score``, ``grade``, ``setting``, ``vital``, ``time``, ``age``, ``duration``, ``dose number``,
    ``code``, ``heading``, ``label``, ``role``, ``specialty``, ``modal``, ``colour``, ``rhythm``, ``abbreviation``,
    ``side``, ``relation``, ``compound``) a predicted span is a clinical value, heading or role written in the
    note and no PHI,
    or None (the module's docstring and :mod:`.bedside` and :mod:`.fields` give each reason's evidence).

    >>> from crfdeid.document import make_span
    >>> text = "MRN: 00482913. Seen by Dr Wells 4/5."
    >>> why_value(text, make_span(0, 3, "PATIENT")), why_value(text, make_span(26, 31, "DOCTOR"))
    ('label', None)
    """
    surface = text[sp.start:sp.end]
    if not surface.strip():
        return None
    if _score(text, sp):
        return "score"
    if _near("vaccine_head", text, sp, 60) and _inside(_patterns()["vaccine"], text, sp) is not None:
        return "dose number"
    if _inside(_V.CODE, text, sp, 24) is not None:
        return "code"
    if (any(c.isdigit() for c in surface) or "/" in surface) and _grade(text, sp):
        return "grade"
    if any(c.isdigit() for c in surface):
        if sp.category == "NAME" and surface.lower() in _lists()["roles"]:  # a grade: F1, ST3, FY2
            return "role"
        if _setting(text, sp):
            return "setting"
        if _inside(bedside.VITAL, text, sp, 24) is not None:
            return "vital"
        if _clock(text, sp) or fields.clock_after_heading(text, sp):
            return "time"
        if _age(text, sp):
            return "age"
        if _duration(text, sp):
            return "duration"
        return None
    words = fields.WORD.findall(surface)
    if len("".join(words)) != sum(c.isalnum() or c in "/&'-" for c in surface):
        return None
    lows = [w.lower() for w in words]
    if _age(text, sp):  # the unit of an age found alone: the Y/M of 56 Y/M
        return "age"
    if len(lows) == 1 and lows[0] in _lists()["labels"] and lows[0] not in _lists()["names"] \
            and lows[0] not in _lists()["roles"] and sp.category != "LOCATION":  # "ID" of "Ogden, ID": Idaho
        return "label"
    if _heading(text, sp, lows) or fields.heading_line(text, sp) or fields.caps_heading(text, sp):
        return "heading"
    if fields.label_before_colon(text, sp, lows):
        return "label"
    if _role(text, sp, lows) \
            or (sp.category in ("NAME", "LOCATION") and sp.subtype != "DEPARTMENT" and fields.service_role(lows)):
        return "role"
    if sp.category in ("NAME", "LOCATION") and sp.subtype != "DEPARTMENT" and fields.specialty(text, sp, lows):
        return "specialty"
    why = bedside.why_words(text, sp, lows, _after_title(text, sp.start))
    if why:
        return why
    if sp.category == "NAME" and len(lows) == 1:
        nxt = _V.NEXT_WORD.match(text, sp.end)
        after = nxt.group(1).lower() if nxt else ""
        if lows[0] in _V.MODALS and after and after not in _common_names() and after in _verbs() \
                and not (words[0][0].isupper() and nxt and nxt.group(1).istitle()):  # "Will Try": a name
            return "modal"
        if lows[0] in _V.COLOURS and _V.FLUID_AFTER.match(text, sp.end) and not _after_title(text, sp.start):
            return "colour"
        if lows[0] in _V.RHYTHM_WORDS and _V.SINUS_BEFORE.search(text, max(0, sp.start - 8), sp.start):
            return "rhythm"
        if _V.COMPOUND.match(text, sp.end) or (_V.COMPOUND_SPACED.match(text, sp.end) and not _after_title(
                text, sp.start)):
            return "compound"
    if sp.category == "NAME" and len(lows) == 1 and "-" in words[0]:
        head, _, tail = words[0].partition("-")
        if _V.COMPOUND.fullmatch("-" + tail):
            return "compound"
    return None
