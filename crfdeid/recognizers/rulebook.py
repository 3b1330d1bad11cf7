"""The rule table of the rule overlay (:mod:`.rules`): one regex per rigid form of PHI, as data.

The table is ``rulebook.toml`` beside this module (each rule's pattern, flags, key words and word
check; its source and the evidence each rule rests on: docs/rules.md, the rule ledger of
2026-11-25). :data:`RULES` maps a rule's name to its subtype and regex (compiled on first use);
:data:`NEEDS`, :data:`KEYWORDS`, :data:`ANCHORS`, :data:`WORD_CHECKS` and :data:`WORDWISE` say which
literals and key words a note must hold for a rule to be tried and how its matches are checked
and cut (:func:`crfdeid.recognizers.rules.find` reads them).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import regex

from ..document import Span
from ..text.patterns import LazyPattern


def _lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``regex.compile(pattern, flags)`` on first use: a note runs only the rules whose
    literals and key words it holds (:func:`find`), so most start-ups need few of them."""
    return LazyPattern(regex.compile, pattern, flags)


# A capitalised word (two letters or more): the name extension's.
_CAP = r"[A-Z][A-Za-z'-]*[A-Za-z]"

_FLAGS = {"I": regex.I, "M": regex.M}
# TOML through the standard library: no YAML parser on the tagging path (start-up; tests/test_startup.py)
_TABLE = tomllib.loads((Path(__file__).with_name("rulebook.toml")).read_text(encoding="utf-8"))

#: Rule name -> (subtype, regex: compiled on first use). Order matters: earlier rules win overlaps.
RULES = {r["name"]: (r["subtype"], _lazy(r["pattern"], sum(_FLAGS[f] for f in r.get("flags", ()))))
         for r in _TABLE["rules"]}
#: Lower-cased literals of which every match of a rule holds one (an ASCII text
#: without any is not scanned; see :func:`crfdeid.features.surface.cannot_match`).
NEEDS = {r["name"]: tuple(r["needs"]) for r in _TABLE["rules"] if "needs" in r}
#: Key words (lower-cased, word-bounded in the lower-cased ASCII text), by class. Classes
#: are disjoint: a word is in one class, a class serves several rules.
KEYWORDS: dict[str, str] = dict(_TABLE["keywords"])
_CLASS_OF = {w: c for c, words in KEYWORDS.items() for w in words.split()}
#: Rules run only near their key words on an ASCII note: ``(classes, "line")`` when every
#: match lies on a line that holds one (only those lines are scanned), ``(classes,
#: "start")`` when every match starts at one (the rule is tried there only). Same
#: matches as a scan of the whole note (tests/test_rules.py).
ANCHORS = {r["name"]: (tuple(r["anchor"]["classes"]), r["anchor"]["mode"]) for r in _TABLE["rules"] if "anchor" in r}
#: Rules whose matches (their ``phi`` group if they have one) must pass a word-list check
#: (:func:`crfdeid.recognizers.rules._word_check`).
WORD_CHECKS = {r["name"]: r["word_check"] for r in _TABLE["rules"] if "word_check" in r}
#: Rules that add one span per word of a name, as :func:`.rules.extend_names` adds the initial
#: of ``B. Varga`` on its own: the CRF then joins or keeps them as its training data did.
WORDWISE = frozenset(r["name"] for r in _TABLE["rules"] if r.get("wordwise"))


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
