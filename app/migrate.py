"""Applies the Alembic migrations in `migrations/` to a database URL."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

from app.db import ensure_sqlite_directory
from app.settings import PROJECT_ROOT


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(PROJECT_ROOT) / "migrations"))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str) -> None:
    """Bring the database at `database_url` to the newest revision (blocking)."""
    ensure_sqlite_directory(database_url)
    command.upgrade(alembic_config(database_url), "head")


async def upgrade_async(database_url: str) -> None:
    # env.py runs its own event loop, so it must not run on the caller's.
    await asyncio.to_thread(upgrade, database_url)


def head_revision() -> str:
    """The newest migration's revision id (what an up-to-date database reports)."""
    from alembic.script import ScriptDirectory  # noqa: PLC0415 - only the tests and the health page ask

    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head() or ""
