r"""Spans whose surrogate would state a clinical fact: numbers next to scales, units, doses,
vitals, and spans of clinical vocabulary.

A tagger's false positive costs a word in redacted output; in surrogate output it
states something false (``Glasgow Coma Scale 15`` -> ``18``, ``BP 120/80`` ->
``BP 457/23``). A span whose text is a number or a code (digits, separators, at
most a unit glued to it) right after a clinical scale, a vital sign or a lab name,
or right before a unit or dose, gets a placeholder instead of a surrogate.

>>> text = "Glasgow Coma Scale 15, BP 120/80, Lasix 40 mg, seen 3/14."
>>> [clinical_value(text, m.start(), m.end()) for m in __import__("re").finditer(r"\d[\d/]*", text)]
[True, True, True, False]

A span whose words are all clinical vocabulary (an eponym, a brand, a department, a clinical
abbreviation: :data:`VOCABULARY`) is a tagger's likely false positive; its surrogate would put an
invented name inside clinical text (``Psychiatry consult`` -> ``Nevels consult``), so it gets a
placeholder too (:func:`clinical_term`; safe either way: a placeholder holds nothing of the original).

A DATE span that the clinical-value rules read as a value (:func:`clinical_date`: a grade ``weak 4/5``, a
UK duration ``for 3/7``, a score, a clock time...: :func:`crfdeid.recognizers.values.why_value`) gets a
placeholder too, wherever the span came from (a user's annotation, a rule after the clinical filter): a
shifted date would be another grade or duration, and a placeholder is no date either. The rules take no
gold date of the PhysioNet development notes (docs/clinical-values.md), so a real date is still shifted.

>>> [clinical_date(t, t.index("/") - 1, t.index(" ", t.index("/"))) for t in ("weak 4/5 RUE", "seen 1/4 ",
...     "for 3/7 now", "seen 3/12 ")]
[True, False, True, False]

>>> text = "Holter monitor placed; Medtronic Azure XT; seen by Dr. Quackenbush; Bruce protocol"
>>> [clinical_term(text, a, b) for a, b in [(0, 6), (23, 41), (55, 66), (68, 73)]]
[True, True, False, True]
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import gazetteers
from ..document import line_bounds, make_span
from ..recognizers import values
from ..recognizers.clinical import entry_run

#: A number: digits with separators, or thousands grouped by a blank (``100 000``, as French and other languages
#: write them), a unit maybe glued to it.
_NUMBER = re.compile(r"[<>~]?(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+(?:[.,/:-]\d+)*)\s*(?P<unit>[A-Za-z%/°µ]{1,6})?")
_SCALES = (r"GCS|Glasgow(?:\s+Coma)?(?:\s+Scale)?|APGARS?|NIHSS|MMSE|MoCA|pain(?:\s+(?:score|scale|level))?"
           r"|CIWA(?:-Ar)?|COWS|RASS|Braden|Morse|Wells|CHADS2?|CHA2DS2-?VASc|HAS-?BLED|MELD|Child-?Pugh"
           r"|APACHE(?:\s+II)?|SOFA|ASA(?:\s+class)?|NYHA(?:\s+class)?|ECOG|Karnofsky|KPS|TIMI|GRACE|Ranson"
           r"|Mallampati|BMI|EF|LVEF|BP|blood\s+pressure|SBP|DBP|MAP|HR|heart\s+rate|pulse|RR"
           r"|resp(?:iratory)?\s+rate|Tmax|Tcurrent|temp(?:erature)?|SpO2|SaO2|O2\s*sat(?:uration)?s?|sats?"
           r"|FiO2|PEEP|weight|wt|height|ht|glucose|FSBG|FS|INR|PTT|Hgb|Hb|Hct|WBC|Plt|platelets|Na|K|Cl"
           r"|HCO3|BUN|Cr|creatinine|lactate|troponin|Trop|BNP|A1c|HbA1c|LDL|HDL|TSH|score|scale|grade"
           r"|stage|class|level|dose")
_BEFORE = re.compile(rf"(?i)(?<![A-Za-z])(?:{_SCALES})\s*(?:of|was|is|were|=|:|-|~)?\s*(?:\d+\s*/\s*)?$")
_UNITS = (r"%|mg|mcg|µg|ug|g|gm|kg|lbs?|oz|mL|ml|cc|units?|IU|UI|mEq|meq|mmol|mmHg|mm|cm|bpm|beats|breaths"
          r"|/min|/hr|/h|/day|/d|mg/dL|g/dL|mg/kg|tabs?|tablets?|caps?|capsules?|puffs?|drops?|gtts|sprays?"
          r"|ng|pg|°|degrees?|L/min|lpm")
_AFTER = re.compile(rf"(?i)^\s*(?:{_UNITS})(?![A-Za-z])")
#: A number of thousands grouped by blanks (``100 000``) and the unit right after it, a blank or two between: grouped
#: digits are also a phone's or an identifier's (``091 555 742``), whose next cell may be a label (``   Unit:``).
_GROUPED = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+")
_AFTER_NEAR = re.compile(rf"(?i)^[ \t\u00a0\u202f]{{0,2}}(?:{_UNITS})(?![A-Za-z])")
_UNIT = re.compile(rf"(?i)(?:{_UNITS})")


def clinical_value(text: str, start: int, end: int) -> bool:
    """Whether the span ``[start, end)`` of ``text`` is a number or code that reads as a clinical
    value: after a scale, vital sign or lab name, or before (or holding) a unit or dose."""
    m = _NUMBER.fullmatch(text, start, end)
    if m is None:
        return False
    unit = m.group("unit")
    if unit is not None:
        return _UNIT.fullmatch(unit) is not None
    line, eol = line_bounds(text, start, end)
    after = _AFTER_NEAR if _GROUPED.fullmatch(text, start, end) else _AFTER
    return (_BEFORE.search(text[max(line, start - 40):start]) is not None
            or after.match(text[end:min(end + 20, eol)]) is not None)


#: The reasons of :func:`crfdeid.recognizers.values.why_value` that read a number as a clinical value.
VALUE_REASONS = frozenset({"score", "grade", "setting", "vital", "time", "age", "duration", "code", "dose number"})


# Days and weeks as UK notes write them (``SOB 3/7``, ``review 2/52``): ``n/7`` with ``n`` 1 to 6, ``n/52``.
_UK_DURATION = re.compile(r"[1-6]/7|[1-9]/52|[1-4][0-9]/52|5[01]/52")


def clinical_date(text: str, start: int, end: int) -> bool:
    """Whether the DATE span ``[start, end)`` of ``text`` reads as a clinical value by the clinical-value
    rules (:data:`VALUE_REASONS`: a grade, a score, a duration, a clock time...), or is written as UK notes
    write days and weeks (``3/7``, ``2/52``) with no context either way: as a date it would be shifted to
    another duration, so it gets a placeholder (a real ``3/7``, 3 July or March 7, loses its shift, not its
    protection)."""
    if _UK_DURATION.fullmatch(text, start, end):
        return True
    return values.why_value(text, make_span(start, end, "DATE")) in VALUE_REASONS


#: The public lists of clinical vocabulary (docs/gazetteers.md): a span of their entries only gets
#: a placeholder in surrogate output.
VOCABULARY = ("clinical_words", "eponyms", "brand_names", "departments", "clinical_abbrevs", "drug_names",
              "icd10_words")
_NAMES = ("first_male", "first_female", "surnames")
_COMMON_NAMES = 2000  # the most frequent of each name list: a rarer name that is an entry is the entry
_HEAD_AFTER = re.compile(r"(?:'s)?\s+([A-Za-z]+)")
_HYPHENED_BEFORE = re.compile(r"[A-Za-z0-9]+$")
_HYPHENED_AFTER = re.compile(r"[A-Za-z0-9]+")


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset, frozenset, frozenset]:
    """The lists' entries (lower case), those that are also a listed name, and the clinical heads."""
    entries = frozenset(e for name in VOCABULARY for e in gazetteers.load(name))
    names = frozenset(w.lower() for name in _NAMES for w in gazetteers.entries(name)[:_COMMON_NAMES])
    return entries, entries & names, gazetteers.load("clinical_heads")


def clinical_term(text: str, start: int, end: int) -> bool:
    """Whether the span ``[start, end)`` of ``text`` is clinical vocabulary: a run of entries of
    the :data:`VOCABULARY` lists (``Medtronic`` + ``Azure XT``). An entry that is also a listed
    first name or one of the 2,000 most frequent surnames (``Bruce``, ``Miller``) counts only
    before a clinical head noun (``Bruce protocol``, the ``clinical_heads`` list), as the
    clinical-term filter reads eponyms."""
    entries, names, heads = _vocabulary()
    # a part of a hyphenated term is judged as the whole ("Wolff" of "Wolff-Parkinson-White")
    while start > 1 and text[start - 1] == "-" and (
            before := _HYPHENED_BEFORE.search(text, max(0, start - 65), start - 1)):
        start = before.start()
    while end + 1 < len(text) and text[end] == "-" and (after := _HYPHENED_AFTER.match(text, end + 1)):
        end = after.end()
    words = text[start:end].lower().strip(".,;:").split()
    if not words:
        return False
    if any(w in names for w in words):
        m = _HEAD_AFTER.match(text, end)
        if m is None or m.group(1).lower() not in heads:
            return False
    return entry_run(words, entries)
