"""Identifiers whose form is shared with clinical numbers, caught by the words beside them.

Part of the Safe Harbor layer (:mod:`.safeharbor` runs :func:`matches` in every model). A
four-digit postcode is also a dose, a six-digit PIN a count, ``4kd 229`` anything: each form
here is an identifier only with the evidence named in its entry of :data:`FORMS`:

* ``ZIP``: a US ZIP (``02139``, ``02139-4307``) after a state's code or name (``MA 02139``,
  ``Tennessee 37203``); a four-digit postcode (Australia, New Zealand, South Africa, Denmark,
  Belgium...) after an Australian state or territory's code (``NSW 2150``, ``vic 3000``); an
  Indian PIN (``400001``, ``400 001``) after an Indian state's name or a listed city and a dash
  (``Mumbai - 400001``); any of these, and five-digit European codes, after a postcode label
  (``postcode``, ``post code``, ``PIN``, ``pincode``, ``zip``, ``CEP``, ``PLZ``) or a
  comma-separated address line (``12 Smith Street, Parramatta 2150``), or before a listed city
  (``10115 Berlin``); an Irish Eircode (``D02 X285``, ``a65 f4e2``: a routing key and a
  four-character identifier holding a letter, or any with a label or address line); a UK
  postcode in any case with a street word or a town before it on its line (``14 Bellenden Road
  SE15 4QJ``, ``london se15 4qj``) or an outward code of two letters in upper case
  (``SE15 4QJ``: one letter and a digit, ``L4 5LD``, is also a spine level); a Canadian code in
  lower case with an address beside it;
* ``VEHICLE``: a plate in any case after ``plate``, ``rego``, ``registration``, ``reg``, ``tag``,
  ``car``, ``vehicle`` (``car reg 4kd 229``, ``plate: 3RT-519``): five to eight letters and digits
  with both, at least two digits, in up to three groups none of which is a plain word;
* ``IPADDR``: an IPv6 address that :mod:`ipaddress` accepts, with ``::`` or eight groups;
* ``HEALTHPLAN``: a number of five digits or more after ``group`` (``group 0038814``);
* ``AGE`` over 89 in prose: ``turned 94``, ``died at 96``, ``lived to 101``, ``her 95th
  birthday``, ``was 94 when he died``, ``her husband is 92``: a number of 90 to 125 after a
  relation's name and ``is``/``was`` (not after ``pt``: ``pt was 94 on RA`` is a saturation), or
  after the verbs of a life's length; no unit or ``%`` after it.

>>> [(name, sp.subtype) for name, sp in matches("Lives at 12 Smith St, Parramatta NSW 2150; rego 4kd 229")]
[('postal_au', 'ZIP'), ('plate_context', 'VEHICLE')]
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

import regex

from .. import gazetteers
from ..document import Span, make_span
from ..text.patterns import LazyPattern
from .fixedforms import ADDRESS_LINE, plain_words
from .ruledata import table

_R = table("contextforms").namespace()  # the patterns and words (crfdeid/_data/rules/contextforms.tsv)

_NUM_END = r"(?![\w/%-]|[.,][0-9])"
_NUM_START = r"(?<![\w.,/+-])"
# "postcode", "post code", "postal code", "PIN", "pincode", "zip (code)", "CEP", "PLZ", "Eircode".
_POSTAL_LABEL = (r"(?i:post[ \t]*code|postal[ \t]*code|pin[ \t]*code|pincode|zip(?:[ \t]*code)?|eircode|plz|cep"
                 r"|code[ \t]+postal|c[oó]digo[ \t]+postal)(?-i:|[ \t]*(?:PIN|Pin))|(?-i:PIN)")
_AU_STATES = r"(?:(?i:nsw|vic|qld|tas)|(?-i:SA|WA|NT|ACT))"
# Indian states and union territories (Constitution of India, First Schedule; written here).
_IN_STATES = ("andhra pradesh|arunachal pradesh|assam|bihar|chhattisgarh|goa|gujarat|haryana|himachal pradesh"
              "|jharkhand|karnataka|kerala|madhya pradesh|maharashtra|manipur|meghalaya|mizoram|nagaland|odisha"
              "|punjab|rajasthan|sikkim|tamil nadu|telangana|tripura|uttar pradesh|uttarakhand|west bengal"
              "|delhi|chandigarh|puducherry|ladakh|jammu and kashmir")
# Street words after which a UK postcode on the same line is an address (not "st": sinus tachycardia).
_STREET = (r"road|rd|street|lane|ln|avenue|ave|close|way|drive|crescent|place|gardens|terrace|grove|hill"
           r"|court|square|mews|row|walk|park|green|parade|rise|view")
_LIFE = r"(?:turned|turns|turning|died[ \t]+at|passed(?:[ \t]+away)?[ \t]+at|lived[ \t]+(?:to|until)|death[ \t]+at)"
_RELATION = (r"(?:husband|wife|spouse|partner|mother|mom|mum|father|dad|brother|sister|son|daughter|grandmother"
             r"|grandfather|grandma|grandpa|gran|nan|aunt|uncle|friend|neighbou?r|he|she)")
#: An age of 90 and over written in digits (90 to 125): the Safe Harbor ages (safeharbor's too).
AGE_OVER_89 = r"(?:9[0-9]|1[01][0-9]|12[0-5])"
_AGE = AGE_OVER_89
_NOT_UNIT = (r"(?![0-9%°]|\.[0-9]|[ \t]*(?:%|°|/|-[0-9]|mg|mcg|kg|lbs?\b|g\b|ml|mm|cm|bpm|beats|breaths|units?|deg"
             r"|percent|on\b|over\b|days?|d\b|h\b|hrs?|hours?|min|mins|minutes|weeks?|wks?|months?|mo\b))")


def _lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``regex`` compiled on first use (its ``\\p{..}`` classes and variable look-behinds)."""
    return LazyPattern(regex.compile, pattern, flags)


