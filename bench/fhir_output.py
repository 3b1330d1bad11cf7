"""What a de-identified FHIR output keeps of its input (docs/fhir.md): two checks, counts only.

    python bench/fhir_output.py leaks INPUT_FOLDER OUTPUT_FOLDER
    python bench/fhir_output.py valid INPUT_FOLDER OUTPUT_FOLDER [OUTPUT_FOLDER...]

``leaks``: reads every ``Patient`` of the input's ``.ndjson`` files and collects its values: id, name parts
(given and family, 3+ letters), identifier values, telecom values, address lines, cities,
postal codes, birth date, and the string values of its extensions (a mother's maiden name, a
birthplace, a geolocation's numbers). Then searches the output files, and every base64
attachment in them decoded, for each value as a whole token (not inside a longer run of letters
and digits). Prints counts by kind only, never a value (the input is PHI). Exit 1 when a value is found.

``valid``: each ``.json`` (a resource or a Bundle) and ``.ndjson`` (a resource a line) file of the input is
matched with the file of the same name in each output. Prints, per output, how many input records
validate (fhir.resources, R4B), how many of those validate as output, and for the others the resource
type and the element paths pydantic names (never a value: the input may hold PHI). Exit 1 when a
record that validates as input does not as output. Needs ``pip install fhir.resources``.
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


def leaks(argv: list[str]) -> int:
    src, out = (Path(a) for a in argv)
    values = patient_values(src)
    seen = output_text(out)
    found = Counter(kind for kind, value in values if _within(value, seen))
    total = Counter(kind for kind, _ in values)
    for kind in sorted(total):
        print(f"{kind}: {found[kind]} of {total[kind]} found")
    print(f"all: {sum(found.values())} of {len(values)} Patient values found verbatim")
    return 1 if found else 0

def records(path: Path) -> list[dict | None]:
    """The records of a file (None: not JSON)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ndjson":
        out: list[dict | None] = []
        for line in text.splitlines():
            try:
                out.append(json.loads(line) if line.strip() else None)
            except ValueError:
                out.append(None)
        return [r for r in out if r is not None] or [None]
    try:
        return [json.loads(text)]
    except ValueError:
        return [None]


def problems(obj) -> list[str] | None:
    """The element paths that do not validate (empty: valid; None: not a resource)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("resourceType"), str):
        return None
    from fhir.resources.R4B import get_fhir_model_class  # the valid check's extra only
    from pydantic import ValidationError

    try:
        get_fhir_model_class(obj["resourceType"]).model_validate(obj)
    except KeyError:
        return None
    except ValidationError as exc:
        return sorted({".".join(str(p) for p in e["loc"]) + f" ({e['type']})" for e in exc.errors()})
    return []


def valid(argv: list[str]) -> int:
    src, outs = Path(argv[0]), [Path(a) for a in argv[1:]]
    files = sorted(p for p in src.iterdir() if p.suffix in (".json", ".ndjson"))
    valid_in = {}
    for f in files:
        for k, rec in enumerate(records(f)):
            if problems(rec) == []:
                valid_in[(f.name, k)] = rec["resourceType"]
    print(f"{src}: {len(valid_in)} of the records of {len(files)} files validate (R4B)")
    bad = 0
    for out in outs:
        broken: Counter = Counter()
        lost = 0
        got = {f.name: records(out / f.name) if (out / f.name).exists() else [] for f in files}
        for (name, k), kind in valid_in.items():
            recs = got[name]
            if k >= len(recs):
                lost += 1
                continue
            why = problems(recs[k])
            if why:
                broken[kind] += 1
                print(f"  {out.name}: {name} record {k + 1} ({kind}): {'; '.join(why[:4])}")
        n_ok = len(valid_in) - lost - sum(broken.values())
        print(f"{out}: {n_ok} of {len(valid_in)} valid as output; {sum(broken.values())} invalid "
              f"({', '.join(f'{k} {v}' for k, v in broken.most_common())}); {lost} not written")
        bad += sum(broken.values())
    return 1 if bad else 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    checks = {"leaks": leaks, "valid": valid}
    if not argv or argv[0] not in checks:
        print(__doc__, file=sys.stderr)
        return 2
    return checks[argv[0]](argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
