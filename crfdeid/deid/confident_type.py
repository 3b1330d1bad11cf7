r"""Evidence of type before a made-up value (issue 58 item 3; branches ``proof20``, ``proof21`` and ``proof23``,
2026-11-27; docs/deid.md, "Evidence of type before a made-up value", "Evidence against a made-up value" and "A table's
values, a street's number and a name's label against a made-up value").

The tagger is as sure of the clinical phrases it takes (an eponym as a doctor, a heading as a hospital, a score as
a date) as of real identifiers, so no confidence bar separates them (docs/deid.md, "A bar by kind"). What
separates them is what the note says of the span's type besides the tagger: a made-up value is written only where
the span carries **evidence of its type**, a placeholder of its type otherwise (reason ``untyped``, counted in
``tag``'s summary among the spans "not confidently an identifier of their type"):

* **a name** (``PATIENT``, ``DOCTOR``): a title, a person's mark or a person's label beside it (``Dr``, ``nurse``,
  ``wife:``, ``seen by``, ``, RN``: :func:`~crfdeid.deid.confident_note.person_beside`; ``Patient:``, ``Signed:``,
  ``cc:``, ``Dear``; other languages' titles and person words, ``Dra.``, ``MUDr.``, ``Paciente:``:
  :mod:`.otherlang`), a word of it in the name lists that is no common English word, no frequent word of another
  language (``alla``, ``nada``) nor clinical word (``Grace``, ``Will``, ``Mercy`` alone say nothing), a listed
  first name first and a listed surname last (``John Smith``), or a word of it in another name of the note that has
  such evidence or in a name the note's record gives. Neither ``per`` alone nor a credential before a name is a
  person's mark (``per Dorvane 2019``, Portuguese's ``do``), and a name that ends in or stands before a clinical
  head noun holds no listed word as evidence (``Masako manoeuvre``);
* **a hospital, a street, another place, a state, a country**: its text or a word of it in the place lists (towns,
  states, countries, hospitals, streets, the towns of every country), a place-type word (``Hospital``, ``Clinic``,
  ``Street``, ``Road``, ``Bay``: the head and word lists of hospitals, organisations, streets and towns; other
  languages' type words and compounds ending in one, ``Ospedale``, ``Universitetssjukehus``), a house number before
  a street, or another place of the note of another type right beside it on its line (an address's parts: a blank or
  two, a comma or a dash between; three blanks part a table's cells);
* **an identifier** (record, plan, account, licence, device, vehicle, SSN, other identifier): a label before it on
  its line (the Safe Harbor layer's labels, ``MRN``, ``No.``, ``#``, ``NHS``), letters and digits in one code, or
  six digits or more;
* **a postcode** of digits alone that reads as another number (three digits or fewer, a year): another place right
  beside it; **a town** of one word that is a common English or clinical word: a place list that holds it.

Evidence against the type (proof23): a postcode of three groups of digits (``12 345 678``, a number grouped by
thousands) is none, and a town of no listed word whose only neighbours are such postcodes has none from them (a
table's label before its values); a street of no type's word or house number has none from a town beside it unless a
number stands after it or in it (``Brzozowa 4a, Larkfield``); a name that begins with another language's title or
person word, a role, a relation or a note's label (``Paciente Helena Quarrow``: the tagger took the label in) gets a
placeholder whatever else it holds.

Other towns, firms, postcodes, phones and dates are not judged here: measured on the development sets in three
casings, the towns, firms and postcodes without such evidence are nearly all real, and a phone's validity and a
date's reading in the note's order mend nothing there (docs/deid.md). proof20's evidence took the twenty-six sets'
falsified values from 133 to 86 over three casings; proof21's from 119 to 77 on the twenty-seven (none new, at 15
more real identifiers written as placeholders); proof23's from 106 to 87 on the twenty-eight (none new, at 69 more).

A fixed Safe Harbor form (an email, a phone, a dated form, a check digit: no confidence) and a user's span are
never judged here (a form's own evidence against its span is :mod:`.confident_form`'s); ages, professions,
departments and user names are not either (their own rules). The span is still replaced (recall and the redacted
output are unchanged).

>>> from crfdeid.document import make_span
>>> text = "Seen by Dr Quenby. Kestrel score 4. Admitted to Larkfield Hospital 14/03/2025."
>>> [untyped(text, make_span(a, b, t)) for a, b, t in
...  [(11, 17, "DOCTOR"), (19, 26, "DOCTOR"), (48, 66, "HOSPITAL"), (67, 77, "DATE")]]
[None, 'untyped', None, None]
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import gazetteers
from ..document import Span, make_span
from ..recognizers.safeharbor import LABELS as SAFE_HARBOR_LABELS
from ..schema import PERSON_SUBTYPES
from . import names, otherlang
from .confident_note import first_names, person_beside, persons_marks
from .country import towns_by_country
from .evidence import TITLE_BEFORE, english, fold, head_after, labels, lists

#: The kinds of span this module demands evidence of (a measurement turns one off by leaving it out).
KINDS = frozenset({"name", "place", "number", "postcode", "town"})
#: What proof21 refined (a measurement turns one off by leaving it out): ``other``, a listed word that is a frequent
#: word of another language says nothing alone of a name, and titles and person words of other languages are a
#: person's context (:mod:`.otherlang`); ``strict``, neither ``per`` alone nor a credential before a name is a
#: person's mark (:func:`~crfdeid.deid.confident_note.person_before`); ``head``, a name that ends in or stands
#: before a clinical head noun (``Masako manoeuvre``, ``Allred score``) holds no listed word as evidence;
#: ``compound``, a compound ending in a hospital's type word is a place's (``Universitetssjukehus``); ``same``, a
#: place beside another of its own type is no address's part (:func:`_beside`). What proof23 refined: ``groups``, a
#: postcode of three groups of digits or more (``12 345 678``) is none (:func:`postcode_evidence`); ``pair``, a town
#: whose only neighbours are postcodes without evidence of their own has none from them (:func:`town_evidence`);
#: ``street``, a street of no type's word, listed word or house number before it has evidence from a neighbouring
#: place only with a number after it or in it (:func:`place_evidence`); ``label``, a name that begins with a title, a
#: person's word or a label took its label in (:func:`name_evidence`).
REFINED = frozenset({"other", "strict", "head", "compound", "same", "groups", "pair", "street", "label"})
#: The places judged: a hospital's name carries its type's word or a listed name nearly always, a street's its
#: type or a house number; a town's and a firm's name often carry neither (measured: docs/deid.md).
_PLACES = frozenset({"HOSPITAL", "STREET", "LOCATION-OTHER", "STATE", "COUNTRY"})
#: The spans that make an address's parts (a place beside one is an address's: :func:`place_evidence`).
PLACE_SPANS = _PLACES | {"ORGANIZATION", "CITY", "ZIP"}
#: The identifiers judged (a phone is judged by its own rule, :func:`crfdeid.deid.confident.phone_doubt`: a made-up
#: note's and a real note's phone numbers are often no valid number of any country).
_NUMBERS = frozenset({"MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM",
                      "SSN"})
#: Labels that put a person's name right after them on a line (``Patient: ...``, ``Signed: ...``, ``cc: ...``).
_PERSON_LABEL = re.compile(r"(?i)(?<![^\W\d_])(?:patient|pt|name|names|surname|forename|given|family|signed|"
                           r"signature|cc|dear|attn|author|referrer|contact|kin|nok|interpreter|caller|informant|"
                           r"witness|by)[ \t]*[:.,]?[ \t]*$")
#: An identifier's label right before a number on its line (``MRN``, ``Hosp No.``, ``#``, ``Tel``): the Safe Harbor
#: layer's labels of identifiers (``item LABELS.<subtype>`` of ``crfdeid/_data/rules/safeharbor.tsv``, one source
#: with the recognizers) and the words of labels it does not hold alone: a number's (``No.``, ``Nr``), a
#: phone's (``Tel``, ``Mob``, ``bleep``), other countries' national numbers (``DNI``, ``CPF``, ``NIN``) and a
#: device's or a lab's (``Lot``, ``Model``, ``Lab``).
_OWN_LABELS = (r"mr|urn?|id|ids|no|nos|nr|num|number|numero|n[oº°]|record|chart|member|plan|insurance|insurer|lic|dl|"
               r"nhs|chi|sin|nric|nin|pps|ihi|dni|nie|cpf|rut|cf|sn|vin|plate|reg|registration|tel|telephone|phone|"
               r"ph|fax|mob|mobile|cell|pager|bleep|ext|contact|call|hosp|hospital|unit|case|ref|reference|lab|"
               r"device|implant|model|lot")
_NUMBER_LABEL = re.compile(r"(?i)(?:(?<![^\W\d_])(?:" + _OWN_LABELS + "|"
                           + "|".join(form for forms in SAFE_HARBOR_LABELS.values() for form in forms)
                           + r")|#)[ \t]*[.:#=-]?[ \t]*(?:no\.?|#)?[ \t]*:?[ \t]*$")
_CODE = re.compile(r"[^\W\d_]+[\W_]*\d|\d[\W_]*[^\W\d_]+")
#: A house number before a street, a postcode or another place right beside a place on its line.
_NUMBER_BEFORE = re.compile(r"(?<![\w.,/-])\d{1,5}[A-Za-z]?[ \t]*,?[ \t]*$")
_BESIDE = re.compile(r"[ \t]{0,2}[,-]?[ \t]{0,2}")
#: A house number right after a street (``Hauptstrasse 12``, ``ul. Brzozowa 4a``: many countries write it so).
_NUMBER_AFTER = re.compile(r"[ \t]*\d{1,5}[A-Za-z]?\b")
#: Digits in groups parted by blanks (``12 345 678``): three or more make no postcode of any country.
_GROUP = re.compile(r"(?<!\S)\d+(?!\S)")


def untyped(text: str, sp: Span, *, known: frozenset = frozenset(), named: frozenset = frozenset(),
            places: tuple = ()) -> str | None:
    """``untyped`` when the tagged span ``sp`` carries no evidence of its type beyond the tagger's word (module
    docstring), else None. ``known``: the words of the names the note's record gives
    (:func:`crfdeid.deid.proven.record_names`); ``named``: the words of the note's names that have evidence
    (:func:`evident_names`); ``places``: the note's place spans, ``(start, end, subtype)`` (an address's parts
    stand beside one another; ``(start, end)`` is read as a place of no known type)."""
    sub = sp.subtype
    if sub in PERSON_SUBTYPES and "name" in KINDS:
        return None if name_evidence(text, sp, known | named) else "untyped"
    if sub in _PLACES and "place" in KINDS:
        return None if place_evidence(text, sp, places) else "untyped"
    if sub in _NUMBERS and "number" in KINDS:
        return None if number_evidence(text, sp) else "untyped"
    if sub == "ZIP" and "postcode" in KINDS:
        return None if postcode_evidence(text, sp, places) else "untyped"
    if sub == "CITY" and "town" in KINDS:
        return None if town_evidence(text, sp, places) else "untyped"
    return None


@lru_cache(maxsize=1)
def _name_words() -> frozenset:
    """The listed first names and surnames, folded."""
    return frozenset(fold(w) for n in ("first_male", "first_female", "surnames", "surnames_rare")
                     for w in gazetteers.entries(n))


def _words(surface: str) -> list[str]:
    """The words of ``surface`` of two letters or more, folded (initials and particles left out)."""
    return [fold(m.group()) for m in names.words(surface) if len(m.group()) > 1
            and fold(m.group()) not in names.PARTICLES]


def person_context(text: str, sp: Span) -> bool:
    """Whether a title, a person's mark (:func:`~crfdeid.deid.confident_note.person_beside`) or a person's label
    (``Patient:``, ``Signed:``, ``cc:``, ``Dear``) stands beside the span on its line."""
    lo = max(0, sp.start - 30)
    return bool(TITLE_BEFORE.search(text, max(0, sp.start - 12), sp.start)
                or person_beside(text, sp, strict="strict" in REFINED) or _PERSON_LABEL.search(text, lo, sp.start)
                or ("other" in REFINED and otherlang.person_before(text, sp.start)))


def name_evidence(text: str, sp: Span, known: frozenset = frozenset()) -> bool:
    """Whether the name span ``sp`` has evidence of a person's name: a person's context beside it
    (:func:`person_context`), a word of it in ``known`` (the names the note's record gives, the note's other names
    with evidence: :func:`evident_names`), a listed name among its words that is no common English word nor
    clinical word (``Grace``, ``Will``, ``Mercy`` say nothing alone), or a listed first name first and a listed
    surname last (``John Smith``)."""
    if "label" in REFINED and _label_first(text[sp.start:sp.end]):
        return False  # Paciente Dorvane Kelix: the span took its label in, a title or label proves nothing of it
    ws = _words(text[sp.start:sp.end])
    listed, clinical, common = _name_words(), lists()[0], english()
    other = otherlang.frequent_name_words() if "other" in REFINED else frozenset()
    if "head" in REFINED and ws and (ws[-1] in lists()[3] or head_after(text, sp.end)):
        listed = frozenset()  # Masako manoeuvre, Allred score: an eponym's, not a person's
    if any(w in known or (w in listed and w not in common and w not in clinical and w not in other) for w in ws):
        return True
    if len(ws) >= 2 and ws[0] in first_names() and ws[-1] in listed:
        return True
    return person_context(text, sp)


def _label_first(surface: str) -> bool:
    """Whether a name of two words or more begins with a title, a person's word or a label of any language
    (``Paciente``, ``Dott.ssa``, ``Nurse``, ``Signed``: :mod:`.otherlang`, the titles, staff roles, relations and
    note labels lists): the tagger took the label in with the name."""
    ws = [fold(m.group()).rstrip(".") for m in names.words(surface)]
    return len(ws) >= 2 and ws[0] in _label_words()


@lru_cache(maxsize=1)
def _label_words() -> frozenset:
    """Titles, person words and labels of every language the lists hold, folded, a final full stop dropped."""
    return otherlang.titles() | otherlang.person_words() | persons_marks() | labels()


def evident_names(text: str, spans: list[Span], known: frozenset = frozenset()) -> frozenset:
    """The words of the note's name spans that have evidence of a name of their own (:func:`name_evidence`): a
    name written once with its title (``Dr Quenby``) is evidence for its other mentions (``Quenby aware``)."""
    return frozenset(w for sp in spans if sp.subtype in PERSON_SUBTYPES and name_evidence(text, sp, known)
                     for w in _words(text[sp.start:sp.end]))


@lru_cache(maxsize=1)
def _heads() -> frozenset:
    """Place-type words (``hospital``, ``clinic``, ``street``, ``road``, ``bay``, ``ltd``; other languages':
    :func:`.otherlang.place_heads`), folded."""
    listed = frozenset(fold(w) for n in _HEADS for e in gazetteers.entries(n) for w in e.split())
    return listed | otherlang.place_heads()


_HEADS = ("hospital_words", "hospital_heads", "organization_words", "organization_heads", "street_types",
          "street_suffixes", "town_heads")
def _compound(word: str) -> bool:
    """Whether ``word`` (folded) is a compound ending in a hospital's type word (``Universitetssjukehus``,
    ``Magánklinika``: :func:`.otherlang.compound_heads`; languages that join words put the head last)."""
    return "compound" in REFINED and len(word) >= 9 and any(
        word.endswith(h) and len(word) - len(h) >= 3 for h in otherlang.compound_heads())


@lru_cache(maxsize=1)
def _place_words() -> frozenset:
    """Place-type words and the words of the place lists' one-word entries, folded (``hospital``, ``street``,
    ``bay``, ``ltd``; ``leeds``, ``ohio``, ``kenya``); the whole entries of several words too."""
    lists = ("cities", "states", "state_abbrevs", "countries", "hospitals", "organizations", "street_names")
    out = set(_heads())
    out |= {fold(e) for n in lists for e in gazetteers.entries(n)}
    out |= {fold(t) for towns in towns_by_country().values() for t in towns}
    return frozenset(out)


def place_evidence(text: str, sp: Span, places: tuple = ()) -> bool:
    """Whether the place span ``sp`` has evidence of a place: its whole text or a word of it in the place lists
    (:func:`_place_words`), a house number before it, or another place of the note's (``places``) or a postcode
    right beside it on its line (an address: ``14 Kelvin Road, Larkfield``)."""
    surface = text[sp.start:sp.end]
    words = _place_words()
    if fold(surface) in words or any(w in words or _compound(w) for w in _words(surface)):
        return True
    if sp.subtype == "STREET" and _NUMBER_BEFORE.search(text, max(0, sp.start - 8), sp.start):
        return True  # 14 Kelvin Road: an address's house number
    if sp.subtype == "STREET" and "street" in REFINED and not (
            _NUMBER_AFTER.match(text, sp.end) or any(c.isdigit() for c in surface)):
        return False  # no type's word, no house number: words beside a town are no street's name for that
    return _beside(text, sp, places)  # Larkfield, Kent; Kelvin Road, Larkfield: parts of one address


def _beside(text: str, sp: Span, places: tuple) -> bool:
    """Whether another of the note's place spans (``places``: ``(start, end)`` or ``(start, end, subtype)``) stands
    right beside ``sp`` on its line: a blank or two, a comma or a dash between (three blanks or more part a table's
    cells or a form's fields, no address's). With subtypes, a neighbour of the span's own type (a hospital beside a
    hospital: a heading's words, a department's) is no other part of its address."""
    return any(not (sub and "same" in REFINED and sub[0] == sp.subtype) for _, _, *sub in _neighbours(text, sp, places))


def _neighbours(text: str, sp: Span, places: tuple) -> list[tuple]:
    """The place spans of ``places`` right beside ``sp`` on its line (:func:`_beside`'s gaps)."""
    out = []
    for a, b, *sub in places:
        if (a, b) == (sp.start, sp.end):
            continue
        gap = text[b:sp.start] if b <= sp.start else text[sp.end:a] if a >= sp.end else None
        if gap is not None and _BESIDE.fullmatch(gap):
            out.append((a, b, *sub))
    return out


def number_evidence(text: str, sp: Span) -> bool:
    """Whether the identifier span ``sp`` has the shape of an identifier: a label before it on its line (``MRN``,
    ``No.``, ``#``), letters and digits in one code (``AB-123456``), or six digits or more."""
    surface = text[sp.start:sp.end]
    line = text.rfind("\n", 0, sp.start) + 1
    if _NUMBER_LABEL.search(text, max(line, sp.start - 30), sp.start):
        return True
    return sum(c.isdigit() for c in surface) >= 6 or bool(_CODE.search(surface))


#: A postcode of digits alone that reads as another number: three digits or fewer (a table's counts), or a year
#: (``Mental Health Act 1983``, ``Bethesda 2014``).
_OTHER_NUMBER = re.compile(r"\d{1,3}|(?:19|20)\d\d")


def postcode_evidence(text: str, sp: Span, places: tuple = ()) -> bool:
    """Whether the postcode span ``sp`` has evidence of a postcode: one of digits alone that reads as another number
    (:data:`_OTHER_NUMBER`: ``71``, ``1983``) needs another place of the note's (``places``) right beside it on its
    line (``Kingston 20``, ``2000 Sydney``); every other postcode shape is one (its own rules judge it)."""
    if "groups" in REFINED and len(_GROUP.findall(text, sp.start, sp.end)) >= 3:
        return False  # 12 345 678: a number grouped by thousands, a row's values; no country's postcode
    if not _OTHER_NUMBER.fullmatch(text, sp.start, sp.end):
        return True
    return _beside(text, sp, places)


def town_evidence(text: str, sp: Span, places: tuple = ()) -> bool:
    """Whether the town span ``sp`` is a town's name as far as the lists tell: a town's name often carries no list
    or type word (measured: docs/deid.md), so only one word that is a common English word or a clinical word, and
    no listed place, is none (``Reception`` before a phone; ``Reading``, a listed town, is one); nor is a town of no
    listed word whose only neighbours on its line (``places``) are postcodes with no evidence of their own
    (``pair``: a table's label before its values, ``Arousals 12 345 678``; ``Larkfield 20`` after a street keeps it)."""
    surface = text[sp.start:sp.end]
    words = _words(surface)
    if fold(surface) in _place_words() or any(w in _place_words() for w in words):
        return True
    beside = _neighbours(text, sp, places) if "pair" in REFINED else []
    if beside and all(sub == ["ZIP"] and not postcode_evidence(text, make_span(a, b, "ZIP"), places)
                      for a, b, *sub in beside):
        return False
    return len(words) != 1 or (words[0] not in english() and words[0] not in lists()[0])
