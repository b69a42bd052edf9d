"""Shared request counters: "at most `limit` hits of `key` in `window` seconds", for every rate limit.

One call, `await hit(scope, key, limit=, window=)`, answers None (allowed, and counted) or the seconds to wait.
The identity API (`app.auth.ratelimit`), the send-email function, uploads and the websocket commands all
count here, so a limit means the same thing wherever it is enforced.

Where the counts live (`configure(counters_for(settings))` at start-up):
- `RedisCounters` when `REDIS_URL` is set: a sliding log per key in a sorted set, one atomic Lua script per
  hit on the Redis server's clock; shared by every worker and host.
- `PostgresCounters` when the database is PostgreSQL: a fixed window per key, one atomic upsert per hit
  (`rate_limit_counters`); shared by every worker and host. A fixed window lets up to twice the limit
  through across a window boundary, which is acceptable for abuse limits.
- `MemoryCounters` otherwise (SQLite: one process): a sliding log in this process.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from datetime import UTC, datetime, timedelta
from threading import Lock
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from app.settings import Settings


class Counters(Protocol):
    async def hit(self, scope: str, key: str, *, limit: int, window: float) -> float | None: ...

    def reset(self) -> None: ...


class MemoryCounters:
    """Sliding one-window counters in process memory (one process only)."""

    def __init__(self) -> None:
        self._hits: dict[tuple[str, str], deque[float]] = {}
        self._lock = Lock()
        self._last_sweep = time.monotonic()

    async def hit(self, scope: str, key: str, *, limit: int, window: float) -> float | None:
        now = time.monotonic()
        with self._lock:
            self._sweep(now, window)
            hits = self._hits.setdefault((scope, key), deque())
            while hits and hits[0] <= now - window:
                hits.popleft()
            if len(hits) >= limit:
                return max(hits[0] + window - now, 0.001)
            hits.append(now)
            return None

    def _sweep(self, now: float, window: float) -> None:
        if now - self._last_sweep < 60:
            return
        self._last_sweep = now
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - max(window, 3600)]:
            del self._hits[key]

    def reset(self) -> None:
        with self._lock:
            self._hits.clear()


# KEYS[1] the key; ARGV window (s), limit, a unique member. Returns nil when counted, else seconds to wait.
_SLIDING_LOG = """
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) + tonumber(now_parts[2]) / 1000000
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(math.max(tonumber(oldest[2]) + window - now, 0.001))
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return false
"""


class RedisCounters:
    """Sliding one-window logs in Redis, shared by every process that uses the same server."""

    def __init__(self, url: str, prefix: str = "medivisit:rl:") -> None:
        import redis.asyncio as redis

        self._client = redis.Redis.from_url(url)
        self._script = self._client.register_script(_SLIDING_LOG)
        self._prefix = prefix

    async def hit(self, scope: str, key: str, *, limit: int, window: float) -> float | None:
        answer = await self._script(
            keys=[f"{self._prefix}{scope}:{key}"], args=[window, limit, secrets.token_hex(8)]
        )
        return None if answer is None else float(answer)

    def reset(self) -> None:
        """Nothing to forget here: keys expire with their window (tests give each store its own prefix)."""


class PostgresCounters:
    """Fixed windows in PostgreSQL (`rate_limit_counters`), shared by every process on the database."""

    _UPSERT = """
        INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (:bucket, :now, 1)
        ON CONFLICT (bucket) DO UPDATE SET
          hits = CASE WHEN rate_limit_counters.window_start <= :expired THEN 1
                      ELSE rate_limit_counters.hits + 1 END,
          window_start = CASE WHEN rate_limit_counters.window_start <= :expired THEN :now
                              ELSE rate_limit_counters.window_start END
        RETURNING hits, window_start
    """
    _SWEEP_EVERY = 1000

    def __init__(self) -> None:
        self._hits_since_sweep = 0

    async def hit(self, scope: str, key: str, *, limit: int, window: float) -> float | None:
        from sqlalchemy import text

        from app.db import get_database

        now = datetime.now(UTC)
        bucket = f"{scope}:{key}"[:255]
        async with get_database().engine.begin() as connection:
            row = (
                await connection.execute(
                    text(self._UPSERT),
                    {"bucket": bucket, "now": now, "expired": now - timedelta(seconds=window)},
                )
            ).one()
            self._hits_since_sweep += 1
            if self._hits_since_sweep >= self._SWEEP_EVERY:
                self._hits_since_sweep = 0
                await connection.execute(
                    text("DELETE FROM rate_limit_counters WHERE window_start < :old"),
                    {"old": now - timedelta(days=1)},
                )
        if row.hits <= limit:
            return None
        left = (row.window_start + timedelta(seconds=window) - now).total_seconds()
        return min(max(left, 0.001), window)  # a concurrent hit may have opened the window a moment later

    def reset(self) -> None:
        """Nothing to forget here: every test database starts empty."""


def counters_for(settings: Settings) -> Counters:
    """Redis when REDIS_URL is set, else PostgreSQL when that is the database, else this process."""
    if settings.redis_url:
        return RedisCounters(settings.redis_url)
    if settings.database_url.startswith("postgresql"):
        return PostgresCounters()
    return MemoryCounters()


_counters: Counters = MemoryCounters()


def configure(counters: Counters) -> None:
    """Install the store every later `hit` counts in (at start-up)."""
    global _counters
    _counters = counters


async def hit(scope: str, key: str, *, limit: int, window: float) -> float | None:
    """Count one hit of `key` in `scope`; None when allowed, else seconds until one is allowed again.

    A `limit` of 0 or less, or an empty key, disables the limit (nothing is counted)."""
    if limit <= 0 or not key:
        return None
    return await _counters.hit(scope, key, limit=limit, window=window)


def reset() -> None:
    """Forget every count (tests)."""
    _counters.reset()
