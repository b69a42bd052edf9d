"""The job runner (app/jobs.py): a command runs in a unit of work of its own, as SYSTEM, at the runner's
clock; the periodic jobs (medivisit/periodic.py) run through it with the clock they are handed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from app import db as app_db
from app.jobs import run_command
from app.principal import SYSTEM, Principal
from medivisit.periodic import Job, run_once
from models.admin import JobRun
from models.base import new_id
from models.waitlist import WaitlistEntry

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


async def test_a_command_gets_the_system_actor_and_the_clock_only_when_it_takes_them(configured) -> None:
    seen: dict[str, Any] = {}

    async def with_both(*, session: Any, actor: Principal, now: datetime, n: int) -> int:
        seen.update(actor=actor, now=now)
        return n

    async def with_neither(*, session: Any, n: int) -> int:
        return n

    assert await run_command(with_both, clock=lambda: NOON, n=1) == 1
    assert seen == {"actor": SYSTEM, "now": NOON}
    assert await run_command(with_neither, clock=lambda: NOON, n=2) == 2
    later = datetime(2026, 3, 3, tzinfo=UTC)
    await run_command(with_both, clock=lambda: NOON, n=3, now=later)  # named arguments win
    assert seen["now"] == later


async def test_a_command_commits_on_success_and_rolls_back_on_error(configured) -> None:
    kept, undone = f"kept-{new_id()}@example.test", f"undone-{new_id()}@example.test"

    async def join(*, session: Any, email: str, fail: bool) -> None:
        session.add(WaitlistEntry(email=email))
        await session.flush()
        if fail:
            raise RuntimeError("a later step failed")

    await run_command(join, email=kept, fail=False)
    with pytest.raises(RuntimeError):
        await run_command(join, email=undone, fail=True)
    async with app_db.unit_of_work() as session:
        emails = set(await session.scalars(select(WaitlistEntry.email)))
    assert kept in emails and undone not in emails


async def test_a_periodic_job_runs_at_the_clock_it_is_handed_and_its_run_is_recorded(configured) -> None:
    moments: list[datetime] = []

    async def count(*, session: Any, now: datetime) -> int:
        moments.append(now)
        return 4

    name = f"Counted %d thing(s) {new_id()}"
    await run_once(Job(name, count, lambda _settings: True), clock=lambda: NOON)
    assert moments == [NOON]
    async with app_db.unit_of_work() as session:
        run = await session.scalar(select(JobRun).where(JobRun.job == name.replace("%d", "N")))
    assert run is not None and run.last_ok and run.last_count == 4
