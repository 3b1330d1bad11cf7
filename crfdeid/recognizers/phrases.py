"""Places and organisations by the shape of their names, street addresses, adjacent name spans.

A tagger trained on US intensive-care notes finds ``Millbeck`` or nothing in ``Millbeck Surgery``,
``Hollybrook`` of ``Hollybrook Unit``, no street in ``1200 Harbison Way`` and no employer in
``works for Ridgeline Freight`` (issue 50); a surrogate or placeholder for half a name leaves
the other half. :func:`apply` adds what the phrase's own shape says, for every model (it runs
in the Safe Harbor layer's step, English notes of the i2b2 2014 labels). Each rule and its
evidence:

* **grown to its head**: a place, organisation or name span followed (spaces and at most two
  name-cased words between) by a head word of a place's name (``organization_heads``,
  ``hospital_heads``, ``ward_heads``: ``Surgery``, ``Pharmacy``, ``Freight``, ``Primary School``,
  ``Unit``, ``Ward``...) takes it: the head is the rest of the name the tagger began (a name span
  becomes the head's kind of place);
* **a name before a head**: one to four name-cased words then a head word (``Glenmorven Medical
  Practice``, ``Larch Ward``), one word at least in no list of plain, clinical or department
  words (``Heart Failure Clinic`` and ``Antenatal Clinic`` stay), is that kind of place;
* **a saint's place in lower case**: ``st`` then a word with ``'s`` (``st luke's``): a church,
  school or hospital named after a saint (the possessive rules out ``st`` for street); and ``Our
  Lady of`` then one or two words (``our lady of guadalupe parish``);
* **a firm in lower case**: a trade or legal suffix (``freight``, ``motors``, ``ltd``, ``& sons``,
  ``parish``; not ``inc``, an increase) after up to three words in no plain list (``sunland
  freight``, ``chidi & sons motors``);
* **after what one does there**: ``works for/at``, ``employed by``, ``volunteers at``
  (ORGANIZATION), ``attends``, ``pupil at`` (ORGANIZATION), ``lives in`` (CITY), ``lives at``
  (LOCATION-OTHER) then name-cased words, or lower-case words the first of which is in no plain
  list (``works at bunnings``): what follows these verbs is a place's or firm's name; weaker cues
  want more: after ``moved to``, ``farms near``, ``comes from``, ``drives up from``, ``away in``
  (CITY) a word of a proper name in title case or a listed town (``Glasgow``; not ``OSH``), in
  lower case the leading words in no plain list (``merthyr tydfil`` of ``merthyr tydfil last
  yr``), never a run ending in a head (``moved to Larch Ward``); after ``insurer``, ``covered
  by``, ``insured with`` (ORGANIZATION) that or two title-case words (``Lion City Assurance``;
  not ``Medicaid``, a national scheme, nor a drug or dressing, plain words); and two to four
  title-case words, one of a proper name, before ``plan``, ``insurance``, ``policy``, ``cover``
  or ``scheme`` (``Cascade Senior Advantage plan``; not ``Treatment Plan``);
* **a street**: a house number (a ``Flat 3,`` or ``Unit 2/`` before it allowed) then up to four
  name-cased words or compass letters and a street type (``street_types``: ``Way``, ``Crescent``,
  ``Close``, ``Rd``...; a type's own number and a unit after: ``512 Ang Mo Kio Avenue 8, #07-1234``;
  a block or ``No.`` before the number is :mod:`.addresses`'), or a street type written
  before the name after a house number (``street_prefixes``: ``6 Heol y Felin``; in lower case the
  Welsh, Irish and Malay ones: ``7 heol y nant``), or a numbered road (``88 Route 9``, ``Gali No.
  2``, ``County Road B-47``), a box (``P.O. Box 41872-00100``, ``RR 2 Box 118``) or a purok;
  without a number, name-cased words with one in no plain list then a full street type
  (``Westgate Road``), and in lower case a first word that is a listed name or of five letters or
  more in no plain list (``bucknall new road``; the types of ``close obs`` and ``sex drive`` are
  not read in lower case); a barangay (``Brgy. San Isidro``) is a CITY;
* **a hyphenated place**: a place span inside a hyphenated word takes its name-cased pieces and
  the particles between them (``Stoke-on-Trent``, ``Maison Saint-Laurent``);
* **a place's first words**: a place span (no street, state, postcode or country) takes the one
  or two words in capital and small letters right before it in mid-sentence, no stop word,
  title, relation, day or month among them (``Empire`` of ``PA with Empire Crest Health``);
  and ``Ward 22``, ``Wad 7B``: a ward by its number;
* **one name, one placeholder**: name spans with only spaces between (``Dr. Imogen`` ``Tell``),
  and place spans of one subtype so, are one span (the kind of the piece with more letters): one
  surrogate or ``[**DOCTOR**]`` for one person.

It only adds or joins: no span is dropped here. Where a found street covers a date the tagger read
inside it (``12/3 Harbour Road``: a unit and a house number) the joined span is the street's.
Evidence for the 2026-11-25 additions (weaker cues, firms in lower case, boxes, the street over a
date): on the made-up notes of dev, dev2 and dev3 (eleven countries) they took
no must-survive phrase; on the PhysioNet development patients the site-mining figures were the
same before and after, once ``inc`` and ``Brothers`` were left out (one false span each).
Lists: ``gazetteers/*_heads.txt``,
``street_types.txt``, ``street_prefixes.txt`` (hand-written, ``gazetteers/handwritten.py``);
plain words: the common, clinical, drug, department, eponym, score and stop word lists and the
national health schemes (``health_schemes``). Towns by their place in an address are
:mod:`.addresses`'. Three shapes the ledger on forms9 found no gain for, and whose made-up places
the shipped model still redacts without them (a lower-case name before a head, ``keele uni``; a
town head after a name, ``Whitley Bay``; a street prefix without a house number, ``Jalan Ampang``),
left in the diet of 2026-11-26 (docs/rules.md). Two came back for leaks of the older development
sets in lower case (``larch ward``) and as written (``Heol y Bont``) and were taken out again: on
the made-up sets written after them (check7, check9, forms9, check10; day-first dates, UK postcodes,
Welsh and Malay streets), as written, lower- and upper-cased, they found no identifier the rest did not.

>>> from crfdeid.document import make_span
>>> text = "GP: Millbeck Surgery. Works for Ridgeline Freight; lives at 1200 Harbison Way."
>>> [(text[s.start:s.end], s.subtype) for s in apply(text, [])]
[('Millbeck Surgery', 'ORGANIZATION'), ('Ridgeline Freight', 'ORGANIZATION'), ('1200 Harbison Way', 'STREET')]
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from functools import lru_cache

from .. import gazetteers
from ..document import Span
from ..text.patterns import AsciiTwin, LazyPattern
from .placewords import (
    HEAD_LISTS,
    _after_stop,
    _alternation,
    _breaks,
    _cased,
    _cut,
    _first_proper,
    _head_words,
    _heads,
    _leading_plain,
    _names,
    _plain,
    _proper,
    _unplain,
    _unplain_before,
)
from .postcodes import towns
from .ruledata import lazy, table
from .safeharbor import overlap_groups

# The shapes' patterns and words (crfdeid/_data/rules/phrases.tsv).
_T = table("phrases")
_D = _T.namespace()

#: The Unicode classes of the patterns as their ASCII members (longest first), for :func:`_twin`.
_ASCII_CLASSES = _T.mapping("ASCII_CLASSES")


def _twin(pattern: str) -> AsciiTwin:
    """``pattern`` for ``regex``, and on ASCII text its ``re`` twin (about twice as fast on the
    name-shaped patterns; the same matches there: tests/test_phrases.py)."""
    ascii_pattern = pattern
    for unicode_class, ascii_class in _ASCII_CLASSES.items():
        ascii_pattern = ascii_pattern.replace(unicode_class, ascii_class)
    return AsciiTwin(lazy(pattern), LazyPattern(re.compile, ascii_pattern))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, LazyPattern | AsciiTwin]:
    """The shapes' patterns (the ``template`` rows of ``crfdeid/_data/rules/phrases.tsv``), each compiled on
    first use: a note without a place's head word needs neither of the two largest (``named``, ``grow``:
    4,000 characters of heads each, 0.02 CPU-s)."""
    heads = list(_heads())
    given = {"cap_heads": _alternation(_cased(e for n in HEAD_LISTS for e in gazetteers.entries(n))),
             "low_heads": _alternation(h for h in heads if h in _D.LOWER_HEADS),
             "types": _alternation(gazetteers.entries("street_types")),
             "prefixes": _alternation(gazetteers.entries("street_prefixes")),
             "STRONG_LOWER_HEADS": _alternation(_D.STRONG_LOWER_HEADS)}
    return {name: (_twin(_T.source(name, **given)) if twin else lazy(_T.source(name, **given), flags))
            for name, flags, twin in _T.templates()}


def prepare() -> None:
    """Load the lists and write the patterns (a model does this at load; each is compiled on first use)."""
    _plain()
    _names()
    _patterns()
    _last_words()


def find(text: str) -> list[Span]:
    """Spans of places, organisations and streets by their names' shapes (module docstring), sorted."""
    p = _patterns()
    heads = _heads()
    lines = _lines(text)
    low = text.lower()
    found: list[Span] = []
    for m in _scan(p["named"], text, "named", lines):
        start = _leading_plain(text, _after_stop(text, m.start(), m.end("run")), m.start("head"))
        if any(_proper(w) for w in text[start:m.start("head")].split()):
            found.append(Span(start, m.end(), "LOCATION", heads[" ".join(m.group("head").lower().split())]))
    for m in _scan(p["strong_low"], text, "strong_low", lines):
        begin = _unplain_before(text, m.start())
        if begin is not None:
            found.append(Span(begin, m.end(), "LOCATION", "ORGANIZATION"))
    found += _after_cues(text, [*p["cue"].finditer(text), *_scan(p["weak_cue"], text, "weak_cue", lines)])
    for m in _scan(p["plan"], text, "plan", lines):
        start = _leading_plain(text, _after_stop(text, m.start(), m.end("run")), m.end("run"))
        words = text[start:m.end("run")].split()
        if len(words) > 1 and any(_proper(w) for w in words) and not any(w.isupper() for w in words):
            found.append(Span(start, m.end("run"), "LOCATION", "ORGANIZATION"))
    found += [Span(m.start(), m.end(), "LOCATION", "STREET") for m in _scan(p["street"], text, "street", lines)]
    found += _marked("FOUND", text, low, p) + _foreign_streets(text, low, p)
    for m in _scan(p["street_low"], text, "street_low", lines):
        first = _first_proper(text, m.start("run"), m.end("run"), loose=True)
        if first is not None:
            found.append(Span(first, m.end(), "LOCATION", "STREET"))
    return sorted(replace(_no_full_stop(text, sp), confidence=1.0) for sp in found)  # a rule's span


