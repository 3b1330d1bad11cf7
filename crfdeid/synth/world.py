"""The ``world`` style: note kinds and conventions the ICU styles never write (issue 50 item 5).

``synth:N,SEED,world`` writes, for patients of the US, the UK, Ireland, Australia, Canada and
India, ED triage notes, discharge summaries, radiology reports, psychiatry reviews, social work
and pharmacy notes, telephone encounters, clinic letters and lower-case telegraphic ward notes
(:data:`~crfdeid.synth.world_templates.HEADINGS`). What a model trained on the ICU styles
missed or invented is in them on purpose:

* **names** it did not know: given names joined by a hyphen (``Ji-ho``, ``Mary-Kate``: one
  span), nicknames in quotes (``Robert "Bobby" Lane``: the nickname its own span, quotes not
  PHI), surnames of other countries (``O'Sullivan``, ``Krishnamurthy``);
* **places**: employers (``works for Ridgeline Freight``) and schools (``attends Ashgrove
  Primary School``) as ORGANIZATION, hospitals in lower case (``st luke's``, ``mercy general``),
  the whole street after its number (``14 Wexford Road``), hyphenated towns as one span
  (``Stoke-on-Trent``, ``Wilkes-Barre``), counties, provinces and postcodes (``ST4 6QG``,
  ``D02 X285``, ``K1A 0B1``, 4- and 6-digit codes), NHS-style numbers (valid check digit);
* **dates** day first outside the US (``14/03/2087``, ``3rd March 2087``, ``14.03.87``);
* **look-alikes labelled non-PHI** (:data:`~crfdeid.synth.world_templates.LOOKALIKES`): scores
  with values, grades, fractions, times, headings, field labels, eponyms, contrast agents with
  strengths, vaccine doses, modal *will*, colours, ``st``/``high``/``pearl``/``bss``; ages under 90.

Names and places come from the gazetteers and :mod:`crfdeid.synth.world_lists` (written by
hand, MIT); phrases from :mod:`crfdeid.synth.world_templates`. Every note is synthetic.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from .. import gazetteers
from . import persona as ps
from . import world_lists as wl
from .builder import NoteBuilder
from .phrases import fill
from .world_templates import HEADINGS, LINES, LOOKALIKES

#: Countries of the patients and how often each is drawn.
COUNTRIES = {"US": 30, "UK": 25, "IE": 10, "AU": 12, "CA": 12, "IN": 11}
#: Note kinds (keys of :data:`~crfdeid.synth.world_templates.LINES`) and their weights.
NOTE_KINDS = {"ward": 22, "triage": 10, "discharge": 12, "radiology": 10, "psychiatry": 9, "social": 8,
              "pharmacy": 8, "telephone": 9, "letter": 12}
#: Note kinds whose lines keep the order of their templates (a letter ends with its signature).
ORDERED = frozenset(["letter", "discharge", "radiology"])
#: Date layouts: day first outside the US, month first in it.
DAY_FIRST = ("{dd}/{mm}/{Y}", "{d}/{m}/{Y}", "{dd}/{mm}/{y}", "{dd}.{mm}.{Y}", "{d} {B} {Y}", "{o} {B} {Y}",
             "{d}-{b}-{Y}", "{d} {b} {y}", "{d}/{m}", "{dd}-{mm}-{Y}", "{o} {B}", "{d} {b}")
MONTH_FIRST = ("{mm}/{dd}/{Y}", "{m}/{d}/{y}", "{m}/{d}", "{B} {d}, {Y}", "{b} {d}", "{Y}-{mm}-{dd}",
               "{m}-{d}-{y}", "{B} {o}")


@dataclass
class World:
    """One patient of the ``world`` style and the people and places of their notes."""

    country: str
    first: str
    last: str
    nick: str
    sex: str
    age: int
    admit: dt.date
    town: str
    region: str
    postcode: str
    street: str
    phone: str
    record: str
    relatives: list = field(default_factory=list)  # (relation, first name)
    doctors: list = field(default_factory=list)  # (first, last)
    hospital: str = ""
    employer: str = ""


@cache
def _list(name: str) -> tuple[str, ...]:
    return wl.split(getattr(wl, name))


def _given(rng: random.Random, sex: str) -> str:
    r = rng.random()
    if r < 0.25:
        return rng.choice(_list("HYPHENATED_GIVEN"))
    if r < 0.55:
        return rng.choice(_list("GIVEN"))
    return rng.choice(ps.pool("first_male" if sex == "M" else "first_female")[:600])


def _surname(rng: random.Random) -> str:
    return rng.choice(_list("SURNAMES")) if rng.random() < 0.5 else rng.choice(ps.pool("surnames")[:3000])


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABDEFGHJLNPQRSTUWXY") for _ in range(n))


def postcode(rng: random.Random, country: str) -> str:
    """A postcode in ``country``'s layout (UK ``ST4 6QG``, IE ``D02 X285``, CA ``K1A 0B1``, AU/IN/US digits)."""
    if country == "UK":
        return f"{_letters(rng, rng.choice([1, 2]))}{rng.randint(1, 29)} {rng.randint(0, 9)}{_letters(rng, 2)}"
    if country == "IE":
        return f"{rng.choice('ADEFHKNPRTVWXY')}{rng.randint(10, 99)} {_letters(rng, 1)}{rng.randint(100, 999)}"
    if country == "CA":
        a, b = (rng.choice("ABCEGHJKLMNPRSTVXY") for _ in range(2))
        return f"{a}{rng.randint(0, 9)}{_letters(rng, 1)} {rng.randint(0, 9)}{b}{rng.randint(0, 9)}"
    if country == "AU":
        return str(rng.randint(800, 7999)).zfill(4)
    if country == "IN":
        code = str(rng.randint(110001, 855999))
        return code if rng.random() < 0.7 else f"{code[:3]} {code[3:]}"
    return f"{rng.randint(1, 99950):05d}"


