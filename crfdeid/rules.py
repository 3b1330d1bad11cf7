"""High-precision regex rules for PHI with rigid forms, and their overlay on CRF spans.

The hybrid design of the i2b2 2014 winners: a CRF for everything, plus rules
for forms a regex finds almost without false positives (full dates, phone
numbers, e-mail addresses, URLs, IP addresses, SSNs, a capitalised word after
``Dr.``/``Mr.``/``Mrs.``). :func:`overlay` merges
the two, preferring the CRF's subtype and extending spans to their union, so
the overlay can only add redaction, never remove it.

>>> [(s.start, s.end, s.subtype) for s in find("Call 617-555-0199 on 03/14/2098.")]
[(5, 17, 'PHONE'), (21, 31, 'DATE')]
"""

from __future__ import annotations

import regex

from .document import Span, make_span
from .features.pattern import MONTH

#: Rule name -> (subtype, compiled regex). Order matters: earlier rules win overlaps.
RULES = {
    "ssn": ("SSN", regex.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")),
    "email": ("EMAIL", regex.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?!\w)")),
    "url": ("URL", regex.compile(r"(?<!\S)(?:https?://|www\.)[^\s<>\"]*[^\s<>\".,;:)]", regex.I)),
    "ip": ("IPADDR", regex.compile(
        r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")),
    "phone": ("PHONE", regex.compile(
        r"(?<![\w-])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w-])", regex.I)),
    "date_numeric": ("DATE", regex.compile(
        r"(?<![\w/.-])(?:(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:19|20)?\d\d"
        r"|(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))(?![\w/-])")),
    # A capitalised word right after a title: on the PhysioNet dev notes 190 of
    # 191 "Dr. X" matches and 22 of 24 "Mr./Mrs. X" matches are gold PHI.
    "title_doctor": ("DOCTOR", regex.compile(
        r"(?<=\b(?:[Dd][Rr]|DOCTOR|Doctor)\.?[ \t]{1,2})[A-Z][A-Za-z'-]*[A-Za-z]")),
    "title_person": ("PATIENT", regex.compile(
        r"(?<=\b(?:MRS?|Mrs?|MISS|Miss)\.?[ \t]{1,2})[A-Z][A-Za-z'-]*[A-Za-z]")),
    "date_text": ("DATE", regex.compile(
        rf"(?<!\w){MONTH}\.?\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d(?!\w)", regex.I)),
}


def find(text: str, rules=None) -> list[Span]:
    """Spans the rules find in ``text``, sorted, without overlaps (earlier rules win)."""
    rules = RULES if rules is None else rules
    found: list[Span] = []
    for name, (sub, rx) in rules.items():
        for m in rx.finditer(text):
            sp = make_span(m.start(), m.end(), sub)
            if not any(sp.overlaps(o) for o in found):
                found.append(sp)
    return sorted(found)


def overlay(text: str, spans, rules=None) -> list[Span]:
    """CRF ``spans`` merged with rule spans: overlapping ones joined (CRF subtype kept).

    >>> from crfdeid.document import make_span
    >>> overlay("on 03/14/2098.", [make_span(3, 8, "DATE")])
    [Span(start=3, end=13, category='DATE', subtype='DATE')]
    """
    merged = sorted(spans)
    for rs in find(text, rules):
        hit = [s for s in merged if s.overlaps(rs)]
        if not hit:
            merged.append(rs)
            continue
        keep = hit[0]
        start = min([rs.start] + [s.start for s in hit])
        end = max([rs.end] + [s.end for s in hit])
        merged = [s for s in merged if s not in hit]
        merged.append(Span(start, end, keep.category, keep.subtype))
        merged.sort()
    return sorted(merged)
