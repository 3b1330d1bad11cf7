"""A note's layout taken for PHI: spans cut where a field ends, labels before a colon, headings of a
line, specialties in role phrases (issue 50, third round; reasons of :func:`.values.why_value`).

Letters, clinic lists and notes of other countries write a line of fields (``Patient: Kieran Doherty
RiO: RIO3391027``, three blanks between) and a heading before its place (``EMERGENCY DEPARTMENT -
St Fintan's University Hospital``); a tagger runs one span over both, and a surrogate then writes a
hospital in place of a heading and a label. What is done:

* :func:`parts` **cuts** a span at a field gap inside it (three blanks or more, or a tab) and, but in
  a DATE, at a `` - `` between words; every part keeps its type and no character of the span is
  left out but the gap and a comma or colon at a part's end, so no word is lost; each part is then
  judged alone. A separating dash the tagger or a rule took at a span's start or end (``- Corrib`` after
  a heading, ``EMERGENCY DEPARTMENT -``) is left out too, so the Safe Harbor layer's place shapes do
  not grow or join the span back over the heading.
* :func:`narrowed` takes off a PROFESSION's trailing number (``Home health aide 3`` of ``Home health
  aide 3 days a week``: a profession holds no digit), a name's first letter when it is the sex of
  an age glued before it (``f`` of ``24f jess hartigan``) and an age in brackets after a name
  (``(61`` of ``Aoife (61``).
* **label** (:func:`label_before_colon`): one to three words of the ``note_labels`` or
  ``charting_systems`` lists right before a colon, after ``No``/``Number``/``ID`` or not (``Ward:``,
  ``Hospital No:``, ``Payroll No:``, ``RiO:``), even where a word is also a name, never after a title
  (``Dr Ward:``) nor after a comma (``Boise, ID:`` is a place): a label names the field.
* **heading** (:func:`heading_line`): the span inside the heading that starts a line and ends at the
  line's end, a colon or a `` - `` (``Antenatal Clinic - ...``, ``Pharmacy Medicines Reconciliation``),
  its two to six words each in title case or capitals and all of ``note_labels``, ``staff_roles``,
  ``heading_words`` or a word of ``departments``, the last a heading's noun (``clinic``, ``visit``,
  ``report``, ``reconciliation``...); or a heading that ends the line after ``-`` and such a heading
  (``School Nursing Service - Health Plan Review``); in capitals inside a line written in small letters
  too, two heading words or more with a heading's noun that ends no place's name (:func:`caps_heading`:
  ``Review on WARD ROUND tomorrow``; not ``CALDWELL CLINIC`` in a line of capitals). Plurals count as
  their singular (``ADMISSIONS``).
* **specialty**: a name or place span (no DEPARTMENT: the i2b2 labels make ``Oncology clinic`` one) of words
  of ``departments`` entries or ``heading_words``, one at least a whole entry of either and none a first
  name or one of the 2,000 commonest surnames (or the span one entry: ``General Medicine``), each word or
  its parts joined by ``/`` (``Hematology/Oncology``), right before a staff role's head word that is no
  service's word (``Oncology fellow``, ``Orthopaedic`` of ``Orthopaedic Registrar``) or right after a role
  and ``in``/``of`` (``Specialty Doctor in Old Age Psychiatry``): a service named in a role is no place of
  the patient's. Drafts took gold: with a heading's noun after it as well, 42 synthetic DEPARTMENT spans
  (``Nephrology clinic``); with a role's modifier after it, 6 synthetic tokens (``Nursing`` of ``Nursing
  Home``); without an entry of the lists among its words, two PhysioNet LOCATION-OTHER tokens before a
  role's word. None of these is taken now.
* **role**: a service's words then a role's (:func:`service_role`: ``Orthopaedic Registrar``,
  ``District Nurse``), the last no first name, in a name or place span (no DEPARTMENT). The role in
  apposition was taken out by the rule diet of 2026-11-26 (docs/rules.md, last section).
* **time** (:func:`clock_after_heading`): four digits of a 24-hour clock that end a line after a
  heading's words (``ed triage 0212``, ``WARD ROUND 0930``), or right after a time's label (``Arrived:
  0342``, ``seen @ 1430``).

Evidence (docs/clinical-values.md, third round): 0 gold spans and 0 gold tokens of the PhysioNet
development notes (82 patients, 949 gold spans; the locked quarter left out) are taken or cut by these
reasons and the cutting and narrowing (``bench/clinical_values_gold.py``,
``tests/test_values.py::test_no_gold_phi_of_the_development_notes_is_taken``); of synthetic notes of every
i2b2 category (``synth:400,7``) no more than on main (ages under 90, which ``young_ages.v1`` drops, and the
older reasons' 11 tokens); made-up UK, IE, AU, IN and lower-case lines and notes: ``tests/test_fields.py``
and ``tests/data/made_up_lookalikes.txt``. On the made-up notes of other countries and styles with their
PHI marked (``experiments made-up`` sets dev to dev5: US, UK, Scottish, Welsh, Irish, Australian, Indian,
Singaporean, Kenyan, Nigerian, Filipino, Ghanaian, Japanese, German, French, Latin American and lower-case
notes; 916 gold spans; :func:`.clinical.taken`, 2026-11-25): 0 gold spans taken or narrowed; judged token by
token alone, as if a tagger had found only that token, 7 tokens, each a piece that names nothing alone
(``Medical`` and ``Care`` of a practice's or insurer's name, a plate's state ``TX``, an email's ``nhs``, an
ID's glued prefix ``RX``, a house number read as a clock, a rural route's number).

>>> from crfdeid.document import make_span
>>> text = "Patient: Kieran Doherty   RiO: RIO3391027"
>>> [text[p.start:p.end] for p in parts(text, make_span(9, 29, "PATIENT"))]
['Kieran Doherty', 'RiO']
>>> label_before_colon(text, make_span(26, 29, "PATIENT"), ["rio"])
True
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .. import gazetteers
from ..document import Span
from .bedside import common_names, first_names
from .ruledata import lists, table

_R = table("fields").namespace()  # the patterns and words (crfdeid/_data/rules/fields.tsv)

#: A heading's last word: what kind of note, letter or record it heads.
HEADS = _R.HEADS
#: Heading nouns that also end a place's name (``CALDWELL CLINIC``): a heading's noun only where a heading
#: starts its line (:func:`heading_line`), not inside a line (:func:`caps_heading`, ``values._heading``).
PLACE_HEADS = _R.PLACE_HEADS
#: :data:`HEADS` without :data:`PLACE_HEADS`.
LINE_HEADS = HEADS - PLACE_HEADS
#: A word of a heading, role or name span (``night RN``, ``d/w``, ``O'Neil``).
WORD = _R.WORD


@lru_cache(maxsize=1)
def _lists() -> dict:
    """The lists the reasons read (lower case)."""
    departments = gazetteers.load("departments")
    names = lists("first_female", "first_male", "surnames", "surnames_rare", "titles")
    roles = gazetteers.load("staff_roles")
    return {"labels": lists("note_labels", "charting_systems"),
            "roles": roles, "names": names, "departments": departments, "headings": gazetteers.load("heading_words"),
            "service_words": frozenset(w for e in departments for w in _R.SERVICE_CUT.split(e) if len(w) > 1)
            | gazetteers.load("heading_words"),
            "vocab": (gazetteers.load("note_labels") | roles | gazetteers.load("heading_words")
                      | frozenset(w for e in departments for w in _R.VOCAB_CUT.split(e) if w)
                      | _R.VOCAB_JOINS)}


def prepare() -> None:
    """Load the lists (a model does this at load)."""
    _lists()


def _trimmed(text: str, sp: Span, start: int, end: int) -> Span | None:
    """A part without the blanks at its edges and a comma, semicolon or colon at its end (a bracket or a
    dash of an identifier stays: the scorer counts it); None when nothing but these is left."""
    while start < end and text[start] in " \t":
        start += 1
    while end > start and text[end - 1] in " \t,;:":
        end -= 1
    return replace(sp, start=start, end=end) if any(c.isalnum() for c in text[start:end]) else None


def parts(text: str, sp: Span) -> list[Span]:
    """``sp`` cut at every field gap inside it (three blanks or more, a tab; a `` - `` between words
    but in a DATE), each part trimmed (:func:`_trimmed`); ``[sp]`` when it holds none (the module's
    docstring)."""
    surface = text[sp.start:sp.end]
    cuts = [m.span() for m in _R.GAP.finditer(surface)]
    if sp.category != "DATE":
        cuts += [m.span() for m in _R.DASH.finditer(surface)]
    if not cuts:  # a separating dash the tagger took at its start ("- Corrib" after a heading) is left out,
        # not a dash glued to what follows ("-10-5523" of an identifier: the scorer counts the dash)
        m = _R.DASH_START.match(surface)
        e = _R.DASH_END.search(surface)  # and at its end ("EMERGENCY DEPARTMENT -")
        start, end = sp.start + (m.end() if m else 0), sp.start + (e.start() if e else len(surface))
        return [replace(sp, start=start, end=end)] if (m or e) and start < end else [sp]
    out, pos = [], 0
    for a, b in sorted(cuts):
        if a < pos:
            continue
        piece = _trimmed(text, sp, sp.start + pos, sp.start + a)
        if piece is not None:
            out.append(piece)
        pos = b
    piece = _trimmed(text, sp, sp.start + pos, sp.end)
    if piece is not None:
        out.append(piece)
    return out or [sp]


def narrowed(text: str, sp: Span) -> Span:
    """``sp`` without a PROFESSION's trailing number or a name's first letter that is the sex of an age
    glued before it (the module's docstring)."""
    if sp.subtype == "PROFESSION":
        m = _R.TRAILING_NUMBER.search(text, sp.start, sp.end)
        if m is not None and m.start() > sp.start:
            return replace(sp, end=m.start())
    bracket = _R.BRACKETED_NUMBER.search(text, sp.start, sp.end) if sp.category == "NAME" else None
    if bracket is not None and bracket.start() > sp.start:  # "Aoife (61": the age in brackets is no name
        return replace(sp, end=bracket.start())
    if sp.category == "NAME" and sp.start > 0 and text[sp.start - 1].isdigit() \
            and _R.SEX_AFTER_AGE.match(text, sp.start):
        digits = sp.start
        while digits > 0 and text[digits - 1].isdigit():
            digits -= 1
        if sp.start - digits <= 2 and (digits == 0 or not text[digits - 1].isalnum()):
            start = sp.start + 1
            while start < sp.end and text[start] in " \t":
                start += 1
            if start < sp.end:
                return replace(sp, start=start)
    return sp


def label_before_colon(text: str, sp: Span, lows: list[str]) -> bool:
    """Whether the span is one to three label words right before a colon (the module's docstring)."""
    labels = _lists()["labels"]
    if not 1 <= len(lows) <= 3 or not all(w in labels for w in lows) or not _R.LABEL_AFTER.match(text, sp.end):
        return False
    before = text[max(0, sp.start - 12):sp.start]
    return not _R.TITLE_BEFORE.search(before) and not before.rstrip(" \t").endswith(",")


def _in_vocab(word: str) -> bool:
    vocab = _lists()["vocab"]
    low = word.lower()
    return any(w in vocab or w.removesuffix("s") in vocab for w in (low, *[p for p in _R.SLASH.split(low) if p])) \
        and all(p in vocab or p.removesuffix("s") in vocab for p in _R.SLASH.split(low) if p)


#: How far from a span a line's start, end or field gap is looked for: a heading, a field's label or
#: a clock's line of heading words is a few words (at most six of the vocabulary's), far shorter;
#: a span farther from them is in no heading (it stays PHI), and a long one-line note costs
#: linear time, not quadratic (tests/test_robust_pipeline.py).
_REACH = 400


def _line(text: str, start: int, end: int) -> tuple[int | None, int | None]:
    """The start and end of the line holding ``text[start:end]``, each None when farther than
    :data:`_REACH` from it."""
    lo, hi = max(0, start - _REACH), min(len(text), end + _REACH)
    nl = text.rfind("\n", lo, start)
    line_start = nl + 1 if nl >= 0 else (0 if lo == 0 else None)
    nl = text.find("\n", end, hi)
    line_end = nl if nl >= 0 else (len(text) if hi == len(text) else None)
    return line_start, line_end


def heading_line(text: str, sp: Span) -> bool:
    """Whether the span lies inside the heading a line starts with, or inside a heading that ends the
    line after another (``School Nursing Service - Health Plan Review``; the module's docstring)."""
    line_start, line_end = _line(text, sp.start, sp.end)
    if line_start is None and line_end is None:  # a field that neither starts nor ends its line (below)
        return False
    lo = max(0, sp.start - _REACH) if line_start is None else line_start
    hi = min(len(text), sp.end + _REACH) if line_end is None else line_end
    gaps = [m.span() for m in _R.FIELD_END.finditer(text, lo, hi)]
    if any(a < sp.end and sp.start < b for a, b in gaps):  # across a field gap: no one field's
        return False
    before = [g for g in gaps if g[1] <= sp.start]
    seg_a = before[-1][1] if before else lo
    seg_b = next((a for a, _ in gaps if a >= sp.end), hi)
    first, last = seg_a == line_start, seg_b == line_end
    if (seg_a == lo and not first) or (seg_b == hi and not last) or not (first or last):
        return False  # a field longer than the reach is no heading
    if not _heading_words(text[seg_a:seg_b]):
        return False
    if first:
        return True
    # a second heading: it ends the line, after a dash, and the line starts with a heading
    if text[before[-1][0]:before[-1][1]].strip() not in ("-", "\u2013", "\u2014"):
        return False
    start = text.rfind("\n", 0, sp.start) + 1 if line_start is None else line_start
    gap = _R.FIELD_END.search(text, start, seg_a)
    return gap is not None and _heading_words(text[start:gap.start()])


def _heading_words(head: str) -> bool:
    """Whether ``head`` is two to six heading words in title case or capitals, the last a heading's noun."""
    if head.strip(" \t#*=-") != head.strip() or not head.strip():  # a heading only, nothing before it
        return False
    words = _R.WORD.findall(head)
    if not 2 <= len(words) <= 6 or len("".join(words)) != sum(not c.isspace() for c in head):
        return False
    if not all(w.lower() in _R.HEADING_JOINS or w[0].isupper() for w in words):
        return False
    return all(_in_vocab(w) for w in words) and words[-1].lower() in HEADS


def specialty(text: str, sp: Span, lows: list[str]) -> bool:
    """Whether the span is a service named in a role or a heading (the module's docstring)."""
    lists = _lists()
    if not lows or not all(all(p in lists["service_words"] for p in _R.SLASH.split(w) if p) for w in lows):
        return False
    whole = " ".join(lows) in lists["departments"]  # "General Medicine": an entry, though General is a name
    parts_ = [p for w in lows for p in _R.SLASH.split(w) if p]
    if not whole and (any(w in common_names() for w in lows)
                      or not any(p in lists["departments"] or p in lists["headings"] for p in parts_)):
        return False  # a word of a service only ("Rehab"?) or a name: as a place's name, the span stays
    nxt = _R.NEXT.match(text, sp.end)
    after = nxt.group(1).lower() if nxt else ""
    # a role's head word after it (``fellow``, ``registrar``), no modifier that is a service's word too (``Home``)
    if after in lists["roles"] and after not in lists["service_words"] \
            and after not in _R.PLACE_AFTER_SERVICE:
        return True
    prev = _R.ROLE_BEFORE.search(text, max(0, sp.start - 60), sp.start)  # "Doctor in Old Age Psychiatry"
    return prev is not None and (prev.group(1).lower() in lists["roles"] or prev.group(1).lower() == "doctor") \
        and all(w in lists["service_words"] for w in prev.group(2).lower().split())


def clock_after_heading(text: str, sp: Span) -> bool:
    """Whether the span is a 24-hour clock time ending its line after a heading's words only, or right
    after a time's label (``Arrived: 0342``, ``seen @ 1430``)."""
    if not _R.CLOCK4.fullmatch(text, sp.start, sp.end):
        return False
    if _R.TIME_LABEL.search(text, max(0, sp.start - 20), sp.start):
        return True
    line_start, line_end = _line(text, sp.start, sp.end)
    if line_start is None or line_end is None or text[sp.end:line_end].strip():
        return False
    head = text[line_start:sp.start]
    words = _R.WORD.findall(head)
    if not words or len("".join(words)) != sum(not (c.isspace() or c in ":-") for c in head):
        return False
    return all(_in_vocab(w) for w in words) and any(w.lower() in HEADS for w in words)


def caps_heading(text: str, sp: Span) -> bool:
    """Whether the span is in capitals inside a run of two or more heading words in capitals on a line
    that has words in small letters too, one a heading's noun (``Review on WARD ROUND tomorrow``)."""
    surface = text[sp.start:sp.end]
    if not surface.isupper() or not _R.WORD.search(surface):
        return False
    # the words of the line within the reach: a run cut there is shorter and the rest of the
    # line fewer words, so the answer is yes only where the whole line's is
    line_start, line_end = _line(text, sp.start, sp.end)
    lo = max(0, sp.start - _REACH) if line_start is None else line_start
    hi = min(len(text), sp.end + _REACH) if line_end is None else line_end
    words = [m for m in _R.WORD.finditer(text, lo, hi)  # not a word cut at the reach's edge
             if not (m.start() == lo > 0 and text[lo - 1].isalpha())
             and not (m.end() == hi < len(text) and text[hi].isalpha())]
    inside = [i for i, m in enumerate(words) if sp.start <= m.start() and m.end() <= sp.end]
    if not inside:
        return False
    lo, hi = inside[0], inside[-1]
    while lo > 0 and words[lo - 1].group(0).isupper() and _in_vocab(words[lo - 1].group(0)) \
            and not text[words[lo - 1].end():words[lo].start()].strip():
        lo -= 1
    while hi + 1 < len(words) and words[hi + 1].group(0).isupper() and _in_vocab(words[hi + 1].group(0)) \
            and not text[words[hi].end():words[hi + 1].start()].strip():
        hi += 1
    run = [m.group(0) for m in words[lo:hi + 1]]
    # the run stands out from a line written in small letters too: in a line of capitals
    # ("TRANSFERRED TO CALDWELL CLINIC ON EVAL", synthetic notes) it is no heading
    rest = [m.group(0) for m in words[:lo] + words[hi + 1:]]
    own = [w for w in run if w.lower() not in _R.CAPS_JOINS]
    return len(own) >= 2 and all(_in_vocab(w) for w in run) and any(w.lower() in LINE_HEADS for w in run) \
        and any(not w.isupper() for w in rest)


def service_role(lows: list[str]) -> bool:
    """Whether ``lows`` are a service's words then a role's (``Orthopaedic Registrar``, ``District Nurse``)."""
    lists = _lists()
    i = 0
    while i < len(lows) and lows[i] in lists["service_words"] and lows[i] not in lists["roles"]:
        i += 1
    rest = lows[i:]
    return 0 < i < len(lows) and all(w in lists["roles"] for w in rest) and rest[-1] not in first_names()
