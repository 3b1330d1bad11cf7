"""High-precision regex rules for PHI with rigid forms, and their overlay on CRF spans.

The hybrid design of the i2b2 2014 winners: a CRF for everything, plus rules
for forms a regex finds almost without false positives (full dates, phone
numbers, e-mail addresses, URLs, IP addresses, SSNs, a capitalised word after
``Dr.``/``Mr.``/``Mrs.``). :func:`overlay` merges
the two, preferring the CRF's subtype and extending spans to their union, then
adds the initials and coordinated names next to name spans
(:func:`extend_names`). The overlay only adds redaction, with one exception: a CRF DATE
span that cannot be a date (``bp 80/60``, :func:`impossible_date`) is dropped.

>>> [(s.start, s.end, s.subtype) for s in find("Call 617-555-0199 on 03/14/2098.")]
[(5, 17, 'PHONE'), (21, 31, 'DATE')]
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

import regex

from .. import gazetteers
from ..document import Span, make_span
from ..features.surface import MONTH, ascii_lower, cannot_match
from ..text.patterns import LazyPattern


def _lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``regex.compile(pattern, flags)`` on first use: a note runs only the rules whose
    literals and key words it holds (:func:`find`), so most start-ups need few of them."""
    return LazyPattern(regex.compile, pattern, flags)


def _group(rx) -> str | int:
    """The group a rule's span is (``phi`` when it has one), without compiling a lazy rule."""
    if isinstance(rx, LazyPattern):
        return "phi" if "(?P<phi>" in rx.source else 0
    return "phi" if "phi" in rx.groupindex else 0


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


def trie_pattern(words) -> str:
    """A regex for any of ``words`` that follows one branch per character (``re`` tries
    alternatives one by one: a flat alternation of 100 words is several times slower).

    >>> trie_pattern(["dr", "drs", "doctor"])
    'd(?:octor|r(?:s)?)'
    """
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node) -> str:
        alts = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return ("(?:" + body + ")?") if "" in node else body
    return build(trie)


# One scan of a note finds every key word. A key word ends before a non-letter
# ("pager5555" is a pager number) or with a full stop ("R.N.BSN").
_KEYWORDS = re.compile(r"\b(?:" + trie_pattern(_CLASS_OF) + r")(?:(?<=\.)|(?![a-z]))")

#: Rules run only near their key words on an ASCII note: ``(classes, "line")`` when every
#: match lies on a line that holds one (only those lines are scanned), ``(classes,
#: "start")`` when every match starts at one (the rule is tried there only). Same
#: matches as a scan of the whole note (tests/test_rules.py).
ANCHORS = {
    "pager": (("pager",), "line"), "title_doctor": (("dr",), "line"), "title_person": (("mr",), "line"),
    "relative_name": (("relative",), "line"), "signature": (("credential", "md_np"), "line"),
    "saint": (("st", "saint"), "line"),
    "university": (("university",), "line"), "street": (("st", "street"), "line"),
    "title_lower": (("mr",), "line"), "title_doctor_lower": (("dr",), "line"),
    "title_clinician": (("ho", "md_np"), "line"), "date_day_month": (("month",), "line"),
    "date_text": (("month",), "start"), "date_month_year": (("month",), "start"),
    "date_month_day": (("month",), "start"), "name_before_relative": (("relative",), "line"),
    "name_md": (("md_np",), "line"),
    "name_aware": (("aware",), "line"), "address_unit": (("unit",), "start"),
    "name_particle": (("particle",), "line"),
    "signature_lower": (("credential", "md_np"), "line"), "holy_sacred": (("holy",), "line"),
    "year_after_event": (("event",), "line"),
    "title_initial": (("mr",), "line"), "title_lower_dot": (("mr",), "line"),
    "state_name": (("state",), "start"),
}


def _keyword_starts(low: str) -> dict:
    """Start offsets of the key words in a lower-cased ASCII note, by class."""
    at: dict = {}
    for m in _KEYWORDS.finditer(low):
        at.setdefault(_CLASS_OF[m.group()], []).append(m.start())
    return at


