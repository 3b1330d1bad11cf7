"""Synthetic people and their PHI, drawn from the gazetteers, in many surface forms.

Every function takes the caller's :class:`random.Random`, so a corpus depends
only on its seed. Surface forms return *pieces* for :class:`NoteBuilder`:
plain strings (titles, punctuation: not PHI) and ``(SUBTYPE, text)`` pairs.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from .. import gazetteers

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
LANDMARKS = ["Cape Cod", "the Grand Canyon", "Niagara Falls", "Yellowstone", "Lake Tahoe",
             "Martha's Vineyard", "Disney World", "the Berkshires", "Fenway Park",
             "Central Park", "the Jersey Shore", "Mount Washington", "the Outer Banks",
             "Golden Gate Park", "Yosemite", "the Adirondacks", "Walden Pond", "Acadia"]
DEPT_KINDS = ["Cardiology", "Oncology", "Neurology", "Endocrinology", "Nephrology",
              "Pulmonary", "Rheumatology", "Hematology", "Gastroenterology", "Urology",
              "Infectious Disease", "Dermatology", "Orthopedics", "Psychiatry"]
_ASCII = str.isascii


@cache
def pool(name: str, max_words: int = 4) -> tuple[str, ...]:
    """ASCII entries of a gazetteer with at most ``max_words`` words (casing then stays length-safe)."""
    return tuple(e for e in gazetteers.entries(name)
                 if _ASCII(e) and len(e.split()) <= max_words and "'" not in e.split()[0][:1])


def weighted(rng: random.Random, weights: Mapping[str, float]) -> str:
    """A key of ``weights`` drawn with ``rng`` by its weight (a note's kind, country or casing).

    >>> weighted(random.Random(0), {"nursing": 0, "letter": 1})
    'letter'
    """
    return rng.choices(list(weights), list(weights.values()))[0]


@cache
def term_pool(name: str, max_words: int = 6) -> tuple[str, ...]:
    """The entries of :func:`pool` of up to ``max_words`` words that hold no tab: one term a line."""
    return tuple(e for e in pool(name, max_words=max_words) if "\t" not in e)


def _top(name: str, n: int) -> tuple[str, ...]:
    return pool(name)[:n]


@dataclass
class Person:
    """A synthetic person: first, middle initial, last name and sex ('M'/'F')."""

    first: str
    last: str
    middle: str
    sex: str


def person(rng: random.Random, sex: str | None = None, last: str | None = None) -> Person:
    """A random person; common names more likely (half the draws from the 300 most frequent)."""
    sex = sex or rng.choice("MF")
    firsts = pool("first_male" if sex == "M" else "first_female")
    first = rng.choice(firsts[:300] if rng.random() < 0.6 else firsts)
    surnames = pool("surnames")
    last = last or rng.choice(surnames[:2000] if rng.random() < 0.6 else surnames)
    return Person(first, last, rng.choice("ABCDEFGHJKLMNPRSTW"), sex)


@dataclass
class Patient:
    """A synthetic patient with everything the notes about them may mention."""

    record: int
    person: Person
    age: int
    admit: dt.date
    rng_seed: str
    mrn: str = ""
    family: list = field(default_factory=list)  # (relation, Person)
    doctors: list = field(default_factory=list)
    nurses: list = field(default_factory=list)
    hospital: str = ""
    other_hospital: str = ""
    city: str = ""
    state: tuple = ("", "")
    street: str = ""
    zip: str = ""
    phone: str = ""
    profession: str = ""
    employer: str = ""


def patient(rng: random.Random, record: int) -> Patient:
    """A patient with family, care team, address and identifiers kept for all their notes."""
    me = person(rng)
    age = rng.choice([rng.randint(18, 89), rng.randint(40, 89), rng.randint(55, 89),
                      rng.randint(90, 104)]) if rng.random() < 0.95 else rng.randint(1, 17)
    p = Patient(record, me, age, dt.date(rng.randint(2060, 2100), 1, 1)
                + dt.timedelta(days=rng.randint(0, 364)), f"{record}")
    p.mrn = digits(rng, rng.choice([7, 7, 8, 9]))
    spouse_sex = "F" if me.sex == "M" else "M"
    if rng.random() < 0.7 and age >= 25:
        p.family.append(("wife" if spouse_sex == "F" else "husband",
                         person(rng, spouse_sex, last=me.last)))
    for _ in range(rng.choice([0, 1, 1, 2, 3]) if age >= 35 else 0):
        kid = person(rng)
        p.family.append(("son" if kid.sex == "M" else "daughter", kid))
    if age < 25:
        p.family.append(("mother", person(rng, "F", last=me.last)))
    if rng.random() < 0.3:
        sib = person(rng, last=me.last)
        p.family.append(("brother" if sib.sex == "M" else "sister", sib))
    p.doctors = [person(rng) for _ in range(3)]
    p.nurses = [person(rng, "F" if rng.random() < 0.8 else "M") for _ in range(3)]
    p.hospital, p.other_hospital = rng.sample(pool("hospitals")[:400], 2)
    p.city = rng.choice(_top("cities", 1200))
    state = rng.randrange(50)
    p.state = (pool("states")[state], pool("state_abbrevs")[state])
    p.street = f"{rng.randint(1, 9999)} {rng.choice(pool('street_names'))}"
    p.zip = f"{rng.randint(1, 99950):05d}"
    p.phone = phone(rng)
    p.profession = rng.choice([w for w in pool("professions") if not w.startswith("retired")])
    p.employer = rng.choice(pool("organizations"))
    return p


def hospital_form(rng: random.Random, name: str) -> str:
    """A hospital as written in notes: full name, its first word(s) or an acronym (``SHMH``)."""
    words = name.replace(".", "").replace("'s", "").split()
    form = rng.randrange(4)
    if form == 1 and len(words) >= 3:
        return hospital_acronym(name)
    if form == 2:
        return " ".join(words[:1 if len(words) < 4 else 2])
    return name


def hospital_acronym(name: str) -> str:
    """Initials of a hospital's words, as notes abbreviate it.

    >>> hospital_acronym("St. Francis Women's Hospital")
    'SFWH'
    """
    return "".join(w[0] for w in name.replace(".", "").replace("'s", "").split()).upper()


def ward(rng: random.Random) -> str:
    """A ward or building named after a person or place (``Baker 7``, ``Hemlock``), as hospitals do.

    The name is drawn from several gazetteers so that a model learns the context
    (``transfer to X 4``) rather than the surname list.
    """
    source = rng.choice(["surnames", "surnames", "street_names", "cities", "hospitals"])
    names = place_words(source)
    name = rng.choice(names[:300] if source == "surnames" and rng.random() < 0.5 else names)
    return name + (f" {rng.randint(2, 14)}" if rng.random() < 0.6 else "")


@cache
def place_words(source: str) -> tuple[str, ...]:
    """First words of a gazetteer that can name a ward (letters only, not ``St.``, ``New`` or ``North``)."""
    firsts = (e.split()[0] for e in pool(source))
    return tuple(dict.fromkeys(w for w in firsts if w.isalpha() and len(w) >= 4 and w not in _NOT_WARDS))


_NOT_WARDS = frozenset(["Saint", "North", "South", "East", "West"])


def digits(rng: random.Random, n: int) -> str:
    """``n`` random digits, the first not zero."""
    return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))


def letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))


def phone(rng: random.Random) -> str:
    """A phone number in one of several US layouts, sometimes with an extension."""
    area, ex, line = rng.randint(201, 989), rng.randint(200, 999), rng.randint(0, 9999)
    form = rng.choice(["({a}) {e}-{l:04d}", "{a}-{e}-{l:04d}", "({a}){e}-{l:04d}",
                       "{a}.{e}.{l:04d}", "{e}-{l:04d}", "{a} {e} {l:04d}", "1-{a}-{e}-{l:04d}"])
    text = form.format(a=area, e=ex, l=line)
    if rng.random() < 0.15:
        text += rng.choice([" x", " ext. ", " ext "]) + digits(rng, rng.randint(3, 5))
    return text


def pager(rng: random.Random) -> str:
    return rng.choice(["x", "#", "x"]) + digits(rng, 5)


def email(rng: random.Random, who: Person) -> str:
    user = rng.choice([f"{who.first[0]}{who.last}", f"{who.first}.{who.last}",
                       f"{who.last}{digits(rng, 2)}", f"{who.first}{who.last[0]}"]).lower()
    domain = rng.choice(pool("organizations")).split()[0].lower()
    return f"{user}@{domain}{rng.choice(['.org', '.com', '.net', '.edu', 'health.org'])}"


def url(rng: random.Random) -> str:
    name = rng.choice(pool("hospitals") + pool("organizations")).lower()
    slug = "".join(ch for ch in name if ch.isalnum())
    return rng.choice(["www.{s}.org", "http://www.{s}.com", "https://{s}.org/portal",
                       "www.{s}.com/patients"]).format(s=slug)


def ipaddr(rng: random.Random) -> str:
    return ".".join(str(rng.randint(1, 254)) for _ in range(4))


def username(rng: random.Random, who: Person) -> str:
    return rng.choice([f"{who.first[0]}{who.last[:6]}".lower(), f"{who.first[0]}{who.middle}"
                       f"{who.last[0]}{digits(rng, 2)}".lower(), letters(rng, 3) + digits(rng, 2)])


def age_text(rng: random.Random, age: int, decade: bool = True, article: str = "") -> list:
    """An age in one of the forms notes use; only the number (or ``90s``) is PHI.

    ``decade=False`` leaves out ``in his 90s`` where an adjective is needed;
    ``article`` is put before the other forms (``"a "``).
    """
    if decade and age >= 90 and rng.random() < 0.3:
        return [rng.choice(["in her ", "in his ", "in the "]), ("AGE", f"{age // 10 * 10}s")]
    form = rng.choice(["{} year old", "{} yo", "{} YO", "{} y/o", "{}-year-old", "{} yr old",
                       "{}M", "{} y.o.", "age {}", "{} years old"])
    before, after = form.split("{}")
    return [article + before, ("AGE", str(age)), after]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# Month-day with a dash (7-22) is left out: in nursing notes N-N is nearly always a range.
DATE_FORMS = ["{m}/{d}", "{m}/{d}", "{m}/{d}", "{mm}/{dd}/{Y}", "{m}/{d}/{y}", "{Y}-{mm}-{dd}",
              "{d} {B} {Y}", "{B} {o}", "{B} {d}, {Y}", "{b} {d}", "{mm}-{dd}-{Y}", "{m}-{d}-{y}",
              "{B} {Y}", "{b} {Y}", "{d}-{b}-{Y}", "{m}/{d}/{Y}", "{B} {d}", "{mm}/{dd}"]


def date_text(rng: random.Random, day: dt.date, form: str | None = None) -> str:
    """``day`` in a random (or the given) clinical layout: ``7/22``, ``2097-07-22``, ``July 22nd``..."""
    form = form or rng.choice(DATE_FORMS)
    return form.format(m=day.month, d=day.day, mm=f"{day.month:02d}", dd=f"{day.day:02d}",
                       Y=day.year, y=f"{day.year % 100:02d}", B=MONTHS[day.month - 1],
                       b=MONTHS[day.month - 1][:3], o=ordinal(day.day))


def past_year(rng: random.Random, p: Patient) -> list:
    """A year in the past history: ``'97``, ``2089``, ``9/2/92``, ``in 2085``."""
    year = p.admit.year - rng.randint(1, 30)
    form = rng.randrange(4)
    if form == 0:
        return ["'", ("DATE", f"{year % 100:02d}")] if rng.random() < 0.3 else [("DATE", f"'{year % 100:02d}")]
    if form == 1:
        return [("DATE", str(year))]
    day = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    return [("DATE", date_text(rng, day, rng.choice(["{m}/{d}/{y}", "{B} {Y}", "{m}/{y}"])))]


def patient_name(rng: random.Random, who: Person) -> list:
    """The patient named as ``Mr. F. Lastname``, ``LASTNAME, FIRST``, first name alone, ``J.S.``..."""
    title = {"M": "Mr.", "F": rng.choice(["Mrs.", "Ms."])}[who.sex]
    forms: list[list[str | tuple[str, str]]] = [
        [f"{title} ", ("PATIENT", who.last)],
        [f"{title} ", ("PATIENT", f"{who.first[0]}. {who.last}")],
        [("PATIENT", f"{who.first} {who.last}")],
        [("PATIENT", f"{who.first} {who.middle}. {who.last}")],
        [("PATIENT", f"{who.last.upper()}, {who.first.upper()}")],
        [("PATIENT", f"{who.last}, {who.first}")],
        [("PATIENT", who.first)],
        [f"{title.rstrip('.')} ", ("PATIENT", who.last)],
        [("PATIENT", f"{who.first[0]}.{who.last[0]}.")],
    ]
    return rng.choice(forms)


def doctor_name(rng: random.Random, who: Person, nurse: bool = False) -> list:
    """A clinician: ``Dr. Smith``, ``Dr.Smith``, ``John Smith, MD``, ``RN J. Smith``, ``JS``..."""
    if nurse:
        return rng.choice([
            ["RN ", ("DOCTOR", f"{who.first[0]}. {who.last}")],
            [("DOCTOR", f"{who.first[0]}. {who.last}"), " RN"],
            [("DOCTOR", f"{who.first} {who.last}"), ", RN"],
            [("DOCTOR", who.first), " RN"],
            [("DOCTOR", f"{who.first[0]}{who.last[0]}"), " RN"],
            ["Nurse ", ("DOCTOR", who.first)],
        ])
    return rng.choice([
        ["Dr. ", ("DOCTOR", who.last)], ["Dr. ", ("DOCTOR", who.last)], ["Dr.", ("DOCTOR", who.last)],
        ["Dr. ", ("DOCTOR", who.last)], ["Dr ", ("DOCTOR", who.last)], ["per Dr. ", ("DOCTOR", who.last)],
        [rng.choice(["NP ", "PA ", "Fellow ", "Resident "]), ("DOCTOR", who.last)],
        [("DOCTOR", who.last), " (", rng.choice(["cards", "renal", "neuro", "ID"]), ")"],
        ["Dr ", ("DOCTOR", who.last)], [("DOCTOR", f"{who.first} {who.last}"), ", MD"],
        [("DOCTOR", f"{who.first} {who.middle}. {who.last}"), ", M.D."],
        ["Dr. ", ("DOCTOR", f"{who.first[0]}. {who.last}")],
        [("DOCTOR", f"{who.last.upper()}, {who.first.upper()}")],
        ["Dr. ", ("DOCTOR", f"{who.first} {who.last}")],
    ])


def ids(rng: random.Random) -> dict:
    """Identifier surface forms keyed by subtype, each a ``(label, value)`` pair."""
    return {
        "SSN": ("SSN", f"{rng.randint(100, 899)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"),
        "HEALTHPLAN": (rng.choice(["Medicare #", "BCBS ID", "Health plan no.", "Medicaid #"]),
                       rng.choice([digits(rng, 9) + letters(rng, 1), letters(rng, 3) + digits(rng, 9)])),
        "ACCOUNT": (rng.choice(["Acct #:", "Account No.", "Billing acct"]), digits(rng, 10)),
        "LICENSE": (rng.choice(["DEA #", "Lic #", "Driver's license", "License no."]),
                    letters(rng, 2) + digits(rng, 7)),
        "VEHICLE": (rng.choice(["license plate", "plate #", "VIN"]),
                    rng.choice([f"{digits(rng, 1)}{letters(rng, 3)}{digits(rng, 3)}",
                                f"1{letters(rng, 4)}{digits(rng, 2)}{letters(rng, 1)}{digits(rng, 6)}"])),
        "DEVICE": (rng.choice(["pacemaker serial #", "ICD model/serial", "pump SN", "device ID"]),
                   letters(rng, 3) + digits(rng, 6)),
        "BIOID": (rng.choice(["fingerprint ID", "biometric ID", "retinal scan ID"]),
                  f"{letters(rng, 2)}-{digits(rng, 4)}-{digits(rng, 3)}"),
        "IDNUM": (rng.choice(["Order #", "Accession #", "Path #", "Job #", "Report ID"]),
                  rng.choice([digits(rng, 6), f"S{digits(rng, 2)}-{digits(rng, 5)}",
                              f"{digits(rng, 8)}-{digits(rng, 3)}"])),
    }
