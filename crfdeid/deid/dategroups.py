"""Dates of a note as groups shifted by the patient's offset (the date half of :class:`Surrogator`).

A date annotated in pieces (PhysioNet's ``Sept`` | ``16``, ``2015``) is one
group, shifted as one date. A date written without a year is placed in the year
of the nearest full date of the note (else the patient's most frequent year), so
``March 14`` moves to the same day as ``03/14/2023`` in the same note: one offset
per patient, whatever the format.
"""

from __future__ import annotations

import re
from collections import Counter

from .. import gazetteers
from ..document import Span
from . import dates, places
from .guard import Units
from .rng import Keyed, normalize, random_like

_GAP = re.compile(r"[ \t,.'/-]{0,4}(?:of[ \t]+)?")


def acceptable_shift(days: int) -> bool:
    """Non-zero, not whole weeks (bare weekdays must change), not about whole years (7/22 must change)."""
    years = round(abs(days) / 365.2425)
    return days != 0 and days % 7 != 0 and (years == 0 or abs(abs(days) - years * 365.2425) > 2)


def date_groups(text: str, spans: list[Span]) -> list[list[Span]]:
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


def region(text: str, group: list[Span]) -> tuple[str, str, str]:
    """``(the group's text, the character before it, the character after it)``."""
    start, end = group[0].start, group[-1].end
    return text[start:end], text[max(start - 1, 0):start], text[end:end + 1]


def year_hints(text: str, groups: list[list[Span]], years: Counter) -> list[int | None]:
    """Per group, the year that places its dates without a year: the nearest full date's in the
    note, else the patient's most frequent (``years``), else None."""
    known = [(g[0].start, dates.year_of(region(text, g)[0])) for g in groups]
    known = [(pos, y) for pos, y in known if y is not None]
    default = years.most_common(1)[0][0] if years else None
    return [min(known, key=lambda k: abs(k[0] - g[0].start))[1] if known else default for g in groups]


def _holiday_words(reg: str) -> bool:
    """A holiday whose words a date pattern does not all explain (``Fourth of July`` is no July;
    ``July 4th`` is a date)."""
    if normalize(reg) not in gazetteers.load("holidays"):
        return False
    found = dates.parse(reg)[0]
    return any(c.isalpha() and not any(p.start <= i < p.end for p in found) for i, c in enumerate(reg))