def _foreign_streets(text: str, low: str, p) -> list[Span]:
    """Streets and districts in other countries' address forms (the patterns ``street_de`` to
    ``gh_digital``), each looked for only where its mark stands in the note (per-note work: one
    pass of each pattern at most). A run of pieces after a unit's number keeps its pieces while
    each is a street, block or sector word and its number or name-cased words one at least a proper
    name (``Flat 2, Ward`` is no address's). They only add spans. Evidence (2026-11-25): on the
    made-up sets dev4 and dev5 they find 22 of the 34 identifiers left (99 of their 125 tokens), with no
    must-survive phrase taken and false spans unchanged on dev to dev5; on the PhysioNet development
    patients the site-mining experiment's precision and recall are unchanged (0.665 / 0.976)."""
    found = _marked("FOREIGN", text, low, p)
    if _D.DE_AT_GATE.search(text):
        found.extend(Span(m.start(), m.end(), "LOCATION", "STREET") for m in p["street_de_at"].finditer(text)
                     if _proper(m.group("run")))
    for m in p["chome"].finditer(text):
        if _proper(m.group("run").split("-")[0]):
            found.append(Span(m.start(), m.end(), "LOCATION", "STREET"))
    for m in p["unit_run"].finditer(text) if any(w in text for w in _D.UNIT_GATE) else ():
        end = m.start("pieces")
        for piece in _D.UNIT_PIECE.finditer(m.group("pieces")):
            words = piece.group(1).split()
            if not (any(c.isdigit() for c in piece.group(1)) or any(_proper(w) for w in words)):
                break
            end = m.start("pieces") + piece.end()
        if end > m.start("pieces"):
            found.append(Span(m.start(), end, "LOCATION", "STREET"))
    return found


