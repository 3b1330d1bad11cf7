"""What a surrogate may say: placeholders instead of invented facts, Safe Harbor over 89,
one place per address (the policy half of :class:`~crfdeid.deid.surrogate.Surrogator`).

* A span the tagger is unsure of, a number next to a clinical scale, unit, dose or vital
  sign, or a span of clinical vocabulary (:mod:`.facts`) gets a placeholder: a surrogate
  would state a false fact.
* A span that holds a digit and is drawn as words (a name, a hospital, a profession...: every
  subtype but those of :data:`NUMBERED`) gets a placeholder: a name holds no digit, so the digit is a
  value the tagger swept in (``SNOMED 68566005`` as a DOCTOR, ``(86)`` as a DOCTOR), and a word
  generator would write other digits in its place (issue 50: "surrogate output never changes a
  clinical value"). Fail closed: a placeholder holds nothing of the original either.
* A span of any type that reads as an age (``78M``) is an age (:mod:`.ages`); an age
  span over 89 takes the hyphenated rest of its age (``92`` of ``92-year-old``) so it
  can read ``90+ year old``.
* A patient over 89's birth date, and the dates that with another give the age, are
  generalized (``[**DOB**]`` or a year-less form).
* The CITY, STATE and ZIP of one address become one real place (:mod:`.address`).
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable

from .. import schema
from ..document import Document, Span
from . import address, ages, confident, confident_form, confident_type, dates, facts
from .dategroups import DateSurrogates, region
from .guard import Units
from .proven import record_name
from .rng import Keyed, apply_case, normalize
from .state import NoDraw, PatientState

#: The i2b2 subtypes that fall under a HIPAA Safe Harbor identifier, 45 CFR 164.514(b)(2)(i)
#: (the audit's table, crfdeid.audit.report.SAFE_HARBOR): a surrogate must change their digits.
SAFE_HARBOR = frozenset({"PATIENT", "ORGANIZATION", "STREET", "CITY", "ZIP", "AGE", "DATE", "PHONE", "FAX", "EMAIL",
                         "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "URL",
                         "IPADDR", "BIOID", "IDNUM"})


#: The subtypes whose surrogate generators are made for their digits (a date shifted, a record number, a
#: phone, a street's number, a room, a user name redrawn in its shape): the Safe Harbor subtypes but a
#: patient's name, an organization and a town, which are drawn as words, and ROOM and USERNAME.
NUMBERED = (SAFE_HARBOR - {"PATIENT", "ORGANIZATION", "CITY"}) | {"ROOM", "USERNAME"}


def digits_changed(original: str, new: str) -> int:
    """How many digits of ``original`` are not at their place in ``new`` (compared digit by digit,
    letters and signs left out): what a surrogate changed of a number.

    >>> digits_changed("GAD-7 12", "PIRC-R 0"), digits_changed("Ward 7B", "Ward 7B")
    (3, 0)
    >>> digits_changed("4/5", "[**DATE**]")
    2
    """
    old_digits = [c for c in original if c.isdigit()]
    new_digits = [c for c in new if c.isdigit()]
    return sum(1 for i, d in enumerate(old_digits) if i >= len(new_digits) or new_digits[i] != d)


#: What a span on a placeholder becomes (the ``mimic`` redaction style).
PLACEHOLDER = "[**{subtype}**]"
#: The kind under which :class:`PatientState` remembers the town a CITY became, alone or in an address.
TOWN = "town"


def remember_town(st: PatientState, original: str, new: str) -> None:
    """Remember that the patient's town ``original`` became ``new`` (in every note, every form)."""
    st.maps[(TOWN, normalize(original))] = new
    st.taken.setdefault((TOWN, normalize(new)), normalize(original))


def known_town(st: PatientState, original: str) -> str | None:
    """The town ``original`` became in an earlier span of the patient, in ``original``'s case,
    when it passes the acceptance test of the span being replaced (None otherwise)."""
    new = st.maps.get((TOWN, normalize(original)))
    if new is None:
        return None
    new = apply_case(original, new)
    return new if st.ok is None or st.ok(new) else None


