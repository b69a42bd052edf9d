"""A store order's money in the ledger, written in the unit of work of the step that moves it.

Pay on delivery (the default pay-at-visit gateway): nothing is collected at checkout.
- placed: world → patient_booked, the order's total (owed);
- canceled before shipping: patient_booked → world (`store_order_voided`: nothing to collect);
- delivered: patient_booked → store_sales (the subtotal and the shipping) + sales_tax (the tax collected) +
  platform_fees (the fee the owners set for retail, none by default): collected;
- returned after delivery: store_sales + sales_tax + platform_fees → patient_credit (a `refund`, as wallet
  credit), each giving back exactly what the delivery booked to it, with a `refund` transaction row for the
  wallet's readable view.
Every entry's legs sum to zero (`_journal.post` refuses anything else).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.ledger import FEES, WORLD, Leg, dollars, move
from app.services.ledger.internal import post
from models.booking import Transaction, TransactionStatus, TransactionType
from models.ledger import AccountKind, EntryKind
from models.store import StoreOrder

SALES = (AccountKind.store_sales, "")
TAX = (AccountKind.sales_tax, "")


def _booked(order: StoreOrder) -> tuple[AccountKind, str]:
    return (AccountKind.patient_booked, order.patient_id)


async def record_placed(session: AsyncSession, order: StoreOrder, at: datetime) -> None:
    await post(
        session=session,
        kind=EntryKind.store_order_placed,
        legs=move(order.total_cents, WORLD, _booked(order)),
        description=f"Store order {order.number} (pay on delivery)",
        order_id=order.id,
        at=at,
    )


async def record_canceled(session: AsyncSession, order: StoreOrder, actor_id: str, at: datetime) -> None:
    await post(
        session=session,
        kind=EntryKind.store_order_voided,
        legs=move(order.total_cents, _booked(order), WORLD),
        description=f"Store order {order.number} canceled, nothing to collect",
        order_id=order.id,
        actor_id=actor_id,
        at=at,
    )


async def record_delivered(session: AsyncSession, order: StoreOrder, actor_id: str, at: datetime) -> None:
    await post(
        session=session,
        kind=EntryKind.store_order_delivered,
        legs=[Leg(*_booked(order), -order.total_cents), *_sale(order, 1)],
        description=f"Store order {order.number} delivered, paid on delivery",
        order_id=order.id,
        actor_id=actor_id,
        at=at,
    )


async def record_returned(
    session: AsyncSession, order: StoreOrder, actor_id: str, reason: str, at: datetime
) -> None:
    await post(
        session=session,
        kind=EntryKind.refund,
        legs=[*_sale(order, -1), Leg(AccountKind.patient_credit, order.patient_id, order.total_cents)],
        description=f"Store order {order.number} returned, refunded as wallet credit",
        order_id=order.id,
        actor_id=actor_id,
        reason=reason,
        at=at,
    )
    _refund_row(session, order, at)


def _refund_row(session: AsyncSession, order: StoreOrder, at: datetime) -> None:
    """The patient's wallet line of a store order refunded in full as credit."""
    session.add(
        Transaction(
            user_id=order.patient_id,
            type=TransactionType.refund,
            status=TransactionStatus.completed,
            amount=dollars(order.total_cents),
            description=f"Refund as wallet credit (store order {order.number})",
            gateway="wallet",
            settled_at=at,
        )
    )


def _sale(order: StoreOrder, sign: int) -> list[Leg]:
    """What a sale books beside the money: store sales (with shipping), sales tax and the retail fee."""
    return [
        Leg(*SALES, sign * (order.subtotal_cents + order.shipping_cents)),
        Leg(*TAX, sign * order.tax_cents),
        Leg(*FEES, sign * order.fee_cents),
    ]


async def record_paid(session: AsyncSession, order: StoreOrder, at: datetime) -> None:
    """Paid by card at checkout (issue 29 item 4): world → store sales + sales tax + the retail fee."""
    await post(
        session=session,
        kind=EntryKind.store_order_paid,
        legs=[Leg(*WORLD, -order.total_cents), *_sale(order, 1)],
        description=f"Store order {order.number} paid by card",
        order_id=order.id,
        at=at,
    )


async def record_canceled_paid(
    session: AsyncSession, order: StoreOrder, actor_id: str, reason: str, at: datetime
) -> None:
    """A card-paid order canceled before shipping: what its payment booked, back as wallet credit."""
    await post(
        session=session,
        kind=EntryKind.refund,
        legs=[*_sale(order, -1), Leg(AccountKind.patient_credit, order.patient_id, order.total_cents)],
        description=f"Store order {order.number} canceled, refunded as wallet credit",
        order_id=order.id,
        actor_id=actor_id,
        reason=reason,
        at=at,
    )
    _refund_row(session, order, at)
