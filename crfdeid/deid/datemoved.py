"""Whether a date moved as it should (:func:`moved_by`): the surrogate writer's check that every
date it wrote is its old one moved by the patient's offset, in the old one's format (the
fields, their shapes and the text between them: :func:`skeleton`). A date that fails is never
written: the note fails closed (:mod:`crfdeid.deid.dategroups`).
"""

from __future__ import annotations

import datetime as dt

from .dates import _MONTHS, _WEEKDAYS, Parsed, _padded, parse, shift  # noqa: F401 (parse: the doctests)


def _shape(key: str, value: str) -> tuple:
    """What a field's format is: digits, a year's width, a name's case and whether it is
    abbreviated, an ordinal's case; a separator is itself."""
    if key in ("m", "d"):
        return (key,)
    if key in ("y", "yy"):
        return (key, len(value))
    if key in ("mon", "w"):
        bare = value.lower().rstrip(".")
        # full or abbreviated cannot be told for May; names of any length then
        short = None if bare == "may" else bare not in (_MONTHS if key == "mon" else _WEEKDAYS)
        case = "upper" if value.isupper() and len(bare) > 1 else "lower" if value.islower() else "title"
        return (key, case, short)
    if key == "o":
        return (key, value.isupper())
    if key == "dw":  # a day in words: its case (twenty-first and twenty first both read)
        return (key, value.isupper() and len(value) > 1, value.islower())
    return (key, value)


def skeleton(text: str, p: Parsed) -> tuple:
    """The format of a parsed date: the text between its fields and each field's shape; an
    ``of`` (dropped by :func:`render` with ``drop_of``) counts as nothing.

    >>> skeleton("07-22-2097", parse("07-22-2097")[0][0]) == skeleton("11-02-2095", parse("11-02-2095")[0][0])
    True
    >>> skeleton("7/22/2097", parse("7/22/2097")[0][0]) == skeleton("7-22-2097", parse("7-22-2097")[0][0])
    False
    """
    values = {k: text[s:e] for k, (s, e) in p.fields.items()}
    out: list = []
    literal, pos = [], p.start
    for key, (s, e) in sorted(p.fields.items(), key=lambda kv: kv[1]):
        literal.append(text[pos:s])
        pos = e
        if key == "of":
            continue
        out += ["".join(literal), _shape(key, values[key])]
        literal = []
    out.append("".join(literal) + text[pos:p.end])
    return tuple(out)


def _same(a: tuple, b: tuple) -> bool:
    """Skeletons equal, a name's abbreviation unknown (``May``) matching either form."""
    return len(a) == len(b) and all(
        x == y or (isinstance(x, tuple) and isinstance(y, tuple) and x[0] in ("mon", "w")
                   and x[:2] == y[:2] and None in (x[2], y[2])) for x, y in zip(a, b))


def _padding_kept(text: str, p: Parsed, new_text: str, q: Parsed) -> bool:
    """Zero padding as :func:`render` keeps it: a two-digit month or day of a padded date stays
    two digits; a date without padding gets none."""
    old = {k: text[s:e] for k, (s, e) in p.fields.items() if k in ("m", "d")}
    new = {k: new_text[s:e] for k, (s, e) in q.fields.items() if k in ("m", "d")}
    if _padded(text, p.fields):
        return all(len(new[k]) == 2 for k, v in old.items() if len(v) == 2)
    return not any(v.startswith("0") and len(v) == 2 for v in new.values())


def _in_order_of(p: Parsed, q: Parsed) -> Parsed:
    """``q`` read day first when ``p`` is (``26/10/2020`` shifted to ``11/09/2013`` is 11 September)."""
    if not {"m", "d"} <= p.fields.keys() or not {"m", "d"} <= q.fields.keys() or q.day is None or q.day > 12:
        return q
    if (p.fields["d"] < p.fields["m"]) == (q.fields["d"] < q.fields["m"]):
        return q
    return q._replace(month=q.day, day=q.month, fields=dict(q.fields, m=q.fields["d"], d=q.fields["m"]))


def _two_digit_year(text: str, p: Parsed) -> bool:
    """Whether ``p``'s year is written with two digits (``yy``, or ``y`` of ``2/28/96``)."""
    s, e = p.fields.get("yy") or p.fields.get("y") or (0, 0)
    return e - s == 2


def moved_by(text: str, p: Parsed, new_text: str, q: Parsed, days: int, year: int | None = None) -> bool:
    """Whether ``q`` (in ``new_text``) is ``p`` (in ``text``) moved by exactly ``days`` days in the
    same format (:func:`skeleton`); ``year`` places a date written without one, as :func:`shift`.

    A full date is compared by calendar arithmetic (a two-digit year modulo 100); the other
    forms with the values :func:`shift` gives them.

    >>> old, new = "Mon 3/14/2022", "Fri 1/21/2022"
    >>> moved_by(old, parse(old)[0][0], new, parse(new)[0][0], -52)
    True
    >>> moved_by(old, parse(old)[0][0], new, parse(new)[0][0], -51)
    False
    """
    q = _in_order_of(p, q)
    if not _same(skeleton(text, p), skeleton(new_text, q)) or not _padding_kept(text, p, new_text, q):
        return False
    if None not in (p.year, p.month, p.day):
        want = dt.date(p.year, p.month, p.day) + dt.timedelta(days=days)  # type: ignore[arg-type]
        two_digits = _two_digit_year(text, p)
        got_year = q.year if not two_digits else (None if q.year is None else want.year - want.year % 100
                                                  + q.year % 100)
        if (got_year, q.month, q.day) != (want.year, want.month, want.day):
            return False
        return p.weekday is None or q.weekday == want.weekday()
    want_values = shift(p, days, year)
    got = {"year": q.year, "month": q.month, "day": q.day, "weekday": q.weekday}
    for key, value in want_values.items():
        if key == "year" and _two_digit_year(text, p):
            if got["year"] is None or got["year"] % 100 != value % 100:
                return False
        elif got[key] != value:
            return False
    return True