class Policies(DateSurrogates):
    """The policy methods of :class:`~crfdeid.deid.surrogate.Surrogator` (which sets ``keyed``,
    ``counts``, ``date_shift``, ``min_confidence`` and ``dob``)."""

    keyed: Keyed
    counts: Counter
    min_confidence: float | None
    dob: str
    scheme: object
    _country: str
    _gated: dict  # the note's spans a narrow gate holds (:func:`crfdeid.deid.gates.gated`), set a note
    _named: frozenset = frozenset()  # the note's names' words with evidence (:func:`.confident_type.evident_names`)
    _places: tuple = ()  # the note's place spans, (start, end, subtype): an address's parts (.confident_type)
    _form_names: dict = {}  # the note's fixed forms' names by span (:func:`.confident_form.form_names`), set a note

    @staticmethod
    def _safe(units: list[Units], new: str) -> bool:
        """Whether ``new`` keeps no unit of ``units`` (:mod:`.guard`)."""
        return all(u.survivor(new) is None for u in units)

    def _placeholder(self, doc: Document, sp: Span, confidence: float | None) -> str | None:
        """Why ``sp`` gets a placeholder rather than a realistic value, or None: the tagger is
        unsure of it, it is a number next to a clinical scale, unit, dose or vital sign or a date that
        reads as a grade or a duration too (a surrogate would state another clinical value), it holds a
        digit and is drawn as words (:data:`NUMBERED`: a word generator would write other digits), or,
        under the i2b2 2014 labels, its words
        are clinical vocabulary (an eponym, a brand, a department: a surrogate would put a name
        into clinical text)."""
        if self.min_confidence is not None and confidence is not None and confidence < self.min_confidence:
            return "uncertain"
        if facts.clinical_value(doc.text, sp.start, sp.end) or (
                sp.subtype == "DATE" and facts.clinical_date(doc.text, sp.start, sp.end)):
            return "clinical_values"
        if sp.subtype not in NUMBERED and any(c.isdigit() for c in doc.surface(sp)):
            return "digits_in_words"
        if self.scheme in (None, schema.I2B2) and facts.clinical_term(doc.text, sp.start, sp.end):  # English lists
            return "clinical_terms"
        return None

    def _doubt(self, doc: Document, sp: Span, confidence: float | None, order: str | None, known: frozenset,
               fixed: Overlaps, crf: float | None = None, person_ends: frozenset = frozenset(),
               record: frozenset = frozenset()) -> str | None:
        """Why the tagged span ``sp`` is not confidently a Safe Harbor identifier of its type
        (:func:`crfdeid.deid.confident.doubt`; ``crf``: the model's word on its words, :func:`confidences`
        of ``crf_confidence``), or None; a span over a fixed Safe Harbor form
        (``fixed``) is one, unless it runs over a line break or takes a label in (:data:`.confident.EDGES`) or its
        forms' own match says otherwise (:func:`.confident_form.against`: a letter beside a phone, a state's postcode
        out of its range, an identifier of two digits).
        Names and places are judged under the i2b2 2014 labels only (English lists); ``record``: the words of
        the names the note's record gives (:func:`crfdeid.deid.proven.record_names`), an answer to the model's doubt.
        Where that evidence finds nothing, a narrow gate's shape (:mod:`.gates`, read once a note into ``_gated``), and
        last no evidence of its type besides the tagger's word (:mod:`.confident_type`: ``untyped``)."""
        if self.scheme not in (None, schema.I2B2) and sp.subtype not in ("DATE", "PHONE", "FAX"):
            return None
        over = fixed.over(sp)
        if over and any(c.isdigit() and not any(f.start <= i < f.end for f in over)
                        for i, c in enumerate(doc.text[sp.start:sp.end], sp.start)):
            return "wider"  # digits beside the fixed form that no form explains (a phone; 988): taken in
        if over and (against := confident_form.against(doc.text, sp, [(n, f) for f in over
                                                                       for n in self._form_names.get(f, ())])):
            return against  # the form's own match says the span is not its identifier (confident_form.py)
        why = confident.doubt(doc.text, sp, confidence, order=order, country=self._country, known=known, crf=crf,
                              person_ends=person_ends)
        if why is None and not over:
            why = self._gated.get((sp.start, sp.end))  # a narrow gate's shape (gates.py), its repeats too
        if why is None and not over:  # no evidence of its type but the tagger's word (confident_type.py)
            why = confident_type.untyped(doc.text, sp, known=record, named=self._named, places=self._places)
        if why is None or (why not in confident.EDGES and over):
            return None  # the span's words have the form of a fixed Safe Harbor identifier; not its edges
        if why == "model" and record_name(doc.text, sp, record):
            return None  # the model doubts a rule's name the note's own record gives (a FHIR Patient's): proven.py (d)
        return why

    def _address(self, st: PatientState, group: list[Span], originals: dict, units: dict) -> dict:
        """One real place for the CITY, STATE and ZIP spans of an address (:mod:`.address`), the
        same for the same address of the patient; nothing when no draw keeps clear of the originals."""
        key = " | ".join(f"{k}={normalize(v)}" for k, v in sorted(originals.items()))
        by_type = {sp.subtype: sp for sp in group}

        def parts(cand: str) -> dict:
            return dict(p.split("=", 1) for p in cand.split("\x1f"))

        def ok(cand: str) -> bool:
            return all(self._safe(units[by_type[k]], v) for k, v in parts(cand).items())

        town = st.maps.get((TOWN, normalize(originals["CITY"]))) if "CITY" in originals else None

        def draw(a: int) -> str:
            rng = self.keyed.rng("address", st.patient, key, a)
            return "\x1f".join(f"{k}={v}" for k, v in sorted(address.draw(rng, originals, town).items()))
        try:
            with st.checking(ok):
                chosen = parts(st.assign("address", key, draw))
        except NoDraw:
            return {}
        if "CITY" in chosen:  # the town alone, in another note, becomes the same town
            remember_town(st, originals["CITY"], chosen["CITY"])
        self.counts["addresses"] += 1
        return {(by_type[k].start, by_type[k].end): v for k, v in chosen.items()}

    def _tells_age(self, st: PatientState, text: str, group: list[Span]) -> bool:
        """Whether a date group of a patient over 89 gives the age with another date: a birth
        date, or a date with a year 90 or more years before the patient's latest date."""
        if ages.birth_context(text, group[0].start):
            return True
        if st.latest is None:
            return False
        found = dates.parse(*region(text, group))[0]
        return any(p.year is not None and st.latest.year - p.year >= 90 for p in found)

    def _generalized(self, st: PatientState, doc: Document, group: list[Span], year,
                     order: str | None = None) -> dict:
        """A patient over 89's birth date: a placeholder, or (``dob='no-year'``) the shifted month
        and day without the year (a span left with nothing of a date: a placeholder)."""
        self.counts["dob_generalized"] += len(group)
        label = "DOB" if ages.birth_context(doc.text, group[0].start) else "DATE"
        holder = {(sp.start, sp.end): PLACEHOLDER.format(subtype=label) for sp in group}
        if self.dob == "placeholder":
            return holder
        reps, bad = self.shifted_group(st, doc.text, group, year, drop_year=True, order=order)
        return {k: v if v and any(c.isalnum() for c in v) and not any(
                    (sp.start, sp.end) == k for sp in bad) else holder[k]
                for k, v in ({**holder, **reps}).items()}



