"""Whether a tagged place (a hospital, an organisation, a street, a town, another place, a department) is
confidently a place of its kind: :func:`place_doubt`, read by :func:`crfdeid.deid.confident.doubt`.

Besides the module docstring of :mod:`crfdeid.deid.confident`: a place wholly in lower case in a note that is
not (``35 yo man``), a note's label or heading word alone as a hospital (``Outpatient``), and a service's name
before an institution's (``Fracture Clinic Waikato Hospital``) are no confident places; nor is a place a rule made
(the Safe Harbor layer's place shapes, the phrases and addresses steps: confidence 1.0) to which the model itself
gives P(PHI) below :data:`MODEL_SURE` (:func:`model_doubt`)."""

from __future__ import annotations

import re
from functools import lru_cache

from .. import gazetteers
from ..document import Span
from . import names
from .evidence import (
    ARTICLE_BEFORE,
    COMMON,
    english,
    fold,
    head_after,
    labels,
    lists,
    lower_case,
    note_labels,
    shouting,
    stop_words,
)
from .otherlang import person_label

#: The types :func:`place_doubt` judges (a state, a country, a postcode and a room are judged by their
#: type's own evidence or not at all).
PLACE_TYPES = frozenset({"HOSPITAL", "ORGANIZATION", "STREET", "CITY", "LOCATION-OTHER", "DEPARTMENT"})


def place_doubt(text: str, sp: Span) -> str | None:
    """Why the place span ``sp`` is not confidently a place, or None."""
    if sp.subtype == "DEPARTMENT":
        return "place"  # a hospital's service is no Safe Harbor identifier: a made-up one states a false service
    clinical, _, _, heads, places = lists()
    ws = [m.group() for m in names._WORD.finditer(text[sp.start:sp.end])]
    if not ws:  # digits alone: a room's, a ward's number (the numbered spans' rules); as a street, no address
        return "place" if sp.subtype == "STREET" else None  # mr okonjo 74: an age, a bed, no street's name
    last = fold(ws[-1])
    if (last in heads or last in clinical) and last not in places:
        return "place"  # Edinburgh Postnatal Depression Scale, Department of Gastroenterology, a carcinoma
    edges = {fold(w) for w in (ws[0], ws[-1]) if len(w) > 1} - places
    if len(ws) > 1 and (edges & (note_labels() | labels()) or any(map(person_label, edges))):
        return "place"  # a label or a role at an edge (NOTE Spinifex Creek Clinic, Consultant ...): taken in
    if len(ws) == 1 and person_label(ws[0]) and fold(ws[0]) not in places:
        return "place"  # Mutter, CPR: a relation or a label alone, no place (otherlang.py)
    shortest = 2 if sp.subtype in _INSTITUTIONS else 3  # Medical aid Bluegum Health Scheme; Musashino-shi a town
    joins = _CONNECTORS | stop_words()
    if any(w.islower() and len(w) > shortest and fold(w) not in places and fold(w) not in joins for w in ws[1:]) \
            and not ws[0].islower():
        return "place"  # Evolução ambulatorial, Trypanosoma cruzi, Medical aid ...: a place's words are capitalised
    if sp.subtype == "CITY" and len(ws) > 1 and fold(" ".join(ws)) not in places and all(
            fold(w) not in places and english().get(fold(w), COMMON) < COMMON for w in ws):
        return "place"  # Clinical Officer: common English words no place list holds, no town's name
    if len(ws) > 2 and all(w.islower() for w in ws) and _clause(ws):
        return "place"  # orlaith quennell rang the ward: a clause in lower case, no place's name
    if all(w.islower() for w in ws) and not lower_case(text) and not shouting(text):
        return "place"  # 35 yo man: a place's name is capitalised where the note capitalises
    if len(ws) == 1 and sp.subtype in _INSTITUTIONS and fold(ws[0]) in note_labels() and fold(ws[0]) not in _named():
        return "place"  # Outpatient: a note's label or heading word alone, no institution's name
    if len(ws) == 1 and len(ws[0]) > 1 and fold(ws[0]) not in places and (
            (ws[0].isupper() and not shouting(text)) or sp.subtype in _INSTITUTIONS):
        return "place"  # URGENCES, GH, Epicrisis: a word no place list holds, alone
    if head_after(text, sp.end):
        return "place"  # Manchester score: a place's name in a clinical term
    if sp.subtype in _INSTITUTIONS and len(ws) > 1:
        return _institution_doubt(text, sp, [fold(w) for w in ws])
    return None


#: The P(PHI) the model (the lowest of the span's tokens, ``Span.crf_confidence``) must give a place a rule made
#: for it to keep a realistic surrogate (docs/deid.md, "Fifth round" and "The lead, implemented": chosen after the
#: held-out figures were seen, so judged on a set nobody tuned on; not tuned further).
MODEL_SURE = 0.5
#: The place types :func:`model_doubt` judges: institutions and every geographic subdivision of Safe Harbor
#: (a street, a town, a state, a country, a postcode, another place), as the fifth round measured them.
RULE_PLACES = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT", "STREET", "CITY", "STATE", "COUNTRY", "ZIP",
                         "LOCATION-OTHER"})


