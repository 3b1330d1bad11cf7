"""Realistic, consistent surrogates for every PHI subtype (Douglass 2005; i2b2 practice).

Every surrogate passes the no-shared-run check of :mod:`crfdeid.deid.guard`
against the PHI it replaces and the patient's other PHI: a typed generator's
draws that fail are redrawn, a span whose typed surrogate still fails gets the
shape-keeping random fallback, and the finished document is checked again
(:class:`~crfdeid.errors.LeakError` when anything survives: fail closed).

>>> from crfdeid.document import Document, make_span
>>> doc = Document("110-01", "John Smith seen 07-22-2097; Smith called 555-1234.",
...                [make_span(0, 10, "PATIENT"), make_span(16, 26, "DATE"),
...                 make_span(28, 33, "PATIENT"), make_span(41, 49, "PHONE")])
>>> new = Surrogator(seed=13).surrogate(doc)
>>> [new.surface(sp) for sp in new.spans] == [new.text[sp.start:sp.end] for sp in new.spans]
True
>>> new.surface(new.spans[0]).split()[1] == new.surface(new.spans[2])   # Smith -> same surname
True
"""

from __future__ import annotations

import os
from collections import Counter

from ..document import Document, Span
from ..errors import ConfigError, LeakError
from . import guard, names, numbers, places
from .dategroups import DateSurrogates, acceptable_shift, date_groups, year_hints
from .guard import NoSafeReplacement, Units
from .kinds import stand_in
from .rng import Keyed, derangement, normalize, random_like
from .spans import deid_spans, replace_spans
from .state import NoDraw, PatientState

#: Default per-patient date shift range in days (inclusive; 0, whole weeks and whole years
#: excluded). At least 366 days, so the year of every date changes too.
DEFAULT_SHIFT = (-1095, -366)
_IDS = {"SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"}
#: Words an AGE surrogate may keep with an age of 89 or less (HIPAA Safe Harbor keeps those ages).
AGE_WORDS = frozenset({"y", "yo", "yr", "yrs", "year", "years", "old", "aged", "age", "mo", "mos", "month",
                       "months", "wk", "wks", "week", "weeks", "day", "days", "d", "m", "w", "h", "hr"})


def age_keeps(run: guard.Run, over_89=frozenset({"90"})) -> bool:
    """Whether an AGE surrogate may keep ``run``: an age of 89 or less (HIPAA Safe Harbor keeps
    them), an age word (``yo``, ``years``), a run of the over-89 label (``90`` of ``90+``)."""
    return (run.cls == guard.DIGIT and int(run.text) <= 89) or run.text in AGE_WORDS or run.text in over_89


