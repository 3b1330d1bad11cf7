r"""A blunt rule for surrogate output (issue 58 item 3): a made-up value only where the span's type
is proven, a placeholder of its type otherwise (``surrogates: proven``; docs/deid.md, "Eighth round").

Seven rounds of evidence by shape (:mod:`crfdeid.deid.confident`) mend the development sets but carry
over little to notes not yet seen. This rule does not ask what a span looks like; it asks whether
anything proves its type. A tagged span's type is proven by

(a) a fixed form the Safe Harbor layer checks (:func:`crfdeid.recognizers.safeharbor.matches` but a
    year alone: an email, a phone, a dated form, a check digit); such a span has no tagger's
    confidence (:func:`crfdeid.deid.policies.confidences`) and is proven;
(b) the tagger's confidence (the lowest token P(PHI) in the span) at or above a bar; with ``model`` on,
    the model's word on the span's words too (``Span.crf_confidence``): a rule's span has the tagger's
    confidence 1.0 whatever the model says, so a rule alone proves nothing;
(c) for a name (``PATIENT``, ``DOCTOR``), with ``names`` on: a listed first name among its words, or
    a title or a person's mark right before it (``Dr.``, ``Mrs``, ``Pt``, ``nurse``, ``seen by``);
(d) for a name, the note's own record: every word of it a word of a name the record gives with the note
    (``meta["known"]``: a FHIR Patient's or RelatedPerson's, an HL7 PID's, a JSON Lines note's ``known``;
    :func:`record_names`), whatever the model says (the ninth round, docs/deid.md).

An age of 89 or less is kept as written, so it states nothing made up and is never held. The rule
comes on top of :mod:`crfdeid.deid.confident`'s evidence; redacted output is untouched.

>>> from crfdeid.document import make_span
>>> text = "Seen by Dr. Quenby. Emily Stroud rang. Quenby height."
>>> [proven(text, make_span(a, b, "DOCTOR"), 0.6, 0.95) for a, b in [(12, 18), (20, 32), (39, 45)]]
[True, True, False]
>>> proven(text, make_span(39, 45, "DOCTOR"), 0.97, 0.95), proven(text, make_span(12, 18, "DOCTOR"), 0.6, 0.95, False)
(True, False)
>>> proven(text, make_span(39, 45, "DOCTOR"), 1.0, 0.95, crf=0.2)  # a rule's span the model doubts
False
>>> proven("Pt Tamsin Oakhurst seen.", make_span(3, 18, "PATIENT"), 1.0, 0.95, crf=0.37)  # a patient's mark
True
>>> proven("Quenby Oakhurst seen.", make_span(0, 15, "PATIENT"), 1.0, 0.95, crf=0.37,
...        record=record_names({"name": ["Quenby Oakhurst"]}))  # the record's own name
True
"""

from __future__ import annotations

from ..document import Span
from ..errors import ConfigError
from ..schema import PERSON_SUBTYPES
from . import ages, names
from .confident_note import first_names, person_before
from .defaults import DEFAULT_PROVEN
from .evidence import TITLE_BEFORE, fold

#: The bars measured (docs/deid.md, "Eighth round"): the lowest token P(PHI) a span needs without a fixed form.
BARS = (0.9, 0.95, 0.98, 0.99)
#: The words that turn the rule off (``-o proven=off`` reads as YAML false, ``null`` as None).
OFF = frozenset({"off", "none", "null", "false", "no"})


def bar(value) -> float | None:
    """The ``proven`` setting as a bar: a confidence between 0 and 1, None for off (``off``,
    ``none``, ``null``, false), :data:`~crfdeid.deid.defaults.DEFAULT_PROVEN` for ``on`` (true).

    >>> bar(0.98), bar("off"), bar(False), bar(True)
    (0.98, None, None, 0.95)
    """
    word = value.strip().lower() if isinstance(value, str) else None
    if value is None or value is False or word in OFF:
        return None
    if value is True or word in ("on", "true", "yes"):
        return DEFAULT_PROVEN
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    raise ConfigError(f"proven={value!r}: a confidence between 0 and 1, or off (none)")


def name_proven(text: str, sp: Span) -> bool:
    """Whether a listed first name is among the name span's words or a title or person's mark stands right
    before it (``Dr.``, ``Pt``, ``nurse``, ``seen by``: :func:`.confident_note.person_before`)."""
    if TITLE_BEFORE.search(text, max(0, sp.start - 12), sp.start) or person_before(text, sp):
        return True
    listed = first_names()
    return any(fold(m.group()) in listed for m in names.words(text[sp.start:sp.end]))


def proven(text: str, sp: Span, confidence: float | None, bar: float, names_too: bool = True,
           crf: float | None = None, record: frozenset = frozenset()) -> bool:
    """Whether the tagged span ``sp`` of ``text`` may take a made-up value: its type proven (module
    docstring). ``confidence``: the tagger's, None for a span over a fixed form or a user's span;
    ``bar``: the confidence that proves a type alone; ``names_too``: rule (c) on; ``crf``: the model's
    word on the span, held to the bar too when given (the ``model`` reading); ``record``: the words of the
    names the note's record gives (:func:`record_names`, rule (d))."""
    if confidence is None or (confidence >= bar and (crf is None or crf >= bar)):
        return True
    if record_name(text, sp, record):
        return True
    if sp.subtype == "AGE" and (ages.value(text[sp.start:sp.end]) or 0) <= 89:
        return True  # kept as written: nothing made up
    return names_too and sp.subtype in PERSON_SUBTYPES and name_proven(text, sp)


#: The fields of ``meta["known"]`` that hold a person's name or a part of one (:data:`crfdeid.site.tables.FIELDS`).
RECORD_NAME_FIELDS = ("name", "first_name", "middle_name", "last_name", "relative")


def record_names(known) -> frozenset:
    """The words (two letters or more, folded) of the names a note's record gives: ``meta["known"]``'s name
    fields, each a list of strings or one string of values split at ``;``.

    >>> sorted(record_names({"name": ["Tamsin O'Hare-Quenby"], "mrn": ["8812047"], "relative": "Ann Lee; Bo Li"}))
    ['ann', 'bo', 'lee', 'li', "o'hare", 'quenby', 'tamsin']
    """
    if not isinstance(known, dict):
        return frozenset()
    words: set[str] = set()
    for field in RECORD_NAME_FIELDS:
        values = known.get(field)
        for value in values if isinstance(values, (list, tuple)) else str(values or "").split(";"):
            words.update(fold(m.group()) for m in names.words(str(value)) if len(m.group()) > 1)
    return frozenset(words)


def record_name(text: str, sp: Span, record: frozenset) -> bool:
    """Whether ``sp`` is a name (``PATIENT``, ``DOCTOR``) every word of which (two letters or more) is a word of a
    name the note's record gives (``record``: :func:`record_names`): the record proves it is a person's name."""
    if not record or sp.subtype not in PERSON_SUBTYPES:
        return False
    found = [fold(m.group()) for m in names.words(text[sp.start:sp.end]) if len(m.group()) > 1]
    return bool(found) and all(w in record for w in found)
