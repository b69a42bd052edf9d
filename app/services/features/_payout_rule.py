"""The payout rule the owners set (business setting `payout_second_approval_above`, issue 29 item 2), read
in the caller's unit of work like the store's pricing: a request is judged by the threshold of its own
transaction. A setting nobody changed keeps the server's (PAYOUT_SECOND_APPROVAL_ABOVE)."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.features._pricing import setting_value
from models.feature import FeatureSetting

KEY = "payout_second_approval_above"


async def payout_second_approval_above(*, session: AsyncSession) -> Decimal:
    """The amount above which a payout request needs two approvers."""
    stored = await session.scalar(select(FeatureSetting.value).where(FeatureSetting.key == KEY))
    return Decimal(setting_value(KEY, {} if stored is None else {KEY: stored}))
