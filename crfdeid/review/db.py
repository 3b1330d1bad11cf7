"""The review store's database: SQLite in the project folder, or PostgreSQL given a URL.

One small dialect layer: queries are written once with ``?`` placeholders (turned
into ``%s`` for psycopg) and a schema whose few dialect words are filled in per
backend. Each thread gets its own connection (FastAPI runs plain endpoints in a
thread pool); :meth:`Database.write` is one transaction (``BEGIN IMMEDIATE`` on
SQLite, so concurrent writers queue instead of failing).

The SQLite file is created owner-only (0600) before SQLite opens it; SQLite gives
its ``-wal`` and ``-shm`` files the same mode. WAL journaling lets the background
retraining process read while the server writes.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

from .._data import install_hint
from ..errors import CrfdeidError

#: Dialect words of the schema, per backend.
_WORDS = {
    "sqlite": {"pk": "INTEGER PRIMARY KEY AUTOINCREMENT", "real": "REAL"},
    "postgres": {"pk": "BIGSERIAL PRIMARY KEY", "real": "DOUBLE PRECISION"},
}


class StoreError(CrfdeidError):
    """The review database cannot be opened or used (the message never holds note text)."""


def is_url(target) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


class Database:
    """Connections to one database: ``Database(path)`` (SQLite) or ``Database(url)`` (PostgreSQL)."""

    def __init__(self, target: str | os.PathLike) -> None:
        self.target = str(target)
        self.kind = "postgres" if is_url(target) else "sqlite"
        self._local = threading.local()
        self._all: list = []
        self._lock = threading.Lock()
        if self.kind == "postgres":
            try:
                import psycopg  # noqa: F401
            except ModuleNotFoundError:
                raise StoreError(f"a PostgreSQL store needs psycopg: {install_hint('review')}") from None
        else:
            _create_private(Path(self.target))

    def __repr__(self) -> str:  # never the URL: it may hold a password
        return f"Database({self.kind})"

    # -- connections -----------------------------------------------------------
    def connection(self):
        """This thread's connection (opened on first use)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def _open(self):
        if self.kind == "postgres":
            import psycopg
            from psycopg.rows import dict_row
            try:
                return psycopg.connect(self.target, autocommit=True, row_factory=dict_row)
            except psycopg.Error as exc:
                raise StoreError(f"cannot connect to PostgreSQL ({type(exc).__name__})") from None
        try:
            conn = sqlite3.connect(self.target, isolation_level=None, check_same_thread=False, timeout=30)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite store {self.target!r} ({exc})") from None
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    def close(self) -> None:
        """Close every connection this object opened (any thread)."""
        with self._lock:
            conns, self._all = self._all, []
        for conn in conns:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
        self._local = threading.local()

    # -- queries -----------------------------------------------------------------
    def sql(self, query: str) -> str:
        """``query`` in this backend's placeholder style."""
        return query.replace("?", "%s") if self.kind == "postgres" else query

    def query(self, query: str, params=()) -> list[dict]:
        """Rows of a read query, as dictionaries."""
        cur = self.connection().execute(self.sql(query), tuple(params))
        return [dict(r) for r in cur.fetchall()]

    def one(self, query: str, params=()) -> dict | None:
        rows = self.query(query, params)
        return rows[0] if rows else None

    def count(self, query: str, params=()) -> int:
        """The single number a ``SELECT COUNT(*) ...`` query gives."""
        row = self.query(query, params)[0]
        return int(next(iter(row.values())))

    @contextmanager
    def write(self):
        """A transaction; yields ``run(query, params) -> rows`` (of ``RETURNING``/``SELECT``);
        ``run.count(query, params)`` gives the number of rows a statement changed instead."""
        conn = self.connection()
        if self.kind == "postgres":
            with conn.transaction():
                yield _Run(conn, self.sql)
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield _Run(conn, self.sql)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def create_schema(self, schema: str) -> None:
        """Run the ``;``-separated statements of ``schema`` with this backend's words."""
        text = schema.format(**_WORDS[self.kind])
        with self.write() as run:
            for stmt in text.split(";"):
                if stmt.strip():
                    run(stmt)


class _Run:
    """Statements inside one transaction (see :meth:`Database.write`)."""

    def __init__(self, conn, sql):
        self.conn, self.sql = conn, sql

    def __call__(self, query: str, params=()) -> list[dict]:
        cur = self.conn.execute(self.sql(query), tuple(params))
        return [dict(r) for r in cur.fetchall()] if cur.description else []

    def count(self, query: str, params=()) -> int:
        return self.conn.execute(self.sql(query), tuple(params)).rowcount


def _create_private(path: Path) -> None:
    """Create the SQLite file owner-only (0600) if it does not exist yet."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
