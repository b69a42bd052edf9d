"""What a Stripe Checkout Session lists (issue 29 item 4, one checkout): a line per visit (its booking
transaction: service and provider, at its price), the visits' platform fee, and, when a store order was placed
with the visits from the same cart (`StoreOrder.visit_order_id`), a line per product (quantity × unit price),
its shipping, its sales tax and its retail fee when an owner set one. The session's total is the sum of the
lines, which is the visit order's total plus the store order's: the amount the card payment records and the
webhook expects. A store order paid on its own (`store_lines`) lists its own products, shipping and tax.

Wallet credit spent on the visit order at checkout (`OrderCredit`, app/services/ledger `_credit_spend`) is
not charged again: Stripe takes no negative amount, so the credit comes off the visit order's lines, the
fee first and then the visits from the last, each line it reduces named with the credit it takes ("Platform
fee (less $4.15 wallet credit)") and a line it covers whole left out (`less_credit`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from models.booking import Order, Transaction, TransactionType
from models.checkout_credit import OrderCredit
from models.store import StoreOrder, StoreOrderLine

CURRENCY = "usd"
MAX_LINE_NAME = 250  # Stripe allows more; a line's name is a service with its provider, or a product


def _line(name: str, unit_cents: int, quantity: int = 1) -> dict[str, Any]:
    return {
        "quantity": quantity,
        "price_data": {
            "currency": CURRENCY,
            "unit_amount": unit_cents,
            "product_data": {"name": name[:MAX_LINE_NAME] or "Item"},
        },
    }


def less_credit(lines: list[dict[str, Any]], credit: int) -> list[dict[str, Any]]:
    """`lines` (each of quantity 1) less `credit` cents: taken from the last line first; a line it covers
    whole is left out, one it reduces says how much came off. `credit` is at most the lines' total."""
    kept: list[dict[str, Any]] = []
    for line in reversed(lines):
        amount = line["price_data"]["unit_amount"]
        taken = min(credit, amount)
        credit -= taken
        if taken == amount:
            continue
        if taken:
            name = line["price_data"]["product_data"]["name"]
            suffix = f" (less ${taken / 100:,.2f} wallet credit)"
            line = _line(name[: MAX_LINE_NAME - len(suffix)] + suffix, amount - taken)
        kept.append(line)
    return list(reversed(kept))


def line_total(lines: list[dict[str, Any]]) -> int:
    """The cents a session of `lines` charges (as Stripe sums it)."""
    return sum(line["quantity"] * line["price_data"]["unit_amount"] for line in lines)


async def linked_store_order(session: AsyncSession, order_id: str) -> StoreOrder | None:
    """The store order placed with visit order `order_id` from the same cart, if any."""
    return await session.scalar(select(StoreOrder).where(StoreOrder.visit_order_id == order_id).limit(1))


async def store_lines(session: AsyncSession, store: StoreOrder) -> list[dict[str, Any]]:
    """A store order's products (by name), then its shipping, sales tax and retail fee (the non-zero ones)."""
    lines = [
        _line(line.name, line.unit_price_cents, line.quantity)
        for line in await session.scalars(
            select(StoreOrderLine).where(StoreOrderLine.order_id == store.id).order_by(StoreOrderLine.name)
        )
    ]
    extras = (
        (f"Shipping (store order {store.number})", store.shipping_cents),
        (f"Sales tax (store order {store.number})", store.tax_cents),
        (f"Store platform fee (store order {store.number})", store.fee_cents),
    )
    return lines + [_line(name, amount) for name, amount in extras if amount > 0]


async def order_lines(session: AsyncSession, order: Order) -> list[dict[str, Any]]:
    """A visit order's lines: each visit, the platform fee (less the wallet credit spent on them), then the
    linked store order's lines."""
    from app.services.payments._stripe import cents

    transactions = (
        await session.scalars(
            select(Transaction)
            .where(Transaction.order_id == order.id)
            .order_by(Transaction.type, Transaction.created_at, Transaction.id)
        )
    ).all()
    visits = [t for t in transactions if t.type is TransactionType.booking]
    fee = cents(order.platform_fee)
    lines = [_line(t.description or "Visit", cents(t.amount)) for t in visits if cents(t.amount) > 0]
    if fee > 0:
        lines.append(_line("Platform fee", fee))
    # Visit prices that do not add up to the order (never expected): one line for the order instead, so
    # Stripe charges exactly the order's total.
    if line_total(lines) != cents(order.total):
        lines = [_line(f"Order {order.number}", cents(order.total))]
    credit = await session.scalar(select(OrderCredit.amount).where(OrderCredit.order_id == order.id))
    if credit:
        lines = less_credit(lines, min(credit, line_total(lines)))
    store = await linked_store_order(session, order.id)
    if store is not None and store.payment_method == "stripe":
        lines += await store_lines(session, store)
    return lines
