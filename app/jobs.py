"""The job runner: how background work, the command line and the seeders run a command.

`await run_command(command, **kwargs)` runs `command(session=…, **kwargs)` in a unit of work of its own
(commit on success, roll back on error), acting as `SYSTEM` (`actor=SYSTEM` when the command takes an
actor) at the runner's clock (`now=clock()` when it takes `now`). The clock is injected: the periodic
jobs (medivisit/periodic.py) and tests hand in their own; by default it is the real time in UTC.

This is the jobs' one way into a unit of work, as the hooks are the screens' (components/hooks.py) and the
request's unit of work is HTTP's (api/deps.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from app.db import unit_of_work
from app.principal import SYSTEM

T = TypeVar("T")
Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


@functools.lru_cache(maxsize=256)
def _parameters(command: Callable[..., Any]) -> frozenset[str]:
    return frozenset(inspect.signature(command).parameters)


async def run_command(
    command: Callable[..., Awaitable[T]], /, *, clock: Clock = system_clock, **kwargs: Any
) -> T:
    """`await command(session=<a unit of work of its own>, **kwargs)`, with `actor=SYSTEM` and
    `now=clock()` for a command that takes them and was not given them."""
    takes = _parameters(command)
    if "actor" in takes and "actor" not in kwargs:
        kwargs["actor"] = SYSTEM
    if "now" in takes and "now" not in kwargs:
        kwargs["now"] = clock()
    async with unit_of_work() as session:
        return await command(session=session, **kwargs)
