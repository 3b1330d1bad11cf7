"""Regenerate crfdeid/_data/world_dates.txt: how every language of the Unicode CLDR writes a date, and how it
writes a span of days, weeks, months or years that is no date, for the ``world_dates`` synthetic notes
(crfdeid/synth/worlddates.py; issue 58, learn56).

learn55 left dates written in their own language's words (a year with its marker, a month name declined, a month in
capitals) that the shipped model found (docs/history/check50-rule.md); the notes it learns write almost every date
in English or in numbers. This file gives, per language, the forms its CLDR date formats and skeletons make (a
template with ``{d}``, ``{m}``, ``{Y}``, ``{y}`` for the numbers and ``{M}`` for the month word, and the twelve month
words as the form declines them) and, as look-alikes, durations and past intervals (``3 շաբաթ``, ``12 дней назад``).

Source: PyPI 'babel' (Unicode CLDR data), every language without a territory, script or variant but English. No
entry comes from a note. Kept in crfdeid/_data (not gazetteers/) so that no feature list of a trained model changes.
Run: python gazetteers/world_dates.py
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "crfdeid" / "_data" / "world_dates.txt"
#: Date formats (``format_date``) and skeletons (``format_skeleton``) rendered, with the weekday left out.
FORMATS = ("long", "medium", "short")
SKELETONS = ("yMMMd", "yMMMMd", "MMMMd", "MMMd", "yMMMM", "yMMM", "yM", "yMd", "y")
#: The numbers a rendered date is read back from: a day, a month and a year no other number of it equals.
DAY, MONTH, YEAR = 28, 11, 1987
#: Durations and past intervals written as look-alikes, and their numbers.
UNITS = ("duration-day", "duration-week", "duration-month", "duration-year")
COUNTS = (3, 12)


def template(text: str, month_number: bool) -> str:
    """``text`` with the rendered day, month and year numbers replaced by their placeholders."""
    text = text.replace(str(YEAR), "{Y}").replace(str(YEAR)[2:], "{y}").replace(str(DAY), "{d}")
    return text.replace(str(MONTH), "{m}") if month_number else text


def month_form(renders: list[str]) -> tuple[str, list[str]] | None:
    """``(template, month words)`` of twelve renders that differ only in their month word, the word replaced by
    ``{M}``; None where they do not."""
    first = renders[0]
    head = 0
    while all(len(r) > head and r[head] == first[head] for r in renders):
        head += 1
    tail = 0
    while all(len(r) - tail > head and r[len(r) - 1 - tail] == first[len(first) - 1 - tail] for r in renders):
        tail += 1
    words = [r[head:len(r) - tail] for r in renders]
    if not all(words) or len(set(words)) < 12 or any("{" in w or "}" in w for w in words):
        return None
    return first[:head] + "{M}" + first[len(first) - tail:], words


def forms(lang: str) -> list[str]:
    """The lines of one language: ``lang, tab, kind, tab, template[, tab, the month words joined by |]``."""
    from babel.dates import format_date, format_skeleton, format_timedelta  # the list's source
    from babel.units import format_unit  # the list's source: only its rebuild needs it

    def render(kind: str, month: int) -> str:
        day = dt.date(YEAR, month, DAY)
        text = format_date(day, kind, locale=lang) if kind in FORMATS else format_skeleton(kind, day, locale=lang)
        return " ".join(text.split())

    lines: dict[str, None] = {}
    for kind in FORMATS + SKELETONS:
        text = render(kind, MONTH)
        if str(MONTH) in text.replace(str(YEAR), ""):
            out = template(text, True)
            if "{Y}" in out or "{y}" in out or "{d}" in out:
                lines[f"{lang}\t{kind}\t{out}"] = None
            continue
        renders = [template(render(kind, m), False) for m in range(1, 13)]
        if len(set(renders)) == 1:  # a year alone: kept where the language marks it (``{Y} թ.``, ``{Y}年``)
            if renders[0] != "{Y}" and "{Y}" in renders[0] and "\t" not in renders[0]:
                lines[f"{lang}\t{kind}\t{renders[0]}"] = None
            continue
        got = month_form(renders)
        if got and "\t" not in got[0] and not any("|" in w or "\t" in w for w in got[1]):
            lines[f"{lang}\t{kind}\t{got[0]}\t{'|'.join(got[1])}"] = None
    spans = []
    for unit in UNITS:
        for n in COUNTS:
            spans.append(format_unit(n, unit, length="long", locale=lang))
            spans.append(format_timedelta(dt.timedelta(days=-n * {"duration-day": 1, "duration-week": 7,
                                                                   "duration-month": 30, "duration-year": 365}[unit]),
                                          add_direction=True, threshold=1000, locale=lang,
                                          granularity=unit.split("-")[1]))
    spans = [" ".join(s.split()) for s in spans]
    if spans and not any("|" in s or "\t" in s for s in spans):
        lines[f"{lang}\tspan\t{'|'.join(dict.fromkeys(spans))}"] = None
    return list(lines)


def main() -> None:
    import babel  # the list's source: only its rebuild needs it
    from babel import Locale, localedata  # the list's source: only its rebuild needs it
    lines = ["# crfdeid synthetic data: how each language writes a date and a span of time that is no date",
             "# (CLDR language, tab, kind: a date format or skeleton, tab, template with {d} {m} {Y} {y} {M}[, tab,",
             "#  the twelve month words {M} stands for, joined by |]; kind span: durations and past intervals)",
             f"# source: PyPI 'babel' {babel.__version__} (Unicode CLDR): format_date {', '.join(FORMATS)}, "
             f"format_skeleton {', '.join(SKELETONS)}; format_unit and format_timedelta of {', '.join(UNITS)} "
             f"for {', '.join(map(str, COUNTS))}; every language without territory, script or variant but English",
             "# licence: Unicode License v3 (CLDR data); Babel BSD-3-Clause",
             "# regenerate: python gazetteers/world_dates.py"]
    head = len(lines)
    for ident in sorted(localedata.locale_identifiers()):
        loc = Locale.parse(ident)
        if loc.territory or loc.script or loc.variant or ident in ("en", "root"):
            continue
        lines += forms(ident)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - head} entries -> {OUT}")


if __name__ == "__main__":
    main()