def phone(rng: random.Random, country: str, mobile: bool = False) -> str:
    """A phone number in ``country``'s layout, from ranges set aside for drama where there are such."""
    n3, n4 = rng.randint(0, 999), rng.randint(0, 9999)
    if country == "UK":
        return rng.choice([f"07700 900{n3:03d}", f"+44 7700 900{n3:03d}"] if mobile else
                          [f"01632 960{n3:03d}", f"(0161) 496 0{n3:03d}", f"0113 496 0{n3:03d}"])
    if country == "IE":
        return rng.choice([f"087 555 {n4:04d}", f"+353 85 555 {n4:04d}"] if mobile else [f"(01) 555 {n4:04d}"])
    if country == "AU":
        return rng.choice([f"0491 570 {n3:03d}", f"+61 491 570 {n3:03d}"] if mobile else
                          [f"(02) 5550 {n4:04d}", f"(03) 7010 {n4:04d}"])
    if country == "IN":
        return rng.choice([f"+91 98{n3:03d} {n4:04d}0", f"98{n3:03d}{n4:05d}"] if mobile else
                          [f"0484 255 {n4:04d}", f"(080) 2555 {n4:04d}"])
    return f"({rng.randint(201, 989)}) 555-{n4:04d}" if rng.random() < 0.5 else ps.phone(rng)


def nhs_number(rng: random.Random) -> str:
    """A ten-digit NHS-style number with a valid check digit (``943 476 5919``).

    The check digit is the NHS modulus 11 (weights 10 to 2 on the first nine digits; a number
    whose check would be 10 is not issued). The tests check it with python-stdnum's ``gb.nhs``,
    which is not a dependency of crfdeid.
    """
    while True:  # about one draw in eleven has no check digit (it would be 10)
        body = ps.digits(rng, 9)
        check = -sum(i * int(n) for i, n in enumerate(reversed(body), 2)) % 11
        if check != 10:
            number = body + str(check)
            return f"{number[:3]} {number[3:6]} {number[6:]}" if rng.random() < 0.7 else number


