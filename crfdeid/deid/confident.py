r"""Whether a tagged span is confidently a Safe Harbor identifier of its type, from what the writer
sees: the span's text, the text around it, which layer found it and the tagger's confidence.

A realistic surrogate states a fact: ``Fundal height`` tagged as a doctor and written as
``Nevels height``, ``9/9`` as a date and written as ``7/14``, ``mg/dL`` as ``mg/Kowalczyk``.
A placeholder (``[**DOCTOR**]``) states nothing, so a span that is not confidently an
identifier of its type gets one (recall is kept: the span is still replaced). Only spans a
tagger predicted are judged (a document with confidences); a user's own annotations (gold
spans, no confidence) and spans of a fixed Safe Harbor form (:func:`crfdeid.recognizers.safeharbor.find`:
an email, a phone, a dated form) are taken as they are.

The evidence, by type (:func:`doubt`; the full list, and its figures, in docs/deid.md, 2026-11-25):

* **the edges**, any type: a span over a line break or a table's column gap, cutting a word in two
  (``E`` of ``E11.649``), or holding a label word beside an identifier's number (``CHI 1203571482``);
* **a name** (``PATIENT``, ``DOCTOR``): every word name-shaped (capitalised, ``McKenzie``; in capitals
  only when listed or a long word no English one; in lower case only when listed or no English word),
  none of the clinical, label, role or profession lists unless a listed name, none of the 7,000 most
  frequent English words (the ``common_words`` list, wordfreq's) unless a listed first name or one of
  the 2,000 most frequent surnames, no clinical head right after it nor an article before it (``Allred
  score``, ``the Moore approach``); one word alone, with no title, initial or other name word and not
  among the patient's full names, must also be no clinical or label word (``Ward``), no common word
  (``Class``), and listed or found with a confidence of :data:`SURE` or more;
* **a date**: it parses (:func:`crfdeid.deid.dates.parse`) with nothing left over, is not a bare
  two-digit number after a ward's or bed's word (``Ward 64``), and a day and month alone (``9/9``)
  found with less than :data:`SURE` has its day over 12 in the note's order (``8/13`` month first);
* **a phone or fax**: no letter but an extension's, and seven digits or more or a number
  phonenumbers finds possible in the note's country or the US;
* **an identifier** and **a postcode**: a digit, no lower-case letters glued to digits
  (``p.(Glu23ValfsTer17)``); **an email** an ``@``; **a web address** a dot or a slash;
* **a place**: not ending on a clinical head or clinical word (``Depression Scale``), no label at an
  edge, no lower-case word after the first (``Trypanosoma cruzi``), not one word no place list holds
  in capitals (``URGENCES``) or as a hospital or organisation, no clinical head right after it; a
  department is no Safe Harbor identifier at all.

Ages (their own rules, :mod:`crfdeid.deid.ages`), professions and user names are not judged here.

>>> from crfdeid.document import make_span
>>> text = "Fundal height 32 cm. Seen by Dr. Ward. DASA score 2. Ward note."
>>> [doubt(text, make_span(a, b, "DOCTOR"), 0.95) for a, b in [(0, 13), (33, 37), (39, 43), (53, 57)]]
['name', None, 'name', 'name']
"""

from __future__ import annotations

import re
from functools import lru_cache

import phonenumbers

from .. import gazetteers
from ..document import Span
from . import dates, facts, names

#: A tagger's confidence (lowest token P(PHI) in the span) a one-word name or a day and month
#: without a year needs: the weaker the shape's evidence, the surer the tagger must be.
SURE = 0.9
#: A word among this many of the most frequent English words (the shipped ``common_words`` list,
#: wordfreq's top 10,000 by frequency) is a common word: about Zipf 4.0 and above (``ward`` rank
#: 3,778, ``class`` 405, ``height`` 2,774; ``smith`` 1,335 but a listed surname of the 2,000 most frequent).
COMMON = 7000
_EXTENSION = re.compile(r"(?i)(?:\b(?:ext|extn|x)\.?\s*)(?=\d)"
                        r"|^\s*(?:tel|ph|phone|fax|mob|mobile|cell|pager|bleep)\b\.?:?")
_LOWER_GLUED = re.compile(r"\d[a-z]{2,}|[a-z]{2,}\d")
_COLUMNS = re.compile(r"[\n\r\t]| {3,}")
#: Reasons about a span's edges (a line break, a label taken in), whatever form its words have.
EDGES = frozenset({"lines", "label", "cut"})
_COMMON_SURNAMES = 2000
_NAME_TYPES = frozenset({"PATIENT", "DOCTOR"})
_PLACE_TYPES = frozenset({"HOSPITAL", "ORGANIZATION", "STREET", "CITY", "LOCATION-OTHER", "DEPARTMENT"})
_ID_TYPES = frozenset({"SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE",
                       "BIOID", "IDNUM", "ZIP"})
