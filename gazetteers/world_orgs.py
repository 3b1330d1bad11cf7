"""Regenerate crfdeid/_data/world_orgs.txt: surnames, towns, streets, postcodes, firm names and firms'
legal suffixes of many countries, written in Latin letters, for the organisations, services and
addresses of the ``specialty_ids`` and ``operative_ids`` synthetic notes (crfdeid/synth/idlines.py;
issue 58 items 1-2).

Source: the locale providers of PyPI 'Faker' (MIT; public surname, town and street lists, and firm
names that combine surnames with the locale's legal forms), every locale whose draws are in Latin
letters, drawn with a fixed seed. No entry comes from a note. Kept in crfdeid/_data (not
gazetteers/) so that no feature list of a trained model changes.
Run: python gazetteers/world_orgs.py
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import version
from pathlib import Path

PER_KIND = 30
SEED = 58
OUT = Path(__file__).resolve().parents[1] / "crfdeid" / "_data" / "world_orgs.txt"
KINDS = ("last", "town", "street", "postcode", "firm", "suffix")


def latin(text: str) -> bool:
    """True when ``text`` holds a letter and is written in Latin letters."""
    return any(c.isalpha() for c in text) and all(ord(c) < 0x250 for c in text)


def _draws(draw, n: int, check=latin) -> list[str]:
    got: dict[str, None] = {}
    for _ in range(n * 10):
        try:
            value = " ".join(str(draw()).split())
        except (AttributeError, TypeError):  # a provider the locale does not have
            return []
        if value and "\t" not in value and check(value):
            got[value] = None
        if len(got) == n:
            break
    return list(got)


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":  # some locales draw from sets: their order follows the hash seed
        os.execve(sys.executable, [sys.executable, __file__], {**os.environ, "PYTHONHASHSEED": "0"})
    from faker import Faker  # the list's source: only its rebuild needs it
    from faker.config import AVAILABLE_LOCALES  # the list's source: only its rebuild needs it
    lines = ["# crfdeid synthetic data: surnames, towns, streets, postcodes, firms and legal suffixes"
             " of many countries",
             "# (Faker locale, tab, kind: " + ", ".join(KINDS) + "; tab, entry)",
             f"# source: the locale providers of PyPI 'Faker' {version('Faker')}, every locale drawing Latin letters,"
             f" seed {SEED}", "# licence: Faker MIT", "# regenerate: python gazetteers/world_orgs.py"]
    for locale in sorted(AVAILABLE_LOCALES):
        fake = Faker(locale)
        fake.seed_instance(SEED)
        draws = {"last": _draws(fake.last_name, PER_KIND), "town": _draws(fake.city, PER_KIND),
                 "street": _draws(fake.street_address, PER_KIND),
                 "postcode": _draws(fake.postcode, PER_KIND, lambda v: v.isascii() and any(c.isdigit() for c in v)),
                 "firm": _draws(fake.company, PER_KIND), "suffix": _draws(fake.company_suffix, PER_KIND)}
        if min(len(draws[k]) for k in ("last", "town", "street", "firm")) < PER_KIND // 2:
            continue  # a locale written in another script (or without addresses)
        lines += [f"{locale}\t{kind}\t{value}" for kind in KINDS for value in draws[kind]]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - 5} entries -> {OUT}")


if __name__ == "__main__":
    main()
