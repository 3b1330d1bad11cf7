"""Postal codes of many countries inside an address: a country's shape of code and the address around it.

Part of the Safe Harbor layer (:mod:`.safeharbor` runs :func:`matches` in every model), beside
the postal forms of :mod:`.fixedforms` and :mod:`.contextforms` that read one line. Addresses
are written over several lines (``Christoph-Hahn-Weg 4`` / ``77318 Ansbach``), in lower case,
with the town before or after the code; a code's digits alone are a dose's or a count's, so a
code here is ``ZIP`` only with all of:

* **its shape** (:data:`SHAPES`): four to six digits (most of Europe, Australia, New Zealand,
  India), ``NNNNN-NNNN`` (US), ``NNN NN`` (Sweden), ``NNN NNN`` (India), ``NNNNN-NNN`` or eight
  digits (Brazil), ``NN-NNN`` (Poland), ``NNNN-NNN`` (Portugal), ``NNNN AA`` (Netherlands), the
  UK, Canadian and Irish codes with or without their space, in any case;
* **its place in the address**: it ends its line or comma-separated part (``Madrid, 19161``), or
  a town of letters follows it to that end (``80773 Gotha``, ``28455 lecomte last month``); it is
  not a house number (no street word right before it, ``Allee 5806``, nor among the words after
  it, ``1717 kari extension``), and no plain, clinical or unit word stands right before it with
  nothing between (``plt 250000``, ``room 4012``);
* **an address before it** on its line or up to three lines up (on its line for four digits
  that are a time of day, ``0755``): an address or postcode label
  (``address``, ``send to``, ``lives at``, ``postcode``, ``PLZ``, ``CEP``, ``h.no.``...), a house
  number beside a street word (``6 Gavin Villages``, ``Döringstraße 6``, ``ul. Polna 5``,
  ``3, chemin de Chevallier``: street words of :data:`STREET_WORDS`, the US Postal Service's
  suffixes and other countries' words), a unit, flat, box or suite number, or a listed city right
  before it (``Nagpur 656015``, ``Parramatta 2150``: the cities list and the shipped towns of
  GB, IE, CA, AU, NZ, IN and ZA); or a US military address (``APO AE 09012``).

>>> [(name, sp.subtype) for name, sp in matches("Send to:\\nChristoph-Hahn-Weg 4\\n77318 Ansbach")]
[('postal_address', 'ZIP')]
>>> matches("Address: 4 Mill Lane\\nplt 250000, K 4.1, given 1500 units")
[]
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .. import gazetteers
from ..document import Span, line_bounds, make_span
from ..text.patterns import AsciiTwin, LazyPattern
from .fixedforms import plain_words
from .ruledata import lazy, lists, table

_R = table("postcodes").namespace()  # the patterns and words (crfdeid/_data/rules/postcodes.tsv)

# ``lazy``: the patterns but :data:`_CANDIDATE` are read only where a candidate code stands (most
# notes hold none; compiling them all cost each start-up about 0.02 CPU-s).

#: Postal code shapes (any case), each with the countries that write it (the table's comments).
SHAPES = table("postcodes").mapping("SHAPES")
_UK = lazy(SHAPES["uk"])
# Every shape starts with a digit or with one or two letters and a digit: the look-ahead, tried
# first, skips most positions at once. On ASCII text the stdlib ``re`` twin gives the same matches
# (the pattern is ASCII, without ``\s``; ``\w`` is [A-Za-z0-9_] on ASCII in both engines) about 2x
# faster (the PhysioNet dev notes: 0.13 CPU-s -> 0.05).
_CANDIDATE_SOURCE = table("postcodes").source("CANDIDATE", SHAPES="|".join(
    f"(?:{s})" for s in sorted(SHAPES.values(), key=lambda s: s == SHAPES["digits"])))
_CANDIDATE = AsciiTwin(lazy(_CANDIDATE_SOURCE), LazyPattern(re.compile, _CANDIDATE_SOURCE))


def house_number(text: str, start: int, end: int) -> bool:
    """Whether the digits ``text[start:end]`` are a house, flat or box number: a street or unit
    word right before them in their part of the line (``Allee 5806``, ``PSC 7457``), or a street
    word among the words after them to the part's end (``1717 kari extension,``)."""
    line_start = text.rfind("\n", 0, start) + 1
    segment = text[line_start:start]
    if _R.STREET_END.search(segment[segment.rfind(",") + 1:]):
        return True
    following = _R.WORDS_AFTER.match(text, end)
    return bool(following) and any(_R.STREET_WORD.match(w) for w in following.group(1).split())


def matches(text: str) -> list[tuple[str, Span]]:
    """``("postal_address", span)`` of every code of :data:`SHAPES` with the place and the address
    that the module docstring names."""
    found = []
    for m in _CANDIDATE.finditer(text):
        if _is_code(text, m.start(), m.end()):
            found.append(("postal_address", make_span(m.start(), m.end(), "ZIP")))
    return found


def _shape_ok(value: str) -> bool:
    """A code with letters is written in one case (``H20 seal`` is no Eircode); a Dutch code's
    letters are no unit of measure (``1200CC``), nor in lower case after a space a word
    (``2021 at``); an Eircode's last four hold a digit, or are capitals and no word."""
    if not any(c.isalpha() for c in value):
        return True
    if value not in (value.upper(), value.lower()):
        return False
    dutch = _R.DUTCH.fullmatch(value)
    if dutch:
        letters = dutch.group(1).lower()
        if " " in value and dutch.group(1).islower():
            return letters not in _not_places()  # "2021 at"
        return letters not in _R.MEASURES  # "1200cc", "1000 ML"
    irish = _R.IRISH.fullmatch(value)
    if irish and " " not in value and not any(c.isalpha() for c in irish.group(1)):
        return _UK.fullmatch(value) is not None  # "E323925" is a record number's shape
    if not irish or _UK.fullmatch(value) is not None or any(c.isdigit() for c in irish.group(1)):
        return True
    return value.isupper() and irish.group(1).lower() not in _not_places()  # "X43 XFCK", not "H20 SEAL"


