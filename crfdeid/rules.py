"""High-precision regex rules for PHI with rigid forms, and their overlay on CRF spans.

The hybrid design of the i2b2 2014 winners: a CRF for everything, plus rules
for forms a regex finds almost without false positives (full dates, phone
numbers, e-mail addresses, URLs, IP addresses, SSNs, a capitalised word after
``Dr.``/``Mr.``/``Mrs.``). :func:`overlay` merges
the two, preferring the CRF's subtype and extending spans to their union, then
adds the initials and coordinated names next to name spans
(:func:`extend_names`), so the overlay can only add redaction, never remove it.

>>> [(s.start, s.end, s.subtype) for s in find("Call 617-555-0199 on 03/14/2098.")]
[(5, 17, 'PHONE'), (21, 31, 'DATE')]
"""

from __future__ import annotations

from functools import lru_cache

import regex

from .document import Span, make_span
from .features.pattern import MONTH, ascii_lower, cannot_match

#: Rule name -> (subtype, compiled regex). Order matters: earlier rules win overlaps.
RULES = {
    "ssn": ("SSN", regex.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")),
    "email": ("EMAIL", regex.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?!\w)")),
    "url": ("URL", regex.compile(r"(?<!\S)(?:https?://|www\.)[^\s<>\"]*[^\s<>\".,;:)]", regex.I)),
    "ip": ("IPADDR", regex.compile(
        r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")),
    "phone": ("PHONE", regex.compile(
        r"(?<![\w/-])(?:\(\d{3}\)\s?|\d{3}([-./]))\d{3}(?(1)\1|[-.])\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w/-])",
        regex.I)),
    # A pager number is a phone number in clinical notes ("Pager #54321").
    "pager": ("PHONE", regex.compile(r"(?<=\b(?:[Pp]ager|PAGER|[Bb]eeper|BEEPER)[ \t]*[:#]?[ \t]*#?)\d{3,7}(?!\w)")),
    # The look-ahead changes no match: it lets the regex module skip to digits (7x faster).
    "date_numeric": ("DATE", regex.compile(
        r"(?=\d)(?<![\w/.-])(?:(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:19|20)?\d\d"
        r"|(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))(?![\w/%-])")),
    # A capitalised word right after a title: on the PhysioNet dev notes 190 of
    # 191 "Dr. X" matches and 22 of 24 "Mr./Mrs. X" matches are gold PHI.
    "title_doctor": ("DOCTOR", regex.compile(
        r"(?<=\b(?:[Dd][Rr][Ss]?|DOCTOR|Doctor)\.?[ \t]{1,2})[A-Z][A-Za-z'-]*[A-Za-z]")),
    "title_person": ("PATIENT", regex.compile(
        r"(?<=\b(?:MRS?|Mrs?|MISS|Miss)\.?[ \t]{1,2})[A-Z][A-Za-z'-]*[A-Za-z]")),
    # Lower-case notes write "mr nicholson": kept only when the word is not a plain word.
    "title_lower": ("PATIENT", regex.compile(r"(?<=\b(?:mrs?|miss)\.?[ \t]{1,2})[a-z][a-z'-]*[a-z]")),
    "date_text": ("DATE", regex.compile(
        rf"(?<!\w){MONTH}\.?\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d(?!\w)", regex.I)),
    # Month name and day without a year ("July 2nd"); "May" is left out (the verb).
    "date_month_day": ("DATE", regex.compile(
        r"(?<!\w)(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|June?|July?|Aug(?:ust)?"
        r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?[ \t]+(?:0?[1-9]|[12]\d|3[01])"
        r"(?:st|nd|rd|th)?(?![\w/:.-]\d)(?!\w)", regex.I)),
}


#: Lower-cased literals of which every match of a rule holds one (an ASCII text
#: without any is not scanned; see :func:`crfdeid.features.pattern.cannot_match`).
NEEDS = {
    "email": ("@",), "url": ("://", "www."), "pager": ("pager", "beeper"),
    "title_doctor": ("dr", "doctor"), "title_person": ("mr", "miss"), "title_lower": ("mr", "miss"),
    "date_text": ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    "date_month_day": ("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
}


@lru_cache(maxsize=1)
def _plain_words() -> frozenset:
    from . import gazetteers
    return gazetteers.load("common_words") | gazetteers.load("clinical_words")


@lru_cache(maxsize=1)
def _name_words() -> tuple[frozenset, frozenset]:
    from . import gazetteers
    plain = _plain_words()
    first = (gazetteers.load("first_male") | gazetteers.load("first_female")) - plain
    last = (gazetteers.load("surnames") | gazetteers.load("surnames_rare")) - plain
    return first, last


#: Rules whose matches must also not be a common or clinical word.
NOT_PLAIN = frozenset({"title_lower"})


def find(text: str, rules=None) -> list[Span]:
    """Spans the rules find in ``text``, sorted, without overlaps (earlier rules win)."""
    default = rules is None
    rules = RULES if default else rules
    low = ascii_lower(text) if default else None
    found: list[Span] = []
    for name, (sub, rx) in rules.items():
        if cannot_match(NEEDS.get(name), low):
            continue
        plain = _plain_words() if name in NOT_PLAIN else ()
        found = _merge_disjoint(found, [make_span(m.start(), m.end(), sub) for m in rx.finditer(text)
                                        if not plain or m.group().lower() not in plain])
    return found


def _merge_disjoint(base: list, extra: list) -> list:
    """``base`` plus each span of ``extra`` that overlaps no span kept so far (both sorted and
    disjoint; one linear pass, so a note with a million matches stays linear)."""
    out: list[Span] = []
    i, n = 0, len(base)
    for sp in extra:
        while i < n and base[i].start < sp.start:
            out.append(base[i])
            i += 1
        if (out and out[-1].end > sp.start) or (i < n and base[i].start < sp.end):
            continue
        out.append(sp)
    out.extend(base[i:])
    return out


_NAMES = frozenset({"PATIENT", "DOCTOR", "USERNAME"})
# A lone letter (and its full stop) right before a name: the "B." of "B. Kargas".
_INITIAL_BEFORE = regex.compile(r"(?<![\w.'-])[A-Za-z](?=\.?[ \t]{1,2}$)")
# A capitalised word joined to a name by "and"/"&": "Drs Ferullo and Saeed".
# Then a surname right after a name, a first name right before one ("Patricia WAITE").
_COORD_AFTER = regex.compile(r"[ \t]+(?:and|AND|&)[ \t]+([A-Z][A-Za-z'-]*[A-Za-z])(?![\w'-])")
_COORD_BEFORE = regex.compile(r"(?<![\w'-])([A-Z][A-Za-z'-]*[A-Za-z])[ \t]+(?:and|AND|&)[ \t]+$")
_NEXT_WORD = regex.compile(r"[ \t]([A-Z][A-Za-z'-]*[A-Za-z])(?![\w'-])")
_PREV_WORD = regex.compile(r"(?<![\w'-])([A-Z][A-Za-z'-]*[A-Za-z])[ \t]$")


def extend_names(text: str, spans) -> list[Span]:
    """Name spans plus the initials, coordinated names and name parts next to them.

    The CRF finds ``Kargas`` in ``B. Kargas`` but often not the lone ``B``, one
    name of ``Drs Ferullo and Saeed``, or one part of ``Patricia WAITE``; these
    are added with the neighbour's subtype: a lone letter before a name, a
    capitalised word joined by ``and``/``&`` unless it is a common or clinical
    word, a census surname right after a name and a census first name right
    before one (neither a common or clinical word). Spans that would overlap
    one already there are not added.

    >>> from crfdeid.document import make_span
    >>> [(s.start, s.end) for s in extend_names("per B. Kargas", [make_span(7, 13, "DOCTOR")])]
    [(4, 5), (7, 13)]
    """
    found = []
    first, last = _name_words()
    for sp in spans:
        if sp.subtype not in _NAMES:
            continue
        m = _INITIAL_BEFORE.search(text, max(0, sp.start - 4), sp.start)
        if m:
            found.append(make_span(m.start(), m.end(), sp.subtype))
        for m, ok in ((_COORD_AFTER.match(text, sp.end, sp.end + 40), None),
                      (_COORD_BEFORE.search(text, max(0, sp.start - 40), sp.start), None),
                      (_NEXT_WORD.match(text, sp.end, sp.end + 40), last),
                      (_PREV_WORD.search(text, max(0, sp.start - 40), sp.start), first)):
            if m and (m.group(1).lower() in ok if ok is not None
                      else m.group(1).lower() not in _plain_words()):
                found.append(make_span(m.start(1), m.end(1), sp.subtype))
    return _merge_disjoint(sorted(spans), sorted(set(found)))


def overlay(text: str, spans, rules=None) -> list[Span]:
    """CRF ``spans`` merged with rule spans: overlapping ones joined (CRF subtype kept).

    >>> from crfdeid.document import make_span
    >>> overlay("on 03/14/2098.", [make_span(3, 8, "DATE")])
    [Span(start=3, end=13, category='DATE', subtype='DATE')]
    """
    # One sweep in start order: a rule span joins every span it overlaps, a CRF
    # span joins the group only through a rule span it overlaps.
    merged: list[Span] = []
    group: list = []  # [start, end, rule_end, first CRF span or None, the rule span]

    def close():
        if group:
            start, end, _, keep, rule = group
            keep = keep or rule
            merged.append(Span(start, end, keep.category, keep.subtype))

    tagged = sorted([(sp, False) for sp in spans] + [(sp, True) for sp in find(text, rules)])
    for sp, is_rule in tagged:
        if group and sp.start < (group[1] if is_rule else group[2]):
            group[1] = max(group[1], sp.end)
            if is_rule:
                group[2] = max(group[2], sp.end)
                group[4] = group[4] or sp
            elif group[3] is None:
                group[3] = sp
            continue
        close()
        group = [sp.start, sp.end, sp.end if is_rule else -1, None if is_rule else sp,
                 sp if is_rule else None]
    close()
    return extend_names(text, merged)
