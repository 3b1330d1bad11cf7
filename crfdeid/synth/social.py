"""The ``social`` style: identifiers that no rule finds, where notes write them (issue 58 items 1-2).

``synth:N,SEED,social`` writes three kinds of note (:mod:`crfdeid.synth.social_templates`):

* a **social history** (``social``): where the patient works (``works as a cashier at Ridgeline
  Freight``), which school a child attends, which care home, charity, church, insurer, ambulance
  service or home care agency; the address and GP practice;
* a **referral or discharge letter** (``letter``): a letterhead and the patient's address in the
  country's order (``Keizersgracht 112, 1015 CX Amsterdam``, ``ul. Długa 5/3, 00-238 Kraków``,
  ``C/ Mayor 14, 3º B, 28013 Madrid``, ``Hauptstraße 7, 10115 Berlin``, ``12 rue de la Paix, 75002
  Paris``), a transfer from a hospital followed by its initials (``UMCG``) and the initials alone
  after it, an age over 89;
* a **registry, benefits or care form** (``form``): labelled fields in the country's language.

Patients are of the Netherlands, Poland, Spain, Germany and France (half the notes; names, streets,
towns and firms from ``crfdeid/_data/europe_places.txt``: GeoNames and Faker's locales, regenerated
by ``python gazetteers/europe_places.py``) or of the ``specialty`` style's countries. Organisations
are built from the hand-written heads and tails of :mod:`crfdeid.synth.world_lists` and those firms.
Ages over 89 are AGE in figures and words; in a third of the same slots an age under 90 is drawn,
plain. Look-alikes stay unlabelled: eponyms, brands, named scores, departments, ``Ward 7``,
clinical phrases that read like a place (``circle of Willis``, ``pouch of Douglas``), clinical terms
with their abbreviation in brackets (``benign prostatic hyperplasia (BPH)``, beside a hospital's
initials), laboratory values (``Hb 104, Na 138``, beside streets) and eponymous tests and devices
(``Dawes-Redman criteria met``, ``Medtronic pacemaker``, beside organisations).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from functools import cache

from .. import _data
from . import persona as ps
from . import specialty as sp
from . import world as wd
from . import world_lists as wl
from .builder import NoteBuilder
from .phrases import fill
from .social_templates import (
    EPONYM_TESTS,
    FORM_FIELDS,
    HEADINGS,
    LABS,
    LANGUAGES,
    LETTER_LINES,
    SOCIAL_LINES,
    TERM_ABBREVIATIONS,
)

#: Note kinds and their weights.
NOTE_KINDS = {"social": 40, "letter": 35, "form": 25}
#: The European countries of this style (half the patients), as ISO 3166 codes.
EUROPE = ("NL", "PL", "ES", "DE", "FR")
#: Postcode layouts (``#`` a digit, ``A`` a capital letter).
POSTCODES = {"NL": "#### AA", "PL": "##-###", "ES": "#####", "DE": "#####", "FR": "#####"}
#: Hospital names by country: ``{t}`` a town, ``{s}`` a saint or a surname.
HOSPITALS = {
    "NL": ["Universitair Medisch Centrum {t}", "Ziekenhuis {t}", "{s} Ziekenhuis", "Medisch Centrum {t}",
           "Sint {s} Gasthuis"],
    "PL": ["Szpital Wojewódzki w {t}", "Uniwersytecki Szpital Kliniczny w {t}", "Szpital Miejski {t}",
           "Centrum Medyczne {s}"],
    "ES": ["Hospital Universitario {s}", "Hospital General de {t}", "Hospital Clínico de {t}",
           "Complejo Hospitalario de {t}"],
    "DE": ["Universitätsklinikum {t}", "Klinikum {t}", "Städtisches Klinikum {t}", "St. {s} Krankenhaus"],
    "FR": ["Centre Hospitalier Universitaire de {t}", "Centre Hospitalier de {t}", "Hôpital {s}",
           "Clinique {s}"],
}
#: Organisation forms: ``{h}`` a head word (a made-up name, a surname or a town), ``{s}`` a saint.
ORGS = {
    "carehome": ["{h} Care Home", "{h} Nursing Home", "{h} House", "{h} Lodge Residential Home",
                 "St {s}'s Nursing Home", "NL:Zorgcentrum {h}", "PL:Dom Pomocy Społecznej {h}", "ES:Residencia {h}",
                 "DE:Seniorenheim {h}", "FR:EHPAD {h}"],
    "charity": ["{h} Food Bank", "{h} Carers Centre", "{h} Community Trust", "Friends of {h}",
                "NL:Stichting {h}", "PL:Fundacja {h}", "ES:Asociación {h}", "DE:{h} Hilfswerk", "FR:Association {h}"],
    "insurer": ["{h} Health Insurance", "{h} Mutual", "{h} Health Plan", "NL:Zorgverzekeraar {h}",
                "ES:{h} Seguros", "DE:{h} Krankenkasse", "FR:Mutuelle {h}"],
    "church": ["St {s}'s Church", "{h} Baptist Church", "{h} Methodist Chapel", "PL:Parafia św. {s}",
               "ES:Parroquia de San {s}", "DE:{h} Gemeinde"],
    "ems": ["{h} Ambulance Service", "{h} EMS", "{h} Fire", "{h} Air Ambulance", "NL:Ambulancezorg {h}"],
    "agency": ["{h} Home Care", "{h} Homecare Ltd", "NL:Thuiszorg {h}", "DE:{h} Pflegedienst",
               "FR:Cabinet Infirmier {h}", "{h} Visiting Nurses"],
    "practice": ["{h} Medical Practice", "{h} Family Medicine", "NL:Huisartsenpraktijk {h}", "DE:Praxis Dr. {h}",
                 "ES:Centro de Salud {h}", "FR:Maison de Santé {h}", "PL:Przychodnia {h}", "{h} Health Centre"],
    "school": ["NL:Basisschool {h}", "PL:Szkoła Podstawowa nr {n} w {t}", "ES:Colegio {h}", "DE:{h} Grundschule",
               "FR:École primaire {h}", "{h} Community College", "{h} Academy"],
}
#: Clinical phrases that read like a place or a name (never PHI).
CLINICAL_PLACES = ("circle of Willis", "pouch of Douglas", "canal of Schlemm", "Hunter's canal", "Calot's triangle",
                   "Broca's area", "Wernicke's area", "bundle of His", "sinus of Valsalva", "space of Retzius",
                   "ampulla of Vater", "sphincter of Oddi", "ligament of Treitz", "Scarpa's fascia",
                   "Morison's pouch", "Hesselbach's triangle", "Meckel's diverticulum", "Peyer's patches")
_WORDS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@cache
def europe(country: str, kind: str) -> tuple[str, ...]:
    """Entries of ``crfdeid/_data/europe_places.txt`` of ``country`` and ``kind`` (first, last, street, town, firm).

    >>> "Amsterdam" in europe("NL", "town")
    True
    """
    return tuple(entry for cc, k, entry in _data.rows("europe_places.txt") if cc == country and k == kind)


def _code(rng: random.Random, layout: str) -> str:
    return "".join(str(rng.randint(0, 9)) if c == "#" else rng.choice("ABCDEGHJKLMNPRSTVWXZ") if c == "A" else c
                   for c in layout)


def _street(rng: random.Random, country: str) -> str:
    """A street and number in the country's order (``Keizersgracht 112``, ``ul. Długa 5/3``, ``12 rue ...``)."""
    name, n = rng.choice(europe(country, "street")), rng.randint(1, 240)
    if country == "NL":
        return f"{name} {n}{rng.choice(['', '', '-2', ' A', 'b', ' hs'])}"
    if country == "PL":
        prefix = "" if name.split()[0].lower().rstrip(".") in ("ul", "al", "pl", "os", "rynek") else \
            rng.choice(["ul. ", "ul. ", "al. ", ""])
        return f"{prefix}{name} {n}" + rng.choice(["", f"/{rng.randint(1, 60)}", f" m. {rng.randint(1, 60)}"])
    if country == "ES":
        if rng.random() < 0.4:
            name = f"C/ {rng.choice(europe('ES', 'last'))}"
        return f"{name} {n}" + rng.choice(["", f", {rng.randint(1, 9)}º {rng.choice('ABCD')}",
                                           f", {rng.randint(1, 9)}º"])
    if country == "DE":
        return f"{name} {n}{rng.choice(['', '', 'a', ' b'])}"
    return f"{n}{rng.choice(['', '', ' bis'])} {name}"


