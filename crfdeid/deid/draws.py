"""Drawing one span's surrogate: the typed generators, a name cut into adjacent spans, and the
shape-keeping random fallback (the drawing half of :class:`~crfdeid.deid.surrogate.Surrogator`).

Every draw is checked against what the surrogate must not hold (:meth:`Draws.units`: the span's
own runs, the patient's other PHI) through :meth:`PatientState.checking`; a typed generator
whose draws all fail gives None, and the span takes the fallback, safe by construction
(:func:`crfdeid.deid.guard.safe_like`).
"""

from __future__ import annotations

from ..document import Document, Span
from ..errors import LeakError
from ..schema import PERSON_SUBTYPES
from . import ages, country, guard, names, numbers, places
from .guard import NoSafeReplacement, Units
from .policies import Policies, known_town, remember_town
from .rng import normalize, random_like
from .state import NoDraw, PatientState

_IDS = {"SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"}
#: Words an AGE surrogate may keep with an age of 89 or less (HIPAA Safe Harbor keeps those ages).
AGE_WORDS = ages.AGE_WORDS
_NUMBER_WORDS = frozenset(ages._WORD_VALUE) | {"hundred", "and"}


def age_keeps(run: guard.Run, over_89=frozenset({"90", "ninety", "plus"})) -> bool:
    """Whether an AGE surrogate may keep ``run``: an age of 89 or less in digits or words (HIPAA
    Safe Harbor keeps them), an age word (``yo``, ``years``), a run of the over-89 label (``90``
    of ``90+``, ``ninety-plus``). That no age over 89 is left is checked apart."""
    return ((run.cls == guard.DIGIT and int(run.text) <= 89) or run.text in AGE_WORDS
            or run.text in over_89 or run.text in _NUMBER_WORDS)


def _an_age(text: str) -> bool:
    """Whether ``text`` is an age and nothing else: numbers and age words (``91-year-old``)."""
    return all(r.cls == guard.DIGIT or r.text in AGE_WORDS or r.text in _NUMBER_WORDS for r in guard.runs(text))


class Draws(Policies):
    """The drawing methods of :class:`~crfdeid.deid.surrogate.Surrogator` (which sets ``_before``,
    ``_country``, ``_over_89``, ``age_over_89``, ``age_bucket``)."""

    _before: str
    _country: str
    _over_89: frozenset
    age_over_89: str
    age_bucket: int | None

    def age_keeps(self, run: guard.Run) -> bool:
        """Runs an AGE surrogate may keep: an age of 89 or less, an age word, the over-89 label."""
        return age_keeps(run, self._over_89)

    def units(self, st: PatientState, sp: Span, text: str) -> list[Units]:
        """What the surrogate of ``text`` (span ``sp``) must not hold: its own runs of 2+
        characters, the patient's other PHI runs of 3+ (its dates' too)."""
        own = Units.of(text, 2, sp.start, self._keeps(sp, text))
        return [own, st.cross, st.cross_dates]

    def _keeps(self, sp: Span, text: str):
        """Runs a surrogate may share with its original: an age's (:meth:`age_keeps`), a phone
        number's country code after ``+`` (``44`` of ``+44``: a country, not a person)."""
        if sp.subtype == "AGE":
            return self.age_keeps
        if sp.subtype in ("PHONE", "FAX") and text.lstrip().startswith("+"):
            return lambda r: r.cls == guard.DIGIT and text[:r.start].strip() == "+"
        return None

    def _name_run(self, st: PatientState, doc: Document, run: list[Span], units: dict) -> dict:
        """The surrogates of a name cut into adjacent spans (:func:`names.adjacent`), drawn for
        the whole name and cut back at the spans' edges; nothing when a replaced word crosses an
        edge or a draw fails (each span then gets its own)."""
        a, b = run[0].start, run[-1].end
        self._before = doc.text[max(0, a - 8):a]
        try:
            with st.checking(lambda cand: all(self._safe(units[sp], cand) for sp in run)):
                reps = names.name_parts(st, self.keyed, doc.text[a:b], names.gender_of(self._before, doc.text[a:b]))
        except NoDraw:
            return {}
        except Exception:  # a generator's bug on an odd string: each span takes its own path
            self.counts["generator_errors"] += 1
            return {}
        edges = [(sp.start - a, sp.end - a) for sp in run]
        if any(not any(s <= x and y <= e for s, e in edges) for x, y, _ in reps):
            return {}
        out = {(sp.start, sp.end): names.apply_parts(doc.text[a:b], reps, s, e) for sp, (s, e) in zip(run, edges)}
        return out if all(self._safe(units[sp], out[(sp.start, sp.end)]) for sp in run) else {}

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
                    text, self.keyed.rng("fallback", st.patient, normalize(text), a), merged), reuse=True)
        except (NoDraw, NoSafeReplacement):
            raise LeakError("no surrogate without a letter/digit run of the original was found; "
                            "the document is not written", doc_id=doc.doc_id, offset=sp.start) from None

    def _one(self, st: PatientState, sp: Span, text: str) -> str:
        sub, k = sp.subtype, self.keyed
        p = st.patient

        def keep_shape(fn, kind):
            return st.assign(kind, text, lambda a: fn(text, k.rng(kind, p, normalize(text), a)))
        if sub in PERSON_SUBTYPES:
            return names.name(st, k, text, names.gender_of(self._before, text))
        if sub == "AGE":
            return numbers.age(text, self.age_over_89, self.age_bucket)
        region = country.region_of(text, self._country) if sub in ("PHONE", "FAX") else None
        if region is not None:  # a number of another country: one of its own shape
            return st.assign("phone-" + region, text, lambda a: country.phone(
                text, region, k.rng("phone", p, normalize(text), a), fictional=a < 5))
        if sub in ("PHONE", "FAX"):  # keyed by its digits: "(217) 555-0143" and "217-555-0143" agree
            digits = "".join(c for c in text if c.isdecimal())
            if not digits:
                return keep_shape(numbers.phone, "phone")
            new = st.assign("phone", digits, lambda a: numbers.phone(digits, k.rng("phone", p, digits, a)))
            return numbers.put_digits(text, new)
        if sub == "ZIP" and (self._country != "US" or country.shape_of(text) in ("GB", "CA", "IE", "NL")):
            cc = self._country
            return keep_shape(lambda t, r: country.postcode(t, r, cc) or random_like(t, r), "zip-" + cc)
        if sub == "ZIP":
            return keep_shape(numbers.zipcode, "zip")
        if sub == "CITY" and self._country in country.countries_with_towns():
            cc = self._country
            return keep_shape(lambda t, r: country.town(t, cc, r), "city-" + cc)
        if sub == "SSN":
            return keep_shape(numbers.ssn, "ssn")
        if sub == "IPADDR":
            return keep_shape(numbers.ipaddr, "ip")
        if sub == "EMAIL":
            return places.email(st, k, text)
        if sub == "URL":
            return places.url(st, k, text)
        if sub == "CITY":  # one town per town of the patient, alone or in an address
            town = known_town(st, text)
            if town is None:
                town = places.location(st, k, sub, text)
                remember_town(st, text, town)
            return town
        if sub in _IDS or sub == "USERNAME" or (sub in ("OTHER", "ROOM") and any(c.isdigit() for c in text)):
            return keep_shape(random_like, "id")
        return places.location(st, k, sub, text)
