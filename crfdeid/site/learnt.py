"""What site mining learnt, saved as a site file that ``--site`` reads for the next batch.

A site file (YAML) and, beside it, its lists and its patients' table, named after it
(``mined.yaml``: ``mined.staff.txt``, ``mined.institutions.txt``, ``mined.places.txt``,
``mined.patients.csv``). They hold names and places of the notes: PHI, to be stored as PHI.
Site-wide names become ``staff`` (DOCTOR), hospitals and organizations ``institutions``
(HOSPITAL), streets, towns and other places ``places`` (CITY); a patient's names become rows
``patient,name`` and a patient's places rows ``patient,city`` of the table. Each string is
written as the notes' tokens in lower case (the matcher reads any case).
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from ..errors import OutputError
from .mining import Lessons

#: Site-wide subtype -> the site file's list.
LIST_OF = {"PATIENT": "staff", "DOCTOR": "staff", "USERNAME": "staff", "HOSPITAL": "institutions",
           "DEPARTMENT": "institutions", "ORGANIZATION": "institutions", "ROOM": "places", "STREET": "places",
           "CITY": "places", "LOCATION-OTHER": "places"}
HEADER = "# learnt by crfdeid site mining from a batch of notes: names and places (PHI: store as PHI)\n"


def files(path) -> dict[str, Path]:
    """The files a saved site file ``path`` is made of, by role."""
    path = Path(path)
    stem = path.with_suffix("")
    out = {"site": path, "patients": Path(f"{stem}.patients.csv")}
    out.update({kind: Path(f"{stem}.{kind}.txt") for kind in ("staff", "institutions", "places")})
    return out


def save(lessons: Lessons, path, overwrite: bool = False) -> dict[str, int]:
    """Write what ``lessons`` holds as a site file at ``path`` (and its lists beside it); the
    number of strings written per role. Site strings left by the share guard are not written.

    Raises
    ------
    OutputError
        A file exists (without ``overwrite``) or cannot be written (its name, never a string).
    """
    import yaml
    paths = files(path)
    if not overwrite:
        there = [p for p in paths.values() if p.exists()]
        if there:
            raise OutputError(f"{there[0]} exists; not replaced (to replace it: --overwrite)")
    lists: dict[str, set] = {"staff": set(), "institutions": set(), "places": set()}
    for key, ls in lessons.site.items():
        if ls.scope == "site":
            lists[LIST_OF[ls.subtype]].add(" ".join(key))
    rows = sorted((group, "name" if LIST_OF[ls.subtype] == "staff" else "city", " ".join(key))
                  for group, learnt in lessons.patients.items() for key, ls in learnt.items())
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["patient", "name", "city"])
    for group, field, value in rows:
        writer.writerow([group, value if field == "name" else "", value if field == "city" else ""])
    spec = {"tables": [paths["patients"].name], **{k: paths[k].name for k in lists}}
    texts = {"site": HEADER + yaml.safe_dump(spec, sort_keys=False), "patients": table.getvalue(),
             **{k: HEADER + "".join(f"{w}\n" for w in sorted(v)) for k, v in lists.items()}}
    for role, text in texts.items():
        try:
            _write_private(paths[role], text)
        except OSError as exc:
            raise OutputError(f"cannot write {paths[role]} ({exc.strerror})") from None
    return {"site": sum(map(len, lists.values())), "patients": len(rows)}


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` readable by its owner only (it holds PHI)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
