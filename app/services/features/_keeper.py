"""Keeping this process's copy of the feature toggles (app/flags.py) in step with the database: loaded
before the server takes its first request, then again on every "features" event and every REFRESH seconds."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy import select

from app import events, flags
from app.db import unit_of_work
from models.feature import FeatureSetting

logger = logging.getLogger(__name__)


async def load_toggles() -> None:
    """Read every administrator's choice into this process, keeping the last copy when the read fails."""
    try:
        async with unit_of_work() as session:
            rows = (await session.execute(select(FeatureSetting.key, FeatureSetting.value))).all()
    except Exception:  # noqa: BLE001 - the next round tries again
        logger.exception("Could not load the feature toggles")
        return
    flags.replace(dict(rows))


async def keep_toggles_fresh() -> None:
    """Load again on each "features" event and every REFRESH seconds (until cancelled)."""
    async with events.subscribe(flags.TOPIC) as queue:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queue.get(), flags.REFRESH)
            await load_toggles()
