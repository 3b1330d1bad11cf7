"""Site mining: what a batch's own notes reveal, with no annotation (docs/site.md).

A site writes its hospitals, wards, staff and patients' names hundreds of times; a model
finds most of those occurrences and misses a few. After a batch is tagged once, the strings
the model tagged confidently are looked for in every note of the batch, with the site
matcher (:mod:`crfdeid.site.match`: any case, punctuation, possessives), per patient and per
site, behind guards that keep common words, clinical vocabulary and numbers from spreading
(the decision rule in docs/site.md). The CRF runs once: the first pass's spans are kept, then
mined, matched and merged.

>>> from crfdeid.document import Document, Span
>>> notes = [Document(f"n{i}", text, [Span(0, 9, "LOCATION", "HOSPITAL", 0.9)], {"patient": f"p{i}"})
...          for i, text in enumerate(["Westbrook 3 at night", "Westbrook 2 today"])]
>>> notes.append(Document("n2", "back to WESTBROOK's unit", [], {"patient": "p2"}))
>>> lessons = learn(notes)
>>> [(k, ls.subtype, ls.scope) for k, ls in sorted(lessons.site.items())]
[(('westbrook',), 'HOSPITAL', 'site')]
>>> mined = apply(notes, lessons)
>>> [(d.doc_id, [d.text[s.start:s.end] for s in d.spans]) for d in mined]
[('n0', ['Westbrook']), ('n1', ['Westbrook']), ('n2', ['WESTBROOK'])]
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from .. import gazetteers, schema
from ..document import Document, Span, make_span
from . import match

#: The subtypes mined: names, and the places a site owns (not states, countries, ZIP codes).
MINED = frozenset({"PATIENT", "DOCTOR", "USERNAME", "HOSPITAL", "DEPARTMENT", "ROOM", "ORGANIZATION",
                   "STREET", "CITY", "LOCATION-OTHER"})
#: Public word lists whose words are plain words, never spread (``decoding.o_words_lists`` of
#: configs/default.yaml, and the stop words, months, days, titles, relations, professions).
PLAIN_LISTS = ("common_words", "icd10_words", "drug_names", "eponyms", "brand_names", "clinical_abbrevs",
               "clinical_words", "stop_words", "months", "days", "titles", "relations", "professions")
#: Name lists: a plain word in them may be a name (spread behind the site matcher's cue rule).
NAME_LISTS = ("first_male", "first_female", "surnames", "surnames_rare", "nicknames")
#: Lists whose words are never learnt, even when a name list holds them too (issue 50): field
#: labels and headings, staff roles, scales, and clinical vocabulary (``mrn``, ``apt``, ``endo``).
#: Not ``departments``: the i2b2 2014 labels make a department PHI (DEPARTMENT), which mining spreads.
NEVER_LISTS = ("note_labels", "staff_roles", "score_names", "clinical_words", "clinical_heads", "clinical_abbrevs",
               "icd10_words", "drug_names", "eponyms", "brand_names", "contrast_agents", "vaccines",
               "charting_systems")
#: A word whose English frequency (wordfreq's Zipf scale) is at least this is never learnt alone
#: (``will`` 6.4, ``may`` 6.0, ``hope`` 5.4): the ``frequent_words`` list (gazetteers/build.py,
#: ``FREQUENT_ZIPF``) holds these words. On the PhysioNet development notes 23 of the 435 word
#: types of gold names and places are as frequent (docs/site.md).
ZIPF_MAX = 5.0
#: A span is confident when its tokens' lowest P(PHI) is at least this.
MIN_CONFIDENCE = 0.5
#: Per patient: confident tags of a string in that patient's notes.
PATIENT_TAGS = 2
#: Per site: patients (or notes, when each note is its own patient) whose notes tag it confidently.
SITE_PATIENTS = 2
#: Per site: the least share of the notes where a string occurs in which the model tagged it.
SITE_SHARE = 0.2
#: Note ids named in a lesson's provenance (the count is always given).
SHOWN_NOTES = 5
STEP = "site_mining"


@lru_cache(maxsize=1)
def plain_words() -> frozenset:
    """The plain words (lower case) of :data:`PLAIN_LISTS`."""
    return gazetteers.words(PLAIN_LISTS) | gazetteers.load("stop_words")


def strings(text: str, span: Span, allow: frozenset = frozenset()) -> list[tuple[str, ...]]:
    """The strings a confident span teaches: its tokens without numbers, plain words and single
    letters at either end, and for a name of several words each word; none that fails a guard.

    >>> from crfdeid.document import make_span
    >>> strings("Dr. Kevin Dorsey", make_span(0, 16, "DOCTOR"))
    [('kevin', 'dorsey'), ('kevin',), ('dorsey',)]
    >>> strings("Westbrook 3", make_span(0, 11, "HOSPITAL")), strings("the ICU", make_span(0, 7, "HOSPITAL"))
    ([('westbrook',)], [])
    """
    toks = match.tokens(text[span.start:span.end])
    name = span.category == "NAME"
    while toks and _edge(toks[0], name):
        toks.pop(0)
    while toks and _edge(toks[-1], name):
        toks.pop()
    out = [tuple(toks)] if _teaches(toks, allow, name) else []
    if name and len(toks) > 1:
        out += [(t,) for t in toks if _teaches([t], allow, name) and (t,) not in out]
    return out


def _edge(tok: str, name: bool) -> bool:
    return tok.isdecimal() or len(tok) < 2 or (tok in plain_words() and not (name and tok in name_words()))


def _teaches(toks: list[str], allow: frozenset, name: bool = False) -> bool:
    letters = [t for t in toks if not t.isdecimal()]
    if refused(toks):
        return False
    if len(toks) == 1 and (len(toks[0]) < 2 or toks[0] in match.PARTICLES):
        return False
    if not letters or all(t in plain_words() and not (name and len(toks) == 1 and t in name_words())
                          for t in letters):
        return False
    return " ".join(toks) not in allow


def refused(toks) -> bool:
    """Whether a string (its tokens, lower case) is never learnt: every word of it a field label,
    a heading's or a role's word, a scale, a clinical term (:data:`NEVER_LISTS`) or an English
    word of Zipf frequency :data:`ZIPF_MAX` or more (``frequent_words``) or its plural
    (:func:`frequent_plurals`), whatever name list holds it too.

    >>> refused(("mrn",)), refused(("will",)), refused(("endo",)), refused(("will", "dorsey")), refused(("dorsey",))
    (True, True, True, False, False)
    >>> refused(("numbers",))
    True
    """
    words = [t for t in toks if not t.isdecimal()]
    return bool(words) and all(t in never_words() for t in words)


@lru_cache(maxsize=1)
def never_words() -> frozenset:
    """The words of :data:`NEVER_LISTS` and ``frequent_words`` (lower case), and the plurals of the common
    English words (``common_words``) whose singular is a frequent word (:func:`frequent_plurals`)."""
    lists = (*NEVER_LISTS, "frequent_words")
    return gazetteers.words(lists) | frozenset().union(*(gazetteers.load(n) for n in lists)) | frequent_plurals()


@lru_cache(maxsize=1)
def frequent_plurals() -> frozenset:
    """Words of ``common_words`` that are a frequent word (Zipf :data:`ZIPF_MAX` or more) and ``s`` or ``es``:
    wordfreq counts a plural apart from its singular, so ``numbers`` (4.98; ``number`` 5.6) fell under the
    guard while a census list holds it as a name (issue 50). On the PhysioNet development notes one gold name
    or place word type (one occurrence, so never spread by mining anyway) is such a plural (docs/site.md).

    >>> {"numbers", "hopes"} <= frequent_plurals(), "smiths" in frequent_plurals()
    (True, False)
    """
    frequent = gazetteers.load("frequent_words")
    return frozenset(w for w in gazetteers.load("common_words") if w.endswith("s") and len(w) > 3
                     and (w[:-1] in frequent or (w.endswith("es") and w[:-2] in frequent)))


@lru_cache(maxsize=1)
def name_words() -> gazetteers.WordTest:
    """Words of the public name lists (a plain word in them is a name also a word: ``john``, ``will``),
    for ``in`` only."""
    return gazetteers.word_test(NAME_LISTS)


@dataclass
class Lesson:
    """One string learnt: its subtype (the model's most frequent), scope (``site``, ``patient``,
    or ``refused``: a site string left by the share guard), the notes that taught it (ids), its
    confident tags and their lowest confidence."""

    subtype: str
    scope: str
    notes: list[str]
    tags: int
    confidence: float

    def provenance(self) -> dict:
        """Note ids (at most :data:`SHOWN_NOTES`) and counts: never text."""
        return {"scope": self.scope, "notes": self.notes[:SHOWN_NOTES], "notes_count": len(self.notes),
                "tags": self.tags}


def teach(doc: Document, allow: frozenset = frozenset()) -> list[tuple[tuple, str, float]]:
    """What one tagged note teaches: ``(tokens, subtype, confidence)`` per string of a confident
    span of a mined subtype (the rule's steps 1 to 3)."""
    out = []
    for sp in doc.spans:
        conf = 1.0 if sp.confidence is None else float(sp.confidence)
        if sp.subtype in MINED and conf >= MIN_CONFIDENCE:
            out += [(key, sp.subtype, conf) for key in strings(doc.text, sp, allow)]
    return out


class _Tally:
    def __init__(self) -> None:
        self.subtypes: Counter = Counter()
        self.notes: dict[str, None] = {}
        self.groups: set = set()
        self.tags = 0
        self.low = 1.0

    def see(self, doc_id: str, group: str, subtype: str, conf: float) -> None:
        self.subtypes[subtype] += 1
        self.notes.setdefault(doc_id)
        self.groups.add(group)
        self.tags += 1
        self.low = min(self.low, conf)

    def lesson(self, scope: str) -> Lesson:
        subtype = min(self.subtypes, key=lambda s: (-self.subtypes[s], s))
        return Lesson(subtype, scope, sorted(self.notes), self.tags, self.low)


class Lessons:
    """What a batch taught: site-wide strings (``site``: tokens -> :class:`Lesson`) and each
    patient's (``patients``: patient key -> {tokens: Lesson}), and how much they changed."""

    def __init__(self, allow: frozenset = frozenset()):
        self.site: dict = {}
        self.patients: dict = {}
        self.allow = allow
        self.added = self.notes_changed = 0
        self._matchers: dict = {}

    def __getstate__(self):
        return {**self.__dict__, "_matchers": {}}  # rebuilt where used (Spark executors)

    @classmethod
    def learn(cls, taught: Iterable[tuple[str, str, list]], allow: frozenset = frozenset()) -> Lessons:
        """The lessons of ``(doc_id, patient key, teach(doc))`` per note (the rule's steps 4 and 5
        but the share, which needs the occurrences: :meth:`settle`)."""
        site: dict = defaultdict(_Tally)
        per: dict = defaultdict(_Tally)
        for doc_id, group, items in taught:
            for key, subtype, conf in items:
                site[key].see(doc_id, group, subtype, conf)
                per[group, key].see(doc_id, group, subtype, conf)
        out = cls(allow)
        for key in sorted(site):
            if len(site[key].groups) >= SITE_PATIENTS:
                out.site[key] = site[key].lesson("site")
        for group, key in sorted(per):
            if per[group, key].tags >= PATIENT_TAGS:
                out.patients.setdefault(group, {})[key] = per[group, key].lesson("patient")
        return out

    def occurring(self, text: str) -> list[tuple]:
        """The site strings (tokens) found in ``text``, share guard or not."""
        return sorted({key for _, key in self._find(text, None)})

    def settle(self, occurs: dict) -> None:
        """The share guard (rule step 5): ``occurs`` maps a site string to the ids of the notes
        where it is found; one tagged in fewer than :data:`SITE_SHARE` of them is refused."""
        for key, ls in self.site.items():
            if len(ls.notes) < SITE_SHARE * len(set(occurs.get(key, ())) | set(ls.notes)):
                ls.scope = "refused"

    def found(self, doc: Document, site_hits: list | None = None) -> list[tuple[Span, Lesson]]:
        """The occurrences in ``doc`` of the site's strings and of its patient's (``site_hits``:
        what :meth:`_find` gave for the site's strings in this note, when already asked)."""
        hits = self._find(doc.text, None) if site_hits is None else site_hits
        out = [(sp, self.site[key]) for sp, key in hits if self.site[key].scope == "site"]
        if doc.group in self.patients:
            mine = self.patients[doc.group]
            out += [(sp, mine[key]) for sp, key in self._find(doc.text, doc.group)
                    if key not in self.site or self.site[key].scope != "site"]
        return out

    def _find(self, text: str, group: str | None) -> list[tuple[Span, tuple]]:
        lessons = self.site if group is None else self.patients.get(group, {})
        if not lessons:
            return []
        if group not in self._matchers:
            if group is not None and len(self._matchers) > 256:
                self._matchers = {None: self._matchers.get(None)} if None in self._matchers else {}
            self._matchers[group] = _matcher(lessons, self.allow)
        matcher, back = self._matchers[group]
        out = []
        for sp in matcher.find(text):
            key = back.get(tuple(match.tokens(text[sp.start:sp.end])))
            if key is not None:
                out.append((sp, key))
        return out

    def summary(self) -> str:
        """Counts only (never a string learnt)."""
        kept = sum(1 for ls in self.site.values() if ls.scope == "site")
        refused = sum(1 for ls in self.site.values() if ls.scope == "refused")
        per = sum(len(v) for v in self.patients.values())
        return (f"site mining: {kept} string(s) learnt for the site ({refused} left: tagged in too few of "
                f"the notes that hold them), {per} for a patient; {self.added} span(s) added or widened in "
                f"{self.notes_changed} note(s)")


def learn(docs: Iterable[Document], allow: frozenset = frozenset()) -> Lessons:
    """What the tagged ``docs`` teach (:meth:`Lessons.learn` of :func:`teach`)."""
    return Lessons.learn(((d.doc_id, d.group, teach(d, allow)) for d in docs), allow)


def _matcher(lessons: dict, allow: frozenset) -> tuple[match.Matcher, dict]:
    """A matcher of the lessons' strings, and each form's tokens -> the lesson's tokens."""
    forms: list[match.Form] = []
    back: dict[tuple, tuple] = {}
    for key in sorted(lessons):
        # a name that is also a plain word matches alone only after a cue or in title case
        # inside a sentence (the site matcher's rule for names that are words)
        cue = "name" if len(key) == 1 and key[0] in plain_words() else None
        for form in match.phrase_forms(" ".join(key), lessons[key].subtype, cue=cue):  # type: ignore[arg-type]
            forms.append(form)
            back.setdefault(form.words, key)
    return match.Matcher(forms, allow=allow), back


def apply(docs: list[Document], lessons: Lessons, allow: frozenset = frozenset(),
          explain: bool = False) -> list[Document]:
    """``docs`` (tagged, in order) with what ``lessons`` teach found in each (the rule's steps 5
    to 7); ``lessons`` keeps the share guard's verdicts and the counts."""
    occurs: dict = defaultdict(set)
    site_hits = [lessons._find(doc.text, None) for doc in docs]  # read once, for the share and the merge
    for doc, hits in zip(docs, site_hits):
        for _, key in hits:
            occurs[key].add(doc.doc_id)
    lessons.settle(occurs)
    out = []
    for doc, hits in zip(docs, site_hits):
        new, changed = merge(doc, lessons.found(doc, hits), explain)
        lessons.added += changed
        lessons.notes_changed += changed > 0
        out.append(new)
    return out


def merge(doc: Document, found: list[tuple[Span, Lesson]], explain: bool = False) -> tuple[Document, int]:
    """``doc`` with the ``found`` occurrences: one that overlaps predicted spans widens them to
    their union (the model's type and confidence kept), one that overlaps none is added with
    its lesson's subtype; ``(document, spans added or widened)``. ``meta['confidence']`` and,
    with ``explain``, ``meta['explain']`` follow."""
    if not found:
        return doc, 0
    found.sort(key=lambda f: (f[0].start, -f[0].end))
    trace = doc.meta.get("explain")
    steps = {sp: list(s) for sp, s in zip(doc.spans, trace["spans"])} if trace else {}
    spans = sorted(doc.spans, key=lambda sp: (sp.start, sp.end))
    # Predicted spans do not overlap (the chain's output): the ones an occurrence overlaps are
    # then one run of the sorted list, found by bisection, not by a scan per occurrence (a long
    # note repeats a name thousands of times). Overlapping spans (a caller's) are scanned.
    disjoint = all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    starts, ends = [sp.start for sp in spans], [sp.end for sp in spans]
    changed = 0
    for occ, lesson in found:
        if disjoint:
            lo, hi = bisect.bisect_right(ends, occ.start), bisect.bisect_left(starts, occ.end)
            over = spans[lo:hi]
        else:
            over = [sp for sp in spans if sp.overlaps(occ)]
        if over and all(sp.start <= occ.start and occ.end <= sp.end for sp in over[:1]):
            continue  # already inside a predicted span
        step = {"step": STEP, "action": "widened" if over else "found",
                "reason": "a string the model tagged confidently in other notes of the batch",
                "taught_by": lesson.provenance()}
        if over:
            first = over[0]
            new = replace(first, start=min(occ.start, *(s.start for s in over)),
                          end=max(occ.end, *(s.end for s in over)))
            step["was"] = {"start": first.start, "end": first.end, "type": first.subtype}
            history = [st for sp in over for st in steps.pop(sp, [])]
        else:
            new = replace(make_span(occ.start, occ.end, lesson.subtype), confidence=lesson.confidence)
            history = []
        if disjoint:  # the union takes the run's place: the list stays sorted and disjoint
            spans[lo:hi], starts[lo:hi], ends[lo:hi] = [new], [new.start], [new.end]
        else:
            spans = [sp for sp in spans if sp not in over] + [new]
        steps[new] = [*history, step]
        changed += 1
    if not changed:
        return doc, 0
    meta = dict(doc.meta)
    out = Document(doc.doc_id, doc.text, spans, meta, doc.found)
    meta["confidence"] = [sp.confidence for sp in out.spans]
    if trace:
        meta["explain"] = {"spans": [steps.get(sp, []) for sp in out.spans], "dropped": trace["dropped"]}
    return out, changed


def mine_results(results: Iterable[tuple], allow: frozenset = frozenset(), explain: bool = False,
                 lessons: Lessons | None = None) -> Iterator[tuple]:
    """A tagging pass's ``(doc_id, tagged, error)`` results, in order, with site mining: the
    whole batch is held (its tagged documents), learnt from, then matched and merged.
    ``lessons`` (a new :class:`Lessons`, filled here) gets what was learnt and the counts."""
    held = list(results)
    tagged = [t for _, t, err in held if err is None]
    taught = learn(tagged, allow)
    if lessons is not None:
        lessons.__dict__.update(taught.__dict__)
        taught = lessons
    mined = iter(apply(tagged, taught, allow, explain))
    for doc_id, _, err in held:
        yield (doc_id, None, err) if err is not None else (doc_id, next(mined), None)


def mines(model) -> bool:
    """Whether site mining applies to ``model``: an English model of the i2b2 labels (the
    rule's step 1)."""
    return bool(getattr(model, "_english", True)) and model.scheme.name == schema.I2B2.name
