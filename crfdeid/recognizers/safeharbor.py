"""The Safe Harbor layer: HIPAA identifiers with fixed forms, caught by every model.

HIPAA's Safe Harbor method lists identifiers that must go whatever else a note
holds; several have forms a regex finds almost without false positives. This
layer finds them and adds them to what the CRF (and the optional rule overlay)
found, in :meth:`crfdeid.crf.Model.tag` and ``tag_each``, for every model: trained
or shipped, old or new, whatever its config says (``rules.enabled`` does not
touch it). It cannot be switched off. Forms (span = the identifier only):

* ``AGE``: ages of 90 and over written as ages (``Age: 94``, ``94 yo``, ``94 y/o``,
  ``94-year-old``, ``aged 101``, ``ninety-four year old``, ``in her 90s``);
* ``MEDICALRECORD``, ``ACCOUNT``, ``HEALTHPLAN``, ``LICENSE``, ``DEVICE``, ``VEHICLE``,
  ``SSN``, ``IDNUM``: a number with a digit after its label (``MRN 00482913``,
  ``MR# 123``, ``Acct: ...``, ``Medicare #``, ``policy no.``, ``DL``, ``VIN``,
  ``serial no.``, ``ID:``); a Medicare beneficiary identifier (``1EG4-TE5-MK72``) and
  letters then six or more digits (``LV-3381204``) without a label;
* ``SSN``, ``PHONE``, ``FAX`` (a phone number after "fax"), ``EMAIL``, ``URL``, ``IPADDR``;
* ``PATIENT``: a newborn's surname after ``Baby Boy``/``Baby Girl``/``BB``/``BG``;
* ``USERNAME``: a handle after the name of a social network (``Twitter @jlee_88``) or after
  ``username:``/``user name is``;
* ``DATE``: a numeric month/day (and year) right after a weekday (``Tues 9/3``, ``Monday,
  3/14/98``); dates in either order with a year, dotted, ISO, and with a month name
  (:mod:`.dateforms`); a bare ``3/4`` is the CRF's: written alone it is too like a ratio or a dose;
* checksums and other countries' formats (:mod:`.fixedforms`, checks by python-stdnum): card
  numbers (Luhn), IBANs (mod 97), national identity numbers with a check digit, international
  phone numbers and postal codes;
* postal codes of many countries inside an address of several lines (:mod:`.postcodes`);
* forms told by the words beside them (:mod:`.contextforms`): postal codes with their address,
  plates after their words, IPv6, group and store numbers, ages over 89 in prose;
* phone numbers phonenumbers holds valid for the note's country (:mod:`.phones`, which also
  tells that country: :func:`country`).

:func:`apply` only adds: a found span that overlaps predicted spans is joined with
them into their union; the union keeps the predicted subtype when it is of the
same category (a CRF ``FAX`` stays ``FAX``), else takes the layer's (a CRF
``PATIENT`` over ``MRN 00482913`` becomes ``MEDICALRECORD``). Predicted spans that
overlap nothing found are returned unchanged. See docs/safeharbor.md for what the
layer does not guarantee, its false positives and its speed.

>>> [(s.start, s.end, s.subtype) for s in find("Age: 94. MRN 00482913, fax 617-555-0199")]
[(5, 7, 'AGE'), (13, 21, 'MEDICALRECORD'), (27, 39, 'FAX')]
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from .. import gazetteers
from ..document import Span, make_span
from ..text.patterns import LazyPattern
from . import contextforms, dateforms, fixedforms, phones, postcodes
from .ruledata import table
from .rules import trie_pattern

_T = table("safeharbor")  # the patterns, words and labels (crfdeid/_data/rules/safeharbor.tsv)
_R = _T.namespace()

_I = re.I
# A number word of 90 to 125 ("ninety-four", "one hundred and one").
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_AGE_WORD = (rf"ninety(?:[- ](?:{_UNITS}))?"
             rf"|(?:one[- ])?hundred(?:(?:[- ]and)?[- ](?:{_UNITS}|{_TEENS}|twenty(?:[- ](?:{_UNITS}))?))?")
_AGE_NUM = rf"(?<![0-9.,/-]){contextforms.AGE_OVER_89}(?![0-9]|\.[0-9]|,[0-9])"
# What makes a number an age: "yo", "y/o", "y.o.", "year old", "years of age", "yr-old".
_YEARS_OLD = (r"[ \t]*-?[ \t]*(?:y/o|y\.o\.?|yo|y[ \t]*-?[ \t]*o\b|yrs?\.?[ \t]*-?[ \t]*old|years?[ \t]*-?[ \t]*old"
              r"|years?[ \t]+of[ \t]+age|yr?s?[ \t]*[mf]\b|yo[mf]\b)(?![a-z])")
# After "age"/"aged": a number that is not a duration ("age 94 days").
_NOT_DURATION = r"(?![ \t]*(?:%|d\b|days?|h\b|hrs?|hours?|w\b|wks?|weeks?|mo\b|mos|months?|min|kg|lb|g\b|cm))"
_AGE_LABEL = r"\b(?:aged?|age[ \t]+of|age[ \t]+is)[ \t]*[:=]?[ \t]*"

_NO = _T.source("NO")  # a number's word after a label ("number", "no.", "#", "id")
#: Labels of identifiers, by subtype (lower case; the text is matched case-insensitively, except the
#: short labels of (?-i:...) that are other words in lower case: "dl" of mg/dl): the table's
#: ``item LABELS.<subtype>`` rows.
LABELS = {sub: _T.items(f"LABELS.{sub}") for sub in
          ("SSN", "MEDICALRECORD", "ACCOUNT", "HEALTHPLAN", "VEHICLE", "LICENSE", "DEVICE", "IDNUM")}
#: The least number of characters of an identifier after a label, by subtype: a bare "ID 12"
#: or "visit #2" is no identifier; "MR# 123" is.
MIN_LENGTH = {"MEDICALRECORD": 3, "ACCOUNT": 3, "SSN": 9, "IDNUM": 4}
# An identifier after its label: letters and digits, hyphens inside (``BCH-0091-4472``); letters then
# groups split by slashes (``CMHT/22719``, ``LCS/25/08841``: record numbers of other countries); or
# eight digits or more in groups split by single spaces (``2953 17483 1``, ``4862 917 301 KT``,
# ``DELG 3204 1512``: Medicare, OHIP, RAMQ numbers as their cards print them).
_VALUE = (r"(?=[A-Za-z0-9/]*[0-9])[A-Za-z]{1,6}(?:/[A-Za-z0-9]{1,10}){1,3}(?![\w/-])"
          r"|(?=(?:[0-9][ ]?){8})[0-9]{3,5}(?:[ ][0-9]{1,6}){1,3}(?:[ ](?-i:[A-Z]{2}))?(?![\w-])"
          r"|(?-i:[A-Z]{4})[ ]?[0-9]{4}[ ]?[0-9]{4}(?![\w-])"
          r"|(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?")
_SEPARATOR = r"[ \t]*(?:" + _NO + r"[ \t]*)?[:#=.]?[ \t]*(?:is[ \t]+)?\(?[ \t]*"


#: Lower-case literals at which every label starts (a prefix stands for every label it begins).
_LABEL_ANCHORS = (
    "ss", "soc", "mr", "med", "unit", "hospital", "chart", "acc", "billing", "mbi", "policy", "member",
    "subscriber", "beneficiary", "insurance", "health", "group", "vin", "vehicle", "lic", "plate", "dl",
    "driver", "dea", "npi", "cert", "serial", "s/n", "device", "udi", "id", "study", "order", "job", "path",
    "req", "case", "specimen", "encounter", "visit", "store", "pharmacy", "claim", "badge",
    "chi", "nhi", "nhs", "ohip", "ramq", "msp", "ihi", "philhealth", "enrol", "hmo", "card", "hosp", "uhid", "op",
    "ip", "reg", "our", "your", "ref", "folder", "file", "nric", "fin", "passport", "national", "payroll",
    "employee", "staff")


def _lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)`` on first use: a note runs only the forms whose literals
    and anchors it holds (:func:`matches`), so most start-ups need few of them."""
    return LazyPattern(re.compile, pattern, flags)


