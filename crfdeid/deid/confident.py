r"""Whether a tagged span is confidently a Safe Harbor identifier of its type, from what the writer
sees: the span's text, the text around it, which layer found it and the tagger's confidence.

A realistic surrogate states a fact: ``Fundal height`` tagged as a doctor and written as
``Nevels height``, ``9/9`` as a date and written as ``7/14``, ``mg/dL`` as ``mg/Kowalczyk``.
A placeholder (``[**DOCTOR**]``) states nothing, so a span that is not confidently an
identifier of its type gets one (recall is kept: the span is still replaced). Only spans a
tagger predicted are judged (a document with confidences); a user's own annotations (gold
spans, no confidence) and spans of a fixed Safe Harbor form (:func:`crfdeid.recognizers.safeharbor.find`:
an email, a phone, a dated form) are taken as they are.

The evidence, by type (:func:`doubt`; the full list, and its figures, in docs/deid.md and
docs/experiments.md, 2026-11-25):

* **the edges**, any type: a span over a line break, a table's column gap (in a name or place, two
  blanks: ``OGD  Pendleford Royal Infirmary``) or a cell border (``1288 | 889 | 1283``: a row of values),
  starting or ending on a joiner (``-C.`` of ``PA-C.``), cutting a word in two (``E`` of ``E11.649``) or a
  token joined by a hyphen or a slash (``dL`` of ``mg/dL``, ``Y`` of ``Roux-en-Y``, the ``C`` of ``PA-C``), or
  holding a label word beside an identifier's number (``CHI 1203571482``);
* **a name** (``PATIENT``, ``DOCTOR``): every word name-shaped (capitalised, ``McKenzie``; in capitals
  only when listed or a long word no English one; in lower case only when listed, or no English word in a
  note written in lower case: ``radiocephalic``),
  none of the clinical, label, role or profession lists unless a listed name (a short word in capitals alone,
  ``SHA``, ``LONG``, needs :data:`SURE` even when listed), none of the 7,000 most
  frequent English words (the ``common_words`` list, wordfreq's) unless a listed first name or one of
  the 2,000 most frequent surnames, no clinical head right after it nor an article before it (``Allred
  score``, ``the Moore approach``); one word alone, with no title, initial or other name word and not
  among the patient's full names, must also be no clinical or label word (``Ward``), no common word
  (``Class``), listed or found with a confidence of :data:`SURE` or more, and have a person's mark
  beside it (a role or relation before it, ``seen by`` or ``per``, a credential or a person's verb
  after it: ``daughter Suzette``, ``Okafor aware``) unless it is a listed first name (``Emily
  reports``) not in brackets after a term (``extension (McKenzie)``): a surname alone is how an eponym
  is written (``(Allred)``, ``Fitzpatrick II``, ``Dawson's fingers``, ``Case No``); in lower case alone
  it needs that mark unless the note is written in lower case (``thrill`` of a capitalised note);
* **a date**: it parses (:func:`crfdeid.deid.dates.parse`) with nothing left over, is not a bare
  two-digit number after a ward's or bed's word (``Ward 64``), a day and month alone (``9/9``)
  found with less than :data:`SURE` has its day over 12 in the note's order (``8/13`` month first),
  and two numbers alone right after a clinical word or a two- or three-letter abbreviation (``PR 6/8``,
  ``RE 6/9``, ``primary 25/07``) in a note that writes its dates with a year are a value, not a date
  (a note of bare dates keeps them: ``CABG 3/5``); a year alone needs :data:`SURE` (``G2P2 (2002)``), and a
  month alone in capitals in a note not in capitals is an abbreviation (``OCT``);
* **a phone or fax**: no letter but an extension's, not two clock times of a shift (``1900-0730``), and
  seven digits or more or a number
  phonenumbers finds possible in the note's country or the US;
* **an identifier** and **a postcode**: a digit, no lower-case letters glued to digits
  (``p.(Glu23ValfsTer17)``); **an email** an ``@``; **a web address** a dot or a slash;
* **a place** (:mod:`crfdeid.deid.confident_places`): not ending on a clinical head or clinical word
  (``Depression Scale``), no label at an edge, no lower-case word after the first (``Trypanosoma
  cruzi``), no clause in lower case (``orlaith quennell rang the ward``), not one word no place list
  holds in capitals (``URGENCES``) or as a hospital or organisation, no clinical head right after it;
  a hospital's or organisation's name of several words is no service's name (``Eye Clinic``) and has
  an institution's head noun unless no noun phrase runs around it (``the Ashkenazi Jewish founder
  variants``); a department is no Safe Harbor identifier at all; a place a rule made that the model gives
  P(PHI) < 0.5 is none either (:func:`.confident_places.model_doubt`).

Any type but an age: a span that is, holds or sits inside a clinical form (a score, grade, stage, class,
code, a ward's or bed's number: ``Forrest IIa``, ``GCS E3V4M6``, ``E11.649``, ``Ward 64``) or a phrase or
heading in capitals of clinical words (:mod:`crfdeid.deid.forms`: ``form``, ``capitals``, ``heading``).

**An age** over 89 the tagger is less than :data:`SURE` of, with no age's words in or around it (``96 h``), is
none: its ``90+`` would be a false value. Professions and user names are not judged here. The words beside a
span are evidence too (:mod:`crfdeid.deid.confident_terms`: ``Maryland dissector``, ``9/9 checks``), and
last the model's word on a name a rule made, a role after a person's name, a bare day and month in a note
that dates with years, a first name that is an English word (:mod:`crfdeid.deid.confident_note`), and a span of
a thin kind the tagger is less than 0.99 sure of (:mod:`crfdeid.deid.confident_bars`: a day and month alone in a note
dated with years, a name of one word in one case).

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
from ..schema import PERSON_SUBTYPES
from . import ages, confident_terms, dates, facts, names
from .confident_bars import thin_doubt
from .confident_form import CODE
from .confident_note import credential_before, credential_last, dated_with_years, first_names, note_doubt, person_beside
from .confident_places import PLACE_TYPES, model_doubt, place_doubt
from .confident_terms import count_after, in_listed_term, role_last, scale_before, shift, term_word_after
from .evidence import (
    ARTICLE_BEFORE,
    COMMON,
    SURE,
    TITLE_BEFORE,
    english,
    fold,
    foreign,
    head_after,
    labels,
    lists,
    lower_case,
    shouting,
)
from .forms import form_doubt
from .otherlang import person_label

_EXTENSION = re.compile(r"(?i)(?:\b(?:ext|extn|x)\.?\s*)(?=\d)"
                        r"|^\s*(?:tel|ph|phone|fax|mob|mobile|cell|pager|bleep)\b\.?:?")
_LOWER_GLUED = re.compile(r"\d[a-z]{2,}|[a-z]{2,}\d")
_COLUMNS = re.compile(r"[\n\r\t]| {3,}")
#: Inside a name or a place, two blanks already part two fields of a line (``OGD  Pendleford Royal Infirmary``,
#: ``Marisol Etcheverry  GA``): a name's or a place's words are one blank apart.
_GAP = re.compile(r"[\n\r\t]| {2,}")
#: A table's cell border inside a span (``1288 | 889 | 1283``, ``Hb g/L | 112``): the cells of a row are no one
#: identifier, whatever their shape. A border at the span's edge is a cell's own (``0917 555 0826 |``).
_BORDER = re.compile(r"[^|\s]\s*\|\s*[^|\s]")
#: Reasons about a span's edges (a line break, a label taken in), whatever form its words have.
EDGES = frozenset({"lines", "label", "cut"})
_ID_TYPES = frozenset({"SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE",
                       "BIOID", "IDNUM", "ZIP"})
_ELIDED = re.compile(r"[a-z]'[a-z]{2,}$")
_MAC = re.compile(r"(?:Ma?c|O'|D'|Fitz)[A-Z]")


def _word_doubt(word: str, shouting: bool, lower: bool = True) -> str | None:
    """Why one word of a name span of several words is no name word (``clinical``, ``shape``,
    ``acronym``, ``common``, ``lower``: a word in lower case no list holds, in a note that is not written
    in lower case: ``radiocephalic`` of ``Brescia-Cimino radiocephalic``), or None."""
    clinical, listed, frequent, _, _ = lists()
    low = fold(word)
    if low.endswith("'s"):
        low = low[:-2]
    if low in clinical and low not in listed:
        return "clinical"
    if _ELIDED.match(low):
        low = low.replace("'", "")  # o'hara: ohara in the lists
    if word.isupper():
        if not shouting and low not in listed and (len(word) <= 5 or low in english()):
            return "acronym"  # LVEDD, DASA, NST, INVASIVE: an abbreviation or a word in capitals, no name
    elif word.islower():
        if low not in listed and not _ELIDED.match(word) and low in english():
            return "common"  # height, regimen: an English word, in a name span of a note not in lower case
        if low not in listed and not lower:
            return "lower"  # radiocephalic: a name's words are capitalised where the note's names are
    elif not (word[0].isupper() and (word[1:].islower() or _MAC.match(word))):
        return "shape"  # dL, mRNA, eGFR: units and lab names, no name is written so
    if low not in frequent and english().get(low, COMMON) < COMMON:
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
    capitals = shouting(text)
    in_lower = lower_case(text) or capitals
    if any(_word_doubt(w, capitals, in_lower) for w in ws if len(w) > 1) or role_last(ws, capitals):
        return "name"  # a word no name's; a role's abbreviation after a name of three words (obi ho)
    if any(person_label(w) for w in ws if len(w) > 1):
        return "name"  # a role, relation or label taken in: Hausarzt, Mutter, CPR, Rossi marito Bianchi (otherlang.py)
    if credential_last(ws) or confident_terms.spelled_acronym(text, sp):
        return "name"  # Okafor MRCP: a credential taken in; NNN (Novy-MacNeal-Nicolle): an acronym's words
    if len(ws) > 1 and _BABY_OF.match(surface):
        return "name"  # bo Adaeze Okonkwo: a neonate's "baby of" taken in (check46), or a given name Bo: a placeholder
    titled = bool(TITLE_BEFORE.search(text, max(0, sp.start - 12), sp.start)) or len(names.words(surface)) < len(
        [m for m in names._WORD.finditer(surface)])
    full = [w for w in ws if len(w) > 1]
    if not titled and (head_after(text, sp.end) or ARTICLE_BEFORE.search(text, max(0, sp.start - 5), sp.start)
                       or term_word_after(text, sp, lists()[1])):
        return "name"  # an eponym: Dawes-Redman criteria, the Moore approach, Garrett dilators (confident_terms)
    if (not titled and len(ws) == 2 and len(ws[1]) == 1 and ws[1].isupper() and not text.startswith(".", sp.end)
            and fold(ws[0]) not in first_names() and confidence is not None and confidence < SURE):
        return "name"  # Balthazar E: a doubted surname before a bare letter, an eponym's grade
    if titled or len(ws) >= 2 or not full or all(fold(w) in known for w in full):
        return None  # a title, a first name or an initial beside it, the patient's own name; initials alone
    clinical, listed, frequent, _, _ = lists()
    low = fold(full[0])
    if (low in clinical and low not in frequent) or low in labels():
        return "name"  # one word that is a clinical word, or a note's label or a role though a name too (Ward)
    if low not in frequent and english().get(low, COMMON) < COMMON:
        return "name"  # Class, Fundal: a common word, no frequent name
    acronym = full[0].isupper() and len(full[0]) <= 5 and not capitals  # SHA, LONG: a listed name or an abbreviation
    if acronym and credential_before(text, sp):
        return "name"  # RN RM: a second credential, or a nurse's initials; a placeholder is honest for either
    if confidence is not None and confidence < SURE and (low not in listed or acronym):
        return "name"
    if full[0].islower() and not lower_case(text) and not person_beside(text, sp):
        return "name"  # walker, thrill: a word in lower case alone, in a note that writes names capitalised
    if not person_beside(text, sp) and (low not in first_names() or _bracketed_term(text, sp)):
        # a surname or another word alone, with no person's mark beside it, is how an eponym is written
        # ((Allred), Fitzpatrick II, Dawson's fingers, Case No); a first name alone is how people are
        # (Emily reports), but in brackets after a term (extension (McKenzie)) it qualifies the term
        return "name"
    return None


#: ``b/o`` or ``bo`` ("baby of") before the mother's name, as a neonatal note writes its patient.
_BABY_OF = re.compile(r"(?i)b/?o[ \t]")
_BRACKET_BEFORE = re.compile(r"([^\W_][\w./-]*)[ \t]*\($")


def _bracketed_term(text: str, sp: Span) -> bool:
    """Whether the span stands alone in brackets right after a clinical word or a number
    (``IOP (Goldmann)``, ``PR 6/8 (Allred)``): a qualifier of the term, no person."""
    if not text.startswith(")", sp.end):
        return False
    m = _BRACKET_BEFORE.search(text, max(0, sp.start - 30), sp.start)
    if m is None:
        return False
    word = fold(m.group(1))
    return word[-1].isdigit() or word.strip(".") in lists()[0]


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
        if not sure or (word is not None and fold(word.group(1)) in _wards()):
            return "date"
    if not sure and all(set(p.fields) <= {"y"} for p in found):
        return "date"  # a year alone the tagger doubts (G2P2 (2002)): a count or a value as often
    letters = "".join(c for c in surface if c.isalpha())
    if all(set(p.fields) <= {"mon"} for p in found) and len(letters) <= 4 and (
            (surface.isupper() and (not shouting(text) or not _dated_month(text, sp)))
            or (letters.islower() and lower_case(text) and not _dated_month(text, sp))):
        # a month alone in capitals, a note not in capitals (on OCT): an abbreviation; in a note in capitals or in
        # lower case, one with no date's word before it nor a number after it (OCT-A, all'oct-a): as often
        return "date"
    pair = _PAIR.fullmatch(surface)
    if pair is not None:
        # two numbers alone, no year, no month name, right after a clinical word or abbreviation (PR 6/8,
        # RE 6/9, LE 6/36, primary 25/07: a receptor score, a visual acuity, a tooth), in a note that writes
        # its dates with a year: not how this note writes a date (a note of bare dates: AVR 9/96, CABG 3/5)
        if _value_label_before(text, sp.start) and dated_with_years(text):
            return "date"
        if scale_before(text, sp.start) or count_after(text, sp.start, sp.end):
            return "date"  # Boston 8/9 (a scale's first word), 9/9 checks (a count out of a total): confident_terms
    numeric = [p for p in found if set(p.fields) <= {"m", "s", "d"}]
    if numeric and len(numeric) == len(found) and not sure:
        # a day and month alone, no year, no month name: a date when its day is over 12 in the note's order
        # (8/13 read month first), else a grade or a fraction as often (5/5, 9/9, 2/2)
        day_over_12 = all(p.day is not None and p.day > 12 for p in numeric)
        return None if day_over_12 and _in_order(surface, order) else "date"
    return None


_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s.:#-]*$")
_NUMBER_AFTER = re.compile(r"[ \t,.'-]{0,2}\d")


def _dated_month(text: str, sp: Span) -> bool:
    """Whether a month alone reads as a date by its neighbours: a date's word right before it (``IN OCT``, ``SINCE
    MAR``, ``LAST DEC``) or a number right after (``OCT 12``, ``MAR '24``); not ``OCT-A: DRUSEN``."""
    if _NUMBER_AFTER.match(text, sp.end):
        return True
    word = _WORD_BEFORE.search(text, max(0, sp.start - 24), sp.start)
    return word is not None and fold(word.group(1)) in _DATE_WORDS_BEFORE | _MONTH_WORDS_BEFORE


#: Words before a month alone that make it a time (``LAST DEC``, ``EARLY MAR``), besides :data:`_DATE_WORDS_BEFORE`.
_MONTH_WORDS_BEFORE = frozenset({"last", "next", "this", "early", "mid", "late", "end", "each", "every"})
_PAIR = re.compile(r"\d{1,2}\s*[-/.]\s*\d{1,2}")
_LABEL_BEFORE = re.compile(r"(?<![^\W\d_])([^\W\d_]+)[ \t]*[:=]?[ \t]*$")


def _value_label_before(text: str, start: int) -> bool:
    """Whether a clinical word (the clinical vocabulary lists, not a note's labels: ``Date``) or an
    abbreviation in capitals of two or three letters (``RE``, ``PR``; not a word a date follows, ``ON``,
    nor in a note written in capitals) stands right before ``start``."""
    m = _LABEL_BEFORE.search(text, max(0, start - 30), start)
    if m is None:
        return False
    word, low = m.group(1), fold(m.group(1))
    return low in facts._vocabulary()[0] or (word.isupper() and 2 <= len(word) <= 3 and low not in _date_words()
                                             and low not in _DATE_WORDS_BEFORE and not shouting(text))


#: Words a date follows (``ON 3/4``, ``TO 6/8``): no value's label, in capitals too.
_DATE_WORDS_BEFORE = frozenset({"on", "at", "in", "by", "to", "of", "from", "since", "until", "till", "before",
                                "after", "due", "dated", "dt"})


@lru_cache(maxsize=1)
def _date_words() -> frozenset:
    """Months and days as written (``MAR``, ``Tue``), and their first three letters."""
    full = [fold(e).lower() for n in ("months", "days") for e in gazetteers.entries(n)]
    return frozenset(full + [w[:3] for w in full] + ["dob", "dos", "doa", "dod"])


#: Words a place's number follows (besides the ``ward_heads`` list): ``Bed 64`` is no year.
_NUMBERED_PLACES = ("bed", "room", "rm", "bay", "cubicle", "unit", "floor", "level", "cot")


@lru_cache(maxsize=1)
def _wards() -> frozenset:
    return frozenset(e.lower() for e in gazetteers.entries("ward_heads")) | frozenset(_NUMBERED_PLACES)


def _in_order(surface: str, order: str | None) -> bool:
    """Whether a day and month alone reads as one in the note's order (either way, undecided)."""
    m = re.search(r"(\d{1,2})\s*[-/.]\s*(\d{1,2})", surface)
    if m is None:
        return True
    first, second = int(m.group(1)), int(m.group(2))
    ways = [(second, first)] if order == "dmy" else [(first, second)] if order else [(first, second), (second, first)]
    return any(1 <= month <= 12 and 1 <= day <= 31 for month, day in ways)


def phone_doubt(text: str, sp: Span, country: str) -> str | None:
    """Why the phone or fax span ``sp`` is not confidently a phone number, or None."""
    surface = _EXTENSION.sub("", text[sp.start:sp.end])
    digits = sum(c.isdigit() for c in surface)
    if any(c.isalpha() for c in surface):
        return "phone"  # T04000 M85003: codes, no phone number holds a letter (but its extension's x, ext)
    if shift(surface):
        return "phone"  # 1900-0730: two clock times of a shift, no phone number
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


def age_doubt(text: str, sp: Span, confidence: float | None) -> str | None:
    """Why the AGE span ``sp`` over 89 is not confidently an age (a number the tagger doubts, no age's
    words in or around it: ``96 h`` of working hours), or None: its ``90+`` would state a false value."""
    surface = text[sp.start:sp.end]
    if confidence is None or confidence >= SURE or (ages.value(surface) or 0) <= 89 or ages.age_shaped(surface):
        return None
    lo, hi = max(0, sp.start - 12), min(len(text), sp.end + 16)
    told = any(m.start() < sp.end and sp.start < m.end() for m in ages.MENTION.finditer(text, lo, hi))
    return None if told else "age"


def _cut(text: str, sp: Span) -> bool:
    """Whether ``sp`` starts or ends inside a run of letters and digits (``E`` of ``E11.649``), or inside
    one token joined by a hyphen or a slash (``dL`` of ``mg/dL``, ``Y`` of ``Roux-en-Y``, ``C`` of ``PA-C``)."""
    s, e = sp.start, sp.end
    if s >= e:
        return False
    return ((s > 0 and text[s - 1].isalnum() and text[s].isalnum())
            or (e < len(text) and text[e].isalnum() and text[e - 1].isalnum())
            or (s > 1 and text[s - 1] in _JOINERS and text[s - 2].isalnum() and text[s].isalnum())
            or (e + 1 < len(text) and text[e] in _JOINERS and text[e + 1].isalnum() and text[e - 1].isalnum())
            or (s > 0 and text[s] in _JOINERS and text[s - 1].isalnum())  # -C. Osei-Brandt of PA-C. Osei-Brandt
            or (e < len(text) and text[e - 1] in _JOINERS and text[e].isalnum()))


_JOINERS = "-/\u2010\u2011"


def _label_word(surface: str) -> bool:
    """Whether ``surface`` holds a word of two letters or more standing apart from its digits (not
    glued or joined to them by ``-`` or ``/``: ``AB-123456`` is one identifier, ``CHI 1203571482`` a label
    and a number)."""
    joined = "-/0123456789"
    return any(not (m.start() > 0 and surface[m.start() - 1] in joined)
               and not (m.end() < len(surface) and surface[m.end()] in joined)
               for m in re.finditer(r"(?<![^\W\d_])(?:[^\W\d_]{2,}|(?:[^\W\d_]\.){2,})(?![^\W\d_])", surface))


def doubt(text: str, sp: Span, confidence: float | None, *, order: str | None = None, country: str = "US",
          known: frozenset = frozenset(), crf: float | None = None, person_ends: frozenset = frozenset()) -> str | None:
    """Why the tagged span ``sp`` of ``text`` is not confidently a Safe Harbor identifier of its
    type (``name``, ``date``, ``phone``, ``id``, ``email``, ``url``, ``place``, ``model``, ``profession``,
    ``term``; ``form``, ``capitals``, ``heading``: :mod:`crfdeid.deid.forms`; ``thin``:
    :mod:`crfdeid.deid.confident_bars`), or None.

    ``confidence``: the tagger's (lowest token probability of PHI in the span; None when no tagger
    scored it); ``order``: how the note's ambiguous dates read; ``country``: the note's
    (:func:`crfdeid.recognizers.safeharbor.country`); ``known``: the patient's full names' words; ``crf``: the
    model's P(PHI) of the span's words whatever step made it (``Span.crf_confidence``: :func:`model_doubt`)."""
    why = _type_doubt(text, sp, confidence, order, country, known)
    if why is None and sp.subtype != "AGE" and in_listed_term(text, sp):
        return "term"  # Maryland dissector, Boston Scientific: inside a listed term of several words
    # else a score, grade, code, bed, capitals (forms.py); else a place a rule made that the model doubts
    return (why or form_doubt(text, sp) or model_doubt(sp, confidence, crf)
            or note_doubt(text, sp, confidence, crf, person_ends)  # the model's and the note's word
            or thin_doubt(text, sp, confidence)  # a thin kind the tagger is not sure enough of (confident_bars)
            or unread_doubt(text, sp))  # a note the writer cannot read: another language in one case


def unread_doubt(text: str, sp: Span) -> str | None:
    """``unread`` for a span with a letter, no date or age, in a note mostly in another language than English
    (:func:`.evidence.foreign`) and written in one case (lower case or capitals), else None: the evidence of a
    name's, a place's or a firm's type this module reads is English's word lists and a name's capitals, and such a
    note gives neither (``kosten vermieden nicht berechnet`` as a patient, ``złamanie przezkrętarzowe kości udowej``
    as a firm). The span is still replaced, by a placeholder."""
    if sp.subtype in ("DATE", "AGE") or not any(c.isalpha() for c in text[sp.start:sp.end]):
        return None
    return "unread" if (shouting(text) or lower_case(text)) and foreign(text) else None


def _type_doubt(text: str, sp: Span, confidence: float | None, order: str | None, country: str,
                known: frozenset) -> str | None:
    """Why ``sp`` is no confident identifier by its edges and its type's evidence (:func:`doubt`), or None."""
    sub = sp.subtype
    surface = text[sp.start:sp.end]
    if (sub in _ID_TYPES | {"PHONE", "FAX"} and _COLUMNS.search(surface)) or (
            sub in PERSON_SUBTYPES | PLACE_TYPES and _GAP.search(surface)) or _BORDER.search(surface):
        return "lines"  # over a line break, a table's column gap or its cell border: a row's cells or a label
    if sub in PERSON_SUBTYPES | PLACE_TYPES and _cut(text, sp):
        return "cut"  # a word cut in two (E of E11.649, Roux-en-Y's Y): a piece of a code or a term
    if sub in _ID_TYPES | {"PHONE", "FAX"} and _label_word(surface):
        return "label"  # a word apart from the number (CHI 1203571482, NRIC: S7103388J): a label swallowed
    if sub in PERSON_SUBTYPES:
        return name_doubt(text, sp, confidence, known)
    if sub == "DATE":
        return date_doubt(text, sp, confidence, order)
    if sub in ("PHONE", "FAX"):
        return phone_doubt(text, sp, country)
    if sub in _ID_TYPES:
        if not any(c.isdigit() for c in surface) or shift(surface):
            return "id"  # no digit; 1900-0700, two clock times of a shift
        if sub != "ZIP" and CODE.fullmatch(surface):
            return "id"  # Medicare A5500, dbSNP RS80357906: a code; a made-up one names another shoe or variant
        return "id" if _LOWER_GLUED.search(surface) else None  # p.(Glu23ValfsTer17): a variant, no identifier
    if sub == "EMAIL":
        return None if "@" in surface else "email"
    if sub == "URL":
        return None if any(c in surface for c in "./") else "url"
    if sub in PLACE_TYPES:
        return place_doubt(text, sp)
    if sub == "AGE":
        return age_doubt(text, sp, confidence)
    if sub == "PROFESSION":
        return "profession"  # never a Safe Harbor identifier: a made-up job states a false occupation
    if sub == "USERNAME" and len(surface.split()) > 1:
        return "label"  # a user name has no blank: epr login cohagan3, DIPS-bruker ihat0412 took a label in
    return None
