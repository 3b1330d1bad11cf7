"""High-precision regex rules for PHI with rigid forms, and their overlay on CRF spans.

The hybrid design of the i2b2 2014 winners: a CRF for everything, plus rules
for forms a regex finds almost without false positives (full dates, phone
numbers, a capitalised word after ``Dr.``/``Mr.``/``Mrs.``; e-mail addresses, URLs,
IP addresses and SSNs are the Safe Harbor layer's, :mod:`.safeharbor`). :func:`overlay` merges
the two, preferring the CRF's subtype and extending spans to their union, then
adds the initials and coordinated names next to name spans
(:func:`extend_names`). The overlay only adds redaction, with one exception: a CRF DATE
span that cannot be a date (``bp 80/60``, :func:`impossible_date`) is dropped.

The rule table is ``crfdeid/_data/rules/overlay.tsv`` (:data:`RULES`: a rule is a row, its comment the
evidence); the date check :mod:`.datecheck`; states after cities :mod:`.states`.

>>> [(s.start, s.end, s.subtype) for s in find("Call 617-555-0199 on 03/14/2098.")]
[(5, 17, 'PHONE'), (21, 31, 'DATE')]
"""

from __future__ import annotations

import re
from functools import cache, lru_cache, partial

from ..document import Span, make_span, merge_disjoint
from ..features.surface import MONTH, ascii_lower
from ..text.patterns import LazyPattern
from .base import Detection, Recognizer, register
from .bedside import first_names as _first_names
from .datecheck import impossible_date
from .fixedforms import plain_words as _plain_words
from .ruledata import lazy, lists, table
from .states import states_after_cities

_T = table("overlay")  # the rules as rows (crfdeid/_data/rules/overlay.tsv)
# A capitalised word (two letters or more): the names of the rules too.
_CAP = _T.source("CAP")
_R = table("rules").namespace(CAP=_CAP)  # the patterns and words (crfdeid/_data/rules/rules.tsv)
# US states and territories by name (the ``states`` list as of this writing, facts public
# domain); a state is a LOCATION of the i2b2 2014 scheme in any case ("moved from ohio").
STATE_NAMES = list(_T.entries("STATE_NAMES"))
_GIVEN = {"MONTH": MONTH, "STATE_NAMES": "|".join(n.replace(" ", r"[ \t]+") for n in STATE_NAMES)}

#: Rule name -> (subtype, regex: compiled on first use). Order matters: earlier rules win overlaps.
RULES = {name: (label, lazy(_T.source(name, **_GIVEN), flags)) for name, label, flags in _T.rules()}
#: Key words (lower-cased, word-bounded in the lower-cased ASCII text), by class (the table's comment):
#: which key words a note must hold for an anchored rule to be tried (:data:`ANCHORS`).
KEYWORDS = _T.mapping("KEYWORDS", STATE_WORDS=" ".join(sorted({n.split()[0].lower() for n in STATE_NAMES})))
_CLASS_OF = {w: c for c, words in KEYWORDS.items() for w in words.split()}

__all__ = ["KEYWORDS", "RULES", "STATE_NAMES", "extend_names", "find", "impossible_date", "merge_disjoint",
           "overlay", "prepare", "states_after_cities", "trie_pattern"]


def _group(rx) -> str | int:
    """The group a rule's span is (``phi`` when it has one), without compiling a lazy rule."""
    if isinstance(rx, LazyPattern):
        return "phi" if "(?P<phi>" in rx.source else 0
    return "phi" if "phi" in rx.groupindex else 0


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
ANCHORS = {name: (tuple(words[:-1]), words[-1]) for name, words in
           ((name, text.split()) for name, text in _T.mapping("ANCHORS").items())}


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


#: Relation words, titles and clinical words: never a part of a name glued by a hyphen.
_not_names = partial(lists, "relations", "titles", "clinical_words")
_surnames = partial(lists, "surnames", "surnames_rare")


@lru_cache(maxsize=1)
def _name_words() -> tuple[frozenset, frozenset]:
    plain = _plain_words()
    first = _first_names() - plain
    last = _surnames() - plain
    return first, last


#: Rules whose matches (their ``phi`` group if they have one) must pass a word-list check
#: (:func:`_word_check`).
WORD_CHECKS = _T.mapping("WORD_CHECKS")
#: Rules that add one span per word of a name, as :func:`extend_names` adds the initial
#: of ``B. Varga`` on its own: the CRF then joins or keeps them as its training data did.
WORDWISE = _T.words("WORDWISE")


