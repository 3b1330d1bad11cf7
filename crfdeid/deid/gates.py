r"""Narrow gates of the surrogate writer: shapes of a note where a tagged span, however confident the
tagger, is written as a placeholder rather than a made-up value (issue 58 item 3; gate15b, 2026-11-27).

The falsified values left on the development sets were mostly confident spans of the CRF (P(PHI) 0.88 to
1.0: docs/synth.md, "C-ids800's falsified values"), so no confidence bar separates them; these shapes do,
each measured there and again in "Narrow gates measured (2026-11-27, gate15b)" before it was kept:

* ``number_label`` (G2b + G5): one word of letters tagged as a place, no listed name or place, that labels a
  number: right before a span holding a digit of a phone, fax or identifier type (blanks, ``:`` or ``#``
  between: ``Mob 07700 900123``, ``bleep 3391``, ``Appointments: 6100 2000``), or written elsewhere in the
  note before a ``:`` or ``#`` (``Bleep:``). A made-up town there states a false label. (Names and listed
  words are left out: on the development sets every such span the gate held was a real name or town.)
* ``fraction`` (G3b): a date of the shape N/M (one or two digits each, no year) with another N/M on its
  line, in a note that writes a date with its year (``14/03/2025``): fractions beside fractions are scores
  and acuities (``pinhole 6/9, VA 6/12``; ``Allred 7/8, HER2 2/3``), not how that note writes a date; a
  made-up date there is another clinical value. (A note of bare dates, ``CABG 3/5, extubated 3/6``, keeps
  them: on the PhysioNet development notes the gate without the year's condition held 102 real dates.)
* ``heading_line`` (G4): a place of three words or more that is a whole line (after a hyphen or before a
  ``/`` of it too) on a line with no digit and no colon: a heading or a title (``UNIDAD DE HERIDAS``), written
  as a made-up hospital it states a false service.

A gate holds the span's repeats: every span of the note with the same words (case folded) and a type of the
same gate gets the placeholder too (the writer writes every repeat of a word the same way).

No gate removes an identifier the tagger found: a held span is still replaced, by its type's placeholder, and
the redacted output is the same with the gates on or off (the 21 development sets and PhysioNet, byte for byte).
Beyond the sets they were measured on, ``tests/test_deid_gates.py`` holds each gate on notes of other countries
(a UK note with a postcode and a mobile, a day-first eye clinic note whose dated ``23/11/2025`` and lone ``12/03``
keep their surrogates, a Spanish heading), as written, in lower case and in capitals, and keeps the GP's name, the
town and the postcode beside the held label as surrogates.

>>> from crfdeid.document import make_span
>>> text = "Contacts\nMob 07700 900123\nVA 6/9, pinhole 6/6\nSeen 3/4/2025."
>>> spans = [make_span(9, 12, "CITY"), make_span(13, 25, "PHONE"), make_span(29, 32, "DATE"),
...          make_span(42, 45, "DATE"), make_span(51, 59, "DATE")]
>>> sorted((text[a:b], why) for (a, b), why in gated(text, spans).items())
[('6/6', 'fraction'), ('6/9', 'fraction'), ('Mob', 'number_label')]
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from ..document import Span, line_bounds
from ..errors import ConfigError
from ..schema import PERSON_SUBTYPES
from .confident_note import dated_with_years
from .confident_places import PLACE_TYPES
from .defaults import NARROW_GATES
from .evidence import fold, lists

#: The gates, by the reason the writer counts (``narrow_gates`` in its summary); all on by default.
GATES = NARROW_GATES
_NAMES_PLACES = PERSON_SUBTYPES | PLACE_TYPES
#: The types of a number a word labels (a phone, a fax, an identifier).
_NUMBERS = frozenset({"PHONE", "FAX", "IDNUM", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "SSN"})
_LETTERS = re.compile(r"[^\W\d_]+")
_BETWEEN = re.compile(r"[ \t:#]*")
_PAIR = re.compile(r"\d{1,2}/\d{1,2}")
_PAIRS = re.compile(r"(?<![\d/.])\d{1,2}/\d{1,2}(?![\d/])")
_WORDS = re.compile(r"[^\W_]+")
_LABEL = re.compile(r"(?<![^\W_])([^\W\d_]+)[ \t]*[:#]")


def parse_gates(value) -> tuple[str, ...]:
    """The ``narrow_gates`` option as gate names: a comma-separated string or a list of :data:`GATES`;
    ``off``, ``none``, None or empty: none.

    >>> parse_gates("fraction, number_label"), parse_gates("off")
    (('number_label', 'fraction'), ())
    """
    if value is None or value is False:
        return ()
    names = [w.strip() for w in (value.split(",") if isinstance(value, str) else value) if str(w).strip()]
    if names in ([], ["off"], ["none"]):
        return ()
    unknown = sorted(set(names) - set(GATES))
    if unknown:
        raise ConfigError(f"narrow_gates: unknown gate(s) {', '.join(unknown)}; known: {', '.join(GATES)}, off")
    return tuple(g for g in GATES if g in names)


def labels_of(text: str) -> dict[str, list[int]]:
    """The words the note writes right before a ``:`` or ``#`` (case folded), with where they start."""
    out: dict[str, list[int]] = {}
    for m in _LABEL.finditer(text):
        out.setdefault(fold(m.group(1)), []).append(m.start())
    return out