_TITLE_BEFORE = re.compile(r"(?i)\b(?:dr|mr|mrs|ms|miss|mx|prof|professor|sister|sr|fr|rev|dame|sir|lady|lord)"
                           r"\.?\s*$")
_ELIDED = re.compile(r"[a-z]'[a-z]{2,}$")
_ARTICLE_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(?:a|an|the)\s+$")
_MAC = re.compile(r"(?:Ma?c|O'|D'|Fitz)[A-Z]")
#: Lists of the words that head or label a note's parts and name its staff: no name word.
_LABEL_LISTS = ("note_labels", "heading_words", "staff_roles", "professions")
_PLACE_LISTS = ("hospitals", "cities", "countries", "states", "hospital_words", "hospital_heads",
                "organizations", "organization_words", "organization_heads", "ward_heads",
                "town_heads", "street_types", "street_suffixes", "state_abbrevs", "street_names")


@lru_cache(maxsize=1)
def _lists() -> tuple[frozenset, frozenset, frozenset, frozenset, frozenset]:
    """Clinical words (but common names), listed names, the most frequent names, clinical heads, places."""
    entries, _, heads = facts._vocabulary()
    first = frozenset(w.lower() for n in ("first_male", "first_female") for w in gazetteers.entries(n))
    surnames = [w.lower() for w in gazetteers.entries("surnames")]
    listed = first | frozenset(surnames) | frozenset(w.lower() for w in gazetteers.entries("surnames_rare"))
    frequent = first | frozenset(surnames[:_COMMON_SURNAMES])
    clinical = frozenset(e for e in entries | _labels() if " " not in e)
    places = frozenset(e.lower() for n in _PLACE_LISTS for e in gazetteers.entries(n))
    return clinical, listed, frequent, heads, places


@lru_cache(maxsize=1)
def _english() -> dict[str, int]:
    """The frequency rank of each of the 10,000 most frequent English words (``common_words``)."""
    return {w.lower(): i for i, w in reversed(list(enumerate(gazetteers.entries("common_words"))))}


def _fold(word: str) -> str:
    return names._ascii_fold(word).replace("\u2019", "'")


def _shouting(text: str) -> bool:
    """Whether the note is written in capitals (most of its letters upper case; a few lines tell nothing)."""
    letters = [c for c in text[:4000] if c.isalpha()]
    return len(letters) >= 200 and sum(c.isupper() for c in letters) > 0.6 * len(letters)


def _word_doubt(word: str, shouting: bool) -> str | None:
    """Why one word of a name span of several words is no name word (``clinical``, ``shape``,
    ``acronym``, ``common``), or None."""
    clinical, listed, frequent, _, _ = _lists()
    low = _fold(word)
    if low.endswith("'s"):
        low = low[:-2]
    if low in clinical and low not in listed:
        return "clinical"
    if _ELIDED.match(low):
        low = low.replace("'", "")  # o'hara: ohara in the lists
    if word.isupper():
        if not shouting and low not in listed and (len(word) <= 5 or low in _english()):
            return "acronym"  # LVEDD, DASA, NST, INVASIVE: an abbreviation or a word in capitals, no name
    elif word.islower():
        if low not in listed and not _ELIDED.match(word) and low in _english():
            return "common"  # height, regimen: an English word, in a name span of a note not in lower case
    elif not (word[0].isupper() and (word[1:].islower() or _MAC.match(word))):
        return "shape"  # dL, mRNA, eGFR: units and lab names, no name is written so
    if low not in frequent and _english().get(low, COMMON) < COMMON:
        return "common"
    return None


def name_doubt(text: str, sp: Span, confidence: float | None, known: frozenset = frozenset()) -> str | None:
    """Why the name span ``sp`` is not confidently a person's name, or None (module docstring).
    ``known``: the words (folded) of the patient's full names met so far."""
    surface = text[sp.start:sp.end]
    ws = [m.group() for m in names.words(surface)]
    ws = [w for w in ws if w.lower() not in names.PARTICLES]
    if not ws:
        return "name"
    shouting = _shouting(text)
    if any(_word_doubt(w, shouting) for w in ws if len(w) > 1):
        return "name"
    titled = bool(_TITLE_BEFORE.search(text, max(0, sp.start - 12), sp.start)) or len(names.words(surface)) < len(
        [m for m in names._WORD.finditer(surface)])
    full = [w for w in ws if len(w) > 1]
    if not titled and (_head_after(text, sp.end) or _ARTICLE_BEFORE.search(text, max(0, sp.start - 5), sp.start)):
        return "name"  # an eponym: Dawes-Redman criteria, the Moore approach, a Carter-Thomason device
    if titled or len(ws) >= 2 or not full or all(_fold(w) in known for w in full):
        return None  # a title, a first name or an initial beside it, the patient's own name; initials alone
    clinical, listed, frequent, _, _ = _lists()
    low = _fold(full[0])
    if (low in clinical and low not in frequent) or low in _labels():
        return "name"  # one word that is a clinical word, or a note's label or a role though a name too (Ward)
    if low not in frequent and _english().get(low, COMMON) < COMMON:
        return "name"  # Class, Fundal: a common word, no frequent name
    if confidence is not None and confidence < SURE and low not in listed:
        return "name"
    return None


