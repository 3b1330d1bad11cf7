"""The ``specialty`` style: notes of every specialty, their clinical words from sourced lists (issue 58).

``synth:N,SEED,specialty`` writes operative reports, pathology, radiology, cardiology (echo,
cath), obstetric, urology, orthopaedic and allergy/ENT notes, EMS run sheets, genetics letters,
psychiatry intakes, prior-authorisation letters, portal messages, handovers and referral letters
(:data:`~crfdeid.synth.specialty_templates.LINES`) for patients of the US, UK, Ireland,
Australia, Canada, India, Singapore, Kenya, Sweden, Korea and Brazil. A model trained on ICU
nursing notes alone read such notes' clinical language as PHI (``Vicryl``, ``Roux-en-Y``,
``ligament of Treitz``, ``E11.649``, ``mg/dL``, ``LVEDD``, ``Class B2``, ``Ward 64``); here:

* **clinical words** come from sourced lists through vocabulary slots
  (:mod:`crfdeid.synth.specialty_vocab`: ICD-10-CM descriptions, codes, sites and devices,
  drugs, brands, sutures, eponyms, measurement abbreviations, units, stages and grades, HGVS
  variants, CPT-shaped codes), in the case a report writes them (all-caps diagnoses too), never PHI;
* **PHI** where such notes hold it: the patient in the header, DOB and the country's record
  number, surgeon, pathologist, referrer and midwife, dates of operation, report and review,
  the hospital in the signature, the address in a referral or a run sheet, phones of a
  prior-authorisation letter, a relative in a genetics letter; ages under 90 and ward, bay and
  bed numbers are no Safe Harbor identifier and stay unlabelled;
* **PHI in nursing contexts too** (:data:`~crfdeid.synth.specialty_templates.NURSING_LINES`, 1 or
  2 lines in 6 notes of 10, as written, in lower or in upper case): ``transferred from`` a
  hospital, ``lives in`` a town, ``to`` a local institution ``in am``, telegraphic month/day
  dates (``8/9``), relatives' first names, so that these notes do not teach a model that such
  contexts are rare.

Names and places of the new countries are written here by hand (MIT, public given names,
surnames and town names; no entry from a note); the others are those of :mod:`crfdeid.synth.world`.
"""

from __future__ import annotations

import datetime as dt
import random
import re

from . import idlines
from . import persona as ps
from . import world as wd
from . import world_lists as wl
from .builder import NoteBuilder
from .mix import _institution
from .phrases import fill
from .specialty_templates import HEADINGS, LETTERHEADS, LINES, NURSING_LINES, RELATIVE_LINES
from .specialty_vocab import VOCAB

#: Countries and how often each is drawn (those of the ``world`` style and five more).
COUNTRIES = {"US": 24, "UK": 14, "IE": 4, "AU": 8, "CA": 6, "IN": 8, "SG": 7, "KE": 7, "SE": 7, "KR": 7, "BR": 8}
#: Note kinds (keys of :data:`~crfdeid.synth.specialty_templates.LINES`) and their weights.
NOTE_KINDS = {"operative": 12, "pathology": 9, "radiology": 9, "cardiology": 8, "obstetric": 6, "urology": 5,
              "ortho": 6, "ems": 6, "genetics": 5, "psychiatry": 6, "allergy": 5, "prior_auth": 6, "portal": 5,
              "handover": 6, "referral": 6}

