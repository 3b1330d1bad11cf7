"""Identifiers whose form gives them away wherever they stand: checksums and other countries' formats.

Part of the Safe Harbor layer (:mod:`.safeharbor`, which runs :func:`matches` in every
model). A checksum is evidence enough on its own (python-stdnum's checks, never hand-written
ones; an international number's length is phonenumbers'); a format that a lab value, a date
or a device setting can also have needs its context:

* ``ACCOUNT``: payment card numbers of 13-19 digits that pass the Luhn check, bare or in
  groups of four split by spaces or hyphens (``4007 0707 5369 0781``; American Express, Diners
  and JCB ``3782 822463 10005``), twelve with Maestro's prefix or a card label; IBANs that pass
  the mod-97 check, with or without spaces, in capitals or lower case (``GB56HXDO88167774656119``,
  ``nl91 abna 0417 1643 00``); a bank account number after its label in the IBAN countries'
  languages (``Konto``, ``rekeningnummer``, ``numero di conto``, ``cuenta``);
* ``SSN``: national identity numbers with a check digit: a Canadian SIN after its label
  (``SIN 130 692 544``, Luhn), a Dutch BSN (nine digits, the 11-test, after ``BSN``), a Swedish
  personnummer (``811228-9874``, Luhn), a Polish PESEL (eleven digits, weighted check, a valid
  birth date), a Spanish DNI/NIE (``12345678Z``, mod 23), a French NIR (``1 85 05 78 006 084
  36``, mod 97 key), an Aadhaar (``2345 6789 0124`` or after its label, Verhoeff), an
  Australian TFN after its label, an Irish PPS number (``1234567T``); ``HEALTHPLAN``: a UK NHS
  number (``943 476 5919``, mod 11);
* ``PHONE``: international numbers (``+46 (0)8 928 571 38``, ``+33 1 23 45 67 89``,
  ``001-215-555-0116x41``: 7 to 15 digits after ``+`` or ``00`` and a country code), national
  trunk numbers of 9 to 11 digits that start with ``0`` (``0494 92 82 32``, ``020 7946 0958``,
  ``(0117)4960912``, ``07780210241``, Sweden's ``08-17 01 76``), Brazil's ``14 1187-0986``, and four or
  five pairs of digits joined by the same ``-`` or ``.`` (``60-56-85-91``) or by spaces after
  a leading ``0`` (``01 23 45 67 89``): not ``60-56`` (a range), ``03-11-2021`` (a date);
* ``ZIP``: postal codes of other countries: Canadian (``B0J 2H0``, the letters Canada Post
  uses), and beside an address (a city word after them, a comma-separated address line, or
  an address word before them on the line) Dutch (``1234 AB``) codes (the UK form and the dash
  form, ``53-320``, ``3610-114``, left in the diet of 2026-11-26: the layer's other forms find their
  made-up codes, docs/rules.md);
* ``VEHICLE``: a plate of letters and digits after ``plate`` (``plate 7ABC123``);
* ``IDNUM`` and ``SSN``: a national number after one of its scheme's names in python-stdnum's catalogue
  (``crfdeid/_data/id_schemes.tsv``: ``RUT 14.582.361-7``, ``HETU 120339-417N``) that passes the scheme's own
  check (:func:`scheme_numbers`, form ``scheme_label``; branch schemes36, docs/history/check36-rule.md).

>>> [(name, sp.subtype) for name, sp in matches("card 4007070753690781, tel +46 (0)8 928 571 38")]
[('card', 'ACCOUNT'), ('phone_intl', 'PHONE')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache, partial

from .. import gazetteers
from ..document import Span, make_span
from ..text.patterns import LazyModule
from . import phones
from .ruledata import Checks, forms, lists, scan, table

_T = table("fixedforms")  # the forms, their gates and patterns (crfdeid/_data/rules/fixedforms.tsv)
_R = _T.namespace()

# python-stdnum's checks, imported on a note's first candidate number (start-up, issue 53)
std_iban = LazyModule("stdnum.iban")
std_luhn = LazyModule("stdnum.luhn")
ca_sin = LazyModule("stdnum.ca.sin")
es_dni = LazyModule("stdnum.es.dni")
es_nie = LazyModule("stdnum.es.nie")
gb_nhs = LazyModule("stdnum.gb.nhs")
in_aadhaar = LazyModule("stdnum.in_.aadhaar")
mod_97_10 = LazyModule("stdnum.iso7064.mod_97_10")


def _valid(module, value: str) -> bool:
    """python-stdnum's check of ``value`` (its own compaction of spaces and hyphens)."""
    is_valid = module.is_valid  # outside the try: a failed import is an error, not "no number"
    try:
        return bool(is_valid(value))
    except Exception:  # a value stdnum cannot even compact is no such number
        return False


