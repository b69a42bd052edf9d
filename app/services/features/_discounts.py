"""Who pays for a sale's discount as the owners set it (business setting `discount_funding`, issue 29 item 6),
read in the caller's unit of work like the payout rule: an order is booked with the choice of its own
transaction. A setting nobody changed, or a stored value that is not one of the choices, is MediVisit's
(platform-funded: the provider earns their full price)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from models.feature import FeatureSetting
from models.ledger import DiscountFunding

KEY = "discount_funding"


async def discount_funding(*, session: AsyncSession) -> DiscountFunding:
    """Who funds the discounts of visits booked now."""
    stored = await session.scalar(select(FeatureSetting.value).where(FeatureSetting.key == KEY))
    try:
        return DiscountFunding(stored) if stored is not None else DiscountFunding.platform
    except ValueError:
        return DiscountFunding.platform
