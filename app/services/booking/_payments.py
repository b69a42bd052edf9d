"""Payment gateways: how the money of an order is authorised when it is placed, and settled or voided when
its visits are completed or cancelled.

A gateway works on the order and transaction rows of the caller's unit of work and never commits. The
embedded default is `PayAtVisit`: the patient pays the provider at the visit, so authorising an order asks
no outside system for anything, and a transaction is settled when its visit is completed. A card gateway
would implement the same three calls against its processor; `get_gateway()` returns the configured one
(PAYMENT_GATEWAY).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Protocol

from app.settings import get_settings
from models.base import utcnow
from models.booking import Order, Transaction, TransactionStatus


class PaymentGateway(Protocol):
    name: str  # stored on orders (payment_method) and transactions (gateway)
    label: str  # what patients read

    async def authorize(self, order: Order, amount: Decimal) -> str:
        """Reserve `amount` for `order` (placed, numbered, not committed); return the gateway's reference."""
        ...

    async def settle(self, transaction: Transaction, *, at: datetime | None = None) -> None:
        """Collect a pending transaction: it becomes `completed` with its settlement time."""
        ...

    async def void(self, transaction: Transaction) -> None:
        """Release a pending transaction that will never be collected: it becomes `cancelled`."""
        ...


class PayAtVisit:
    """Payment in person at the visit. Nothing is charged online: the order number is the reference the
    provider and the patient share, and completing a visit records that its payment was collected."""

    name = "pay_at_visit"
    label = "Pay at visit"

    async def authorize(self, order: Order, amount: Decimal) -> str:
        return order.number

    async def settle(self, transaction: Transaction, *, at: datetime | None = None) -> None:
        transaction.status = TransactionStatus.completed
        transaction.settled_at = at or utcnow()

    async def void(self, transaction: Transaction) -> None:
        transaction.status = TransactionStatus.cancelled


GATEWAYS: dict[str, type[PaymentGateway]] = {PayAtVisit.name: PayAtVisit}


def get_gateway() -> PaymentGateway:
    """The configured gateway (default: pay at visit)."""
    return GATEWAYS[get_settings().payment_gateway]()
