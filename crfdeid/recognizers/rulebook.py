"""The rule table of the rule overlay (:mod:`.rules`): one regex per rigid form of PHI.

:data:`RULES` maps a rule's name to its subtype and regex (compiled on first use), read from the rows
of ``crfdeid/_data/rules/overlay.tsv`` (:mod:`.ruledata`): a rule is a row, its comment the evidence;
:data:`KEYWORDS` says which key words a note must hold for an anchored
rule to be tried (:func:`crfdeid.recognizers.rules.find` reads them).
"""

from __future__ import annotations

from ..document import Span
from ..features.surface import MONTH
from .ruledata import lazy, table

_T = table("overlay")  # the rules as rows (crfdeid/_data/rules/overlay.tsv)
# A capitalised word (two letters or more): the names of the rules of :mod:`.rules` too.
_CAP = _T.source("CAP")
# US states and territories by name (the ``states`` list as of this writing, facts public
# domain); a state is a LOCATION of the i2b2 2014 scheme in any case ("moved from ohio").
STATE_NAMES = list(_T.entries("STATE_NAMES"))
_GIVEN = {"MONTH": MONTH, "STATE_NAMES": "|".join(n.replace(" ", r"[ \t]+") for n in STATE_NAMES)}

#: Rule name -> (subtype, regex: compiled on first use). Order matters: earlier rules win overlaps.
RULES = {name: (label, lazy(_T.source(name, **_GIVEN), flags)) for name, label, flags in _T.rules()}


#: Key words (lower-cased, word-bounded in the lower-cased ASCII text), by class (the table's comment).
KEYWORDS = _T.mapping("KEYWORDS", STATE_WORDS=" ".join(sorted({n.split()[0].lower() for n in STATE_NAMES})))
_CLASS_OF = {w: c for c, words in KEYWORDS.items() for w in words.split()}


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