def europe_patient(rng: random.Random, p: ps.Patient, country: str) -> wd.World:
    """A patient of one of :data:`EUROPE`, drawn after ``p`` (its sex, age and admission)."""
    first, last, town = (rng.choice(europe(country, k)) for k in ("first", "last", "town"))
    w = wd.World(country, first, last, rng.choice(wd._list("NICKNAMES")), p.person.sex, p.age, p.admit, town, "",
                 _code(rng, POSTCODES[country]), _street(rng, country), sp._phone(rng, "SE"), ps.digits(rng, 9))
    w.relatives = [(rng.choice(["daughter", "son", "wife", "husband", "niece", "neighbour"]),
                    rng.choice(europe(country, "first"))) for _ in range(3)]
    w.doctors = [(rng.choice(europe(country, "first")), rng.choice(europe(country, "last"))) for _ in range(3)]
    w.hospital = _hospital(rng, country, town)
    w.employer = rng.choice(europe(country, "firm"))
    return w


def _hospital(rng: random.Random, country: str, town: str) -> str:
    saint = rng.choice(wl.split(wl.SAINTS) + europe(country, "last"))
    return rng.choice(HOSPITALS[country]).format(t=town, s=saint)


def acronym(name: str) -> str:
    """A hospital's initials as notes write them: capitals of its words (``UMCG``, ``CHUL``, ``USKW``).

    >>> acronym("Universitair Medisch Centrum Groningen"), acronym("Hospital General de Toledo")
    ('UMCG', 'HGT')
    """
    return ps.hospital_acronym(" ".join(w for w in name.split() if w[:1].isupper() or w[:1].isdigit()))