@lru_cache(maxsize=1)
def _listed() -> frozenset:
    """The listed first names, surnames and places (folded): a word a real identifier is written with."""
    _, names, _, _, places = lists()
    return names | places


def number_label(text: str, sp: Span, after: Span | None, labels: dict[str, list[int]]) -> bool:
    """Whether ``sp`` is one word of letters of a place's type, no listed name or place, before ``after``, a
    phone, fax or
    identifier span holding a digit, with only blanks, ``:`` or ``#`` between, or written elsewhere in the note
    right before a ``:`` or ``#`` (``labels``: :func:`labels_of`)."""
    word = text[sp.start:sp.end]
    if sp.subtype not in PLACE_TYPES or not _LETTERS.fullmatch(word) or fold(word) in _listed():
        return False  # a name's type, or a listed name or place: a person's or a town's, the gate's cost alone
    if (after is not None and after.subtype in _NUMBERS and _BETWEEN.fullmatch(text, sp.end, after.start)
            and any(c.isdigit() for c in text[after.start:after.end])):
        return True
    return any(at != sp.start for at in labels.get(fold(word), ()))


def fraction(text: str, sp: Span, dated: bool | None = None) -> bool:
    """Whether the date ``sp`` is N/M (one or two digits each, no year) with another N/M on its line, in a
    note that writes a date with its year (``dated``: :func:`~crfdeid.deid.confident_note.dated_with_years`,
    read once a note by :func:`gated`)."""
    if sp.subtype != "DATE" or not _PAIR.fullmatch(text, sp.start, sp.end):
        return False
    if not (dated_with_years(text) if dated is None else dated):
        return False
    a, b = line_bounds(text, sp.start, sp.end)
    return any(m.start() != sp.start for m in _PAIRS.finditer(text, a, b))


def heading_line(text: str, sp: Span) -> bool:
    """Whether the place ``sp`` of three words or more is its line's whole text (or runs from a hyphen
    to the line's end or a ``/``) on a line with no digit and no colon."""
    if sp.subtype not in PLACE_TYPES or len(_WORDS.findall(text, sp.start, sp.end)) < 3:
        return False
    a, b = line_bounds(text, sp.start, sp.end)
    line = text[a:b]
    if any(c.isdigit() for c in line) or ":" in line:
        return False
    before, rest = text[a:sp.start].strip(), text[sp.end:b].strip()
    return (not before or before.endswith(("-", "\u2013"))) and (not rest or rest.startswith("/"))


def gated(text: str, spans: list[Span], gates=GATES) -> dict[tuple[int, int], str]:
    """The spans of a note (``(start, end)``) a gate of ``gates`` writes as placeholders, with its reason;
    a gated span's repeats (the same words, case folded, a type of the same gate) too."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    starts = [s.start for s in ordered]
    labels = labels_of(text) if "number_label" in gates else {}
    dated = "fraction" in gates and dated_with_years(text)  # once a note: a note of thousands of dates
    found: set[tuple[str, str]] = set()
    for sp in ordered:
        j = bisect_left(starts, sp.end)  # the first span after this one
        after = ordered[j] if j < len(ordered) else None
        why = ("number_label" if "number_label" in gates and number_label(text, sp, after, labels)
               else "fraction" if "fraction" in gates and fraction(text, sp, dated)
               else "heading_line" if "heading_line" in gates and heading_line(text, sp) else None)
        if why is not None:
            found.add((why, fold(text[sp.start:sp.end])))
    out = {}
    for sp in ordered:
        for why in gates:
            if (why, fold(text[sp.start:sp.end])) in found and _kind(sp, why):
                out[(sp.start, sp.end)] = why
                break
    return out


def _kind(sp: Span, why: str) -> bool:
    """Whether ``sp``'s type is one the gate ``why`` judges (a repeat of another type is left alone)."""
    return sp.subtype in {"number_label": _NAMES_PLACES, "fraction": {"DATE"}, "heading_line": PLACE_TYPES}[why]
