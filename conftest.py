"""pytest, whole repository: a module of crfdeid that needs an optional extra which is not
installed is not collected for doctests (importing it says which extra to install); the tests
of that extra skip. ``make install`` names the extras every test run has (README, Development);
the others (spark, serve, presidio, spacy, review, neural) may be missing.

With ``CRFDEID_SKIPPED=FILE`` in the environment, the node ids of the tests that skipped, and
the modules left out of collection, are written to FILE, one a line: ``.ci/run`` runs exactly
those again once it has installed the extras. Under pytest-xdist (``make test`` runs ``-n``) each
worker hands its list to the controller, which alone writes the file.

With ``--dist loadgroup`` (``make test``), the tests of a module stay on one worker (its
module-scoped fixtures, such as a trained model, are built once) and the tests that run Spark in
the test process share one worker (one JVM for the run, as serially): those of the Spark modules
and, in any module, those that take the session's ``spark`` fixture. A test that starts Spark in
processes of its own (a ``local-cluster`` job, the command's subprocesses) needs no shared JVM:
it is marked with a group of its own and runs beside that worker. The modules that take the session's
tiny model (``small_model``, and its variant ``o_words_model_file``, tests/conftest.py) share a worker
too, which trains it once, and so do those that take the tiny routed model (``routed_model``).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

#: Import names of the optional extras that ``make install`` leaves out.
OPTIONAL = frozenset({"pandas", "pyspark", "pyarrow", "presidio_analyzer", "presidio_anonymizer", "spacy",
                      "torch", "safetensors", "fastapi", "uvicorn", "psycopg", "swagger_ui_bundle", "pydantic",
                      "pydantic_core", "starlette"})

_skipped: list[str] = []

#: Modules whose tests run on one worker under ``--dist loadgroup``, by group name.
GROUPS = {"spark": ("tests/test_spark.py", "tests/test_spark_encodings.py", "tests/test_spark_fhir.py",
                    "tests/test_spark_hl7.py"),
          # the modules that take the session's tiny model (tests/conftest.py): trained once, not once each
          "small-model": ("tests/test_model.py", "tests/test_inference.py", "tests/test_train_tag_cli.py"),
          # the modules that take the session's tiny routed model (tests/conftest.py)
          "routed-model": ("tests/test_routing.py", "tests/test_routing_commands.py", "tests/test_routing_files.py",
                           "tests/test_bench_routed.py")}
#: A test that takes one of these fixtures joins the group named, in whatever module it is.
FIXTURE_GROUPS = {"spark": "spark"}


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


def _group(nodeid: str, fixtures=()) -> str:
    """The xdist group of a test: a shared one (FIXTURE_GROUPS for the fixtures it takes, then
    GROUPS), else its module's."""
    shared = [group for fixture, group in FIXTURE_GROUPS.items() if fixture in fixtures]
    if shared:
        return shared[0]
    module = nodeid.split("::")[0]
    return next((name for name, modules in GROUPS.items() if module in modules), module)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which appends the group to the id
def pytest_collection_modifyitems(config, items):
    if not getattr(config.option, "loadgroup", False):  # set in the workers of --dist loadgroup
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_group(item.nodeid, getattr(item, "fixturenames", ()))))
        _suffix_group(item)


def _suffix_group(item) -> None:
    """The ``@group`` suffix on the id, where pytest-xdist's own cannot put it: it sets ``item._nodeid``,
    which pytest 9.2 no longer reads (the id is ``item._id``, a ``NodeId``), so every test was dealt
    singly, module fixtures and the tiny models built on both workers (docs/performance.md, citime5).
    Should pytest-xdist append it again, the scheduler takes the last ``@``: the same group."""
    if not hasattr(item, "_id") or _node(item.nodeid) != item.nodeid:
        return  # pytest before 9.2 (pytest-xdist's own hook works), or already suffixed
    from _pytest.nodeid import coerce_node_id
    marks = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
    item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(sorted(marks))}")


def _node(nodeid: str) -> str:
    """The node id as ``pytest ARGS`` takes it back: without the ``@group`` suffix that
    ``--dist loadgroup`` appends (pytest-xdist's own rule for where it starts)."""
    return nodeid.rsplit("@", 1)[0] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


def pytest_runtest_logreport(report):
    if report.skipped and report.when in ("setup", "call"):
        _skipped.append(_node(report.nodeid))


def pytest_collectreport(report):
    if report.skipped:  # a whole test module skipped (pytest.importorskip at its top)
        _skipped.append(report.nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist, in the controller: a worker's list (modules left out of its collection among
    them, which the controller, collecting nothing, never sees)."""
    _skipped.extend(getattr(node, "workeroutput", {}).get("crfdeid_skipped", ()))


def pytest_sessionfinish(session, exitstatus):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: the controller writes the file
        workeroutput["crfdeid_skipped"] = list(_skipped)
        return
    where = os.environ.get("CRFDEID_SKIPPED")
    if where:
        Path(where).write_text("".join(f"{node}\n" for node in dict.fromkeys(_skipped)), encoding="utf-8")