def _label_regex() -> LazyPattern:
    alts = "|".join(f"(?P<{sub}>{'|'.join(forms)})" for sub, forms in LABELS.items())
    return _lazy(rf"(?<![\w/])(?:{alts})(?![a-z]){_SEPARATOR}(?P<value>{_VALUE})(?![\w-])", _I)


#: A label whose identifier follows a few words later on its line, after ":", "=", "#", "is" or "was"
#: ("License plate noted for parking: ORE 4KJ-221"): only the labels that name nothing but an identifier
#: (not "ID", "policy", "account", "case"); the table's ``item FAR_LABELS.<subtype>`` rows.
FAR_LABELS = {sub: _T.items(f"FAR_LABELS.{sub}") for sub in
              ("SSN", "MEDICALRECORD", "HEALTHPLAN", "VEHICLE", "LICENSE", "DEVICE")}
# A plate or serial number is capitals and digits in up to three groups split by a space or a
# hyphen, the last with a digit ("ORE 4KJ-221", "PZX 448219"; not the "PT" of "MRN 00482913 PT seen").
_PLATE = r"(?-i:[A-Z0-9]{1,8}(?:[ -][A-Z0-9]{1,8})?[ -](?=[A-Z]*[0-9])[A-Z0-9]{1,8}(?![\w-]))"


