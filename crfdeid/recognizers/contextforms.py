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
from functools import lru_cache, partial

import regex

from .. import gazetteers
from ..document import Span, make_span
from .fixedforms import ADDRESS_LINE, plain_words
from .ruledata import Checks, forms, lists, scan, table

_T = table("contextforms")  # the forms, their gates and patterns (crfdeid/_data/rules/contextforms.tsv)
_R = _T.namespace()

#: An age of 90 and over written in digits (90 to 125): the Safe Harbor ages (safeharbor's too).
AGE_OVER_89 = _T.source("AGE_OVER_89")


_CHECKS = Checks()  # the forms' checks by name


@_CHECKS.register("postal_us")
def _postal_us(m, text) -> bool:
    """Evidence: a US state's two-letter code or name right before five digits."""
    st = m.group("st")
    return st in _us_state_codes() or st.lower() in _us_state_names()


@_CHECKS.register("postal_in")
def _postal_in(m, text) -> bool:
    """Evidence: an Indian state's name, or a listed city and a dash or comma, right before a PIN."""
    if m.group("state"):
        return True
    sep = text[m.end("city"):m.start("v")]
    return m.group("city").lower() in _cities() and bool(sep.strip())


@_CHECKS.register("postal_label")
def _postal_label(m, text) -> bool:
    """Evidence: a postcode or address label before the digits on their line, a comma-separated
    address line right before them, or a listed city right after them (``10115 Berlin``; four
    digits that could be a year, 1800-2199, not: ``Dec 2065 Augusta``). Never four digits after
    a month (``October 19, 2088``: a month and a day look like a street and a house number)."""
    value = m.group("v")
    year_like = len(value) == 4 and 1800 <= int(value) <= 2199
    if len(value) == 4 and _R.MONTH_BEFORE.search(text[text.rfind("\n", 0, m.start()) + 1:m.start()]):
        return False
    if _label_or_line(m, text):
        return True
    after = _R.TOWN_AFTER.match(text[m.end():m.end() + 40])
    if year_like or after is None or not after.group(1)[0].isupper():
        return False
    return after.group(1).lower() in _cities() or after.group(1).split()[0].lower() in _cities()


@_CHECKS.register("eircode")
def _eircode(m, text) -> bool:
    """Evidence: an Eircode's routing key and a spaced identifier holding a letter and a digit
    (``D02 X285``), or any Eircode after a label or an address line (``Eircode A65 2345``)."""
    value = m.group("v")
    unique = value[-4:]
    if " " in value and any(c.isalpha() for c in unique) and any(c.isdigit() for c in unique):
        return True
    return _label_or_line(m, text)


@_CHECKS.register("postal_uk_context")
def _postal_uk(m, text) -> bool:
    """Evidence: in upper case, an outward code of two letters (``SE15 4QJ``); in any case, a
    street word or a town in title case before it on its line, a label or an address line."""
    value = m.group("v")
    if value.isupper() and value[1].isalpha():
        return True
    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    if _R.STREET_BEFORE.search(line):
        return True
    town = _R.TOWN_BEFORE.search(line)
    return (bool(town) and town.group(1).lower() in _cities()) or _label_or_line(m, text)


@_CHECKS.register("postal_ca_lower")
def _postal_ca_lower(m, text) -> bool:
    """Evidence: a Canadian code in lower case with a label or address line before it, or a
    province's code (``on``, ``bc``, ``qc``...) right before it."""
    before = text[max(0, m.start() - 6):m.start()].lower()
    return bool(_R.PROVINCE_BEFORE.search(before)) or _label_or_line(m, text)


@_CHECKS.register("plate_context")
def _plate(m, text) -> bool:
    """Evidence: a plate word before it, five to eight letters and digits with both (ten with a
    state's prefix: ``TX KLM-4821``), two digits at least, and no group that is a plain word or a
    unit (``car seat 2``, ``vehicle 2 days``)."""
    value = m.group("v")
    chars = value.replace(" ", "").replace("-", "")
    groups = _R.PLATE_GROUP_CUT.split(value)
    if len(groups) > 1 and (groups[0] in _us_state_codes() or groups[0] in _R.AU_PLATE_STATES):
        groups = groups[1:]  # a state's prefix ("TX KLM-4821")
    return (5 <= len(chars) <= 10 and sum(c.isdigit() for c in chars) >= 2
            and not any(g.isalpha() and len(g) > 1 and (g.lower() in plain_words() or len(g) > 3) for g in groups))


@_CHECKS.register("ipv6")
def _ipv6(m, text) -> bool:
    """Evidence: :mod:`ipaddress` parses it as IPv6, and it holds ``::`` or eight groups (a
    time, ``12:30:45``, is neither)."""
    value = m.group("v")
    try:
        ipaddress.IPv6Address(value)
    except ValueError:
        return False
    return "::" in value or value.count(":") == 7


@_CHECKS.register("insurance_number")
def _insurance(m, text) -> bool:
    """Evidence: ``insurance`` right before capitals and digits in groups holding five digits at
    least (``insurance BCX 447 901 223``)."""
    return sum(c.isdigit() for c in m.group("v")) >= 5


def _label_or_line(m, text: str) -> bool:
    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    return bool(_R.POSTAL_LABEL_BEFORE.search(line) or ADDRESS_LINE.search(line))


_cities = partial(lists, "cities")
_us_state_names = partial(lists, "states")


@lru_cache(maxsize=1)
def _us_state_codes() -> frozenset:
    return frozenset(a for a in gazetteers.entries("state_abbrevs") if len(a) == 2 and a.isupper())


#: Form name -> (subtype, regex, check, gate) (:func:`.ruledata.forms`; ``regex``: its ``\\p{..}`` classes
#: and variable look-behinds). A gate pattern is searched in the lower-case note and starts with a digit
#: (what comes before it in a look-behind): ``re`` then skips to digits at C speed, 2-3x faster than trying
#: every letter (the same notes pass).
FORMS = forms(_T, _CHECKS, regex.compile)


def matches(text: str) -> list[tuple[str, Span]]:
    """``(form name, span)`` of every identifier of :data:`FORMS` in ``text`` that passes its check (group ``v``)."""
    return [(name, make_span(m.start("v"), m.end("v"), sub)) for name, sub, m in scan(FORMS, text, lower_gates=True)]