# Names, towns and regions of the new countries (written by hand for crfdeid; public names).
_NEW = {
    "SG": ("Wei Ling|Jun Jie|Hui Min|Siti Nur|Muhammad Hafiz|Kavitha|Rajesh|Mei Ling|Zhi Hao|Nurul Ain|Arun|Shu Fen",
           "Tan|Lim|Lee|Ng|Wong|Goh|Chua|Chan|Koh|Teo|Ong|Rahman|Abdullah|Pillai|Nair|Raj|Yeo|Sim",
           "Tampines|Jurong West|Woodlands|Bedok|Ang Mo Kio|Toa Payoh|Sengkang|Punggol|Yishun|Clementi|Bukit Batok",
           "Central Region|East Region|North Region|West Region"),
    "KE": ("Wanjiru|Achieng|Otieno|Kamau|Njeri|Mwangi|Akinyi|Kiprono|Chebet|Wafula|Auma|Mutua|Nafula|Kipchoge",
           "Odhiambo|Kariuki|Wambui|Ochieng|Kiptoo|Mutiso|Njoroge|Onyango|Kibet|Omondi|Wekesa|Muthoni|Koech",
           "Nairobi|Mombasa|Kisumu|Nakuru|Eldoret|Thika|Machakos|Nyeri|Kericho|Malindi|Kitale|Embu",
           "Nairobi County|Kiambu County|Kisumu County|Nakuru County|Uasin Gishu County|Machakos County"),
    "SE": ("Astrid|Linnea|Elsa|Maja|Ingrid|Sven|Lars|Anders|Johan|Karin|Nils|Oskar|Sigrid|Gunnar|Ebba|Lennart",
           "Andersson|Johansson|Karlsson|Nilsson|Eriksson|Larsson|Olsson|Persson|Svensson|Gustafsson|Lindqvist|Berg",
           "Uppsala|Linkoping|Orebro|Vasteras|Norrkoping|Helsingborg|Jonkoping|Umea|Lund|Sundsvall|Gavle|Boras",
           "Uppsala lan|Skane|Vastra Gotaland|Stockholms lan|Ostergotland|Vasterbotten"),
    "KR": ("Min-jun|Seo-yeon|Ji-hoon|Ha-eun|Do-hyun|Soo-jin|Jae-won|Eun-ji|Hyun-woo|Ye-jin|Sung-min|Ji-woo",
           "Kim|Lee|Park|Choi|Jung|Kang|Cho|Yoon|Jang|Lim|Han|Oh|Seo|Shin|Kwon|Hwang",
           "Suwon|Seongnam|Incheon|Daejeon|Gwangju|Ulsan|Goyang|Yongin|Bucheon|Cheongju|Jeonju|Changwon",
           "Gyeonggi-do|Gangwon-do|Chungcheongbuk-do|Jeollanam-do|Gyeongsangnam-do"),
    "BR": ("Ana Clara|Joao Pedro|Maria Eduarda|Lucas|Gabriela|Thiago|Fernanda|Rafael|Beatriz|Mateus|Larissa|Caio",
           "Silva|Santos|Oliveira|Souza|Rodrigues|Ferreira|Alves|Pereira|Lima|Gomes|Ribeiro|Carvalho|Almeida",
           "Campinas|Curitiba|Recife|Fortaleza|Belo Horizonte|Porto Alegre|Salvador|Goiania|Manaus|Niteroi",
           "Sao Paulo|Parana|Pernambuco|Ceara|Minas Gerais|Rio Grande do Sul|Bahia|Goias"),
}
_HOSPITAL_TAILS = {"SG": "General Hospital|Medical Centre|Polyclinic",
                   "KE": "County Referral Hospital|Medical Centre|Mission Hospital",
                   "SE": "sjukhus|Universitetssjukhus|lasarett",
                   "KR": "University Hospital|Medical Center|Severance Clinic",
                   "BR": "Hospital das Clinicas|Santa Casa|Hospital Municipal"}
_STREETS = {"SG": "Blk {n} {t} Ave {k}", "KE": "{t} Road, off Ngong Road", "SE": "{t}gatan {n}",
            "KR": "{n} {t}-ro", "BR": "Rua {t}, {n}"}


def _split(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split("|"))


#: Postcode and phone layouts of the new countries (``{a|b}``, ``{1-9}``: :func:`fill`; ``#``: a digit).
_POSTCODES = {"SG": "{1-8}#####", "KE": "{1-9}##00", "SE": "{1-9}## ##", "KR": "{1-6}####", "BR": "{1-9}####-###"}
_PHONES = {"SG": "{+65 9|6|8}### ####", "KE": "{+254 7|07}## ### ###", "SE": "{070-|+46 8 }### ## ##",
           "KR": "{010|02}-####-####", "BR": "{(11) 9|+55 21 9}####-####"}


def _digits(rng: random.Random, layout: str) -> str:
    return "".join(str(rng.randint(0, 9)) if c == "#" else c for c in fill(rng, layout))


def _postcode(rng: random.Random, country: str) -> str:
    return _digits(rng, _POSTCODES[country])


def _phone(rng: random.Random, country: str) -> str:
    return _digits(rng, _PHONES[country])


def _record(rng: random.Random, country: str, age: int, admit: dt.date) -> list:
    """The country's patient number with its label (``NRIC``, ``personnummer``, ``CPF``...)."""
    born = admit.year - age
    if country == "SG":
        return ["NRIC ", ("IDNUM", f"{rng.choice('STFG')}{ps.digits(rng, 7)}{rng.choice('ABCDEFGHIZJ')}")]
    if country == "KE":
        return [rng.choice(["IP No. ", "OP No. ", "NHIF "]), ("MEDICALRECORD", f"{ps.digits(rng, 6)}/{born % 100:02d}")]
    if country == "SE":
        return ["Personnummer ", ("SSN", f"{born}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}-{ps.digits(rng, 4)}")]
    if country == "KR":
        return ["Reg. No. ", ("MEDICALRECORD", ps.digits(rng, 8))]
    if rng.random() < 0.5:
        return ["CPF ", ("SSN", _digits(rng, "###.###.###-##"))]
    return ["CNS ", ("HEALTHPLAN", _digits(rng, "{7|8|9}## #### #### ####"))]