def _far_label_regex() -> LazyPattern:
    alts = "|".join(f"(?P<{sub}>{'|'.join(forms)})" for sub, forms in FAR_LABELS.items())
    return _lazy(rf"(?<![\w/])(?:{alts})(?![a-z])(?:(?:[ \t]+[a-z][a-z'-]*){{0,6}}?[ \t]*"
                      rf"(?::|=|#|\bis\b|\bwas\b|\breads\b)|(?=[ \t]))[ \t]*(?P<value>{_PLATE}|{_VALUE})(?![\w-])",
                      _I)


# A phone number: (617) 555-0199, 617-555-0199, 617.555.0199, 617 555 0199, +1 617..., x12.
_PHONE = (r"(?<![\w/.+-])(?:\+?1[ \t.-]?)?(?:\([0-9]{3}\)[ \t]?|[0-9]{3}[ \t.-])[0-9]{3}[ \t.-][0-9]{4}"
          r"(?:[ \t]?(?:[xX]|(?i:ext)\.?)[ \t]?[0-9]{1,5})?(?![\w/%-]|\.[0-9])")

def _digit_led(pattern: str, lead: str = "[0-9]", flags: int = 0):
    """A ``regex`` pattern that first checks its leading character (``lead``): the ``regex``
    module then skips to such characters, several times faster than trying every position."""
    return LazyPattern(regex.compile, f"(?={lead}){pattern}", flags)


# A phone, fax or pager number after its label, seven digits too ("tel 555-0199", "pager 40917").
_PHONE_LABEL = (r"(?<![\w/])(?P<label>phone|telephone|tel|cell|mobile|pager|beeper|fax)\b[ \t]*(?:#|no\.?|number)?"
                r"[ \t]*[:#]?[ \t]*(?P<value>(?:\([0-9]{3}\)[ \t]?|[0-9]{3}[ \t.-])?[0-9]{3}[.-][0-9]{4}|[0-9]{4,7})"
                r"(?![\w/%-]|\.[0-9])")

