"""Count the FHIR resources of an input that validate (fhir.resources, R4B) and how many of them
still validate in a de-identified output (docs/fhir.md).

    python bench/fhir_validate.py INPUT_FOLDER OUTPUT_FOLDER [OUTPUT_FOLDER...]

Each ``.json`` (a resource or a Bundle) and ``.ndjson`` (a resource a line) file of the input is
matched with the file of the same name in each output. Prints, per output, how many input records
validate, how many of those validate as output, and for the others the resource type and the
element paths pydantic names (never a value: the input may hold PHI). Exit 1 when a record that
validates as input does not as output. Needs ``pip install fhir.resources``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from fhir.resources.R4B import get_fhir_model_class
from pydantic import ValidationError


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
    try:
        get_fhir_model_class(obj["resourceType"]).model_validate(obj)
    except KeyError:
        return None
    except ValidationError as exc:
        return sorted({".".join(str(p) for p in e["loc"]) + f" ({e['type']})" for e in exc.errors()})
    return []


def main(argv: list[str]) -> int:
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
