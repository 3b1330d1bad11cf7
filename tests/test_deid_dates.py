"""Date shifting keeps each format and every interval (synthetic dates only)."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.deid import datemoved, dates


@pytest.mark.parametrize("text, days, expected", [
    ("07-22-2097", -30, "06-22-2097"),        # zero padding and separators kept
    ("7/22/2097", -30, "6/22/2097"),
    ("7/22", 10, "8/1"),                      # month/day stays month/day
    ("2097-07-22", 1, "2097-07-23"),          # ISO order
    ("22/07/2097", 1, "23/07/2097"),          # day-first recognised by day > 12
    ("July 22nd", 10, "August 1st"),          # spelled out, ordinal recomputed
    ("Jul. 22, 2097", 10, "Aug. 1, 2097"),    # abbreviation and period kept
    ("22 JULY 2097", 10, "1 AUGUST 2097"),    # ALL CAPS kept
    ("Sept 29", 2, "Oct 1"),
    ("Monday, July 22nd, 2097", 1, "Tuesday, July 23rd, 2097"),
    ("2/28/96", 1, "2/29/96"),                # leap year, two-digit year
    ("2/28/97", 1, "3/1/97"),
    ("12/31/99", 1, "1/1/00"),                # century wraps in two digits
    ("Feb 29", 366, "Mar 1"),                 # yearless dates use a leap reference year
    ("2097", -400, "2096"),                   # bare year moves by the offset's years
    ("2097", -30, "2096"),                    # ... and always moves
    ("MARCH of 1993", -400, "FEBRUARY of 1992"),
    ("March", -365, "February"),              # a bare month always changes
    ("Tues", 1, "Wed"),
    ("10/12-10/15", 5, "10/17-10/20"),        # ranges: both ends shifted
    ("4/98", -400, "3/97"),                   # month/two-digit year: a day cannot be 98
    ("October second, 2024", -10, "September twenty-second, 2024"),   # days in words
    ("the Fourteenth of March", 10, "the Twenty-fourth of March"),
    ("Tuesday, March twenty first", 1, "Wednesday, March twenty second"),
    ("11/45", 40, "12/45"),
])
def test_shift_keeps_format(text, days, expected):
    assert dates.shift_text(text, days)[0] == expected


def test_two_digit_number_next_to_apostrophe_is_a_year():
    assert dates.shift_text("95", -400, before="'")[0] == "94"
    new, reps, loose = dates.shift_text("21", -400)   # a bare day: left to the caller, reported
    assert loose == [(0, 2)] and not reps


def test_unparseable_digits_are_reported_not_kept_silently():
    _, reps, loose = dates.shift_text("052647", 10)
    assert loose == [(0, 6)]


def test_a_day_first_date_is_checked_day_first():
    """26/10/2020 is day first; moved to 11 September 2013 it reads 11/09/2013, still day first."""
    old = "15/04/2016"
    new = dates.shift_text(old, -947)[0]
    assert new == "11/09/2013"
    assert datemoved.moved_by(old, dates.parse(old)[0][0], new, dates.parse(new)[0][0], -947)
    assert not datemoved.moved_by(old, dates.parse(old)[0][0], new, dates.parse(new)[0][0], -946)


def test_year_delta_never_zero():
    assert dates.year_delta(-30) == -1 and dates.year_delta(400) == 1 and dates.year_delta(-800) == -2


@given(st.dates(dt.date(1900, 1, 1), dt.date(2150, 12, 31)), st.integers(-2000, 2000),
       st.sampled_from(["{m}/{d}/{y}", "{m:02d}-{d:02d}-{y}", "{y}-{m:02d}-{d:02d}", "{mon} {d}, {y}"]))
def test_full_dates_move_by_exactly_the_offset(day, days, fmt):
    text = fmt.format(m=day.month, d=day.day, y=day.year, mon=day.strftime("%B"))
    new = dates.shift_text(text, days)[0]
    assert dates.full_dates(new) == [day + dt.timedelta(days=days)]


YEARLESS = ["{mon} {d}", "{m}/{d}", "{d} {mon}", "{mon} {d}th", "{m:02d}-{d:02d}", "{abbr}. {d}"]
WITH_YEAR = ["{m}/{d}/{y}", "{m:02d}/{d:02d}/{y}", "{mon} {d}, {y}", "{y}-{m:02d}-{d:02d}", "{d} {mon} {y}"]


@settings(max_examples=150, deadline=None)
@given(st.dates(dt.date(1950, 1, 1), dt.date(2120, 12, 31)), st.integers(0, 50),
       st.sampled_from(WITH_YEAR), st.sampled_from(YEARLESS))
def test_one_offset_per_patient_whatever_the_format(day, seed, full_form, bare_form):
    """``03/14/2023`` and ``March 14`` in one note move to the same month and day."""
    from crfdeid.deid.surrogate import Surrogator
    from crfdeid.document import Document, make_span
    if day.month == 2 and day.day == 29:
        day = day.replace(day=28)
    if bare_form == "{m}/{d}" and day.day == 7 and day.month <= 6:  # "3/7": a UK duration's shape, a placeholder
        day = day.replace(day=8)
    values = dict(m=day.month, d=day.day, y=day.year, mon=day.strftime("%B"), abbr=day.strftime("%b"))
    full, bare = full_form.format(**values), bare_form.format(**values)
    text = f"Seen {full}; again {bare}."
    at = text.index(bare, 6 + len(full))
    doc = Document("200-01", text, [make_span(5, 5 + len(full), "DATE"), make_span(at, at + len(bare), "DATE")])
    s = Surrogator(seed=seed)
    new = s.surrogate(doc)
    a, b = (new.surface(sp) for sp in new.spans)
    (moved,) = dates.full_dates(a)
    parsed = dates.parse(b)[0][0]
    # always the patient's offset, even where the new date keeps a number of the old (14 -> 14)
    assert (parsed.month, parsed.day) == (moved.month, moved.day)
    assert moved - day == dt.timedelta(days=s.state("200").shift_days)


def test_the_issue_example_march_14_and_03_14_2023():
    assert dates.shift_text("03/14/2023", -839)[0] == "11/25/2020"
    assert dates.shift_text("March 14", -839, year=2023)[0] == "November 25"
    assert dates.shift_text("March 14", -839)[0] == "November 26"   # no year known: the leap reference year