def identifier(rng: random.Random, w: World) -> list:
    """The patient's number with its label, as the country writes it."""
    if w.country == "UK":
        return rng.choice([["NHS No: ", ("MEDICALRECORD", w.record)], ["NHS number ", ("MEDICALRECORD", w.record)],
                           ["Hosp No: ", ("MEDICALRECORD", f"{_letters(rng, 1)}{ps.digits(rng, 6)}")]])
    if w.country == "AU":
        return ["Medicare ", ("HEALTHPLAN", f"{ps.digits(rng, 4)} {ps.digits(rng, 5)} {rng.randint(1, 9)}")
                ] if rng.random() < 0.5 else ["URN ", ("MEDICALRECORD", w.record)]
    if w.country == "CA":
        if rng.random() < 0.5:
            return ["Health card ", ("HEALTHPLAN", f"{ps.digits(rng, 4)}-{ps.digits(rng, 3)}-{ps.digits(rng, 3)}-"
                                                   f"{_letters(rng, 2)}")]
        return ["MRN ", ("MEDICALRECORD", w.record)]
    if w.country == "IN":
        return rng.choice([["UHID ", ("MEDICALRECORD", w.record)], ["IP No. ", ("MEDICALRECORD", w.record)]])
    return [rng.choice(["MRN: ", "MRN ", "Chart no. "]), ("MEDICALRECORD", w.record)]


def world_patient(rng: random.Random, p: ps.Patient) -> World:
    """A ``world`` patient drawn after :func:`crfdeid.synth.persona.patient` (its age and admission)."""
    country = ps.weighted(rng, COUNTRIES)
    sex = p.person.sex
    if country == "US":
        town = rng.choice(wl.split(wl.TOWNS["US"]) if rng.random() < 0.3 else ps.pool("cities")[:1500])
        region = rng.choice(p.state)
    else:
        town = rng.choice(wl.split(wl.TOWNS[country]))
        region = rng.choice(wl.split(wl.REGIONS[country]))
    record = (nhs_number(rng) if country == "UK" else
              rng.choice([ps.digits(rng, 7), f"{rng.randint(2060, 2100)}/{ps.digits(rng, 5)}", ps.digits(rng, 8)]))
    w = World(country, _given(rng, sex), _surname(rng), rng.choice(_list("NICKNAMES")), sex, p.age, p.admit, town,
              region, postcode(rng, country), street(rng, country), phone(rng, country), record)
    w.relatives = [(rng.choice(["daughter", "son", "wife", "husband", "mother", "partner", "sister", "brother",
                                "niece", "carer", "mum", "dad"]), _given(rng, rng.choice("MF"))) for _ in range(3)]
    w.doctors = [(_given(rng, rng.choice("MF")), _surname(rng)) for _ in range(3)]
    w.hospital = hospital(rng, w.town)
    w.employer = employer(rng)
    return w


def street(rng: random.Random, country: str) -> str:
    """A full street after its number: ``14 Wexford Road``, ``Flat 2, 9 Mill St``, ``221 Elm Street``."""
    if country == "US":
        return f"{rng.randint(1, 9999)} {rng.choice(ps.pool('street_names'))}"
    name = f"{rng.choice(_list('STREET_BASES'))} {rng.choice(_list('STREET_SUFFIXES'))}"
    number = str(rng.randint(1, 240)) + rng.choice(["", "", "", "a", "b"])
    return rng.choice([f"{number} {name}", f"{number} {name}", f"Flat {rng.randint(1, 30)}, {number} {name}"])