def _head(rng: random.Random, w: wd.World) -> str:
    if w.country in EUROPE and rng.random() < 0.6:
        return rng.choice([rng.choice(europe(w.country, "last")), w.town, rng.choice(europe(w.country, "street"))])
    return rng.choice([rng.choice(wd._list("NAME_HEADS")), wd._surname(rng), w.town])


def _org(kind: str) -> wd.Slot:
    def draw(rng: random.Random, w: wd.World, day: dt.date) -> list:
        if kind == "employer" and rng.random() < 0.5:
            name = w.employer if w.country in EUROPE else wd.employer(rng)
        elif kind == "school" and w.country not in EUROPE and rng.random() < 0.5:
            name = wd.school(rng)
        else:
            forms = [f for f in ORGS.get(kind, ORGS["charity"]) if f[:3] == f"{w.country}:" or f[2:3] != ":"]
            if w.country in EUROPE and rng.random() < 0.7:  # a European patient's own country's names mostly
                forms = [f for f in forms if f[2:3] == ":"] or forms
            name = rng.choice(forms).split(":", 1)[-1].format(h=_head(rng, w), s=rng.choice(wl.split(wl.SAINTS)),
                                                              t=w.town, n=rng.randint(1, 40))
        return [("ORGANIZATION", name)]
    return draw


