"""Phone numbers by phonenumbers (Google's libphonenumber), and the country a note is from.

Part of the Safe Harbor layer (:mod:`.safeharbor` runs :func:`matches` in every model).
The regexes of :mod:`.safeharbor` and :mod:`.fixedforms` find the US shapes, numbers with a
``+`` and a country code, and trunk numbers in groups; here ``phonenumbers.PhoneNumberMatcher``
finds the numbers of the note's own country written in its national format (``0412 345 678``
in an Australian note, ``022 2345 6789`` in an Indian one) at leniency ``VALID``: a number
the metadata of that country holds as a real, assigned range, in a shape the library accepts
(it refuses dates and times), written as digits in groups split by spaces, hyphens or dots
with no ``/`` or ``:`` in or beside it (``123/46/7.39`` is a blood gas whose digits pass).
Evidence for a span: that validity and that shape. A number ``phonenumbers``
only finds ``POSSIBLE`` (length alone) is not taken: lab values and counts have lengths;
but right after a phone cue (``call back``, ``Telefon``, ``whatsapp``, ``T:``) or before
``(home)`` a number in a phone's groups is taken whatever country's numbering it follows
(:func:`cued`).

The note's country (:func:`country_of`), used for the matcher's region and for surrogates of
the same shape (:mod:`crfdeid.deid.country`), is decided from its forms, most telling first:

1. the country codes of its ``+`` numbers (``+44 20 7946 0958``: GB);
2. its postal codes (an Eircode: IE; a Canadian code: CA; ``NSW 2150``: AU; a PIN after an
   Indian state: IN; an upper-case UK postcode: GB);
3. its spelling and services, two of them at least (``colour``, ``haemoglobin``, ``oedema``,
   ``paediatric``, ``GP``; ``NHS`` or ``A&E`` count twice): GB. A national number's check
   digit (an NHS number's mod 11) tells no country: a US phone number passes it one time in 11;
4. else ``US`` (the shipped model's notes, and the HIPAA default).

>>> country_of("Mobile +44 7700 900123"), country_of("Lives in Sydney", ["postal_au"]), country_of("BP 120/80")
('GB', 'AU', 'US')
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter

from ..document import Span, make_span
from ..text.patterns import LazyModule
from .ruledata import table

_R = table("phones").namespace()  # the patterns and words (crfdeid/_data/rules/phones.tsv)

# imported on a note's first candidate number: its import cost every start-up 0.02 CPU-s (issue 53)
phonenumbers = LazyModule("phonenumbers")

#: The postal-code forms of :mod:`.contextforms` and :mod:`.fixedforms` -> the country they tell.
POSTAL_COUNTRY = table("phones").mapping("POSTAL_COUNTRY")


def country_of(text: str, forms=()) -> str:
    """The ISO 3166 code of the country whose forms ``text`` holds (rules: module docstring).

    ``forms`` are the names of the Safe Harbor forms found in it (:func:`.safeharbor.matches`,
    or :func:`.safeharbor.country`, which finds them).
    """
    votes = country_votes(text, forms)
    if not votes:
        return "US"
    return max(sorted(votes), key=lambda r: votes[r])


def country_votes(text: str, forms=()) -> Counter:
    """The votes of :func:`country_of` by country (none: nothing in ``text`` tells its country)."""
    votes: Counter = Counter()
    for m in _R.PLUS.finditer(text):
        try:
            number = phonenumbers.parse(m.group(), None)
        except phonenumbers.NumberParseException:
            continue
        region = phonenumbers.region_code_for_number(number) or phonenumbers.region_code_for_country_code(
            number.country_code or 0)
        if region and phonenumbers.is_possible_number(number) and region not in ("ZZ", "001"):
            votes[region] += 3
    for name in forms:
        if name in POSTAL_COUNTRY:
            votes[POSTAL_COUNTRY[name]] += 2
    low = text.lower()
    marks = set(_R.BRITISH.findall(text))
    british = sum(w in low for w in _R.BRITISH_WORDS) + 2 * len(marks - {"GP"}) + ("GP" in marks)
    if british >= 2:  # one spelling alone is a typist's habit ("colour" in a US note)
        votes["GB"] += 1
    return votes


def possible_international(value: str) -> bool:
    """Whether ``+`` and digits may be a number of its country code (phonenumbers' lengths: not
    too short, not a local number alone);
    a country code phonenumbers does not know keeps the shape's own test (8 to 15 digits)."""
    try:
        number = phonenumbers.parse(value.replace("(0)", ""), None)
    except phonenumbers.NumberParseException:
        return 8 <= sum(c.isdigit() for c in value.replace("(0)", "")) <= 15
    why = phonenumbers.is_possible_number_with_reason(number)
    # a number too long for its country is kept (fail closed: a typo, or digits run on)
    result = phonenumbers.ValidationResult
    return why not in (result.TOO_SHORT, result.IS_POSSIBLE_LOCAL_ONLY)