def hospital(rng: random.Random, town: str) -> str:
    """A hospital as a letter names it: ``Stoke-on-Trent General Hospital``, ``St Brigid's Hospital``."""
    form = rng.randrange(3)
    if form == 0:
        return f"{town} {rng.choice(_list('HOSPITAL_TAILS'))}"
    if form == 1:
        saint = f"{rng.choice(['St', 'St.', 'Saint'])} {rng.choice(_list('SAINTS'))}'s"
        return f"{saint} {rng.choice(['Hospital', 'Infirmary'])}"
    return f"{rng.choice(_list('NAME_HEADS'))} {rng.choice(_list('HOSPITAL_TAILS'))}"


def employer(rng: random.Random) -> str:
    """An employer: ``Ridgeline Freight``, ``Patel & Sons``, ``Stockport Borough Council``."""
    head = rng.choice([rng.choice(_list("NAME_HEADS")), _surname(rng), rng.choice(wl.split(wl.TOWNS["UK"]))])
    return f"{head} {rng.choice(_list('EMPLOYER_TAILS'))}"


def school(rng: random.Random) -> str:
    """A school: ``Ashgrove Primary School``, ``St Columba's College``."""
    head = (f"St {rng.choice(_list('SAINTS'))}'s" if rng.random() < 0.35 else rng.choice(_list("NAME_HEADS")))
    return f"{head} {rng.choice(_list('SCHOOL_TAILS'))}"


def _date(rng: random.Random, w: World, day: dt.date, forms: tuple[str, ...] | None = None) -> tuple[str, str]:
    forms = forms or (MONTH_FIRST if w.country == "US" else DAY_FIRST)
    return ("DATE", ps.date_text(rng, day, rng.choice(forms)))


def _person_name(rng: random.Random, first: str, last: str, sex: str, nick: str, sub: str = "PATIENT") -> list:
    title = rng.choice(["Mr", "Mr."] if sex == "M" else ["Mrs", "Ms", "Miss", "Ms."])
    return rng.choice([[f"{title} ", (sub, last)], [(sub, f"{first} {last}")], [(sub, first)],
                       [(sub, first), ' "', (sub, nick), '" ', (sub, last)], [(sub, f"{last.upper()}, {first}")],
                       [(sub, f"{first} {rng.choice('ABCDEJKLMPRST')}. {last}")], [(sub, f"{last}, {first}")]])


def _time(rng: random.Random) -> str:
    return rng.choice(["{h:02d}:{m:02d}", "{h:02d}{m:02d}", "{h}:{m:02d}", "{h:02d}{m:02d}h", "{h:02d}.{m:02d}"]
                      ).format(h=rng.randint(0, 23), m=rng.randint(0, 59))


def _hosp_lc(rng: random.Random, w: World, day: dt.date) -> list:
    short = rng.choice(_list("HOSPITAL_SHORT"))
    if short.startswith("the "):  # the article is no part of the name
        return ["the ", ("HOSPITAL", short[4:])]
    return [("HOSPITAL", rng.choice([short, short, w.hospital.lower(), f"{w.town.lower()} general"]))]


def _acronym(rng: random.Random, w: World) -> str:
    """A hospital's initials (``SJH``), or letters that are no clinical abbreviation or English word."""
    initials = ps.hospital_acronym(w.hospital)
    if rng.random() < 0.5 and initials.lower() not in _words_taken():
        return initials
    while True:
        letters = _letters(rng, rng.randint(2, 4))
        if letters.lower() not in _words_taken():
            return letters


@cache
def _words_taken() -> frozenset:
    return frozenset().union(*(gazetteers.load(n) for n in ("clinical_abbrevs", "common_words", "stop_words")))


Slot = Callable[[random.Random, World, dt.date], list]


def slot_of(name: str, vocabs: tuple[dict, ...], slots: tuple[dict, ...], fallback: Callable[[str], Slot]) -> Slot:
    """The ``<name>`` slot of a style: a draw of the first of ``vocabs`` (plain text) that holds it, else the
    first of ``slots`` (PHI pieces) that holds it, else ``fallback(name)`` (the style it grows from)."""
    for vocab in vocabs:
        if name in vocab:
            draw = vocab[name]
            return lambda r, w, d: [draw(r)]
    return next((table[name] for table in slots if name in table), None) or fallback(name)
