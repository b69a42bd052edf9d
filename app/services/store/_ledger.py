"""A store order's money in the ledger, written in the unit of work of the step that moves it.

Pay on delivery (the default pay-at-visit gateway): nothing is collected at checkout.
- placed: world → patient_booked, the order's total (owed);
- canceled before shipping: patient_booked → world (`store_order_voided`: nothing to collect);
- delivered: patient_booked → store_sales (the subtotal and the shipping) + sales_tax (the tax collected) +
  platform_fees (the fee the owners set for retail, none by default): collected;
- paid by card at checkout (`record_paid`): world → store_sales + sales_tax + platform_fees;
- refunded (`record_refund`, `_refunds`: staff's refund in full or in part, a paid order's return or
  cancellation): store_sales + sales_tax + platform_fees → patient_credit (as wallet credit) or → world (back
  to the card), in proportion, cumulatively, so refunds in parts give back exactly what the sale booked to
  each; the `refund` transaction row for the wallet's readable view is `_refunds`'.
Every entry's legs sum to zero (`_journal.post` refuses anything else).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.ledger import FEES, WORLD, Leg, move, split_fee
from app.services.ledger.internal import post
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


def _parts(order: StoreOrder, refunded: int) -> list[int]:
    """What `refunded` cents of the order take back from store sales, sales tax and the retail fee, in
    proportion to what the sale booked to each (all of each when all of it is refunded)."""
    shares = split_fee(
        refunded,
        [
            ("a", order.subtotal_cents + order.shipping_cents),
            ("b", order.tax_cents),
            ("c", order.fee_cents),
        ],
    )
    return [shares["a"], shares["b"], shares["c"]]


async def record_refund(
    session: AsyncSession,
    order: StoreOrder,
    amount: int,
    *,
    before: int,
    to_card: bool,
    actor_id: str,
    reason: str,
    at: datetime,
) -> None:
    """`amount` cents of a paid order refunded (`before` cents were already): taken back from the sale's
    accounts in proportion, into the patient's wallet credit or out to the world (the card)."""
    after, earlier = _parts(order, before + amount), _parts(order, before)
    sales, tax, fee = (now - then for now, then in zip(after, earlier, strict=True))
    credit = WORLD if to_card else (AccountKind.patient_credit, order.patient_id)
    await post(
        session=session,
        kind=EntryKind.refund,
        legs=[Leg(*SALES, -sales), Leg(*TAX, -tax), Leg(*FEES, -fee), Leg(*credit, amount)],
        description=(
            f"Store order {order.number} refunded to the card"
            if to_card
            else f"Store order {order.number} refunded as wallet credit"
        ),
        order_id=order.id,
        actor_id=actor_id,
        reason=reason,
        at=at,
    )