def _anchored(rx, text: str, starts: list, mode: str):
    """``rx.finditer(text)`` for a rule whose matches lie on lines holding (``line``) or
    start at (``start``) the offsets ``starts``."""
    if mode == "start":
        end = -1
        for p in starts:
            if p >= end:
                m = rx.match(text, p)
                if m:
                    end = m.end()
                    yield m
        return
    line_end = -1
    for p in starts:
        if p >= line_end:  # a new line (its matches cannot cross the line break)
            line_end = text.find("\n", p)
            line_end = len(text) if line_end < 0 else line_end
            yield from rx.finditer(text, text.rfind("\n", 0, p) + 1, line_end)


@lru_cache(maxsize=1)
def _plain_words() -> frozenset:
    return gazetteers.load("common_words") | gazetteers.load("clinical_words")


@lru_cache(maxsize=1)
def _not_names() -> frozenset:
    """Relation words, titles and clinical words: never a part of a name glued by a hyphen."""
    return gazetteers.load("relations") | gazetteers.load("titles") | gazetteers.load("clinical_words")


@lru_cache(maxsize=1)
def _first_names() -> frozenset:
    return gazetteers.load("first_male") | gazetteers.load("first_female")


@lru_cache(maxsize=1)
def _surnames() -> frozenset:
    return gazetteers.load("surnames") | gazetteers.load("surnames_rare")


@lru_cache(maxsize=1)
def _name_words() -> tuple[frozenset, frozenset]:
    plain = _plain_words()
    first = _first_names() - plain
    last = _surnames() - plain
    return first, last


#: Rules whose matches (their ``phi`` group if they have one) must pass a word-list check
#: (:func:`_word_check`).
WORD_CHECKS = {"title_lower": "last_not_plain", "title_doctor_lower": "last_not_plain",
               "title_clinician": "last_not_plain",
               "saint": "last_first_name", "relative_name": "first_name_not_plain",
               "hospital_acronym": "none_plain", "name_particle": "names_not_plain",
               "name_md": "none_plain", "name_aware": "none_plain_long",
               "per_name": "first_name_surname", "signature_lower": "first_name_then_not_plain",
               "name_before_relative": "none_plain",
               "initial_name": "not_plain_or_surname"}
#: Rules that add one span per word of a name, as :func:`extend_names` adds the initial
#: of ``B. Varga`` on its own: the CRF then joins or keeps them as its training data did.
WORDWISE = frozenset({"name_particle", "signature", "initial_name", "saint", "university", "name_md", "name_aware",
                      "per_name", "signature_lower", "holy_sacred", "name_before_relative"})
_WORD = _lazy(r"[A-Za-z][A-Za-z'-]*")


def find(text: str, rules=None) -> list[Span]:
    """Spans the rules find in ``text``, sorted, without overlaps (earlier rules win)."""
    default = rules is None
    low = ascii_lower(text) if default else None
    keywords = _keyword_starts(low) if low is not None else None
    found: list[Span] = []
    for sub, rx, needs, anchor, check, group, wordwise in (_plan() if default else _plan_of(rules)):
        if needs and cannot_match(needs, low):
            continue
        if anchor is not None and keywords is not None:
            classes, mode = anchor
            starts = [keywords[c] for c in classes if c in keywords]
            if not starts:
                continue
            starts = starts[0] if len(starts) == 1 else sorted(p for s in starts for p in s)
            hits = _anchored(rx, text, starts, mode)
        else:
            hits = rx.finditer(text)
        matches = [m for m in hits if check(m.group(group).split())] if check is not None else list(hits)
        if not matches:
            continue
        if wordwise:
            spans = [make_span(m.start(group) + w.start(), m.start(group) + w.end(), sub)
                     for m in matches for w in _WORD.finditer(m.group(group))]
        else:
            spans = [make_span(m.start(group), m.end(group), sub) for m in matches]
        found = merge_disjoint(found, spans)
    return found


def _plan_of(rules: dict) -> list[tuple]:
    """What :func:`find` needs of each rule, worked out once: ``(subtype, regex, needs, anchor,
    word check, group, wordwise)``. A mapping passed to :func:`find` is never skipped or anchored."""
    return [(sub, rx, None, None, _word_check(WORD_CHECKS.get(name)),
             _group(rx), name in WORDWISE)
            for name, (sub, rx) in rules.items()]


