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
from ..progress import checkpoint
from ..recognizers import phones, safeharbor
from ..registry import PassesOn
from ..schema import PERSON_SUBTYPES
from ..text import dateorder
from . import address, ages, dates, forms, gates, guard, names
from .confident_form import form_names
from .confident_note import WEAK_FORMS
from .confident_type import PLACE_SPANS, evident_names
from .dategroups import acceptable_shift, date_groups, region, year_hints
from .defaults import DEFAULT_SHIFT, SurrogateOptions, option_parameters
from .draws import AGE_WORDS, Draws, _an_age, age_keeps
from .kinds import settle_kinds, stand_in
from .mapping import MappingTable
from .policies import PLACEHOLDER, SAFE_HARBOR, Overlaps, age_tails, as_age, confidences, digits_changed, years_between
from .proven import bar as proven_bar
from .proven import proven as proven_type
from .proven import record_names
from .rng import Keyed, derangement, normalize
from .spans import deid_spans, replace_spans
from .state import PatientState

__all__ = ["AGE_WORDS", "DEFAULT_SHIFT", "Surrogator", "age_keeps"]


def order_evidence(text: str, groups: list[list[Span]]) -> tuple[Counter, Counter]:
    """The dates of a note that read one way only (counts by order): those that tell the note's and
    its patient's order, and those that tell the batch's. A tagged date without a year (``13/10``) is
    the batch's evidence only: alone it is a score or a ratio as often (on the PhysioNet development
    notes, 4 notes' only day-first readings were such spans); a date with a year, or a user's date
    (no confidence), tells its note too."""
    texts = [region(text, g)[0] for g in groups]
    every = dateorder.evidence(texts)
    users = [t for t, g in zip(texts, groups) if all(sp.confidence is None for sp in g)]
    tagged = [t for t, g in zip(texts, groups) if any(sp.confidence is not None for sp in g)]
    return dateorder.evidence(users) + dateorder.evidence(tagged, yearless=False), every


def _option(name: str) -> property:
    """An attribute read from :attr:`Surrogator.options` (the mixins read the options by these names)."""
    return property(lambda self: getattr(self.options, name), doc=f"``options.{name}``")