#: Form name -> (subtype, regex, check(match, text) -> bool, gate or None). The gate is what a
#: note must hold for the form to be scanned: lower-case literals (one of them), or a plain
#: ``re`` pattern searched in the lower-case note (cheaper than the form's look-behinds tried
#: everywhere). A gate pattern starts with a digit (what comes before it in a look-behind): ``re``
#: then skips to digits at C speed, 2-3x faster than trying every letter (the same notes pass).
#: The span is group ``v``.
FORMS: dict[str, tuple[str, LazyPattern, object, tuple[str, ...] | re.Pattern | None]] = {}


def _form(name: str, subtype: str, pattern: str, needs: tuple[str, ...] | str | None = None, flags: int = 0):
    def add(check):
        gate = re.compile(needs) if isinstance(needs, str) else needs
        FORMS[name] = (subtype, _lazy(pattern, flags), check, gate)
        return check
    return add


@_form("postal_us", "ZIP", r"(?=[0-9])(?<=\b(?P<st>[A-Z]{2}|\p{Lu}\p{Ll}+(?:[ \t]\p{Lu}\p{Ll}+)?),?[ \t]{1,2})"
       + _NUM_START + r"(?P<v>[0-9]{5}(?:-[0-9]{4})?)" + _NUM_END,
       r"[0-9](?:(?<=[a-z][ \t][0-9])|(?<=[a-z][ \t]{2}[0-9])|(?<=[a-z],[ \t][0-9])|(?<=[a-z],[ \t]{2}[0-9]))"
       r"[0-9]{4}(?![0-9])")
def _postal_us(m, text) -> bool:
    """Evidence: a US state's two-letter code or name right before five digits."""
    st = m.group("st")
    return st in _us_state_codes() or st.lower() in _us_state_names()


@_form("postal_au", "ZIP", rf"(?=[0-9])(?<=\b{_AU_STATES},?[ \t]{{1,2}})" + _NUM_START + r"(?P<v>[0-9]{4})" + _NUM_END,
       r"(?:nsw|vic|qld|tas|sa|wa|nt|act),?[ \t]{1,2}[0-9]{4}(?![0-9])")
def _postal_au(m, text) -> bool:
    """Evidence: an Australian state or territory's code right before four digits."""
    return True


@_form("postal_in", "ZIP", rf"(?=[1-9])(?<=\b(?:(?i:(?P<state>{_IN_STATES}))|(?P<city>\p{{Lu}}\p{{Ll}}+))"
       r"[ \t]*[-–,]?[ \t]*)"
       + _NUM_START + r"(?P<v>[1-9][0-9]{2}[ ]?[0-9]{3})" + _NUM_END,
       r"[1-9](?<![0-9][1-9])[0-9]{2} ?[0-9]{3}(?![0-9])")
def _postal_in(m, text) -> bool:
    """Evidence: an Indian state's name, or a listed city and a dash or comma, right before a PIN."""
    if m.group("state"):
        return True
    sep = text[m.end("city"):m.start("v")]
    return m.group("city").lower() in _cities() and bool(sep.strip())


