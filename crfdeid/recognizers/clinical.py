"""Clinical words as negative evidence: predicted spans that are clinical terms, dropped.

A CRF that has seen few notes takes eponyms for names and places (``Murphy`` of
``Murphy sign``, ``Glasgow`` of ``Glasgow Coma Scale``), a dose for a year (``2000`` of
``Vitamin D 2000 IU``), a clock time for a date and a device for a person (``with a
walker``); surrogates then change the note's clinical meaning. :func:`drop_clinical`
drops a predicted span only when all of it is one of these, in its clinical context:

* **eponym**: every word of the span is in the ``clinical_words`` list (eponyms, drugs,
  devices) or is a clinical head noun, one at least of them or the word before the span is
  in ``clinical_words``, and a clinical head noun of ``clinical_heads`` follows it (``sign``,
  ``disease``, ``scale``, ``coma``, ``catheter``..., after an optional ``'s``): ``Glasgow
  Coma`` or the ``Coma`` of ``Glasgow Coma Scale``;
* **dose**: the span is a number and a dose unit follows (``IU``, ``units``, ``mg``, ``mcg``,
  ``ml``, ``mEq``, ``%``...), or words then such a number, none of the words a census first
  name, surname or title (``Vitamin D 2000`` of ``Vitamin D 2000 IU``; not ``Smith 20``);
* **score**: the span is a number (a sign allowed), or clinical words then a number, right
  after the name of a clinical scale or score (the ``clinical_scales`` list: ``GCS``,
  ``RASS``, ``Glasgow``..., and ``scale``, ``score``, ``grade``, ``class``, ``stage``), with
  an optional ``:``, ``=``, ``of``, ``is`` or ``was`` between: ``15`` of ``Glasgow Coma Scale
  15``, ``GCS: 15``, ``RASS -2``;
* **time**: the span is a 24-hour clock time (``0200``) after ``at``/``@``/``~``/``around``
  or before ``hrs``/``h``/``hours``;
* **device**: the span is one lower-case head noun after an article or ``with``/``w/``
  (``a walker``, ``the drain``);
* **vocabulary** (issue 34): the span is a run of entries of the public lists of eponyms,
  brands and clinical abbreviations (``eponyms``, ``brand_names``, ``clinical_abbrevs``; not
  ``departments``, which the i2b2 2014 labels make PHI): ``Medtronic`` + ``Azure XT``,
  ``Lisfranc``, ``Cockcroft-Gault``. An entry that is also a listed name or place
  (``Bruce``, ``Holter``, ``Denver``, ``Norco``) counts only before a clinical head noun
  (``Bruce protocol``, ``Nottingham grade``), so a patient or a city of that name stays PHI;
  one of two letters never (``NC``, ``SC``: state codes too); and a span inside an
  occurrence of a phrase of the ``eponyms`` list (``Ottawa`` of ``Ottawa ankle rules``,
  ``Nottingham`` of ``Nottingham grade 2``), a phrase of two words or more with a word that
  is a clinical head noun, a scale or no listed name, place, relation or title (not ``Ann
  Arbor``, ``Austin Flint``, ``Sister Mary Joseph``: a place or a person's name too); and one
  word of those lists coordinated with another (``Weber and Rinne``, ``Phalen & Tinel``: a pair
  of bedside tests, issue 50), no title before the pair (``Drs Weber and Rinne``: two people).
  The lists ``eponyms_more`` and ``clinical_heads_more`` (``Zimmer frame``, ``Riedel lobe``)
  are read beside ``eponyms`` and ``clinical_heads``. A run of such entries (no listed name or place)
  and a model number of one or two digits, a capital before them allowed, is one too (``Libre 2``,
  ``Dexcom G6``: a device and its model, issue 50 third round).

Clinical values, headings, labels and staff roles (``4/5 RUE``, ``GAD-7 12``, ``05:02``, ``67 yo``,
``ED TRIAGE NOTE``, ``MRN``, ``night RN``, ``Will recheck``): :mod:`.values`, judged first.

It runs before the Safe Harbor layer (:mod:`crfdeid.recognizers.safeharbor`), which
puts back any identifier of its forms: a span it would find is never dropped.
Lists: ``gazetteers/clinical_words.txt``, ``clinical_heads.txt`` and ``clinical_scales.txt``
(docs/gazetteers.md). Measured effect on recall and precision: docs/safeharbor.md.

>>> from crfdeid.document import make_span
>>> text = "Murphy sign negative; Vitamin D 2000 IU; seen by Dr. Murphy"
>>> [text[s.start:s.end] for s in drop_clinical(text, [make_span(0, 6, "DOCTOR"),
...     make_span(32, 36, "DATE"), make_span(53, 59, "DOCTOR")])]
['Murphy']
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache, partial

from .. import gazetteers
from ..document import Span, make_span
from ..site.match import TOKEN
from . import values
from .fixedforms import plain_words as _plain
from .ruledata import lists, table

_R = table("clinical").namespace()  # the patterns and words (crfdeid/_data/rules/clinical.tsv)


def _drug_word(word: str) -> bool:
    """A word of a drug's name before its dose: a clinical word, a short code (``D``, ``B12``),
    or a word that is no first name or surname of the census lists and no title."""
    low = word.lower()
    return low in _lists()[0] or bool(_R.CODE.fullmatch(word)) or low not in _name_words()


#: Census first names and surnames and titles, lower case.
_name_words = partial(lists, "first_female", "first_male", "surnames", "surnames_rare", "titles")


@lru_cache(maxsize=1)
def _lists() -> tuple[frozenset, frozenset]:
    """Clinical words (eponyms, drugs, devices) and clinical head nouns, lower case."""
    return gazetteers.load("clinical_words"), lists("clinical_heads", "clinical_heads_more")


#: The public lists of the ``vocabulary`` reason (not ``departments``: the i2b2 2014 labels
#: make a department PHI, DEPARTMENT).
VOCABULARY = table("clinical").entries("VOCABULARY")


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset, frozenset]:
    """The entries of :data:`VOCABULARY` (lower case), and the names and places of the word lists."""
    return lists(*VOCABULARY), _name_words() | lists("cities", "states", "countries")


def entry_run(words: list[str], entries, ok=lambda entry: True) -> bool:
    """Whether ``words`` (lower case) are a run of ``entries`` of one to six words each, each
    entry one where ``ok(entry)``.

    >>> entry_run(["medtronic", "azure", "xt"], {"medtronic", "azure xt", "azure"}, lambda w: w != "azure")
    True
    """
    covered = [True] + [False] * len(words)  # covered[i]: words[:i] is such a run
    for i in range(len(words)):
        if covered[i]:
            for j in range(i + 1, min(len(words), i + 6) + 1):
                entry = " ".join(words[i:j])
                if entry in entries and ok(entry):
                    covered[j] = True
    return bool(words) and covered[-1]


@lru_cache(maxsize=1)
def _phrases() -> frozenset:
    """The phrases of the ``eponyms`` list that hold a clinical head noun, a scale or a word
    of no name, place, relation or title list (lower case): ``ottawa ankle rules``, not ``ann
    arbor`` or ``sister mary joseph``."""
    entries, named = _vocabulary()
    heads, scales = _lists()[1], _scales()
    people = lists("relations", "titles")

    def clinical(word: str) -> bool:
        return len(word) > 2 and (word in heads or word in scales or (word not in named and word not in people))

    return frozenset(e for e in lists("eponyms", "eponyms_more")
                     if " " in e and e not in named and any(clinical(w) for w in _R.WORD.findall(e)))


def in_phrase(text: str, sp: Span, words: list[str]) -> bool:
    """Whether the span (its ``words``, lower case) lies inside an occurrence of one of
    :func:`_phrases` in ``text``.

    >>> from crfdeid.document import make_span
    >>> text = "Ottawa ankle rules negative."
    >>> in_phrase(text, make_span(0, 6, "CITY"), ["ottawa"]), in_phrase(text, make_span(7, 12, "CITY"), ["ankle"])
    (True, True)
    >>> in_phrase("Moved from Ottawa in May.", make_span(11, 17, "CITY"), ["ottawa"])
    False
    """
    before = _R.WORDS_BEFORE.search(text, max(0, sp.start - 80), sp.start)
    after = _R.WORDS_AFTER.match(text, sp.end, sp.end + 80)
    left = before.group(1).lower().split() if before else []
    seq = left + words + (after.group(0).lower().split() if after else [])
    first, last, phrases = len(left), len(left) + len(words), _phrases()
    return any(" ".join(seq[i:j]) in phrases for i in range(first + 1)
               for j in range(max(last, i + 2), min(len(seq), i + 6) + 1))


#: Names of clinical scales and scores, lower case.
_scales = partial(lists, "clinical_scales")


def prepare() -> None:
    """Load the lists (a model does this at load)."""
    _lists()
    _scales()
    _name_words()
    _vocabulary()
    _phrases()
    values.prepare()


def _not_a_name(text: str, sp: Span, words: list[str]) -> str | None:
    """Why a name span is no name: a verb that asks for the number after it (``call (217)
    555-0143``), or a lower-case phrase led by an article, of plain words (``a pleasant``)."""
    lows = [w.lower() for w in words]
    if len(lows) == 1 and lows[0] in _R.CONTACT_VERBS and _R.NUMBER_AFTER.match(text, sp.end):
        prev = _R.PREV_WORD.search(text, max(0, sp.start - 16), sp.start)
        if prev is None or prev.group(1).lower() not in gazetteers.load("titles"):  # not "Dr Call"
            return "verb"
    if len(lows) > 1 and lows[0] in _R.DETERMINERS and words[0].islower() and all(
            w.islower() and w in _plain() for w in words[1:]):
        return "phrase"
    return None


def _after_article(text: str, sp: Span, words: list[str]) -> bool:
    """Whether a name span is lower-case plain words between a lower-case article and an age
    (``pleasant`` of ``a pleasant 92-year-old``). Without the age it would take a name too: on
    the PhysioNet development notes one gold name stands after an article, none before an age."""
    if not words or not all(w.islower() and w in _plain() for w in words) or not _R.AGE_AFTER.match(text, sp.end):
        return False
    prev = _R.PREV_WORD.search(text, max(0, sp.start - 8), sp.start)
    return prev is not None and prev.group(1) in _R.DETERMINERS


def why_clinical(text: str, sp: Span) -> str | None:
    """The reason (``eponym``, ``dose``, ``score``, ``time``, ``device``, ``vocabulary``; for a name
    span ``verb`` or ``phrase``; or, judged first, a clinical value's reason of
    :func:`.values.why_value`: ``score``, ``grade``, ``setting``, ``vital``, ``time``, ``age``, ``dose
    number``, ``heading``, ``label``, ``role``, ``modal``, ``colour``, ``rhythm``, ``abbreviation``,
    ``side``, ``relation``, ``compound``) a
    predicted span is a clinical term and no PHI, or None."""
    value = values.why_value(text, sp)
    if value:
        return value
    words, heads = _lists()
    surface = text[sp.start:sp.end]
    score = _R.SCORE.fullmatch(surface)
    if score:
        inside = (score.group(1) or "").split()
        before = _R.SCALE_BEFORE.search(text, max(0, sp.start - 40), sp.start)
        last = inside[-1] if inside else (before.group(1) if before else "")
        clinical = words | heads | _scales()
        if last.lower() in _scales() and all(w.lower() in clinical for w in inside):
            return "score"
    dose = _R.DOSE_PHRASE.fullmatch(surface)
    if dose and _R.UNIT.match(text, sp.end) and all(_drug_word(w) for w in dose.group(1).split()):
        return "dose"
    if _R.NUMBER.fullmatch(surface):
        if _R.UNIT.match(text, sp.end):
            return "dose"
        if _R.CLOCK.fullmatch(surface) and (_R.AT.search(text, max(0, sp.start - 12), sp.start)
                                          or _R.HOURS.match(text, sp.end)):
            return "time"
        return None
    core = surface.rstrip(".")  # a span may keep the full stop after a word
    model = _R.MODEL_NUMBER.fullmatch(core)  # a device and its model: "Libre 2", "Dexcom G6" (issue 50)
    if model and entry_run(model.group(1).lower().split(), _vocabulary()[0],
                           lambda e: len(e) > 2 and e not in _vocabulary()[1]):
        return "vocabulary"
    found = _R.WORD.findall(core)
    if not found or len("".join(found)) != sum(not c.isspace() for c in core):
        return None  # digits or other characters in it
    if sp.category == "NAME":
        why = _not_a_name(text, sp, found)
        if why:
            return why
    if core.islower() and len(found) == 1 and core in heads \
            and _R.ARTICLE.search(text, max(0, sp.start - 16), sp.start):
        return "device"
    nxt = _R.NEXT_WORD.match(text, sp.end)
    lows = [w.lower().removesuffix("'s") for w in found]
    if nxt and nxt.group(1).lower() in heads and all(w in words or w in heads for w in lows):
        prev = _R.PREV_WORD.search(text, max(0, sp.start - 40), sp.start)
        if any(w in words for w in lows) or (prev and prev.group(1).lower().removesuffix("'s") in words):
            return "eponym"
    entries, named = _vocabulary()
    head = nxt is not None and nxt.group(1).lower() in heads
    # an entry of two letters is too like a state's code (NC, SC: nasal cannula, subcutaneous)
    if entry_run(core.lower().split(), entries, lambda e: len(e) > 2 and (head or "-" in e or e not in named)) \
            or in_phrase(text, sp, lows):
        return "vocabulary"
    if sp.category == "NAME" and _after_article(text, sp, found):
        return "phrase"
    if len(found) == 1 and lows[0] in entries and _eponym_pair(text, sp, entries):
        return "vocabulary"
    return None


def _eponym_pair(text: str, sp: Span, entries) -> bool:
    """Whether a one-word span of the eponym lists is coordinated with another entry of them
    (``Weber and Rinne``: two bedside tests), with no title before the pair (``Drs Weber and Rinne``)."""
    after = _R.PAIR_AFTER.match(text, sp.end)
    before = _R.PAIR_BEFORE.search(text, max(0, sp.start - 30), sp.start)
    other = (after.group(1) if after else None), (before.group(1) if before else None)
    start = before.start() if before and other[1] and other[1].lower().removesuffix("'s") in entries else sp.start
    if not any(o and o.lower().removesuffix("'s") in entries and len(o) > 2 for o in other):
        return False
    return _R.TITLED.search(text, max(0, start - 40), start) is None


def drop_clinical(text: str, spans) -> list[Span]:
    """``spans`` without those that are clinical terms in their context (:func:`why_clinical`)."""
    return [sp for sp in spans if why_clinical(text, sp) is None]


def taken(docs) -> dict:
    """What the filter would take of annotated ``docs``: ``{reason: {"spans": n, "tokens": n}}``
    over their gold spans, each judged whole and each of its tokens alone (a tagger may find part
    of a name) as if predicted, its pieces (:func:`.values.pieces`) judged whole too, and the tokens
    the cutting and narrowing leave out (``narrowed``: a label's, a gap's). Counts only. The bar for a rule
    that drops a span is ``{}``
    (``bench/clinical_values_gold.py`` prints it for a corpus)."""
    spans: Counter = Counter()
    tokens: Counter = Counter()
    for doc in docs:
        for sp in doc.spans:
            why = why_clinical(doc.text, sp)
            if why:
                spans[why] += 1
            kept = values.pieces(doc.text, sp)  # the clinical filter's cutting and narrowing
            left = [t for t in TOKEN.finditer(doc.text, sp.start, sp.end)
                    if not any(p.start <= t.start() and t.end() <= p.end for p in kept)]
            if left:
                spans["narrowed"] += 1
                tokens["narrowed"] += len(left)
            for piece in kept:
                why_piece = why_clinical(doc.text, piece) if piece != sp else None
                if why_piece:
                    spans[why_piece] += 1
            for tok in TOKEN.finditer(doc.text, sp.start, sp.end):
                why_tok = why_clinical(doc.text, make_span(tok.start(), tok.end(), sp.subtype))
                if why_tok:
                    tokens[why_tok] += 1
    return {r: {"spans": spans[r], "tokens": tokens[r]} for r in sorted(set(spans) | set(tokens))}