#: Form name -> (subtype, regex, literals of which a match holds one (lower case) or None,
#: literals (lower case) at which every match starts, at the start of a word, or None).
#: With anchors the regex is tried only there (in ASCII text); else it scans the text.
FORMS = {
    "age_label": ("AGE", _lazy(rf"{_AGE_LABEL}(?P<value>{_AGE_NUM}|{_AGE_WORD}){_NOT_DURATION}(?![a-z])", _I),
                  ("age",), ("age",)),
    "age_years": ("AGE", _digit_led(rf"(?P<value>{_AGE_NUM})(?i:{_YEARS_OLD})", "[19]"), ("y",), None),
    # "is a 94M", "a 101 F": an age and a sex.
    "age_sex": ("AGE", _digit_led(
        r"(?=(?:9[0-9]|1[01][0-9]|12[0-5])[ \t]?[MF](?![\w']))(?<=\b(?:[Aa]n?|is|IS)[ \t]+)"
        r"(?P<value>9[0-9]|1[01][0-9]|12[0-5])[ \t]?[MF](?![\w'])", "[19]"), None, None),
    "age_word": ("AGE", _lazy(rf"(?<![a-z-])(?P<value>{_AGE_WORD}){_YEARS_OLD}", _I), ("ninety", "hundred"),
                 None),
    # Looked for from the decade (rare), the words before it behind.
    "age_decade": ("AGE", _digit_led(
        r"(?<=\b(?i:in)[ \t]+(?i:his|her|their)[ \t]+(?:(?i:early|mid|late)[ \t-]*)?)"
        r"(?P<value>90'?s|(?i:nineties)|100'?s)\b", "(?:9|10|(?i:ni))"),
        ("90s", "90's", "nineties", "100s", "100's"), None),
    "id_label": (None, _label_regex(), None, _LABEL_ANCHORS),
    "id_far_label": (None, _far_label_regex(), None, _LABEL_ANCHORS),
    "ssn": ("SSN", _digit_led(r"(?<![\w-])[0-9]{3}-[0-9]{2}-[0-9]{4}(?![\w-])"), ("-",), None),
    # Medicare beneficiary identifier (CMS format: 11 characters, no S L O I B Z).
    "mbi": ("HEALTHPLAN", _digit_led(
        r"(?<![\w-])[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9][0-9]-?[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9][0-9]-?"
        r"[AC-HJKMNP-RT-Y]{2}[0-9]{2}(?![\w-])", "[1-9]"), None, None),
    # Looked for from the digits (what is rare), the letters behind them.
    "letters_digits": ("IDNUM", _digit_led(r"(?<=(?<![\w-])(?P<start>[A-Z]{1,4}-?))[0-9]{6,}(?![\w-])"), None, None),
    "phone": ("PHONE", _digit_led(_PHONE, "[0-9(+]"), None, None),
    "phone_label": ("PHONE", _lazy(_PHONE_LABEL, _I), None,
                    ("phone", "telephone", "tel", "cell", "mobile", "pager", "beeper", "fax")),
    "email": ("EMAIL", _lazy(r"(?<![\w.+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w])"),
              ("@",), None),
    "url": ("URL", _lazy(r"(?<![^\s\x1c-\x1f])(?:(?:https?|ftp)://|www\.)[^\s\x1c-\x1f<>\"]*"
                              r"[^\s\x1c-\x1f<>\".,;:)\]]", _I),
            ("://", "www."), None),
    "domain": ("URL", _lazy(
        r"(?<![\w@.-])(?:[a-z0-9-]+\.)+(?:com|org|net|edu|gov)(?:/[^\s\x1c-\x1f<>\"]*[^\s\x1c-\x1f<>\".,;:)\]])?"
        r"(?![\w-])", _I),
        (".com", ".org", ".net", ".edu", ".gov"), None),
    # not a version number ("version 3.8.3.8", "v1.2.3.4", "ver. 4.0.4.0")
    "ip": ("IPADDR", _digit_led(
        r"(?<![\w.])(?<!\b[Vv]ersion )(?<!\b[Vv]er\. )(?<!\b[Vv]er )"
        r"(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])"
        r"(?!\w|\.[0-9])"), (".",), None),  # a full stop after it ends the sentence
    "newborn": ("PATIENT", _lazy(
        r"(?:\b(?i:baby)[ \t]+(?i:boy|girl)|\b(?:BB|BG))[ \t]+(?P<value>[A-Z][A-Za-z'-]*[A-Za-z](?:-[A-Z][A-Za-z]+)?)"
        r"(?![\w'-])"), ("baby", "bb", "bg"), ("baby", "bb", "bg")),
    "handle": ("USERNAME", _lazy(
        r"(?P<label>twitter|instagram|insta|tiktok|snapchat|facebook|threads|bluesky|handle)\b[^\n@]{0,20}?"
        r"(?<![\w.+-])(?P<value>@[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?)(?![\w@-]|\.\w)", _I),
        ("@",), ("twitter", "instagram", "insta", "tiktok", "snapchat", "facebook", "threads", "bluesky",
                 "handle")),
    "username_label": ("USERNAME", _lazy(
        r"(?:user[ \t]?name|user[ \t]?id|login[ \t]?id|screen[ \t]?name)[ \t]*(?::|=|is\b)[ \t]*@?"
        r"(?P<value>[A-Za-z0-9_.-]*[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9_])(?![\w@-])", _I),
        None, ("user", "login", "screen")),
    # Weekdays but "Sat"/"SAT" (oxygen saturation): "Tues 9/3", "Monday, 3/14/98".
    "weekday_date": ("DATE", _lazy(
        r"(?:monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu|friday|fri|saturday|sunday|sun)"
        r"\.?,?[ \t]+(?P<value>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12][0-9]|3[01])(?:/(?:[0-9]{4}|[0-9]{2}))?)"
        r"(?![\w/-]|\.[0-9])(?![ \t]*(?:ns|str|strength|of|tabs?|dose|%)\b)", _I),
        ("/",), ("monday", "mon", "tuesday", "tues", "tue", "wednesday", "wed", "thursday", "thurs", "thur", "thu",
                 "friday", "fri", "saturday", "sunday", "sun")),
}