def find(text: str, rules=None) -> list[Span]:
    """Spans the rules find in ``text``, sorted, without overlaps (earlier rules win)."""
    default = rules is None
    low = ascii_lower(text) if default else None
    keywords = _keyword_starts(low) if low is not None else None
    found: list[Span] = []
    for sub, rx, anchor, check, group, wordwise in (_plan() if default else _plan_of(rules)):
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
                     for m in matches for w in _R.WORD.finditer(m.group(group))]
        else:
            spans = [make_span(m.start(group), m.end(group), sub) for m in matches]
        found = merge_disjoint(found, spans)
    return found


def _plan_of(rules: dict) -> list[tuple]:
    """What :func:`find` needs of each rule, worked out once: ``(subtype, regex, anchor,
    word check, group, wordwise)``. A mapping passed to :func:`find` is never anchored."""
    return [(sub, rx, None, _word_check(WORD_CHECKS.get(name)),
             _group(rx), name in WORDWISE)
            for name, (sub, rx) in rules.items()]


@lru_cache(maxsize=1)
def _plan() -> list[tuple]:
    """:func:`_plan_of` for :data:`RULES`, with their key words (:data:`ANCHORS`).

    Made once (a model with rules makes it at load): code that changes :data:`RULES` must
    call ``_plan.cache_clear()``, or pass its rules to :func:`find`.
    """
    return [(sub, rx, ANCHORS.get(name), *rest)
            for name, (sub, rx, _, *rest) in zip(RULES, _plan_of(RULES))]


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
        return lambda words: all(w.lower() not in plain for w in words if w not in _R.PLAIN_PARTICLES)
    if kind == "street_words":  # "42 oak lane": no clinical or stop word between the number and the suffix
        odd = lists("clinical_words", "clinical_abbrevs", "stop_words")
        return lambda words: not any(w.lower() in odd for w in words[1:-1] if w.isalpha()
                                     and w.lower() not in _R.STREET_TAIL)
    first = _first_names()
    surnames = _surnames()
    if kind == "not_plain_or_surname":
        return lambda words: words[-1].lower() not in plain or words[-1].lower() in surnames
    if kind == "first_name_first":
        return lambda words: words[0].lower() in first
    if kind == "last_first_name":
        return lambda words: words[-1].lower().removesuffix("'s") in first
    raise ValueError(f"unknown word check {kind!r}")


