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


# A capitalised word and a lower-case one (two letters or more), a title's full stop or space.
_CAP = r"[A-Z][A-Za-z'-]*[A-Za-z]"
_LOWER = r"[a-z][a-z'-]*[a-z]"
_DOT_OR_SPACE = r"(?:\.[ \t]{0,2}|[ \t]{1,2})"


def _after(prefix: str, word: str, flags: int = 0):
    """A regex for ``word`` right after ``prefix``: the ``phi`` group is what the rule marks.

    Matching the prefix forwards is several times faster than a look-behind tried at
    every position of the note.
    """
    return _lazy(rf"{prefix}(?P<phi>{word})", flags)


# Relatives whose first name may follow ("dtr marisol", "Son, Al,").
_RELATIVES = "husband|wife|daughter|dtr|son|sister|brother|mother|father|niece|nephew|friend|grandson|granddaughter"

# An address unit and its number ("Suite 210", "Ste. 4", "Apt #4B", "APARTMENT 12").
_UNIT = r"(?:Suite|SUITE|Ste|STE|Apt|APT|Apartment|APARTMENT)\.?[ \t]*#?[ \t]*\d{1,5}[A-Za-z]?(?![\w-])"

# What cannot follow a year: more of a number (not a full stop ending a sentence), a unit.
_NOT_A_YEAR = (r"[\w/%:'-]|\.\d|[ \t]*(?i:mg|mcg|cc|ml|%|mm|cm|min|hr|hour|day|yr|y/o|year|units?|meq|kcal"
               r"|x\b|/)")

# US states and territories by name (the ``states`` list as of this writing, facts public
# domain); a state is a LOCATION of the i2b2 2014 scheme in any case ("moved from ohio").
STATE_NAMES = ("Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|"
               "Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|"
               "Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|"
               "New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|"
               "South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|"
               "Wisconsin|Wyoming|District of Columbia|American Samoa|Guam|Northern Mariana Islands|Puerto Rico|"
               "Virgin Islands").split("|")
# Clinical terms named after a state: "Texas catheter", "Indiana pouch", "New York Heart Association".
_STATE_TERM_AFTER = r"(?![ \t]+(?i:catheters?|pouch|heart[ \t]+association|class\b|tick))"

# Who signs a note off ("front desk", "scheduling", "RN", "social work").
_ROLES = ("desk|rn|md|np|pa|do|lpn|cna|ma|scheduling|scheduler|reception|receptionist|clerk|secretary|nurse"
          "|nursing|pharmacy|pharmacist|sw|social[ \t]+work(?:er)?|case[ \t]+manager|cm|pt|ot|rt|slp|billing"
          "|registration|admissions|triage|office|staff|assistant|tech|technician|coordinator|manager|interpreter"
          "|navigator|dietitian|chaplain|volunteer|resident|fellow|attending|student|operator")