def years_between(born: dt.date, then: dt.date) -> int:
    """Whole years from ``born`` to ``then`` (an age)."""
    return then.year - born.year - ((then.month, then.day) < (born.month, born.day))


class Overlaps:
    """Spans (the Safe Harbor layer's fixed forms, which may overlap one another) and, for any span,
    those it overlaps, in order, found by bisection: a note's thousands of dates each looked up
    among its thousands of forms take time that grows with the note, not with its square (before,
    every span read every form: 4,000 made-up dates took 14 times as long as 1,000).

    >>> from crfdeid.document import make_span
    >>> forms = Overlaps([make_span(0, 10, "DATE"), make_span(4, 6, "DATE"), make_span(20, 25, "PHONE")])
    >>> [(f.start, f.end) for f in forms.over(make_span(5, 21, "DOCTOR"))]
    [(0, 10), (4, 6), (20, 25)]
    >>> forms.over(make_span(10, 20, "DOCTOR"))
    []
    """

    def __init__(self, spans):
        self.spans = sorted(spans)
        self.starts = [f.start for f in self.spans]
        self.reach = max((f.end - f.start for f in self.spans), default=0)  # the longest: how far back to look

    def __iter__(self):
        return iter(self.spans)

    def over(self, sp: Span) -> list[Span]:
        """The spans that overlap ``sp`` (``f.start < sp.end and sp.start < f.end``), in order."""
        lo, hi = bisect_right(self.starts, sp.start - self.reach), bisect_left(self.starts, sp.end)
        return [f for f in self.spans[lo:hi] if sp.start < f.end]