def model_doubt(sp: Span, confidence: float | None, crf: float | None) -> str | None:
    """``model`` when ``sp`` is a place a rule made (the tagger's ``confidence`` 1.0: no CRF span, no repeat of
    one) and the model gives its words P(PHI) below :data:`MODEL_SURE` (``crf``: the lowest P(PHI) of its
    tokens, :mod:`crfdeid.tagging.crf_evidence`), else None. A heading or a drug the place shapes took as a
    hospital is written as a placeholder rather than as a made-up hospital; the span is still replaced.

    >>> from crfdeid.document import make_span
    >>> [model_doubt(make_span(0, 9, "HOSPITAL"), 1.0, p) for p in (0.12, 0.5)]
    ['model', None]
    >>> model_doubt(make_span(0, 9, "HOSPITAL"), 0.3, 0.3), model_doubt(make_span(0, 9, "DOCTOR"), 1.0, 0.1)
    (None, None)
    """
    if sp.subtype in RULE_PLACES and confidence is not None and confidence >= 1.0 and crf is not None \
            and crf < MODEL_SURE:
        return "model"
    return None


_LOWER_WORD_AFTER = re.compile(r"[ \t]+([a-z]+)\b")


#: Words a place's name holds between its words (``Hospital of the University``, ``Stoke-on-Trent``,
#: ``Hospital for Sick Children``); an article comes after one of them (``of the``) or first.
_CONNECTORS = frozenset({"of", "and", "on", "upon", "in", "at", "by", "for", "under", "over", "de", "la", "le",
                         "del", "des", "du", "da", "do", "dos", "das", "y", "e", "st", "sur"})
_ARTICLES = frozenset({"the", "a", "an"})


def _clause(ws: list[str]) -> bool:
    """Whether a place span's words read as a clause, not a name: a function word (the ``stop_words``
    list) that joins no place's words (``rang the ward``: an article after a verb; ``he``, ``was``)."""
    low = [fold(w).lower() for w in ws]
    for i, w in enumerate(low[1:], 1):
        if w in _ARTICLES and low[i - 1] not in _CONNECTORS:
            return True
        if w in stop_words() and w not in _ARTICLES and w not in _CONNECTORS:
            return True
    return False


def _institution_doubt(text: str, sp: Span, low: list[str]) -> str | None:
    """Why a hospital's or an organisation's name of several words is not confidently one: a service's
    name (every word but its head noun is anatomy, a department's or clinical: ``Eye Clinic``), or no
    head noun of an institution (``Hospital``, ``Clinic``, ``Inc``) and the words of a noun phrase around
    it (an article before, a lower-case word after: ``the Ashkenazi Jewish founder variants``): a made-up
    hospital there states a false fact."""
    listed, words, service, heads = _institutions()
    if fold(text[sp.start:sp.end]).lower() in listed:
        return None
    clinical, names_, _, _, places = lists()
    rest = [w for w in low if w not in heads and w not in stop_words() and len(w) > 1]
    def service_words(words: list[str]) -> bool:
        return bool(words) and all(w in service or (w in clinical and w not in names_ and w not in places)
                                   for w in words)
    if service_words(rest):
        return "place"
    first = next((i for i, w in enumerate(low) if w in heads), len(low))
    if first < len(low) - 1 and service_words([w for w in low[:first] if w not in stop_words() and len(w) > 1]):
        return "place"  # Fracture Clinic Waikato Hospital: a service's name before the hospital's, taken in
    if not any(w in heads for w in low):
        after = _LOWER_WORD_AFTER.match(text, sp.end)
        if ARTICLE_BEFORE.search(text, max(0, sp.start - 5), sp.start) or (
                after is not None and after.group(1) not in stop_words()):
            return "place"
    return None


@lru_cache(maxsize=1)
def _institutions() -> tuple[frozenset, frozenset, frozenset, frozenset]:
    """Listed hospitals and organisations (folded); the words their names are made of (``hospital``,
    ``memorial``, ``sacred``, ``inc``: the ``hospital_words``, ``organization_words`` and heads lists); the
    words of a service (anatomy, departments); the head nouns (the heads lists, ``organization_words``)."""
    folded = lambda n: [fold(e).lower() for e in gazetteers.entries(n)]  # noqa: E731
    listed = frozenset(folded("hospitals") + folded("organizations"))
    heads = frozenset(w for n in ("hospital_heads", "organization_heads", "organization_words")
                      for e in folded(n) for w in e.split())
    words = heads | frozenset(w for e in folded("hospital_words") for w in e.split())
    service = frozenset(w for n in ("anatomy_sites", "departments") for e in folded(n)
                        for w in re.findall(r"[a-z]+", e))
    return listed, words, service - heads, heads


_INSTITUTIONS = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT"})


@lru_cache(maxsize=1)
def _named() -> frozenset:
    """The names of listed hospitals, organisations and towns (folded): a place's own name, no generic word."""
    return frozenset(fold(e).lower() for n in ("hospitals", "organizations", "cities") for e in gazetteers.entries(n))
