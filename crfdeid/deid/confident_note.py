"""Evidence that no shape lists: the model's own word on a name a rule made, the note's own way of writing
dates, and where a span stands (issue 58 item 3, the seventh round, 2026-11-26; docs/deid.md, "Seventh
round"), read by :func:`crfdeid.deid.confident.doubt` after the evidence of each type's shape.

* :func:`rule_doubt`: a name a rule made (the tagger's confidence 1.0: no CRF span, no repeat of one) to which
  the model gives P(PHI) below :data:`.confident_places.MODEL_SURE`, with no title or person's word beside it
  (the fifth round's place rule, :func:`.confident_places.model_doubt`, for names: ``0.8 C``, ``P-K, P-Krea``; since
  the tenth round an initial or the name lists, the rules' own evidence, prove nothing against the model:
  ``D. Cryotherapy``, ``H. pylori``, ``Carter-Thomason device``);
* :func:`role_after_name`: a name or an institution right after a person's name and a comma, where a
  credential or a role stands, that the model is less than :data:`SURE` of or, an institution, that has no
  institution's word (``Dott. Lorenzo Quaglia, Dirigente Medico``, ``Dr. Ana Ruiz, Cirujana Bariatra``);
* :func:`pair_doubt`: a day and month alone (no year, no month's name) that the tagger is less than
  :data:`SURE` of, in a note that writes its dates with a year (``International 10-20 system``, ``10-14 days``);
* :func:`word_doubt`: one word alone taken as a name that is a first name and a common English word too
  (``Walker``, ``Winter``), that the tagger is less than :data:`SURE` of, with no person's mark beside it.

Besides, a year alone that the Safe Harbor layer's ``bare_year`` form finds (:data:`WEAK_FORMS`) is no
identifier of a fixed form: the tagger's confidence judges it (``G3 by WHO 1973``).

>>> from crfdeid.document import make_span
>>> text = "Seen 12/03/2024. Electrodes by the International 10-20 system."
>>> pair_doubt(text, make_span(49, 54, "DATE"), 0.84)
'date'
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .. import gazetteers
from ..document import Span
from ..schema import PERSON_SUBTYPES
from .confident_places import MODEL_SURE
from .evidence import PERSON_AFTER, SURE, TITLE_BEFORE, english, fold

#: The Safe Harbor layer's fixed forms whose words alone make no identifier certain (a year alone: a
#: classification's or a count's as often, ``WHO 1973``): the tagger's confidence and the evidence judge them
#: (:meth:`crfdeid.deid.surrogate.Surrogator.surrogate`).
WEAK_FORMS = frozenset({"bare_year"})
_INSTITUTIONS = frozenset({"HOSPITAL", "ORGANIZATION"})


def note_doubt(text: str, sp: Span, confidence: float | None, crf: float | None,
               person_ends: frozenset = frozenset()) -> str | None:
    """Why ``sp`` is no confident identifier by the evidence of this module (``model``, ``role``, ``date``,
    ``name``), or None; ``confidence`` the tagger's, ``crf`` the model's word, ``person_ends`` where the note's
    name spans end."""
    return (rule_doubt(text, sp, confidence, crf) or role_after_name(text, sp, person_ends, crf)
            or pair_doubt(text, sp, confidence) or word_doubt(text, sp, confidence))


def rule_doubt(text: str, sp: Span, confidence: float | None, crf: float | None) -> str | None:
    """``model`` when the name span ``sp`` is a rule's (the tagger's ``confidence`` 1.0) that the model gives
    P(PHI) below :data:`MODEL_SURE` (``crf``) and no title or person's word stands beside it (:func:`person_beside`
    without initials: ``Dr``, ``Pt``, ``nurse``, ``wife:``, ``seen by``, ``, RN``, ``aware``), else None.

    Against the model's word, the rule's own evidence proves nothing (the tenth round, docs/deid.md): the rules
    find a name by an initial before a capitalised word and by the name lists, so an initial (``D. Cryotherapy``,
    ``H. pylori``, ``T. bili``), a listed first name (``Nota de Alta``) or words that are all listed surnames
    (``Carter-Thomason device``) cannot also be the proof; a person's word beside the span can
    (``Dr Oyelaran-Stiles``, ``Pt Tamsin Oakhurst``, ``Okafor aware``).

    It removes no span (a doubted name is written as a placeholder, never left as written). Evidence
    (docs/deid.md, "Tenth round"): on the 19 development sets (US, UK day-first and other countries' notes)
    as written, lower- and upper-cased, falsified values 124 -> 102 for 58 more real identifiers as
    placeholders; on falsify14, written before the decision, 8 -> 6; on check13, never tuned on, 31 -> 27
    over the three casings (docs/history/check13-rule.md); redacted output unchanged on every set.

    >>> from crfdeid.document import make_span
    >>> [rule_doubt("P-K, P-Krea", make_span(0, 11, "PATIENT"), c, m) for c, m in ((1.0, 0.2), (1.0, 0.6), (0.4, 0.4))]
    ['model', None, None]
    >>> rule_doubt("Dr Okafor-Price", make_span(3, 15, "DOCTOR"), 1.0, 0.1)
    >>> rule_doubt("Pt Tamsin Oakhurst (MRN 1)", make_span(3, 18, "PATIENT"), 1.0, 0.3)
    >>> rule_doubt("positive for H. Pylori", make_span(16, 22, "DOCTOR"), 1.0, 0.001)  # an initial: the rule's own
    'model'
    """
    if sp.subtype not in PERSON_SUBTYPES or confidence is None or confidence < 1.0 or crf is None or crf >= MODEL_SURE:
        return None
    if TITLE_BEFORE.search(text, max(0, sp.start - 12), sp.start) or person_beside(text, sp, initials=False):
        return None  # Dr, Pt, nurse, seen by, ", RN" beside it: a person's word the rule did not need
    return "model"


_AFTER_NAME = re.compile(r"[ \t]*,[ \t]*$")


def role_after_name(text: str, sp: Span, person_ends: frozenset, crf: float | None) -> str | None:
    """``role`` when the name or institution ``sp`` stands right after a person's name (``person_ends``: where
    the note's name spans end) and a comma, and the model is less than :data:`SURE` of it (``crf``), else None:
    after a name and its comma a note writes a credential, a role or a service (``Emre Yücel, Uzman Üroloji``).

    >>> from crfdeid.document import make_span
    >>> text = "Dr. Emre Yucel, Uzman Uroloji"
    >>> role_after_name(text, make_span(16, 29, "DOCTOR"), frozenset({14}), 0.85)
    'role'
    """
    if sp.subtype not in PERSON_SUBTYPES | _INSTITUTIONS or crf is None:
        return None
    m = _AFTER_NAME.search(text, max(0, sp.start - 6), sp.start)
    if m is None or m.start() not in person_ends:
        return None
    if crf < SURE or (sp.subtype in _INSTITUTIONS and not _institution_word(text[sp.start:sp.end])):
        return "role"  # Uzman Üroloji; Medico di Medicina Generale, no institution's word (Practice, Hospital)
    return None


@lru_cache(maxsize=1)
def _institution_words() -> frozenset:
    return frozenset(fold(e) for n in ("hospital_heads", "organization_heads", "hospital_words", "organization_words")
                     for e in gazetteers.entries(n))


def _institution_word(surface: str) -> bool:
    """Whether a word of ``surface`` is one of an institution's name (the hospital and organisation word lists)."""
    return any(fold(w) in _institution_words() for w in re.findall(r"[^\W\d_]+", surface))


_PAIR = re.compile(r"\d{1,2}[ \t]*[-/.][ \t]*\d{1,2}")
_WITH_YEAR = re.compile(r"(?<!\d)(?:\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d|(?:19|20)\d\d([-/.])\d{1,2}\1\d{1,2})(?!\d)"
                        r"|(?i:\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                        r"[a-z]*\.?,?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d\b)")


def dated_with_years(text: str) -> bool:
    """Whether the note writes a date with its year, four digits (``14/03/2025``, ``2025-03-14``, ``2025/03/14``,
    ``14 March 2025``, ``Mar 14, 2025``)."""
    return _WITH_YEAR.search(text) is not None


def lone_day_month(text: str, sp: Span) -> bool:
    """Whether ``sp`` is two numbers alone, a day and a month (no year, no month's name: ``9/24``, ``10-14``), in a
    note that writes a date with its year (:func:`dated_with_years`)."""
    return _PAIR.fullmatch(text[sp.start:sp.end]) is not None and dated_with_years(text)


def pair_doubt(text: str, sp: Span, confidence: float | None) -> str | None:
    """``date`` when the DATE span ``sp`` is two numbers alone (no year, no month's name) the tagger is less than
    :data:`SURE` of, in a note that writes a date with its year: not how this note writes a date."""
    if sp.subtype != "DATE" or confidence is None or confidence >= SURE:
        return None
    if lone_day_month(text, sp):
        return "date"
    return None


def word_doubt(text: str, sp: Span, confidence: float | None) -> str | None:
    """``name`` when the name span ``sp`` is one word alone, capitalised, that is a listed first name and one of
    the 10,000 most frequent English words too (``Walker``, ``Winter``, ``Rose``), that the tagger is less than
    :data:`SURE` of and that has no person's mark beside it (:func:`person_beside`), else None: so written, the
    word is the English word (an eponym's, a device's) as often as a person's name.

    >>> from crfdeid.document import make_span
    >>> text = "offloading with a DH Offloading Walker. Seen by Walker."
    >>> word_doubt(text, make_span(32, 38, "PATIENT"), 0.77), word_doubt(text, make_span(48, 54, "DOCTOR"), 0.77)
    ('name', None)
    """
    if sp.subtype not in PERSON_SUBTYPES or confidence is None or confidence >= SURE:
        return None
    surface = text[sp.start:sp.end]
    if not re.fullmatch(r"[A-Z][a-z]+", surface):
        return None
    low = surface.lower()
    if low in first_names() and low in english() and not person_beside(text, sp):
        return "name"
    return None


_WORD_RIGHT_BEFORE = re.compile(r"([^\W\d_][\w.'-]*)[ \t]*[,:]?[ \t]*$")
_CREDENTIAL_AFTER = re.compile(r"[ \t]*,?[ \t]*([A-Za-z][A-Za-z.-]*)")


def person_beside(text: str, sp: Span, initials: bool = True, strict: bool = False) -> bool:
    """Whether a lone name word has a person's mark beside it on its line: a title, staff role, relation,
    initial or a person's preposition right before it (``nurse Okafor``, ``wife: Mercer``, ``seen by
    Okafor``), a credential or a person's verb right after (``Okafor, RN``, ``Okafor aware``) (the
    ``titles``, ``staff_roles`` and ``relations`` lists, :data:`_PERSON_BEFORE`, :data:`.evidence.PERSON_AFTER`).
    ``strict``: :func:`person_before`'s."""
    if person_before(text, sp, initials, strict):
        return True
    after = _CREDENTIAL_AFTER.match(text, sp.end)
    return after is not None and (after.group(1) in _credentials() or after.group(1).lower() in PERSON_AFTER)


def credential_before(text: str, sp: Span) -> bool:
    """Whether a credential stands right before ``sp`` on its line, a comma or colon between at most (``RN RM``,
    ``MD, FRCS``): what follows a credential in capitals is another credential as often as initials.

    >>> from crfdeid.document import make_span
    >>> [credential_before(t, make_span(len(t) - 2, len(t), "DOCTOR")) for t in ("Thomas, RN RM", "Dr RM", "rn RM")]
    [True, False, True]
    """
    before = _WORD_RIGHT_BEFORE.search(text, max(0, sp.start - 30), sp.start)
    return before is not None and fold(before.group(1)).rstrip(".") in _credentials_folded()


def credential_last(words: list[str]) -> bool:
    """Whether a name's words (two or more) end on a credential not written as a name is (``ciara dunleavy,
    miscp``, ``Okafor MRCP``; not ``Li Ma``): the ``titles`` list's credentials or ``crfdeid/_data/credentials.txt``'s
    (a role's letters of other English-speaking countries, read by the surrogate writer only).

    >>> [credential_last(ws) for ws in (["aoife", "brannigan", "miscp"], ["Okafor", "RN"], ["Rm"], ["Jo", "Rm"])]
    [True, True, False, False]
    """
    last = words[-1] if len(words) >= 2 else ""
    return bool(last) and not last.istitle() and fold(last).rstrip(".") in _credentials_folded() | _world()


@lru_cache(maxsize=1)
def _world() -> frozenset:
    """``crfdeid/_data/credentials.txt``'s entries, folded, a final full stop dropped."""
    text = resources.files("crfdeid._data").joinpath("credentials.txt").read_text(encoding="utf-8")
    return frozenset(fold(ln.strip()).rstrip(".") for ln in text.splitlines() if ln.strip() and not ln.startswith("#"))


def person_before(text: str, sp: Span, initials: bool = True, strict: bool = False) -> bool:
    """Whether a person's mark stands right before ``sp`` on its line: a title, staff role, relation or
    initial (``Pt Okafor``, ``nurse Okafor``, ``wife: Mercer``, ``D. Okafor``), or a person's preposition
    (``seen by Okafor``, ``per Okafor``): :func:`person_beside`'s marks before a name. ``strict``: neither a
    credential, written after a name (``MD``, ``DO``, ``RN``: ``do`` is Portuguese's "of the"), nor ``per``
    alone (a preposition of several languages, and English's before a guideline: ``per Dorvane 2019``) is a mark
    before one (:mod:`crfdeid.deid.confident_type`'s evidence of a name; measured in docs/deid.md, proof21).

    >>> from crfdeid.document import make_span
    >>> [person_before(t, make_span(t.index("X"), len(t), "DOCTOR"), strict=s) for t in
    ...  ("sindrome do Xu", "valutazione per Xu", "nurse Xu") for s in (False, True)]
    [True, False, True, False, True, True]
    """
    before = _WORD_RIGHT_BEFORE.search(text, max(0, sp.start - 30), sp.start)
    if before is not None and initials and re.fullmatch(r"[A-Z]\.", before.group(1)):
        return True  # D. Okafor
    word = before is not None and fold(before.group(1)).rstrip(".")
    if word and word in persons_marks() and not (strict and word in _credentials_folded()):
        return True  # nurse Okafor, wife: Mercer
    if strict:
        return bool(_PERSON_AFTER_VERB.search(text, max(0, sp.start - 30), sp.start))  # seen by Okafor
    return bool(_PERSON_BEFORE.search(text, max(0, sp.start - 30), sp.start))  # seen by Okafor, per Okafor


#: Words that put a person right after them (``seen by Okafor``, ``per Okafor``) or right before them
#: (``Okafor aware``, ``Okafor notified``): what a person is or does in a note, never a term's.
_VERB_BY = (r"(?:seen|reviewed|examined|signed|dictated|discussed|referred|evaluated|assessed|spoke|spoken|talked"
            r"|met)[ \t]+(?:by|with|to)")
_PERSON_BEFORE = re.compile(rf"(?i)(?<![^\W\d_])(?:per|{_VERB_BY})[ \t]*:?[ \t]*$")
#: :data:`_PERSON_BEFORE` without ``per`` alone (``seen by``, ``discussed with``).
_PERSON_AFTER_VERB = re.compile(rf"(?i)(?<![^\W\d_]){_VERB_BY}[ \t]*:?[ \t]*$")


@lru_cache(maxsize=1)
def first_names() -> frozenset:
    """The listed first names, folded."""
    return frozenset(fold(w) for n in ("first_male", "first_female") for w in gazetteers.entries(n))


@lru_cache(maxsize=1)
def persons_marks() -> frozenset:
    """The titles, staff roles and relations lists' entries, lower case, a final full stop dropped."""
    return frozenset(e.lower().rstrip(".") for n in ("titles", "staff_roles", "relations")
                     for e in gazetteers.entries(n))


@lru_cache(maxsize=1)
def _credentials() -> frozenset:
    """Credentials written after a name, as written (``MD``, ``RN``, ``PA-C``, ``PhD``): not a generation's
    suffix (``II``, ``Jr``), which after one word alone is a grade or a type (``Fitzpatrick II``)."""
    return frozenset(e for e in gazetteers.entries("titles") if (not e.istitle() or e.endswith("."))
                     and not re.fullmatch(r"[IVX]+|[JS]r\.?", e))


@lru_cache(maxsize=1)
def _credentials_folded() -> frozenset:
    """:func:`_credentials` folded, a final full stop dropped, less the titles (``md``, ``do``, ``rn``; not ``dr``)."""
    titled = {fold(e) for e in gazetteers.entries("titles") if e.istitle() and not e.endswith(".")}
    return frozenset(fold(e).rstrip(".") for e in _credentials()) - titled