@lru_cache(maxsize=1)
def _plan() -> list[tuple]:
    """:func:`_plan_of` for :data:`RULES`, with their literals (:data:`NEEDS`) and key words (:data:`ANCHORS`).

    Made once (a model with rules makes it at load): code that changes :data:`RULES` must
    call ``_plan.cache_clear()``, or pass its rules to :func:`find`.
    """
    return [(sub, rx, NEEDS.get(name), ANCHORS.get(name), *rest)
            for name, (sub, rx, _, _, *rest) in zip(RULES, _plan_of(RULES))]


def prepare() -> None:
    """Load the word lists the rules use (a model with rules does this at load)."""
    _name_words()
    _plan()
    for kind in set(WORD_CHECKS.values()):
        _word_check(kind)


@cache
def _word_check(kind: str | None):
    """The predicate over a match's words for a :data:`WORD_CHECKS` kind (None: no check)."""
    if kind is None:
        return None
    plain = _plain_words()
    if kind == "last_not_plain":
        return lambda words: words[-1].lower() not in plain
    if kind == "none_plain":
        return lambda words: all(w.lower() not in plain for w in words)
    if kind == "names_not_plain":
        return lambda words: all(w.lower() not in plain for w in words if w not in ("bin", "ibn", "bint"))
    if kind == "none_plain_long":
        return lambda words: all(w.lower() not in plain and len(w) > 2 for w in words)
    first = _first_names()
    surnames = _surnames()
    if kind == "not_plain_or_surname":
        return lambda words: words[-1].lower() not in plain or words[-1].lower() in surnames
    if kind == "first_name_surname":
        return lambda words: (len(words[0]) > 2 and words[0].lower() in first
                              and words[-1].lower() in surnames and words[-1].lower() not in plain)
    if kind == "first_name_then_not_plain":
        return lambda words: words[0].lower() in first and words[-1].lower() not in plain
    if kind == "first_name_not_plain":
        return lambda words: words[-1].lower() in first and words[-1].lower() not in plain
    if kind == "last_first_name":
        return lambda words: words[-1].lower().removesuffix("'s") in first
    raise ValueError(f"unknown word check {kind!r}")


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


_NAMES = frozenset({"PATIENT", "DOCTOR", "USERNAME"})
# A lone letter (and its full stop) right before a name: the "B." of "B. Varga".
_INITIAL_BEFORE = _lazy(r"(?<![\w.'-])[A-Za-z](?=\.?[ \t]{1,2}$)")
# A surname's initial right after a name, with its full stop or before a comma or the line's
# end ("Tomas K., admitted"; not the "A" or "I" of "told Maria I would").
_INITIAL_AFTER = _lazy(r"[ \t]{1,2}([A-Z])(?:(\.)(?![\w.])|(?=[ \t]*(?:[,;)]|$)))", regex.M)
# A capitalised word joined to a name by "and"/"&": "Drs Okafor and Lindqvist".
# Then a surname right after a name, a first name right before one ("Patricia WHITFIELD").
_COORD_AFTER = _lazy(rf"[ \t]+(?:and|AND|&)[ \t]+({_CAP})(?![\w'-])")
_COORD_BEFORE = _lazy(rf"(?<![\w'-])({_CAP})[ \t]+(?:and|AND|&)[ \t]+$")
_NEXT_WORD = _lazy(rf"[ \t]({_CAP})(?![\w'-])")
_PREV_WORD = _lazy(rf"(?<![\w'-])({_CAP})[ \t]$")
# Name parts joined to a name by hyphens, in any script: the "Øster" of "Müller-Øster".
_HYPHEN_AFTER = _lazy(r"-(\p{Lu}[\p{L}\p{M}']*(?:-\p{Lu}[\p{L}\p{M}']*)*)(?![\p{L}\p{M}\p{N}])")
_HYPHEN_BEFORE = _lazy(r"(?<![\p{L}\p{M}\p{N}'-])(\p{Lu}[\p{L}\p{M}']*(?:-\p{Lu}[\p{L}\p{M}']*)*)-$")
# Name particles ("Abdulrahman bin Khalid", "Ludwig van Beethoven", "Maria de la Cruz"): the particle
# and the capitalised word on its other side join a name next to it.
_PARTICLE = r"(?:bin|ibn|bint|ben|abu|al|el|van|von|der|den|de|da|di|del|della|dos|du|la|le)"
_PARTICLE_AFTER = _lazy(rf"[ \t]+({_PARTICLE}(?:[ \t]+{_PARTICLE})?)[ \t]+({_CAP})(?![\w'-])")
_PARTICLE_BEFORE = _lazy(rf"(?<![\w'-])({_CAP})[ \t]+({_PARTICLE}(?:[ \t]+{_PARTICLE})?)[ \t]+$")
# A surname with a particle prefix right after a name: "Khalid Al-Qahtani", "Sean O'Brien", "Ann McGee".
_PREFIXED_NEXT = _lazy(r"[ \t]((?:(?:Al|AL|El|EL|Abu|ABU)-|[OD]'|Mc|MC|Mac)\p{Lu}[\p{L}\p{M}']+"
                               r"(?:-\p{Lu}[\p{L}\p{M}']+)*)(?![\p{L}\p{M}\p{N}'-])")


