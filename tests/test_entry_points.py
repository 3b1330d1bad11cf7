"""Every way in gives the same bytes: ``crfdeid tag``, ``python -m crfdeid.tag``, the Python API
(:class:`crfdeid.Session`), the record adapter behind ``serve`` and ``spark``, the HTTP service
and the Spark job, on the same made-up notes, redacted and with surrogates of one fixed key.

They all run one :class:`crfdeid.tagging.session.Session`; this checks that none of them
builds its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import crfdeid
from crfdeid.adapters.records import Deidentifier
from crfdeid.cli import tag
from crfdeid.deid.key import read_key_file
from crfdeid.io import read, write

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ("redacted", "surrogate")


@pytest.fixture(scope="module")
def notes():
    """Made-up notes of several patients (ids NNN-NN: patient NNN), several notes each."""
    return list(read("synth:10,37"))


@pytest.fixture(scope="module")
def files(tmp_path_factory, notes):
    """The notes as JSONL and a key file."""
    d = tmp_path_factory.mktemp("entry")
    write(notes, "jsonl", d / "notes.jsonl")
    (d / "secret.key").write_bytes(b"entry-points-test-key-0123456789\n")
    return d


def _key(files, fmt):
    return read_key_file(str(files / "secret.key")) if fmt == "surrogate" else None


def _args(files, fmt, out) -> list[str]:
    key = ["--key-file", str(files / "secret.key")] if fmt == "surrogate" else []
    return [str(files / "notes.jsonl"), "--input-format", "jsonl", "--output-format", fmt, *key,
            "--output-dir", str(out), "--quiet"]


def _folder(out: Path, notes) -> dict:
    return {d.doc_id: (out / f"{d.doc_id}.txt").read_text(encoding="utf-8") for d in notes}


@pytest.fixture(scope="module")
def command(files, notes):
    """What ``crfdeid tag`` writes for each note, by output format (the reference)."""
    out = {}
    for fmt in FORMATS:
        assert tag.main(_args(files, fmt, files / f"tag-{fmt}")) == 0
        out[fmt] = _folder(files / f"tag-{fmt}", notes)
    return out


def test_the_reference_has_phi_replaced(command, notes):
    """The outputs compared below are de-identified notes, not copies of the input."""
    for fmt in FORMATS:
        changed = [d for d in notes if command[fmt][d.doc_id] != d.text]
        assert len(changed) >= len(notes) - 1, fmt
    assert command["redacted"] != command["surrogate"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_python_api(command, files, notes, fmt):
    session = crfdeid.Session(crfdeid.load(), fmt, key=_key(files, fmt))
    records = list(session.run(notes))
    assert [r.error for r in records] == [None] * len(notes)
    assert {r.id: r.text for r in records} == command[fmt]
    assert list(session.run(notes, jobs=2)) == records  # worker processes, same records in order


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_record_adapter_of_serve_and_spark(command, files, notes, fmt):
    records = list(Deidentifier(None, fmt, key=_key(files, fmt)).run(notes))
    assert {r.id: r.text for r in records} == command[fmt]


@pytest.mark.parametrize("fmt", FORMATS)
def test_jobs_2(command, files, notes, fmt):
    assert tag.main([*_args(files, fmt, files / f"jobs-{fmt}"), "--jobs", "2"]) == 0
    assert _folder(files / f"jobs-{fmt}", notes) == command[fmt]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_python_m_crfdeid_tag(command, files, notes, fmt):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "crfdeid.tag", *_args(files, fmt, files / f"m-{fmt}")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _folder(files / f"m-{fmt}", notes) == command[fmt]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_http_service(command, files, notes, fmt):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette's advice to move to httpx2 is not about this project
        warnings.filterwarnings("ignore", message=".*httpx2.*")
        from fastapi.testclient import TestClient
    from crfdeid.serve.app import Settings, create_app

    app = create_app(Settings(key_file=str(files / "secret.key"), max_bytes=10 ** 7))
    docs = [{"id": d.doc_id, "text": d.text, "patient": d.group} for d in notes]
    with TestClient(app) as client:
        r = client.post("/v1/deidentify", json={"documents": docs, "output_format": fmt})
    assert r.status_code == 200
    assert {d["id"]: d["text"] for d in r.json()["documents"]} == command[fmt]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning")
def test_the_spark_job(spark, command, files, notes):
    from crfdeid.spark import deidentify

    df = spark.createDataFrame([(d.doc_id, d.text) for d in notes], "id string, text string")
    for fmt in FORMATS:
        rows = deidentify(df, fmt, key=_key(files, fmt), partitions=2).collect()
        assert {r["id"]: r["deid_text"] for r in rows} == command[fmt], fmt


def test_a_spawned_workers_session_tags_as_its_parent(monkeypatch, notes):
    """``--jobs`` on a platform without fork: the worker builds its session from the parent's spec."""
    from crfdeid.site import Site
    from crfdeid.tagging import session as session_module

    parent = crfdeid.Session(None, "spans", o_threshold=0.5, o_words=False, site=Site(staff=["Lee"]))
    monkeypatch.setattr(session_module, "_WORKER", None)
    session_module._init_worker(parent._spec())
    worker = session_module._WORKER
    assert worker is not parent and worker.model is not parent.model
    assert (worker.o_threshold, worker.model.o_words, worker.chain_options) == (0.5, frozenset(), parent.chain_options)
    assert session_module._tag_batch(notes[:4]) == list(parent.tag(notes[:4]))


class _SlowPool:
    """A pool whose workers finish a batch only when asked for it (``get``): the slowest case
    for the parent, which must tag batches itself meanwhile and still hand results out in order."""

    def __init__(self, session):
        self.session, self.sent = session, []

    def submit(self, func, *args):
        pool = self

        class Future:  # as concurrent.futures' (a dead worker fails it: BrokenProcessPool)
            def done(self):
                return False

            def result(self):
                return func(*args, session=pool.session)

        self.sent.append(args[0])
        return Future()


def test_jobs_share_batches_between_workers_and_the_parent(notes):
    """With ``jobs`` > 1 the parent tags a batch whenever every worker has two queued; the
    results keep the input order, and what waits to be handed out stays bounded."""
    session = crfdeid.Session(None, "spans")
    batches = [[d] for d in notes[:10]]
    pool = _SlowPool(session)
    got = list(session._shared(pool, 1, iter(batches)))
    assert got == list(session.tag(notes[:10]))  # in input order, as one process tags them
    sent = [b[0].doc_id for b in pool.sent]
    assert 0 < len(sent) < 10  # the worker got some batches, the parent tagged the rest
    assert sent[:2] == [notes[0].doc_id, notes[1].doc_id]  # two queued before the parent starts
