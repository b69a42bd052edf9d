"""A closed tab's components are always unmounted, installed once at startup by `install()`.

When a websocket closes, ReactPy 1.1 leaves its layout inside an anyio cancel scope that cancels every
await, again and again. Unmounting awaits each component's effects as they stop, so the first of those
awaits ends the unmount: the components after it keep effect tasks waiting for a stop that never comes,
and the garbage collector logs "Task was destroyed but it is pending!" for each (seen when 1,000 tabs
closed at once in the load gate). `install()` runs the layout's exit on a task of its own, which the
cancel scope cannot reach; the closing connection waits for it only as long as it is allowed to.
"""

from __future__ import annotations

import asyncio
from typing import Any

from reactpy.core.layout import Layout

_original_exit = Layout.__aexit__
_exits: set[asyncio.Task[None]] = set()


async def _exit_to_the_end(self: Layout, *exc: Any) -> None:
    task = asyncio.create_task(_original_exit(self, *exc))
    _exits.add(task)
    task.add_done_callback(_exits.discard)
    await asyncio.shield(task)


def install() -> None:
    """Run every layout's exit to its end (idempotent)."""
    Layout.__aexit__ = _exit_to_the_end