def extend_names(text: str, spans) -> list[Span]:
    """Name spans plus the initials, coordinated names, particles and name parts next to them.

    The CRF finds ``Varga`` in ``B. Varga`` but often not the lone ``B``, one
    name of ``Drs Okafor and Lindqvist``, or one part of ``Patricia WHITFIELD``; these
    are added with the neighbour's subtype: a lone letter before a name, a
    capitalised word joined by ``and``/``&`` unless it is a common or clinical
    word, a census surname right after a name and a census first name right
    before one (neither a common or clinical word), capitalised name parts
    joined to it by hyphens, in any script (``Müller-Øster``; not a relation word, title or
    clinical word: ``DAUGHTER`` of ``DAUGHTER-MINDY``), a surname with a particle prefix
    after it (``Al-Qahtani``, ``O'Brien``, ``McGee``), and a particle with the capitalised word
    beyond it (``Abdulrahman bin`` before ``Khalid``; ``van Beethoven`` after ``Ludwig``; not a
    plain word). Spans that would overlap one already there are not added.

    >>> from crfdeid.document import make_span
    >>> [(s.start, s.end) for s in extend_names("per B. Varga", [make_span(7, 13, "DOCTOR")])]
    [(4, 5), (7, 13)]
    >>> [(s.start, s.end) for s in extend_names("Zoë Müller-Øster", [make_span(0, 10, "PATIENT")])]
    [(0, 10), (11, 16)]
    """
    found: list[Span] = []
    first, last = _name_words()
    todo = [sp for sp in spans if sp.subtype in _NAMES]
    for sp in todo:
        m = _INITIAL_BEFORE.search(text, max(0, sp.start - 4), sp.start)
        if m:
            found.append(make_span(m.start(), m.end(), sp.subtype))
        m = _INITIAL_AFTER.match(text, sp.end, sp.end + 8)
        if m and (m.group(2) or m.group(1) not in "AI"):
            found.append(make_span(m.start(1), m.end(1), sp.subtype))
        for m, ok in ((_COORD_AFTER.match(text, sp.end, sp.end + 40), None),
                      (_COORD_BEFORE.search(text, max(0, sp.start - 40), sp.start), None),
                      (_NEXT_WORD.match(text, sp.end, sp.end + 40), last),
                      (_PREV_WORD.search(text, max(0, sp.start - 40), sp.start), first)):
            if m and (m.group(1).lower() in ok if ok is not None
                      else m.group(1).lower() not in _plain_words()):
                found.append(make_span(m.start(1), m.end(1), sp.subtype))
        for m in (_HYPHEN_AFTER.match(text, sp.end, sp.end + 80),
                  _HYPHEN_BEFORE.search(text, max(0, sp.start - 80), sp.start),
                  _PREFIXED_NEXT.match(text, sp.end, sp.end + 80)):
            if m and m.group(1).lower() not in _not_names():  # not "DAUGHTER" of "DAUGHTER-MINDY"
                found.append(make_span(m.start(1), m.end(1), sp.subtype))
        for m, cap in ((_PARTICLE_AFTER.match(text, sp.end, sp.end + 80), 2),
                       (_PARTICLE_BEFORE.search(text, max(0, sp.start - 80), sp.start), 1)):
            if m and m.group(cap).lower() not in _plain_words():
                found += [make_span(m.start(g), m.end(g), sp.subtype) for g in (1, 2)]
                if len(todo) < 2 * len(spans) + 8:  # the name beyond a particle grows once more
                    todo.append(make_span(m.start(cap), m.end(cap), sp.subtype))
    return merge_disjoint(sorted(spans), sorted(set(found)))