def specialty_patient(rng: random.Random, p: ps.Patient) -> wd.World:
    """A patient of one of :data:`COUNTRIES`, drawn after ``p`` (its age and admission)."""
    country = ps.weighted(rng, COUNTRIES)
    if country in wd.COUNTRIES:
        w = wd.world_patient(rng, p)
        w.country = country  # the world style's draws, then its places redrawn for this style's country
        return _redo(rng, w, country, p)
    given, surnames, towns, regions = (_split(x) for x in _NEW[country])
    w = wd.World(country, rng.choice(given), rng.choice(surnames), rng.choice(wd._list("NICKNAMES")), p.person.sex,
                 p.age, p.admit, rng.choice(towns), rng.choice(regions), _postcode(rng, country), "",
                 _phone(rng, country), "")
    w.street = fill(rng, _STREETS[country].format(n=rng.randint(1, 999), t=rng.choice(surnames + towns),
                                                  k=rng.randint(1, 9)))
    w.relatives = [(rng.choice(["daughter", "son", "wife", "husband", "mother", "sister", "brother", "father"]),
                    rng.choice(given)) for _ in range(3)]
    w.doctors = [(rng.choice(given), rng.choice(surnames)) for _ in range(3)]
    w.hospital = f"{w.town} {rng.choice(_split(_HOSPITAL_TAILS[country]))}"
    w.employer = f"{rng.choice(surnames)} {rng.choice(wl.split(wl.EMPLOYER_TAILS))}"
    return w


def _redo(rng: random.Random, w: wd.World, country: str, p: ps.Patient) -> wd.World:
    """Country-dependent fields of a ``world`` patient redrawn for ``country`` (one of the world style's)."""
    w.town = rng.choice(wl.split(wl.TOWNS[country]))
    w.region = rng.choice(wl.split(wl.REGIONS[country])) if country in wl.REGIONS else rng.choice(p.state)
    w.postcode, w.street, w.phone = wd.postcode(rng, country), wd.street(rng, country), wd.phone(rng, country)
    w.record = wd.nhs_number(rng) if country == "UK" else ps.digits(rng, rng.choice([7, 8]))
    w.hospital = wd.hospital(rng, w.town)
    return w


def _identifier(rng: random.Random, w: wd.World, day: dt.date) -> list:
    return _record(rng, w.country, w.age, w.admit) if w.country in _NEW else wd.identifier(rng, w)


def _date(rng: random.Random, w: wd.World, day: dt.date) -> list:
    forms = wd.MONTH_FIRST if w.country == "US" else ("{Y}-{mm}-{dd}", "{Y}.{mm}.{dd}") if w.country in ("SE", "KR") \
        else wd.DAY_FIRST
    return [("DATE", ps.date_text(rng, day - dt.timedelta(days=rng.randint(0, 60)), rng.choice(forms)))]