#: Template -> (subtype, where its marks are sought, marks) of the table's ``FOUND`` and ``FOREIGN`` maps.
_MARKED = {kind: {name: (sub, where, [w for w in marks.split("|") if w])
                  for name, (sub, where, marks) in ((n, s.split("\t")) for n, s in _T.mapping(kind).items())}
           for kind in ("FOUND", "FOREIGN")}


def _marked(kind: str, text: str, low: str, p) -> list[Span]:
    """The places every match of a template of the map ``kind`` is, in a note that holds one of its marks."""
    found: list[Span] = []
    for name, (sub, where, marks) in _MARKED[kind].items():
        if not marks or any(w in (low if where == "low" else text) for w in marks):
            found.extend(Span(m.start(), m.end(), "LOCATION", sub) for m in p[name].finditer(text))
    return found


def _after_cues(text: str, matches) -> list[Span]:
    """The places and firms named after what one does there (``works for``, ``lives in``, ``moved
    to``, ``insurer``: the module docstring), from the cue patterns' matches."""
    found = []
    for m in matches:
        groups = m.groupdict()
        cut = _cut(text, m.start("run"), m.end("run"))
        run = text[m.start("run"):cut]
        moved, insurer = groups.get("moved"), groups.get("insurer")
        if not run or (run[:1].islower() and not _proper(run.split()[0]) and not (moved and _unplain(run.split()[0]))):
            continue
        stop = cut
        if moved or insurer:
            weak = _weak_cue_end(text, m.start("run"), cut, insurer=insurer is not None)
            if weak is None or (moved and text[m.start("run"):weak].split()[-1].lower() in _head_words()):
                continue  # ``moved to Larch Ward``: a ward's or a firm's name, which its head types
            stop = weak
        if run.split()[0].lower().strip(".") in gazetteers.load("titles") | gazetteers.load("months"):
            continue
        sub = ("ORGANIZATION" if groups.get("org") or groups.get("school") or insurer
               else "CITY" if moved or groups["prep"].lower() == "in" else "LOCATION-OTHER")
        found.append(Span(m.start("run"), stop, "LOCATION", sub))
    return found