def known_country_code(value: str) -> bool:
    """Whether ``+`` and digits start with a country code phonenumbers knows."""
    try:
        number = phonenumbers.parse(value, None)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.region_code_for_country_code(number.country_code or 0) != "ZZ"


def _inside(known):
    """A test ``inside(start, end)``: does a span of ``known`` cover ``[start, end)``? A bisection
    over the spans' starts and the running largest end (a long note has thousands of spans: the
    scan of every span for every digit run was quadratic)."""
    pairs = sorted((sp.start, sp.end) for sp in known)
    starts = [a for a, _ in pairs]
    reach = list(itertools.accumulate((b for _, b in pairs), max))

    def inside(start: int, end: int) -> bool:
        i = bisect.bisect_right(starts, start)
        return i > 0 and reach[i - 1] >= end
    return inside


def matches(text: str, region: str, known=()) -> list[tuple[str, Span]]:
    """``("phone_national", span)`` of every number ``PhoneNumberMatcher`` finds ``VALID`` for the
    note's country ``region`` (:func:`country_of`). The matcher reads only the runs of digits
    that no span of ``known`` (found by another form) covers, with two characters either side."""
    found = []
    covered = _inside(known)
    for run in _R.CANDIDATE.finditer(text):
        if covered(run.start(), run.end()):
            continue
        lo = max(0, run.start() - 2)
        window = text[lo:run.end() + 2]
        for m in phonenumbers.PhoneNumberMatcher(window, region, leniency=phonenumbers.Leniency.VALID):
            start, end = lo + m.start, lo + m.end
            if text[start] == "(" and ")" not in text[start:end]:
                start += 1  # "(508-555-0172)": the bracket of the phrase, not of the area code
            if not _R.SHAPE.fullmatch(m.raw_string) or _R.SLASH_NEAR.search(text, max(0, start - 1), end + 1):
                continue  # a blood gas or a ratio (123/46/7.39) in a valid range: no phone's shape
            sub = "FAX" if _R.FAX_BEFORE.search(text[max(0, start - 24):start]) else "PHONE"
            found.append(("phone_national", make_span(start, end, sub)))
    return found


def cued(text: str, known=()) -> list[tuple[str, Span]]:
    """``("phone_cued", span)`` of a number of 7 to 15 digits in a phone's groups right after a
    phone cue (:data:`_CUE`: ``call back``, ``reach her at``, ``Telefon``, ``whatsapp``...) and
    of a second one after ``or``; after ``T:``, ``M:`` or ``F:`` starting a line (8 digits at
    least, no dot); or before ``(home)``, ``(work)``, ``(mobile)``. Evidence: the cue and the
    shape, whatever country's numbering the digits follow (fail closed: phonenumbers does not
    know every country's ranges, and a number typed wrong is still a person's). A run that holds
    a date (``13-09-2073 04.36``) is a date and a time, the date forms'. A number that a span
    of ``known`` (found by another form) covers is not given again."""
    found: list[tuple[str, Span]] = []
    covered = _inside(known)

    def add(start: int, end: int, sub: str) -> None:
        if not covered(start, end):
            found.append(("phone_cued", make_span(start, end, sub)))

    for m in _R.CUE.finditer(text):
        pos, sub = m.end(), "FAX" if m.group().lower().startswith("fax") else "PHONE"
        for _ in range(2):
            span = _number_at(text, pos, 7)
            if span is None:
                break
            add(*span, sub)
            more = _R.OR.match(text, span[1])
            if more is None:
                break
            pos = more.end()
    for m in _R.LINE_CUE.finditer(text):
        span = _number_at(text, m.end(), 8)
        if span is not None and "." not in text[span[0]:span[1]]:
            add(*span, "FAX" if m.group("l") in "Ff" else "PHONE")
    for run in _R.RUN.finditer(text):
        if _R.AFTER_RUN.match(text, run.end()) and _number_at(text, run.start(), 7) == (run.start(), run.end()):
            add(run.start(), run.end(), "PHONE")
    return found


def _number_at(text: str, pos: int, least: int) -> tuple[int, int] | None:
    """The phone-shaped run of ``least`` to 15 digits that starts at ``pos``, if one does."""
    run = _R.RUN.match(text, pos)
    if run is None:
        return None
    start, end = run.start(), run.end()
    while end > start and text[end - 1] in " .-(":
        end -= 1
    if text[end - 1] == ")" and "(" not in text[start:end]:
        end -= 1
    if text[start] == "(" and text.find(")", start, end) in (-1, end - 1):
        start, end = start + 1, end - (text[end - 1] == ")")  # "by phone (508-555-0172)": the phrase's bracket
    value = text[start:end]
    if _R.DATE_IN.search(value):
        return None  # "called 13-09-2073 04.36": a date and a time
    digits = sum(c.isdigit() for c in value)
    if not least <= digits <= 15 or not _R.SHAPE.fullmatch(value) or _R.SLASH_NEAR.search(text, max(0, start - 1),
                                                                                       end + 1):
        return None
    if _R.UNIT_AFTER.match(text, end) or (end < len(text) and (text[end].isalnum())):
        return None
    return start, end
