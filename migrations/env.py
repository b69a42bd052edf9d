"""Alembic environment: runs migrations on the configured database through the async engine."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.ext.asyncio import create_async_engine

import models
from app.db import async_url

config = context.config
# Keep the caller's logging: alembic's own fileConfig is not used.
target_metadata = models.Base.metadata


def _run(connection) -> None:  # noqa: ANN001
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(async_url(config.get_main_option("sqlalchemy.url")))
    async with engine.begin() as conn:
        await conn.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("Offline migrations are not supported; run `python -m medivisit migrate`.")
asyncio.run(_run_async())
