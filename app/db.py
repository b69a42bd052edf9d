"""The database: async engine, session factory and the one unit of work every write goes through.

`unit_of_work()` is opened by one entry per surface: the hooks for the screens (components/hooks.py), the
request's unit of work for HTTP (api/deps.py: `SessionDep`, `transaction()`), and the job runner for
periodic jobs, the command line, the seeders and what a domain runs apart from its caller's transaction
(app/jobs.py: as SYSTEM, at an injected clock); tests/unit/test_surface_entries.py refuses any other opening.
Services never commit; the unit of work does. What must outlive the command's own outcome (the audit
entry of a refused escalation, which raises and so rolls back) is handed to `write_apart`: the unit of work
writes it in a short transaction of its own once it has ended.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy import event, text
from sqlalchemy.engine import Connection, CursorResult, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.sql.expression import UpdateBase

from app.settings import get_settings

logger = logging.getLogger(__name__)
_APART = "medivisit.write_apart"  # session.info key: rows to write once the unit of work has ended
_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
}


def async_url(url: str) -> str:
    """Accept the usual `sqlite:///path` and `postgresql://user@host/db` forms and pick the async driver."""
    scheme, sep, rest = url.partition("://")
    base = scheme.split("+", 1)[0]
    if not sep or base not in _ASYNC_DRIVERS:
        raise ValueError(f"Unsupported DATABASE_URL scheme: {scheme!r} (use sqlite:/// or postgresql://)")
    return f"{_ASYNC_DRIVERS[base]}://{rest}"


def ensure_sqlite_directory(url: str) -> None:
    """SQLite creates the file but not its folder (the default lives under var/). The file holds patient
    data: it is created readable by this user only (0600; SQLite gives its WAL and journal files the same
    mode), and an existing one is narrowed to that."""
    parsed = make_url(async_url(url))
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        path = Path(parsed.database)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        path.chmod(0o600)


def _create_engine(url: str) -> AsyncEngine:
    # hide_parameters: statement parameters (password hashes, token hashes, e-mails) never reach logs or errors.
    ensure_sqlite_directory(url)
    url = async_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_async_engine(url, connect_args={"timeout": 30}, hide_parameters=True)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine.sync_engine, "savepoint")
        def _begin_before_savepoint(conn: Connection, _name: str) -> None:
            # pysqlite only opens a transaction before a write: a SAVEPOINT issued first would become the
            # transaction itself and its RELEASE would commit. Opening one first keeps the savepoint nested.
            driver = conn.connection.driver_connection
            assert driver is not None  # an open connection's pysqlite one
            if not driver.in_transaction:
                conn.exec_driver_sql("BEGIN")

        return engine
    cost = get_settings().postgres_random_page_cost
    server_settings = {"random_page_cost": str(cost)} if cost > 0 else {}
    return create_async_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=20,
        hide_parameters=True,
        connect_args={"server_settings": server_settings},
    )


class Database:
    """Holds the engine and session factory for one database URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _create_engine(url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    @asynccontextmanager
    async def unit_of_work(self) -> AsyncIterator[AsyncSession]:
        """Commit on success, roll back on any error, always close."""
        async with self.sessions() as session:
            try:
                yield session
                await session.commit()
            except BaseException:
                await session.rollback()
                raise
            finally:
                apart = session.sync_session.info.pop(_APART, None)
                if apart:
                    await self._write_apart(apart)

    async def _write_apart(self, rows: list[object]) -> None:
        """`write_apart`'s rows, committed on their own (after the command's transaction has ended, so on
        SQLite no write lock of it is held any more)."""
        try:
            async with self.sessions() as session:
                session.add_all(rows)
                await session.commit()
        except Exception:  # noqa: BLE001 - the command's own outcome stands; the loss is logged
            logger.exception("Could not write %d row(s) kept apart from a unit of work", len(rows))

    async def ping(self) -> bool:
        try:
            async with self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            return True
        except Exception:  # noqa: BLE001 - readiness reports any failure as "not ready"
            return False

    async def dispose(self) -> None:
        await self.engine.dispose()


_database: Database | None = None


def get_database() -> Database:
    """The process-wide database for the configured DATABASE_URL."""
    global _database
    if _database is None:
        _database = Database(get_settings().database_url)
    return _database


def use_database(url: str) -> Database:
    """Point the process at another database (tests use this for their temporary databases)."""
    global _database
    _database = Database(url)
    return _database


def write_apart(session: AsyncSession, row: object) -> None:
    """Write the new ORM `row` (never added to `session`) in a short transaction of its own once the unit
    of work of `session` ends, whether it commits or rolls back."""
    session.sync_session.info.setdefault(_APART, []).append(row)


async def changed_rows(
    session: AsyncSession, statement: UpdateBase, params: Mapping[str, object] | None = None
) -> int:
    """Run an INSERT, UPDATE or DELETE in the unit of work of `session`; how many rows it matched."""
    result = await session.execute(statement, params)
    # SQLAlchemy types `AsyncSession.execute` as returning a plain Result whatever the statement; a write's
    # is a CursorResult, the one that counts rows.
    if not isinstance(result, CursorResult):
        raise TypeError(f"{type(statement).__name__} returned {type(result).__name__}, not a row count")
    return result.rowcount


def unit_of_work():  # noqa: ANN201 - an async context manager of AsyncSession
    return get_database().unit_of_work()
