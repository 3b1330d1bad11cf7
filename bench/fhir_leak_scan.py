"""Count the Patient values of a FHIR input found verbatim in a de-identified output (docs/fhir.md).

    python bench/fhir_leak_scan.py INPUT_FOLDER OUTPUT_FOLDER

Reads every ``Patient`` of the input's ``.ndjson`` files and collects its values: id, name parts
(given and family, 3+ letters), identifier values, telecom values, address lines, cities,
postal codes, birth date, and the string values of its extensions (a mother's maiden name, a
birthplace, a geolocation's numbers). Then searches the output files, and every base64
attachment in them decoded, for each value as a whole token (not inside a longer run of letters
and digits). Prints counts by kind only, never a
value (the input is PHI). Exit 1 when a value is found.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import sys
from collections import Counter
from pathlib import Path


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield repr(value)  # a number: only geolocations are counted
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def patient_values(folder: Path) -> set[tuple[str, str]]:
    """``(kind, value)`` of every Patient of the folder's NDJSON files."""
    out: set[tuple[str, str]] = set()
    kept: set[str] = set()
    for path in sorted(folder.glob("*.ndjson")):
        for line in path.read_text(encoding="utf-8").splitlines():
            res = json.loads(line) if line.strip() else {}
            if res.get("resourceType") != "Patient":
                continue
            out.add(("id", res["id"]))
            for name in res.get("name", []):
                out.update(("name", w) for w in [*name.get("given", []), name.get("family", "")] if len(w) > 2)
            out.update(("identifier", i["value"]) for i in res.get("identifier", []) if i.get("value"))
            out.update(("telecom", t["value"]) for t in res.get("telecom", []) if t.get("value"))
            for a in res.get("address", []):
                out.update(("address line", x) for x in a.get("line", []))
                out.update((k, a[k]) for k in ("city", "postalCode") if a.get(k))
                out.update(("geolocation", v) for v in _strings(a.get("extension", []))
                           if re.fullmatch(r"-?\d+\.\d{3,}", v))
                kept.update(a[k] for k in ("state", "country") if a.get(k))  # Safe Harbor keeps them
            if res.get("birthDate"):
                out.add(("birth date", res["birthDate"]))
            out.update(("extension", v) for v in _strings(res.get("extension", [])) if len(v) > 2
                       and not v.startswith(("http", "urn:")) and not re.fullmatch(r"[a-z\-]+|-?[\d.]+", v))
    return {(kind, v) for kind, v in out if v not in kept}
    return out


def output_text(folder: Path) -> str:
    """Every output file, with each base64 attachment decoded beside it."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file())
    decoded = []
    for m in re.findall(r'"data": ?"([A-Za-z0-9+/=]+)"', text):
        try:
            decoded.append(base64.b64decode(m).decode("utf-8", "replace"))
        except (binascii.Error, ValueError):
            continue
    return "\n".join([text, *decoded])


def _within(value: str, text: str) -> bool:
    """Whether ``value`` stands in ``text`` as a whole token (not inside a longer run of letters and
    digits: a ZIP inside a hashed id or another number is chance, not the value)."""
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(value) + r"(?![0-9A-Za-z])", text) is not None


def main(argv=None) -> int:
    src, out = (Path(a) for a in (argv or sys.argv[1:]))
    values = patient_values(src)
    seen = output_text(out)
    found = Counter(kind for kind, value in values if _within(value, seen))
    total = Counter(kind for kind, _ in values)
    for kind in sorted(total):
        print(f"{kind}: {found[kind]} of {total[kind]} found")
    print(f"all: {sum(found.values())} of {len(values)} Patient values found verbatim")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
