r"""Spans whose surrogate would state a clinical fact: numbers next to scales, units, doses, vitals.

A tagger's false positive costs a word in redacted output; in surrogate output it
states something false (``Glasgow Coma Scale 15`` -> ``18``, ``BP 120/80`` ->
``BP 457/23``). A span whose text is a number or a code (digits, separators, at
most a unit glued to it) right after a clinical scale, a vital sign or a lab name,
or right before a unit or dose, gets a placeholder instead of a surrogate.

>>> text = "Glasgow Coma Scale 15, BP 120/80, Lasix 40 mg, seen 3/14."
>>> [clinical_value(text, m.start(), m.end()) for m in __import__("re").finditer(r"\d[\d/]*", text)]
[True, True, True, False]
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"[<>~]?\d+(?:[.,/:-]\d+)*\s*(?P<unit>[A-Za-z%/°µ]{1,6})?")
_SCALES = (r"GCS|Glasgow(?:\s+Coma)?(?:\s+Scale)?|APGARS?|NIHSS|MMSE|MoCA|pain(?:\s+(?:score|scale|level))?"
           r"|CIWA(?:-Ar)?|COWS|RASS|Braden|Morse|Wells|CHADS2?|CHA2DS2-?VASc|HAS-?BLED|MELD|Child-?Pugh"
           r"|APACHE(?:\s+II)?|SOFA|ASA(?:\s+class)?|NYHA(?:\s+class)?|ECOG|Karnofsky|KPS|TIMI|GRACE|Ranson"
           r"|Mallampati|BMI|EF|LVEF|BP|blood\s+pressure|SBP|DBP|MAP|HR|heart\s+rate|pulse|RR"
           r"|resp(?:iratory)?\s+rate|Tmax|Tcurrent|temp(?:erature)?|SpO2|SaO2|O2\s*sat(?:uration)?s?|sats?"
           r"|FiO2|PEEP|weight|wt|height|ht|glucose|FSBG|FS|INR|PTT|Hgb|Hb|Hct|WBC|Plt|platelets|Na|K|Cl"
           r"|HCO3|BUN|Cr|creatinine|lactate|troponin|Trop|BNP|A1c|HbA1c|LDL|HDL|TSH|score|scale|grade"
           r"|stage|class|level|dose")
_BEFORE = re.compile(rf"(?i)(?<![A-Za-z])(?:{_SCALES})\s*(?:of|was|is|were|=|:|-|~)?\s*(?:\d+\s*/\s*)?$")
_UNITS = (r"%|mg|mcg|µg|ug|g|gm|kg|lbs?|oz|mL|ml|cc|units?|IU|mEq|meq|mmol|mmHg|mm|cm|bpm|beats|breaths"
          r"|/min|/hr|/h|/day|/d|mg/dL|g/dL|mg/kg|tabs?|tablets?|caps?|capsules?|puffs?|drops?|gtts|sprays?"
          r"|ng|pg|°|degrees?|L/min|lpm")
_AFTER = re.compile(rf"(?i)^\s*(?:{_UNITS})(?![A-Za-z])")
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
    line = max(text.rfind("\n", 0, start) + 1, start - 40)
    eol = text.find("\n", end)
    return (_BEFORE.search(text[line:start]) is not None
            or _AFTER.match(text[end:min(end + 20, len(text) if eol < 0 else eol)]) is not None)