#: ``<slot>`` fillers: PHI pieces or plain text (``look``, ``time``, ``age``, ``him_her``).
SLOTS: dict[str, Slot] = {
    "pt": lambda r, w, d: _person_name(r, w.first, w.last, w.sex, w.nick),
    "pt_full": lambda r, w, d: [("PATIENT", f"{w.first} {w.last}")],
    "nick_q": lambda r, w, d: ['"', ("PATIENT", w.nick), '"'],
    "rel": lambda r, w, d: [("PATIENT", r.choice(w.relatives)[1])],
    "rel_rel": lambda r, w, d: [r.choice(w.relatives)[0]],
    "dr_last": lambda r, w, d: [("DOCTOR", r.choice(w.doctors)[1])],
    "dr_full": lambda r, w, d: [("DOCTOR", " ".join(w.doctors[0]))],
    "nurse": lambda r, w, d: [("DOCTOR", r.choice([_given(r, "F"), f"{_given(r, 'F')} {_surname(r)}"]))],
    "pharmacist": lambda r, w, d: [("DOCTOR", f"{_given(r, r.choice('MF'))} {_surname(r)}")],
    "date": lambda r, w, d: [_date(r, w, d - dt.timedelta(days=r.randint(0, 40)))],
    "dob": lambda r, w, d: [_date(r, w, dt.date(d.year - w.age, r.randint(1, 12), r.randint(1, 28)),
                                  ("{dd}/{mm}/{Y}", "{d} {B} {Y}", "{dd}.{mm}.{Y}") if w.country != "US" else None)],
    "hosp": lambda r, w, d: [("HOSPITAL", w.hospital)],
    "hosp_other": lambda r, w, d: [("HOSPITAL", hospital(r, r.choice(wl.split(wl.TOWNS[r.choice(list(wl.TOWNS))]))))],
    "hosp_lc": _hosp_lc,
    "hosp_abbr": lambda r, w, d: [("HOSPITAL", _acronym(r, w))],
    "initials": lambda r, w, d: [("DOCTOR", r.choice([w.doctors[1][0][0] + w.doctors[1][1][0],
                                                      w.doctors[2][0][0] + "." + w.doctors[2][1][0] + "."]).lower())],
    "pager": lambda r, w, d: [("PHONE", r.choice([ps.digits(r, 5), ps.pager(r), f"#{ps.digits(r, 4)}"]))],
    "street": lambda r, w, d: [("STREET", w.street)],
    "town": lambda r, w, d: [("CITY", w.town)],
    "region": lambda r, w, d: [("STATE", w.region)],
    "postcode": lambda r, w, d: [("ZIP", w.postcode)],
    "phone": lambda r, w, d: [("PHONE", w.phone)],
    "mobile": lambda r, w, d: [("PHONE", phone(r, w.country, mobile=True))],
    "id": lambda r, w, d: identifier(r, w),
    "accession": lambda r, w, d: [("IDNUM", f"{_letters(r, 2)}{ps.digits(r, 8)}")],
    "employer": lambda r, w, d: [("ORGANIZATION", r.choice([w.employer, employer(r)]))],
    "school": lambda r, w, d: [("ORGANIZATION", school(r))],
    "look": lambda r, w, d: [render_plain(r, r.choice(LOOKALIKES))],
    "time": lambda r, w, d: [_time(r)],
    "age": lambda r, w, d: [str(r.randint(18, 89))],
    "pt_age": lambda r, w, d: [("AGE", str(w.age)) if w.age >= 90 else str(w.age)],
    "him_her": lambda r, w, d: ["him" if w.sex == "M" else "her"],
}
_SLOT = re.compile(r"<([a-z_]+)>")