@_form("postal_label", "ZIP", r"(?=[0-9])" + _NUM_START
       + r"(?P<v>[0-9]{4,5}(?:-[0-9]{3,4})?|[1-9][0-9]{2}[ ]?[0-9]{3})" + _NUM_END,
       r"(?:code|zip|pin|plz|cep|addr)[^\n]{0,48}[0-9]{4}|[0-9], [^\n]{0,40}[0-9]{4}|[0-9]{4,5} [a-z]")
def _postal_label(m, text) -> bool:
    """Evidence: a postcode or address label before the digits on their line, a comma-separated
    address line right before them, or a listed city right after them (``10115 Berlin``; four
    digits that could be a year, 1800-2199, not: ``Dec 2065 Augusta``). Never four digits after
    a month (``October 19, 2088``: a month and a day look like a street and a house number)."""
    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    value = m.group("v")
    year_like = len(value) == 4 and 1800 <= int(value) <= 2199
    if len(value) == 4 and _R.MONTH_BEFORE.search(line):
        return False
    if _R.POSTAL_LABEL_BEFORE.search(line) or ADDRESS_LINE.search(line):
        return True
    after = re.match(r"[ \t]{1,2}([^\W\d_][\w'-]*(?:[ \t][^\W\d_][\w'-]*)?)", text[m.end():m.end() + 40])
    if year_like or after is None or not after.group(1)[0].isupper():
        return False
    return after.group(1).lower() in _cities() or after.group(1).split()[0].lower() in _cities()


@_form("eircode", "ZIP", r"(?<![\w-])(?P<v>(?i:[AC-FHKNPRTV-Y][0-9]{2}|D6W)[ ]?(?i:[0-9AC-FHKNPRTV-Y]{4}))(?![\w-])",
       r"[0-9](?:(?<=[ac-fhknprtv-y][0-9])[0-9]|(?<=d6)w) ?[0-9ac-fhknprtv-y]{4}(?![a-z0-9])")
def _eircode(m, text) -> bool:
    """Evidence: an Eircode's routing key and a spaced identifier holding a letter and a digit
    (``D02 X285``), or any Eircode after a label or an address line (``Eircode A65 2345``)."""
    value = m.group("v")
    unique = value[-4:]
    if " " in value and any(c.isalpha() for c in unique) and any(c.isdigit() for c in unique):
        return True
    return _label_or_line(m, text)


@_form("postal_uk_context", "ZIP", r"(?<![\w-])(?P<v>(?i:[A-PR-UWYZ][A-HK-Y]?[0-9][0-9A-HJKMNPR-Y]?)[ ]"
       r"(?i:[0-9][ABD-HJLNP-UW-Z]{2}))(?![\w-])", r"[0-9][a-z0-9]? [0-9][a-z]{2}(?![a-z0-9])")
def _postal_uk(m, text) -> bool:
    """Evidence: in upper case, an outward code of two letters (``SE15 4QJ``); in any case, a
    street word or a town in title case before it on its line, a label or an address line."""
    value = m.group("v")
    if value.isupper() and value[1].isalpha():
        return True
    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    if regex.search(rf"(?i)\b(?:{_STREET})\b,?[ \t]*(?:\p{{L}}+[ \t]*,?[ \t]*){{0,2}}$", line):
        return True
    town = regex.search(r"(\p{Lu}\p{Ll}+),?[ \t]+$", line)
    return (bool(town) and town.group(1).lower() in _cities()) or _label_or_line(m, text)


@_form("postal_ca_lower", "ZIP", r"(?<![\w-])(?P<v>[abceghj-nprstvxy][0-9][abceghj-nprstv-z][ -]?[0-9]"
       r"[abceghj-nprstv-z][0-9])(?![\w-])", r"[0-9](?<=\b[a-z][0-9])[a-z][ -]?[0-9][a-z][0-9]\b")
def _postal_ca_lower(m, text) -> bool:
    """Evidence: a Canadian code in lower case with a label or address line before it, or a
    province's code (``on``, ``bc``, ``qc``...) right before it."""
    before = text[max(0, m.start() - 6):m.start()].lower()
    return bool(re.search(r"\b(?:ab|bc|mb|nb|nl|ns|nt|nu|on|pe|qc|sk|yt),?[ \t]+$", before)) or _label_or_line(m, text)