def _pc_town(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """The postcode then the town, as European addresses write them (the town alone at times)."""
    if w.country not in EUROPE:
        return [("CITY", w.town), " ", ("ZIP", w.postcode)] if w.postcode else [("CITY", w.town)]
    town = w.town.upper() if rng.random() < 0.15 else w.town
    return [("ZIP", w.postcode), rng.choice(["  ", " "]), ("CITY", town)] if rng.random() < 0.9 else [("CITY", town)]


def _age(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """An age over 89 (AGE) in figures or words; in a third of the slots an age under 90, plain."""
    if rng.random() < 0.33:
        return [str(rng.randint(18, 89))]
    age = rng.randint(90, 104)
    if rng.random() < 0.15 and age < 100:
        return [("AGE", f"ninety{'-' + _WORDS[age - 90] if age > 90 else ''}")]
    return [("AGE", str(age))]


def _hosp_acr(rng: random.Random, w: wd.World, day: dt.date) -> list:
    return [("HOSPITAL", w.hospital), " (", ("HOSPITAL", _initials(w)), ")"]


def _initials(w: wd.World) -> str:
    return acronym(w.hospital) if w.country in EUROPE else ps.hospital_acronym(w.hospital)


def _labs(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """Two to four laboratory values, a word and a number each, in the patient's language at times (plain)."""
    own = LANGUAGES.index(w.country) if w.country in LANGUAGES and rng.random() < 0.6 else 0
    values = []
    for names, low, high, places in rng.sample(LABS, rng.randint(2, 4)):
        value = f"{rng.uniform(low, high):.{places}f}"
        values.append(f"{names[own] if len(names) > 1 else names[0]} {value.replace('.', ',') if own else value}")
    return ["; ".join(values) if own else ", ".join(values)]


def _plain(draw: Callable[[random.Random], str]) -> wd.Slot:
    return lambda r, w, d: [draw(r)]


#: This style's slots (the others: :func:`crfdeid.synth.specialty._slot`).
SOCIAL_SLOTS: dict[str, wd.Slot] = {
    **{k: _org(k) for k in ("employer", "school", "carehome", "charity", "insurer", "church", "ems", "agency",
                            "practice")},
    "job": lambda r, w, d: [("PROFESSION", r.choice(ps.pool("professions")))],
    "addr": lambda r, w, d: [("STREET", w.street)],
    "pc_town": _pc_town,
    "old": _age,
    "hosp_acr": _hosp_acr,
    "hosp_full": lambda r, w, d: [("HOSPITAL", w.hospital)],
    "acr": lambda r, w, d: [("HOSPITAL", _initials(w))],
    "healthplan": lambda r, w, d: [("HEALTHPLAN", f"{wd._letters(r, 3)}{ps.digits(r, 9)}")],
    "dept": _plain(lambda r: r.choice(ps.pool("departments"))),
    "clin_st": _plain(lambda r: r.choice(CLINICAL_PLACES)),
    "term_ab": _plain(lambda r: r.choice(TERM_ABBREVIATIONS)),
    "labs": _labs,
    "eptest": _plain(lambda r: fill(r, r.choice(EPONYM_TESTS))),
}


def _slot(name: str) -> wd.Slot:
    return SOCIAL_SLOTS.get(name) or sp._slot(name)


def _lines(rng: random.Random, w: wd.World, day: dt.date, b: NoteBuilder, templates: list[str], low: int) -> None:
    k = rng.randint(min(low, len(templates)), len(templates))
    for i in sorted(rng.sample(range(len(templates)), k)):
        for pieces in wd.render(rng, w, day, templates[i], _slot, sp._SLOT):
            b.line(*pieces)


def social_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder) -> None:
    """Write one ``social`` note about a patient drawn after ``p`` on ``day`` into ``b``."""
    kind = ps.weighted(rng, NOTE_KINDS)
    w = europe_patient(rng, p, rng.choice(EUROPE)) if rng.random() < 0.5 else sp.specialty_patient(rng, p)
    start = len(b)
    b.line(rng.choice(HEADINGS[kind]), rng.choice([" ", " - ", "  "]), *sp._date(rng, w, day))
    if kind == "form":
        own = LANGUAGES.index(w.country) if w.country in LANGUAGES and rng.random() < 0.75 else 0
        _lines(rng, w, day, b, [f"{labels[own]}: {value}" for labels, value in FORM_FIELDS], 6)
    else:
        _lines(rng, w, day, b, SOCIAL_LINES if kind == "social" else LETTER_LINES, 5)
    b.finish(start, ps.weighted(rng, {"": 85, "upper": 8, "lower": 7}))
