"""The three stores behind `app.ratelimit.hit`: the same answers, and never more than the limit let through
when many hits arrive at once (50 concurrent hits, limit 10: exactly 10 allowed)."""

from __future__ import annotations

import asyncio
import secrets
import socket

import pytest

from app import ratelimit
from app.settings import get_settings


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


async def _check(counters: ratelimit.Counters) -> None:
    key = secrets.token_hex(6)
    answers = await asyncio.gather(*(counters.hit("test", key, limit=10, window=60) for _ in range(50)))
    allowed = [a for a in answers if a is None]
    assert len(allowed) == 10, answers
    assert all(0 < wait <= 60 for wait in answers if wait is not None)
    # Another key, and another scope, count on their own.
    assert await counters.hit("test", key + "-other", limit=1, window=60) is None
    assert await counters.hit("other-scope", key, limit=1, window=60) is None
    # A short window empties again.
    short = secrets.token_hex(6)
    assert await counters.hit("test", short, limit=1, window=0.2) is None
    assert await counters.hit("test", short, limit=1, window=0.2) is not None


async def test_memory_counters() -> None:
    await _check(ratelimit.MemoryCounters())


async def test_postgres_counters(configured) -> None:
    if not get_settings().database_url.startswith("postgresql"):
        pytest.skip("the PostgreSQL store needs a PostgreSQL database")
    await _check(ratelimit.PostgresCounters())


@pytest.mark.skipif(not _redis_up(), reason="no Redis server on 127.0.0.1:6379")
async def test_redis_counters() -> None:
    await _check(ratelimit.RedisCounters("redis://127.0.0.1:6379/0", prefix=f"test:{secrets.token_hex(4)}:"))


def test_the_store_follows_the_settings(monkeypatch) -> None:
    from app.settings import Settings

    assert isinstance(
        ratelimit.counters_for(Settings(database_url="sqlite:///x.db")), ratelimit.MemoryCounters
    )
    postgres = Settings(database_url="postgresql://u@h/db")
    assert isinstance(ratelimit.counters_for(postgres), ratelimit.PostgresCounters)
    both = Settings(database_url="postgresql://u@h/db", redis_url="redis://127.0.0.1:6379/0")
    assert isinstance(ratelimit.counters_for(both), ratelimit.RedisCounters)
