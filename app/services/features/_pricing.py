"""The store's money as the owners set it (business settings `store_*`, issue 29 item 4), read from the
database in the caller's unit of work: checkout prices an order with the settings of its own transaction, not
with a process's copy that may be a few seconds old. A setting nobody changed keeps its catalogue default
(no fee, no shipping, no tax); a stored value that no longer passes the checks counts as the default."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import ValidationFailed
from app.services.features._catalogue import BY_KEY
from app.services.features._toggles import checked_money, checked_percent
from models.feature import FeatureSetting
from models.store import StorePricing

KEYS = ("store_fee_percent", "store_shipping", "store_free_shipping_from", "store_tax_percent")


def setting_value(key: str, stored: dict[str, object]) -> str:
    """A money or percent setting's value from what is `stored` (by key), else its catalogue default."""
    feature = BY_KEY[key]
    try:
        if key not in stored:
            return str(feature.default())
        if feature.kind == "percent":
            return checked_percent(stored[key])
        return checked_money(stored[key], feature.most_cents)
    except ValidationFailed:
        return str(feature.default())


def _cents(dollars: str) -> int:
    return int(Decimal(dollars) * 100)


async def store_pricing(*, session: AsyncSession) -> StorePricing:
    """The platform fee, shipping, free-shipping threshold and sales tax store orders are priced with now."""
    stored: dict[str, object] = dict(
        (
            await session.execute(
                select(FeatureSetting.key, FeatureSetting.value).where(FeatureSetting.key.in_(KEYS))
            )
        )
        .tuples()
        .all()
    )
    return StorePricing(
        fee_percent=Decimal(setting_value("store_fee_percent", stored)),
        shipping_cents=_cents(setting_value("store_shipping", stored)),
        free_from_cents=_cents(setting_value("store_free_shipping_from", stored)),
        tax_percent=Decimal(setting_value("store_tax_percent", stored)),
    )
