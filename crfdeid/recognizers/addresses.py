"""Towns and suburbs by their place in an address (issue 50).

The tagger and the town lists know the towns of the notes they grew up on; an address of
another country names a suburb and a town they have never seen (``12 Balloch Crescent, Culloden,
Inverness IV2 7QR``, ``Purok 3, Brgy. San Isidro, Tanay, Rizal``, ``RR 2 Box 118, Chamberino, NM
88027``). There the address itself says what a word is: :func:`apply` reads the spans the Safe
Harbor layer and :mod:`.phrases` found and adds as CITY

* **after a street or a town**: a comma, then one to three words of a town's shape (below) that
  end the address's piece (a comma, a full stop, the line's end, a postcode or a state found
  next), and so on along the address (``Culloden``, then ``Inverness``);
* **before a postcode or a state**: the words of a town's shape right before a postcode span
  (``Dunfermline KY12 7AX``, ``Salthill, H91 X2C4``) or before a comma and a state span that a
  postcode or the line's end follows (``Chamberino, NM 88027``);
* **after a place of care or a firm**: a comma and one or two name-cased words that end the
  line, when one is a listed town or a word in no plain list (``St Fintan's University Hospital,
  Galway``, ``Jeevan Jyoti Nursing Home, Lucknow``).

and joins a street's pieces split by commas into one span (``Mohalla Chowk, Gali No. 2``), with
what stands before its house number: a flat's, unit's or plot's number and a comma (``Plot 14,
Road No. 3``), a block or ``No.`` (``Blk 512 Ang Mo Kio Avenue 8``, ``No. 7 Olatunde Close``), a
Glasgow flat's position after a comma or a label (``Re: Mrs K, 3/2, 18 Kilmarnock Terrace``: a
date span the tagger made of ``3/2`` becomes the street's; ``seen 3/2, 18 Main Street`` keeps
its date).

A town's shape: name-cased words (hyphens and particles inside: ``Stoke-on-Trent``, ``Llanbedr
Pont Steffan``), none a stop word, title, relation, day, month, field label, staff role or a
head word of a place's name (``Ward``, ``Road``), one at least no plain word or a listed town;
in a lower-case address, lower-case words so, one at least in no plain list (``ystrad mynach``).

Evidence: on the made-up notes of dev, dev2 and dev3 these rules find towns of eleven
countries' addresses and take no must-survive phrase; on the PhysioNet development patients
(site-mining experiment, docs/experiments.md, 2026-11-25) they take no gold non-PHI token.
It only adds, widens and joins: no span is narrowed here, and one is dropped only into the
street that covers it.

>>> from crfdeid.document import make_span
>>> text = "Address: 12 Balloch Crescent, Culloden, Inverness IV2 7QR"
>>> spans = [make_span(9, 28, "STREET"), make_span(50, 57, "ZIP")]
>>> [(text[s.start:s.end], s.subtype) for s in apply(text, spans)]
[('12 Balloch Crescent', 'STREET'), ('Culloden', 'CITY'), ('Inverness', 'CITY'), ('IV2 7QR', 'ZIP')]
"""

from __future__ import annotations

from functools import lru_cache

import regex

from .. import gazetteers
from ..document import Span
from .phrases import HEAD_LISTS, PLAIN_LISTS
from .postcodes import towns

_PIECE = r"[\p{L}\p{M}'’]+(?:-[\p{L}\p{M}'’]+)*"
# One to three words of a town's name, particles between (``Llanbedr Pont Steffan``, ``Port of Spain``).
_RUN = regex.compile(rf"{_PIECE}(?:[ \t](?:(?:of|on|upon|de|la|le|y|na|an|the)[ \t])?{_PIECE}){{0,2}}")
_AFTER = regex.compile(rf"[ \t]*,[ \t]*(?P<run>{_RUN.pattern})(?P<end>[ \t]*(?:[,.;]|$))", regex.M)
_BEFORE = regex.compile(rf"(?<![\p{{L}}\p{{M}}'’-])(?P<run>{_RUN.pattern})[ \t]*,?[ \t]*$")
# What stands before a street's house number in an address: a flat's, unit's or plot's number and a
# comma (``Plot 14, Road No. 3``), a Glasgow flat's position (``3/2, 18 Kilmarnock Terrace``), or a
# block or ``No.`` (``Blk 512 Ang Mo Kio Avenue 8``, ``No. 7 Olatunde Close``).
_UNIT = regex.compile(r"(?<![\w/.-])(?:(?:Plot|PLOT|Flat|FLAT|Unit|UNIT|Apt|APT|Suite|Villa|Block|Blk|Lot)\.?[ \t]*#?"
                      r"[ \t]*\d{1,5}[A-Za-z]?|(?<=(?:^|[,:])[ \t]*)\d{1,2}/\d{1,2})[ \t]*,[ \t]*$", regex.M)
_PREFIX = regex.compile(r"(?<![\p{L}\p{M}])(?:Blk|BLK|Block|No\.|NO\.|Lot)[ \t]*$")
_COMMA = regex.compile(r"[ \t]*,[ \t]*")
_LINE_END = regex.compile(r"[ \t]*\.?[ \t]*$", regex.M)
#: What an address reads along: the pieces after which a town may follow.
_ALONG = frozenset({"STREET", "CITY"})
_CARE = frozenset({"HOSPITAL", "ORGANIZATION"})
#: What a town stands before in an address.
_CLOSERS = frozenset({"ZIP", "STATE"})


