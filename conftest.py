"""pytest, whole repository: a module of crfdeid that needs an optional extra which is not
installed is not collected for doctests (importing it says which extra to install); the tests
of that extra skip. ``make install`` names the extras every test run has (README, Development);
the others (spark, serve, presidio, spacy, review, neural) may be missing.

With ``CRFDEID_SKIPPED=FILE`` in the environment, the node ids of the tests that skipped, and
the modules left out of collection, are written to FILE, one a line: ``.ci/run`` runs exactly
those again once it has installed the extras.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: Import names of the optional extras that ``make install`` leaves out.
OPTIONAL = frozenset({"pandas", "pyspark", "pyarrow", "presidio_analyzer", "presidio_anonymizer", "spacy",
                      "torch", "safetensors", "fastapi", "uvicorn", "psycopg", "swagger_ui_bundle", "pydantic",
                      "pydantic_core", "starlette"})

_skipped: list[str] = []


def pytest_ignore_collect(collection_path, config):
    """Leave out a module of the package whose import stops at a missing optional extra."""
    path = Path(collection_path)
    if path.suffix != ".py" or path.name == "__main__.py" or ROOT / "crfdeid" not in path.parents:
        return None
    parts = path.relative_to(ROOT).with_suffix("").parts
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    from crfdeid.errors import ExtraError
    try:
        importlib.import_module(name)
    except ExtraError:  # the module itself says which extra it needs
        pass
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in OPTIONAL:
            return None
    except Exception:  # any other failure is the doctest collector's to report
        return None
    else:
        return None
    _skipped.append(str(path.relative_to(ROOT)))
    return True


def pytest_runtest_logreport(report):
    if report.skipped and report.when in ("setup", "call"):
        _skipped.append(report.nodeid)


def pytest_collectreport(report):
    if report.skipped:  # a whole test module skipped (pytest.importorskip at its top)
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    where = os.environ.get("CRFDEID_SKIPPED")
    if where:
        Path(where).write_text("".join(f"{node}\n" for node in dict.fromkeys(_skipped)), encoding="utf-8")
