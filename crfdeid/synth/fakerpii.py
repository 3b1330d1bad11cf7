"""General PII sentences whose values come from Faker: a measurement the Safe Harbor forms' authors did not write.

:mod:`crfdeid.synth.piiforms` writes values and rules by the same hands; here the values are
Faker's (MIT, ``pip install crfdeid[eval]``), drawn from the providers of many locales:
``credit_card_number`` of every card type, ``iban`` and ``bban``, ``phone_number``,
``msisdn`` and ``country_calling_code`` with a national number, ``ipv4``, ``ipv4_private``,
``ipv6``, and ``postcode`` alone or inside a whole ``address()`` of its locale. The frames
around them are written here in voices unlike piiforms' (chat, forms, e-mail signatures, log
lines, lower case, no label, several values in one sentence), and the look-alikes hold no PHI
(lab values, doses, times, years, versions, ICD and CPT codes, percentages, settings).

One sentence a document; its group (``doc.group``) is the form (``card``, ``iban``, ``bban``,
``phone``, ``ip``, ``postal``), ``several`` (values of different forms in one sentence) or
``lookalike``; gold spans are the inserted values (the postcode only, in an address).
``python -m crfdeid experiments safeharbor fakerpii:2000,5 --by-group`` gives recall and false
alarms per form. Deterministic in the seed and the list of locales (Faker is seeded per
sentence).

>>> docs = sentences(14, seed=3)  # doctest: +SKIP
>>> sorted({d.group for d in docs}) == sorted(set(KINDS))  # doctest: +SKIP
True
>>> all(d.text[sp.start:sp.end].strip() == d.text[sp.start:sp.end] for d in docs for sp in d.spans)  # doctest: +SKIP
True

(Skipped as doctests: Faker is the ``eval`` extra's; ``tests/test_fakerpii.py`` runs them.)
"""

from __future__ import annotations

import ipaddress
import random
import re
from collections.abc import Iterator
from functools import cache

from ..document import Document, make_span
from ..errors import ReaderError
from ..io import READERS

#: Sentence kinds, in turn: each form twice in fourteen sentences, ``several`` and ``bban`` once.
KINDS = ("card", "phone", "iban", "postal", "ip", "lookalike", "card", "phone", "iban", "postal", "ip", "lookalike",
         "several", "bban")
#: Locales drawn from by default (Faker's providers of each: its phone formats, banks, addresses).
LOCALES = ("en_US", "en_GB", "en_CA", "en_AU", "en_NZ", "en_IE", "en_IN", "de_DE", "fr_FR", "nl_NL", "es_ES", "it_IT",
           "pl_PL", "pt_BR", "sv_SE")
_SUBTYPE = {"card": "ACCOUNT", "iban": "ACCOUNT", "bban": "ACCOUNT", "phone": "PHONE", "ip": "IPADDR", "postal": "ZIP"}
_CARD_TYPES = ("amex", "diners", "discover", "jcb15", "jcb16", "maestro", "mastercard", "visa13", "visa16", "visa19")
_POSTCODE_TOKEN = re.compile(r"\{\{\s*(?:postcode|postalcode|zipcode)\s*\}\}")

