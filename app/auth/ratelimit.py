"""Request rate limits of the identity API, per client IP and per e-mail address (GoTrue `apilimiter`).

Sliding one-window counters kept in process memory: several worker processes each count on their own,
so the effective limit is workers × limit (document it; a shared store is a later step).
"""

from __future__ import annotations

import math
import time
from collections import deque
from threading import Lock

from app.auth.errors import too_many_requests


class RateLimiter:
    def __init__(self) -> None:
        self._hits: dict[tuple[str, str], deque[float]] = {}
        self._lock = Lock()
        self._last_sweep = time.monotonic()

    def hit(self, scope: str, key: str, *, limit: int, window: float) -> float | None:
        """Count one request; return seconds to wait if it exceeds `limit` per `window`, else None."""
        if limit <= 0 or not key:
            return None
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


limiter = RateLimiter()


def enforce(
    scope: str, keys: list[str], *, limit: int, window: float, code: str = "over_request_rate_limit"
) -> None:
    """Raise 429 (with Retry-After) when any key is over its limit."""
    for key in keys:
        wait = limiter.hit(scope, key, limit=limit, window=window)
        if wait is not None:
            message = (
                "Request rate limit reached"
                if code == "over_request_rate_limit"
                else "Email rate limit exceeded"
            )
            raise too_many_requests(code, message, retry_after=math.ceil(wait))