def render_plain(rng: random.Random, template: str) -> str:
    """A look-alike template filled (its ``<time>``/``<age>`` too): text that is never PHI."""
    return _SLOT.sub(lambda m: _plain_slot(rng, m.group(1)), fill(rng, template))


def _plain_slot(rng: random.Random, name: str) -> str:
    piece = SLOTS[name](rng, _NOBODY, _DAY)[0]
    if not isinstance(piece, str):  # a look-alike is never PHI: a PHI slot there is a template error
        raise ValueError(f"look-alike templates take plain slots only (look, time, age), got <{name}>")
    return piece


def render(rng: random.Random, w: World, day: dt.date, template: str,
           slot: Callable[[str], Slot] = SLOTS.__getitem__, pattern: re.Pattern = _SLOT) -> list[list]:
    """``template`` as lines of builder pieces: ``{...}`` drawn by ``fill``, ``<slot>`` by ``slot(name)``.

    ``slot`` defaults to :data:`SLOTS`; the ``specialty`` style passes its own (vocabulary slots
    and its countries' numbers) and a ``pattern`` that also takes capitals and digits (``<Site>``).
    Empty pieces are dropped.
    """
    lines = []
    for line in template.split("\n"):
        parts = pattern.split(fill(rng, line))
        pieces: list = []
        for i, part in enumerate(parts):
            pieces.extend([part] if i % 2 == 0 else slot(part)(rng, w, day))
        lines.append([x for x in pieces if x])
    return lines


_DAY = dt.date(2080, 1, 1)
_NOBODY = World("US", "", "", "", "F", 50, _DAY, "", "", "", "", "", "")


def _header(rng: random.Random, w: World, day: dt.date, kind: str, b: NoteBuilder) -> None:
    head = [rng.choice(HEADINGS[kind]), rng.choice([" ", " - ", "  "])]  # drawn in this order
    when: list = rng.choice([[_date(rng, w, day)], [""], [_date(rng, w, day), " ", _time(rng)]])
    b.line(*head, *when)
    if kind in ("ward", "telephone") and rng.random() < 0.6:
        return
    b.line(rng.choice(["Name: ", "Patient: ", "PATIENT: ", "Re: "]), *_person_name(rng, w.first, w.last, w.sex, w.nick))
    if rng.random() < 0.7:
        b.line(rng.choice(["DOB: ", "D.O.B. ", "Date of birth: "]), *SLOTS["dob"](rng, w, day),
               rng.choice(["  ", "   ", "\t"]), *identifier(rng, w))
    if kind in ("letter", "discharge", "social") and rng.random() < 0.6:
        b.line(("STREET", w.street))
        b.line(("CITY", w.town), *([", ", ("STATE", w.region)] if rng.random() < 0.6 else []), " ",
               ("ZIP", w.postcode))
    if w.age >= 90 and rng.random() < 0.5:
        b.line("Age: ", ("AGE", str(w.age)))


def world_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``world``-style note about a patient drawn after ``p`` on ``day`` into ``b``.

    The patient is drawn from ``rng`` after ``p`` each time (country, names, places), so the
    notes of one record share age and dates but not always a country.
    """
    w = world_patient(rng, p)
    kind = ps.weighted(rng, NOTE_KINDS)
    start = len(b)
    _header(rng, w, day, kind, b)
    lines = LINES[kind]
    chosen = rng.sample(range(len(lines)), rng.randint(min(4, len(lines)), len(lines)))
    if kind in ORDERED:  # a letter or a report keeps its order; a ward note's lines come in any order
        chosen.sort()
    for template in (lines[i] for i in chosen):
        for pieces in render(rng, w, day, template):
            b.line(*pieces)
    if rng.random() < 0.5:
        b.line(*render(rng, w, day, rng.choice(LOOKALIKES))[0])
    casing = {"lower": 70, "upper": 30} if kind == "ward" else {"": 75, "lower": 15, "upper": 10}
    b.finish(start, ps.weighted(rng, casing))