def digits(s: str) -> str:
    """The digits of ``s`` in order (a number as its check digits read it, whatever separates them)."""
    return "".join(c for c in s if c.isdigit())


#: A comma-separated address line before a code: a house number beside a word, then a comma.
ADDRESS_LINE = _R.ADDRESS_LINE

_CHECKS = Checks()  # the forms' checks by name


@_CHECKS.register("card")
def _card(m, text) -> bool:
    """Evidence: the Luhn check (python-stdnum) on 13 to 19 digits, bare, in fours, or in the
    4-6-5 and 4-6-4 groups of American Express, Diners and JCB cards; twelve digits (a Maestro
    card's least) only with Maestro's issuer prefix (50, 56-69, ISO/IEC 7812 as the networks
    publish it) or a card label before them (``card``, ``carte``, ``Karte``, ``tarjeta``...)."""
    d = digits(m.group())
    if not (12 <= len(d) <= 19 and _valid(std_luhn, d) and len(set(d)) > 2):
        return False
    return len(d) > 12 or d[:2] == "50" or "56" <= d[:2] <= "69" or bool(
        _R.CARD_LABEL.search(text, max(0, m.start() - 30), m.start()))


# In capitals, or in lower case with a digit in every group after the first (not "... 1161 asap"); the
# same in lower case ending in a short group of letters (Brazil's "br25 6246 ... 275m j").
@_CHECKS.register("iban", "iban_tail")
def _iban_ok(m, text) -> bool:
    """Evidence: the mod-97 check of ISO 13616 (python-stdnum), in either case; a number whose
    length is not its country's (a typo, a bank's own layout) still passes on its check, one
    string in 97 would by chance."""
    value = m.group().upper()
    if _valid(std_iban, value):
        return True
    compact = value.replace(" ", "")
    if not compact[:2].isalpha() or any(not c.isalnum() for c in compact):
        return False
    return _valid(mod_97_10, "".join(str(int(c, 36)) for c in compact[4:] + compact[:4]))


# A bank account number after its label in the languages of the IBAN countries (an English
# "account" label is :mod:`.safeharbor`'s).
@_CHECKS.register("bank_account")
def _bank_account(m, text) -> bool:
    """Evidence: the label; the value's groups each hold a digit, six at least in all
    (``Konto 0610 3466 9629``; not ``rib fx 10 11``)."""
    return sum(c.isdigit() for c in m.group("v")) >= 6


# After its label (within 60 characters: "social insurance number on the old form, 454-196-783", planted47): three
# groups of three digits are a Spanish or French phone number's shape too.
@_CHECKS.register("sin")
def _sin(m, text) -> bool:
    return _valid(ca_sin, digits(m.group())) and bool(_R.SIN_LABEL.search(text, max(0, m.start() - 60), m.start()))


@_CHECKS.register("nhs")
def _nhs_ok(m, text) -> bool:
    d = digits(m.group())
    # bare ten digits: with "NHS" before them (else a US phone number written without separators)
    before = text[max(0, m.start() - 30):m.start()]
    return _valid(gb_nhs, d) and (m.group("s") != "" or bool(_R.NHS_BEFORE.search(before)))


@_CHECKS.register("dni")
def _dni_ok(m, text) -> bool:
    value = m.group().replace("-", "")
    return _valid(es_nie if value[0] in "XYZ" else es_dni, value)


# Aadhaar: twelve digits in groups of four (Verhoeff), or bare after its label.
@_CHECKS.register("aadhaar")
def _aadhaar(m, text) -> bool:
    spaced = m.group("s") != ""
    return _valid(in_aadhaar, m.group()) and (spaced or bool(_R.AADHAAR_LABEL.search(text, max(0, m.start() - 30),
                                                                                     m.start())))


#: What a form whose evidence is python-stdnum's check alone gives the check (the table's ``STDNUM_CHECKS``).
_VALUES = {"digits": lambda m: digits(m.group()), "match": lambda m: m.group(), "upper": lambda m: m.group().upper(),
           "vdigits": lambda m: digits(m.group("v"))}


def _stdnum_check(module: str, value: str) -> Callable:
    """The check of a form whose evidence is the python-stdnum module ``module``'s check of ``value``."""
    std, get = LazyModule(f"stdnum.{module}"), _VALUES[value]
    return lambda m, text: _valid(std, get(m))


for _name, _how in _T.mapping("STDNUM_CHECKS").items():
    _CHECKS[_name] = _stdnum_check(*_how.split())


