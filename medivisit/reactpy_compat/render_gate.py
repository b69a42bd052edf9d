"""Renders take turns, so database work is never stuck behind a storm of them.

A ReactPy render is Python work on the one event loop (40–150 ms for a whole page). When a thousand tabs
open at once, a thousand render tasks are ready together, and asyncio runs ready tasks first come, first
served: a query that has its connection and only waits for its next step (the rows arrived, now commit)
waits behind every one of them. Connections are then held for a whole storm's worth of renders, the pool
runs dry and cart loads time out (2,042 of 3,000 failed in issue 10's measurement).

`install()` wraps `Layout._create_layout_update` in a gate that lets `RENDERS_AT_ONCE` renders in at a time.
A render waiting at the gate is parked, not ready: the loop alternates between one render and whatever
database steps are ready, connections are held for milliseconds again, and the storm's renders still use
all of the one core they can use. Renders are not dropped or reordered: the gate's queue is first come,
first served.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from reactpy.core import layout

from medivisit.reactpy_compat._guard import Patch

PATCH = Patch(__name__)
RENDERS_AT_ONCE = 2
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
_original: Any = None


def _gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(RENDERS_AT_ONCE)
    return gate


async def _gated_update(self: Any, old_state: Any) -> Any:
    async with _gate():
        return await _original(self, old_state)


def install() -> None:
    """Gate every layout update (idempotent)."""
    global _original
    PATCH.check_version()
    _original = PATCH.replace(PATCH.find(layout, "Layout"), "_create_layout_update", _gated_update)
