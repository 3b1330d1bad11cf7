"""Result files of the experiment commands (crossval, curve, ablate): tables, JSON, provenance."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ..version import __version__


def markdown_table(header: Sequence[str], rows: Sequence[Sequence]) -> str:
    """A GitHub-flavoured markdown table.

    >>> print(markdown_table(["a", "b"], [[1, "x"]]))
    | a | b |
    |---|---|
    | 1 | x |
    """
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    return "\n".join(lines)


def to_json(data: dict) -> str:
    """Result JSON as written by the experiment commands (indented; paths and the like as strings)."""
    return json.dumps(data, indent=2, default=str) + "\n"


def write_json(data: dict, dest: str) -> None:
    """Write :func:`to_json` of ``data`` to the file ``dest`` (``-``: standard output)."""
    if dest == "-":
        sys.stdout.write(to_json(data))
    else:
        Path(dest).write_text(to_json(data), encoding="utf-8")


def write_files(out, files: dict) -> list[Path]:
    """Write ``{file name: text}`` into the folder ``out`` (made if missing); their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / name for name in files]


def provenance() -> dict:
    """crfdeid version and git commit (when run from a checkout) for result files."""
    info = {"crfdeid": __version__}
    try:
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent,
            capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return info
