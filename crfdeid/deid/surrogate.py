"""Realistic, consistent surrogates for every PHI subtype (Douglass 2005; i2b2 practice).

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
import re
from collections import Counter

from ..document import Document, Span
from ..errors import ConfigError
from . import dates, names, numbers, places
from .rng import Keyed, apply_case, derangement, normalize, random_like
from .spans import merged_spans, replace_spans
from .state import PatientState

#: Default per-patient date shift range in days (inclusive; 0, whole weeks and whole years
#: excluded). At least 366 days, so the year of every date changes too.
DEFAULT_SHIFT = (-1095, -366)
_GAP = re.compile(r"[ \t,.'/-]{0,4}(?:of[ \t]+)?")
_IDS = {"SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"}


def _acceptable_shift(days: int) -> bool:
    """Non-zero, not whole weeks (bare weekdays must change), not about whole years (7/22 must change)."""
    years = round(abs(days) / 365.2425)
    return days != 0 and days % 7 != 0 and (years == 0 or abs(abs(days) - years * 365.2425) > 2)


class Surrogator:
    """Replace the PHI of documents by surrogates, consistently per patient (``doc.group``).

    Parameters
    ----------
    seed : int or str, optional
        Public seed: reproducible output.
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
        is also in the notes). The offset then depends on the dates learnt
        (:meth:`learn`) before the patient's first note is surrogated, so use it
        when all notes of a patient are processed together (``corpus surrogate``).
    """

    def __init__(self, seed=None, key=None, date_shift=DEFAULT_SHIFT, age_over_89: str = "90+",
                 age_bucket: int | None = None, avoid_date_collisions: bool = False):
        if seed is not None and key is not None:
            raise ConfigError("give a seed or a key, not both")
        lo, hi = date_shift
        if lo > hi or not any(_acceptable_shift(d) for d in range(lo, hi + 1)):
            raise ConfigError(f"date shift range {lo},{hi} has no usable offset "
                              "(0, whole weeks and whole years are excluded)")
        self.keyed = Keyed.from_seed(seed) if seed is not None else Keyed(key or os.urandom(32))
        self.date_shift = (lo, hi)
        self.age_over_89 = age_over_89
        self.age_bucket = age_bucket
        self.avoid_date_collisions = avoid_date_collisions
        self.counts = Counter()
        self._states: dict[str, PatientState] = {}

    def state(self, patient: str) -> PatientState:
        """The state of one patient (created on first use)."""
        st = self._states.get(patient)
        if st is None:
            letters = derangement("ABCDEFGHIJKLMNOPQRSTUVWXYZ", self.keyed.rng("initials", patient))
            st = self._states[patient] = PatientState(patient, letters)
        return st

    def _shift_for(self, st: PatientState) -> int:
        """The patient's day offset: the first acceptable draw (without collisions if asked)."""
        rng = self.keyed.rng("date-shift", st.patient)
        first = None
        for _ in range(200):
            days = rng.randint(*self.date_shift)
            if not _acceptable_shift(days):
                continue
            first = days if first is None else first
            if not self.avoid_date_collisions or not self._collides(st, days):
                return days
            self.counts["date_shift_redraws"] += 1
        self.counts["date_collisions_kept"] += 1
        return first

    def _collides(self, st: PatientState, days: int) -> bool:
        """Whether a shifted date of a note would read like another original date of that note."""
        for regions, originals in st.date_notes.values():
            for region, before, after in regions:
                _, reps, loose = dates.shift_text(region, days, before, after)
                # loose digit runs are redrawn at random later: they cannot collide here
                new = dates.apply(region, reps + [(s, e, "#" * (e - s)) for s, e in loose]).lower()
                if any(re.search(r"(?<![0-9a-z])" + re.escape(o) + r"(?![0-9a-z])", new)
                       for o in originals):
                    return True
        return False

    def learn(self, doc: Document) -> None:
        """Register a document's originals and full names (call on all notes first for best coherence)."""
        st = self.state(doc.group)
        for sp in doc.spans:
            surface = doc.surface(sp)
            st.originals.add(normalize(surface))
            if sp.category == "NAME" and sp.subtype != "USERNAME":
                st.originals.update(m.group().lower() for m in names.words(surface) if len(m.group()) > 1)
                full = names.full_words(surface)
                if full:
                    st.persons.add(full)
        groups = _date_groups(doc.text, merged_spans(doc.spans))
        if groups and st.shift_days is None:
            regions = [(doc.text[g[0].start:g[-1].end], doc.text[max(g[0].start - 1, 0):g[0].start],
                        doc.text[g[-1].end:g[-1].end + 1]) for g in groups]
            originals = {doc.surface(sp).strip().lower() for g in groups for sp in g
                         if len(doc.surface(sp).strip()) >= 3 and not dates.coarse(doc.surface(sp))}
            st.date_notes[doc.doc_id] = (regions, originals)

    def surrogate(self, doc: Document) -> Document:
        """A new document with surrogate text and spans (offsets in the new text)."""
        self.learn(doc)
        st = self.state(doc.group)
        if st.shift_days is None:
            st.shift_days = self._shift_for(st)
        spans = merged_spans(doc.spans)
        new = {}
        for group in _date_groups(doc.text, spans):
            new.update(self._dates(st, doc.text, group))
        for sp in spans:
            if (sp.start, sp.end) not in new:
                new[(sp.start, sp.end)] = self._one(st, sp, doc.text[sp.start:sp.end])
        self.counts["notes"] += 1
        self.counts["spans"] += len(spans)
        return replace_spans(doc, lambda sp, s: new[(sp.start, sp.end)], spans)

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

    def _dates(self, st: PatientState, text: str, group: list[Span]) -> dict:
        start, end = group[0].start, group[-1].end
        region = text[start:end]
        _, reps, loose = dates.shift_text(region, st.shift_days, text[max(start - 1, 0):start], text[end:end + 1])
        self.counts["date_groups"] += 1
        if loose:
            self.counts["date_fallback"] += 1
            reps = reps + [r for s, e in loose for r in self._digits(st, region, s, e)]
        if not reps:  # a holiday or a date-like word: another holiday
            holiday = places.whole(st, self.keyed, "holiday", region, ("holidays",))
            if holiday is None:
                self.counts["date_fallback"] += 1
                choices = places.phrases("holidays", len(region.split())) or places.phrases("holidays", 1)
                holiday = apply_case(region, st.assign("holiday", region, lambda a: self.keyed.rng(
                    "holiday", st.patient, normalize(region), a).choice(choices)))
            reps = [(0, len(region), holiday)]
        out = {}
        for sp in group:
            s0, e0 = sp.start - start, sp.end - start
            inside = [(s - s0, e - s0, n) for s, e, n in reps if s0 <= s and e <= e0]
            if any(s < e0 and e > s0 and not (s0 <= s and e <= e0) for s, e, _ in reps):
                return {k: v for one in group for k, v in self._dates(st, text, [one]).items()}
            out[(sp.start, sp.end)] = dates.apply(region[s0:e0], inside)
        return out

    def _digits(self, st: PatientState, region: str, s: int, e: int) -> list:
        """Random digits for an unexplained digit run (a day keeps a valid day and its ordinal)."""
        old = region[s:e]
        suffix = region[e:e + 2]
        for attempt in range(50):
            rng = self.keyed.rng("date-digits", st.patient, normalize(region), s, attempt)
            if len(old) <= 2 and int(old) <= 31:
                new = str(rng.randint(1, 28)).zfill(len(old))
            else:
                new = random_like(old, rng)
            if new != old:
                reps = [(s, e, new)]
                if suffix.lower() in ("st", "nd", "rd", "th"):
                    new_suffix = dates.ordinal(int(new))
                    reps.append((e, e + 2, new_suffix.upper() if suffix.isupper() else new_suffix))
                return reps
        return [(s, e, old)]  # pragma: no cover - 50 equal draws


def _date_groups(text: str, spans: list[Span]) -> list[list[Span]]:
    """DATE spans in runs separated only by short separators (``Sept`` ``16``, ``2015``)."""
    groups: list[list[Span]] = []
    for sp in spans:
        if sp.subtype != "DATE":
            continue
        if groups and _GAP.fullmatch(text[groups[-1][-1].end:sp.start]):
            groups[-1].append(sp)
        else:
            groups.append([sp])
    return groups