# Frames: "{v}" is the value (a second "{w}" in some); written for this module, in voices unlike
# piiforms' ("Her card number is ..."). Lower-case frames are lowered with their value.
FRAMES = {
    "card": ("Card: {v}", "hey can u put the copay on {v} thx", "Payment method -- {v} (exp {exp})",
             "Dear billing office,\nplease refund the deposit to {v}.\nThanks", "{v} was declined twice today",
             "cc {v}", "Kartennummer {v}", "numéro de carte : {v}", "paid w/ {v} at the front desk",
             "two cards on the account, {v} and {w}"),
    "iban": ("IBAN {v}", "pls wire it to {v} asap", "Bankverbindung: {v}", "iban:{v}",
             "refund → {v}", "Refund to account {v}, reference copay", "transfer from {v} to {w} failed",
             "RIB / IBAN : {v}", "{v}", "her bank details are {v} (joint)"),
    "bban": ("Account no. {v}", "bank account: {v}", "Konto {v}", "acct {v}", "Rekeningnummer {v}",
             "numero di conto {v}"),
    "phone": ("ring me on {v}", "Tel.: {v}", "Mobile - {v}", "reach her at {v} or {w}", "{v} (home)",
              "whatsapp {v}", "Kind regards,\nWard 5 reception\nT: {v}", "call back {v} after lunch",
              "Telefon {v}", "tél. {v}", "contact number {v}", "pls text {v} when ready"),
    "ip": ("login from {v}", "IP: {v}", "ssh to {v} timed out", "{v} - - \"GET /portal/results\" 200 5120",
           "allowed hosts {v}, {w}", "the tablet had address {v} on the ward wifi", "src={v} dst={w} port 443",
           "VPN client {v}"),
    "postal": ("postcode: {p}", "zip {p}", "{address}", "Send to:\n{address}", "moved to {address_line} last month",
               "{city} {p}", "PLZ {p}", "her address is {address_line}", "code postal {p}",
               "Address\n{address}\nPhone: see chart"),
}
_LOWER_SHARE = 0.2
_LOOKALIKES = (
    "K {a}.{b}, Na 13{b}, Cl 10{a}, HCO3 2{b}", "paracetamol {a}00 mg q6h, max {a} g/day", "pH 7.3{a} pCO2 4{b}",
    "NaCl 0.9% at {a}0 mL/h", "Hb 1{a}.{b} g/dL, plt 2{a}{b} x10^9/L", "seen at 1{a}:{b}5, reviewed 0{a}:3{b}",
    "app version {a}.{b}.{a}", "firmware {a}.{b}.{a}{b}", "dx E11.{a}, I10, N18.{b}", "ICD-10 S72.00{a}A",
    "CPT 9921{a} billed", "EF 4{a}%, sats 9{b}%", "BP 1{a}{b}/7{a}, HR 8{b}", "PEEP {a}, FiO2 0.{a}{b}, RR 1{b}",
    "since 20{a}{b}, worse in 20{b}{a}", "INR {a}.{b} (target 2-3)", "weight {a}{b}.{a} kg, BMI 2{b}.{a}",
    "lot 2{a}{b}{a}, ref range 3.5-5.{b}", "GCS 1{a} (E4 V{b} M6)", "ratio 1:{a}, {a}{b} breaths/min",
    "bed {a}, room 4{a}{b}, floor {b}", "LDL {a}.{b} mmol/L, HbA1c {a}{b} mmol/mol", "score {a}/{b}0, grade {a}",
    "v{a}.{b}.{a}-rc{b} build 1{a}{b}{a}", "dose {a}.{b} mg/kg x {a} days, then {a}{b}0 units",
)


@cache
def _faker(locale: str):
    """Faker of ``locale`` (an optional extra: its absence is named before anything starts)."""
    try:
        from faker import Faker
    except ImportError as err:
        raise ReaderError("the fakerpii reader needs Faker: pip install 'crfdeid[eval]'", path=locale) from err
    return Faker(locale)


def _card(f, rng: random.Random) -> str:
    number = f.credit_card_number(rng.choice(_CARD_TYPES))
    style = rng.randrange(4)
    if style == 0 or len(number) not in (14, 15, 16):
        return number
    sep = " " if style < 3 else "-"
    if len(number) == 16:
        return sep.join(number[i:i + 4] for i in range(0, 16, 4))
    return sep.join((number[:4], number[4:10], number[10:]))  # American Express, Diners


def _iban(f, rng: random.Random) -> str:
    number = f.iban()
    if rng.random() < 0.5:
        return " ".join(number[i:i + 4] for i in range(0, len(number), 4))
    return number


def _phone(f, rng: random.Random, labelled: bool = False) -> str:
    """A phone number; the bare digits of an MSISDN only where a phone label stands before it."""
    r = rng.random()
    if r < 0.6:
        return f.phone_number()
    if r < 0.75:
        return "+" + f.msisdn()
    if r < 0.85 and labelled:
        return f.msisdn()
    if r < 0.85:
        return f.phone_number()
    national = f.numerify(rng.choice(("### ### ###", "## #### ####", "#########", "### #######", "(#) ### ####")))
    return f"{f.country_calling_code()} {national}"


