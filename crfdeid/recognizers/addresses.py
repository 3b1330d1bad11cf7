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

import bisect
from collections import deque
from functools import lru_cache

from .. import gazetteers
from ..document import Span
from .placewords import HEAD_LISTS, _plain
from .postcodes import towns
from .ruledata import lists, table

_R = table("addresses").namespace()  # the patterns and words (crfdeid/_data/rules/addresses.tsv)


@lru_cache(maxsize=1)
def _never() -> frozenset:
    """Words that are never a word of a town's name in an address (lower case)."""
    heads = {w for name in HEAD_LISTS for e in gazetteers.entries(name) for w in e.lower().split()}
    return lists("stop_words", "titles", "relations", "days", "months", "note_labels", "staff_roles",
                 "street_types") | (heads - {"city", "town"})


def _townish(run: str, lower: bool) -> bool:
    """Words of a town's shape (module docstring); ``lower``: the address is in lower case."""
    words = [w for w in run.split() if w not in _R.TOWN_JOINS]
    if not words or any(w.lower().strip("'’") in _never() for w in words):
        return False
    if lower != run.islower() or (not lower and not all(w[:1].isupper() for w in words)):
        return False
    if not lower and all(w.isupper() for w in words):
        return len(run) > 3 and run.lower() in towns()  # a note in capitals: a listed town only
    if run.lower() in towns():
        return True
    return any(w.lower().strip("'’") not in _plain() and len(w) > 2 for w in words)


class _Spans:
    """Spans sorted by start that do not overlap (what the Safe Harbor layer and :mod:`.phrases`
    hand on), so their ends are sorted too: the spans touching a stretch are found by bisection,
    not by a pass over the note's every span (a note of thousands of address lines)."""

    def __init__(self, spans):
        self.spans: list[Span] = list(spans)
        self.starts = [sp.start for sp in self.spans]

    def touching(self, start: int, end: int) -> list[Span]:
        """The spans that overlap ``[start, end)``, in order."""
        i = bisect.bisect_left(self.starts, end) - 1
        found = []
        while i >= 0 and self.spans[i].end > start:
            found.append(self.spans[i])
            i -= 1
        return found[::-1]

    def at(self, start: int) -> Span | None:
        i = bisect.bisect_left(self.starts, start)
        return self.spans[i] if i < len(self.starts) and self.starts[i] == start else None

    def put(self, new: Span) -> None:
        """``new`` in place of the spans it covers (every span it touches)."""
        lo = bisect.bisect_left(self.starts, new.start)
        hi = bisect.bisect_left(self.starts, new.end)
        self.spans[lo:hi] = [new]
        self.starts[lo:hi] = [new.start]


def _after(text: str, sp: Span, spans: _Spans, care: bool) -> Span | None:
    m = _R.AFTER.match(text, sp.end)
    if m is None:
        return None
    run, lower = m.group("run"), text[sp.start:sp.end].islower()
    if care and (len(run.split()) > 2 or _R.LINE_END.match(text, m.end("run")) is None):
        return None
    inside = spans.touching(m.start("run"), m.end("run"))
    # a town the tagger found half of (``Hutt`` of ``Lower Hutt``, as a town or a state) is the run's
    if not _townish(run, lower) or any(x.subtype not in ("CITY", "STATE") or x.start < m.start("run")
                                       or x.end > m.end("run") for x in inside):
        return None
    return Span(m.start("run"), m.end("run"), "LOCATION", "CITY", confidence=1.0)


def _numbered(text: str, sp: Span) -> bool:
    """A place span that starts with a house number (``2198 Center Heights``): a street, whatever
    subtype the tagger gave it, so the address reads on after it."""
    return _R.HOUSE.match(text, sp.start, sp.end) is not None


def _closer_follows(text: str, end: int, spans: _Spans) -> bool:
    """A postcode or state span after ``end`` (a comma and spaces between)."""
    nxt = spans.at(_R.GAP.match(text, end).end())
    return nxt is not None and nxt.subtype in _R.CLOSERS


def _before(text: str, sp: Span, spans: _Spans) -> Span | None:
    window = max(0, sp.start - 60)
    m = _R.BEFORE.search(text, text.rfind("\n", window, sp.start) + 1 or window, sp.start)
    if m is None:
        return None
    if sp.subtype == "STATE" and not (_closer_follows(text, sp.end, spans) or _R.LINE_END.match(text, sp.end)):
        return None
    # the town's words only: a house number's street or a name before them is another span's
    taken = spans.touching(m.start("run"), m.end("run"))
    start = max([m.start("run")] + [x.end for x in taken])
    start += len(text[start:m.end("run")]) - len(text[start:m.end("run")].lstrip())
    run = text[start:m.end("run")].rstrip()
    if not run or not _townish(run, text[sp.start:sp.end].islower()):
        return None
    end = start + len(run)
    return None if spans.touching(start, end) else Span(start, end, "LOCATION", "CITY", confidence=1.0)


def _streets(text: str, spans) -> list[Span]:
    """A street's pieces split by commas made one span (``Mohalla Chowk, Gali No. 2``), and what
    stands before its house number taken into it (module docstring)."""
    out: list[Span] = []
    for sp in sorted(spans):
        if sp.subtype == "STREET":
            unit = _R.UNIT.search(text, max(0, sp.start - 24), sp.start)
            if unit is None and text[sp.start:sp.start + 1].isdigit():
                unit = _R.PREFIX.search(text, max(0, sp.start - 8), sp.start)
            cut = len(out)
            while unit is not None and cut and out[cut - 1].end > unit.start():
                cut -= 1
            if unit is not None and all(x.subtype == "DATE" and x.start >= unit.start() for x in out[cut:]):
                # a flat's position the tagger read as a date (``3/2``) is the street's
                del out[cut:]
                sp = Span(unit.start(), sp.end, sp.category, sp.subtype, confidence=sp.confidence)
        prev = out[-1] if out else None
        if prev is not None and prev.subtype == sp.subtype == "STREET" and _R.COMMA.fullmatch(text, prev.end, sp.start):
            out[-1] = Span(prev.start, sp.end, prev.category, prev.subtype,
                           confidence=min((c for c in (prev.confidence, sp.confidence) if c is not None), default=None))
            continue
        out.append(sp)
    return out


def _disjoint(spans: list[Span]) -> bool:
    return all(a.end <= b.start for a, b in zip(spans, spans[1:]))


def apply(text: str, spans) -> list[Span]:
    """``spans`` with the towns an address's shape says (module docstring) added, a street's
    pieces joined (:func:`_streets`); a span leaves only into one that covers it. Spans that
    overlap each other (none come from the Safe Harbor step) are handed back as they came."""
    ordered = sorted(spans)
    if not _disjoint(ordered):
        return ordered
    out = _Spans(_streets(text, ordered))
    todo = deque(sp for sp in out.spans if sp.subtype in _R.ALONG | _R.CARE | _R.CLOSERS)
    while todo:
        sp = todo.popleft()
        new = None
        if sp.subtype in _R.ALONG | _R.CARE:
            new = _after(text, sp, out, care=sp.subtype in _R.CARE and not _numbered(text, sp))
        if new is None and sp.subtype in _R.CLOSERS:
            new = _before(text, sp, out)
        if new is not None:
            out.put(new)
            todo.append(new)
    return out.spans