@_CHECKS.register("phone_intl")
def _phone_intl(m, text) -> bool:
    """Evidence: ``+`` (or ``00``) and a country code (or ``(+34)``, its brackets in the span),
    then digits in a phone's groups, with lengths phonenumbers holds possible for that code,
    or nine digits or more whatever it holds (fail closed: a number too short for its country
    is a typo's, still a number); after ``00`` the code must be one phonenumbers knows
    (``0002-3227-30`` is a drug's code). The bracketed code (2026-11-26) widens a find, removes none:
    on the made-up Spanish BRAT proxy (docs/languages.md) ``(+34) 912 ...`` had lost its ``(``; no
    made-up set of other countries or styles holds ``(+NN)``, and their output is unchanged."""
    value = _R.EXTENSION_END.sub("", m.group())
    value = value[1:].replace(")", "", 1) if value.startswith("(") else value  # "(+34) 912..."
    if value.startswith("00"):
        if _R.NDC_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            return False
        value = "+" + value[2:]
        if not phones.known_country_code(value):
            return False
    return len(digits(value)) >= 9 or phones.possible_international(value)


# A national number with its trunk "0", in three or more groups ("0494 92 82 32", "020 7946 0958"),
# or in two after an area code ("0121 4960334", "(0117)4960912", "(022) 5828327", "0294-696037"), or
# bare ("07780210241"); Sweden's mixed groups ("08-17 01 76", "049-614 20 98"); Brazil's area
# code and "NNNN-NNNN" ("14 1187-0986"); New Zealand's "(04) 759-4212".
@_CHECKS.register("phone_trunk")
def _phone_trunk(m, text) -> bool:
    """Evidence: the shape (a trunk ``0`` and an area code in brackets or before a group, or
    Brazil's ``NN NNNN-NNNN``) and 9 to 11 digits (8 in Sweden's mixed groups); not after
    ``NDC`` (a drug's National Drug Code, ``0002-3227-30``); Brazil's shape not when its two
    groups of four are times of day (``88 0700-1245``: a year and a shift)."""
    d = digits(m.group())
    low = 8 if _R.SWEDEN_GROUPS.fullmatch(m.group()) else 9
    brazil = _R.BRAZIL.fullmatch(m.group())
    if brazil and all(int(t[:2]) < 24 and int(t[2:]) < 60 for t in brazil.groups()):
        return False  # a year and a time range ("28 Oct, 88 0700-1245")
    return low <= len(d) <= 11 and not _R.NDC_BEFORE.search(text, max(0, m.start() - 12), m.start())


# Canadian postal codes: the letters Canada Post uses, with a space or hyphen (bare: beside an address).
@_CHECKS.register("postal_ca")
def _postal_ca(m, text) -> bool:
    return m.group("s") != "" or _address_context(m, text)


@_CHECKS.register("postal_nl")
def _postal_nl(m, text) -> bool:
    # not a unit or a clinical abbreviation ("1400CC", "2200 PT"), unless a listed city follows
    after = _R.CITY_AFTER.match(text, m.end())
    if after and after.group(1).lower() in gazetteers.load("cities"):
        return True
    return m.group("l").lower() not in plain_words() | abbreviations() and _address_context(m, text)


#: Common and clinical words (a group of letters that is one is no identifier's).
plain_words = partial(lists, "common_words", "clinical_words")


@lru_cache(maxsize=1)
def abbreviations() -> frozenset:
    """Clinical abbreviations, function words and unit letters, lower case (a group of letters that is one is no
    identifier's)."""
    return lists("clinical_abbrevs", "stop_words") | _R.UNIT_LETTERS


_VERB_ENDINGS = _T.entries("VERB_ENDINGS")


def unplain(low: str) -> bool:
    """A lower-case word in no common or clinical list and without a verb's or an adverb's ending."""
    return low not in plain_words() and not low.endswith(_VERB_ENDINGS)


def _address_context(m, text: str) -> bool:
    """A postal code's neighbours: a city word after it (``53-320 Wrocław``: a listed city, or
    a word in title case that is no plain word or verb form), a comma-separated address line (a
    comma right before it, after a house number and a word: ``Polna 5, 53-320``), or an address
    or postcode label before it on its line (``address:``, ``Adresse``, ``postcode``)."""
    after = _R.CITY_AFTER.match(text, m.end())
    if after:
        word = after.group(1)
        low = word.lower()
        if low in gazetteers.load("cities") or (word[1:].islower() and unplain(low)):
            return True
    line_start = text.rfind("\n", 0, m.start()) + 1
    before = text[line_start:m.start()]
    if ADDRESS_LINE.search(before):
        return True
    return bool(_R.ADDRESS_CUE.search(before))


#: Form name -> (subtype, regex, check, gate) (:func:`.ruledata.forms`). Forms are scanned from their
#: leading character (the look-ahead each row starts with), with ``re`` (several times faster on these
#: digit forms than ``regex``; every row is ``re`` syntax: tests/test_ruledata.py).
#: A gate pattern starts with one digit class (what comes before it in a look-behind, ``[0-9][0-9]{5}``,
#: not ``[0-9]{6}``): ``re`` then skips to digits at C speed, 2-3x faster.
FORMS = forms(_T, _CHECKS, re.compile)