_PLATE_LABEL = (r"(?i:licen[cs]e[ \t]+plate|number[ \t]+plate|plates?|rego|registration|reg\.?|tag|car|vehicle)"
                r"(?![A-Za-z])(?:[ \t]+(?i:reg|rego|plate|registration|number|no\.?|#)(?![A-Za-z]))?")


@_form("plate_context", "VEHICLE", rf"\b{_PLATE_LABEL}(?:[ \t]+(?i:is|reads|was))?[ \t]*[:#]?[ \t]*"
       r"(?P<v>(?=[A-Za-z0-9 -]*[A-Za-z])(?:[A-Za-z]{1,3}|[A-Za-z0-9]{0,7}[0-9][A-Za-z0-9]{0,7})"
       r"(?:[ -](?:[A-Za-z]{1,3}|[A-Za-z0-9]{0,7}[0-9][A-Za-z0-9]{0,7})){0,2})(?![\w-])",
       r"(?:plate|rego|reg|tag|car|vehicle)[^\n]{0,24}[0-9]")
def _plate(m, text) -> bool:
    """Evidence: a plate word before it, five to eight letters and digits with both (ten with a
    state's prefix: ``TX KLM-4821``), two digits at least, and no group that is a plain word or a
    unit (``car seat 2``, ``vehicle 2 days``)."""
    value = m.group("v")
    chars = value.replace(" ", "").replace("-", "")
    groups = re.split(r"[ -]", value)
    if len(groups) > 1 and (groups[0] in _us_state_codes() or groups[0] in ("NSW", "VIC", "QLD", "TAS", "ACT")):
        groups = groups[1:]  # a state's prefix ("TX KLM-4821")
    return (5 <= len(chars) <= 10 and sum(c.isdigit() for c in chars) >= 2
            and not any(g.isalpha() and len(g) > 1 and (g.lower() in plain_words() or len(g) > 3) for g in groups))


@_form("ipv6", "IPADDR", r"(?<![\w:.])(?P<v>(?:[0-9A-Fa-f]{1,4}:|:)(?::?[0-9A-Fa-f]{1,4}|:){1,8}"
       r"(?:\.[0-9]{1,3}){0,3})(?![\w:])",
       r"::|:[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:")
def _ipv6(m, text) -> bool:
    """Evidence: :mod:`ipaddress` parses it as IPv6, and it holds ``::`` or eight groups (a
    time, ``12:30:45``, is neither)."""
    value = m.group("v")
    try:
        ipaddress.IPv6Address(value)
    except ValueError:
        return False
    return "::" in value or value.count(":") == 7


@_form("group_number", "HEALTHPLAN", r"\b(?i:group)[ \t]*(?:(?i:id|no\.?|number|#)[ \t]*)?[:#]?[ \t]*"
       r"(?P<v>[0-9]{5,}|(?=[A-Z0-9-]*[0-9]{3})[A-Z0-9][A-Z0-9-]{4,})" + _NUM_END, ("group",))
def _group(m, text) -> bool:
    """Evidence: ``group`` before five digits or more (an insurance group number)."""
    return True


@_form("age_life", "AGE", rf"\b(?i:{_LIFE})[ \t]+(?:(?i:the[ \t]+)?(?i:age[ \t]+of)[ \t]+)?(?P<v>{_AGE})" + _NOT_UNIT,
       ("turn", "died", "passed", "lived", "death"))
def _age_life(m, text) -> bool:
    """Evidence: the verbs of a life's length before a number of 90 to 125 (``turned 94``)."""
    return True


@_form("age_birthday", "AGE", rf"\b(?P<v>{_AGE})(?i:st|nd|rd|th)[ \t]+(?i:birthday)", ("birthday",))
def _age_birthday(m, text) -> bool:
    """Evidence: ``birthday`` after an ordinal of 90 to 125."""
    return True


@_form("age_prose", "AGE", rf"\b(?i:{_RELATION})(?:[ \t]*,)?[ \t]+(?i:who[ \t]+)?(?i:is|was|now|is[ \t]+now)"
       rf"[ \t]+(?P<v>{_AGE})" + _NOT_UNIT + r"(?=[ \t]*(?:[.,;)\n]|$|(?i:when|and|at|but|years?|yrs?|y/?o)\b))",
       r"(?:is|was|now)[ \t]+(?:9[0-9]|1[01][0-9]|12[0-5])(?![0-9])")