def _is_code(text: str, start: int, end: int) -> bool:
    """Place and address evidence for the candidate ``text[start:end]``."""
    if not _shape_ok(text[start:end]):
        return False
    line_start, line_end = line_bounds(text, start, end)
    before = text[line_start:start]
    if _R.MILITARY.search(before):
        return True
    if before.rstrip().endswith("@"):
        return False  # a time ("@ 1400")
    segment = before[before.rfind(",") + 1:]
    digits = not any(c.isalpha() for c in text[start:end])
    word = _R.WORD_BEFORE.search(segment)
    low = word.group(1).lower().rstrip(".-–") if word else ""
    listed = low in towns()
    labelled = _R.LABEL_END.search(segment) is not None
    value = text[start:end]
    if len(value) == 8 and value.isdigit() and not (labelled or _R.TOWN_AFTER.match(text, end, line_end)):
        return False  # eight digits are a record number's, but after "CEP" or before a town (Brazil's CEP)
    if low in _R.PHONE_WORDS or _R.MONTH.search(segment):
        return False  # "pager 51560", "ext 4987", "December 12, 2095"
    street_before = not digits and _R.STREET_WORD.match(low) is not None  # "Boyse Street E10 2XNY"
    if word and not (listed or labelled or street_before or low in _R.REGION_CODES) and low in _not_places():
        return False  # "plt 250000", "room 4012", "units 1500"
    after = text[end:line_end]
    if digits and house_number(text, start, end):
        return False  # "Allee 5806", "PSC 7457", "1717 kari extension" (a house number and its street)
    town = _R.TOWN_AFTER.match(after)
    if town:
        if town.group("town").split()[0].lower() in _units() | gazetteers.load("stop_words"):
            return False  # "2000 units", "1400 with the family"
    elif not _R.SEGMENT_END.match(after):
        return False
    if listed or labelled or _town_alone(segment, text[start:end]):
        return True
    clock = len(value) == 4 and value.isdigit() and (int(value[:2]) < 24 and int(value[2:]) < 60
                                                     or 1800 <= int(value) <= 2199)
    # a time of day ("snce 0755") or a year after an address two lines up: evidence on its own line only
    window = text[line_start if clock else _lines_back(text, line_start, 3):start]
    return bool(_R.ADDRESS_CUE.search(window) or _R.STREET_LINE.search(window))


def _town_alone(segment: str, value: str) -> bool:
    """A town alone before the code in its line or comma-separated part: one to three words,
    none a unit, the last no plain, clinical or drug word; before a code with letters
    (``Blankenshiptown E3V8A5``) any such town, before digits a town in title case (or in a
    part written in lower case) with five or six digits (``Altötting 02308``), Brazil's or the US
    ``NNNNN-NNN(N)`` (``Barros de Goiás 70356-175``) or a toponym's ending
    (``Robertside 2959``, ``Marin-sur-Bourdon 80863``: :data:`_R.TOPONYM`) and no four digits
    that could be a year (1900-2099). Lab names in a list (``Lipase 4318``) have neither."""
    words = segment.split()
    if not 1 <= len(words) <= 3 or not all(_R.TOWN_WORD.fullmatch(w) for w in words):
        return False
    last = words[-1].rstrip("-–")
    if any(w.lower() in _units() for w in words) or last.lower() in _not_places():
        return False
    if any(c.isalpha() for c in value):
        return True
    if len(value) == 4 and 1900 <= int(value) <= 2099:
        return False
    cased = (last[:1].isupper() and last[1:2].islower()) or segment.islower()
    return cased and (_R.TOPONYM.search(last) is not None or (value.isdigit() and len(value) in (5, 6))
                      or _R.LONG_HYPHEN.fullmatch(value) is not None)


def _lines_back(text: str, line_start: int, n: int) -> int:
    """Where the line ``n`` lines above the one starting at ``line_start`` starts (240 characters at most)."""
    pos = line_start
    for _ in range(n):
        if pos == 0:
            break
        pos = text.rfind("\n", 0, pos - 1) + 1
    return max(pos, line_start - 240)


@lru_cache(maxsize=1)
def towns() -> frozenset:
    """Listed towns in lower case: the cities gazetteer and the 200 most populous places of each
    country of ``crfdeid/_data/towns_by_country.txt`` (GeoNames, the surrogates' towns)."""
    text = resources.files("crfdeid._data").joinpath("towns_by_country.txt").read_text(encoding="utf-8")
    shipped = {line.split("\t")[1].lower() for line in text.splitlines() if line and not line.startswith("#")}
    return gazetteers.load("cities") | frozenset(shipped)


@lru_cache(maxsize=1)
def _units() -> frozenset:
    """Clinical abbreviations, units and counted things: what follows a count, never a town."""
    return gazetteers.load("clinical_abbrevs") | _R.UNITS


@lru_cache(maxsize=1)
def _not_places() -> frozenset:
    """Plain, clinical and drug words and :func:`_units`: what stands right before a count, never a town."""
    return plain_words() | _units() | lists("drug_names", "brand_names", "clinical_abbrevs")
