"""Unknown paths are counted per path, also when many requests arrive at once."""

from __future__ import annotations

import asyncio
import secrets

from app import db as app_db
from app.services.feedback import record_unknown_path
from models import NotFoundPath


async def _hits(path: str) -> int | None:
    async with app_db.unit_of_work() as session:
        row = await session.get(NotFoundPath, path)
        return row.hits if row else None


async def test_each_visit_is_counted(configured) -> None:
    path = f"/missing-{secrets.token_hex(3)}"
    for _ in range(3):
        async with app_db.unit_of_work() as session:
            await record_unknown_path(session=session, path=path)
    assert await _hits(path) == 3


async def test_concurrent_visits_are_all_counted(configured) -> None:
    path = f"/burst-{secrets.token_hex(3)}"

    async def visit() -> None:
        async with app_db.unit_of_work() as session:
            await record_unknown_path(session=session, path=path)

    await asyncio.gather(*(visit() for _ in range(12)))
    assert await _hits(path) == 12


async def test_very_long_paths_are_truncated_not_refused(configured) -> None:
    path = "/" + "x" * 2000
    async with app_db.unit_of_work() as session:
        await record_unknown_path(session=session, path=path)
    assert await _hits(path[:512]) == 1
