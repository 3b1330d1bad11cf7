"""Checks that a surrogate corpus is releasable: no leaks, aligned spans, kept date intervals.

Only counts are reported, never PHI text.
"""

from __future__ import annotations

import importlib
import re
from collections import defaultdict
from dataclasses import asdict, dataclass

from ..document import Document
from ..labels import encode
from ..text.patterns import LazyModule
from ..text.tokenize import tokenize
from .spans import as_name, deid_spans, lower_same_length, plain_words

# The surrogates' age, date and unit readers, imported on the first check: ``tag`` imports this
# package for its redaction and never checks (their modules cost each start-up about 0.01 CPU-s).
ages, dates = LazyModule("crfdeid.deid.ages"), LazyModule("crfdeid.deid.dates")
_dategroups, _guard = LazyModule("crfdeid.deid.dategroups"), LazyModule("crfdeid.deid.guard")

#: Where the default ``age_keeps`` of :func:`check` lives (imported on the first check without one).
SURROGATES = "crfdeid.deid.surrogate"


@dataclass
class CheckReport:
    """Counts from :func:`check`; ``ok`` when every check passed."""

    notes: int = 0
    spans: int = 0
    new_spans: int = 0
    leaks: int = 0                 # original PHI strings (3+ chars) found again in the surrogate note
    leak_notes: int = 0
    run_leaks: int = 0             # non-date surrogates holding a letter/digit run of their original
    exempt_spans: int = 0          # placeholders, ages kept as written, unparsed dates (not compared)
    # not leaks: an original date string read again inside a new, shifted date (dates are
    # protected by the secret offset: 3/5 -> 2/4 beside an original 2/4), or a number found
    # where it already stood outside every PHI span (age 100 next to "100%"), or a name that is
    # more often a plain word written as the word (``he will call`` beside a patient ``Will``)
    harmless_repeats: int = 0
    span_text_mismatch: int = 0    # new span not matching its slice / span count changed
    misaligned: int = 0            # new spans not on token boundaries (bio.encode problems)
    misaligned_before: int = 0     # the same count on the original notes, for comparison
    full_dates: int = 0            # full dates compared (original vs surrogate)
    date_patients: int = 0
    interval_violations: int = 0   # patients whose full dates did not all move by the same offset
    unchanged_spans: int = 0       # spans whose surrogate equals the original (case-folded), ages aside
    ages_kept: int = 0             # ages of 89 or less, kept by policy

    @property
    def ok(self) -> bool:
        return not (self.leaks or self.run_leaks or self.span_text_mismatch
                    or self.misaligned > self.misaligned_before or self.interval_violations)

    def to_dict(self) -> dict:
        return {**asdict(self), "ok": self.ok}


def _leaks(orig: Document, new: Document, exempt=frozenset()) -> tuple[int, int]:
    """(leaks, harmless repeats) of the original PHI strings of 3+ characters in the new text;
    the strings of ages of 89 or less (and ``90s``) and of spans kept by policy (``exempt``: an age ``78M``
    found as a code) are not looked for."""
    low = lower_same_length(new.text)
    leaks = repeats = 0
    phis: dict[str, bool] = {}
    kept: dict[str, bool] = {}
    spelling: dict[str, str] = {}  # a name that is more often a plain word -> its annotated spelling
    for sp in sorted(orig.spans, key=lambda s: -len(s)):
        phi = lower_same_length(orig.surface(sp)).strip()
        phis[phi] = phis.get(phi, True) and sp.subtype == "DATE"
        if sp.category == "NAME" and phi in plain_words():
            spelling.setdefault(phi, orig.surface(sp).strip())
        kept[phi] = kept.get(phi, True) and (sp in exempt or (sp.subtype == "AGE" and not ages.over_89_left(phi)))
    for phi, is_date in phis.items():
        if len(phi) < 3 or kept[phi]:
            continue
        coarse = is_date or dates.coarse(phi)
        for m in re.finditer(r"(?<![0-9a-z])" + re.escape(phi) + r"(?![0-9a-z])", low):
            inside = [sp for sp in new.spans if sp.start < m.end() and m.start() < sp.end]
            if ((coarse and any(sp.subtype == "DATE" for sp in inside))  # 3/5 inside a shifted date
                    or (phi.isdigit() and not inside)
                    # "he will call" beside a patient Will: the word, which repeats leave as it is
                    or (phi in spelling and not inside
                        and not as_name(new.text, low, m.start(), m.end(), False, spelling[phi]))):
                repeats += 1
            else:
                leaks += 1
    return leaks, repeats