#: Rule name -> (subtype, regex: compiled on first use). Order matters: earlier rules win overlaps.
RULES = {
    "ssn": ("SSN", _lazy(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")),
    "email": ("EMAIL", _lazy(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?!\w)")),
    "url": ("URL", _lazy(r"(?<!\S)(?:https?://|www\.)[^\s<>\"]*[^\s<>\".,;:)]", regex.I)),
    "ip": ("IPADDR", _lazy(
        r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])")),
    "phone": ("PHONE", _lazy(
        r"(?<![\w/-])(?:\(\d{3}\)\s?|\d{3}([-./]))\d{3}(?(1)\1|[-.])\d{4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w/-])",
        regex.I)),
    # A pager number is a phone number in clinical notes ("Pager #40917", "beeper number 40917").
    "pager": ("PHONE", _lazy(
        r"(?<=\b(?:[Pp]ager|PAGER|[Bb]eeper|BEEPER)[ \t]*(?:(?i:number|num|no\.?)[ \t]*)?[:#]?[ \t]*#?)\d{3,7}(?!\w)")),
    # The look-ahead changes no match: it lets the regex module skip to digits (7x faster).
    "date_numeric": ("DATE", _lazy(
        r"(?=\d)(?<![\w/.-])(?:(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:19|20)?\d\d"
        r"|(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))(?![\w/%-])")),
    # A capitalised word right after a title: on the PhysioNet dev notes 190 of
    # 191 "Dr. X" matches and 22 of 24 "Mr./Mrs. X" matches are gold PHI.
    "title_doctor": ("DOCTOR", _after(r"\b(?:[Dd][Rr][Ss]?|DOCTOR|Doctor)\.?[ \t]{1,2}", _CAP)),
    "title_person": ("PATIENT", _after(r"\b(?:MRS?|Mrs?|MISS|Miss)\.?[ \t]{1,2}", _CAP)),
    # A first name after a relative ("dtr marisol", "HUSBAND, Bob"): a relative's name.
    "relative_name": ("PATIENT", _after(
        rf"\b(?:{_RELATIVES}|hcp|proxy)[,:]?[ \t]{{1,2}}\"?", r"[a-z][a-z'-]+(?![\w'-])", regex.I)),
    # A name before a relative in brackets, no plain word: "Ann Zelnik (daughter)". The name is
    # looked for behind the bracket: 100x faster than trying every capitalised word.
    "name_before_relative": ("PATIENT", _lazy(
        r"(?<=(?<![\w'-])(?P<phi>[A-Z][A-Za-z'-]+[ \t]+[A-Z][A-Za-z'-]+)[ \t]*)\((?i:daughter|son|wife|husband"
        r"|sister|brother|mother|father|niece|nephew|friend|hcp|proxy)\)")),
    # A signature line: a name, then a credential at the end of the line ("Dan A. Forman, RRT").
    "signature": ("DOCTOR", _lazy(
        r"(?m)^[ \t]*(?P<phi>[A-Z][A-Za-z'-]+(?:[ \t]+[A-Z]\.?)?(?:[ \t]+[A-Z][A-Za-z'-]+)?)"
        r"(?=(?:,[ \t]*|[ \t]+)(?:RN|R\.N\.|RRT|MD|NP|SN|LPN|BSN|CCRN|PA-C)\b[ \t,./A-Z]*$)")),
    # An initial and a capitalised word after a space, "(" or "-": "per B. Varga", "GIVEN
    # PEPCID-J. SMITH" (not a plain word unless a census surname, "J. Walker"; not the
    # initials of sides, SOAP headings or "I.").
    "initial_name": ("DOCTOR", _lazy(
        r"(?<=(?:^|[ \t(-]))[B-HJKMNQT-Z]\.[ \t]{1,2}[A-Z][A-Za-z'-]{2,}(?![\w'-])", regex.M)),
    # A name before "MD" in the middle of a line: "Anna Stone-Lyle MD performed" (mixed case,
    # no plain word; the all-caps "PRIMARY CARE MD" is left alone).
    "name_md": ("DOCTOR", _lazy(
        r"(?<![\w'-])(?P<phi>[A-Z][a-z'-]*[a-z](?:-[A-Z][a-z]+)?(?:[ \t]+[A-Z][a-z'-]*[a-z](?:-[A-Z][a-z]+)?)?)"
        r"(?=,?[ \t]+MD\b)")),
    # Two capitalised words before "aware", neither a plain word: "JO ZELNIK AWARE" (looked for
    # behind "aware", as above).
    "name_aware": ("DOCTOR", _lazy(
        r"(?<=(?<![\w'-])(?P<phi>[A-Z][A-Za-z'-]+[ \t]+[A-Z][A-Za-z'-]+)[ \t]+)(?i:aware)\b")),
    # A census first name and surname after "per", "by", "with"...: "per carol zelnik".
    "per_name": ("DOCTOR", _after(
        r"\b(?i:per|by|with|from|called|paged)[ \t]+", r"[A-Za-z][a-z]+[ \t]+[A-Za-z][a-z'-]+(?![\w'-])")),
    # A lower-case signature line: a first name, then a non-plain word, then "rn" ("ann j. zelnik bsn/rn").
    "signature_lower": ("DOCTOR", _lazy(
        r"(?m)^[ \t]*(?P<phi>[a-z][a-z'-]+(?:[ \t]+[a-z]\.?)?(?:[ \t]+[a-z][a-z'-]+)?)"
        r"(?=(?:,[ \t]*|[ \t]+)(?:rn|r\.n\.|rrt|md|np|bsn|ccrn)(?:[ \t]*[/,][ \t]*(?:rn|bsn|ccrn|rrt))*[ \t.]*$)")),
    # A sign-off: a dash, a first name (and a surname), a comma and a role to the line's end
    # ("-- ann, front desk", "- Ann Becker, scheduling"); the first word a census first name.
    "sign_off": ("DOCTOR", _lazy(
        r"(?m)^[ \t]*(?:-{1,2}|—|–|~)[ \t]*(?P<phi>[A-Za-z][a-z'-]+(?:[ \t]+[A-Za-z][a-z'-]+)?)"
        rf"(?=[ \t]*,[ \t]*(?:[A-Za-z]+[ \t]+){{0,2}}(?i:{_ROLES})\b[ \t.]*$)")),
    # A saint's name: "St. Agatha's", "Saint Jude" (kept when the name is a census first name).
    "saint": ("HOSPITAL", _lazy(
        r"(?<![\w.-])(?:St\.?|ST\.|Saint|SAINT)[ \t]{1,2}[A-Z][A-Za-z]+(?:'s)?(?![\w-])")),
    # Religious hospital names: "Holy Family", "sacred hope" (one span per word).
    "holy_sacred": ("HOSPITAL", _lazy(r"\b(?i:holy|sacred)[ \t]+[A-Za-z]+")),
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
    # A frequent street name and its suffix after "on", "at", "off"... in any case ("walgreens on main st").
    "street_named": ("STREET", _after(
        r"\b(?i:on|at|off|near|from|to|of)[ \t]{1,2}",
        r"(?i:main|oak|elm|maple|pine|cedar|washington|lake|church"
        r"|market|water|mill|spring|walnut|chestnut|broadway|lincoln|jackson|franklin|madison|center|union|sunset"
        r"|ridge|willow|birch|spruce|hickory|poplar|jefferson|adams|state|bridge|river|school|prospect|pleasant)"
        r"[ \t]+(?i:street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd)\b\.?(?![ \t]*(?:elevation|depression"
        r"|changes?|segment|wave)\b)")),
    # An address unit alone ("Suite 210", "APT #4B"): an address, whatever tagged the word.
    "address_unit": ("STREET", _lazy(rf"(?<![\w-]){_UNIT}")),
    # Names joined by an Arabic particle: "Abdulrahman bin Khalid Al-Qahtani", "Salma bint Nasser"
    # (one span per word; the words other than the particles are no plain words).
    "name_particle": ("PATIENT", _lazy(
        rf"(?<![\w'-])(?P<phi>{_CAP}(?:[ \t]+(?:bin|ibn|bint)[ \t]+{_CAP})+(?:[ \t]+(?:Al|El|AL|EL)-{_CAP})?)"
        r"(?![\w'-])")),
    # A hospital's acronym after "@", "at" or "transferred to" in any case ("@ mgh", "to BWH"): a
    # letter, one to three consonants, then h or mc (hospital, medical center); not "osh" (outside
    # hospital, no name) and no plain word.
    "hospital_acronym": ("HOSPITAL", _after(
        r"(?:@[ \t]*|\b(?i:at)[ \t]+|\b(?i:transfer(?:red)?|admit(?:ted)?|sent|back|go(?:ing)?|went|return(?:ed)?"
        r"|discharged|d/?c'?d)[ \t]+(?i:to)[ \t]+)",
        r"(?!(?i:osh)\b)(?:[a-z][b-df-hj-np-tv-z]{1,3}(?:h|mc)|[A-Z][B-DF-HJ-NP-TV-Z]{1,3}(?:H|MC))(?![\w'-])")),
    # A two-digit year after an apostrophe: "CABG '95", "MI in '03" (the digits).
    "year_apostrophe": ("DATE", _lazy(r"(?<![\w'/.-])'(?P<phi>\d\d)(?![\w'/.-])")),
    # A year after a past event in a history: "CABG 79", "CVA in 97", "CVA 71'", "MI 2090".
    # This rule and the next test their prefix behind a digit: several times faster.
    "year_after_event": ("DATE", _lazy(
        r"(?=\d)(?<=(?<![\w/-])(?:CABG|MI|CVA|PTCA|PCI|AVR|MVR|TIA|AAA|CEA)(?:[ \t]+(?i:in))?[ \t]{1,2})"
        rf"(?P<phi>(?:19|20)\d\d|\d\d)'?(?!{_NOT_A_YEAR})")),
    # A four-digit year after "in" or "since": "IN 1993 PT S/P", "since 2006" (not "in 1500 cc").
    "year_after_in": ("DATE", _lazy(rf"(?=\d)(?<=\b(?i:in|since)[ \t]{{1,2}})(?:19|20)\d\d(?!{_NOT_A_YEAR})")),
    # A month/day after "on", "from", "extubated"...: "extubated 11/6" (not "on 5/5" or "on 10/5
    # PSV", "1/2 NS", "12/5, 40%": vent settings and fractions).
    "date_numeric_day": ("DATE", _lazy(
        r"(?=\d)(?<=\b(?i:on|from|since|until|till|extubated|intubated|admitted|dated|thru|through)[ \t]+)"
        r"(?!(?P<n>\d+)/(?P=n)\b)(?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9])"
        r"(?:-(?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9]))?"
        r"(?![\w/%-]|\.\d|[ \t]*,?[ \t]*\d+[ \t]*%"
        r"|[ \t]*(?i:%|ns\b|psv|ps\b|peep|cpap|bipap|ips|units|str|hrs?\b|x\b|fio2))")),
    # A title and a lone initial: "mr K was", "MS T. NEEDS"; "mrs. lake" with a full stop
    # (then any lower-case word).
    "title_initial": ("PATIENT", _after(
        r"\b(?:MRS?|Mrs?|mrs?|MS|Ms|MISS|Miss)\.?[ \t]{1,2}", r"[A-Z](?=\.|[ \t]*$|[ \t]+[a-z])", regex.M)),
    "title_lower_dot": ("PATIENT", _after(r"\b(?:mrs?|miss)\.[ \t]{0,2}", _LOWER)),
    # Lower-case notes write "mr halvorsen": kept only when the word is not a plain word.
    "title_lower": ("PATIENT", _after(rf"\b(?:mrs?|miss){_DOT_OR_SPACE}", _LOWER)),
    "title_doctor_lower": ("DOCTOR", _after(rf"\b(?:drs?){_DOT_OR_SPACE}", _LOWER)),
    # A name after a clinician's title: "HO Lindqvist", "W/MD BARROWS" (not a plain word; has a vowel).
    "title_clinician": ("DOCTOR", _after(r"\b(?:HO|MD|NP)[ \t]{1,2}", rf"(?=[A-Za-z'-]*[AEIOUYaeiouy]){_CAP}")),
    # Phone numbers written with spaces: "617 555 0142 x12", "303 5550142", "617 555-0187".
    "phone_spaced": ("PHONE", _lazy(
        r"(?<![\w/.])(?:\d{3}[ \t]\d{3}[ \t-]\d{4}|\d{3}[ \t]\d{7})"
        r"(?:[ \t]?(?:x|ext\.?)[ \t]?\d{1,5})?(?![\w/%-]|\.\d)", regex.I)),
    "state_name": ("STATE", _lazy(
        r"(?<![\w'-])(?i:" + "|".join(n.replace(" ", r"[ \t]+") for n in STATE_NAMES) + r")(?![\w'-])"
        + _STATE_TERM_AFTER)),
    "date_text": ("DATE", _lazy(
        rf"(?<!\w){MONTH}\.?\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d(?!\w)", regex.I)),
    # Day, month and year ("14 Nov, 91"); month and four-digit year ("March of 1991").
    # The look-ahead for a digit changes no match: the regex module skips to digits.
    "date_day_month": ("DATE", _lazy(
        rf"(?=\d)(?<!\w)(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?[ \t]+{MONTH}\.?,?[ \t]+"
        rf"(?:19|20)?\d\d(?!\w)", regex.I)),
    "date_month_year": ("DATE", _lazy(
        rf"(?<!\w){MONTH}\.?,?[ \t]+(?:of[ \t]+)?(?:19|20)\d\d(?!\w)", regex.I)),
    # Month name and day without a year ("July 2nd"); "May" is left out (the verb).
    "date_month_day": ("DATE", _lazy(
        r"(?<!\w)(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|June?|July?|Aug(?:ust)?"
        r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?[ \t]+(?:0?[1-9]|[12]\d|3[01])"
        r"(?:st|nd|rd|th)?(?![\w/:.-]\d)(?!\w)", regex.I)),
}


#: Lower-cased literals of which every match of a rule holds one (an ASCII text
#: without any is not scanned; see :func:`crfdeid.features.surface.cannot_match`).
NEEDS = {"email": ("@",), "url": ("://", "www."), "year_apostrophe": ("'",)}

#: Key words (lower-cased, word-bounded in the lower-cased ASCII text), by class. Classes
#: are disjoint: a word is in one class, a class serves several rules.
KEYWORDS = {
    "dr": "dr drs doctor", "mr": "mr mrs ms miss", "ho": "ho", "md_np": "md np",
    "relative": _RELATIVES.replace("|", " ") + " hcp proxy",
    "credential": "rn r.n. rrt sn lpn bsn ccrn pa-c", "st": "st", "saint": "saint",
    "university": "university u",
    "pager": "pager beeper", "aware": "aware", "unit": "suite ste apt apartment", "particle": "bin ibn bint",
    "holy": "holy sacred",
    "event": "cabg mi cva ptca pci avr mvr tia aaa cea",
    "street": "street ave avenue rd road drive ln lane blvd boulevard ct court pl place terrace circle hwy "
              "highway pkwy parkway",
    # MONTH's and date_month_day's forms ("Sepember" too).
    # the first words of STATE_NAMES
    "state": " ".join(sorted({n.split()[0].lower() for n in STATE_NAMES})),
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
