"""Rate limits inside the domain: `await limit(...)` counts one attempt per key (`app.ratelimit`, shared
across workers) and raises `RateLimited` with a message a person understands when a key is over."""

from __future__ import annotations

import math

from app import ratelimit
from app.services.errors import RateLimited


async def limit(scope: str, keys: list[str], *, per_window: int, window: int, message: str) -> None:
    """Count one attempt for each non-empty key; raise RateLimited when any is over `per_window`."""
    for key in keys:
        wait = await ratelimit.hit(scope, key, limit=per_window, window=window)
        if wait is not None:
            minutes = max(1, math.ceil(wait / 60))
            raise RateLimited(
                f"{message} Please try again in {minutes} minute{'s' if minutes != 1 else ''}.",
                retry_after=math.ceil(wait),
            )
