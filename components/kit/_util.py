"""Small private helpers shared by the kit's modules."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

Handler = Callable[..., Any]
"""A callback a screen hands to the kit: sync or `async def`; an awaitable it returns is awaited."""


async def call(handler: Handler | None, *args: Any) -> None:
    """Call `handler(*args)` and await its result when it is awaitable.

    Event handlers that act must be coroutines themselves: ReactPy 1.1 drops a coroutine returned by a
    plain lambda, so every kit handler is an `async def` that goes through here."""
    if handler is None:
        return
    result = handler(*args)
    if inspect.isawaitable(result):
        await result


def slug(text: str) -> str:
    """`text` as a fragment safe for an HTML id: lower case, [a-z0-9-] only."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "x"


def classes(*names: str | None | bool) -> str:
    """Join the truthy class names with spaces."""
    return " ".join(name for name in names if isinstance(name, str) and name)
