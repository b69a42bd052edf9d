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


async def test_the_table_stays_under_its_cap_and_keeps_the_paths_people_hit(configured, monkeypatch) -> None:
    """A scanner asking for endless unique paths used to add one row each."""
    from sqlalchemy import func, select

    from app.settings import get_settings

    monkeypatch.setenv("NOT_FOUND_PATHS_KEPT", "5")
    get_settings.cache_clear()
    for _ in range(3):
        async with app_db.unit_of_work() as session:
            await record_unknown_path(session=session, path="/old-link")
    for n in range(40):
        async with app_db.unit_of_work() as session:
            await record_unknown_path(session=session, path=f"/scan-{n}")
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(func.count()).select_from(NotFoundPath)) == 5
    assert await _hits("/old-link") == 3  # the most visited path stays
    assert await _hits("/scan-39") == 1  # the newest is always counted
    get_settings.cache_clear()
