"""Domain events: delivered to subscribers only after commit, never after a rollback, and on PostgreSQL
across processes (pg_notify at commit, one LISTEN connection per process)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from app import db as app_db
from app import events
from tests.factories import settle


async def _next(queue: asyncio.Queue, seconds: float = 5) -> dict:
    return await asyncio.wait_for(queue.get(), seconds)


async def test_delivered_after_commit_only(configured) -> None:
    """While t1's transaction is open, a sentinel is published and committed in another unit of work:
    events arrive in commit order, so when the sentinel is here anything already committed is too, and t1
    must not be among it."""
    async with events.subscribe("tickets") as queue:
        async with app_db.unit_of_work() as session:
            await events.publish_on_commit(session, "tickets", {"id": "t1"})
            assert await settle(queue, "tickets") == [], "an event must not arrive before its commit"
        assert await _next(queue) == {"id": "t1", "topic": "tickets"}


async def test_not_delivered_after_rollback(configured) -> None:
    async with events.subscribe("tickets") as queue:
        with pytest.raises(RuntimeError):
            async with app_db.unit_of_work() as session:
                await events.publish_on_commit(session, "tickets", {"id": "lost"})
                raise RuntimeError("the intention failed")
        async with app_db.unit_of_work() as session:
            await events.publish_on_commit(session, "tickets", {"id": "kept"})
        assert (await _next(queue))["id"] == "kept"


async def test_only_subscribed_topics_arrive(configured) -> None:
    async with events.subscribe("cart:a") as mine, events.subscribe("cart:b") as other:
        async with app_db.unit_of_work() as session:
            await events.publish_on_commit(session, "cart:a", {"n": 1})
        assert (await _next(mine))["n"] == 1
        assert await settle(other, "cart:b") == []  # everything committed before the sentinel has arrived


async def test_another_process_reaches_this_one(configured, database_url) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("cross-process delivery is PostgreSQL's LISTEN/NOTIFY")
    script = (
        "import asyncio\n"
        "from app import db, events\n"
        "async def main():\n"
        f"    async with db.use_database({database_url!r}).unit_of_work() as session:\n"
        "        await events.publish_on_commit(session, 'tickets', {'id': 'from-worker-2'})\n"
        "asyncio.run(main())\n"
    )
    async with events.subscribe("tickets") as queue:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-c", script],
            env=dict(os.environ),
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr.decode()
        assert (await _next(queue, seconds=10))["id"] == "from-worker-2"