@lru_cache(maxsize=1)
def _never() -> frozenset:
    """Words that are never a word of a town's name in an address (lower case)."""
    heads = {w for name in HEAD_LISTS for e in gazetteers.entries(name) for w in e.lower().split()}
    return frozenset().union(*(gazetteers.load(n) for n in ("stop_words", "titles", "relations", "days", "months",
                                                            "note_labels", "staff_roles", "street_types")),
                             heads - {"city", "town"})


@lru_cache(maxsize=1)
def _plain() -> frozenset:
    return frozenset(w.strip(".'’") for name in PLAIN_LISTS for e in gazetteers.load(name) for w in e.split())


def _townish(run: str, lower: bool) -> bool:
    """Words of a town's shape (module docstring); ``lower``: the address is in lower case."""
    words = [w for w in run.split() if w not in ("of", "on", "upon", "de", "la", "le", "y", "na", "an", "the")]
    if not words or any(w.lower().strip("'’") in _never() for w in words):
        return False
    if lower != run.islower() or (not lower and not all(w[:1].isupper() for w in words)):
        return False
    if not lower and all(w.isupper() for w in words):
        return len(run) > 3 and run.lower() in towns()  # a note in capitals: a listed town only
    if run.lower() in towns():
        return True
    return any(w.lower().strip("'’") not in _plain() and len(w) > 2 for w in words)


def _free(spans, start: int, end: int) -> bool:
    return not any(sp.start < end and start < sp.end for sp in spans)


def _after(text: str, sp: Span, spans, care: bool) -> Span | None:
    m = _AFTER.match(text, sp.end)
    if m is None:
        return None
    run, lower = m.group("run"), text[sp.start:sp.end].islower()
    if care and (len(run.split()) > 2 or _LINE_END.match(text, m.end("run")) is None):
        return None
    inside = [x for x in spans if x.start < m.end("run") and m.start("run") < x.end]
    # a town the tagger found half of (``Hutt`` of ``Lower Hutt``, as a town or a state) is the run's
    if not _townish(run, lower) or any(x.subtype not in ("CITY", "STATE") or x.start < m.start("run")
                                       or x.end > m.end("run") for x in inside):
        return None
    return Span(m.start("run"), m.end("run"), "LOCATION", "CITY", confidence=1.0)


def _numbered(text: str, sp: Span) -> bool:
    """A place span that starts with a house number (``2198 Center Heights``): a street, whatever
    subtype the tagger gave it, so the address reads on after it."""
    return regex.match(r"\d{1,5}[A-Za-z]?[ \t]+\p{L}", text[sp.start:sp.end]) is not None


def _closer_follows(text: str, end: int, spans) -> bool:
    """A postcode or state span after ``end`` (a comma and spaces between)."""
    gap = regex.match(r"[ \t]*,?[ \t]*", text[end:]).end()
    return any(sp.start == end + gap and sp.subtype in _CLOSERS for sp in spans)


def _before(text: str, sp: Span, spans) -> Span | None:
    line_start = text.rfind("\n", 0, sp.start) + 1
    m = _BEFORE.search(text, max(line_start, sp.start - 60), sp.start)
    if m is None:
        return None
    if sp.subtype == "STATE" and not (_closer_follows(text, sp.end, spans) or _LINE_END.match(text, sp.end)):
        return None
    run = m.group("run")
    # the town's words only: a house number's street or a name before them is another span's
    start = m.start("run")
    for w in regex.finditer(r"\S+", run):
        if not _free(spans, start + w.start(), start + w.end()):
            start = m.start("run") + w.end() + 1
    run = text[start:m.end("run")].strip()
    if not run or not _townish(run, text[sp.start:sp.end].islower()):
        return None
    end = start + len(run)
    return Span(start, end, "LOCATION", "CITY", confidence=1.0) if _free(spans, start, end) else None


def _streets(text: str, spans) -> list[Span]:
    """A street's pieces split by commas made one span (``Mohalla Chowk, Gali No. 2``), and a
    flat's, unit's or plot's number before a street taken into it (``Plot 14, Road No. 3``)."""
    out: list[Span] = []
    for sp in sorted(spans):
        if sp.subtype == "STREET":
            unit = _UNIT.search(text, max(0, sp.start - 24), sp.start)
            if unit is None and text[sp.start:sp.start + 1].isdigit():
                unit = _PREFIX.search(text, max(0, sp.start - 8), sp.start)
            if unit is not None and all(x.subtype == "DATE" for x in out if x.end > unit.start()):
                # a flat's position the tagger read as a date (``3/2``) is the street's
                out = [x for x in out if x.end <= unit.start()]
                sp = Span(unit.start(), sp.end, sp.category, sp.subtype, confidence=sp.confidence)
        prev = out[-1] if out else None
        if prev is not None and prev.subtype == sp.subtype == "STREET" and _COMMA.fullmatch(text, prev.end, sp.start):
            out[-1] = Span(prev.start, sp.end, prev.category, prev.subtype,
                           confidence=min((c for c in (prev.confidence, sp.confidence) if c is not None), default=None))
            continue
        out.append(sp)
    return out


def apply(text: str, spans) -> list[Span]:
    """``spans`` with the towns an address's shape says (module docstring) added, a street's
    pieces joined (:func:`_streets`); a span leaves only into one that covers it."""
    out = _streets(text, spans)
    todo = [sp for sp in out if sp.subtype in _ALONG | _CARE | _CLOSERS]
    while todo:
        sp = todo.pop(0)
        new = None
        if sp.subtype in _ALONG | _CARE:
            new = _after(text, sp, out, care=sp.subtype in _CARE and not _numbered(text, sp))
        if new is None and sp.subtype in _CLOSERS:
            new = _before(text, sp, out)
        if new is not None:
            out = sorted([x for x in out if not (new.start <= x.start and x.end <= new.end)] + [new])
            todo.append(new)
    return out
