"""A review project: a folder holding the store, the secret surrogate key and retrained models.

::

    PROJECT/project.json   settings (no secrets; a PostgreSQL URL is never written here)
    PROJECT/review.sqlite  the store (unless a PostgreSQL URL is given), mode 0600
    PROJECT/secret.key     the project's surrogate key (HMAC), mode 0600
    PROJECT/models/        models retrained from the reviewed notes (model-vN), mode 0600

Notes come in through any reader (``FORMAT:PATH``) and are pre-annotated by a model
(the shipped one unless another is given); annotations go out through any writer.
Everything the project writes is owner-only: the command line sets the umask to 077.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from ..config import load_config
from ..errors import ConfigError, CrfdeidError
from ..io import atomic_write, read
from ..routing import RoutedModel
from ..tagging.model import TaggingModel
from ..tagging.session import SPANS, Session, explanation
from . import active, agreement, surrogates
from .db import Database, is_url
from .sitemodel import site_config
from .store import Store, to_spans

SETTINGS = "project.json"
DB_FILE = "review.sqlite"
KEY_FILE = "secret.key"
#: Defaults of the project settings kept in the store.
DEFAULTS = {"per_note": 1, "retrain_every": 10, "strategy": "uncertainty", "propagate": True,
            "model": None, "config": None, "surrogate_editors": None}
DB_ENV = "CRFDEID_REVIEW_DB"


class Project:
    """An open review project (folder + store). Use :meth:`create` or :meth:`open`."""

    def __init__(self, path, store: Store):
        self.path = Path(path)
        self.store = store

    @classmethod
    def create(cls, path, db: str | None = None, **settings) -> Project:
        """Make the folder (0700), the key (0600) and the store; ``settings`` override :data:`DEFAULTS`."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        if (path / SETTINGS).exists():
            raise ConfigError("already a review project (open it instead)", path=path)
        unknown = set(settings) - set(DEFAULTS)
        if unknown:
            raise ConfigError(f"unknown project settings {sorted(unknown)}; known: {sorted(DEFAULTS)}")
        if not (path / KEY_FILE).exists():
            atomic_write(path / KEY_FILE, secrets.token_hex(32) + "\n")
        atomic_write(path / SETTINGS, json.dumps({"store": "postgresql" if db else "sqlite"}, indent=1) + "\n")
        project = cls.open(path, db)
        for name, value in {**DEFAULTS, **settings}.items():
            project.store.set_setting(name, value)
        return project

    @classmethod
    def open(cls, path, db: str | None = None) -> Project:
        """Open an existing project; ``db`` (or ``$CRFDEID_REVIEW_DB``) names its PostgreSQL store."""
        path = Path(path)
        try:
            info = json.loads((path / SETTINGS).read_text(encoding="utf-8"))
        except OSError:
            raise ConfigError("not a review project (run `python -m crfdeid review init` first)",
                              path=path) from None
        db = db or os.environ.get(DB_ENV)
        if info.get("store") == "postgresql":
            if not db or not is_url(db):
                raise ConfigError(f"this project keeps its store in PostgreSQL: pass --db URL or set {DB_ENV}",
                                  path=path)
            target = db
        else:
            target = path / DB_FILE
        return cls(path, Store(Database(target)))

    def close(self) -> None:
        self.store.close()

    def setting(self, name: str):
        return self.store.setting(name, DEFAULTS.get(name))

    @property
    def frozen(self) -> bool:
        """Whether the project keeps its model (an audit's projects: the audited model, never
        retrained, from the page, the API or the command line)."""
        return bool(self.store.setting("audit") or self.store.setting("frozen"))

    @property
    def key(self) -> bytes:
        """The project's secret surrogate key."""
        try:
            return (self.path / KEY_FILE).read_text(encoding="utf-8").strip().encode("ascii")
        except OSError as exc:
            raise ConfigError(f"cannot read the project key: {exc.strerror}", path=self.path / KEY_FILE) from None

    # -- models ---------------------------------------------------------------------------
    def current_model_path(self) -> Path | None:
        """The newest retrained model, else the project's model setting (``None``: the shipped one)."""
        row = self.store.db.one("SELECT path FROM models ORDER BY version DESC LIMIT 1")
        if row:
            return self.path / row["path"]
        m = self.setting("model")
        return Path(m) if m else None

    def model_version(self) -> int:
        row = self.store.db.one("SELECT MAX(version) AS v FROM models")
        return (row or {}).get("v") or 0

    def load_model(self):
        return TaggingModel.load(self.current_model_path())

    def config(self) -> dict:
        """The config models are retrained with: the project's; else, for a project started from the
        shipped model, the site config (``configs/site.yaml``: the shipped model as prior); else the
        pre-annotation model's (a routed model's: its default member's)."""
        cfg = self.setting("config")
        if cfg:
            return load_config(cfg)
        model = self.setting("model")
        if model is None:
            return site_config()
        loaded = TaggingModel.load(Path(model))
        if isinstance(loaded, RoutedModel):  # its own config trains no notes: its default member's does
            loaded = loaded.default
        return load_config(loaded.config)

    def explain(self, note_id: int) -> dict:
        """What each step of the current model did to the note's spans (:func:`explanation`: offsets,
        types, steps and reasons, no text), tagged again now, and ``model_version``: the model's
        version, which the page compares with the version that suggested the note's spans."""
        model = self._explaining.get(self.current_model_path())
        if model is None:  # one loaded model for the questions asked, the newest
            model = self.load_model()
            self._explaining = {self.current_model_path(): model}
        [tagged] = Session(model, SPANS, explain=True).tagged([self.store.document(note_id)])
        return {**explanation(tagged), "model_version": self.model_version()}

    _explaining: dict = {}

    def suggest(self, model, note_ids, version: int, chunk: int = 32) -> int:
        """Pre-annotate notes with ``model`` (untouched notes only) and set their priorities."""
        strategy = self.setting("strategy")
        session = Session(model, SPANS)
        changed = 0
        for i in range(0, len(note_ids), chunk):
            ids = note_ids[i:i + chunk]
            docs = [self.store.document(n) for n in ids]
            prio = active.scores(model, docs, strategy, seed=version)
            for nid, tagged, p in zip(ids, session.tagged(docs), prio):
                changed += self.store.set_suggestions(nid, tagged.spans, tagged.meta["confidence"], version, p)
        return changed


