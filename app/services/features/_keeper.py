"""Keeping this process's copy of the feature toggles (app/flags.py) in step with the database: loaded
before the server takes its first request, then again on every "features" event and every REFRESH seconds."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events, flags
from app.jobs import run_command
from models.feature import FeatureSetting

logger = logging.getLogger(__name__)


async def _read_toggles(*, session: AsyncSession) -> dict[str, Any]:
    return dict((await session.execute(select(FeatureSetting.key, FeatureSetting.value))).all())


async def load_toggles() -> None:
    """Read every administrator's choice into this process, keeping the last copy when the read fails."""
    try:
        toggles = await run_command(_read_toggles)
    except Exception:  # noqa: BLE001 - the next round tries again
        logger.exception("Could not load the feature toggles")
        return
    flags.replace(toggles)


async def keep_toggles_fresh() -> None:
    """Load again on each "features" event and every REFRESH seconds (until cancelled)."""
    async with events.subscribe(flags.TOPIC) as queue:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queue.get(), flags.REFRESH)
            await load_toggles()