def _weak_cue_end(text: str, start: int, end: int, insurer: bool) -> int | None:
    """Where the run after a weaker cue (``moved to``, ``from``, ``insurer``) ends, or None when it
    names nothing: in lower case the leading words in no plain list (``merthyr tydfil`` of
    ``merthyr tydfil last yr``); else a word of a proper name in title case or a listed town
    (``Glasgow``; not ``OSH``), or, after an insurer's cue, two title-case words or more."""
    words = list(_D.WORD_RUN.finditer(text[start:end]))
    if text[start:end].islower():
        keep = [w for w in itertools.takewhile(lambda w: _unplain(w.group()), words)]
        return start + keep[-1].end() if keep else None
    titled = [w.group() for w in words if not w.group().isupper()]
    if any(_proper(w) or w.lower() in towns() for w in titled) or (insurer and len(titled) > 1):
        return end
    return None


@lru_cache(maxsize=1)
def _last_words() -> dict[str, frozenset]:
    """Per pattern the words (lower case) of which every match holds one: the last word of a
    head-bound pattern's match; a street's type, prefix or road word (no match crosses a line).

    Evidence for the street's gate: the whole-note and the line-gated scans were identical (100
    matches, 0 notes differ) on all 21 made-up sets as written, lower-cased and upper-cased (the
    review of 2026-11-26); on the 18 sets open to development, 84 matches, 0 differ (docs/rules.md,
    "Same output, less code"). The ``plan`` and ``weak_cue`` gates and the road words are rows of
    phrases.tsv since diet14, the same words: every figure of the 19 development sets (US, UK day-first,
    Irish, Australian, Indian and other countries' notes, UK postcodes) as written, lower-cased and
    upper-cased, redacted and surrogate, and the PhysioNet output were unchanged (docs/rules.md, "diet14")."""
    heads = frozenset(h.split()[-1] for h in _heads())
    street = (*gazetteers.entries("street_types"), *gazetteers.entries("street_prefixes"),
              *_T.source("LOW_PREFIXES").split("|"), *_T.words("ROAD_WORDS"))
    return {"named": heads,
            "street": frozenset(w for e in street for w in _D.WORDS.findall(e.lower())),
            "street_low": frozenset(_T.source("LOW_TYPES").split("|")),
            "strong_low": frozenset(h.split()[-1] for h in _D.STRONG_LOWER_HEADS),
            "plan": _T.words("PLAN_GATE"), "weak_cue": _T.words("WEAK_CUE_GATE")}


