"""The data folders users edit at the top of the repository (``features/``, ``gazetteers/``),
shipped inside the package.

A built wheel holds them as ``crfdeid/_data/features`` and ``crfdeid/_data/gazetteers``
(setup.cfg maps the top-level folders there, no symlinks); a checkout (an editable install,
or ``PYTHONPATH`` pointing at it) reads the top-level folders themselves.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The shipped data folders.
FOLDERS = ("features", "gazetteers")


def folder(name: str) -> Path:
    """The shipped folder ``name`` (one of :data:`FOLDERS`): inside the installed package, else
    the checkout's top-level folder.

    >>> (folder("features") / "full.yaml").is_file()
    True
    """
    if name not in FOLDERS:
        raise ValueError(f"unknown data folder {name!r}; known: {', '.join(FOLDERS)}")
    packaged = Path(str(resources.files(__name__))) / name
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / name
