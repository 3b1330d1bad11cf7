r"""The tagger's confidence a span of a thin kind needs before it gets a made-up value (issue 58 item 3; branch
``false19``, 2026-11-27; docs/deid.md, "A bar by kind, chosen on older sets and measured on newer ones").

Two kinds of span carry almost no evidence of their type besides the tagger's word, so a made-up value there
rests on the tagger alone; they get a made-up value only when the tagger (the lowest token P(PHI) of the span,
``Span.confidence``) is at least :data:`THIN_SURE`, a placeholder of their type otherwise:

* **a day and month alone** (two numbers, no year, no month's name: ``9/24``, ``3/12``, ``6/8``) in a note that
  writes its dates with a year (:func:`~crfdeid.deid.confident_note.dated_with_years`): such a pair is a score, an
  acuity or a duration as often as a date, and a made-up date there is another clinical value
  (:func:`~crfdeid.deid.confident_note.pair_doubt` asks :data:`~crfdeid.deid.evidence.SURE` of it; this asks more);
* **a name of one word in one case** (``PATIENT`` or ``DOCTOR``, one run of letters, all capitals or all lower
  case: ``MILLARD``, ``kit``): without a capital that sets it apart, nothing in the word says it is a name.

A fixed Safe Harbor form (no confidence) and a rule's span (confidence 1.0) are never held here; the span is still
replaced (recall and the redacted output are unchanged).

The evidence is the tagger's own confidence by kind, measured on every written span, not drawn from single
values: a working script (not in the repository; counts only) tagged the twenty-four development sets in three
casings with the shipped model and listed, for every span written as a made-up value, its confidence, member,
type and kind, and whether it falsified a phrase or stood for a real identifier. No bar on the confidence alone
separates the two (at every bar, 20 or more real identifiers per falsified value mended); by kind, these two do.
The kinds and the one bar were chosen on the twenty-one older sets only (dev .. check13, forms9, falsify13,
falsify14; the bar of the best trade among 0.95 .. 0.9999 at 15 identifiers a value), then measured with
``experiments made-up`` on the three newest (check14, check15, check16): falsified 52 -> 44 over three casings
(15 -> 14 as written), none new, at 32 more real identifiers as placeholders (older sets 63 -> 45 at 128; the
twenty-four 115 -> 89 at 160, identifiers left and the redacted output unchanged).

>>> from crfdeid.document import make_span
>>> text = "Clinic 14/03/2025. Pain 3/10 at rest. Seen by dr okafor."
>>> thin_doubt(text, make_span(24, 28, "DATE"), 0.97), thin_doubt(text, make_span(24, 28, "DATE"), 0.995)
('thin', None)
>>> thin_doubt(text, make_span(49, 55, "DOCTOR"), 0.97), thin_doubt(text, make_span(49, 55, "DOCTOR"), 1.0)
('thin', None)
"""

from __future__ import annotations

import re

from ..document import Span
from ..schema import PERSON_SUBTYPES
from .confident_note import lone_day_month

#: The tagger's confidence a thin kind needs (chosen on the older development sets: see the module docstring).
THIN_SURE = 0.99
_LETTERS = re.compile(r"[^\W\d_]+")


def one_case_word(surface: str) -> bool:
    """Whether ``surface`` is one run of letters, all capitals or all lower case (no capital sets it apart).

    >>> one_case_word("MILLARD"), one_case_word("kit"), one_case_word("Millard"), one_case_word("ann lee")
    (True, True, False, False)
    """
    words = _LETTERS.findall(surface)
    return len(words) == 1 and (words[0].isupper() or words[0].islower())


def thin_doubt(text: str, sp: Span, confidence: float | None) -> str | None:
    """``thin`` when ``sp`` is of a thin kind (a day and month alone in a note dated with years, a name of one word
    in one case) and the tagger is less than :data:`THIN_SURE` of it, else None (module docstring)."""
    if confidence is None or confidence >= THIN_SURE:
        return None
    surface = text[sp.start:sp.end]
    if sp.subtype == "DATE" and lone_day_month(text, sp):
        return "thin"
    if sp.subtype in PERSON_SUBTYPES and one_case_word(surface):
        return "thin"
    return None
