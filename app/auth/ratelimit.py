"""Request rate limits of the identity API, per client IP and per e-mail address (GoTrue `apilimiter`).

The counting itself is `app.ratelimit` (shared by every limit of the product); this module turns an
exceeded limit into GoTrue's 429 answer.
"""

from __future__ import annotations

import math

from app import ratelimit
from app.auth.errors import too_many_requests


async def enforce(
    scope: str, keys: list[str], *, limit: int, window: float, code: str = "over_request_rate_limit"
) -> None:
    """Raise 429 (with Retry-After) when any key is over its limit."""
    for key in keys:
        wait = await ratelimit.hit(scope, key, limit=limit, window=window)
        if wait is not None:
            message = (
                "Request rate limit reached"
                if code == "over_request_rate_limit"
                else "Email rate limit exceeded"
            )
            raise too_many_requests(code, message, retry_after=math.ceil(wait))