def extend_names(text: str, spans) -> list[Span]:
    """Name spans plus the initials, coordinated names, particles and name parts next to them.

    The CRF finds ``Varga`` in ``B. Varga`` but often not the lone ``B``, one
    name of ``Drs Okafor and Lindqvist``, or one part of ``Patricia WHITFIELD``; these
    are added with the neighbour's subtype: a lone letter before a name, a
    capitalised word joined by ``and``/``&`` unless it is a common or clinical
    word, a census surname right after a name and a census first name right
    before one (neither a common or clinical word), a hyphenated pair of census first names
    right before one in any case (``mary-kate o'neil``), capitalised name parts
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
    todo = [sp for sp in spans if sp.subtype in _R.NAMES]
    for sp in todo:
        m = _R.INITIAL_BEFORE.search(text, max(0, sp.start - 4), sp.start)
        if m:
            found.append(make_span(m.start(), m.end(), sp.subtype))
        m = _R.INITIAL_AFTER.match(text, sp.end, sp.end + 8)
        if m and (m.group(2) or m.group(1) not in "AI"):
            found.append(make_span(m.start(1), m.end(1), sp.subtype))
        for m, ok in ((_R.COORD_AFTER.match(text, sp.end, sp.end + 40), None),
                      (_R.COORD_BEFORE.search(text, max(0, sp.start - 40), sp.start), None),
                      (_R.NEXT_WORD.match(text, sp.end, sp.end + 40), last),
                      (_R.PREV_WORD.search(text, max(0, sp.start - 40), sp.start), first)):
            if m and (m.group(1).lower() in ok if ok is not None
                      else m.group(1).lower() not in _plain_words()):
                found.append(make_span(m.start(1), m.end(1), sp.subtype))
        found += _plain_name_words(text, sp)
        m = _R.PAIR_BEFORE.search(text, max(0, sp.start - 40), sp.start)
        if m and all(part.lower() in _first_names() for part in m.group(1).split("-")):  # plain words too
            found.append(make_span(m.start(1), m.end(1), sp.subtype))
        for m in (_R.HYPHEN_AFTER.match(text, sp.end, sp.end + 80),
                  _R.HYPHEN_BEFORE.search(text, max(0, sp.start - 80), sp.start),
                  _R.PREFIXED_NEXT.match(text, sp.end, sp.end + 80)):
            if m and m.group(1).lower() not in _not_names():  # not "DAUGHTER" of "DAUGHTER-MINDY"
                found.append(make_span(m.start(1), m.end(1), sp.subtype))
        for m, cap in ((_R.PARTICLE_AFTER.match(text, sp.end, sp.end + 80), 2),
                       (_R.PARTICLE_BEFORE.search(text, max(0, sp.start - 80), sp.start), 1)):
            if m and m.group(cap).lower() not in _plain_words():
                found += [make_span(m.start(g), m.end(g), sp.subtype) for g in (1, 2)]
                if len(todo) < 2 * len(spans) + 8:  # the name beyond a particle grows once more
                    todo.append(make_span(m.start(cap), m.end(cap), sp.subtype))
    return _patients_after_pt(text, merge_disjoint(sorted(spans), sorted(set(found))))


def _patients_after_pt(text: str, spans: list[Span]) -> list[Span]:
    """DOCTOR spans right after ``Pt``/``pt``/``patient`` (and the name spans that follow them, a space
    apart) typed PATIENT: ``Pt Mary O'Brien``; not after ``PT`` or ``PATIENT`` in capitals.

    Evidence: without it every name after ``Pt`` in 13 notes of the development sets as written was
    typed DOCTOR (redacted, but given a doctor's surrogate; docs/rules.md, the diet of 2026-11-26). In
    capitals ``PT`` is physical therapy: on the PhysioNet development notes the two names it would retype
    after ``PT`` or ``PATIENT`` are gold DOCTOR (2026-11-26, casing11). On the made-up sets written after it
    (check7, check9, forms9, check10, as written) it types 5 more of the 7 names after ``Pt`` PATIENT (1 -> 6);
    it removes no span, so recall is the same with or without it."""
    out: list[Span] = []
    chain_end = -1
    for sp in spans:
        if sp.subtype == "DOCTOR" and (_R.PT_BEFORE.search(text, max(0, sp.start - 12), sp.start)
                                       or (chain_end >= 0 and not text[chain_end:sp.start].strip())):
            sp = Span(sp.start, sp.end, sp.category, "PATIENT")
            chain_end = sp.end
        elif sp.category == "NAME" and _R.PT_BEFORE.search(text, max(0, sp.start - 12), sp.start):
            chain_end = sp.end
        else:
            chain_end = -1
        out.append(sp)
    return out


def _titled(word: str) -> bool:
    return word[:1].isupper() and not word.isupper()


def _plain_name_words(text: str, sp: Span) -> list[Span]:
    """The name words next to a name in title case that are also plain words: a census surname
    after a census first name (``Doe`` of ``Jane Doe seen``), or after one word of a name right
    after a title (``Tell`` of ``Dr. Imogen Tell:``), a census first name before a
    surname that is no plain word (``Margaret`` of ``Margaret O'Connell``); never a relation,
    title or clinical word.

    Evidence for the title case: in the PhysioNet development notes, a census surname in title
    case after ``Dr.``/``Mr.``/``Mrs.``/``Ms.`` and one title-case word, before punctuation or a
    lower-case word, is inside a gold name 4 times of 4 (2026-11-25; docs/history/results.md)."""
    own = text[sp.start:sp.end].split()
    if not own or not _titled(own[0]):
        return []
    found = []
    m = _R.NEXT_TITLED.match(text, sp.end, sp.end + 40)
    titled_first = len(own) == 1 and _R.TITLE_BEFORE.search(text, max(0, sp.start - 8), sp.start) is not None
    if m and (own[-1].lower() in _first_names() or titled_first) and m.group(1).lower() in _surnames() \
            and m.group(1).lower() not in _not_names():
        found.append(make_span(m.start(1), m.end(1), sp.subtype))
    m = _R.PREV_WORD.search(text, max(0, sp.start - 40), sp.start)
    if m and _titled(m.group(1)) and m.group(1).lower() in _first_names() and own[0].lower() not in _plain_words() \
            and m.group(1).lower() not in _not_names():
        found.append(make_span(m.start(1), m.end(1), sp.subtype))
    return found


def overlay(text: str, spans, rules=None, date_check: bool = True, extend: bool = True,
            found=None) -> list[Span]:
    """CRF ``spans`` merged with rule spans: overlapping ones joined (CRF subtype kept, but a CRF
    span inside a street the rules found is the street).

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
            if keep is None or (rule is not None and rule.subtype == "STREET" and keep.subtype != "STREET"
                                and rule.start <= keep.start and keep.end <= rule.end):
                keep = rule  # a street's words are a street ("lane" of "42 oak lane"), whatever the CRF said
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


@register("rules.v1")
class RulesRecognizer(Recognizer):
    """The regex rules alone as a recognizer (no CRF spans to merge with); every rule is high-precision by
    design: confidence 1.0. (``crf.v1``, a crfdeid model, is registered by :mod:`crfdeid.crf.recognizer`.)"""

    name = "rules.v1"

    def prepare(self) -> None:
        prepare()

    def find(self, text: str) -> list[Detection]:
        return [Detection(sp, 1.0) for sp in find(text)]