def _age_prose(m, text) -> bool:
    """Evidence: a relation or ``he``/``she`` and ``is``/``was`` before a number of 90 to 125 that
    ends its clause or stands before ``when``/``and`` (``her husband was 94 when he died``);
    not after ``pt``/``patient`` (``pt was 94 on RA``: a saturation)."""
    return True


@_form("age_after_name", "AGE", r"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?[ \t]+\p{Lu}[\p{L}'-]+(?:[ \t]+\p{Lu}[\p{L}'-]+){0,2}"
       rf",[ \t]*(?P<v>{_AGE})(?=[ \t]*[,;)]|[ \t]+(?i:y|yo|yrs?|years?)\b)",
       r"(?:mr|mrs|ms|miss|mx|dr)\.? [^\n]{0,40}, ?(?:9[0-9]|1[01][0-9]|12[0-5])\b")
def _age_after_name(m, text) -> bool:
    """Evidence: a title and a name, a comma, then a number of 90 to 125 standing alone before a
    comma (``Mr Jack Treloar, 92, from``): how a letter gives a person's age."""
    return True


@_form("extension", "PHONE", r"\b(?i:pager|bleep|beeper|ext|extension)\.?[ \t]*(?:(?i:no\.?|#|number)[ \t]*)?[:#]?"
       r"[ \t]*(?P<v>[0-9]-[0-9]{4}|[0-9]{4,6})" + _NUM_END, ("pager", "bleep", "beeper", "ext"))
def _extension(m, text) -> bool:
    """Evidence: a pager, bleep or extension word right before four to six digits (``bleep 2217``,
    ``Pager 4-8812``, ``ext. 4417``)."""
    return True


@_form("insurance_number", "HEALTHPLAN", r"\b(?i:insurance|insurer)(?:[ \t]+(?i:id|no\.?|number|#))?[ \t]*[:#]?[ \t]*"
       r"(?P<v>[A-Z0-9]{2,5}(?:[ -][A-Z0-9]{2,6}){1,4})(?![\w-])", ("insur",))
def _insurance(m, text) -> bool:
    """Evidence: ``insurance`` right before capitals and digits in groups holding five digits at
    least (``insurance BCX 447 901 223``)."""
    return sum(c.isdigit() for c in m.group("v")) >= 5


@_form("hash_number", "IDNUM", r"(?<![\w#&])#[ ]?(?P<v>[0-9]{6,})" + _NUM_END, ("#",))
def _hash_number(m, text) -> bool:
    """Evidence: ``#`` right before six digits or more (``#7715039``): a record's number, not a
    bed or a room (those are shorter)."""
    return True


@_form("specimen", "IDNUM", r"(?<![\w-])(?P<v>[A-Z]{1,4}-?[0-9]{2}-[0-9]{4,7})(?![\w-])",
       r"[0-9][0-9]-[0-9]{4}(?:(?<=[a-z][0-9]{2}-[0-9]{4})|(?<=[a-z]-[0-9]{2}-[0-9]{4}))")
def _specimen(m, text) -> bool:
    """Evidence: capitals, a two-digit year and a serial (``BM-25-1184``, ``S25-004417``): the
    shape of a pathology or laboratory accession number."""
    return True


def _label_or_line(m, text: str) -> bool:
    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    return bool(_R.POSTAL_LABEL_BEFORE.search(line) or ADDRESS_LINE.search(line))


@lru_cache(maxsize=1)
def _cities() -> frozenset:
    return frozenset(c.lower() for c in gazetteers.entries("cities"))


@lru_cache(maxsize=1)
def _us_state_codes() -> frozenset:
    return frozenset(a for a in gazetteers.entries("state_abbrevs") if len(a) == 2 and a.isupper())


@lru_cache(maxsize=1)
def _us_state_names() -> frozenset:
    return frozenset(s.lower() for s in gazetteers.entries("states"))


def matches(text: str) -> list[tuple[str, Span]]:
    """``(form name, span)`` of every identifier of :data:`FORMS` in ``text`` that passes its check."""
    found = []
    low = text.lower()
    for name, (subtype, rx, check, gate) in FORMS.items():
        if isinstance(gate, tuple) and not any(w in low for w in gate):
            continue
        if isinstance(gate, re.Pattern) and gate.search(low) is None:
            continue
        for m in rx.finditer(text):
            if check(m, text):  # type: ignore[operator]
                found.append((name, make_span(m.start("v"), m.end("v"), subtype)))
    return found