def _ip(f, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.4:
        return f.ipv4()
    if r < 0.7:
        return f.ipv4_private()
    value = f.ipv6()
    return str(ipaddress.IPv6Address(value)) if rng.random() < 0.5 else value  # compressed (::) or full


def _address(f, rng: random.Random, locale: str) -> tuple[str, str] | None:
    """A whole address of ``locale`` and the postcode inside it (the formats' postcode token
    filled last, so that the gold span is the value Faker drew)."""
    formats = next((p.address_formats for p in f[locale].providers if hasattr(p, "address_formats")), None)
    if not formats:
        return None
    fmt = rng.choice(list(formats)).replace("{{postcode_city_province}}", "{{postcode}}, {{city}}")
    if not _POSTCODE_TOKEN.search(fmt):
        return None
    code = f.postcode()
    head, _, tail = _POSTCODE_TOKEN.sub("\x00", fmt, count=1).partition("\x00")
    return f.parse(head) + code + f.parse(tail), code


def _fill(frame: str, values: dict[str, str]) -> tuple[str, list[tuple[int, int]]]:
    """``frame`` with its fields filled, and the offsets of the fields that are gold (v, w, p)."""
    out, gold, pos = [], [], 0
    for m in re.finditer(r"\{(\w+)\}", frame):
        out.append(frame[pos:m.start()])
        start = sum(map(len, out))
        value = values[m.group(1)]
        out.append(value)
        if m.group(1) in ("v", "w", "p"):
            gold.append((start, start + len(value)))
        pos = m.end()
    out.append(frame[pos:])
    return "".join(out), gold


_PHONE_LABEL = re.compile(r"(?i)\b(?:tel|mobile|whatsapp|telefon|tél|contact number|T:)")


def _value(kind: str, f, rng: random.Random, frame: str = "") -> str:
    if kind == "phone":
        return _phone(f, rng, bool(_PHONE_LABEL.search(frame)))
    return {"card": _card, "iban": _iban, "ip": _ip}[kind](f, rng) if kind != "bban" else f.bban()


def _sentence(kind: str, f, rng: random.Random, locale: str) -> tuple[str, list]:
    if kind == "lookalike":
        return rng.choice(_LOOKALIKES).format(a=rng.randint(1, 9), b=rng.randint(0, 9)), []
    if kind == "several":
        first, second = rng.sample(("card", "iban", "phone", "ip"), 2)
        v, w = _value(first, f, rng), _value(second, f, rng)
        text, gold = _fill(rng.choice(("{v} / {w}", "Details: {v}; {w}", "use {v} (or {w} if that fails)",
                                       "{v}\n{w}")), {"v": v, "w": w})
        return text, [(a, b, _SUBTYPE[k]) for (a, b), k in zip(gold, (first, second))]
    frame = rng.choice(FRAMES[kind])
    if kind == "postal":
        got = _address(f, rng, locale)
        if got is None:
            got = ("", f.postcode())
        address, code = got
        line = address.replace("\n", ", ")
        if "{address" in frame and address:
            field = "address" if "{address}" in frame else "address_line"
            written = address if field == "address" else line
            before, _, after = frame.partition("{" + field + "}")
            text = before + written + after
            start = len(before) + written.index(code)
            gold = [(start, start + len(code))]
        else:
            text, gold = _fill(frame.replace("{address}", "{p}").replace("{address_line}", "{p}"),
                               {"p": code, "city": f.city()})
        return text, [(a, b, "ZIP") for a, b in gold]
    values = {"v": _value(kind, f, rng, frame), "w": _value(kind, f, rng, frame), "exp": f.credit_card_expire()}
    text, gold = _fill(frame, values)
    return text, [(a, b, _SUBTYPE[kind]) for a, b in gold]


def sentences(n: int, seed: int = 5, locales: tuple[str, ...] = LOCALES) -> list[Document]:
    """``n`` sentences, the kinds of :data:`KINDS` in turn, locales at random, with gold spans.

    Parameters
    ----------
    n : int
        Number of sentences (documents ``fk-0000``...).
    seed : int
        Seed of the choices and of Faker (per sentence): the same seed, locales and Faker
        version give the same sentences.
    locales : tuple of str
        Faker locales to draw values, addresses and phone formats from.

    Returns
    -------
    list of Document
        One sentence each, ``meta['patient']`` the kind (so ``doc.group`` is the form).
    """
    rng = random.Random(f"fakerpii:{seed}")
    docs = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        locale = rng.choice(locales)
        f = _faker(locale)
        f.seed_instance(rng.getrandbits(32))
        text, gold = _sentence(kind, f, rng, locale)
        if rng.random() < _LOWER_SHARE and len(text.lower()) == len(text):
            text = text.lower()
        spans = [make_span(a, b, sub) for a, b, sub in gold]
        docs.append(Document(f"fk-{i:04d}", text, spans, {"patient": kind, "locale": locale}))
    return docs


@READERS.register("fakerpii")
def read_fakerpii(path: str, report, **options) -> Iterator[Document]:
    """Reader ``fakerpii:N,SEED[,LOCALE+LOCALE...]``: ``N`` sentences of Faker's values (:func:`sentences`)."""
    parts = path.split(",")
    try:
        n, seed = int(parts[0]), int(parts[1]) if len(parts) > 1 else 5
        if n < 1 or len(parts) > 3:
            raise ValueError
    except ValueError:
        report(ReaderError(f"fakerpii source must be N, N,SEED or N,SEED,LOCALE+LOCALE (N, SEED integers), "
                           f"got {path!r}", path=path))
        return
    locales = tuple(parts[2].split("+")) if len(parts) == 3 else LOCALES
    try:
        docs = sentences(n, seed, locales)
    except (ReaderError, AttributeError) as err:  # AttributeError: a locale Faker does not know
        report(err if isinstance(err, ReaderError) else ReaderError(f"fakerpii: {err}", path=path))
        return
    yield from docs