@lru_cache(maxsize=1)
def _labels() -> frozenset:
    """The entries of the lists of a note's labels, headings, staff roles and professions (``ward``, ``house``)."""
    return frozenset(e.lower() for n in _LABEL_LISTS for e in gazetteers.entries(n))


def date_doubt(text: str, sp: Span, confidence: float | None, order: str | None) -> str | None:
    """Why the DATE span ``sp`` is not confidently a date, or None (module docstring)."""
    surface = text[sp.start:sp.end]
    before, after = text[max(0, sp.start - 3):sp.start], text[sp.end:sp.end + 3]
    found, loose = dates.parse(surface, before, after, order=order)
    if not found or loose:
        return None  # no date, or digits no date explains: the unparsed dates' placeholder (surrogate.py)
    sure = confidence is None or confidence >= SURE
    if all(set(p.fields) <= {"yy"} for p in found) and "'" not in before[-1:] + surface + after[:1]:
        # a bare two-digit number read as a year (84): after a ward's, a bed's or a label's word
        # (Ward 64) it is that place's number
        word = _WORD_BEFORE.search(text, max(0, sp.start - 24), sp.start)
        if not sure or (word is not None and _fold(word.group(1)) in _wards()):
            return "date"
    numeric = [p for p in found if set(p.fields) <= {"m", "s", "d"}]
    if numeric and len(numeric) == len(found) and not sure:
        # a day and month alone, no year, no month name: a date when its day is over 12 in the note's order
        # (8/13 read month first), else a grade or a fraction as often (5/5, 9/9, 2/2)
        day_over_12 = all(p.day is not None and p.day > 12 for p in numeric)
        return None if day_over_12 and _in_order(surface, order) else "date"
    return None


_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s.:#-]*$")


#: Words a place's number follows (besides the ``ward_heads`` list): ``Bed 64`` is no year.
_NUMBERED_PLACES = ("bed", "room", "rm", "bay", "cubicle", "unit", "floor", "level", "cot")


@lru_cache(maxsize=1)
def _wards() -> frozenset:
    return frozenset(e.lower() for e in gazetteers.entries("ward_heads")) | frozenset(_NUMBERED_PLACES)


def _in_order(surface: str, order: str | None) -> bool:
    """Whether a day and month alone reads as one in the note's order (either, undecided)."""
    m = re.search(r"(\d{1,2})\s*[-/]\s*(\d{1,2})", surface)
    if m is None or order is None:
        return True
    first, second = int(m.group(1)), int(m.group(2))
    month, day = (second, first) if order == "dmy" else (first, second)
    return 1 <= month <= 12 and 1 <= day <= 31