@lru_cache(maxsize=1)
def _newborn_words() -> tuple[frozenset, frozenset]:
    """Plain words (common and clinical) and the 1,000 most frequent census surnames."""
    plain = gazetteers.load("common_words") | gazetteers.load("clinical_words")
    return plain, frozenset(w.lower() for w in gazetteers.entries("surnames")[:1000]) - _R.GLUCOSE_WORDS


def _surname_after_initials(word: str) -> bool:
    plain, frequent = _newborn_words()
    low = word.lower()
    return low not in plain or low in frequent


def prepare() -> None:
    """Load the word lists the layer reads and build its anchor regex (a model does this at load)."""
    _newborn_words()
    _anchor_regex()


def find(text: str) -> list[Span]:
    """The Safe Harbor identifiers in ``text``: sorted spans, possibly overlapping."""
    return sorted({sp for _, sp in matches(text)})


def matches(text: str) -> list[tuple[str, Span]]:
    """``(form name, span)`` of every identifier found in ``text`` (forms: :data:`FORMS`).

    Cheap substring checks skip the forms a text cannot hold; in ASCII text the forms
    with anchors are tried only where one starts a word, found in one pass over the
    text (as :mod:`crfdeid.recognizers.rules` does).
    """
    ascii_text = text.isascii()
    low = text.lower()
    digits = any(d in text for d in "0123456789")
    on = _forms_on(low, digits)
    found: list[tuple[str, Span]] = []
    if ascii_text:
        for a in _anchor_regex().finditer(low):
            for name in _ANCHOR_OF[a.group()]:
                if name in on:
                    sub, rx = FORMS[name][:2]
                    m = rx.match(text, a.start())
                    if m:
                        found.extend((name, sp) for sp in _spans(name, sub, m, text))
    for name in on:
        sub, rx, _, anchors = FORMS[name]
        if anchors is None or not ascii_text:
            for m in rx.finditer(text):
                found.extend((name, sp) for sp in _spans(name, sub, m, text))
    if digits:
        found.extend(fixedforms.matches(text))
        found.extend(dateforms.matches(text))
        found.extend(contextforms.matches(text))
        found.extend(postcodes.matches(text))
        found.extend(phones.matches(text, phones.country_of(text, [name for name, _ in found]),
                                    [sp for _, sp in found]))
        found.extend(phones.labelled(text, [sp for _, sp in found]))
        found.extend(phones.cued(text, [sp for _, sp in found]))
    return found