def _lines(text: str) -> list[tuple[int, int, frozenset]]:
    """Each line's bounds and its words, lower case."""
    return [(m.start(), m.end(), frozenset(_D.WORDS.findall(m.group().lower()))) for m in _D.LINE.finditer(text)]


def _scan(rx: LazyPattern | AsciiTwin, text: str, name: str, lines):
    """``rx.finditer`` over the lines of ``text`` that hold one of :func:`_last_words`' (most lines hold none)."""
    ends = _last_words()[name]
    for start, end, words in lines:
        if not ends.isdisjoint(words):
            yield from rx.finditer(text, start, end)


def _no_full_stop(text: str, sp: Span) -> Span:
    """A street's full stop left outside unless its type is an abbreviation (``St.``, ``Rd.``); a
    firm's taken when its suffix is one (``Inc.``, ``Co.``)."""
    if sp.subtype in ("ORGANIZATION", "HOSPITAL") and text[sp.end:sp.end + 1] == "." \
            and text[sp.start:sp.end].split()[-1].lower() in _D.FIRM_ABBREVIATED:
        return replace(sp, end=sp.end + 1)  # a firm's suffix with its full stop (``Inc.``)
    if text[sp.end - 1:sp.end] != "." or sp.subtype != "STREET":
        return sp
    last = text[sp.start:sp.end - 1].split()[-1].lower()
    return sp if last in _D.ABBREVIATED else replace(sp, end=sp.end - 1)


def _grow(text: str, sp: Span) -> Span:
    """``sp`` grown over the head words after it and the hyphenated pieces of the word it ends in.

    A place of letters also grows back over the title-case words before it; a place of digits
    never does (``Glu 211``, ``Exam Room 5``: a lab's name and a room's label are no part of it).
    Evidence for that limit: the synthetic gold marks the room number alone, the o-words test's
    lab names stayed outside, and the PhysioNet development figures and the made-up dev notes
    were unchanged by it (docs/history/locked-test.md)."""
    p = _patterns()
    if sp.category not in _D.NAME_CATEGORIES:
        return sp
    lower = text[sp.start:sp.end].islower()
    m = (p["grow_low"] if lower else p["grow"]).match(text, sp.end)
    if m is not None and "\n" not in m.group():
        sub = _heads()[" ".join(m.group("head").lower().split())]
        keep = sp.subtype if sp.category == "LOCATION" and sp.subtype not in _D.GROWN_FROM else sub
        return _grow(text, replace(sp, end=m.end(), category="LOCATION", subtype=keep))
    if sp.category == "LOCATION" and sp.subtype not in _D.NOT_PRECEDED \
            and any(c.isalpha() for c in text[sp.start:sp.end]):
        b = p["before"].search(text, max(0, sp.start - 40), sp.start)
        if b is not None and not _D.OPENS.search(text[max(0, b.start() - 3):b.start()]) \
                and not any(w.lower() in _breaks() for w in b.group("run").split()):
            sp = replace(sp, start=b.start())
    if sp.category == "LOCATION":
        for w in p["hyphen"].finditer(text, max(0, sp.start - 40), min(len(text), sp.end + 40)):
            if w.start() <= sp.start < w.end() or w.start() < sp.end <= w.end():
                pieces = w.group().split("-")
                if all(x[:1].isupper() or x in _D.HYPHEN_JOINS for x in pieces):
                    return replace(sp, start=min(sp.start, w.start()), end=max(sp.end, w.end()))
    return sp


