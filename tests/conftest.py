"""Shared fixtures: the synthetic test data folder and the shared PhysioNet corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

TESTS = Path(__file__).parent
DATA = TESTS / "data"
PHYSIONET = TESTS.parent.parent / "shared" / "corpora" / "physionet-dev"

#: The JVM options of every Spark driver the tests start (spark-submit reads SPARK_SUBMIT_OPTS): the
#: session fixture's, and those of the commands and jobs the tests run in subprocesses, which inherit
#: it. Their jobs are short, so most of the JIT compilers' work is lost: the client compiler alone and
#: the serial collector cut a Spark command's test from 34 to 21 CPU-s and step 3's tests from 548 to
#: 410 (docs/performance.md, 2026-11-26). A value already set, even empty, is kept.
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
os.environ.setdefault("SPARK_SUBMIT_OPTS", JVM_OPTIONS)

#: Property tests check what a function returns, not how fast: Hypothesis' per-example deadline (200 ms) failed a
#: date test at 288 ms on the two shared cores while trainings ran (0.16 ms retried). Timing is the benchmarks' work.
settings.register_profile("crfdeid", deadline=None)
settings.load_profile("crfdeid")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Folder of small synthetic fixtures (no real PHI)."""
    return DATA


@pytest.fixture(scope="session")
def small_model():
    """The tiny model of ``configs/synth-small.yaml`` trained on its own notes (``synth:40,7``), once
    a worker: ``test_model``, ``test_inference`` and ``test_train_tag_cli`` each trained exactly this
    (the last through ``crfdeid train``, which writes the same bytes as its :meth:`save`); the group
    ``small-model`` (conftest.py at the root) keeps them on one worker. A test that checks training
    itself still trains."""
    from crfdeid.crf import train_model
    return train_model(None, TESTS.parent / "configs" / "synth-small.yaml")


@pytest.fixture(scope="module")
def shipped_model():
    """The model shipped in the package (``Model.load()``), loaded once a module (0.3 s): a module's tests
    never see a model that another module's tests have tagged with, as when each module loaded its own."""
    from crfdeid.crf import Model
    return Model.load()


@pytest.fixture(scope="session")
def routed_model(tmp_path_factory):
    """``(folder, model file)`` of the tiny routed model of ``routed_kit`` (its configs in the folder),
    trained by ``python -m crfdeid train`` once a worker: ``test_routing``, ``test_routing_commands`` and
    ``test_routing_files`` each trained exactly this (4 CPU-s) and only read it; the group
    ``routed-model`` (conftest.py at the root) keeps them on one worker."""
    from routed_kit import train_routed
    folder = tmp_path_factory.mktemp("routed")
    return folder, train_routed(folder)


@pytest.fixture(scope="session")
def o_words_model_file(tmp_path_factory):
    """The tiny model of ``configs/synth-small.yaml`` with training words kept O
    (``decoding.o_words_min_count=2``, threshold 1.0), trained by ``crfdeid train`` once a worker:
    ``test_model``'s and ``test_train_tag_cli``'s tests of those words each trained it (5 CPU-s)."""
    from crfdeid.cli import train
    out = tmp_path_factory.mktemp("o-words") / "ow.model"
    assert train.main(["--config", str(TESTS.parent / "configs" / "synth-small.yaml"), "--set",
                       "decoding.o_threshold=1.0", "--set", "decoding.o_words_min_count=2", "--output", str(out),
                       "--quiet"]) == 0
    return out


@pytest.fixture(scope="session")
def physionet_dir() -> Path:
    """The shared PhysioNet dev corpus; skips the test where it is absent."""
    if not (PHYSIONET / "id.text").exists():
        pytest.skip(f"PhysioNet dev corpus not found at {PHYSIONET} (it lives in ../shared, "
                    "outside the project)")
    return PHYSIONET


@pytest.fixture(scope="session")
def physionet_docs(physionet_dir):
    """All documents of the shared PhysioNet dev corpus, read once per session."""
    from crfdeid.io import read
    return list(read(f"physionet:{physionet_dir}"))


def python_examples(path) -> list[tuple[str, str | None]]:
    """``(code, expected output or None)`` for each ```python block of a Markdown page; the
    expected output is the ```output block right after it, if there is one."""
    import re
    text = Path(path).read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, re.S)
    out = []
    for i, (lang, code) in enumerate(blocks):
        if lang == "python":
            follows = blocks[i + 1] if i + 1 < len(blocks) else ("", "")
            out.append((code, follows[1] if follows[0] == "output" else None))
    return out


def run_example(code: str) -> str:
    """Run a documentation example in a fresh namespace; what it printed."""
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "<docs example>", "exec"), {"__name__": "__docs__"})
    return buf.getvalue()


#: PostgreSQL server for the review store tests: $CRFDEID_TEST_PG, else the local socket.
REVIEW_PG = "postgresql:///postgres?host=/var/run/postgresql"


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession for every test that runs a Spark job (starting one takes seconds)."""
    pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")
    from pyspark.sql import SparkSession
    session = (SparkSession.builder.master("local[2]").appName("crfdeid-tests")
               .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "3")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture
def tagging_fails_on(monkeypatch):
    """``tagging_fails_on(marker)``: from then on, tagging a text that holds ``marker`` raises
    an error that carries the whole text (what must reach no log line and no answer)."""
    from crfdeid.crf import Model
    real = Model._tagged

    def install(marker: str) -> None:
        def failing(self, doc, *args):
            if marker in doc.text:
                raise ValueError(doc.text)
            return real(self, doc, *args)
        monkeypatch.setattr(Model, "_tagged", failing)
    return install


@pytest.fixture(params=["sqlite", "postgres"])
def review_db(request, tmp_path):
    """A fresh review store target: a SQLite file, or a new PostgreSQL database (skipped
    with the reason when no server is reachable); the database is dropped afterwards."""
    if request.param == "sqlite":
        yield str(tmp_path / "review.sqlite")
        return
    import os
    import uuid
    psycopg = pytest.importorskip("psycopg", reason="psycopg not installed (pip install crfdeid[review])")
    admin_url = os.environ.get("CRFDEID_TEST_PG", REVIEW_PG)
    try:
        admin = psycopg.connect(admin_url, autocommit=True, connect_timeout=3)
    except psycopg.Error as exc:
        pytest.skip(f"no PostgreSQL server reachable ({type(exc).__name__}); set CRFDEID_TEST_PG")
    name = f"crfdeid_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f"CREATE DATABASE {name}")
    info = psycopg.conninfo.conninfo_to_dict(admin_url)
    info["dbname"] = name
    host = info.pop("host", None)
    url = f"postgresql:///{name}" + (f"?host={host}" if host else "")
    extra = "&".join(f"{k}={v}" for k, v in info.items() if k not in ("dbname",))
    if extra:
        url += ("&" if "?" in url else "?") + extra
    try:
        yield url
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()
