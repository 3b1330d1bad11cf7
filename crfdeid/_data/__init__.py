"""Everything crfdeid ships to read at run time, in one package.

Here: the shipped model (``default-model``, :func:`default_model_path`)
and the ZIP and place tables (``us_zip_area.txt``, ``us_places.txt``,
:mod:`crfdeid.deid.zipdata`), files crfdeid's own commands write. Mapped here: the data
folders users edit at the top of the repository (``configs/``, its top-level ``*.yaml``
only; ``features/``, ``gazetteers/``): a built wheel holds them as ``crfdeid/_data/configs``,
``crfdeid/_data/features`` and ``crfdeid/_data/gazetteers`` (setup.cfg maps the top-level
folders there, no symlinks); a checkout (an editable install, or
``PYTHONPATH`` pointing at it) reads the top-level folders themselves (:func:`folder`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The shipped data folders.
FOLDERS = ("configs", "features", "gazetteers")


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


def rows(name: str) -> list[list[str]]:
    """The tab-separated rows of the shipped data file ``name``, its ``#`` comment lines and blank lines left out.

    >>> rows("world_orgs.txt")[0][:2]
    ['am_ET', 'last']
    """
    text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def default_model_path() -> Path:
    """The model shipped inside the package (``crfdeid/_data/default-model``)."""
    return Path(str(resources.files(__name__))) / "default-model"


def checkout() -> Path | None:
    """The checkout crfdeid runs from (an editable install, or ``PYTHONPATH`` pointing at it),
    or None for an installed package."""
    root = Path(__file__).resolve().parents[2]
    packaged = Path(str(resources.files(__name__))) / "features"
    return root if not packaged.is_dir() and (root / "setup.cfg").is_file() else None


def install_hint(extra: str) -> str:
    """The command that installs an extra: ``pip install 'crfdeid[EXTRA]'`` for an installed
    package, ``pip install -e '.[EXTRA]'`` in a checkout (its path when run from elsewhere),
    where the first would fetch another copy from the package index.

    >>> install_hint("plot").startswith(("pip install 'crfdeid[plot]'", "pip install -e '"))
    True
    """
    root = checkout()
    if root is None:
        return f"pip install 'crfdeid[{extra}]'"
    where = "." if Path.cwd().resolve() == root else str(root)
    return f"pip install -e '{where}[{extra}]'"
