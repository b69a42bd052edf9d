"""Shared request counters: "at most `limit` hits of `key` in `window` seconds", for every rate limit.

One call, `await hit(scope, key, limit=, window=)`, answers None (allowed, and counted) or the seconds to wait.
The identity API (`app.auth.ratelimit`), the send-email function, uploads and the websocket commands all
count here, so a limit means the same thing wherever it is enforced.

The counters live in this process's memory (`MemoryCounters`, sliding one-window log). With several worker
processes or hosts the counts must be shared: `configure(backend)` installs another store behind the same
call (see `app.ratelimit_stores` when present).
"""

from __future__ import annotations

import time
from collections import deque
from threading import Lock
from typing import Protocol


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