def _least(*spans: Span) -> float | None:
    """A joined span's confidence: the lowest of its pieces' (a span's is its least sure token's)."""
    known = [sp.confidence for sp in spans if sp.confidence is not None]
    return min(known) if known else None


def _opening_plain(text: str, sp: Span) -> bool:
    """A span of one plain word that opens a line or a sentence (``Call`` of ``Call John Smith``):
    the tagger's doubt about it is its own, not the name's after it (a caller's score threshold
    reads the two apart)."""
    word = text[sp.start:sp.end]
    before = text[max(0, sp.start - 8):sp.start]
    return (" " not in word and not _proper(word) and _D.TITLE_DOT.search(before) is None
            and _D.OPENS.search(before[-3:]) is not None)


def join_adjacent(text: str, spans) -> list[Span]:
    """Name spans, and place spans of one subtype, with only spaces or tabs between made one span
    (name spans with a name's particles between too: ``Maria`` ``de la`` ``Cruz``),
    typed as the piece with more letters (``Imogen`` + ``Tell``: one DOCTOR); both with letters,
    the first ending in one (not ``Dennis (`` and ``86``) and no plain word opening a sentence
    (:func:`_opening_plain`).

    >>> from crfdeid.document import make_span
    >>> join_adjacent("Dr. Imogen Tell", [make_span(4, 10, "DOCTOR"), make_span(11, 15, "PATIENT")])
    [Span(start=4, end=15, category='NAME', subtype='DOCTOR')]
    """
    out: list[Span] = []
    for sp in sorted(spans):
        prev = out[-1] if out else None
        gap = text[prev.end:sp.start] if prev is not None and prev.end < sp.start else ""
        if prev is not None and gap and prev.category == sp.category == "NAME" and _D.PARTICLES.fullmatch(gap):
            gap = " "  # ``de la`` of ``Maria`` ``de la`` ``Cruz``: the particles are the name's
        a = sum(c.isalpha() for c in text[prev.start:prev.end]) if prev is not None else 0
        b = sum(c.isalpha() for c in text[sp.start:sp.end])
        if (prev is not None and gap and not gap.strip(" \t") and a and b and text[prev.end - 1].isalpha()
                and not _opening_plain(text, prev)
                and prev.category == sp.category and (sp.category == "NAME" or (sp.category == "LOCATION"
                                                                  and prev.subtype == sp.subtype))):
            keep = prev if a >= b else sp
            out[-1] = Span(prev.start, sp.end, keep.category, keep.subtype, confidence=_least(prev, sp))
            continue
        out.append(sp)
    return out


def apply(text: str, spans) -> list[Span]:
    """``spans`` with the phrases :func:`find` finds joined in (a found span overlapping predicted
    ones takes their union, typed as the first predicted one), each grown to its head, and
    adjacent name spans joined (:func:`join_adjacent`). Nothing is dropped."""
    out: list[Span] = []
    for group in overlap_groups([_grow(text, sp) for sp in spans], find(text)):
        predicted = [g[3] for g in group if g[2] == 1]
        keep = predicted[0] if predicted else max((g[3] for g in group), key=lambda sp: sp.end - sp.start)
        if keep.subtype == "DATE" and any(g[2] == 0 and g[3].subtype == "STREET" and g[0] <= keep.start
                                          and keep.end <= g[1] for g in group):
            # a unit and house number read as a date (``12/3 Harbour Road``): the street's
            keep = next(g[3] for g in group if g[3].subtype == "STREET")
        if predicted and keep.category == "NAME" and len(group) > len(predicted):
            keep = next(g[3] for g in group if g[2] == 0)  # a name inside a place's name: the place
        out.append(Span(min(g[0] for g in group), max(g[1] for g in group), keep.category, keep.subtype,
                        confidence=_least(*(g[3] for g in group))))
    return join_adjacent(text, [_grow(text, sp) for sp in out])
