"""Bedside readings, rhythms and misspellings taken for PHI: the reasons of :func:`.values.why_value` added
for the PhysioNet ICU notes (issue 50), kept apart from the older reasons.

* **vital** (:data:`VITAL`): a number or a range right after a vital sign's or a line's name (``RR 12-22``,
  ``CVP 8-14``, ``SpO2 89-100%``, the ``2 89`` of ``Spo2 89``); no slash (``BP 3/4`` is left to the other
  reasons): no date is written right after a measure's name without one.
* **rhythm**: ``ST`` (sinus tachycardia, an ECG's ST segment) in a span of no date, alone or with ECG
  words, glued to a digit (``1st AV block``), before an ECG word (``ST elevations``) or after a rhythm's
  word in the clause (``SR to ST with``); never before a listed first name, frequent surname or place,
  nor before a word in title case (``SR to St Mary's``, ``St. Agnes``, ``ST MARYS`` stay).
* **abbreviation**: a name span starting with the ``p`` of ``s/p`` (status post: ``S/P R NEPHRECTOMY``):
  no name is written glued after ``s/``.
* **side**: a name span starting with a side's letter (``R``, ``L``, ``B``, ``rt``, ``lt``; no full stop after
  it) whose other words, or the word after it when it stands alone, are all anatomy or clinical words
  (``icd10_words``, ``clinical_abbrevs``, ``clinical_words``) of no first-name list nor frequent surname:
  ``R groin``, ``L radial``, the ``R`` of ``R IJ TLC`` (``R. Groin``, ``L Aline``: an initial and a name, stay).
* **relation**: a one-word name span one letter dropped, swapped or doubled from a relation of five
  letters or more (``neice``, ``grandaughter``), neither a relation, a plural of one, a first name nor a
  frequent surname, not after a title nor before a surname in title case (``Mrs Neice``, ``Neice Jones``
  stay).

Evidence (docs/clinical-values.md, "Issue 50"): no gold span or token of the PhysioNet development notes
(the locked quarter left out) nor of synthetic notes of every i2b2 category is taken
(``tests/test_values.py``), and the made-up notes of other countries lose no identifier to them; made-up
UK, AU, IE, IN and lower-case lines are tested in ``tests/test_precision_forms.py``.

>>> from crfdeid.document import make_span
>>> text = "HR 80-103 SR TO ST WITH PVCS, RR 12-22"
>>> why_words(text, make_span(16, 18, "HOSPITAL"), ["st"], False), bool(VITAL.search(text))
('rhythm', True)
"""

from __future__ import annotations

from functools import lru_cache, partial

from .. import gazetteers
from ..document import Span
from .ruledata import lists, table

_R = table("bedside").namespace()  # the patterns and words (crfdeid/_data/rules/bedside.tsv)

#: A measure's name, then its reading (a number or a range, a percentage).
VITAL = _R.VITAL


@lru_cache(maxsize=1)
def common_names() -> frozenset:
    """First names, titles and the 2,000 most frequent surnames (the census lists' order): what a
    modal verb's next word must not be (``Will Smith``); rarer surnames that are verbs (``Call``,
    ``Go``) do not count."""
    return first_names() | gazetteers.load("titles") | frozenset(
        w.lower() for w in gazetteers.entries("surnames")[:2000])


#: The census lists' first names, lower case.
first_names = partial(lists, "first_female", "first_male")
_places = partial(lists, "cities", "states", "countries")


@lru_cache(maxsize=1)
def _anatomy() -> frozenset:
    return lists("icd10_words", "clinical_abbrevs", "clinical_words") - first_names() - common_names()


def misspelt_relation(word: str) -> bool:
    """``word`` (lower case) is one letter dropped, swapped or doubled from a relation of five letters or
    more (``neice``, ``grandaughter``), and no relation, plural of one, first name or frequent surname.
    Looked up in the relations' one-letter edits (2026-11-26, a speed change: the same answer as comparing
    with every relation on 68,651 words, docs/performance.md).

    >>> misspelt_relation("neice"), misspelt_relation("niece"), misspelt_relation("brothers")
    (True, False, False)
    """
    if len(word) < 5 or word in common_names():
        return False
    relations = gazetteers.load("relations")
    if word in relations or word.removesuffix("s") in relations:  # "Brothers": a plural, a surname too
        return False
    long_relations, near = _relation_edits()
    return word in near or any(word[:i] + word[i + 1:] in long_relations for i in range(len(word)))


@lru_cache(maxsize=1)
def _relation_edits() -> tuple[frozenset, frozenset]:
    """The relations of five letters or more, and each with two unlike neighbours swapped or a letter dropped
    (sets, so that a word is looked up once instead of compared with every relation)."""
    long_relations = frozenset(r for r in gazetteers.load("relations") if len(r) >= 5)
    near = {r[:i] + r[i + 1] + r[i] + r[i + 2:] for r in long_relations for i in range(len(r) - 1) if r[i] != r[i + 1]}
    near |= {r[:i] + r[i + 1:] for r in long_relations for i in range(len(r))}
    return long_relations, frozenset(near)


def _st_rhythm(text: str, sp: Span, n_words: int) -> bool:
    if sp.start > 0 and text[sp.start - 1].isdigit():
        return True  # an ordinal's ending: 1st AV block
    nxt = _R.WORD_AFTER.match(text, sp.end)
    after = nxt.group(1).lower() if nxt else ""
    if n_words > 1 or after in _R.ECG:
        return True
    known = common_names() | _places()
    if nxt is not None and (after in known or after.removesuffix("s") in known or nxt.group(1).istitle()):
        return False  # "St Mary's", "ST AGNES", "St. Luke"
    return bool(_R.RHYTHM_BEFORE.search(text, max(0, sp.start - 40), sp.start))


def why_words(text: str, sp: Span, lows: list[str], after_title: bool) -> str | None:
    """``rhythm``, ``abbreviation``, ``side`` or ``relation`` (the module's docstring) for a span of words ``lows``
    (its letter words, lower case; ``after_title``: a title stands right before it), or None."""
    if sp.category != "DATE" and lows and lows[0] == "st" and all(w in _R.ECG for w in lows[1:]) \
            and _st_rhythm(text, sp, len(lows)):
        return "rhythm"
    if sp.category == "NAME" and lows and lows[0] == "p" and text[max(0, sp.start - 2):sp.start].lower() == "s/":
        return "abbreviation"
    if sp.category == "NAME" and lows and lows[0] in _R.SIDES \
            and text[sp.start:sp.start + len(lows[0]) + 1][-1:] != "." and not after_title:
        rest = lows[1:]
        if not rest:
            nxt = _R.WORD_AFTER.match(text, sp.end)
            rest = [nxt.group(1).lower()] if nxt and not nxt.group(0).startswith(".") else []
        if rest and all(w in _anatomy() or w in _R.SIDES for w in rest) and not all(w in _R.SIDES for w in rest):
            return "side"
    if sp.category == "NAME" and len(lows) == 1 and misspelt_relation(lows[0]) and not after_title:
        nxt = _R.WORD_AFTER.match(text, sp.end)
        surface = text[sp.start:sp.end]
        if not (nxt and nxt.group(1).istitle() and not surface.isupper()):  # "Neice Jones"
            return "relation"
    return None