def country(text: str) -> str:
    """The country whose forms ``text`` holds (:func:`.phones.country_of`), ``US`` by default."""
    return phones.country_of(text, [name for name, _ in matches(text)])


def _forms_on(low: str, digits: bool) -> list[str]:
    """The forms a text can hold, in :data:`FORMS` order: a digit where they need one, and
    one of their literals (plain loops: this runs once per note)."""
    on = []
    for name, (_, _, needs, _) in FORMS.items():
        if not digits and name not in _R.NO_DIGIT_FORMS:
            continue
        if needs is not None:
            for literal in needs:
                if literal in low:
                    break
            else:
                continue
        on.append(name)
    return on


#: Anchor literal -> the forms it starts.
_ANCHOR_OF: dict[str, list[str]] = {}
for _name, (*_, _anchors) in FORMS.items():
    for _a in _anchors or ():
        _ANCHOR_OF.setdefault(_a, []).append(_name)


@lru_cache(maxsize=1)
def _anchor_regex() -> re.Pattern:
    """Every anchor at the start of a word, as one trie-shaped regex over lower-case text."""
    return re.compile(rf"(?<![a-z0-9])(?:{trie_pattern(_ANCHOR_OF)})")


def _spans(name: str, sub, m, text: str) -> list[Span]:
    if name in ("id_label", "id_far_label"):
        sub = next(k for k in (LABELS if name == "id_label" else FAR_LABELS) if m.group(k) is not None)
        value = m.group("value")
        if len(value) < MIN_LENGTH.get(sub, 4) or (sub == "SSN" and sum(c.isdigit() for c in value) != 9):
            return []
        return [make_span(m.start("value"), m.end("value"), sub)]
    if name == "newborn":
        word = m.group("value")
        if word.lower() in _R.NOT_SURNAMES or (m.group()[:2] in ("BB", "BG") and not _surname_after_initials(word)):
            return []
    if name == "phone_label" and m.group("label").lower() == "fax":
        sub = "FAX"
    if name == "phone" and _R.FAX_BEFORE.search(text, max(0, m.start() - 24), m.start()):
        sub = "FAX"
    group = "value" if "value" in m.re.groupindex else 0
    start = m.start("start") if "start" in m.re.groupindex else m.start(group)
    return [make_span(start, m.end(group), sub)]


def apply(text: str, spans, keep_predicted: bool = False) -> list[Span]:
    """``spans`` (predicted) with the Safe Harbor identifiers of ``text`` added.

    Nothing is removed: a found span joins the predicted spans it overlaps into their
    union, whose subtype is the first such predicted span's of the same category (with
    ``keep_predicted``, of any category: labels of another scheme), else the layer's.
    Found spans that overlap each other are joined too.

    >>> from crfdeid.document import make_span
    >>> apply("MRN 00482913", [make_span(4, 8, "PATIENT")])
    [Span(start=4, end=12, category='ID', subtype='MEDICALRECORD')]
    """
    found = find(text)
    if not found:
        return sorted(spans)
    out: list[Span] = []
    for group in overlap_groups(spans, found):
        layer = [sp for _, _, kind, sp in group if kind == 0]
        if not layer:
            out.extend(sp for *_, sp in group)
            continue
        start = min(g[0] for g in group)
        end = max(g[1] for g in group)
        same = [sp for _, _, kind, sp in group
                if kind == 1 and (keep_predicted or sp.category == layer[0].category)]
        keep = same[0] if same else layer[0]
        out.append(Span(start, end, keep.category, keep.subtype))
    return sorted(out)


def overlap_groups(predicted, found) -> list[list[tuple]]:
    """Predicted and found spans as runs of overlapping ones, in order: each a list of
    ``(start, end, kind, span)``, ``kind`` 1 for a predicted span and 0 for a found one."""
    items = sorted([(sp.start, sp.end, 1, sp) for sp in predicted] + [(sp.start, sp.end, 0, sp) for sp in found])
    groups: list[list[tuple]] = []
    end = -1
    for item in items:
        if groups and item[0] < end:
            groups[-1].append(item)
            end = max(end, item[1])
        else:
            groups.append([item])
            end = item[1]
    return groups