class DateSurrogates:
    """The date methods of :class:`~crfdeid.deid.surrogate.Surrogator` (which sets ``keyed``,
    ``counts``, ``date_shift`` and ``avoid_date_collisions``)."""

    keyed: Keyed
    counts: Counter
    date_shift: tuple[int, int]
    avoid_date_collisions: bool

    def shift_for(self, st) -> int:
        """The patient's day offset: the first acceptable draw, or with ``avoid_date_collisions``
        the first without collisions, else the one with the fewest (:meth:`_collisions`)."""
        rng = self.keyed.rng("date-shift", st.patient)
        best: tuple[tuple[int, int], int] | None = None
        for i in range(200):
            days = rng.randint(*self.date_shift)
            if not acceptable_shift(days):
                continue
            if not self.avoid_date_collisions:
                return days
            score = self._collisions(st, days, best[0] if best else None)
            if score == (0, 0):
                return days
            self.counts["date_shift_redraws"] += 1
            if best is None or score < best[0]:
                best = (score, days)
            if i >= 60 and best[0][0] == 0:  # no look-alike: good enough, the rest take another offset
                break
        if best is None:  # no acceptable draw in 200 (a narrow range): its first acceptable offset
            return next(d for d in range(self.date_shift[0], self.date_shift[1] + 1) if acceptable_shift(d))
        self.counts["date_collisions_kept"] += 1
        return best[1]

    def _collisions(self, st, days: int, enough: tuple | None = None) -> tuple[int, int]:
        """``(look-alikes, kept runs)``: the patient's date groups whose shifted text would read like
        another original date of their note (``3/5`` -> ``2/4`` beside a ``2/4``: what the leak
        check counts), and those that would keep a letter/digit run of themselves (``3/14`` ->
        ``11/14``: these are moved by another offset). Counting stops once above ``enough``."""
        alike = kept = 0
        default = st.years.most_common(1)[0][0] if st.years else None
        for regions, originals in st.date_notes.values():
            for (reg, before, after, year), units in regions:
                year = default if year is None else year
                _, reps, loose = dates.shift_text(reg, days, before, after, year, drop_of=True)
                # loose digit runs are redrawn at random later: they cannot collide here
                new = dates.apply(reg, reps + [(s, e, "#" * (e - s)) for s, e in loose]).lower()
                alike += any(re.search(r"(?<![0-9a-z])" + re.escape(o) + r"(?![0-9a-z])", new)
                             for o in originals)
                kept += units.survivor(new) is not None
                if enough is not None and (alike, kept) > enough:
                    return alike, kept
        return alike, kept

    def learn_dates(self, st, doc, groups: list[list[Span]]) -> None:
        """Remember a note's date groups (for collision-free offsets) and its full dates' years."""
        for g in groups:
            y = dates.year_of(region(doc.text, g)[0])
            if y is not None:
                st.years[y] += 1
        if groups and st.shift_days is None:
            hints = year_hints(doc.text, groups, Counter())  # None: the patient's year, decided later
            regions = [(region(doc.text, g) + (y,), Units().add_all(doc.surface(sp) for sp in g))
                       for g, y in zip(groups, hints)]
            originals = {doc.surface(sp).strip().lower() for g in groups for sp in g
                         if len(doc.surface(sp).strip()) >= 3 and not dates.coarse(doc.surface(sp))}
            st.date_notes[doc.doc_id] = (regions, originals)

    def shifted_group(self, st, text: str, group: list[Span], year: int | None,
                      days: int | None = None, count: bool = True) -> dict:
        """``{(start, end): new text}`` of a group's spans shifted by ``days`` (default: the
        patient's); a value is None where no holiday could be drawn (the caller falls back)."""
        days = st.shift_days if days is None else days
        reg, before, after = region(text, group)
        start = group[0].start
        holiday = _holiday_words(reg)
        _, reps, loose = (reg, [], []) if holiday else dates.shift_text(reg, days, before, after, year,
                                                                          drop_of=True)
        self.counts["date_groups"] += count
        if loose:
            self.counts["date_fallback"] += count
            reps = reps + [r for s, e in loose for r in self._digits(st, reg, s, e, days)]
        if not reps:  # a holiday or a date-like word: another holiday
            other = self._holiday(st, reg, count)
            if other is None:
                return {(sp.start, sp.end): None for sp in group}
            reps = [(0, len(reg), other)]
        out = {}
        for sp in group:
            s0, e0 = sp.start - start, sp.end - start
            inside = [(s - s0, e - s0, n) for s, e, n in reps if s0 <= s and e <= e0]
            if any(s < e0 and e > s0 and not (s0 <= s and e <= e0) for s, e, _ in reps):
                return {k: v for one in group
                        for k, v in self.shifted_group(st, text, [one], year, days, count).items()}
            out[(sp.start, sp.end)] = dates.apply(reg[s0:e0], inside)
        return out

    def _holiday(self, st, reg: str, count: bool) -> str | None:
        """Another holiday (same number of words if one is acceptable), or None."""
        if normalize(reg) not in gazetteers.load("holidays"):
            self.counts["date_fallback"] += count
        return places.pick(st, self.keyed, "holiday", reg, places.phrases("holidays", len(reg.split())),
                           places.all_phrases("holidays"))

    def other_offset(self, st, text: str, group: list[Span], year, safe) -> dict | None:
        """The group shifted by another offset, drawn until ``safe(span, new text)`` holds for
        every span (its intervals to the patient's other dates are then lost), or None."""
        reg = region(text, group)[0]
        if (not any(c.isdigit() for c in reg) and not dates.parse(reg)[0]) or _holiday_words(reg):
            return None  # a holiday: no offset changes it
        rng = self.keyed.rng("date-other-offset", st.patient, normalize(reg))
        for _ in range(30):
            days = rng.randint(*self.date_shift)
            if not acceptable_shift(days) or days == st.shift_days:
                continue
            new = self.shifted_group(st, text, group, year, days, count=False)
            if all(safe(sp, new[(sp.start, sp.end)]) for sp in group):
                return new
        return None

    def _digits(self, st, reg: str, s: int, e: int, days: int) -> list:
        """Random digits for an unexplained digit run (a day keeps a valid day and its ordinal)."""
        old = reg[s:e]
        suffix = reg[e:e + 2]
        for attempt in range(50):
            rng = self.keyed.rng("date-digits", st.patient, normalize(reg), s, attempt, days)
            if len(old) <= 2 and old.isascii() and int(old) <= 31:
                new = str(rng.randint(1, 28)).zfill(len(old))
            else:
                new = random_like(old, rng)
            if new != old:
                reps = [(s, e, new)]
                if suffix.lower() in ("st", "nd", "rd", "th"):
                    new_suffix = dates.ordinal(int(new))
                    reps.append((e, e + 2, new_suffix.upper() if suffix.isupper() else new_suffix))
                return reps
        return [(s, e, random_like(old, self.keyed.rng("date-digits", st.patient, s)))]