def phone_doubt(text: str, sp: Span, country: str) -> str | None:
    """Why the phone or fax span ``sp`` is not confidently a phone number, or None."""
    surface = _EXTENSION.sub("", text[sp.start:sp.end])
    digits = sum(c.isdigit() for c in surface)
    if any(c.isalpha() for c in surface):
        return "phone"  # T04000 M85003: codes, no phone number holds a letter (but its extension's x, ext)
    if digits >= 7:
        return None
    if digits == 0:
        return "phone"
    for region in dict.fromkeys((country, "US")):
        try:
            number = phonenumbers.parse(surface, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_possible_number(number):
            return None
    return "phone"


def place_doubt(text: str, sp: Span) -> str | None:
    """Why the place span ``sp`` is not confidently a place, or None."""
    if sp.subtype == "DEPARTMENT":
        return "place"  # a hospital's service is no Safe Harbor identifier: a made-up one states a false service
    clinical, _, _, heads, places = _lists()
    ws = [m.group() for m in names._WORD.finditer(text[sp.start:sp.end])]
    if not ws:
        return None  # digits alone (a room, a ward number): the numbered spans' rules
    last = _fold(ws[-1])
    if (last in heads or last in clinical) and last not in places:
        return "place"  # Edinburgh Postnatal Depression Scale, Department of Gastroenterology, a carcinoma
    edges = {_fold(w) for w in (ws[0], ws[-1]) if len(w) > 1} - places
    if len(ws) > 1 and edges & (_note_labels() | _labels()):
        return "place"  # a label or a role at an edge (NOTE Spinifex Creek Clinic, Consultant ...): taken in
    if any(w.islower() and len(w) > 3 and _fold(w) not in places for w in ws[1:]) and not ws[0].islower():
        return "place"  # Evolução ambulatorial, Trypanosoma cruzi: a place's words are capitalised
    if len(ws) == 1 and len(ws[0]) > 1 and _fold(ws[0]) not in places and (
            (ws[0].isupper() and not _shouting(text)) or sp.subtype in _INSTITUTIONS):
        return "place"  # URGENCES, GH, Epicrisis: a word no place list holds, alone
    if _head_after(text, sp.end):
        return "place"  # Manchester score: a place's name in a clinical term
    return None


_INSTITUTIONS = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT"})


def _head_after(text: str, end: int) -> bool:
    """Whether a clinical head noun comes right after ``end`` (``Dawes-Redman criteria``, ``Allred score``)."""
    m = facts._HEAD_AFTER.match(text, end)
    return m is not None and m.group(1).lower() in _lists()[3]


@lru_cache(maxsize=1)
def _note_labels() -> frozenset:
    return frozenset(e.lower() for n in ("note_labels", "heading_words") for e in gazetteers.entries(n))


def _cut(text: str, sp: Span) -> bool:
    """Whether ``sp`` starts or ends inside a run of letters and digits (``E`` of ``E11.649``)."""
    return ((sp.start > 0 and text[sp.start - 1].isalnum() and text[sp.start].isalnum())
            or (sp.end < len(text) and text[sp.end].isalnum() and text[sp.end - 1].isalnum()))


def _label_word(surface: str) -> bool:
    """Whether ``surface`` holds a word of two letters or more standing apart from its digits (not
    glued or joined to them by ``-`` or ``/``: ``AB-123456`` is one identifier, ``CHI 1203571482`` a label
    and a number)."""
    joined = "-/0123456789"
    return any(not (m.start() > 0 and surface[m.start() - 1] in joined)
               and not (m.end() < len(surface) and surface[m.end()] in joined)
               for m in re.finditer(r"(?<![^\W\d_])(?:[^\W\d_]{2,}|(?:[^\W\d_]\.){2,})(?![^\W\d_])", surface))


def doubt(text: str, sp: Span, confidence: float | None, *, order: str | None = None, country: str = "US",
          known: frozenset = frozenset()) -> str | None:
    """Why the tagged span ``sp`` of ``text`` is not confidently a Safe Harbor identifier of its
    type (``name``, ``date``, ``phone``, ``id``, ``email``, ``url``, ``place``, ``profession``), or None.

    ``confidence``: the tagger's (lowest token probability of PHI in the span; None when no tagger
    scored it); ``order``: how the note's ambiguous dates read; ``country``: the note's
    (:func:`crfdeid.recognizers.safeharbor.country`); ``known``: the patient's full names' words."""
    sub = sp.subtype
    surface = text[sp.start:sp.end]
    if sub in _NAME_TYPES | _PLACE_TYPES | _ID_TYPES | {"PHONE", "FAX"} and _COLUMNS.search(surface):
        return "lines"  # over a line break or a table's column gap: a heading or a label of the line before
    if sub in _NAME_TYPES | _PLACE_TYPES and _cut(text, sp):
        return "cut"  # a word cut in two (E of E11.649, Roux-en-Y's Y): a piece of a code or a term
    if sub in _ID_TYPES | {"PHONE", "FAX"} and _label_word(surface):
        return "label"  # a word apart from the number (CHI 1203571482, NRIC: S7103388J): a label swallowed
    if sub in _NAME_TYPES:
        return name_doubt(text, sp, confidence, known)
    if sub == "DATE":
        return date_doubt(text, sp, confidence, order)
    if sub in ("PHONE", "FAX"):
        return phone_doubt(text, sp, country)
    if sub in _ID_TYPES:
        if not any(c.isdigit() for c in surface):
            return "id"
        return "id" if _LOWER_GLUED.search(surface) else None  # p.(Glu23ValfsTer17): a variant, no identifier
    if sub == "EMAIL":
        return None if "@" in surface else "email"
    if sub == "URL":
        return None if any(c in surface for c in "./") else "url"
    if sub in _PLACE_TYPES:
        return place_doubt(text, sp)
    if sub == "PROFESSION":
        return "profession"  # never a Safe Harbor identifier: a made-up job states a false occupation
    return None
