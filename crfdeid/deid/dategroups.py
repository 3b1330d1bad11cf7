"""Dates of a note as groups shifted by the patient's offset (the date half of :class:`Surrogator`).

A date annotated in pieces (PhysioNet's ``Sept`` | ``16``, ``2015``) is one
group, shifted as one date. A date written without a year is placed in the year
of the nearest full date of the note (else the patient's most frequent year), so
``March 14`` moves to the same day as ``03/14/2023`` in the same note: one offset
per patient, whatever the format.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter

from .. import gazetteers
from ..document import Span
from . import datemoved, dates, places
from .rng import Keyed, normalize, random_like

_GAP = re.compile(r"[ \t,.'/-]{0,4}(?:of[ \t]+)?")


def moves_faithfully(reg: str, new_reg: str, before: str, after: str, order, days: int, year,
                     bad_old=(), bad_new=()) -> bool:
    """Whether the dates of ``new_reg`` read back as those of ``reg`` moved by exactly ``days`` in the same
    format (``year`` places a date written without one), the dates over ``bad_old`` / ``bad_new`` (spans
    taken as unparsed) left out of each."""
    def kept(text, bad):
        return [p for p in dates.parse(text, before, after, order)[0] if not any(p.start < e and s < p.end
                                                                                  for s, e in bad)]
    old, new = kept(reg, bad_old), kept(new_reg, bad_new)
    return len(old) == len(new) and all(datemoved.moved_by(reg, p, new_reg, q, days, year) for p, q in zip(old, new))


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
    known = sorted((pos, y) for pos, y in known if y is not None)
    default = years.most_common(1)[0][0] if years else None
    if not known:
        return [default] * len(groups)
    at = [pos for pos, _ in known]

    def nearest(x: int) -> int | None:  # by bisection (a note of thousands of dates); a tie: the earlier
        i = bisect_left(at, x)
        if i == len(at) or (i > 0 and x - at[i - 1] <= at[i] - x):
            i -= 1
        return known[i][1]
    return [nearest(g[0].start) for g in groups]


def _holiday_words(reg: str) -> bool:
    """A holiday whose words a date pattern does not all explain (``Fourth of July`` is no July;
    ``July 4th`` is a date)."""
    if normalize(reg) not in gazetteers.load("holidays"):
        return False
    found = dates.parse(reg)[0]
    return any(c.isalpha() and not any(p.start <= i < p.end for p in found) for i, c in enumerate(reg))


def _without_years(reg: str, found, reps: list) -> list:
    """``reps`` with each year removed instead, with the separator joining it to its date."""
    cuts = []
    for p in found:
        key = "y" if "y" in p.fields else "yy" if "yy" in p.fields else None
        if key is None:
            continue
        ys, ye = p.fields[key]
        others = sorted(v for k, v in p.fields.items() if k not in (key, "of"))
        before = [e for s, e in others if e <= ys]
        after = [s for s, e in others if s >= ye]
        cut = ((max(before), ye) if before else (ys, min(after)) if after else (ys, ye))
        if reg[cut[0] - 1:cut[0]] == "'" and not before:
            cut = (cut[0] - 1, cut[1])
        cuts.append(cut)
    kept = [r for r in reps if not any(s <= r[0] and r[1] <= e for s, e in cuts)]
    return sorted(kept + [(s, e, "") for s, e in cuts])


class DateSurrogates:
    """The date methods of :class:`~crfdeid.deid.surrogate.Surrogator` (which sets ``keyed``,
    ``counts``, ``date_shift``)."""

    keyed: Keyed
    counts: Counter
    date_shift: tuple[int, int]

    def shift_for(self, st) -> int:
        """The patient's day offset: the first acceptable draw keyed by the patient alone, so every
        run with the same key gives the patient the same offset, whatever notes it holds."""
        rng = self.keyed.rng("date-shift", st.patient)
        for _ in range(200):
            days = rng.randint(*self.date_shift)
            if acceptable_shift(days):
                return days
        # no acceptable draw in 200 (a narrow range): its first acceptable offset
        return next(d for d in range(self.date_shift[0], self.date_shift[1] + 1) if acceptable_shift(d))

    def shifted_group(self, st, text: str, group: list[Span], year: int | None,
                      days: int | None = None, drop_year: bool = False,
                      order: str | None = None) -> tuple[dict, set]:
        """``({(start, end): new text}, unparsed spans)``: the group's spans shifted by ``days``
        (default: the patient's offset), and those holding a letter or digit outside every date
        field (a bare day ``21``, ``052647``, a holiday, ``the 3rd``), which no offset explains.
        With ``drop_year`` the years are left out with their separator (``3/14/1932`` -> ``1/21``);
        ``order`` reads ambiguous numeric dates (:func:`~crfdeid.deid.dates.parse`)."""
        days = st.shift_days if days is None else days
        reg, before, after = region(text, group)
        start = group[0].start
        self.counts["date_groups"] += 1
        if _holiday_words(reg):
            return {}, set(group)
        found, _ = dates.parse(reg, before, after, order)
        covered = bytearray(len(reg))
        for p in found:
            for s, e in p.fields.values():
                covered[s:e] = b"\x01" * (e - s)
        # the words of a date (of, the, month names) are date fields, so they may stay
        reps = sorted(r for p in found for r in dates.render(reg, p, dates.shift(p, days, year)))
        if drop_year:
            reps = _without_years(reg, found, reps)
        out, bad = {}, set()
        for sp in group:
            s0, e0 = sp.start - start, sp.end - start
            if any(reg[i].isalnum() and not covered[i] for i in range(s0, e0)):
                bad.add(sp)
                continue
            if any(s < e0 and e > s0 and not (s0 <= s and e <= e0) for s, e, _ in reps):
                # a field cut by a span boundary: each span on its own
                for one in group:
                    o, b = self.shifted_group(st, text, [one], year, days, drop_year, order)
                    out.update(o)
                    bad |= b
                return out, bad
            out[(sp.start, sp.end)] = dates.apply(reg[s0:e0], [(s - s0, e - s0, n) for s, e, n in reps
                                                               if s0 <= s and e <= e0])
        if not bad and not drop_year and not moves_faithfully(reg, dates.apply(reg, reps), before, after, order,
                                                               days, year):
            # the shifted text would read as other dates: no offset explains the group, so it is written as
            # unparsed (a placeholder by default), not a note that fails the final check (verify_dates)
            return {}, set(group)
        return out, bad

    def random_date(self, st, text: str, sp: Span, safe) -> str | None:
        """A random replacement of an unparsed date span (``unparsed_dates='random'``): another
        holiday for words, same-shape digits for digits (a bare day a valid day with its
        ordinal); None when none is ``safe``."""
        reg = text[sp.start:sp.end]
        if any(c.isalpha() for c in reg):  # a holiday or a date-like word: another holiday
            with st.checking(safe):
                return places.pick(st, self.keyed, "holiday", reg, places.phrases("holidays", len(reg.split())),
                                   places.all_phrases("holidays"))
        for attempt in range(50):
            reps = [r for m in re.finditer(r"\d+", reg) for r in self._digits(st, reg, m.start(), m.end(), attempt)]
            new = dates.apply(reg, reps)
            if safe(new):
                return new
        return None

    def verify_dates(self, doc, out, pairs, hints: dict, unparsed: set, days: int,
                     order: str | None = None) -> int | None:
        """The offset of the first date of ``pairs`` (``[(original group, new group)]``) that did
        not move by exactly ``days`` in its format (the originals read in ``order``), or None when
        every one did."""
        for go, gn in pairs:
            reg, before, after = region(doc.text, go)
            fields = bytearray(len(reg))
            for p in dates.parse(reg, before, after, order)[0]:
                for s, e in p.fields.values():
                    fields[s:e] = b"\x01" * (e - s)
            for a in go:  # a span with text outside every date field must have been taken as unparsed
                if a not in unparsed and any(c.isalnum() and not fields[a.start - go[0].start + i]
                                             for i, c in enumerate(doc.surface(a))):
                    return a.start
            new_reg = region(out.text, gn)[0]
            bad_old = [(a.start - go[0].start, a.end - go[0].start) for a in go if a in unparsed]
            bad_new = [(b.start - gn[0].start, b.end - gn[0].start) for a, b in zip(go, gn) if a in unparsed]
            if not moves_faithfully(reg, new_reg, before, after, order, days, hints[go[0]], bad_old, bad_new):
                return go[0].start
        return None

    def _digits(self, st, reg: str, s: int, e: int, attempt: int = 0) -> list:
        """Random digits for an unexplained digit run (a day keeps a valid day and its ordinal)."""
        old = reg[s:e]
        suffix = reg[e:e + 2]
        for again in range(50):
            rng = self.keyed.rng("date-digits", st.patient, normalize(reg), s, attempt, again)
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
