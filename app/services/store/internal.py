"""The store's actor-less reads for other domains: a store order as its cards show it (`read_store_order`),
for the receipts domain, which checks who reads it; and the subscribers that follow a card payment of a
store order (`_paid`: paid, or failed and canceled)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.store._orders import _reads
from app.services.store._paid import (
    release_linked_store_order,
    release_store_order,
    settle_linked_store_order,
    settle_store_payment,
)
from app.services.store._refunds import store_money
from models.card_refund import StoreOrderMoneyRead
from models.identity import as_utc
from models.store import StoreOrder, StoreOrderRead

MAX_NUMBER = 16  # StoreOrder.number's column


async def linked_store_order(
    session: AsyncSession, visit_order_id: str
) -> tuple[StoreOrderRead, datetime | None, StoreOrderMoneyRead] | None:
    """The store order placed with visit order `visit_order_id` from one checkout (its read, when it was
    returned or canceled, its money), or None."""
    row = await session.scalar(
        select(StoreOrder)
        .where(StoreOrder.visit_order_id == visit_order_id)
        .order_by(StoreOrder.created_at, StoreOrder.id)
        .limit(1)
    )
    if row is None:
        return None
    read = (await _reads(session, [row]))[0]
    return read, as_utc(row.returned_at or row.canceled_at), await store_money(session, row)


async def store_money_of(session: AsyncSession, store_order_id: str) -> StoreOrderMoneyRead | None:
    """A store order's payment and refunds (no access check), or None when there is no such order."""
    row = await session.get(StoreOrder, store_order_id)
    return await store_money(session, row) if row is not None else None


async def read_store_order(
    session: AsyncSession, number: str
) -> tuple[StoreOrderRead, datetime | None] | None:
    """Store order `number` ("MS-7K3Q9P", any case) as My orders and the staff queue read it, and when it
    was returned or canceled (a stamp the read leaves out); None when there is no such order."""
    row = await session.scalar(
        select(StoreOrder).where(StoreOrder.number == (number or "")[:MAX_NUMBER].upper())
    )
    if row is None:
        return None
    return (await _reads(session, [row]))[0], as_utc(row.returned_at or row.canceled_at)


__all__ = [
    "linked_store_order",
    "read_store_order",
    "store_money",
    "store_money_of",
    "release_linked_store_order",
    "release_store_order",
    "settle_linked_store_order",
    "settle_store_payment",
]
