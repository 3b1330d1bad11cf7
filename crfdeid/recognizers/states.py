"""A state's code after a city and a comma (``Portland, OR``), as a place (:func:`states_after_cities`)."""

from __future__ import annotations

from functools import lru_cache

from .. import gazetteers
from ..document import Span, make_span, merge_disjoint
from .ruledata import table

_R = table("states").namespace()  # the patterns and words (crfdeid/_data/rules/states.tsv)


@lru_cache(maxsize=1)
def _state_codes() -> tuple[frozenset, frozenset]:
    """USPS codes and AP abbreviations (``state_abbrevs``); the codes that are no English word
    (``NH``, ``VT``: these may be written in lower case)."""
    codes = frozenset(gazetteers.entries("state_abbrevs"))
    plain = gazetteers.load("common_words") | gazetteers.load("stop_words")
    return codes, frozenset(c.lower() for c in codes if len(c) == 2 and c.lower() not in plain)


def states_after_cities(text: str, spans) -> list[Span]:
    """``spans`` plus a state's code after a city and a comma (``Portland, OR``), as ``STATE``.

    The city is a predicted place span ending at the comma, or one to three words there of
    the ``cities`` list (then added as ``CITY`` too). The code is a USPS code in capitals (in
    lower case only when it is no English word, ``keene, nh``, not ``pain, or``, or when a ZIP code
    follows it, ``portland, or 97205``: then the ZIP code is added too) or an AP abbreviation
    (``Mass.``).

    >>> [(s.start, s.end, s.subtype) for s in states_after_cities("moved to Portland, OR in May", [])]
    [(9, 17, 'CITY'), (19, 21, 'STATE')]
    """
    if "," not in text:
        return list(spans)
    codes, lower_codes = _state_codes()
    cities = gazetteers.load("cities")
    spans = sorted(spans)
    ends = {sp.end: sp for sp in spans if sp.subtype in _R.PLACES}
    found: list[Span] = []
    for m in _R.CODE_AFTER_COMMA.finditer(text):
        code = m.group("code")
        zip_code = _R.ZIP_AFTER.match(text, m.end())
        if code not in codes and code.lower() not in lower_codes and not (
                zip_code and code.upper() in codes and len(code) == 2):
            continue
        if zip_code:
            found.append(make_span(zip_code.start("zip"), zip_code.end("zip"), "ZIP"))
        if m.start() in ends:
            found.append(make_span(m.start("code"), m.end("code"), "STATE"))
            continue
        before = _R.PLACE_WORDS.search(text, max(0, m.start() - 40), m.start())
        if before is None:
            continue
        words = before.group(1).split()
        for k in range(len(words)):  # the longest run of words before the comma that is a listed city
            city = " ".join(words[k:])
            if city.lower() in cities:
                start = m.start() - len(city)
                found += [make_span(start, m.start(), "CITY"), make_span(m.start("code"), m.end("code"), "STATE")]
                break
    return merge_disjoint(spans, sorted(set(found))) if found else spans