def import_notes(project: Project, spec: str, model=None, annotator: str | None = "imported",
                 errors: list | None = None) -> dict:
    """Read ``FORMAT:PATH`` into the project and pre-annotate the new notes.

    Spans the input already has become ``annotator``'s (kind ``import``; ``None``: not
    kept, and counted). A document that cannot be read, or is already in the project,
    is reported in ``errors`` (ids and reasons only) and the others go on.
    """
    errors = [] if errors is None else errors
    ids, dropped = [], 0
    for doc in read(spec, errors=errors):
        try:
            doc.validate()
            ids.append(project.store.add_note(doc, annotator))
        except CrfdeidError as exc:
            errors.append(exc)
            continue
        if annotator is None:
            dropped += len(doc.spans)
    if model is None:
        model = project.load_model()
    suggested = project.suggest(model, ids, project.model_version()) if ids else 0
    return {"notes": len(ids), "suggested": suggested, "failed": len(errors), "spans_not_kept": dropped}


def export_docs(project: Project, source: str = "final", include_unreviewed: bool = False,
                conflicts: str = "refuse"):
    """``(documents, skipped)``: the notes with the annotations of ``source``.

    ``source``: ``final`` (the adjudicated consensus where there is one, else the spans of
    the people who finished the note when they agree exactly), ``consensus``,
    ``reidentified`` (surrogate text and new offsets, :mod:`crfdeid.review.surrogates`),
    ``model`` or an annotator's name. Notes without such annotations are skipped unless
    ``include_unreviewed`` (then they carry the model's suggestions, or none for an
    annotator). A note whose finishers disagree and that is not adjudicated
    (:func:`crfdeid.review.agreement.conflicts`) is left out of ``final`` unless
    ``conflicts="union"`` (every finisher's spans joined); it is not counted in ``skipped``.
    """
    if conflicts not in ("refuse", "union"):
        raise ConfigError(f"conflicts must be refuse or union, not {conflicts!r}")
    store = project.store
    docs, skipped = [], 0
    if source == "reidentified":
        return surrogates.reidentified(project, include_unreviewed)
    kinds = {a["name"]: a["kind"] for a in store.annotators()}
    if source not in ("final", "consensus") and source not in kinds:
        raise ConfigError(f"unknown export source {source!r}; known: final, consensus, reidentified, "
                          f"{', '.join(sorted(kinds))}")
    for row in store.notes():
        nid = row["id"]
        if source in ("final", "consensus"):
            kind, spans = agreement.final_spans(store, nid, conflicts)
            if kind == "conflict" and source == "final":
                if conflicts == "union":
                    docs.append(store.document(nid, spans))
                continue
            ok = kind == "consensus" if source == "consensus" else kind in agreement.FINAL
        else:
            spans = to_spans(store.spans(nid, source))
            review = store.review_state(nid, source)
            ok = kinds[source] != "human" or (review is not None and review["state"] == "done")
        if not ok:
            if not include_unreviewed:
                skipped += 1
                continue
            # the model's suggestions with the reviewers' decisions so far: a span a reviewer
            # deleted does not come back
            spans = agreement.provisional_spans(store, nid) if source in ("final", "consensus") else spans
        docs.append(store.document(nid, spans))
    return docs, skipped