class Surrogator(Draws):
    """Replace the PHI of documents by surrogates, consistently per patient (``doc.group``).

    Parameters
    ----------
    seed : int or str, optional
        Public seed: reproducible output, for tests and demonstrations only
        (anyone with the seed can recompute every surrogate).
    key : str or bytes, optional
        Secret key (HMAC-SHA256): reproducible only by whoever holds it, so
        batches processed separately agree. With neither, a random key is used.
    scheme : Scheme, optional
        The label scheme of the spans (default i2b2 2014). A declared scheme's labels
        take the generator their ``surrogate`` names (:mod:`crfdeid.deid.kinds`), the
        shape-keeping random replacement when it names none; output spans keep their labels.
        A label without one whose name suggests a date, an age, a name... is refused unless
        ``kinds`` gives it one (:func:`crfdeid.deid.kinds.settle_kinds`).
    kinds : str or mapping, optional
        Generators for labels of ``scheme``: ``guess`` (from the labels' names), ``LABEL:KIND``
        pairs, or both (:func:`crfdeid.deid.kinds.parse_kinds`); listed in :attr:`kinds_given`.
    options : SurrogateOptions, optional
        What the surrogates may say (:class:`~crfdeid.deid.defaults.SurrogateOptions`: the date shift,
        ages, birth dates, unparsed dates, ``min_confidence``, ``date_order`` and ``surrogates: proven``,
        whose ``proven_names`` takes a listed first name, or a title or person's mark right before a
        name, as proof of a name); default: its defaults.
    **given
        Fields of :class:`~crfdeid.deid.defaults.SurrogateOptions` by name, over ``options``
        (``Surrogator(seed=1, proven="off")``).

    Attributes
    ----------
    options : SurrogateOptions
        The options in force (passed on as they are by the writers).
    counts : Counter
        ``spans``, ``notes``, ``fallback`` (spans given the shape-keeping random
        replacement), ``date_groups``, ``date_unparsed``, ``dob_generalized``,
        ``ages_over_89``, ``uncertain``, ``clinical_values``, ``clinical_terms``, ``digits_in_words`` (spans of
        a name or place that hold a digit), ``not_identifier`` (tagged spans not confidently a Safe Harbor
        identifier of their type, :mod:`crfdeid.deid.confident`; ``not_identifier:DOCTOR``... by type),
        ``clinical_forms`` (of those, the spans
        of a score, grade, stage, class, code, bed or a phrase in capitals, :mod:`crfdeid.deid.forms`;
        ``gate:number_label``..., those a narrow gate held, :mod:`crfdeid.deid.gates`),
        ``order_dmy``... and ``order_from_note``...
        (notes by the order their dates were read in and where it came from), ``generator_errors``...
    unparsed : list of (doc_id, offset, what it became)
        The date spans no date pattern explains, by document and offset (never text).
    last_exempt : list of Span
        The spans of the last document not held to the no-shared-run rule as surrogates:
        placeholders, ages of 89 or less kept as written, unparsed dates.
    """

    __signature__ = PassesOn(option_parameters)  # its **given: the option fields, for the registry's check
    date_shift, age_over_89, age_bucket = _option("date_shift"), _option("age_over_89"), _option("age_bucket")
    dob, unparsed_dates, min_confidence = _option("dob"), _option("unparsed_dates"), _option("min_confidence")
    date_order, proven_names, proven_model = _option("date_order"), _option("proven_names"), _option("proven_model")
    proven = property(lambda self: proven_bar(self.options.proven), doc="``options.proven`` as a bar (None: off)")
    narrow_gates = _option("narrow_gates")
    gates_on = property(lambda self: gates.parse_gates(self.narrow_gates), doc="``narrow_gates`` as gate names")

    def __init__(self, seed=None, key=None, scheme=None, kinds=None, options: SurrogateOptions | None = None,
                 **given):
        self.options = opts = SurrogateOptions.of(options, **given)
        scheme, self.kinds_given = settle_kinds(scheme, kinds)
        if seed is not None and key is not None:
            raise ConfigError("give a seed or a key, not both")
        if key is not None and not key:
            raise ConfigError("the key is empty; make one with: python -m crfdeid key new FILE")
        lo, hi = opts.date_shift
        if lo > hi or not any(acceptable_shift(d) for d in range(lo, hi + 1)):
            raise ConfigError(f"date shift range {lo},{hi} has no usable offset "
                              "(0, whole weeks and whole years are excluded)")
        if opts.dob not in ("placeholder", "no-year"):
            raise ConfigError(f"dob={opts.dob!r}: known: placeholder, no-year")
        if opts.unparsed_dates not in ("placeholder", "random"):
            raise ConfigError(f"unparsed_dates={opts.unparsed_dates!r}: known: placeholder, random")
        dateorder.check_order(opts.date_order)
        self.order_evidence: Counter = Counter()  # dates that read one way only, by order (counts)
        self.keyed = Keyed.from_seed(seed) if seed is not None else Keyed(key or os.urandom(32))
        proven_bar(opts.proven)  # checked here: a setting that is no bar is refused at once
        gates.parse_gates(opts.narrow_gates)  # and an unknown gate
        self._gated: dict = {}
        self.scheme = scheme
        self.counts = Counter()
        self.unparsed: list[tuple[str, int, str]] = []
        self.last_exempt: list[Span] = []
        self.last_order: str | None = None  # the order the last note's ambiguous dates were read in
        self._states: dict[str, PatientState] = {}
        #: what every span of every note became (PHI): kept only when a mapping file is asked
        #: for (:meth:`keep_mapping`), so a long run or the service holds no table
        self.table: MappingTable | None = None
        self._before = ""  # the text just before the span being replaced (a title: Mrs.)
        self._country = "US"  # the note's country (safeharbor.country): postcodes, phones, towns of its shape
        self._over_89 = frozenset(r.text for r in guard.runs(opts.age_over_89)) | {"ninety", "plus"}

    def keep_mapping(self) -> MappingTable:
        """Start keeping the mapping table (:mod:`crfdeid.deid.mapping`) of the notes surrogated
        from now on; returns it."""
        if self.table is None:
            self.table = MappingTable()
        return self.table

    def state(self, patient: str) -> PatientState:
        """The state of one patient (created on first use)."""
        st = self._states.get(patient)
        if st is None:
            letters = derangement("ABCDEFGHIJKLMNOPQRSTUVWXYZ", self.keyed.rng("initials", patient))
            st = self._states[patient] = PatientState(patient, letters)
        return st

    def learn(self, doc: Document) -> None:
        """Register a document's originals, full names, years, birth dates and whether it says the
        patient is over 89 (call on all notes of a patient first for best coherence)."""
        st = self.state(doc.group)
        seen = (doc.doc_id, hash(doc.text), len(doc.spans))
        if seen in st.learned:
            return
        st.learned.add(seen)
        spans = self._stand_ins(deid_spans(doc))
        for sp in spans:
            surface = doc.surface(sp)
            st.originals.add(normalize(surface))
            (st.cross_dates if sp.subtype == "DATE" else st.cross).add(surface, 3, keep=self._keeps(sp, surface))
            if sp.category == "NAME" and sp.subtype != "USERNAME":
                st.originals.update(m.group().lower() for m in names.words(surface) if len(m.group()) > 1)
                full = names.full_words(surface)
                if full:
                    st.persons.add(full)
                    st.later_words.update(full[1:])
            if (sp.subtype == "AGE" or ages.age_shaped(surface)) and (ages.value(surface) or 0) > 89:
                st.over_89 = True
        if not st.over_89 and ages.MENTION.search(doc.text):
            st.over_89 = True  # an age over 89 the spans missed still tells the patient's age
        groups = date_groups(doc.text, spans)
        own, every = order_evidence(doc.text, groups)
        st.order_evidence.update(own)  # counts only, once per note: the patient's and the batch's evidence
        self.order_evidence.update(every)
        order = dateorder.note_order(self.date_order, own, st.order_evidence, self.order_evidence,
                                     spelling=dateorder.spelling_order(doc.text))[0]
        for g in groups:
            found = dates.full_dates(*region(doc.text, g), order=order)
            if found:  # the first full date's year places the note's dates written without one
                st.years[found[0].year] += 1
            if ages.birth_context(doc.text, g[0].start):
                st.births.update(found)
            elif found:
                st.latest = max(found + ([st.latest] if st.latest else []))
        if st.latest and any(years_between(b, st.latest) >= 90 for b in st.births):
            st.over_89 = True

    def _stand_ins(self, spans: list[Span]) -> list[Span]:
        """The i2b2-labelled spans whose generators ``spans`` take (themselves under i2b2)."""
        if self.scheme is None:
            return spans
        return [stand_in(sp, self.scheme) for sp in spans]

    def surrogate(self, doc: Document) -> Document:
        """A new document with surrogate text and spans (offsets in the new text).

        Raises
        ------
        LeakError
            When a surrogate would keep a letter/digit run of what it replaces, a date
            did not move by the patient's offset in its format, or an age over 89 is
            left (the message gives the document and offset, never text).
        """
        self.learn(doc)
        st = self.state(doc.group)
        # the Safe Harbor layer's forms (kept by tagging when it read this text): the country, the fixed forms
        found = safeharbor.matches(doc.text, doc.found)
        votes = phones.country_votes(doc.text, [name for name, _ in found])
        self._country = phones.country_of(doc.text, [name for name, _ in found]) if votes else "US"
        if st.shift_days is None:
            st.shift_days = self.shift_for(st)
        labelled = age_tails(doc, deid_spans(doc))
        predicted = any(sp.confidence is not None for sp in doc.spans)  # a tagger's spans, not a user's
        # the fixed forms (a year alone is none: confident_note), each with its forms' names (confident_form)
        self._form_names = form_names([(name, sp) for name, sp in found if name not in WEAK_FORMS])
        fixed = Overlaps(self._form_names)
        # the tagger's confidence and the model's word, one pass (a user's spans have neither)
        conf, crf = confidences(doc, labelled, fixed) if predicted else (dict.fromkeys(labelled), {})
        spans = [as_age(doc, sp) for sp in self._stand_ins(labelled)]
        order = self.read_order(doc, spans, self._country if votes else None)
        record = record_names(doc.meta.get("known"))  # the names the note's record gives (proven.py, rule d)
        known = frozenset(w for person in st.persons for w in person) | record  # the patient's names: confident.py
        person_ends = frozenset(sp.end for sp in labelled if sp.subtype in PERSON_SUBTYPES)  # confident_note
        self._gated = gates.gated(doc.text, spans, self.gates_on) if predicted else {}  # narrow gates
        self._named = evident_names(doc.text, spans, record) if predicted else frozenset()  # confident_type
        self._places = tuple((sp.start, sp.end, sp.subtype) for sp in spans if sp.subtype in PLACE_SPANS)  # an address
        new: dict = {}
        exempt: set[Span] = set()
        bar = self.proven  # the options' setting as a bar, read once a note (a property: it parses the setting)
        for lab, sp in zip(labelled, spans):
            why = self._placeholder(doc, sp, conf[lab])
            reason = (self._doubt(doc, sp, conf[lab], order, known, fixed, crf[lab], person_ends, record)
                      if why is None and predicted else None)
            if why is None and reason is None and predicted and bar is not None and not proven_type(
                    doc.text, sp, conf[lab], bar, self.proven_names, crf[lab] if self.proven_model else None,
                    record):
                why = "unproven"  # surrogates: proven (proven.py): no fixed form, bar or listed name proves its type
                self.counts[f"unproven:{lab.subtype}"] += 1
            if reason:
                why = "not_identifier"
                self.counts[f"not_identifier:{lab.subtype}"] += 1  # by type, for the run summary
                self.counts["clinical_forms"] += reason in forms.REASONS  # of them, a clinical form (forms.py)
                self.counts[f"gate:{reason}"] += reason in gates.GATES  # of them, a narrow gate's (gates.py)
            if why is not None:
                new[(sp.start, sp.end)] = PLACEHOLDER.format(subtype=lab.subtype)
                exempt.add(sp)
                self.counts[why] += 1
            elif sp.subtype == "AGE" and sp.category != lab.category:
                exempt.add(sp)  # an age found as another type: an age, not a code to redraw
        dated = [sp for sp in spans if sp.subtype == "DATE" and (sp.start, sp.end) not in new]
        groups = date_groups(doc.text, dated)
        hints = dict(zip((g[0] for g in groups), year_hints(doc.text, groups, st.years)))
        unparsed: set[Span] = set()
        general: set[Span] = set()
        for group in groups:
            checkpoint()  # a caller's deadline (crfdeid.progress) stops a note of thousands of spans
            year = hints[group[0]]
            if st.over_89 and self._tells_age(st, doc.text, group):
                general.update(group)
                new.update(self._generalized(st, doc, group, year, order))
                continue
            reps, bad = self.shifted_group(st, doc.text, group, year, order=order)
            new.update(reps)
            unparsed |= bad
        units = {sp: self.units(st, sp, doc.surface(sp)) for sp in spans if (sp.start, sp.end) not in new
                 or sp in unparsed}
        for sp in sorted(unparsed):
            text = doc.surface(sp)
            rep = (self.random_date(st, doc.text, sp, lambda t, sp=sp: self._safe(units[sp], t))
                   if self.unparsed_dates == "random" else None)
            if rep is None and self.unparsed_dates == "random":
                rep = self._fallback(doc, st, sp, text, units[sp])
            new[(sp.start, sp.end)] = rep if rep is not None else PLACEHOLDER.format(subtype="DATE")
            if rep is None:
                del units[sp]  # a placeholder holds nothing of the original
            self.counts["date_unparsed"] += 1
            self.unparsed.append((doc.doc_id, sp.start, "random" if rep is not None else "placeholder"))
        exempt |= unparsed | general
        us_addresses = [] if self._country != "US" else [sp for sp in spans if (sp.start, sp.end) not in new]
        for group in address.groups(doc.text, us_addresses):  # another country's: part by part, its own shapes
            new.update(self._address(st, group, {sp.subtype: doc.surface(sp) for sp in group}, units))
        for run in names.adjacent(doc.text, [sp for sp in spans if (sp.start, sp.end) not in new]):
            new.update(self._name_run(st, doc, run, units))
        label_of = dict(zip(spans, labelled))
        for sp in spans:
            checkpoint()
            key, text = (sp.start, sp.end), doc.surface(sp)
            if key not in new:
                self._before = doc.text[max(0, sp.start - 8):sp.start]
                new[key] = self._typed(st, sp, text, units[sp])
                unsafe = not new[key] or not self._safe(units[sp], new[key])
                age_words = sp.subtype == "AGE" and _an_age(text)
                if unsafe and not age_words:
                    new[key] = self._fallback(doc, st, sp, text, units[sp])
                if unsafe and sp.subtype == "AGE" and (age_words or ages.over_89_left(new[key], self.age_over_89)):
                    # an age whose words are another PHI's too (a date's "a year ago"), or random digits
                    # in an AGE span that is no age (``Ⅻ00``): digits would state another age (one over
                    # 89 even), so a placeholder
                    new[key] = PLACEHOLDER.format(subtype=label_of[sp].subtype)
                    exempt.add(sp)
                    del units[sp]
                    self.counts["age_placeholders"] += 1
        out = replace_spans(doc, lambda sp, s: new[(sp.start, sp.end)], labelled)
        self._verify(doc, spans, out, units)
        where = {sp: i for i, sp in enumerate(spans)}
        pairs = [(go, [out.spans[where[sp]] for sp in go]) for go in groups if not general.intersection(go)]
        bad_at = self.verify_dates(doc, out, pairs, hints, unparsed, st.shift_days, order)
        if bad_at is not None:
            raise LeakError("a date did not move by the patient's offset in its own format; the "
                            "document is not written", doc_id=doc.doc_id, offset=bad_at)
        if self.table is not None:
            self.table.add(Document(doc.doc_id, doc.text, labelled, doc.meta), out, st.shift_days)
        self.counts["notes"] += 1
        self.counts["spans"] += len(spans)
        # digits a surrogate changed that Safe Harbor does not ask to change (issue 50): counts only
        self.counts["digits_outside"] += sum(digits_changed(doc.surface(sp), new[(sp.start, sp.end)])
                                             for sp in spans if sp.subtype not in SAFE_HARBOR)
        self.last_exempt = sorted(lab for lab, sp in zip(labelled, spans) if sp in exempt)
        return out

    def _verify(self, doc: Document, spans: list[Span], out: Document, units: dict) -> None:
        """Check the finished document span by span (fail closed): no run of the original kept,
        no age over 89 left."""
        if len(out.spans) != len(spans):
            raise LeakError("surrogate spans do not match the original spans", doc_id=doc.doc_id)
        for a, b in zip(spans, out.spans):
            new = out.surface(b)
            if a in units and not self._safe(units[a], new):
                raise LeakError("a surrogate keeps a letter/digit run of the PHI it replaces; the "
                                "document is not written", doc_id=doc.doc_id, offset=a.start)
            if a.subtype == "AGE" and ages.over_89_left(new, self.age_over_89):
                raise LeakError("an age over 89 is left; the document is not written",
                                doc_id=doc.doc_id, offset=a.start)

    def read_order(self, doc: Document, spans: list[Span], country: str | None = None) -> str | None:
        """The order this note's ambiguous dates are read in (:func:`crfdeid.text.dateorder.note_order`:
        its own dates that read one way only, its patient's, the order of ``country`` (the one its forms
        tell, None when they tell none), its spelling, the setting, the batch's), counted by order and
        by where it came from (counts only)."""
        own = order_evidence(doc.text, date_groups(doc.text, spans))[0]
        order, source = dateorder.note_order(self.date_order, own, self.state(doc.group).order_evidence,
                                             self.order_evidence, country, dateorder.spelling_order(doc.text))
        self.counts[f"order_{order or 'undecided'}"] += 1
        self.counts[f"order_from_{source}"] += 1
        self.last_order = order
        return order

    def date_decision(self) -> dateorder.Decision:
        """What the ``date_order`` setting gives the batch (counts of the evidence, never a date)."""
        return dateorder.decide(self.date_order, self.order_evidence)

    def order_message(self) -> str:
        """The notes by the order their dates were read in and by where it came from (counts only)."""
        c = self.counts
        orders = ", ".join(f"{c[f'order_{o}']} {o}" for o in ("dmy", "mdy", "ymd", "undecided") if c[f"order_{o}"])
        sources = ", ".join(f"{c[f'order_from_{s}']} " + ("undecided" if s == "undecided" else f"from the {s}")
                            for s in dateorder.SOURCES if c[f"order_from_{s}"])
        return f"date order per note: {orders or 'no notes'} ({sources or 'none'})"

    def _by_type(self, count: str) -> dict:
        """``{subtype: n}`` of the counts ``count:SUBTYPE`` (``not_identifier``, ``unproven``) above zero."""
        prefix = f"{count}:"
        return {k[len(prefix):]: n for k, n in sorted(self.counts.items()) if k.startswith(prefix) and n}

    def summary(self) -> dict:
        """Counts of what was done, and the unparsed dates by document id and offset (never text)."""
        c = self.counts
        return {"date_order": self.date_decision().message(), "date_order_notes": self.order_message(),
                "notes_by_order": {o: c[f"order_{o}"] for o in ("dmy", "mdy", "ymd", "undecided") if c[f"order_{o}"]},
                "notes_by_order_source": {s: c[f"order_from_{s}"] for s in dateorder.SOURCES if c[f"order_from_{s}"]},
                "not_confident_spans": c["not_identifier"], "clinical_forms": c["clinical_forms"],
                "not_confident_by_type": self._by_type("not_identifier"),
                "narrow_gates": self._by_type("gate"),  # of them, by the narrow gate that held them (gates.py)
                "unproven_spans": c["unproven"],  # surrogates: proven (proven.py), by type
                "unproven_by_type": self._by_type("unproven"),
                "date_groups": c["date_groups"], "dates_unparsed": c["date_unparsed"],
                "dates_unparsed_at": [{"doc_id": d, "offset": o, "became": w} for d, o, w in self.unparsed],
                "birth_dates_generalized": c["dob_generalized"], "uncertain_spans": c["uncertain"],
                "clinical_values": c["clinical_values"], "clinical_terms": c["clinical_terms"],
                "digits_in_words": c["digits_in_words"],
                "fallback_spans": c["fallback"], "digits_outside_safe_harbor": c["digits_outside"],
                "generator_errors": c["generator_errors"]}