class Surrogator(DateSurrogates):
    """Replace the PHI of documents by surrogates, consistently per patient (``doc.group``).

    Parameters
    ----------
    seed : int or str, optional
        Public seed: reproducible output, for tests and demonstrations only
        (anyone with the seed can recompute every surrogate).
    key : str or bytes, optional
        Secret key (HMAC-SHA256): reproducible only by whoever holds it, so
        batches processed separately agree. With neither, a random key is used.
    date_shift : (int, int)
        Range of the per-patient day offset.
    age_over_89 : str
        What ages above 89 become.
    age_bucket : int, optional
        Bucket width for other ages (kept as they are by default).
    avoid_date_collisions : bool
        Redraw a patient's day offset while a shifted date would read like
        another original date of the patient (``3/5`` -> ``2/4`` when ``2/4``
        is also in the notes) or keep a run of itself (``3/14`` -> ``11/14``).
        The offset then depends on the dates learnt (:meth:`learn`) before the
        patient's first note is surrogated, so use it when all notes of a
        patient are processed together (``corpus surrogate``).
    scheme : Scheme, optional
        The label scheme of the spans (default i2b2 2014). A declared scheme's labels
        take the generator their ``surrogate`` names (:mod:`crfdeid.deid.kinds`), the
        shape-keeping random replacement when it names none; output spans keep their labels.

    Attributes
    ----------
    counts : Counter
        ``spans``, ``notes``, ``fallback`` (spans given the shape-keeping random
        replacement), ``date_other_offset`` (date groups moved by another offset
        because the patient's offset would keep a run of them), ``date_fallback``,
        ``generator_errors``...
    last_fallbacks : list of Span
        The spans of the last document that took a fallback (their dates do not
        keep the patient's intervals).
    """

    def __init__(self, seed=None, key=None, date_shift=DEFAULT_SHIFT, age_over_89: str = "90+",
                 age_bucket: int | None = None, avoid_date_collisions: bool = False, scheme=None):
        if seed is not None and key is not None:
            raise ConfigError("give a seed or a key, not both")
        if key is not None and not key:
            raise ConfigError("the key is empty; make one with: python -m crfdeid key new FILE")
        lo, hi = date_shift
        if lo > hi or not any(acceptable_shift(d) for d in range(lo, hi + 1)):
            raise ConfigError(f"date shift range {lo},{hi} has no usable offset "
                              "(0, whole weeks and whole years are excluded)")
        self.keyed = Keyed.from_seed(seed) if seed is not None else Keyed(key or os.urandom(32))
        self.date_shift = (lo, hi)
        self.age_over_89 = age_over_89
        self.age_bucket = age_bucket
        self.avoid_date_collisions = avoid_date_collisions
        self.scheme = scheme
        self.counts = Counter()
        self.last_fallbacks: list[Span] = []
        self._states: dict[str, PatientState] = {}
        self._over_89 = frozenset(r.text for r in guard.runs(age_over_89))

    def state(self, patient: str) -> PatientState:
        """The state of one patient (created on first use)."""
        st = self._states.get(patient)
        if st is None:
            letters = derangement("ABCDEFGHIJKLMNOPQRSTUVWXYZ", self.keyed.rng("initials", patient))
            st = self._states[patient] = PatientState(patient, letters)
        return st

    def age_keeps(self, run: guard.Run) -> bool:
        """Runs an AGE surrogate may keep: an age of 89 or less, an age word, the over-89 label."""
        return age_keeps(run, self._over_89)

    def learn(self, doc: Document) -> None:
        """Register a document's originals and full names (call on all notes first for best coherence)."""
        st = self.state(doc.group)
        seen = (doc.doc_id, hash(doc.text), len(doc.spans))
        if seen in st.learned:
            return
        st.learned.add(seen)
        spans = self._stand_ins(deid_spans(doc))
        for sp in spans:
            surface = doc.surface(sp)
            st.originals.add(normalize(surface))
            (st.cross_dates if sp.subtype == "DATE" else st.cross).add(
                surface, 3, keep=self.age_keeps if sp.subtype == "AGE" else None)
            if sp.category == "NAME" and sp.subtype != "USERNAME":
                st.originals.update(m.group().lower() for m in names.words(surface) if len(m.group()) > 1)
                full = names.full_words(surface)
                if full:
                    st.persons.add(full)
        self.learn_dates(st, doc, date_groups(doc.text, spans))

    def _stand_ins(self, spans: list[Span]) -> list[Span]:
        """The i2b2-labelled spans whose generators ``spans`` take (themselves under i2b2)."""
        if self.scheme is None:
            return spans
        return [stand_in(sp, self.scheme) for sp in spans]

    def units(self, st: PatientState, sp: Span, text: str) -> list[Units]:
        """What the surrogate of ``text`` (span ``sp``) must not hold: its own runs of 2+
        characters, the patient's other PHI runs of 3+ (other dates' only for non-dates)."""
        own = Units.of(text, 2, sp.start, self.age_keeps if sp.subtype == "AGE" else None)
        return [own, st.cross] if sp.subtype == "DATE" else [own, st.cross, st.cross_dates]

    @staticmethod
    def _safe(units: list[Units], new: str) -> bool:
        return all(u.survivor(new) is None for u in units)

    def surrogate(self, doc: Document) -> Document:
        """A new document with surrogate text and spans (offsets in the new text).

        Raises
        ------
        LeakError
            When a surrogate would keep a letter/digit run of what it replaces
            (the message gives the document and offset, never text).
        """
        self.learn(doc)
        st = self.state(doc.group)
        if st.shift_days is None:
            st.shift_days = self.shift_for(st)
        labelled = deid_spans(doc)
        spans = self._stand_ins(labelled)  # what each span is surrogated as; output keeps its label
        units = {sp: self.units(st, sp, doc.surface(sp)) for sp in spans}
        new, fallbacks = {}, []
        groups = date_groups(doc.text, spans)
        for group, year in zip(groups, year_hints(doc.text, groups, st.years)):
            def safe(sp, t):
                return t is not None and self._safe(units[sp], t)
            with st.checking(lambda t, group=group: all(self._safe(units[sp], t) for sp in group)):  # holidays
                reps = self.shifted_group(st, doc.text, group, year)
            if not all(safe(sp, reps[(sp.start, sp.end)]) for sp in group):
                other = self.other_offset(st, doc.text, group, year, safe)
                if other is not None:
                    reps = other
                    fallbacks += group
                    self.counts["date_other_offset"] += 1
            new.update(reps)
        for sp in spans:
            key, text = (sp.start, sp.end), doc.surface(sp)
            if key not in new:
                new[key] = self._typed(st, sp, text, units[sp])
            if not new[key] or not self._safe(units[sp], new[key]):
                new[key] = self._fallback(doc, st, sp, text, units[sp])
                fallbacks.append(sp)
        out = replace_spans(doc, lambda sp, s: new[(sp.start, sp.end)], labelled)
        self._verify(doc, spans, out, units)
        self.counts["notes"] += 1
        self.counts["spans"] += len(spans)
        self.last_fallbacks = sorted(set(fallbacks))
        return out

    def _typed(self, st: PatientState, sp: Span, text: str, units: list[Units]) -> str | None:
        """The typed generator's surrogate (draws that keep a run refused), or None."""
        try:
            with st.checking(lambda cand: self._safe(units, cand)):
                return self._one(st, sp, text)
        except NoDraw:
            return None
        except Exception:  # a generator's bug on an odd string: the safe path still applies
            self.counts["generator_errors"] += 1
            return None

    def _fallback(self, doc: Document, st: PatientState, sp: Span, text: str, units: list[Units]) -> str:
        """The shape-keeping random replacement, safe by construction (:func:`guard.safe_like`)."""
        if not any(c.isalnum() for c in text):
            return text  # punctuation, symbols or marks alone: no run to remove, nothing to draw
        self.counts["fallback"] += 1
        merged = Units()
        for u in units:
            merged.update(u)
        try:
            with st.checking(lambda cand: self._safe(units, cand)):
                return st.assign("fallback", text, lambda a: guard.safe_like(
                    text, self.keyed.rng("fallback", st.patient, normalize(text), a), merged))
        except (NoDraw, NoSafeReplacement):
            raise LeakError("no surrogate without a letter/digit run of the original was found; "
                            "the document is not written", doc_id=doc.doc_id, offset=sp.start) from None

    def _verify(self, doc: Document, spans: list[Span], out: Document, units: dict) -> None:
        """Check the finished document span by span (fail closed)."""
        if len(out.spans) != len(spans):
            raise LeakError("surrogate spans do not match the original spans", doc_id=doc.doc_id)
        for a, b in zip(spans, out.spans):
            if not self._safe(units[a], out.surface(b)):
                raise LeakError("a surrogate keeps a letter/digit run of the PHI it replaces; the "
                                "document is not written", doc_id=doc.doc_id, offset=a.start)

    def mapping(self):
        """``(patient, kind, normalised original, surrogate)`` rows: PHI, write only when asked."""
        for patient, st in sorted(self._states.items()):
            for (kind, orig), sur in sorted(st.maps.items()):
                yield patient, kind, orig, sur
            yield patient, "date-shift-days", "", str(st.shift_days)

    def _one(self, st: PatientState, sp: Span, text: str) -> str:
        sub, k = sp.subtype, self.keyed
        p = st.patient

        def keep_shape(fn, kind):
            return st.assign(kind, text, lambda a: fn(text, k.rng(kind, p, normalize(text), a)))
        if sub in ("PATIENT", "DOCTOR"):
            return names.name(st, k, text)
        if sub == "AGE":
            return numbers.age(text, self.age_over_89, self.age_bucket)
        if sub in ("PHONE", "FAX"):
            return keep_shape(numbers.phone, "phone")
        if sub == "ZIP":
            return keep_shape(numbers.zipcode, "zip")
        if sub == "SSN":
            return keep_shape(numbers.ssn, "ssn")
        if sub == "IPADDR":
            return keep_shape(numbers.ipaddr, "ip")
        if sub == "EMAIL":
            return places.email(st, k, text)
        if sub == "URL":
            return places.url(st, k, text)
        if sub in _IDS or sub == "USERNAME" or (sub in ("OTHER", "ROOM") and any(c.isdigit() for c in text)):
            return keep_shape(random_like, "id")
        return places.location(st, k, sub, text)
