"""One address, one real-looking place: a city with its own state and ZIP code.

A CITY, STATE and ZIP span next to each other on one line (``Nashville, TN 37203``,
``Boston MA``, ``TN 37203``) are one address: they are replaced together by a US city
of the shipped table (:func:`crfdeid.deid.zipdata.us_places`), its state written the
way the original writes a state (``TN``, ``Tenn.``, ``Tennessee``) and one of its ZIP
codes in the original's layout (``37203-1234`` keeps its +4, drawn at random).

>>> from crfdeid.document import make_span
>>> text = "Lives in Nashville, TN 37203."
>>> [len(g) for g in groups(text, [make_span(9, 18, "CITY"), make_span(20, 22, "STATE"), make_span(23, 28, "ZIP")])]
[3]
>>> state_as("Tenn.", "CA"), state_as("TN", "CA"), state_as("TENNESSEE", "CA")
('Calif.', 'CA', 'CALIFORNIA')
"""

from __future__ import annotations

import functools
import re

from .. import gazetteers
from ..document import Span
from .rng import apply_case, random_like
from .spans import runs
from .zipdata import us_places

PARTS = frozenset({"CITY", "STATE", "ZIP"})
_GAP = re.compile(r"[ \t,]{0,3}")


def groups(text: str, spans: list[Span], parts: frozenset = PARTS) -> list[list[Span]]:
    """Runs of CITY, STATE and ZIP spans (each at most once; ``parts``: these subtypes instead)
    separated by spaces or a comma on one line; only runs of two or more are addresses."""
    return runs(spans, lambda sp: sp.subtype in parts,
                lambda run, sp: _GAP.fullmatch(text[run[-1].end:sp.start]) is not None
                and sp.subtype not in {r.subtype for r in run})


@functools.cache
def _states() -> dict[str, tuple[str, str, str | None]]:
    """State code -> (name, code, AP-style abbreviation or None), from the gazetteers."""
    names = gazetteers.entries("states")
    abbrevs = gazetteers.entries("state_abbrevs")
    ap = abbrevs[len(names):]
    return {code: (name, code, ap[i] if i < len(ap) else None)
            for i, (name, code) in enumerate(zip(names, abbrevs))}


def state_as(original: str, code: str) -> str:
    """The state ``code`` written as ``original`` writes its state: a two-letter code, an
    AP-style abbreviation (``Tenn.``) or the name, in the original's case."""
    name, code, ap = _states()[code]
    bare = original.strip()
    if len(bare) == 2 and bare.isalpha():
        return code if bare.isupper() else apply_case(bare, code)
    if bare.endswith(".") or bare.lower() in {(a or "").lower() for _, _, a in _states().values()}:
        return apply_case(bare, ap or code)
    return apply_case(bare, name)


def draw(rng, originals: dict[str, str], town: str | None = None) -> dict[str, str]:
    """``{subtype: new text}`` for an address's parts (``originals``: subtype -> original text);
    ``town``: the city the patient's original city already became (its state and ZIP code drawn
    among its rows, any row's when the table does not know it)."""
    rows = [r for r in us_places() if town is not None and r[0].lower() == town.lower()]
    city, code, zips = rng.choice(rows or us_places())
    city = town if town is not None else city
    out = {}
    if "CITY" in originals:
        out["CITY"] = apply_case(originals["CITY"], city)
    if "STATE" in originals:
        out["STATE"] = state_as(originals["STATE"], code if code in _states() else "MA")
    if "ZIP" in originals:
        old = originals["ZIP"]
        digits = rng.choice(zips) + "".join(rng.choice("0123456789") for _ in range(sum(map(str.isdigit, old)) - 5))
        it = iter(digits)
        out["ZIP"] = random_like("".join(next(it, "0") if c.isdigit() else c for c in old), rng,
                                 keep=frozenset("0123456789"))
    return out
