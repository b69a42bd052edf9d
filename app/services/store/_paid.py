"""Store orders paid by card (issue 29 item 4, PAYMENT_GATEWAY=stripe), on their own or with visits.

A card order awaits its payment once placed: staff cannot move it along until it is paid (`check_paid_step`);
its money enters the ledger when the payment is confirmed (`_ledger.record_paid`: store sales, sales tax, the
retail fee if any). It is paid on a Checkout Session of its own (`StorePaymentCaptured` / `StorePaymentFailed`
from the payments domain), or, placed with visits from the same cart (`visit_order_id`), on the visit order's
session, whose `PaymentCaptured` / `PaymentFailed` it follows. A failed or expired payment cancels the order
and puts its stock back; nothing was in the ledger. Delivered later, nothing is left to collect; canceled
after payment by staff, it is refunded as wallet credit (as a return is).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import (
    PaymentCaptured,
    PaymentFailed,
    StorePaymentCaptured,
    StorePaymentFailed,
)
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.locks import write_lock
from app.services.store import _ledger
from app.services.store._rules import ORDER_STATUS
from models.booking import Order
from models.store import FulfilmentStatus, Product, StoreOrder, StoreOrderLine

CARD = "stripe"  # a store order's payment_method when paid by card (the card gateway's name)
AWAITING = "This order awaits its card payment; it can be processed once the payment is in."
NO_VISIT_ORDER = "That visit order is not yours."


def check_paid_step(order: StoreOrder, target: FulfilmentStatus) -> None:
    """A card order moves only once paid (a failed or expired payment cancels it by itself)."""
    if order.payment_method == CARD and order.paid_at is None:
        raise ValidationFailed(AWAITING, code="awaiting_payment")


async def require_own_visit_order(session: AsyncSession, patient_id: str, order_id: str) -> Order:
    """The visit order a store order is placed with: the same patient's."""
    order = await session.get(Order, order_id[:36])
    if order is None or order.patient_id != patient_id:
        raise NotFound(NO_VISIT_ORDER)
    return order


async def visit_numbers(session: AsyncSession, orders: Sequence[StoreOrder]) -> dict[str, str]:
    """Store order id → the number of the visit order placed with it (those that have one)."""
    linked = {order.id: order.visit_order_id for order in orders if order.visit_order_id}
    if not linked:
        return {}
    numbers = dict(
        (
            await session.execute(select(Order.id, Order.number).where(Order.id.in_(set(linked.values()))))
        ).all()
    )
    return {store_id: numbers[order_id] for store_id, order_id in linked.items() if order_id in numbers}


async def _locked(session: AsyncSession, store_order_id: str) -> StoreOrder | None:
    await write_lock(session, StoreOrder.id, [store_order_id])
    return await session.scalar(
        select(StoreOrder).where(StoreOrder.id == store_order_id).execution_options(populate_existing=True)
    )


async def _mark_paid(session: AsyncSession, store_order_id: str, at: datetime) -> None:
    order = await _locked(session, store_order_id)
    if order is None or order.payment_method != CARD or order.paid_at is not None:
        return
    if order.fulfilment != FulfilmentStatus.pending.value:
        return
    order.paid_at, order.status, order.updated_at = at, "paid", at
    await session.flush()
    await _ledger.record_paid(session, order, at)


async def _release(session: AsyncSession, store_order_id: str, reason: str, at: datetime) -> None:
    order = await _locked(session, store_order_id)
    if order is None or order.payment_method != CARD or order.paid_at is not None:
        return
    if order.fulfilment != FulfilmentStatus.pending.value:
        return
    order.fulfilment = FulfilmentStatus.canceled.value
    order.status = ORDER_STATUS[FulfilmentStatus.canceled].value
    order.canceled_at, order.updated_at, order.note = at, at, reason[:500]
    lines = (
        await session.execute(
            select(StoreOrderLine.product_id, StoreOrderLine.quantity).where(
                StoreOrderLine.order_id == order.id, StoreOrderLine.product_id.is_not(None)
            )
        )
    ).all()
    for product_id, quantity in sorted(lines):
        await session.execute(
            update(Product)
            .where(Product.id == product_id)
            .values(stock=Product.stock + quantity)
            .execution_options(synchronize_session=False)
        )
    await session.flush()


async def _linked(session: AsyncSession, order_id: str) -> list[str]:
    return list(
        await session.scalars(
            select(StoreOrder.id).where(
                StoreOrder.visit_order_id == order_id, StoreOrder.payment_method == CARD
            )
        )
    )


async def settle_store_payment(session: AsyncSession, event: StorePaymentCaptured) -> None:
    """A store order's own card payment came in: paid, and its sale in the ledger."""
    await _mark_paid(session, event.store_order_id, event.at)


async def release_store_order(session: AsyncSession, event: StorePaymentFailed) -> None:
    """A store order's own card payment failed or expired: canceled, its stock back."""
    await _release(session, event.store_order_id, event.reason, event.at)


async def settle_linked_store_order(session: AsyncSession, event: PaymentCaptured) -> None:
    """The one payment of a cart with visits came in: the store order placed with them is paid too."""
    for store_order_id in await _linked(session, event.order_id):
        await _mark_paid(session, store_order_id, event.at)


async def release_linked_store_order(session: AsyncSession, event: PaymentFailed) -> None:
    """The one payment of a cart with visits failed: the store order placed with them is canceled too."""
    for store_order_id in await _linked(session, event.order_id):
        await _release(session, store_order_id, "The card payment was not completed.", event.at)