def _month_day(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A telegraphic month/day date as a nursing line writes it (``8/9``; day first outside the US)."""
    forms = ("{m}/{d}", "{m}/{d}", "{mm}/{dd}") if w.country == "US" else ("{d}/{m}", "{d}/{m}", "{dd}/{mm}")
    return [("DATE", ps.date_text(rng, day - dt.timedelta(days=rng.randint(0, 14)), rng.choice(forms)))]


_UNITS = ("Regional Genetics Service|Department of Psychiatry|Breast Unit|Cardiology Department|Maternity Unit|"
          "Department of Urology|Orthopaedic Department|ENT Department|Histopathology|Radiology Department|"
          "Community Mental Health Team|Clinical Genetics|Renal Unit|Diabetes Centre")
_CLINIC_TAILS = ("Medical Practice|Family Practice|Health Centre|Surgery|Medical Centre|Sinus & Allergy|"
                 "Ear, Nose & Throat|Eye Associates|Orthopaedic Associates|Women's Health|Dermatology|"
                 "Cardiology Associates|Surgical Group|Urology Clinic|Imaging|Family Medicine|Pediatrics")


def _unit(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A service of a hospital, named as letterheads do (``Northfield Regional Genetics Service``)."""
    head = rng.choice([w.town, rng.choice(w.doctors)[1], w.region.split()[0] if w.region else w.town])
    return [("HOSPITAL", f"{head} {rng.choice(_split(_UNITS))}")]


def _clinic(rng: random.Random, w: wd.World, day: dt.date) -> list:
    """A practice or private clinic (``Ashdale Medical Practice``, ``Varga Sinus & Allergy``)."""
    head = rng.choice([w.town, rng.choice(w.doctors)[1], f"{w.town} Road"])
    return [("ORGANIZATION", f"{head} {rng.choice(_split(_CLINIC_TAILS))}")]


def _relative_full(rng: random.Random, w: wd.World, day: dt.date) -> list:
    first = rng.choice(w.relatives)[1]
    return [("PATIENT", rng.choice([f"{first[0]}. {w.last}", f"{first} {w.last}", f"{first[0]} {w.last}",
                                    f"{first} {first[0]}. {w.last}"]))]


#: PHI slots that differ from the ``world`` style's: the new countries' numbers and date orders,
#: and those of :data:`~crfdeid.synth.specialty_templates.NURSING_LINES` (``<md>``, ``<place>``).
EXTRA_SLOTS = {"id": _identifier, "date": _date,
               "dob": lambda r, w, d: _date(r, w, dt.date(d.year - w.age, r.randint(1, 12), r.randint(1, 28))),
               "md": _month_day, "place": lambda r, w, d: [_institution(r)],
               "unit": _unit, "clinic": _clinic, "rel_full": _relative_full}
_SLOT = re.compile(r"<([A-Za-z_0-9]+)>")


def _slot(name: str) -> wd.Slot:
    """A ``<slot>`` of this style: a vocabulary draw (plain text), else a PHI slot."""
    if name in VOCAB:
        draw = VOCAB[name]
        return lambda r, w, d: [draw(r)]
    return EXTRA_SLOTS.get(name) or wd.SLOTS[name]


def render(rng: random.Random, w: wd.World, day: dt.date, template: str) -> list[list]:
    """``template`` as lines of builder pieces (vocabulary slots plain, PHI slots as ``(SUBTYPE, text)``)."""
    return wd.render(rng, w, day, template, _slot, _SLOT)


_NURSING = "<a nursing line>"  # a marker in the chosen lines, drawn from NURSING_LINES when written
_IDS = "<an identifier line>"  # a marker in the chosen lines, drawn by crfdeid.synth.idlines when written


def _recase(piece: str | tuple[str, str], case: str) -> str | tuple[str, str]:
    """``piece`` (plain or PHI) in lower or upper case, as a telegraphic or an all-caps ICU note writes it."""
    if isinstance(piece, str):
        return getattr(piece, case)()
    return (piece[0], getattr(piece[1], case)())


def specialty_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder, ids: bool = False) -> None:
    """Write one ``specialty`` note about a patient drawn after ``p`` on ``day`` into ``b``; with ``ids``
    (the ``specialty_ids`` style) one or two lines of :mod:`crfdeid.synth.idlines` too."""
    w = specialty_patient(rng, p)
    kind = ps.weighted(rng, NOTE_KINDS)
    start = len(b)
    when: list = rng.choice([_date(rng, w, day), [""], [*_date(rng, w, day), " ", wd._time(rng)]])
    if rng.random() < 0.4:  # a letterhead above the heading (its own draws: the notes after it unchanged)
        for pieces in render(rng, w, day, rng.choice(LETTERHEADS)):
            b.line(*pieces)
    b.line(rng.choice(HEADINGS[kind]), rng.choice([" ", " - ", "  "]), *when)
    if kind not in ("portal", "handover", "referral", "genetics", "prior_auth") and rng.random() < 0.6:
        name = wd._person_name(rng, w.first, w.last, w.sex, w.nick)
        b.line(rng.choice(["Name: ", "Patient: ", "PATIENT: ", ""]), *name, rng.choice(["  ", "   ", "\t"]),
               *_identifier(rng, w, day))
        if rng.random() < (0.6 if w.country == "IN" else 0.1):  # a relative under the name
            for pieces in render(rng, w, day, rng.choice(RELATIVE_LINES)):
                b.line(*pieces)
    lines = LINES[kind]
    chosen = [lines[i] for i in sorted(rng.sample(range(len(lines)), rng.randint(min(4, len(lines)), len(lines))))]
    if rng.random() < 0.6:  # nursing contexts, before the last line (a signature stays last)
        for _ in range(rng.randint(1, 2)):
            chosen.insert(rng.randrange(1, len(chosen)), _NURSING)
    if ids:  # after every draw of the notes without them (those notes stay byte for byte)
        for _ in range(rng.randint(1, 2)):
            chosen.insert(rng.randrange(1, len(chosen)), _IDS)
    for template in chosen:
        case = rng.choices(["", "lower", "upper"], [45, 30, 25])[0] if template is _NURSING else ""
        if template is _IDS:
            for pieces in idlines.id_line(rng, w, day, _slot, _SLOT):
                b.line(*pieces)
            continue
        for pieces in render(rng, w, day, rng.choice(NURSING_LINES) if template is _NURSING else template):
            b.line(*(_recase(x, case) for x in pieces) if case else pieces)
    b.finish(start, ps.weighted(rng, {"": 85, "upper": 10, "lower": 5}))