def _problems(doc: Document) -> int:
    return len(encode(tokenize(doc.text), doc.spans).problems)


def check(pairs, exempt: dict | None = None, age_keeps=None, order: str | dict | None = None) -> CheckReport:
    """Check ``(original, surrogate)`` document pairs (same order of spans).

    A leak is an original PHI string of three or more characters found, case
    folded and as a whole word (not inside a longer word), anywhere in the
    surrogate note; two harmless cases are counted apart (see
    :class:`CheckReport`). A run leak is a surrogate of a span other than a date that
    holds a letter/digit run of two or more characters of the span it replaces
    (:mod:`crfdeid.deid.guard`; ``age_keeps(run)`` says which runs of an AGE span
    may stay, by default ages of 89 or less, age words and ``90``). Full dates (year, month,
    day) of a patient must all have moved by the
    same number of days, so every pairwise interval is kept. Spans in ``exempt``
    (``{doc_id: [original spans]}``, from :attr:`Surrogator.last_exempt`: placeholders,
    ages kept as written, unparsed dates) are left out of both. ``order`` reads ambiguous numeric
    dates (:func:`crfdeid.deid.dates.parse`), as the surrogates were made: one order, or one per
    document id (``{doc_id: order}``, :attr:`Surrogator.last_order` of each note).
    """
    rep = CheckReport()
    offsets: defaultdict[str, set[int | None]] = defaultdict(set)
    exempt = exempt or {}
    age_keeps = age_keeps or importlib.import_module(SURROGATES).age_keeps  # the surrogates' rule
    for orig, new in pairs:
        rep.notes += 1
        spans = deid_spans(orig)
        fell = set(exempt.get(orig.doc_id, ()))
        rep.exempt_spans += len(fell)
        rep.spans += len(spans)
        rep.new_spans += len(new.spans)
        n, harmless = _leaks(orig, new, fell)
        rep.leaks += n
        rep.leak_notes += bool(n)
        rep.harmless_repeats += harmless
        if len(new.spans) != len(spans) or any(not 0 <= sp.start < sp.end <= len(new.text) for sp in new.spans):
            rep.span_text_mismatch += 1
            continue
        rep.run_leaks += sum(
            _guard.Units.of(orig.surface(a), keep=age_keeps if a.subtype == "AGE" else None).survivor(
                new.surface(b)) is not None for a, b in zip(spans, new.spans)
            if a.subtype != "DATE" and a not in fell)
        rep.misaligned += _problems(new)
        rep.misaligned_before += _problems(orig.with_spans(spans))
        groups = list(zip(_dategroups.date_groups(orig.text, spans), _dategroups.date_groups(new.text, new.spans)))
        # a piece of a date annotated in parts may stay (July | 1 -> July | 30): judge the whole date
        moved = {sp for go, gn in groups
                 if orig.text[go[0].start:go[-1].end].lower() != new.text[gn[0].start:gn[-1].end].lower()
                 for sp in go}
        for a, b in zip(spans, new.spans):
            if orig.surface(a).lower() == new.surface(b).lower() and a not in moved:
                if a.subtype == "AGE":
                    rep.ages_kept += 1
                else:
                    rep.unchanged_spans += 1
        for go, gn in groups:
            if fell.intersection(go):
                continue
            reads = order.get(orig.doc_id) if isinstance(order, dict) else order
            before = dates.full_dates(orig.text[go[0].start:go[-1].end], order=reads)
            after = dates.full_dates(new.text[gn[0].start:gn[-1].end], order=reads)
            if len(before) != len(after):
                offsets[orig.group].add(None)
                continue
            for was, now in zip(before, after):
                days = (now - was).days
                if abs(days) > 18262:  # a two-digit year read in the other century
                    now = now.replace(year=now.year - 100 if days > 0 else now.year + 100)
                    days = (now - was).days
                offsets[orig.group].add(days)
                rep.full_dates += 1
    rep.date_patients = len(offsets)
    rep.interval_violations = sum(len(v) > 1 for v in offsets.values())
    return rep