# Digits joined by "/" or "-" (a numeric date has two or three parts), and a 24-hour clock time.
_NUMERIC = _lazy(r"(\d{1,4})([/-])(\d{1,4})(?:\2(\d{1,4}))?")
_CLOCK = _lazy(r"(?:[01]\d|2[0-3])[0-5]\d")
_AT = _lazy(r"(?:\b[Aa][Tt]|@)[ \t]*~?$")
_JOINED_BEFORE = _lazy(r"\d[./]$")
_JOINED_AFTER = _lazy(r"/\d")
# A pain score ("CP 4/10", "chest pain (7/10)") and a fraction or grade ("3/4 str", "1/2 NS",
# "4/4 strength", "3/6 SEM").
_PAIN_BEFORE = _lazy(r"(?i)\b(?:pain|cp|discomfort|pressure|angina|ha|headache)\b[^\n.;]{0,25}$")
_SCALE_AFTER = _lazy(r"(?i)[ \t]*(?:str|strength|ns|of|brisk|sem|murmur)\b")
_PAIN_AFTER = _lazy(r"(?i)[ \t]*(?:cp|pain|angina|chest)\b")
_FOUR_PARTS = _lazy(r"\d{1,4}(?:/\d{1,4}){3,}")


def _month_day(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def impossible_date(text: str, sp: Span) -> bool:
    """True when the text of a DATE span cannot be a date in the US numeric forms.

    Blood pressures, ratios and vent settings look like dates to the CRF
    (``bp 80/60``, ``pain 8/10``, ``12.9/21.9``, ``3/2/1500``). Only a span that is
    all digits joined by ``/`` or ``-`` (two or three parts) or a four-digit clock
    time is judged (four or more ``/`` parts are a date only as two month/day pairs,
    ``10/03/10/04``, not ``24/06/12/18``); it is not a date when a decimal point or ``number/`` comes right
    before it or ``/number`` right after it, its first number has three digits or is
    above 12 or a part is 0 (month/day and month/year forms), its third part is not a
    2- or 4-digit year, it is ``n/10`` next to a pain word (``CP 4/10``, ``8/10 CP``), a fraction or
    grade (``3/4 str``, ``1/2 NS``, ``4/4 strength``, ``3/6 SEM``), or a clock time
    right after ``at``/``@`` (``extubated at 2030``). A piece of a
    longer date (``16`` of ``10/16``) is never dropped. On the PhysioNet dev corpus no
    gold DATE span meets any of these (docs/model.md).

    >>> from crfdeid.document import make_span
    >>> [impossible_date(t, make_span(3, len(t), "DATE")) for t in ("bp 80/60", "on 10/3", "at 2030")]
    [True, False, True]
    """
    t = text[sp.start:sp.end]
    before = text[max(0, sp.start - 32):sp.start]
    m = _NUMERIC.fullmatch(t)
    if m is None:
        if _FOUR_PARTS.fullmatch(t):
            parts = [int(x) for x in t.split("/")]
            return not (len(parts) == 4 and _month_day(*parts[:2]) and _month_day(*parts[2:]))
        return bool(_CLOCK.fullmatch(t) and _AT.search(before))
    if _JOINED_BEFORE.search(before) or _JOINED_AFTER.match(text, sp.end):
        return True
    if len(m[1]) == 3 or (len(m[1]) == 4 and m[1][:2] not in ("19", "20")):
        return True
    pain = m[3] == "10" and (_PAIN_BEFORE.search(before) or _PAIN_AFTER.match(text, sp.end))
    if m[4] is None and m[2] == "/" and (pain or _SCALE_AFTER.match(text, sp.end)):
        return True
    if len(m[1]) <= 2 and len(m[3]) <= 2:
        if int(m[1]) > 12 or int(m[1]) == 0 or int(m[3]) == 0:
            return True
        if m[4] is not None and not (len(m[4]) == 2 or m[4][:2] in ("19", "20")):
            return True
    return False


def overlay(text: str, spans, rules=None, date_check: bool = True, extend: bool = True,
            found=None) -> list[Span]:
    """CRF ``spans`` merged with rule spans: overlapping ones joined (CRF subtype kept).

    With ``date_check``, CRF DATE spans that cannot be dates (:func:`impossible_date`)
    are dropped first: the one thing the overlay removes. With ``extend``, the name
    spans are then extended (:func:`extend_names`). ``rules`` (a mapping like
    :data:`RULES`) replaces the rule set; ``found`` (rule spans already found, sorted and
    disjoint, as :func:`find` gives them) skips the scan, as the rule ablation does.

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

    if date_check:
        spans = [sp for sp in spans if sp.subtype != "DATE" or not impossible_date(text, sp)]
    if found is None:
        found = find(text, rules)
    tagged = sorted([(sp, False) for sp in spans] + [(sp, True) for sp in found])
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
    merged = states_after_cities(text, merged)
    return extend_names(text, merged) if extend else merged


# A state's postal code (or AP abbreviation) after a comma: "Portland, OR", "Keene, N.H.".
_CODE_AFTER_COMMA = _lazy(
    r",[ \t]{0,2}(?P<code>[A-Za-z]{2}|[A-Z][a-z]{1,4}\.|[A-Z]\.[A-Z]\.|W\.Va\.)(?![\w'-]|\.\w)")
_PLACE_WORDS = _lazy(r"(?<![\w'.-])((?:[A-Za-z][A-Za-z'.-]*[ \t]){0,2}[A-Za-z][A-Za-z'.-]*)$")
_PLACES = frozenset({"CITY", "STATE", "STREET", "HOSPITAL", "LOCATION-OTHER", "COUNTRY"})


@lru_cache(maxsize=1)
def _state_codes() -> tuple[frozenset, frozenset]:
    """USPS codes and AP abbreviations (``state_abbrevs``); the codes that are no English word
    (``NH``, ``VT``: these may be written in lower case)."""
    codes = frozenset(gazetteers.entries("state_abbrevs"))
    plain = gazetteers.load("common_words") | gazetteers.load("stop_words")
    return codes, frozenset(c.lower() for c in codes if len(c) == 2 and c.lower() not in plain)


def states_after_cities(text: str, spans) -> list[Span]:
    """``spans`` plus a state's code after a city and a comma (``Portland, OR``), as ``STATE``.

    The city is a predicted place span ending at the comma, or one to three words there of
    the ``cities`` list (then added as ``CITY`` too). The code is a USPS code in capitals (in
    lower case only when it is no English word: ``keene, nh``, not ``pain, or``) or an AP
    abbreviation (``Mass.``).

    >>> [(s.start, s.end, s.subtype) for s in states_after_cities("moved to Portland, OR in May", [])]
    [(9, 17, 'CITY'), (19, 21, 'STATE')]
    """
    if "," not in text:
        return list(spans)
    codes, lower_codes = _state_codes()
    cities = gazetteers.load("cities")
    spans = sorted(spans)
    ends = {sp.end: sp for sp in spans if sp.subtype in _PLACES}
    found: list[Span] = []
    for m in _CODE_AFTER_COMMA.finditer(text):
        code = m.group("code")
        if code not in codes and code.lower() not in lower_codes:
            continue
        if m.start() in ends:
            found.append(make_span(m.start("code"), m.end("code"), "STATE"))
            continue
        before = _PLACE_WORDS.search(text, max(0, m.start() - 40), m.start())
        if before is None:
            continue
        words = before.group(1).split()
        for k in range(len(words)):  # the longest run of words before the comma that is a listed city
            city = " ".join(words[k:])
            if city.lower() in cities:
                start = m.start() - len(city)
                found += [make_span(start, m.start(), "CITY"), make_span(m.start("code"), m.end("code"), "STATE")]
                break
    return merge_disjoint(spans, sorted(found)) if found else spans