#: Forms of eight digits or more (a few separators between them): not looked for in a note
#: without such a run (most notes: one scan instead of one per form).
LONG = _R.LONG


@lru_cache(maxsize=1)
def _schemes() -> tuple[re.Pattern, dict[str, tuple[tuple[str, str], ...]], dict[str, set[str]]]:
    """The label words of python-stdnum's catalogue of national numbers (:func:`.gazetteers.id_schemes`) as one
    regex, and each word's ``(module, subtype)`` in lower case. A word that is a common or clinical word in
    lower case (``IN``, ``CC``, ``PIN``) is read in the catalogue's case only."""
    from .rules import trie_pattern  # rules imports this module

    by_word: dict[str, list[tuple[str, str]]] = {}
    exact: dict[str, set[str]] = {}  # a common or clinical word in lower case -> its catalogue spellings
    for module, sub, words, _ in gazetteers.id_schemes():
        for word in words:
            by_word.setdefault(word.lower(), []).append((module, sub))
            if word.lower() in plain_words():
                exact.setdefault(word.lower(), set()).add(word)
    rx = re.compile(rf"(?<![\w.])(?P<l>{trie_pattern(by_word)})(?![\w])"
                    r"[ \t]*(?:[:#]|(?:n[ºo°]|nr|no)\.?)?[ \t]*:?[ \t]*(?P<v>\S+(?:[ \t]\S+){0,6})", re.I)
    return rx, {w: tuple(dict.fromkeys(m)) for w, m in by_word.items()}, exact


def scheme_numbers(text: str) -> list[Span]:
    """A national number after one of its scheme's names (``RUT 14.582.361-7``, ``HETU 120339-417N``,
    ``rodné číslo 445816/218``, ``SVNR 5999 120368``) that passes the scheme's own python-stdnum check:
    the label and the check digit together are the evidence, IDNUM (SSN for social security numbers). The
    value is one to seven groups (the longest that passes), or a group's head before a check suffix
    the scheme does not hold (Peru's ``DNI 45012739-1``: the span keeps the whole group).
    The catalogue and its label words are data (``crfdeid/_data/id_schemes.tsv``, python-stdnum's country
    modules); on the 43 development sets every one of its 230 matches is a marked identifier.

    >>> [(text[s.start:s.end], s.subtype) for text in ["RUT: 14.582.361-7   Ficha 3"] for s in scheme_numbers(text)]
    [('14.582.361-7', 'IDNUM')]
    >>> scheme_numbers("in a rut 12 months; CPF 123.456.789-00")
    []
    """
    rx, by_word, exact = _schemes()
    found = []
    for m in rx.finditer(text):
        label = m.group("l")
        schemes = by_word.get(label.lower())  # None for a label re matched by case folding (``cı``): no label
        if schemes is None or label not in exact.get(label.lower(), (label,)):
            continue
        ends = [g.end() for g in _GROUP.finditer(m.group("v")) if any(c.isalnum() for c in g[0])]
        for k, end in enumerate(reversed(ends)):
            value = m.group("v")[:end].rstrip(".,;:)")
            got = _scheme_of(schemes, value) or (k == len(ends) - 1 and _scheme_of(schemes, _SUFFIX.split(value, 1)[0]))
            if got:
                found.append(make_span(m.start("v"), m.start("v") + len(value), got))
                break
    return found


_GROUP, _SUFFIX = re.compile(r"\S+"), re.compile(r"[-/]")


@cache
def _module(name: str) -> LazyModule:
    return LazyModule(name)


def _scheme_of(schemes: tuple[tuple[str, str], ...], value: str) -> str | None:
    """The subtype of the first scheme whose check ``value`` passes (four digits at least), else None."""
    if sum(c.isdigit() for c in value) < 4:
        return None
    return next((sub for module, sub in schemes if _valid(_module(module), value)), None)


def matches(text: str) -> list[tuple[str, Span]]:
    """``(form name, span)`` of every identifier of :data:`FORMS` in ``text`` that passes its check (its
    ``v`` group when it has one), and of :func:`scheme_numbers` (``scheme_label``; :func:`.safeharbor.matches`
    drops those another form of the layer takes, so that a BSN keeps its form's ``SSN``)."""
    found = []
    for name, sub, m in scan(FORMS, text, skip=() if _R.EIGHT_DIGITS.search(text) else LONG):
        if sub == "PHONE" and _R.FAX_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            sub = "FAX"
        g = "v" if "v" in m.re.groupindex else 0
        found.append((name, make_span(m.start(g), m.end(g), sub)))
    return found + [("scheme_label", sp) for sp in scheme_numbers(text)]