def confidences(doc: Document, spans: list[Span], fixed: Iterable[Span]) -> tuple[dict, dict]:
    """Each de-identified span's confidence and the model's word on it, in one pass: the lowest
    ``confidence`` and the lowest ``crf_confidence`` (the model's word whatever step made a span) of the
    document's spans it overlaps (None when they have none: gold spans; None too where the Safe Harbor
    layer finds an identifier of a fixed form, ``fixed``: an email is no less an email for the CRF's doubt).

    ``spans`` do not overlap one another (:func:`~crfdeid.deid.spans.deid_spans`), so the spans
    one span of the document overlaps are found by bisection: time grows with the number of
    spans, not with its square.

    >>> from crfdeid.document import make_span
    >>> doc = Document("1", "Seen by Ann Lee.", [Span(8, 11, "NAME", "DOCTOR", confidence=1.0, crf_confidence=0.3),
    ...                                          Span(12, 15, "NAME", "DOCTOR", confidence=0.9, crf_confidence=0.9)])
    >>> whole = make_span(8, 15, "DOCTOR")
    >>> [c[whole] for c in confidences(doc, [whole], [])]
    [0.9, 0.3]
    """
    order = sorted(spans, key=lambda s: s.start)
    starts = [sp.start for sp in order]
    ends = [sp.end for sp in order]

    def overlapped(o: Span) -> list[Span]:
        return order[bisect_right(ends, o.start):bisect_left(starts, o.end)]
    lowest: dict = {}
    model: dict = {}
    for o in doc.spans:
        for of, c in ((lowest, o.confidence), (model, o.crf_confidence)):
            if c is not None:
                for sp in overlapped(o):
                    if sp not in of or c < of[sp]:
                        of[sp] = c
    for f in fixed:
        for sp in overlapped(f):
            lowest[sp] = model[sp] = None
    return {sp: lowest.get(sp) for sp in spans}, {sp: model.get(sp) for sp in spans}


def as_age(doc: Document, sp: Span) -> Span:
    """``sp`` as an AGE span when its text reads as an age whatever its type (``78M``)."""
    if sp.subtype in ("AGE", "DATE") or not ages.age_shaped(doc.surface(sp)):
        return sp
    return Span(sp.start, sp.end, "AGE", "AGE", confidence=sp.confidence)


def age_tails(doc: Document, spans: list[Span]) -> list[Span]:
    """Age spans over 89 grown over a hyphenated age right after them (``92`` of ``92-year-old``),
    so the surrogate can read ``90+ year old`` rather than ``90+-year-old``."""
    out = list(spans)
    for i, sp in enumerate(out):
        if sp.subtype != "AGE" or (ages.value(doc.surface(sp)) or 0) <= 89:
            continue
        m = ages.TAIL.match(doc.text, sp.end)
        if m is not None and (i + 1 == len(out) or out[i + 1].start >= m.end()):
            out[i] = Span(sp.start, m.end(), sp.category, sp.subtype, confidence=sp.confidence)
    return out
