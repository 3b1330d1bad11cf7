"""Background retraining: a model from the reviewed notes, then new suggestions and priorities.

The server never trains in its own process: :class:`Retrainer` starts
``python -m crfdeid review retrain PROJECT`` (at a lower CPU priority) once
``retrain_every`` more notes have been reviewed, and requests go on meanwhile. The
child trains on every reviewed note's final annotations
(:func:`crfdeid.review.agreement.final_spans`) with the project's config, saves
``models/model-vN`` (0600), re-suggests every note no person has opened yet and
re-orders the queue. Its progress and outcome are rows of the ``jobs`` table; its
output holds counts only.

The estimated recall (:func:`estimated_recall`) compares, on the reviewed notes, the
suggestions the reviewers were shown with what they kept: the recall of the model on
notes it had not seen. With uncertainty ordering the reviewed notes are the hard
ones, so the estimate is pessimistic for the notes left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from ..errors import CrfdeidError
from ..scoring import evaluate
from .agreement import FINAL, final_spans
from .project import Project
from .sitemodel import train_reviewed
from .store import MODEL, now, to_spans


def reviewed_docs(store) -> list:
    """Documents of every reviewed note with their final annotations."""
    docs = []
    for row in store.notes():
        kind, spans = final_spans(store, row["id"])
        if kind in FINAL:
            docs.append(store.document(row["id"], spans))
    return docs


def retrain(project, log=print) -> dict:
    """Train on the reviewed notes, save the model, re-suggest untouched notes (the child's work)."""
    store = project.store
    if project.frozen:
        raise CrfdeidError("this project is frozen to its model (an audit's project): it never retrains")
    with store.db.write() as run:
        job = run("INSERT INTO jobs (kind, state, started_at, detail) VALUES ('retrain', 'running', ?, '{}') "
                  "RETURNING id", (now(),))[0]["id"]
    try:
        docs = reviewed_docs(store)
        if not docs:
            raise CrfdeidError("no reviewed notes to train on")
        t0 = time.perf_counter()
        model = train_reviewed(docs, project.config())
        version = project.model_version() + 1
        models = project.path / "models"
        models.mkdir(mode=0o700, exist_ok=True)
        rel = f"models/model-v{version}"
        model.save(project.path / rel)
        os.chmod(project.path / rel, 0o600)
        stats = {"documents": model.stats["documents"], "spans": model.stats["spans"],
                 "seconds": round(time.perf_counter() - t0, 1)}
        with store.db.write() as run:
            run("INSERT INTO models (version, path, notes, trained_at, stats) VALUES (?, ?, ?, ?, ?)",
                (version, rel, len(docs), now(), json.dumps(stats)))
            store.audit(run, "retrain", "model", None, version=version, notes=len(docs))
        log(f"model v{version}: trained on {len(docs)} reviewed notes in {stats['seconds']}s")
        untouched = [r["id"] for r in store.notes() if not store.touched(r["id"])]
        changed = project.suggest(model, untouched, version)
        detail = dict(stats, version=version, resuggested=changed)
        log(f"model v{version}: {changed} untouched notes re-suggested")
        state = "done"
    except Exception as exc:  # noqa: BLE001 - recorded for the progress view
        # crfdeid's own messages name files, ids and offsets only; any other may quote a note
        reason = str(exc)[:300] if isinstance(exc, CrfdeidError) else "(details withheld)"
        detail, state = {"error": type(exc).__name__, "reason": reason}, "failed"
        log(f"retraining failed: {type(exc).__name__}")
    with store.db.write() as run:
        run("UPDATE jobs SET state = ?, finished_at = ?, detail = ? WHERE id = ?",
            (state, now(), json.dumps(detail), job))
    return dict(detail, state=state)


class Retrainer:
    """Starts and watches the retraining child process of a served project."""

    def __init__(self, project, db: str | None = None, every: int | None = None):
        self.project = project
        self.db = db
        self.every = every if every is not None else int(project.setting("retrain_every") or 0)
        self.proc: subprocess.Popen | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def trained_on(self) -> int:
        row = self.project.store.db.one("SELECT notes FROM models ORDER BY version DESC LIMIT 1")
        return row["notes"] if row else 0

    def maybe_start(self, force: bool = False) -> bool:
        """Start retraining when enough new notes were reviewed (or ``force``); never twice at once."""
        with self._lock:
            if self.running or self.project.frozen:
                return False
            reviewed = self.project.store.progress()["reviewed"]
            if not reviewed or not force and (self.every <= 0 or reviewed - self.trained_on() < self.every):
                return False
            cmd = [sys.executable, "-m", "crfdeid.review", "retrain", str(self.project.path)]
            env = dict(os.environ)
            if self.db:
                env["CRFDEID_REVIEW_DB"] = self.db  # not on the command line: `ps` shows that
            with open(self.project.path / "retrain.log", "ab") as log:
                # no preexec_fn (unsafe in a threaded server): the child lowers its own priority
                self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                             stdin=subprocess.DEVNULL, start_new_session=True)
            return True

    def wait(self, timeout: float | None = None) -> int | None:
        return self.proc.wait(timeout) if self.proc is not None else None

    def status(self) -> dict:
        store = self.project.store
        job = store.db.one("SELECT state, started_at, finished_at, detail FROM jobs ORDER BY id DESC LIMIT 1")
        if job:
            job["detail"] = json.loads(job["detail"])
        return {"running": self.running, "every": 0 if self.project.frozen else self.every,
                "frozen": self.project.frozen, "trained_on": self.trained_on(),
                "model_version": self.project.model_version(), "last_job": job}


def estimated_recall(store) -> dict:
    """Binary token recall of the suggestions shown on the reviewed notes, against what was kept.

    ``{"notes": n, "recall": r, "latest": {"version": v, "notes": n, "recall": r}}``; recall
    is ``None`` without reviewed PHI.
    """
    gold, pred, versions = [], [], []
    for row in store.notes():
        kind, spans = final_spans(store, row["id"])
        if kind not in FINAL:
            continue
        gold.append(store.document(row["id"], spans))
        pred.append(store.document(row["id"], to_spans(store.spans(row["id"], MODEL))))
        versions.append(row["model_version"])

    def recall(idx):
        if not idx:
            return None
        sc = evaluate([gold[i] for i in idx], [pred[i] for i in idx]).micro["binary_token"]
        return round(sc.recall, 4) if sc.tp + sc.fn else None

    out = {"notes": len(gold), "recall": recall(list(range(len(gold)))), "latest": None}
    if versions:
        v = max(versions)
        idx = [i for i, x in enumerate(versions) if x == v]
        out["latest"] = {"version": v, "notes": len(idx), "recall": recall(idx)}
    return out


def main_retrain(path, db=None) -> int:
    """Entry point of the ``retrain`` subcommand (the child process)."""
    try:
        os.nice(10)  # the server's requests come first
    except OSError:
        pass
    project = Project.open(Path(path), db)
    try:
        result = retrain(project, log=lambda m: print(m, flush=True))
    finally:
        project.close()
    return 0 if result["state"] == "done" else 1
