"""Identifiers of many countries and kinds in the ``specialty_ids`` and ``operative_ids`` notes (issue 58 items 1-2).

``synth:N,SEED,specialty_ids`` and ``synth:N,SEED,operative_ids`` are the ``specialty`` and
``operative`` notes (the same draws up to the point where these lines go in) with one or two lines
(:data:`~crfdeid.synth.idlines_templates.LINES`) that name what notes of other countries name and the
synthetic notes so far did not:

* **national numbers of ninety-odd schemes** (``crfdeid/_data/id_schemes.tsv``, rebuilt by
  ``python gazetteers/id_schemes.py`` from python-stdnum's catalogue of country modules): each with
  a valid check digit by the module's own ``is_valid``, written after one of the scheme's names or
  abbreviations (``PESEL``, ``Burgerservicenummer``, ``Codice Fiscale``, ``Chilean national tax
  number``), IDNUM (SSN for social security numbers);
* **numbers of other kinds** in their labels' company: health plan members, hospital and folder
  numbers, professional registrations and licences, device lots and serials, case, claim and
  certificate references (:data:`~crfdeid.synth.idlines_templates.NUMBERS`);
* **organisations and places of many countries**: employers, insurers, schools, pharmacies,
  suppliers, laboratories, transport and care services, clubs and congregations, with the street,
  postcode and town of the organisation's country (surnames, towns, streets, firms and legal
  suffixes of Faker's Latin-letter locales: ``crfdeid/_data/world_orgs.txt``, rebuilt by ``python
  gazetteers/world_orgs.py``);
* **look-alikes in the same lines, never PHI**: drugs, brands, devices, measures, diagnoses with
  their codes, professions' words.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from functools import cache

from .. import _data, gazetteers
from . import idlabels
from . import persona as ps
from . import world as wd
from .idlabels import code
from .idlines_templates import LINES, NUMBERS, ORGS
from .phrases import fill

#: ``(module, subtype, label words, numbers)`` of every scheme of ``crfdeid/_data/id_schemes.tsv``.
schemes = gazetteers.id_schemes


@cache
def _places() -> dict[tuple[str, str], tuple[str, ...]]:
    got: dict[tuple[str, str], list[str]] = {}
    for locale, kind, entry in _data.rows("world_orgs.txt"):
        got.setdefault((locale, kind), []).append(entry)
    return {k: tuple(v) for k, v in got.items()}


def places(locale: str, kind: str) -> tuple[str, ...]:
    """Entries of ``crfdeid/_data/world_orgs.txt`` of a Faker ``locale`` and ``kind`` (last, town, street,
    postcode, firm, suffix).

    >>> len(places("pl_PL", "town")) > 10
    True
    """
    return _places().get((locale, kind), ())


@cache
def locales() -> tuple[str, ...]:
    return tuple(sorted({locale for locale, _ in _places()}))


def national(rng: random.Random) -> list:
    """A national number with one of its scheme's label words (plain) in one of several forms
    (:func:`crfdeid.synth.idlabels.national`): ``["PESEL: ", ("IDNUM", "44051401359")]``."""
    _, subtype, words, numbers = rng.choice(schemes())
    return idlabels.national(rng, subtype, words, rng.choice(numbers))


def _number(subtype: str, rng: random.Random) -> list:
    layouts, labels = NUMBERS[subtype]
    value = (subtype, code(rng, rng.choice(layouts)))
    if rng.random() < 0.15:  # the label after the number
        return [value, f" ({idlabels.cased(rng, rng.choice(labels))})"]
    lab = idlabels.label(rng, labels).replace(" (", ": ")
    return [lab, value]


class _Country:
    """The organisation's country for one line (a Faker locale): its surnames, towns, streets and firms."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.locale = rng, rng.choice(locales())

    def pick(self, kind: str) -> str:
        return self.rng.choice(places(self.locale, kind) or places("en_US", kind))

    def head(self) -> str:
        rng = self.rng
        return rng.choice([self.pick("last"), self.pick("town"), rng.choice(wd._list("NAME_HEADS")),
                           f"{self.pick('town')} {rng.choice(['Valley', 'Coast', 'Hills', 'River', 'Plains'])}",
                           f"{self.pick('last')} & {self.pick('last')}"])

    def org(self, kind: str) -> str:
        name = fill(self.rng, self.rng.choice(ORGS[kind]))
        fields = {"$h": self.head, "$t": lambda: self.pick("town"), "$l": lambda: self.pick("last"),
                  "$s": lambda: self.pick("suffix") if places(self.locale, "suffix") else "Ltd",
                  "$f": lambda: self.pick("firm")}
        for mark, draw in fields.items():
            while mark in name:
                name = name.replace(mark, draw(), 1)
        return name

    def address(self) -> list:
        street, town = self.pick("street"), self.pick("town")
        pc = self.pick("postcode") if places(self.locale, "postcode") else ""
        if not pc:
            return [("STREET", street), ", ", ("CITY", town)]
        if self.rng.random() < 0.5:
            return [("STREET", street), ", ", ("ZIP", pc), " ", ("CITY", town)]
        return [("STREET", street), ", ", ("CITY", town), " ", ("ZIP", pc)]


def _slots(rng: random.Random) -> dict:
    country = _Country(rng)
    orgs = {k: (lambda k=k: [("ORGANIZATION", country.org(k))]) for k in ORGS}
    return {
        "nid": lambda: national(rng), "addr": country.address, "otown": lambda: [("CITY", country.pick("town"))],
        **orgs, "job": lambda: [("PROFESSION", rng.choice(ps.pool("professions")))],
        "hp": lambda: [("HEALTHPLAN", code(rng, rng.choice(NUMBERS["HEALTHPLAN"][0])))],
        "hp_line": lambda: _number("HEALTHPLAN", rng), "mrn_line": lambda: _number("MEDICALRECORD", rng),
        "lic_line": lambda: _number("LICENSE", rng), "dev_line": lambda: _number("DEVICE", rng),
        "ref_line": lambda: _number("IDNUM", rng),
        "device_word": lambda: [rng.choice(["Generator", "Pump", "Pacemaker", "Monitor", "Device", "Lead", "Valve"])],
        "contact": lambda: [rng.choice(["   ", "  ", ", ", " - ", "; "]), *idlabels.contact(rng)],
    }


def id_line(rng: random.Random, w: wd.World, day: dt.date, slot, pattern: re.Pattern) -> list[list]:
    """One line of :data:`~crfdeid.synth.idlines_templates.LINES` as builder pieces, and (:data:`EXTRA`, seven
    times in ten) a line of :func:`crfdeid.synth.idlabels.extra_line` after it (label words alone, phone labels, score
    fractions, codes, headings, roles: their words plain); ``slot(name)`` gives the slots these lines share
    with their style (``<pt>``, ``<date>``, ``<drug>``...), ``pattern`` its slot pattern."""
    own = _slots(rng)

    def pick(name: str):
        return (lambda r, w_, d: own[name]()) if name in own else slot(name)

    lines = wd.render(rng, w, day, rng.choice(LINES), pick, pattern)
    if rng.random() < EXTRA:
        lines += idlabels.extra_line(rng, w, day, slot, pattern, schemes())
    return lines


#: How often an identifier line has a line of label words or look-alikes after it (ids15).
EXTRA = 0.7
