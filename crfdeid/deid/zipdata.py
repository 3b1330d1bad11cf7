"""US ZIP codes and telephone area codes for phone and ZIP surrogates, shipped in the package.

The table (``crfdeid/data/us_zip_area.txt``, 64 KB) is read with
:mod:`importlib.resources`, so every output format works with the base install.
It was made from the PyPI package ``zipcodes`` (in the ``gazetteers`` extra);
rebuild it with ``python -m crfdeid.deid.zipdata``.

>>> zips, areas = load()
>>> len(zips) > 30000 and all(len(z) == 5 for z in zips), "617" in areas
(True, True)
"""

from __future__ import annotations

import functools
import sys
from importlib import resources
from pathlib import Path

RESOURCE = "us_zip_area.txt"
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
    text = resources.files("crfdeid").joinpath("data", RESOURCE).read_text(encoding="utf-8")
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
    """``python -m crfdeid.deid.zipdata [PATH]``: rebuild the table (default: the packaged file); the exit
    code. A maintainer's script for a data file, not a command."""
    argv = sys.argv[1:] if argv is None else argv
    path = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "data" / RESOURCE
    try:
        build(path)
    except ModuleNotFoundError as exc:
        print(f"error: needs the Python module {exc.name!r}: pip install crfdeid[gazetteers]", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(rebuild())
