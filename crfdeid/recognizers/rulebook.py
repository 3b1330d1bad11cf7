"""The rule table of the rule overlay (:mod:`.rules`): one regex per rigid form of PHI.

:data:`RULES` maps a rule's name to its subtype and regex (compiled on first use);
:data:`NEEDS` and :data:`KEYWORDS` say which literals and key words a note must hold for
a rule to be tried (:func:`crfdeid.recognizers.rules.find` reads them).
"""

from __future__ import annotations

import regex

from ..document import Span
from ..features.surface import MONTH
from ..text.patterns import LazyPattern


def _lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``regex.compile(pattern, flags)`` on first use: a note runs only the rules whose
    literals and key words it holds (:func:`find`), so most start-ups need few of them."""
    return LazyPattern(regex.compile, pattern, flags)


# A capitalised word and a lower-case one (two letters or more).
_CAP = r"[A-Z][A-Za-z'-]*[A-Za-z]"
_LOWER = r"[a-z][a-z'-]*[a-z]"


def _after(prefix: str, word: str, flags: int = 0):
    """A regex for ``word`` right after ``prefix``: the ``phi`` group is what the rule marks.

    Matching the prefix forwards is several times faster than a look-behind tried at
    every position of the note.
    """
    return _lazy(rf"{prefix}(?P<phi>{word})", flags)


# An address unit and its number ("Suite 210", "Ste. 4", "Apt #4B", "APARTMENT 12").
_UNIT = r"(?:Suite|SUITE|Ste|STE|Apt|APT|Apartment|APARTMENT)\.?[ \t]*#?[ \t]*\d{1,5}[A-Za-z]?(?![\w-])"

# What cannot follow a year: more of a number (not a full stop ending a sentence), a unit.
_NOT_A_YEAR = (r"[\w/%:'-]|\.\d|[ \t]*(?i:mg|mcg|cc|ml|%|mm|cm|min|hr|hour|day|yr|y/o|year|units?|meq|kcal"
               r"|x\b|/)")

#: Rule name -> (subtype, regex: compiled on first use). Order matters: earlier rules win overlaps.
RULES = {
    # A US phone number written with its separators ("617-555-0199", "(617) 555-0199 x12").
    "phone": ("PHONE", _lazy(
        r"(?<![\w/-])(?:\(\d{3}\)\s?|\d{3}([-./]))\d{3}(?(1)\1|[-.])\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w/-])",
        regex.I)),
    # A capitalised word right after Mr, Mrs or Miss: a patient's (or a relative's) name.
    "title_person": ("PATIENT", _after(r"\b(?:MRS?|Mrs?|MISS|Miss)\.?[ \t]{1,2}", _CAP)),
    # A signature line: a name, then a credential at the end of the line ("Dan A. Forman, RRT").
    "signature": ("DOCTOR", _lazy(
        r"(?m)^[ \t]*(?P<phi>[A-Z][A-Za-z'-]+(?:[ \t]+[A-Z]\.?)?(?:[ \t]+[A-Z][A-Za-z'-]+)?)"
        r"(?=(?:,[ \t]*|[ \t]+)(?:RN|R\.N\.|RRT|MD|NP|SN|LPN|BSN|CCRN|PA-C)\b[ \t,./A-Z]*$)")),
    # An initial and a capitalised word after a space, "(" or "-": "per B. Varga", "GIVEN
    # PEPCID-J. SMITH" (not a plain word unless a census surname, "J. Walker"; not the
    # initials of sides, SOAP headings or "I.").
    "initial_name": ("DOCTOR", _lazy(
        r"(?<=(?:^|[ \t(-]))[B-HJKMNQT-Z]\.[ \t]{1,2}[A-Z][A-Za-z'-]{2,}(?![\w'-])", regex.M)),
    # A saint's name: "St. Agatha's", "Saint Jude" (kept when the name is a census first name).
    "saint": ("HOSPITAL", _lazy(
        r"(?<![\w.-])(?:St\.?|ST\.|Saint|SAINT)[ \t]{1,2}[A-Z][A-Za-z]+(?:'s)?(?![\w-])")),
    # "University of Maryland", "U of MD" (one span per word).
    "university": ("HOSPITAL", _lazy(r"\b(?:University|UNIVERSITY|U)[ \t]+(?:of|OF)[ \t]+[A-Z][A-Za-z]+")),
    # A street address: number, capitalised words, street suffix ("19 Juniper St."), and the
    # unit that follows it ("45 Maple Ridge Road, Suite 210", "Apt 4B").
    "street": ("STREET", _lazy(
        r"(?<![\w/.-])\d{1,5}[ \t]+(?:[A-Z][A-Za-z'-]+[ \t]+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Drive|Ln|Lane"
        rf"|Blvd|Boulevard|Ct|Court|Pl|Place|Terrace|Circle|Hwy|Highway|Pkwy|Parkway)\b\.?(?:,?[ \t]+{_UNIT})?")),
    # The same in lower case, with full suffix words or their usual abbreviations, and the unit
    # after it ("42 oak lane, apt 3b"); no word of it a clinical or stop word (rules.WORD_CHECKS).
    "street_lower": ("STREET", _lazy(
        r"(?<![\w/.-])(?P<phi>\d{1,5}[ \t]+(?!(?:mm|cm|mg|mcg|ml|cc|kg|mmhg|units?|tabs?|caps?|times|x|hrs?)\b)"
        r"(?:[a-z][a-z'-]+[ \t]+){1,3}(?:street|avenue|road|lane|drive|boulevard"
        r"|court|place|terrace|circle|highway|parkway|st|ave|rd|ln|blvd)\b\.?(?![ \t]*(?:elevation|depression"
        r"|changes?|segment|wave)\b)"
        r"(?:,?[ \t]+(?:apt|suite|ste|unit)\.?[ \t]*#?[ \t]*\d{1,5}[a-z]?(?![\w/-]))?)")),
    # A year after a past event in a history: "CABG 79", "CVA in 97", "CVA 71'", "MI 2090".
    # This rule and the next test their prefix behind a digit: several times faster.
    "year_after_event": ("DATE", _lazy(
        r"(?=\d)(?<=(?<![\w/-])(?:CABG|MI|CVA|PTCA|PCI|AVR|MVR|TIA|AAA|CEA)(?:[ \t]+(?i:in))?[ \t]{1,2})"
        rf"(?P<phi>(?:19|20)\d\d|\d\d)'?(?!{_NOT_A_YEAR})")),
    # A four-digit year after "in" or "since": "IN 1993 PT S/P", "since 2006" (not "in 1500 cc").
    "year_after_in": ("DATE", _lazy(rf"(?=\d)(?<=\b(?i:in|since)[ \t]{{1,2}})(?:19|20)\d\d(?!{_NOT_A_YEAR})")),
    # A title and a lone initial: "mr K was", "MS T. NEEDS"; "mrs. lake" with a full stop
    # (then any lower-case word).
    "title_initial": ("PATIENT", _after(
        r"\b(?:MRS?|Mrs?|mrs?|MS|Ms|MISS|Miss)\.?[ \t]{1,2}", r"[A-Z](?=\.|[ \t]*$|[ \t]+[a-z])", regex.M)),
    "title_lower_dot": ("PATIENT", _after(r"\b(?:mrs?|miss)\.[ \t]{0,2}", _LOWER)),
    # A name after a clinician's title: "HO Lindqvist", "W/MD BARROWS" (not a plain word; has a vowel).
    "title_clinician": ("DOCTOR", _after(r"\b(?:HO|MD|NP)[ \t]{1,2}", rf"(?=[A-Za-z'-]*[AEIOUYaeiouy]){_CAP}")),
    # A month and a four-digit year ("March of 1991", "Nov 2090").
    "date_month_year": ("DATE", _lazy(
        rf"(?<!\w){MONTH}\.?,?[ \t]+(?:of[ \t]+)?(?:19|20)\d\d(?!\w)", regex.I)),
}


#: Lower-cased literals of which every match of a rule holds one (an ASCII text
#: without any is not scanned; see :func:`crfdeid.features.surface.cannot_match`).
NEEDS: dict[str, tuple[str, ...]] = {}

#: Key words (lower-cased, word-bounded in the lower-cased ASCII text), by class. Classes
#: are disjoint: a word is in one class, a class serves several rules.
KEYWORDS = {
    "mr": "mr mrs ms miss", "ho": "ho", "md_np": "md np",
    "credential": "rn r.n. rrt sn lpn bsn ccrn pa-c", "st": "st", "saint": "saint",
    "university": "university u",
    "event": "cabg mi cva ptca pci avr mvr tia aaa cea",
    "street": "street ave avenue rd road drive ln lane blvd boulevard ct court pl place terrace circle hwy "
              "highway pkwy parkway",
    # MONTH's forms ("Sepember" too)
    "month": "jan january feb february mar march apr april may jun june jul july aug august sep sept "
             "september sepember oct october nov november dec december",
}
_CLASS_OF = {w: c for c, words in KEYWORDS.items() for w in words.split()}


def merge_disjoint(base: list, extra: list) -> list:
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
