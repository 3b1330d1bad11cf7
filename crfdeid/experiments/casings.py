"""The made-up notes in three casings: as written, lower case and upper case.

Rules and the model are judged on notes as written; lower-case portal messages and all-caps
nursing notes write the same identifiers in another case. ``python -m crfdeid experiments made-up
--notes SET[,SET...] --casing as-written,lower,upper`` measures every casing of the same notes
(:func:`recase`: the note text only, offsets unchanged, so gold spans and phrases stay where they
are) with the figures of :mod:`crfdeid.experiments.madeup_outputs`, plus the count the rule diets
are judged by: **gold identifiers left** (:func:`identifiers_left`), a gold identifier of any
subtype with a letter or digit in no span the tagger predicted; and the names right after ``Pt``
by the type the tagger gave them (:func:`names_after_pt`).

Counts and note ids only, never note text.
"""

from __future__ import annotations

import re
from collections import Counter

from ..document import Document
from ..errors import ConfigError
from ..schema import PERSON_SUBTYPES

#: The casings measured, as ``--casing`` names them.
CASINGS = ("as-written", "lower", "upper")


def _case_char(c: str, upper: bool) -> str:
    """One character in the other case, or as written when its other case is not one character."""
    other = c.upper() if upper else c.lower()
    return other if len(other) == 1 else c


def recase(text: str, casing: str) -> str:
    """``text`` in a casing, character by character, its length and offsets kept.

    ``str.lower`` and ``str.upper`` change the length of a few characters (``ß`` upper-cased is
    ``SS``, ``İ`` lower-cased is ``i`` and a combining dot): those stay as written, so every gold
    offset still points at the same character.

    >>> recase("Dr Weiß, İzmir", "upper"), recase("Dr Weiß, İzmir", "lower")
    ('DR WEIß, İZMIR', 'dr weiß, İzmir')
    """
    if casing == "as-written":
        return text
    if casing not in CASINGS:
        raise ConfigError(f"unknown casing {casing!r}; the casings are {', '.join(CASINGS)}")
    upper = casing == "upper"
    out = text.upper() if upper else text.lower()
    if len(out) == len(text):
        return out  # no character changed its length: offsets kept
    return "".join(_case_char(c, upper) for c in text)


def recased(docs: list[Document], casing: str) -> list[Document]:
    """Copies of ``docs`` with their text in ``casing`` (spans and meta shared: offsets are kept)."""
    return [Document(d.doc_id, recase(d.text, casing), list(d.spans), dict(d.meta)) for d in docs]


def parse_casings(value: str) -> list[str]:
    """``--casing``'s comma-separated names, checked.

    >>> parse_casings("as-written, lower")
    ['as-written', 'lower']
    """
    names = [w.strip() for w in value.split(",") if w.strip()]
    unknown = [w for w in names if w not in CASINGS]
    if not names or unknown:
        raise ConfigError(f"--casing wants one or more of {', '.join(CASINGS)}, comma-separated")
    return names


def identifiers_left(gold: Document, predicted) -> int:
    """Gold identifiers of every subtype (the rule diets' count, docs/rules.md) with a letter or digit
    in no predicted span (``predicted``: spans in the same text).

    >>> from crfdeid.document import make_span
    >>> g = Document("1", "Seen by Ann Lee on 7/22.", [make_span(8, 15, "DOCTOR"), make_span(19, 23, "DATE")])
    >>> identifiers_left(g, [make_span(8, 11, "DOCTOR"), make_span(19, 23, "DATE")])
    1
    """
    covered = bytearray(len(gold.text))
    for sp in predicted:
        covered[sp.start:sp.end] = b"\1" * (sp.end - sp.start)
    return sum(any(gold.text[i].isalnum() and not covered[i] for i in range(sp.start, sp.end)) for sp in gold.spans)


#: ``Pt``/``patient`` right before a name (``Pt Mary O'Brien``): the name is the patient's.
_PT_BEFORE = re.compile(r"\b(?i:pt|patient)\.?[ \t]{1,2}$")


def names_after_pt(text: str, predicted) -> Counter:
    """Predicted PATIENT and DOCTOR spans right after ``Pt``/``patient``, by subtype: a patient's name
    typed DOCTOR is still redacted, but gets a doctor's surrogate and counts in the wrong type.

    >>> from crfdeid.document import make_span
    >>> names_after_pt("Pt Ann Lee seen by Ann Roe", [make_span(3, 10, "DOCTOR"), make_span(19, 26, "DOCTOR")])
    Counter({'DOCTOR': 1})
    """
    return Counter(sp.subtype for sp in predicted if sp.subtype in PERSON_SUBTYPES
                   and _PT_BEFORE.search(text, max(0, sp.start - 12), sp.start))
