"""The unit of work is all or nothing, savepoints included: a savepoint released inside a unit of work that
then fails is rolled back with it (on SQLite a savepoint taken before any write used to commit on release)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app import db as app_db
from models.base import new_id
from models.waitlist import WaitlistEntry


async def test_a_released_savepoint_is_undone_when_the_unit_of_work_fails(configured) -> None:
    email = f"savepoint-{new_id()}@example.test"
    with pytest.raises(RuntimeError):
        async with app_db.unit_of_work() as session:
            async with session.begin_nested():
                session.add(WaitlistEntry(email=email))
            raise RuntimeError("a later step of the same intention failed")
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(WaitlistEntry).where(WaitlistEntry.email == email)) is None


async def test_a_released_savepoint_is_kept_when_the_unit_of_work_commits(configured) -> None:
    email = f"savepoint-{new_id()}@example.test"
    async with app_db.unit_of_work() as session, session.begin_nested():
        session.add(WaitlistEntry(email=email))
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(WaitlistEntry).where(WaitlistEntry.email == email)) is not None
